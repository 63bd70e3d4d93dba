// SPDX-License-Identifier: MIT
/* Which number to trust: every row of a result ranked by how closely it
 * follows a score across the runs (Spearman), and the ratios of two events
 * that vary least (CV): the reasoning that leads to "cache misses per
 * migration", done over every candidate, and said with its limits. */
#include "core/core.h"
#include "result/result.h"
#include "util/json-writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOP_RATIOS 5

struct tracking {
	const struct series *sr;
	double rho, p, cv;
	size_t n;
};

struct ratio {
	const struct series *num, *den;
	double cv, mean;
};

struct explanation {
	const struct hwp_result *r;
	const struct series *score;
	struct tracking *rows;
	size_t nr_rows;
	struct ratio top[TOP_RATIOS];
	size_t nr_top, nr_pairs;
};

static double cv_of(const double *v, size_t n, size_t *defined)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };

	hwp_stats_summarize(v, n, &s);
	if (defined)
		*defined = s.n;
	return s.cv;
}

/* By |rho|, the strongest first; at equal strength, events first. */
static int cmp_tracking(const void *x, const void *y)
{
	const struct tracking *a = x, *b = y;
	double ra = isnan(a->rho) ? -1 : fabs(a->rho);
	double rb = isnan(b->rho) ? -1 : fabs(b->rho);

	if (ra != rb)
		return ra < rb ? 1 : -1;
	return (int)a->sr->kind - (int)b->sr->kind;
}

/* Keep the TOP_RATIOS ratios of least CV, in order. */
static void keep_ratio(struct explanation *e, const struct ratio *q)
{
	size_t i = e->nr_top;

	if (isnan(q->cv) || (i == TOP_RATIOS && !(q->cv < e->top[i - 1].cv)))
		return;
	if (i < TOP_RATIOS)
		e->nr_top++;
	else
		i--;
	while (i > 0 && q->cv < e->top[i - 1].cv) {
		e->top[i] = e->top[i - 1];
		i--;
	}
	e->top[i] = *q;
}

static int try_ratios(struct explanation *e, double *tmp)
{
	const struct hwp_result *r = e->r;

	/* a / b and b / a vary alike: each pair once, in the list's order. */
	for (size_t i = 0; i < r->nr_events; i++)
		for (size_t j = i + 1; j < r->nr_events; j++) {
			const struct series *a = &r->series[i], *b = &r->series[j];
			struct ratio q = { a, b, NAN, NAN };
			struct hwp_stats_summary s = { .sz = sizeof(s) };

			if (!a->supported || !b->supported)
				continue;
			for (size_t k = 0; k < r->nr_runs; k++)
				tmp[k] = b->values[k] != 0 ?
					 a->values[k] / b->values[k] : NAN;
			e->nr_pairs++;
			hwp_stats_summarize(tmp, r->nr_runs, &s);
			if (s.n < 3)
				continue;
			q.cv = s.cv;
			q.mean = s.mean;
			keep_ratio(e, &q);
		}
	return 0;
}

static int explain(const struct hwp_result *r, const char *score, struct explanation *e)
{
	double *tmp;

	memset(e, 0, sizeof(*e));
	e->r = r;
	for (size_t i = 0; i < r->nr_series; i++)
		if (r->series[i].kind == HWP_SERIES_SCORE &&
		    !strcmp(r->series[i].name, score))
			e->score = &r->series[i];
	if (!e->score)
		return fail(-ENOENT, "no score '%s' in the result: explain ranks the rows by how they follow a score (hwprof stat --score NAME=REGEX)",
			    score);
	if (r->nr_runs < 3)
		return fail(-HWP_ERR_UNDEFINED,
			    "explaining score '%s' needs 3 runs or more, not %zu: give -r N",
			    score, r->nr_runs);
	e->rows = calloc(r->nr_series, sizeof(*e->rows));
	tmp = calloc(r->nr_runs, sizeof(*tmp));
	if (!e->rows || !tmp) {
		free(tmp);
		return fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];
		struct tracking *t = &e->rows[e->nr_rows];

		/* Events, metrics and the other scores: what explains a score,
		 * not how long the runs took. */
		if (sr == e->score || !sr->supported || sr->kind == HWP_SERIES_TIME)
			continue;
		t->sr = sr;
		t->cv = cv_of(sr->values, r->nr_runs, &t->n);
		if (hwp_stats_spearman(sr->values, e->score->values, r->nr_runs, &t->rho,
				       &t->p))
			t->rho = t->p = NAN;
		e->nr_rows++;
	}
	clear_error();
	qsort(e->rows, e->nr_rows, sizeof(*e->rows), cmp_tracking);
	try_ratios(e, tmp);
	free(tmp);
	return 0;
}

static const char WEAK[] =
	"a rank correlation over %zu runs is weak evidence (with %zu candidates tried, some follow the score by chance): confirm with more runs, or by changing what the row counts";

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct explanation *e = obj;
	const struct hwp_result *r = e->r;
	char cv[32];

	(void)opts;
	fprintf(f, "\n Which number to trust: how each row follows score '%s' over %zu runs\n",
		e->score->name, r->nr_runs);
	fprintf(f, " (Spearman's rank correlation, strongest first; %zu rows tried)\n\n",
		e->nr_rows);
	fprintf(f, " %-32s %7s %9s %8s\n", "row", "rho", "p", "CV");
	for (size_t i = 0; i < e->nr_rows; i++) {
		const struct tracking *t = &e->rows[i];

		snprintf(cv, sizeof(cv), isnan(t->cv) ? "-" : "%.2f%%", 100 * t->cv);
		if (isnan(t->rho))
			fprintf(f, " %-32s %7s %9s %8s  (%s)\n", t->sr->name, "-", "-",
				cv, "does not vary, or fewer than 3 runs");
		else
			fprintf(f, " %-32s %+7.3f %9.3g %8s\n", t->sr->name, t->rho,
				t->p, cv);
	}
	fprintf(f, "\n Most invariant ratios of two events (CV across runs; %zu pairs tried):\n",
		e->nr_pairs);
	for (size_t i = 0; i < e->nr_top; i++) {
		char name[300];

		snprintf(name, sizeof(name), "%s / %s", e->top[i].num->name,
			 e->top[i].den->name);
		fprintf(f, "   %-44s %8.2f%%  (mean %.4g)\n", name, 100 * e->top[i].cv,
			e->top[i].mean);
	}
	if (!e->nr_top)
		fprintf(f,
			"   (none: fewer than two events counted in 3 runs or more)\n");
	fprintf(f, "\n note: ");
	fprintf(f, WEAK, r->nr_runs, e->nr_rows + e->nr_pairs);
	fprintf(f, "\n\n");
	return 0;
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct explanation *e = obj;
	struct json_writer w;
	char note[400];

	(void)opts;
	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "schema");
	jw_string(&w, "hwprof-explain/1");
	jw_key(&w, "score");
	jw_string(&w, e->score->name);
	jw_key(&w, "runs");
	jw_int(&w, (long long)e->r->nr_runs);
	jw_key(&w, "rows_tried");
	jw_int(&w, (long long)e->nr_rows);
	jw_key(&w, "rows");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < e->nr_rows; i++) {
		const struct tracking *t = &e->rows[i];

		jw_object_begin(&w);
		jw_key(&w, "name");
		jw_string(&w, t->sr->name);
		jw_key(&w, "kind");
		jw_string(&w, kind_name(t->sr->kind));
		jw_key(&w, "rho");
		jw_number(&w, t->rho);
		jw_key(&w, "p_value");
		jw_number(&w, t->p);
		jw_key(&w, "cv");
		jw_number(&w, t->cv);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_key(&w, "pairs_tried");
	jw_int(&w, (long long)e->nr_pairs);
	jw_key(&w, "ratios");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < e->nr_top; i++) {
		jw_object_begin(&w);
		jw_key(&w, "numerator");
		jw_string(&w, e->top[i].num->name);
		jw_key(&w, "denominator");
		jw_string(&w, e->top[i].den->name);
		jw_key(&w, "mean");
		jw_number(&w, e->top[i].mean);
		jw_key(&w, "cv");
		jw_number(&w, e->top[i].cv);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	snprintf(note, sizeof(note), WEAK, e->r->nr_runs, e->nr_rows + e->nr_pairs);
	jw_key(&w, "note");
	jw_string(&w, note);
	jw_object_end(&w);
	jw_finish(&w);
	return 0;
}

static const struct writer explain_writer = {
	.fn = "hwp_result_explain",
	.what = "the explanation",
	.subject = "an explanation is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_result_explain(const struct hwp_result *r, const char *score, FILE *f,
			       const struct hwp_write_opts *opts)
{
	struct explanation e;
	int err;

	clear_error();
	if (!r || !score || !f)
		return fail(-EINVAL, "hwp_result_explain: NULL argument");
	err = explain(r, score, &e);
	if (!err)
		err = write_dispatch(&explain_writer, &e, f, opts);
	free(e.rows);
	return err;
}
