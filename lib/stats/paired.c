// SPDX-License-Identifier: MIT
/* Whether B differs from A over pairs of runs that saw the same machine: the
 * paired t-test and Wilcoxon's signed-rank test on the differences b - a. */
#include "core/core.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* R's wilcox.test draws the line here, as for Mann-Whitney. */
#define EXACT_MAX 50

/* The pairs' differences b - a, where both are defined, into a new array. */
static size_t differences(const double *a, const double *b, size_t n, double **out)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	size_t m = 0;

	*out = d;
	for (size_t i = 0; d && i < n; i++)
		if (!isnan(a[i]) && !isnan(b[i]))
			d[m++] = b[i] - a[i];
	return m;
}

/* Fills diff, the interval, t, df and the p-value of the paired t-test. */
static void paired_t(const double *d, size_t n, double confidence,
		     struct hwp_stats_test_result *r)
{
	double mean = 0, m2 = 0, se, half;

	for (size_t i = 0; i < n; i++) {
		double delta = d[i] - mean;

		mean += delta / (double)(i + 1);
		m2 += delta * (d[i] - mean);
	}
	se = sqrt(m2 / (double)(n - 1) / (double)n);
	r->diff = mean;
	r->df = (double)(n - 1);
	if (se == 0) {
		/* Every pair moved by the same amount: that is the difference. */
		r->statistic = mean == 0 ? 0 : copysign(INFINITY, mean);
		r->p_value = mean == 0 ? 1 : 0;
		r->ci_low = r->ci_high = mean;
		return;
	}
	r->statistic = mean / se;
	r->p_value = fmin(1, 2 * t_cdf(-fabs(r->statistic), r->df));
	half = t_quantile(0.5 + confidence / 2, r->df) * se;
	r->ci_low = mean - half;
	r->ci_high = mean + half;
}

static int cmp_abs(const void *x, const void *y)
{
	double a = fabs(*(const double *)x), b = fabs(*(const double *)y);

	return (a > b) - (a < b);
}

/*
 * P(W <= w) and P(W >= w) for W, the sum of the ranks 1..m that carry a
 * plus sign, each sign + or - with probability 1/2: the number of subsets
 * of {1..m} of each sum, by adding the ranks one at a time.
 */
static int signed_rank_tails(size_t m, double w, double *lower, double *upper)
{
	size_t top = m * (m + 1) / 2;
	double *count = calloc(top + 1, sizeof(*count)), total = ldexp(1, (int)m);
	double lo = 0, hi = 0;

	if (!count)
		return -ENOMEM;
	count[0] = 1;
	for (size_t k = 1; k <= m; k++)
		for (size_t s = k * (k + 1) / 2; s >= k; s--)
			count[s] += count[s - k];
	for (size_t s = 0; s <= top; s++) {
		if ((double)s <= w)
			lo += count[s];
		if ((double)s >= w)
			hi += count[s];
	}
	free(count);
	*lower = lo / total;
	*upper = hi / total;
	return 0;
}

/* Fills statistic (W+), p_value and exact; zero differences are dropped. */
static int signed_rank(double *d, size_t n, struct hwp_stats_test_result *r)
{
	double w = 0, ties = 0, mu, sigma, z, mm;
	size_t m = 0;
	bool tied = false;

	for (size_t i = 0; i < n; i++)
		if (d[i] != 0)
			d[m++] = d[i];
	qsort(d, m, sizeof(*d), cmp_abs);
	for (size_t i = 0; i < m;) {
		size_t j = i;
		double t;

		while (j + 1 < m && fabs(d[j + 1]) == fabs(d[i]))
			j++;
		for (size_t k = i; k <= j; k++)
			w += d[k] > 0 ? (double)(i + j + 2) / 2 : 0;
		t = (double)(j - i + 1);
		ties += t * t * t - t;
		tied |= j > i;
		i = j + 1;
	}
	r->statistic = w;
	r->exact = !tied && m == n && n < EXACT_MAX;
	if (!m) {
		r->p_value = 1;
		return 0;
	}
	if (r->exact) {
		double lower, upper;
		int err = signed_rank_tails(m, w, &lower, &upper);

		if (err)
			return err;
		r->p_value = fmin(1, 2 * fmin(lower, upper));
		return 0;
	}
	mm = (double)m;
	mu = mm * (mm + 1) / 4;
	sigma = sqrt(mm * (mm + 1) * (2 * mm + 1) / 24 - ties / 48);
	z = w - mu;
	/* Continuity: W moves in steps of 1/2 or 1, the normal curve does not. */
	z = (z - (z > 0 ? 0.5 : z < 0 ? -0.5 : 0)) / sigma;
	r->p_value = fmin(1, 2 * normal_cdf(-fabs(z)));
	return 0;
}

int paired_test(const double *a, const double *b, size_t n, enum hwp_stats_test test,
		double confidence, struct hwp_stats_test_result *r)
{
	double *d;
	size_t m = differences(a, b, n, &d);
	int err = 0;

	if (!d)
		return -ENOMEM;
	r->test = test;
	r->na = r->nb = m;
	r->exact = false;
	if (m < 2) {
		free(d);
		return -HWP_ERR_MISMATCH;
	}
	paired_t(d, m, confidence, r);
	if (test == HWP_TEST_MANN_WHITNEY) {
		r->df = NAN;
		err = signed_rank(d, m, r);
	}
	free(d);
	return err;
}
