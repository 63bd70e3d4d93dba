// SPDX-License-Identifier: MIT
/* Whether two samples differ: Welch's t-test, Mann-Whitney U, Holm's correction. */
#include "core/core.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* R's wilcox.test draws the same line: the exact distribution below 50
 * values a side, where it is cheap (2 MB and 6M additions at most). */
#define EXACT_MAX 50

struct moments {
	size_t n;
	double mean, var;
};

static void moments_of(const double *v, size_t n, struct moments *m)
{
	double mean = 0, m2 = 0;

	for (size_t i = 0; i < n; i++) {
		double d = v[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * (v[i] - mean);
	}
	m->n = n;
	m->mean = mean;
	m->var = n > 1 ? m2 / (double)(n - 1) : NAN;
}

/* Fills diff, the interval, t, df and the p-value of Welch's test. */
static void welch(const struct moments *a, const struct moments *b, double confidence,
		  struct hwp_stats_test_result *r)
{
	double va = a->var / (double)a->n, vb = b->var / (double)b->n;
	double se = sqrt(va + vb), half;

	r->diff = b->mean - a->mean;
	if (se == 0) {
		/* No spread at all: the difference is exactly what was seen. */
		r->statistic = r->diff == 0 ? 0 : copysign(INFINITY, r->diff);
		r->df = NAN;
		r->p_value = r->diff == 0 ? 1 : 0;
		r->ci_low = r->ci_high = r->diff;
		return;
	}
	r->df = (va + vb) * (va + vb) /
		(va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	r->statistic = r->diff / se;
	r->p_value = 2 * t_cdf(-fabs(r->statistic), r->df);
	if (r->p_value > 1)
		r->p_value = 1;
	half = t_quantile(0.5 + confidence / 2, r->df) * se;
	r->ci_low = r->diff - half;
	r->ci_high = r->diff + half;
}

struct ranked {
	double v;
	bool in_b;
};

static int cmp_ranked(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v, b = ((const struct ranked *)y)->v;

	return (a > b) - (a < b);
}

/*
 * P(U <= u) and P(U >= u) for U of b with sizes m (a) and n (b), all
 * orders equally likely. The largest value is b's with probability
 * n / (m + n), and then beats all m values of a; else it is a's and beats
 * none: p(u; m, n) = n/N p(u - m; m, n - 1) + m/N p(u; m - 1, n).
 * Two layers over j (b's size) of m + 1 distributions each.
 */
static int exact_tails(size_t m, size_t n, size_t u, double *lower, double *upper)
{
	size_t len = m * n + 1;
	double *prev = calloc((m + 1) * len, sizeof(*prev));
	double *cur = calloc((m + 1) * len, sizeof(*cur));
	double lo = 0, hi = 0;

	if (!prev || !cur) {
		free(prev);
		free(cur);
		return -ENOMEM;
	}
	/* j = 0: U is 0 whatever the size of a. */
	for (size_t i = 0; i <= m; i++)
		prev[i * len] = 1;
	for (size_t j = 1; j <= n; j++) {
		memset(cur, 0, (m + 1) * len * sizeof(*cur));
		cur[0] = 1;	/* i = 0: U is 0 */
		for (size_t i = 1; i <= m; i++) {
			double pb = (double)j / (double)(i + j), pa = 1 - pb;
			const double *from_b = prev + i * len;
			const double *from_a = cur + (i - 1) * len;
			double *p = cur + i * len;

			for (size_t k = 0; k <= i * j; k++)
				p[k] = (k >= i ? pb * from_b[k - i] : 0) + pa * from_a[k];
		}
		memcpy(prev, cur, (m + 1) * len * sizeof(*cur));
	}
	for (size_t k = 0; k < len; k++) {
		if (k <= u)
			lo += prev[m * len + k];
		if (k >= u)
			hi += prev[m * len + k];
	}
	free(prev);
	free(cur);
	*lower = lo;
	*upper = hi;
	return 0;
}

/* Fills statistic, p_value and exact; a and b are sorted, without NANs. */
static int mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct hwp_stats_test_result *r)
{
	size_t nn = na + nb;
	struct ranked *all = malloc(nn * sizeof(*all));
	double rank_sum_b = 0, ties = 0, mu, sigma, z;
	bool tied = false;

	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], false };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], true };
	qsort(all, nn, sizeof(*all), cmp_ranked);
	/* Average ranks (1-based) over each run of equal values. */
	for (size_t i = 0; i < nn;) {
		size_t j = i;
		double avg, t;

		while (j + 1 < nn && all[j + 1].v == all[i].v)
			j++;
		avg = (double)(i + j + 2) / 2;
		for (size_t k = i; k <= j; k++)
			if (all[k].in_b)
				rank_sum_b += avg;
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		tied |= j > i;
		i = j + 1;
	}
	free(all);
	r->statistic = rank_sum_b - (double)nb * (double)(nb + 1) / 2;
	mu = (double)na * (double)nb / 2;
	if (!tied && na < EXACT_MAX && nb < EXACT_MAX) {
		double lower, upper;
		int err = exact_tails(na, nb, (size_t)r->statistic, &lower, &upper);

		if (err)
			return err;
		r->exact = true;
		r->p_value = fmin(1, 2 * fmin(lower, upper));
		return 0;
	}
	r->exact = false;
	sigma = sqrt((double)na * (double)nb / 12 *
		     ((double)(nn + 1) - ties / ((double)nn * (double)(nn - 1))));
	if (sigma == 0) {	/* every value is the same */
		r->p_value = 1;
		return 0;
	}
	z = r->statistic - mu;
	/* Continuity: U moves in steps of 1/2 or 1, the normal curve does not. */
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sigma;
	r->p_value = fmin(1, 2 * normal_cdf(-fabs(z)));
	return 0;
}

HWP_API int hwp_stats_test(const double *a, size_t na, const double *b, size_t nb,
			    const struct hwp_stats_test_opts *opts,
			    struct hwp_stats_test_result *out)
{
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	struct hwp_stats_test_opts o;
	struct moments ma, mb;
	double *sa = NULL, *sb = NULL;
	int err;

	clear_error();
	if ((na && !a) || (nb && !b) || !out)
		return fail(-EINVAL, "hwp_stats_test: NULL argument");
	err = OPTS_COPY(&o, opts, hwp_stats_test_opts);
	if (err)
		return err;
	if (!o.confidence)
		o.confidence = 0.95;
	if (!(o.confidence > 0 && o.confidence < 1))
		return fail(-EINVAL,
			    "hwp_stats_test: confidence %g is not between 0 and 1",
			    o.confidence);
	if (o.test != HWP_TEST_WELCH && o.test != HWP_TEST_MANN_WHITNEY)
		return fail(-EINVAL, "hwp_stats_test: unknown test %d", (int)o.test);
	r.na = sorted_defined(a, na, &sa);
	r.nb = sorted_defined(b, nb, &sb);
	if (!sa || !sb) {
		err = fail(-ENOMEM, "out of memory");
		goto out;
	}
	if (r.na < 2 || r.nb < 2) {
		err = fail(-HWP_ERR_MISMATCH,
			       "the %s sample has %zu value%s: a test needs at least 2 on each side to tell a difference from noise",
			       r.na < 2 ? "first" : "second", r.na < 2 ? r.na : r.nb,
			       (r.na < 2 ? r.na : r.nb) == 1 ? "" : "s");
		goto out;
	}
	r.test = o.test;
	moments_of(sa, r.na, &ma);
	moments_of(sb, r.nb, &mb);
	welch(&ma, &mb, o.confidence, &r);
	if (o.test == HWP_TEST_MANN_WHITNEY) {
		r.df = NAN;
		err = mann_whitney(sa, r.na, sb, r.nb, &r);
		if (err) {
			fail(err, "out of memory");
			goto out;
		}
	}
	err = info_fill(out, &r, sizeof(r));
out:
	free(sa);
	free(sb);
	return err;
}

struct indexed {
	double p;
	size_t idx;
};

static int cmp_indexed(const void *x, const void *y)
{
	const struct indexed *a = x, *b = y;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->idx > b->idx) - (a->idx < b->idx);
}

HWP_API int hwp_stats_holm(const double *p, size_t n, double *adjusted)
{
	struct indexed *s;
	size_t m = 0;
	double running = 0;

	clear_error();
	if (n && (!p || !adjusted))
		return fail(-EINVAL, "hwp_stats_holm: NULL argument");
	s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			s[m++] = (struct indexed){ p[i], i };
	qsort(s, m, sizeof(*s), cmp_indexed);
	/* NANs first: p may be adjusted, and its defined values are in s. */
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adjusted[i] = NAN;
	for (size_t k = 0; k < m; k++) {
		double v = fmin(1, (double)(m - k) * s[k].p);

		/* Step-down: never below an adjusted value of a smaller p. */
		running = fmax(running, v);
		adjusted[s[k].idx] = running;
	}
	free(s);
	return 0;
}
