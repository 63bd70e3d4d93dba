/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/diff.h>: profile differences: what takes more or less of B than of A.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_DIFF_H
#define HWPROF_API_DIFF_H

#include <hwprof/core.h>
#include <hwprof/compare.h>
#include <hwprof/profile.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Profile differences: which functions (instructions, lines, modules) take
 * a larger or smaller share of the samples in B than in A, beyond the
 * noise of sampling?
 *
 * Each row is a function (or what opts.sort groups by) of either profile,
 * matched by its name and its module's file name (not its directory, so
 * that two builds or installs match). A row's share is its samples over
 * the event's samples: the test needs counts, so shares are of samples,
 * not of summed periods as hwp_profile_write()'s percentages are (the two
 * agree with a fixed period, -c, and nearly with a fixed frequency).
 *
 * The test: a row holds xa of A's na samples and xb of B's nb. Fisher's
 * exact test on the 2x2 table (in the row or not, A or B) asks whether the
 * two proportions differ, taking each sample as an independent draw. It is
 * exact, where the two-proportion z-test and the chi-square test on the
 * same table are approximations that fail for the rows of a few samples
 * that most of a profile is, and it costs about the square root of the
 * row's samples. The interval of the difference is Newcombe's hybrid score
 * interval (from Wilson's intervals of each share), not adjusted for the
 * number of rows. Holm's correction over every row keeps the chance of any
 * false "increase" or "decrease" below alpha.
 *
 * What this does not know: samples are not independent draws when a
 * program runs in phases, and two runs of a program differ by more than
 * sampling (another input, another machine's load). A significant change
 * is beyond sampling noise, not necessarily beyond run-to-run variation:
 * record each side more than once to see that. Shares add up to 100%, so
 * one function that grows makes the others' shares shrink, even when
 * their own cost did not change: opts.absolute compares costs instead.
 *
 * Absolute (opts.absolute): a row's value is its events per recording,
 * its samples times the mean period a sample of its side stands for
 * (with a fixed period, -c, or a clock event, that period), or with
 * opts.per_second per second of recording (from the side's first sample
 * to its last). For one run of a fixed workload each, per recording is
 * the row's cost; per second suits recordings of a steady load for a
 * time. The test is the exact conditional test of two Poisson rates
 * (B's part of the row's samples is binomial when the rates are equal),
 * the interval Clopper and Pearson's of the ratio B / A; Holm's
 * correction as above. With a hardware event at a frequency (-F) the
 * period of a sample varies, and per recording is an estimate.
 *
 * Functions of one name in one module (two static functions) are two
 * rows, as the report keeps them, told apart by their source file, or
 * where no line is known by their address ("work@0x1139", which matches
 * only the same build).
 */

struct hwp_profile_diff;

struct hwp_profile_diff_opts {
	size_t sz;
	/* Rows by symbol (default), instruction, line or module; not by CPU
	 * (-EINVAL). */
	enum hwp_sort sort;
	double alpha;		/* the significance level; 0: 0.05 */
	bool no_correction;	/* do not apply Holm's correction across the rows */
	/* Compare each row's events per recording, not its share (above);
	 * with per_second (which implies it), per second of recording.
	 * Since: 0.2 */
	bool absolute;
	bool per_second;
	/* "OLD=NEW" strings: A's module OLD is B's NEW (file names), as when
	 * a program was built as bench-old and bench-new. None: when the two
	 * sides' most sampled programs differ in name and neither has the
	 * other's, they are one module (hwp_profile_diff_info says so).
	 * Copied. Since: 0.2 */
	const char *const *map_modules;
	size_t nr_map_modules;
	size_t :0;
};

/* The totals of a difference. */
struct hwp_profile_diff_info {
	size_t sz;
	const char *a_input, *b_input;	/* the files, as hwp_profile_info() names them */
	const char *event;		/* the event of both */
	uint64_t a_samples, b_samples;	/* of that event */
	enum hwp_sort sort;
	double alpha;
	size_t nr_rows;
	size_t nr_tests;	/* the rows tested: the family of Holm's correction */
	bool corrected;		/* Holm's correction applied (more than one test) */
	size_t nr_increase, nr_decrease;	/* significant rows */
	/* As the opts: what the rows' values and verdicts are of. Since: 0.2 */
	bool absolute, per_second;
	/* Each side's seconds from its first sample to its last (0 when its
	 * samples carry no time), and the mean period of its samples: what
	 * one sample stands for. Since: 0.2 */
	double a_seconds, b_seconds;
	double a_period, b_period;
	/* Each side's most sampled program (not a library, the kernel or
	 * anonymous code), its file name, or NULL; auto_matched: they differ
	 * in name and were compared as one module (no map_modules given).
	 * Since: 0.2 */
	const char *a_program, *b_program;
	bool auto_matched;
	size_t nr_matched;	/* rows with samples in both. Since: 0.2 */
};

/* One row of a difference. */
struct hwp_profile_diff_row_info {
	size_t sz;
	/* As hwp_entry's: "hot", "hot+0x1b", "file.c:12"; a module's file name. */
	const char *name;
	/* The module's file name: "libc.so.6", "[kernel.kallsyms]". */
	const char *dso;
	uint64_t a_samples, b_samples;
	double a_share, b_share;	/* percent of each side's samples */
	double diff;		/* b_share - a_share, in points */
	double ci_low, ci_high;	/* 95% interval of diff, in points */
	/* b_share / a_share (absolute: b_value / a_value); NAN when the row
	 * has no sample in A. */
	double ratio;
	double p_value;		/* after Holm's correction, when it applies */
	/* Fisher's exact test, two-sided; absolute: the Poisson rates' */
	double p_raw;
	/* p_value < alpha: increase or decrease (of the share, or absolute:
	 * of the value); else unchanged. */
	enum hwp_verdict verdict;
	/* Of one of two functions of this name in the module: its source
	 * file's name, else NULL. Since: 0.2 */
	const char *file;
	/* What is compared: a_share and b_share, or absolute: events per
	 * recording or per second. ratio is b_value / a_value. Since: 0.2 */
	double a_value, b_value;
	/* Absolute: the 95% interval of ratio; NAN by share. Since: 0.2 */
	double ratio_low, ratio_high;
};

/*
 * hwp_profile_diff_new - the difference of @b against @a, row by row
 * @a: the baseline; @b: the candidate. Each reports its event (struct
 *     hwp_profile_opts.event); the two must be the same event. Neither is
 *     kept: they may be freed afterwards.
 * @opts: NULL for rows by symbol, alpha 0.05, Holm's correction
 * @out: free it with hwp_profile_diff_free()
 *
 * Rows come sorted by the size of their change, |diff| (absolute: of
 * their values), the significant ones first, then the others; ties by
 * name. Errors: -HWP_ERR_MISMATCH when the two profiles report different
 * events (the message names both and says how to pick one); -ENODATA
 * when a side has no sample of its event (the message names the file),
 * absolute when its samples have no period, or per_second when they
 * carry no time; -EINVAL for a NULL argument, an unknown sort, alpha
 * outside (0, 1) or a map_modules string that is not OLD=NEW;
 * -EOPNOTSUPP for absolute on an off-CPU profile (its samples weigh
 * times: no count of a cost), or for opts bytes this version does not
 * know; those of hwp_profile_foreach_entry(); -ENOMEM. Since: 0.2
 */
HWP_API int hwp_profile_diff_new(struct hwp_profile *a, struct hwp_profile *b,
				 const struct hwp_profile_diff_opts *opts,
				 struct hwp_profile_diff **out);

/* hwp_profile_diff_free. Since: 0.2 */
HWP_API void hwp_profile_diff_free(struct hwp_profile_diff *d);

/* hwp_profile_diff_info - fill @info; its strings are borrowed from @d.
 * Errors: -EINVAL for a NULL argument or a too small info->sz. Since: 0.2 */
HWP_API int hwp_profile_diff_info(const struct hwp_profile_diff *d,
				  struct hwp_profile_diff_info *info);

/*
 * hwp_profile_diff_write - write the difference to @f
 * @opts: NULL for text, every row; else its format (TEXT, CSV or JSON),
 *	  top (rows to write; 0: all), separator (CSV) and no_big_num (TEXT)
 *
 * TEXT: a header with the files, their samples, the test and the
 * correction, then a table of rows. CSV: a header line, then a line a
 * row. JSON: schema hwprof-diff/1 (hwprof-formats(5)). Errors: -EOPNOTSUPP for folded
 * stacks, -EINVAL, or the write's errno (-ENOSPC), found by flushing @f.
 * Since: 0.2
 */
HWP_API int hwp_profile_diff_write(const struct hwp_profile_diff *d, FILE *f,
				   const struct hwp_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_DIFF_H */
