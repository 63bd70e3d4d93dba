/* SPDX-License-Identifier: MIT */
/* The inside of struct hwp_compare, shared by compare.c and its writers. */
#ifndef HWPROF_COMPARE_H
#define HWPROF_COMPARE_H

#include "core/core.h"
#include "sweep/sweep.h"

struct series;

struct cmp_cell {
	struct hwp_compare_info info;	/* strings point into the row and column */
	char *reason;
	bool tested;
	/* every value of A and B the same: not a test Holm counts */
	bool constant;
	double welch_df;	/* of the interval, whichever the test */
	double direction;	/* the test's sign of B against A */
	/* Paired: what Fieller's interval of B/A needs (compare-decide.c),
	 * with e = b - a x the ratio of the means: the sample variance of a,
	 * its covariance with e, e's variance; every value >= 0. */
	double var_a, cov_ae, var_e;
	bool nonneg;
};

struct cmp_row {
	char *name;
	char *aggr_unit;	/* the aggregation unit (CPU0, S0-D0-C1...), or NULL */
	char *label;		/* "CPU0 task-clock", or the name */
	char *unit;
	enum hwp_series_kind kind;
	size_t nth;		/* an event listed twice is two rows: which one */
	struct cmp_cell *cells;	/* one per column */
	double noise;		/* the largest CV of its tested cells */
	size_t noise_rank;
};

/* A --fail-on rule: "ROW:increase>PCT" as given, and what was found. */
struct cmp_rule {
	char *spec;
	char *row;		/* into spec's copy */
	enum hwp_verdict change;	/* increase or decrease */
	double pct;		/* the threshold in percent; 0: any change */
	bool broken;
	char *finding;
};

struct hwp_compare {
	struct hwp_compare_opts opts;
	char *a_name, *b_name;	/* as opts named them, the files, or "A" and "B" */
	char *order;		/* how the runs were ordered, or NULL */
	char *param;		/* NULL: plain results */
	char **columns;		/* nr_columns values (NULL for plain results) */
	size_t *a_runs, *b_runs;	/* per column */
	size_t nr_columns;
	struct cmp_row *rows;
	size_t nr_rows;
	size_t nr_tests;
	size_t nr_constant;	/* cells whose A and B are one constant: no tests */
	bool corrected;		/* Holm's correction applied */
	bool paired;		/* a cell's runs were paired (compare-pairs.c) */
	char **warnings;
	size_t nr_warnings;
	struct cmp_rule *rules;
	size_t nr_rules, nr_broken;
};

/* compare-pairs.c: the values a cell tests. Runs measured in turn, in one
 * experiment, are paired by block (a run of each side, both defined);
 * else each side's defined values, as they are. */
struct cmp_values {
	const double *a, *b;	/* na and nb values; paired: a[i] with b[i] */
	size_t na, nb;		/* defined values (paired: both the pairs) */
	size_t runs_a, runs_b;	/* in the results */
	bool paired;
	double *owned;		/* the pairs' values, a then b */
};
int cmp_values_of(const struct hwp_result *ra, const struct series *sa,
		  const struct hwp_result *rb, const struct series *sb,
		  struct cmp_values *v);
void cmp_values_release(struct cmp_values *v);
/* How many of @n values are not NAN. */
size_t cmp_defined(const double *v, size_t n);
/* Paired, with @ratio the ratio of the pairs' means: @cell's moments for
 * the interval of B/A. */
void cmp_pair_moments(const struct cmp_values *v, double ratio, struct cmp_cell *cell);
/* The test of @v that the comparison asked for, into @t; its df for the
 * interval, and the sign of B against A, into @cell. */
int cmp_values_test(const struct hwp_compare *c, const struct cmp_values *v,
		    struct hwp_stats_test_result *t, struct cmp_cell *cell);
/* "Welch's t-test", "paired t-test"...: the test the comparison made. */
const char *cmp_test_name(const struct hwp_compare *c);
/* Its JSON name: "welch", "mann-whitney", "paired-t", "wilcoxon-signed-rank". */
const char *cmp_test_key(const struct hwp_compare *c);
/* The pairs of @ra and @rb, a warning of the runs they leave out. */
int cmp_pairs_warning(const struct hwp_result *ra, const struct hwp_result *rb,
		      const char *a_name, const char *b_name, char **out);

/* compare-inputs.c: the inputs checked against each other. */
struct hwp_sweep;
/* Add a warning, as printf() formats: 0 or -ENOMEM. */
int cmp_warn(struct hwp_compare *c, const char *fmt, ...) HWP_PRINTF(2, 3);
/* Pair the columns of @a and @b by value (@pair_a, @pair_b: their indexes
 * in each); warn about the values on one side only. */
int cmp_pair_columns(struct hwp_compare *c, const struct hwp_sweep *a,
		     const struct hwp_sweep *b, size_t *pair_a, size_t *pair_b);
/* Each side needs a column of 2 runs or more to say anything. */
int cmp_check_runs(const struct hwp_compare *c);
/* The error of two inputs without a row to compare, saying why. */
int cmp_mismatch_no_rows(const struct hwp_compare *c, const struct hwp_sweep *a,
			 const struct hwp_sweep *b, bool any_common);
/* Warn of what makes two measurements less comparable than they look. */
int cmp_warn_context(struct hwp_compare *c, const struct hwp_sweep *a,
		     const struct hwp_sweep *b);
/* The name of a side: its file, else @dflt. */
const char *cmp_side_name(const struct hwp_sweep *sw, const char *dflt);

/* compare-decide.c: Holm's correction and the verdicts; the rows by noise. */
int cmp_correct_and_decide(struct hwp_compare *c);
int cmp_rank_noise(struct hwp_compare *c);

/* compare-rules.c: the --fail-on rules, parsed into @c, then checked
 * against its verdicts. */
int cmp_rules_parse(struct hwp_compare *c, const char *const *rules, size_t n);
int cmp_rules_check(struct hwp_compare *c);

#endif
