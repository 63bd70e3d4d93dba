/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/compare.h>: comparisons: is B different from A, row by row, beyond the noise?.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_COMPARE_H
#define HWPROF_API_COMPARE_H

#include <hwprof/core.h>
#include <hwprof/stats.h>
#include <hwprof/result.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Comparisons: is B different from A, row by row, beyond the noise?
 */

enum hwp_verdict {
	HWP_VERDICT_UNCHANGED = 0,	/* no difference at the significance level */
	HWP_VERDICT_INCREASE,		/* B is larger than A */
	HWP_VERDICT_DECREASE,		/* B is smaller than A */
	HWP_VERDICT_NONE,		/* no test: a side has fewer than 2 values, or
					 * the test's arithmetic overflowed */
};

struct hwp_compare_opts {
	size_t sz;
	double alpha;		/* the significance level; 0: 0.05 */
	enum hwp_stats_test test;	/* default Welch's t-test */
	bool no_correction;	/* do not apply Holm's correction across the tests */
	/* What the output calls A and B (copied); NULL: the files they were
	 * read from, else "A" and "B". Since: 0.2 */
	const char *a_name, *b_name;
	/* How the runs of A and B were ordered, said in the output (copied):
	 * the text's header and the JSON's "order"; NULL: not said (measured
	 * apart, e.g. read from two files). Since: 0.2 */
	const char *order;
	/* Rules that the comparison checks (copied), for CI: each
	 * "ROW:increase" or "ROW:decrease", optionally with a threshold in
	 * percent, "ROW:increase>5" (or ">5%"). A rule is broken when the
	 * verdict of ROW (a row's name as the output shows it: "page-faults",
	 * "CPU0 page-faults"; in any sweep column) is that change and, with a
	 * threshold, B/A - 1 is past it (1 - B/A for a decrease). See
	 * hwp_compare_failed() and hwp_compare_rule(). Since: 0.2 */
	const char *const *fail_on;
	size_t nr_fail_on;
	size_t :0;
};

/* One cell of a comparison: a row (event or metric), in one column (a sweep
 * value; a plain comparison has one column). */
struct hwp_compare_info {
	size_t sz;
	const char *name;
	const char *unit;
	enum hwp_series_kind kind;
	const char *column;	/* the sweep value, or NULL */
	size_t a_n, b_n;	/* defined values on each side */
	double a_mean, b_mean;
	double a_cv, b_cv;	/* coefficients of variation */
	double ratio;		/* b_mean / a_mean; NAN when a_mean is 0 or B/A
				 * is past a double's range */
	double diff;		/* b_mean - a_mean */
	/* 95% confidence interval of diff (Welch's; paired: the paired t's) */
	double ci_low, ci_high;
	/* of the test, as in struct hwp_stats_test_result; paired: t with
	 * pairs - 1 df, or Wilcoxon's W+ (the sum of the ranks of |b - a|
	 * where b > a) with df NAN */
	double statistic, df;
	double p_value;		/* after Holm's correction, when it applies */
	double p_raw;		/* before the correction */
	bool exact;		/* Mann-Whitney: exact p */
	enum hwp_verdict verdict;	/* p_value < alpha: increase or decrease */
	const char *reason;	/* why a value is missing (no test: verdict NONE; no
				 * ratio; a number that overflowed, which is NAN,
				 * never infinite), else NULL */
	size_t a_outliers, b_outliers;	/* runs flagged by hwp_stats_outliers_mad() */
	size_t noise_rank;	/* the row's rank by its CV, 1 = the least noisy */
	/* The aggregation unit of a row of one unit ("CPU0", "S0-D0-C1"; see
	 * hwp_result_unit()), or NULL for the totals. When both results have
	 * the same units, each unit's rows follow the totals; when not, only
	 * the totals are compared and a warning says why. The rows of a
	 * region of 'hwprof stat --regions' that both results entered
	 * follow, one row a region and event or metric, with "region:NAME"
	 * here (each run's value of the region, as the totals have a value
	 * a run). Since: 0.2 */
	const char *aggr_unit;
	/* The interval of diff at the level the verdict was decided at,
	 * ci_adj_level = 1 - alpha * p_raw / p_value: 1 - alpha without a
	 * correction; under Holm's, each row's own step (1 - alpha / m for the
	 * smallest of m p-values). With Welch's test it excludes 0 exactly
	 * when the verdict is increase or decrease, which ci_low and ci_high
	 * (95%, before any correction) need not; with Mann-Whitney it is
	 * Welch's interval at the level of the rank test. NAN without a test.
	 * Since: 0.2 */
	double ci_adj_low, ci_adj_high, ci_adj_level;
	/* The pairs of runs tested, when A's and B's runs were measured in
	 * turn ('hwprof stat' with variants): runs of one block, both defined;
	 * 0 when the runs were not paired. A paired cell's numbers (a_n, b_n,
	 * the means, CVs, ratio, diff and intervals) are of its pairs alone;
	 * its test is the paired t-test (Welch's asked for) or Wilcoxon's
	 * signed-rank test (Mann-Whitney's), on the differences b - a, and diff
	 * is their mean. Since: 0.2 */
	size_t pairs;
	/* Paired: the interval of the ratio B/A at ci_adj_level, Fieller's:
	 * the ratios r for which the paired t-test at that level does not
	 * reject a mean of 0 for b - r a, so it holds 1 exactly when the
	 * verdict is unchanged; its lower bound is at least 0 where every
	 * value is (1 + [ci_adj_low, ci_adj_high] / a_mean would leave out
	 * A's noise, and go below 0). NAN unpaired, without a ratio,
	 * or where A's mean is not told from 0 at that level (the set is
	 * unbounded). Since: 0.2 */
	double ratio_ci_adj_low, ratio_ci_adj_high;
};

struct hwp_compare;

/*
 * hwp_compare_from_results - compare every event and metric that @a and @b have
 * in common (by name, or an event by its canonical name)
 * @a: the baseline; @b: the candidate. Neither is kept.
 * @out: free it with hwp_compare_free()
 *
 * Each common row gets the means, the ratio B/A, the confidence interval
 * of the difference, a two-sided p-value and a verdict at opts.alpha. With
 * more than one test, the p-values are corrected with Holm's method so that
 * the chance of any false "increase" or "decrease" stays below alpha, and
 * the output says so. Rows are ranked by their coefficient of variation
 * (the larger of A's and B's), so the least noisy metric, the best to
 * decide on, comes first. Rows in one result only, results of different
 * commands or machines give warnings (hwp_compare_warning()), not errors.
 * Errors: -HWP_ERR_MISMATCH when a side has fewer than 2 runs or no row is
 * common to both (the message says which and what to do); -EINVAL for a
 * NULL argument, alpha outside (0, 1) or an unknown test; -ENOMEM.
 * Since: 0.1 (as hwp_compare_results)
 */
HWP_API int hwp_compare_from_results(const struct hwp_result *a,
				     const struct hwp_result *b,
				     const struct hwp_compare_opts *opts,
				     struct hwp_compare **out);

/*
 * hwp_compare_from_sweeps - compare two sweeps column by column
 *
 * Columns are the values both sweeps measured (a warning names the others);
 * each cell is compared as hwp_compare_from_results() does, and Holm's
 * correction runs over every cell. Two sweeps of one point without
 * parameter (plain results read by hwp_sweep_load()) compare as results.
 * Errors: as hwp_compare_from_results(), and -HWP_ERR_MISMATCH for a sweep
 * against a plain result or sweeps without a value in common. Since: 0.1
 * (as hwp_compare_sweeps)
 */
HWP_API int hwp_compare_from_sweeps(const struct hwp_sweep *a, const struct hwp_sweep *b,
				    const struct hwp_compare_opts *opts,
				    struct hwp_compare **out);

/* hwp_compare_free. Since: 0.1 */
HWP_API void hwp_compare_free(struct hwp_compare *c);

/* hwp_compare_nr_rows, hwp_compare_nr_columns, hwp_compare_nr_tests (the
 * cells tested: the family Holm's correction runs over; since 0.2 without
 * the cells whose every value in A and B is one and the same, which cannot
 * differ: p 1, unchanged). Since: 0.1 */
HWP_API size_t hwp_compare_nr_rows(const struct hwp_compare *c);
HWP_API size_t hwp_compare_nr_columns(const struct hwp_compare *c);
HWP_API size_t hwp_compare_nr_tests(const struct hwp_compare *c);

/*
 * hwp_compare_cell - describe the cell of @row and @col
 * @info: filled up to info->sz; its strings are borrowed from @c
 *
 * Errors: -EINVAL for a cell out of range or a too small info->sz.
 * Since: 0.1
 */
HWP_API int hwp_compare_cell(const struct hwp_compare *c, size_t row, size_t col,
			     struct hwp_compare_info *info);

/* hwp_compare_warning - warning @idx (borrowed), or NULL past the last. Since: 0.1 */
HWP_API const char *hwp_compare_warning(const struct hwp_compare *c, size_t idx);

/*
 * hwp_compare_failed - how many of hwp_compare_opts.fail_on's rules the
 * comparison breaks (0 without rules). A rule that names a row the
 * comparison does not have, or that is malformed, is refused by
 * hwp_compare_from_results() (-EINVAL, with the rows it has) rather than passed
 * in silence. Since: 0.2
 */
HWP_API size_t hwp_compare_failed(const struct hwp_compare *c);

/*
 * hwp_compare_rule - rule @idx of hwp_compare_opts.fail_on, as given
 * @broken: NULL, or set to whether the comparison breaks it
 * @finding: NULL, or set to what was found, for people ("page-faults:
 * increase (B/A 1.099, +9.94%), p <0.001 after Holm's correction, past 5%")
 *
 * Returns the rule (borrowed, as are *@finding), or NULL past the last.
 * Since: 0.2
 */
HWP_API const char *hwp_compare_rule(const struct hwp_compare *c, size_t idx,
				     bool *broken, const char **finding);

/*
 * hwp_compare_write - write the comparison to @f
 *
 * HWP_FORMAT_TEXT: a table of rows (or of ratios with a verdict per sweep
 * column), the test and correction used, the noise ranking and the
 * warnings. HWP_FORMAT_JSON: schema hwprof-compare/1 (hwprof-formats(5)).
 * HWP_FORMAT_CSV (since 0.2): a header line, then a line a cell with the
 * fields of struct hwp_compare_info (hwprof-compare(1)), separated by
 * opts->separator. Errors: -EOPNOTSUPP for folded stacks and the other
 * formats, -EINVAL, or the write's errno. Since: 0.1
 */
HWP_API int hwp_compare_write(const struct hwp_compare *c, FILE *f,
			      const struct hwp_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_COMPARE_H */
