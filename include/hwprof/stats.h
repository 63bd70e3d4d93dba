/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/stats.h>: statistics: summaries, tests, corrections, outliers, run orders.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_STATS_H
#define HWPROF_API_STATS_H

#include <hwprof/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Statistics
 */

/* A summary of repeated measurements. */
struct hwp_stats_summary {
	size_t sz;
	size_t n;		/* values that were defined (NAN ones are skipped) */
	double mean;
	double median;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / |mean|; NAN when mean is 0 */
	double min, max;
	/* stddev / sqrt(n) / |mean|: perf stat's "+- x%" (as a fraction) */
	double rel_stderr;
	double ci_low, ci_high;	/* 95% confidence interval of the mean (Student t) */
};

/*
 * hwp_stats_summarize - summarize @n values, skipping NANs
 *
 * Fields that need more values than there are (stddev with one value) are
 * NAN. Errors: -EINVAL for a NULL @out or a too small out->sz. Thread-safe.
 * Since: 0.1 (as hwp_summarize)
 */
HWP_API int hwp_stats_summarize(const double *values, size_t n,
				struct hwp_stats_summary *out);

/* The two-sample tests of hwp_stats_test(). */
enum hwp_stats_test {
	/* Welch's t-test: a difference of means, variances not assumed equal */
	HWP_TEST_WELCH = 0,
	/* Mann-Whitney U (Wilcoxon rank-sum): a shift of one sample against the
	 * other, from ranks alone; for small or skewed samples and outliers */
	HWP_TEST_MANN_WHITNEY,
};

struct hwp_stats_test_opts {
	size_t sz;
	enum hwp_stats_test test;	/* default Welch */
	double confidence;	/* of the interval of the difference; 0: 0.95 */
	size_t :0;
};

/* The outcome of a two-sample test. */
struct hwp_stats_test_result {
	size_t sz;
	enum hwp_stats_test test;
	size_t na, nb;		/* the values used: NANs are skipped */
	double diff;		/* mean of b - mean of a */
	double ci_low, ci_high;	/* confidence interval of diff (Welch's t) */
	/* Welch: t = diff / its standard error. Mann-Whitney: U of b, the
	 * number of pairs (a[i], b[j]) with b[j] > a[i], ties counting 1/2. */
	double statistic;
	double df;		/* Welch: Welch-Satterthwaite df; else NAN */
	double p_value;		/* two-sided */
	/* Mann-Whitney: true when p_value comes from the exact distribution of U
	 * (both samples under 50 values and no ties); false for the normal
	 * approximation with tie and continuity corrections. Welch: false. */
	bool exact;
};

/*
 * hwp_stats_test - whether two samples differ
 * @a, @na: the first sample (the baseline); NANs are skipped
 * @b, @nb: the second sample
 * @opts: NULL (Welch's t-test, 95% interval) or options
 * @out: filled up to out->sz
 *
 * Two-sided. When both samples have no spread, p_value is 1 when their
 * means are equal and 0 when they differ. Errors: -EINVAL for a NULL
 * argument, an unknown test or a confidence outside (0, 1);
 * -HWP_ERR_MISMATCH when a sample has fewer than 2 defined values (the
 * message says which); -ENOMEM. Thread-safe. Since: 0.1 (as hwp_sample_test)
 */
HWP_API int hwp_stats_test(const double *a, size_t na, const double *b, size_t nb,
			    const struct hwp_stats_test_opts *opts,
			    struct hwp_stats_test_result *out);

/*
 * hwp_stats_holm - Holm's step-down correction of @n p-values
 * @p: the p-values; NANs are left out of the family and stay NAN
 * @adjusted: receives the adjusted p-values, in the order of @p (it may be @p)
 *
 * Rejecting where adjusted < alpha keeps the chance of any false positive
 * among the n tests below alpha (Holm, Scand. J. Statist. 6, 1979). The
 * adjusted values never decrease with p and are at most 1. Errors: -EINVAL
 * for a NULL array, -ENOMEM. Thread-safe. Since: 0.1 (as hwp_holm_adjust)
 */
HWP_API int hwp_stats_holm(const double *p, size_t n, double *adjusted);

/*
 * hwp_stats_outliers_mad - flag the values far from the rest
 * @threshold: the modified z-score above which a value is flagged; 0 for
 *	       3.5, as Iglewicz and Hoaglin recommend
 * @flags: @n entries, set true for an outlier (NULL: count only)
 * @nr: NULL, or set to the number of outliers
 *
 * The modified z-score is 0.6745 (x - median) / MAD, MAD being the median
 * absolute deviation from the median; when half the values or more equal
 * the median (MAD is 0) it is (x - median) / (1.2533 * mean absolute
 * deviation).
 * A value within 1% of the median is never an outlier, so that counts
 * that wobble by a few units in a thousand are not flagged. NANs are never
 * outliers, and fewer than 3 defined values have none. Errors: -EINVAL,
 * -ENOMEM. Thread-safe. Since: 0.1 (as hwp_outliers_mad)
 */
HWP_API int hwp_stats_outliers_mad(const double *values, size_t n, double threshold,
			     bool *flags, size_t *nr);

/*
 * hwp_stats_histogram - count @n values into @nr_bins bins of equal width
 * @bins: @nr_bins counters, overwritten
 * @lo: set to the lower edge of the first bin (the smallest value), NAN
 *	when no value is defined
 * @width: set to the width of a bin; 0 when all values are equal (they are
 *	   all in the first bin)
 *
 * Bin i holds [lo + i * width, lo + (i + 1) * width); the last also holds
 * the largest value. NANs and infinities are skipped. Errors: -EINVAL for a NULL pointer
 * or no bin, -ENOMEM. Thread-safe. Since: 0.1 (as hwp_histogram)
 */
HWP_API int hwp_stats_histogram(const double *values, size_t n, size_t *bins,
				size_t nr_bins, double *lo, double *width);

/*
 * hwp_stats_spearman - Spearman's rank correlation of @x and @y (n pairs)
 * @rho: set to the correlation of the ranks, from -1 to 1 (ties share
 *	 their average rank); NAN when undefined
 * @p_value: set to the two-sided p-value of rho = 0, from Student's t with
 *	     n - 2 degrees of freedom (an approximation; with 10 runs a
 *	     correlation is weak evidence)
 *
 * Pairs where either value is NAN are skipped. Errors: -HWP_ERR_UNDEFINED
 * for fewer than 3 pairs or a side whose values are all equal (the
 * message says which); -EINVAL; -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_stats_spearman(const double *x, const double *y, size_t n, double *rho,
			       double *p_value);

/* How the runs of variants (A, B...) measured together are ordered. */
enum hwp_order {
	/* Blocks of one run of each variant, forward then backward: A B B A
	 * A B B A... (A B C C B A...). A machine whose speed drifts linearly
	 * gives every variant the same mean over each pair of blocks. */
	HWP_ORDER_ABBA = 0,
	/* Blocks of one run of each variant, each block in an order drawn from
	 * the seed (randomized blocks): no pattern of the machine's can line
	 * up with the order. */
	HWP_ORDER_RANDOM,
	/* Every run of A, then every run of B...: what running two commands
	 * one after the other does. A drift between the blocks becomes a
	 * difference; for comparison only. */
	HWP_ORDER_SEQUENTIAL,
};

/*
 * hwp_stats_order - the order of @runs runs of each of @nr_variants variants
 * @seed: HWP_ORDER_RANDOM's (the same seed, the same order, on any machine);
 *	  the others ignore it
 * @out: @nr_variants * @runs entries, each the variant (0, 1...) of that run
 *
 * Errors: -EINVAL for a NULL @out, no variant or run, or an unknown order.
 * Thread-safe. Since: 0.2
 */
HWP_API int hwp_stats_order(enum hwp_order order, size_t nr_variants, size_t runs,
			    uint64_t seed, size_t *out);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_STATS_H */
