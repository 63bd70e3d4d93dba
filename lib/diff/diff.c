// SPDX-License-Identifier: MIT
/*
 * The difference of two profiles, row by row: each side's share of the
 * samples, or absolute its events per recording or per second, and
 * whether the change is beyond sampling noise (stats.h's counts_test():
 * Fisher's exact test and Newcombe's interval; rates_test(): the exact
 * test of two Poisson rates and Clopper and Pearson's interval; Holm's
 * correction across the rows).
 */
#include "diff/diff.h"
#include "profile/report.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

HWP_API void hwp_profile_diff_free(struct hwp_profile_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_rows; i++)
		diff_row_release(&d->rows[i]);
	for (size_t i = 0; i < d->nr_maps; i++) {
		free(d->maps[i].a);
		free(d->maps[i].b);
	}
	free(d->maps);
	free(d->rows);
	free(d->a_input);
	free(d->b_input);
	free(d->event);
	free(d->a_program);
	free(d->b_program);
	free(d);
}

static bool significant(const struct diff_row *r)
{
	return r->info.verdict == HWP_VERDICT_INCREASE ||
	       r->info.verdict == HWP_VERDICT_DECREASE;
}

/* The significant changes first, then the others; each by the size of
 * the change of its value (of its share: |diff|), larger first; ties by
 * name and module, so the order is stable. */
static int row_order(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(a->info.b_value - a->info.a_value);
	double db = fabs(b->info.b_value - b->info.a_value);

	if (significant(a) != significant(b))
		return significant(a) ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return diff_row_cmp(a, b);
}

/* What one sample of a side stands for, as a rate's exposure: per
 * recording, 1 / its mean period; per second, times its seconds. */
static double exposure(const struct hwp_profile_diff_info *t, double period,
		       double seconds)
{
	return (t->per_second ? seconds : 1) / period;
}

/* Absolute: row @in's values, their ratio and the test of the rates. */
static void row_rates(struct hwp_profile_diff_row_info *in,
		      const struct hwp_profile_diff_info *t)
{
	double ea = exposure(t, t->a_period, t->a_seconds);
	double eb = exposure(t, t->b_period, t->b_seconds);
	struct rates_result rr;

	rates_test(in->a_samples, ea, in->b_samples, eb, &rr);
	in->a_value = (double)in->a_samples * t->a_period /
		      (t->per_second ? t->a_seconds : 1);
	in->b_value = (double)in->b_samples * t->b_period /
		      (t->per_second ? t->b_seconds : 1);
	in->ratio = rr.ratio;
	in->ratio_low = rr.ci_low;
	in->ratio_high = rr.ci_high;
	in->p_raw = rr.p_value;
}

/* Test row @in: its shares, and its values by the measure of @t. */
static void row_test(struct hwp_profile_diff_row_info *in,
		     const struct hwp_profile_diff_info *t)
{
	uint64_t na = t->a_samples, nb = t->b_samples;
	struct counts_result cr;

	counts_test(in->a_samples, na, in->b_samples, nb, &cr);
	in->a_share = 100.0 * (double)in->a_samples / (double)na;
	in->b_share = 100.0 * (double)in->b_samples / (double)nb;
	in->diff = 100 * cr.diff;
	in->ci_low = 100 * cr.ci_low;
	in->ci_high = 100 * cr.ci_high;
	in->a_value = in->a_share;
	in->b_value = in->b_share;
	in->ratio = in->a_samples ? in->b_share / in->a_share : NAN;
	in->ratio_low = in->ratio_high = NAN;
	in->p_raw = cr.p_value;
	if (t->absolute)
		row_rates(in, t);
}

int diff_decide(struct diff_row *rows, size_t n, double alpha, bool no_correction,
		struct hwp_profile_diff_info *totals)
{
	double *p = malloc((n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		row_test(&rows[i].info, totals);
		p[i] = rows[i].info.p_raw;
	}
	totals->nr_tests = n;
	totals->corrected = n > 1 && !no_correction;
	if (totals->corrected && hwp_stats_holm(p, n, p)) {
		free(p);
		return -ENOMEM;
	}
	totals->nr_increase = totals->nr_decrease = 0;
	for (size_t i = 0; i < n; i++) {
		struct hwp_profile_diff_row_info *in = &rows[i].info;
		double change = in->b_value - in->a_value;

		in->p_value = p[i];
		in->verdict = p[i] >= alpha || change == 0 ? HWP_VERDICT_UNCHANGED :
			      change > 0 ? HWP_VERDICT_INCREASE : HWP_VERDICT_DECREASE;
		totals->nr_increase += in->verdict == HWP_VERDICT_INCREASE;
		totals->nr_decrease += in->verdict == HWP_VERDICT_DECREASE;
	}
	free(p);
	qsort(rows, n, sizeof(*rows), row_order);
	return 0;
}

static int check_opts(struct hwp_profile_diff *d,
		      const struct hwp_profile_diff_opts *opts)
{
	struct hwp_profile_diff_opts *o = &d->opts;
	int err = OPTS_COPY(o, opts, hwp_profile_diff_opts);

	if (!err)
		err = diff_maps_copy(d, o->map_modules, o->nr_map_modules);
	o->map_modules = NULL;	/* copied: the caller's is not kept */
	if (err)
		return err;
	o->absolute |= o->per_second;
	if (o->sort == HWP_SORT_CPU || o->sort == HWP_SORT_COMM ||
	    o->sort == HWP_SORT_PID)
		return fail(-EINVAL, "a diff by %s is not supported: diff by sym, rip, line or dso, and compare 'hwprof report --sort %s' of each file",
			    hwp_enum_name(HWP_ENUM_SORT, o->sort),
			    hwp_enum_name(HWP_ENUM_SORT, o->sort));
	if ((unsigned int)o->sort > HWP_SORT_DSO)
		return fail(-EINVAL, "hwp_profile_diff_new: unknown sort %d",
			    (int)o->sort);
	if (o->alpha == 0)
		o->alpha = 0.05;
	if (!(o->alpha > 0 && o->alpha < 1))
		return fail(-EINVAL,
			    "hwp_profile_diff_new: alpha %g is not between 0 and 1",
			    o->alpha);
	return 0;
}

/* Both sides report the same event, and have samples of it. */
static int check_sides(const struct hwp_profile_info *a, const struct hwp_profile_info *b)
{
	if (strcmp(a->event, b->event))
		return fail(-HWP_ERR_MISMATCH,
			    "%s reports samples of %s and %s of %s: a difference compares the samples of one event; pick one that both files have (hwprof diff -e NAME), or record both with the same -e",
			    a->input, a->event, b->input, b->event);
	for (const struct hwp_profile_info *s = a; s; s = s == a ? b : NULL)
		if (!s->samples)
			return fail(-ENODATA,
				    "%s has no samples of %s: there is nothing to compare; record a longer run, at a higher frequency (-F), or pick another event of the file (-e)",
				    s->input, s->event);
	return 0;
}

static int take_info(struct hwp_profile_diff *d, const struct hwp_profile_info *a,
		     const struct hwp_profile_info *b)
{
	d->a_input = strdup(a->input);
	d->b_input = strdup(b->input);
	d->event = strdup(a->event);
	if (!d->a_input || !d->b_input || !d->event)
		return fail(-ENOMEM, "out of memory");
	d->info = (struct hwp_profile_diff_info){
		.sz = sizeof(d->info),
		.a_input = d->a_input,
		.b_input = d->b_input,
		.event = d->event,
		.a_samples = a->samples,
		.b_samples = b->samples,
		.sort = d->opts.sort,
		.alpha = d->opts.alpha,
		.absolute = d->opts.absolute,
		.per_second = d->opts.per_second,
		.a_period = (double)a->period / (double)a->samples,
		.b_period = (double)b->period / (double)b->samples,
	};
	return 0;
}

/* Absolute: a sample of an off-CPU profile weighs the time until its
 * thread ran again, so its samples, which the test counts, are no
 * measure of a cost. */
static int check_absolute(const struct hwp_profile_diff *d,
			  const struct hwp_profile_info *a,
			  const struct hwp_profile_info *b)
{
	if (!d->opts.absolute || (!a->off_cpu && !b->off_cpu))
		return 0;
	return fail(-EOPNOTSUPP,
		    "%s weighs each sample by its time off the CPU: a count of its samples is no cost to test; compare shares (hwprof diff --mode share)",
		    a->off_cpu ? a->input : b->input);
}

/* Each side's seconds, from its first sample to its last: per second,
 * what the rates are of. */
static int take_seconds(struct hwp_profile_diff *d, const struct hwp_profile *a,
			const struct hwp_profile *b)
{
	struct profile_recording ra, rb;

	profile_recording(a, &ra);
	profile_recording(b, &rb);
	d->info.a_seconds = (double)ra.duration_ns / 1e9;
	d->info.b_seconds = (double)rb.duration_ns / 1e9;
	if (d->opts.absolute && (!(d->info.a_period > 0) || !(d->info.b_period > 0)))
		return fail(-ENODATA, "%s's samples have no period: an absolute difference needs one; compare shares (hwprof diff --mode share)",
			    d->info.a_period > 0 ? d->b_input : d->a_input);
	if (d->opts.per_second && (!ra.duration_ns || !rb.duration_ns))
		return fail(-ENODATA,
			    "%s has no duration (its samples carry no time, or there is one): there is nothing to divide by per second; compare per recording (hwprof diff --mode count)",
			    ra.duration_ns ? d->b_input : d->a_input);
	return 0;
}

static int diff_build(struct hwp_profile_diff *d, struct hwp_profile *a,
		      struct hwp_profile *b)
{
	struct hwp_profile_info ia = { .sz = sizeof(ia) }, ib = { .sz = sizeof(ib) };
	int err;

	err = hwp_profile_info(a, &ia) ?: hwp_profile_info(b, &ib);
	if (!err)
		err = check_sides(&ia, &ib) ?: check_absolute(d, &ia, &ib) ?:
		      take_info(d, &ia, &ib);
	if (!err)
		err = take_seconds(d, a, b) ?: diff_rows(d, a, b);
	if (err)
		return err;
	for (size_t i = 0; i < d->nr_rows; i++) {
		d->rows[i].info.sz = sizeof(d->rows[i].info);
		d->rows[i].info.name = d->rows[i].name;
		d->rows[i].info.dso = d->rows[i].dso;
		d->rows[i].info.file = d->rows[i].file;
	}
	d->info.nr_rows = d->nr_rows;
	if (diff_decide(d->rows, d->nr_rows, d->opts.alpha, d->opts.no_correction,
			&d->info))
		return fail(-ENOMEM, "out of memory");
	return 0;
}

HWP_API int hwp_profile_diff_new(struct hwp_profile *a, struct hwp_profile *b,
				 const struct hwp_profile_diff_opts *opts,
				 struct hwp_profile_diff **out)
{
	struct hwp_profile_diff *d;
	int err;

	clear_error();
	if (out)
		*out = NULL;
	if (!a || !b || !out)
		return fail(-EINVAL, "hwp_profile_diff_new: NULL argument");
	d = calloc(1, sizeof(*d));
	if (!d)
		return fail(-ENOMEM, "out of memory");
	err = check_opts(d, opts) ?: diff_build(d, a, b);
	if (err) {
		hwp_profile_diff_free(d);
		return err;
	}
	*out = d;
	return 0;
}

HWP_API int hwp_profile_diff_info(const struct hwp_profile_diff *d,
				  struct hwp_profile_diff_info *info)
{
	clear_error();
	if (!d)
		return fail(-EINVAL, "hwp_profile_diff_info: NULL argument");
	return info_fill(info, &d->info, sizeof(d->info));
}

size_t profile_diff_nr_rows(const struct hwp_profile_diff *d)
{
	return d ? d->nr_rows : 0;
}

int profile_diff_row(const struct hwp_profile_diff *d, size_t idx,
				 struct hwp_profile_diff_row_info *info)
{
	clear_error();
	if (!d || idx >= d->nr_rows)
		return fail(-EINVAL, "profile_diff_row: no row %zu", idx);
	return info_fill(info, &d->rows[idx].info, sizeof(d->rows[idx].info));
}
