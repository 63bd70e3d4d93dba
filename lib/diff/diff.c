// SPDX-License-Identifier: MIT
/*
 * The difference of two profiles, row by row: each side's share of the
 * samples, and whether the change is beyond sampling noise (stats.h's
 * counts_test(): Fisher's exact test and Newcombe's interval; Holm's
 * correction across the rows).
 */
#include "diff/diff.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One side's rows, as the profile's query gives them. */
struct side {
	struct diff_row *rows;
	size_t nr, cap;
	enum hwp_sort sort;
	int err;
};

HWP_API void hwp_profile_diff_free(struct hwp_profile_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_rows; i++) {
		free(d->rows[i].name);
		free(d->rows[i].dso);
	}
	free(d->rows);
	free(d->a_input);
	free(d->b_input);
	free(d->event);
	free(d);
}

/* Modules match by file name: two builds, or one library installed in two
 * places, are the same module to a reader. */
static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return !path ? "[unknown]" : slash && slash[1] ? slash + 1 : path;
}

static int add_entry(const struct hwp_entry *e, void *ctx)
{
	struct side *s = ctx;
	const char *dso = base_name(e->dso);
	struct diff_row *r;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct diff_row *rows = realloc(s->rows, cap * sizeof(*rows));

		if (!rows)
			return s->err = -ENOMEM;
		s->rows = rows;
		s->cap = cap;
	}
	r = &s->rows[s->nr];
	memset(r, 0, sizeof(*r));
	r->name = strdup(s->sort == HWP_SORT_DSO ? dso : e->name);
	r->dso = strdup(dso);
	r->info.a_samples = e->samples;
	s->nr++;
	if (!r->name || !r->dso)
		return s->err = -ENOMEM;
	return 0;
}

static int row_key_cmp(const struct diff_row *a, const struct diff_row *b)
{
	int c = strcmp(a->dso, b->dso);

	return c ? c : strcmp(a->name, b->name);
}

static int row_key_qsort(const void *a, const void *b)
{
	return row_key_cmp(a, b);
}

static void side_release(struct side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->rows[i].name);
		free(s->rows[i].dso);
	}
	free(s->rows);
}

/* The rows of @p, sorted by key, those of one key (namesakes of two
 * directories) added into one; their samples in info.a_samples. */
static int side_load(struct hwp_profile *p, enum hwp_sort sort, struct side *s)
{
	size_t kept = 0;
	int err;

	s->sort = sort;
	err = hwp_profile_foreach_entry(p, sort, 0, add_entry, s);
	if (s->err)
		return fail(s->err, "out of memory");
	if (err)
		return err;
	qsort(s->rows, s->nr, sizeof(*s->rows), row_key_qsort);
	for (size_t i = 0; i < s->nr; i++) {
		if (kept && !row_key_cmp(&s->rows[kept - 1], &s->rows[i])) {
			s->rows[kept - 1].info.a_samples += s->rows[i].info.a_samples;
			free(s->rows[i].name);
			free(s->rows[i].dso);
			continue;
		}
		s->rows[kept++] = s->rows[i];
	}
	s->nr = kept;
	return 0;
}

/* The union of both sides' rows, by key: the rows of @a and @b move into
 * @d (their strings with them). */
static int merge_sides(struct hwp_profile_diff *d, struct side *a, struct side *b)
{
	size_t i = 0, j = 0;

	d->rows = calloc(a->nr + b->nr + 1, sizeof(*d->rows));
	if (!d->rows)
		return fail(-ENOMEM, "out of memory");
	while (i < a->nr || j < b->nr) {
		int c = i == a->nr ? 1 : j == b->nr ? -1 :
			row_key_cmp(&a->rows[i], &b->rows[j]);
		struct diff_row *r = &d->rows[d->nr_rows++];

		if (c <= 0) {
			*r = a->rows[i++];
			if (c == 0) {
				r->info.b_samples = b->rows[j].info.a_samples;
				free(b->rows[j].name);
				free(b->rows[j].dso);
				j++;
			}
		} else {
			*r = b->rows[j++];
			r->info.b_samples = r->info.a_samples;
			r->info.a_samples = 0;
		}
	}
	a->nr = b->nr = 0;
	return 0;
}

static bool significant(const struct diff_row *r)
{
	return r->info.verdict == HWP_VERDICT_INCREASE ||
	       r->info.verdict == HWP_VERDICT_DECREASE;
}

/* The significant changes first, then the others; each by |diff|, larger
 * first; ties by name and module, so the order is stable. */
static int row_order(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(a->info.diff), db = fabs(b->info.diff);

	if (significant(a) != significant(b))
		return significant(a) ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return row_key_cmp(a, b);
}

int diff_decide(struct diff_row *rows, size_t n, uint64_t na, uint64_t nb, double alpha,
		bool no_correction, struct hwp_profile_diff_info *totals)
{
	double *p = malloc((n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct hwp_profile_diff_row_info *in = &rows[i].info;
		struct counts_result cr;

		counts_test(in->a_samples, na, in->b_samples, nb, &cr);
		in->a_share = 100.0 * (double)in->a_samples / (double)na;
		in->b_share = 100.0 * (double)in->b_samples / (double)nb;
		in->diff = 100 * cr.diff;
		in->ci_low = 100 * cr.ci_low;
		in->ci_high = 100 * cr.ci_high;
		in->ratio = in->a_samples ? in->b_share / in->a_share : NAN;
		in->p_raw = p[i] = cr.p_value;
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

		in->p_value = p[i];
		in->verdict = p[i] >= alpha || in->diff == 0 ? HWP_VERDICT_UNCHANGED :
			      in->diff > 0 ? HWP_VERDICT_INCREASE : HWP_VERDICT_DECREASE;
		totals->nr_increase += in->verdict == HWP_VERDICT_INCREASE;
		totals->nr_decrease += in->verdict == HWP_VERDICT_DECREASE;
	}
	free(p);
	qsort(rows, n, sizeof(*rows), row_order);
	return 0;
}

static int check_opts(struct hwp_profile_diff_opts *o,
		      const struct hwp_profile_diff_opts *opts)
{
	int err = OPTS_COPY(o, opts, hwp_profile_diff_opts);

	if (err)
		return err;
	if (o->sort == HWP_SORT_CPU || o->sort == HWP_SORT_COMM ||
	    o->sort == HWP_SORT_PID)
		return fail(-EINVAL, "a diff by %s is not supported: diff by sym, rip, line or dso, and compare 'hwprof report --sort %s' of each file",
			    hwp_sort_name(o->sort), hwp_sort_name(o->sort));
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
			    "%s reports samples of %s and %s of %s: a difference compares the shares of one event; pick one that both files have (hwprof diff -e NAME), or record both with the same -e",
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
	};
	return 0;
}

static int diff_build(struct hwp_profile_diff *d, struct hwp_profile *a,
		      struct hwp_profile *b)
{
	struct hwp_profile_info ia = { .sz = sizeof(ia) }, ib = { .sz = sizeof(ib) };
	struct side sa = { 0 }, sb = { 0 };
	int err;

	err = hwp_profile_info(a, &ia) ?: hwp_profile_info(b, &ib);
	if (!err)
		err = check_sides(&ia, &ib) ?: take_info(d, &ia, &ib);
	if (!err)
		err = side_load(a, d->opts.sort, &sa) ?: side_load(b, d->opts.sort, &sb);
	if (!err)
		err = merge_sides(d, &sa, &sb);
	side_release(&sa);
	side_release(&sb);
	if (err)
		return err;
	for (size_t i = 0; i < d->nr_rows; i++) {
		d->rows[i].info.sz = sizeof(d->rows[i].info);
		d->rows[i].info.name = d->rows[i].name;
		d->rows[i].info.dso = d->rows[i].dso;
	}
	d->info.nr_rows = d->nr_rows;
	if (diff_decide(d->rows, d->nr_rows, ia.samples, ib.samples, d->opts.alpha,
			d->opts.no_correction, &d->info))
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
	err = check_opts(&d->opts, opts) ?: diff_build(d, a, b);
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

HWP_API size_t hwp_profile_diff_nr_rows(const struct hwp_profile_diff *d)
{
	return d ? d->nr_rows : 0;
}

HWP_API int hwp_profile_diff_row(const struct hwp_profile_diff *d, size_t idx,
				 struct hwp_profile_diff_row_info *info)
{
	clear_error();
	if (!d || idx >= d->nr_rows)
		return fail(-EINVAL, "hwp_profile_diff_row: no row %zu", idx);
	return info_fill(info, &d->rows[idx].info, sizeof(d->rows[idx].info));
}
