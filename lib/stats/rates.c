// SPDX-License-Identifier: MIT
/* Whether a row's rate of samples differs between two profiles: the exact
 * conditional test of two Poisson rates and the Clopper-Pearson interval
 * of their ratio. Why these: see rates_test() in stats.h. */
#include "core/core.h"
#include "stats/stats.h"

#include <math.h>

/* As in proportions.c: the same term through other rounding counts as as
 * extreme, and terms this far below the observed one add nothing. */
#define BINOM_REL_TOL 1e-7
#define BINOM_LOG_NEGLIGIBLE (-40.0)

/* log P(k + 1) - log P(k) of the binomial distribution (@n, @lodds the
 * log of p / (1 - p)). */
static double binom_step(uint64_t k, uint64_t n, double lodds)
{
	return log((double)(n - k)) - log((double)(k + 1)) + lodds;
}

/* Walk away from the mode (log term 0) one way, adding every term to
 * *@total and those no likelier than the observed one to *@extreme. */
static void binom_walk(uint64_t from, uint64_t n, int dir, double lodds, double lobs,
		       double *total, double *extreme)
{
	double l = 0, stop = fmin(lobs, 0) + BINOM_LOG_NEGLIGIBLE;
	uint64_t k = from;

	while (dir > 0 ? k < n : k > 0) {
		if (dir > 0)
			l += binom_step(k++, n, lodds);
		else
			l -= binom_step(--k, n, lodds);
		if (l < stop)
			return;
		*total += exp(l);
		if (l <= lobs + BINOM_REL_TOL)
			*extreme += exp(l);
	}
}

double binomial_exact(uint64_t x, uint64_t n, double p)
{
	uint64_t mode = (uint64_t)floor(((double)n + 1) * p);
	double lodds, lobs = 0, total = 1, extreme;

	if (p <= 0 || p >= 1)
		return (p <= 0 && x == 0) || (p >= 1 && x == n) ? 1 : 0;
	lodds = log(p) - log1p(-p);
	mode = mode > n ? n : mode;
	for (uint64_t k = mode; k < x; k++)
		lobs += binom_step(k, n, lodds);
	for (uint64_t k = mode; k > x; k--)
		lobs -= binom_step(k - 1, n, lodds);
	extreme = lobs >= -BINOM_REL_TOL ? 1 : 0;
	binom_walk(mode, n, +1, lodds, lobs, &total, &extreme);
	binom_walk(mode, n, -1, lodds, lobs, &total, &extreme);
	return fmin(1, extreme / total);
}

/* The p at which I_p(a, b) is @q: bisection, I being increasing in p. */
static double beta_quantile(double q, double a, double b)
{
	double lo = 0, hi = 1;

	for (int i = 0; i < 100 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;

		if (incbeta(a, b, mid) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Clopper and Pearson's interval of the proportion @x / @n at 95%. */
static void clopper_pearson(uint64_t x, uint64_t n, double *lo, double *hi)
{
	*lo = x ? beta_quantile(0.025, (double)x, (double)(n - x + 1)) : 0;
	*hi = x < n ? beta_quantile(0.975, (double)(x + 1), (double)(n - x)) : 1;
}

/* A proportion of the pooled samples as the ratio of B's rate to A's. */
static double odds_ratio(double pi, double ea, double eb)
{
	return pi >= 1 ? INFINITY : pi / (1 - pi) * ea / eb;
}

int rates_test(uint64_t xa, double ea, uint64_t xb, double eb, struct rates_result *r)
{
	uint64_t n = xa + xb;
	double lo, hi;

	if (!(ea > 0) || !(eb > 0) || isinf(ea) || isinf(eb))
		return -EINVAL;
	r->ratio = xa ? ((double)xb / eb) / ((double)xa / ea) : NAN;
	if (!n) {
		*r = (struct rates_result){ .ratio = NAN, .ci_low = 0,
					    .ci_high = INFINITY, .p_value = 1 };
		return 0;
	}
	clopper_pearson(xb, n, &lo, &hi);
	r->ci_low = odds_ratio(lo, ea, eb);
	r->ci_high = odds_ratio(hi, ea, eb);
	r->p_value = binomial_exact(xb, n, eb / (ea + eb));
	return 0;
}
