// SPDX-License-Identifier: MIT
/* Whether a row's share of the samples differs between two profiles:
 * Fisher's exact test on the 2x2 table, Newcombe's interval of the
 * difference. Why these two: see counts_test() in stats.h. */
#include "core/core.h"
#include "stats/stats.h"

#include <math.h>

/* The 97.5% quantile of the standard normal distribution. */
#define Z95 1.959963984540054

/* R's fisher.test counts a table as extreme as the observed one when its
 * probability is within this relative distance: the same table, reached
 * through different rounding, must count. */
#define FISHER_REL_TOL 1e-7

/* Terms smaller than this fraction of the largest (or of the observed
 * table's) add nothing that a double keeps: the walk stops there. */
#define FISHER_LOG_NEGLIGIBLE (-40.0)

/* log P(k + 1) - log P(k), for k of A's @na samples in the row of @m in
 * all, B having @nb: the hypergeometric distribution's ratio. */
static double log_step(uint64_t k, uint64_t m, uint64_t na, uint64_t nb)
{
	return log((double)(na - k)) + log((double)(m - k)) - log((double)(k + 1)) -
	       log((double)(nb - m + k + 1));
}

/* Walk away from the mode (log term 0) one way, adding every term to
 * *@total and those no likelier than the observed table to *@extreme. */
static void fisher_walk(uint64_t from, uint64_t lo, uint64_t hi, int dir,
			uint64_t m, uint64_t na, uint64_t nb, double lobs,
			double *total, double *extreme)
{
	double l = 0, stop = fmin(lobs, 0) + FISHER_LOG_NEGLIGIBLE;
	uint64_t k = from;

	for (;;) {
		if (dir > 0) {
			if (k >= hi)
				return;
			l += log_step(k, m, na, nb);
			k++;
		} else {
			if (k <= lo)
				return;
			l -= log_step(k - 1, m, na, nb);
			k--;
		}
		if (l < stop)
			return;
		*total += exp(l);
		if (l <= lobs + FISHER_REL_TOL)
			*extreme += exp(l);
	}
}

double fisher_exact(uint64_t xa, uint64_t na, uint64_t xb, uint64_t nb)
{
	uint64_t m = xa + xb, n = na + nb;
	uint64_t lo = m > nb ? m - nb : 0, hi = m < na ? m : na;
	uint64_t mode = (uint64_t)floor(((double)m + 1) * ((double)na + 1) /
					((double)n + 2));
	double lobs = 0, total = 1, extreme;

	mode = mode < lo ? lo : mode > hi ? hi : mode;
	for (uint64_t k = mode; k < xa; k++)
		lobs += log_step(k, m, na, nb);
	for (uint64_t k = mode; k > xa; k--)
		lobs -= log_step(k - 1, m, na, nb);
	extreme = lobs >= -FISHER_REL_TOL ? 1 : 0;	/* the mode's own term */
	fisher_walk(mode, lo, hi, +1, m, na, nb, lobs, &total, &extreme);
	fisher_walk(mode, lo, hi, -1, m, na, nb, lobs, &total, &extreme);
	return fmin(1, extreme / total);
}

/* Wilson's score interval of the proportion @x / @n at 95%. */
static void wilson(uint64_t x, uint64_t n, double *lo, double *hi)
{
	double p = (double)x / (double)n, z2 = Z95 * Z95, den = 1 + z2 / (double)n;
	double center = (p + z2 / (2 * (double)n)) / den;
	double half = Z95 * sqrt(p * (1 - p) / (double)n +
				 z2 / (4 * (double)n * (double)n)) / den;

	*lo = fmax(0, center - half);
	*hi = fmin(1, center + half);
}

int counts_test(uint64_t xa, uint64_t na, uint64_t xb, uint64_t nb,
		struct counts_result *r)
{
	double pa, pb, la, ua, lb, ub;

	if (!na || !nb || xa > na || xb > nb)
		return -EINVAL;
	pa = (double)xa / (double)na;
	pb = (double)xb / (double)nb;
	wilson(xa, na, &la, &ua);
	wilson(xb, nb, &lb, &ub);
	r->diff = pb - pa;
	r->ci_low = r->diff - sqrt((pb - lb) * (pb - lb) + (ua - pa) * (ua - pa));
	r->ci_high = r->diff + sqrt((ub - pb) * (ub - pb) + (pa - la) * (pa - la));
	r->p_value = fisher_exact(xa, na, xb, nb);
	return 0;
}
