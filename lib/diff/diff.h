/* SPDX-License-Identifier: MIT */
/* The inside of struct hwp_profile_diff, shared by diff.c, the rows of
 * each side (diff-rows.c) and its writers (diff-output.c). A difference
 * stands on the profile queries (hwp_profile_foreach_entry,
 * hwp_profile_info, profile_recording) and on the statistics. */
#ifndef HWPROF_DIFF_H
#define HWPROF_DIFF_H

#include "core/core.h"

struct diff_row {
	struct hwp_profile_diff_row_info info;	/* name, dso, file: the three below */
	char *name;
	char *dso;
	char *file;		/* of namesakes: the source file's name, or NULL */
	/* While the rows are made: the entry's module path (borrowed from
	 * its profile), the address that tells namesakes apart (SYM: the
	 * symbol's, RIP: the instruction's), and the source file that may */
	const char *path;
	uint64_t addr;
	const char *src;
	bool namesake;
};

/* One OLD=NEW of hwp_profile_diff_opts' map_modules, copied. */
struct module_map {
	char *a, *b;
};

struct hwp_profile_diff {
	struct hwp_profile_diff_opts opts;
	struct hwp_profile_diff_info info;	/* strings point to those below */
	char *a_input, *b_input, *event;
	char *a_program, *b_program;
	struct module_map *maps;	/* opts' map_modules, or the automatic one */
	size_t nr_maps;
	struct diff_row *rows;
	size_t nr_rows;
};

/* diff-rows.c: the rows of @a and @b by d->opts.sort, matched by module
 * file name (after d->maps, or the automatic match of the programs, which
 * it adds to d->maps and says in d->info) and name, namesakes told apart
 * by source file: into d->rows, their a_samples and b_samples set. 0 or a
 * negative error with its message. */
int diff_rows(struct hwp_profile_diff *d, struct hwp_profile *a, struct hwp_profile *b);
void diff_row_release(struct diff_row *r);
/* Copy @n OLD=NEW strings of @maps into d->maps (one more slot, for the
 * automatic match): 0, -EINVAL for one that is not OLD=NEW, -ENOMEM. */
int diff_maps_copy(struct hwp_profile_diff *d, const char *const *maps, size_t n);
int diff_row_cmp(const struct diff_row *a, const struct diff_row *b);

/* Test every row of @rows (their a_samples and b_samples of @totals'
 * a_samples and b_samples; absolute: with exposures from @totals' periods
 * and seconds), apply Holm's correction unless @no_correction, and decide
 * each verdict at @alpha; then sort the rows, the largest significant
 * changes first. Fills the shares, values, diff, intervals, ratio and
 * p-values of each row's info, and nr_tests, corrected, nr_increase and
 * nr_decrease of @totals. 0 or -ENOMEM. For the tests too, on simulated
 * counts. */
int diff_decide(struct diff_row *rows, size_t n, double alpha, bool no_correction,
		struct hwp_profile_diff_info *totals);

/* profile_diff_nr_rows. Since: 0.2 */
size_t profile_diff_nr_rows(const struct hwp_profile_diff *d);

/*
 * profile_diff_row - describe row @idx, in the order above
 * @info: filled up to info->sz; its strings are borrowed from @d
 *
 * Errors: -EINVAL for @idx out of range or a too small info->sz. Since: 0.2
 */
int profile_diff_row(const struct hwp_profile_diff *d, size_t idx,
			 struct hwp_profile_diff_row_info *info);

#endif
