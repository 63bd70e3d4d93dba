/* SPDX-License-Identifier: MIT */
/* Distributions for the statistics; private to the library and its tests. */
#ifndef HWPROF_STATS_H
#define HWPROF_STATS_H

#include <hwprof/hwprof.h>

#include <stddef.h>
#include <stdint.h>

/* The regularized incomplete Beta function I_x(a, b). */
double incbeta(double a, double b, double x);
/* Student's t distribution: P(T <= t) with @df degrees of freedom. */
double t_cdf(double t, double df);
/* Its inverse. */
double t_quantile(double p, double df);
/* The standard normal distribution: P(Z <= z). */
double normal_cdf(double z);
/* The median of @n sorted values; NAN when n is 0. */
double median_sorted(const double *v, size_t n);
/* Copy the values that are not NAN into a new sorted array (*out, free it). */
size_t sorted_defined(const double *values, size_t n, double **out);

/* proportions.c: a row with @xa of a profile's @na samples and @xb of
 * another's @nb. The samples of a row are counted, so the test is of two
 * binomial proportions, on the 2x2 table (in the row, not) x (A, B):
 * Fisher's exact test, because most rows of a profile (the tail, and most
 * of them by instruction or line) hold a few samples, where the normal
 * approximation of the two-proportion z-test or the chi-square test is
 * poor; it costs about the square root of the row's samples. The interval
 * is Newcombe's hybrid score interval (Statist. Med. 17, 1998, method 10),
 * built on Wilson's, which keeps its 95% near 0 and 1 where Wald's fails. */
struct counts_result {
	double diff;		/* xb/nb - xa/na */
	double ci_low, ci_high;	/* 95% interval of diff */
	double p_value;		/* two-sided */
};
/* -EINVAL for an empty side or a row larger than its side. */
int counts_test(uint64_t xa, uint64_t na, uint64_t xb, uint64_t nb,
		struct counts_result *r);
/* Fisher's exact test, two-sided as R's fisher.test: the probability of the
 * tables with these margins no likelier than the observed one. */
double fisher_exact(uint64_t xa, uint64_t na, uint64_t xb, uint64_t nb);

/* paired.c: @n pairs (a[i], b[i]), pairs with a NAN skipped; the test on
 * the differences b[i] - a[i]. HWP_TEST_WELCH is the paired t-test (t,
 * df n - 1); HWP_TEST_MANN_WHITNEY, its rank counterpart, Wilcoxon's
 * signed-rank test (statistic W+, the sum of the ranks of |d| that are
 * positive; zeros dropped; exact below 50 pairs without ties or zeros,
 * else normal with tie and continuity corrections, as R's wilcox.test).
 * diff and its interval are the paired t's either way; na and nb are the
 * pairs used. -HWP_ERR_MISMATCH under 2 pairs, -ENOMEM. */
int paired_test(const double *a, const double *b, size_t n, enum hwp_stats_test test,
		double confidence, struct hwp_stats_test_result *r);

/* rates.c: a row with @xa samples of a profile whose exposure is @ea and
 * @xb of another's of @eb, the exposure being what one sample's rate is
 * per: 1 / the period a sample stands for (events per recording), times
 * the recording's seconds (events per second). Samples taken at a steady
 * period are counted as Poisson's, so the test is of two Poisson rates,
 * exact and conditional on the row's @xa + @xb: B's part of them is
 * binomial, with p = eb / (ea + eb) when the rates are equal (two-sided
 * as R's poisson.test and binom.test: the outcomes no likelier than the
 * observed one). The interval of the ratio of B's rate to A's is Clopper
 * and Pearson's of that part, mapped to the ratio: exact (at least 95%),
 * where Wald's on the log ratio fails for the rows of a few samples. */
struct rates_result {
	double ratio;		/* (xb / eb) / (xa / ea); NAN when xa is 0 */
	double ci_low, ci_high;	/* 95% interval of ratio (ci_high INFINITY: no bound) */
	double p_value;		/* two-sided */
};
/* -EINVAL for an exposure that is not positive and finite. */
int rates_test(uint64_t xa, double ea, uint64_t xb, double eb, struct rates_result *r);
/* The exact binomial test of @x successes in @n at probability @p,
 * two-sided as R's binom.test. */
double binomial_exact(uint64_t x, uint64_t n, double p);

#endif
