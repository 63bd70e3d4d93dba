/* SPDX-License-Identifier: MIT */
/* The inside of struct hwp_compare, shared by compare.c and its writers. */
#ifndef HWPROF_COMPARE_H
#define HWPROF_COMPARE_H

#include "core/core.h"

struct cmp_cell {
	struct hwp_compare_info info;	/* strings point into the row and column */
	char *reason;
	bool tested;
	double welch_df;	/* of the interval, whichever the test */
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
	bool corrected;		/* Holm's correction applied */
	char **warnings;
	size_t nr_warnings;
	struct cmp_rule *rules;
	size_t nr_rules, nr_broken;
};

#endif
