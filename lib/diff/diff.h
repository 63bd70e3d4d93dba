/* SPDX-License-Identifier: MIT */
/* The inside of struct hwp_profile_diff, shared by diff.c and its writers
 * (diff-output.c). A difference stands on the profile queries alone
 * (hwp_profile_foreach_entry, hwp_profile_info) and on the statistics. */
#ifndef HWPROF_DIFF_H
#define HWPROF_DIFF_H

#include "core/core.h"

struct diff_row {
	struct hwp_profile_diff_row_info info;	/* name and dso point to the two below */
	char *name;
	char *dso;
};

struct hwp_profile_diff {
	struct hwp_profile_diff_opts opts;
	struct hwp_profile_diff_info info;	/* strings point to the three below */
	char *a_input, *b_input, *event;
	struct diff_row *rows;
	size_t nr_rows;
};

/* Test every row of @rows (their a_samples and b_samples of @na and @nb),
 * apply Holm's correction unless @no_correction, and decide each verdict
 * at @alpha; then sort the rows, the largest significant changes first.
 * Fills the shares, diff, interval, ratio and p-values of each row's info,
 * and nr_tests, corrected, nr_increase and nr_decrease of @totals.
 * 0 or -ENOMEM. For the tests too, on simulated counts. */
int diff_decide(struct diff_row *rows, size_t n, uint64_t na, uint64_t nb, double alpha,
		bool no_correction, struct hwp_profile_diff_info *totals);

#endif
