// SPDX-License-Identifier: MIT
/* Writing comparisons: a text table (of rows, or of ratios per sweep
 * column) and hwprof-compare/1 JSON. */
#include "core/core.h"
#include "compare/compare.h"
#include "result/result.h"
#include "util/format.h"
#include "util/table.h"
#include "util/json-writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Clocks count ns; people read msec, as in the stat report. */
static double shown(const struct cmp_row *row, double v)
{
	return row->kind == HWP_SERIES_EVENT && !strcmp(row->unit, "ns") ? v / 1e6 : v;
}

/* A ratio to 3 decimals, or with an exponent where they would say 0.000
 * or run long; "n/a" when there is none (the cell's reason says why). */
static void fmt_ratio(double r, char *buf, size_t size)
{
	if (isnan(r))
		snprintf(buf, size, "n/a");
	else if (r != 0 && (fabs(r) >= 1e6 || fabs(r) < 1e-3))
		snprintf(buf, size, "%.3e", r);
	else
		snprintf(buf, size, "%.3f", r);
}

static void fmt_p(const struct hwp_compare *c, const struct hwp_compare_info *i,
		  char *buf, size_t size)
{
	const char *approx =
		c->opts.test == HWP_TEST_MANN_WHITNEY && !i->exact ? "*" : "";

	if (isnan(i->p_value))
		snprintf(buf, size, "-");
	else if (i->p_value < 0.001)
		snprintf(buf, size, "<0.001%s", approx);
	else
		snprintf(buf, size, "%.3f%s", i->p_value, approx);
}

static void row_label(const struct cmp_row *row, char *buf, size_t size)
{
	bool msec = row->kind == HWP_SERIES_EVENT && !strcmp(row->unit, "ns");

	snprintf(buf, size, "%s%s", row->label, msec ? " (msec)" : "");
}

static void text_header(const struct hwp_compare *c, FILE *f)
{
	bool same_a = true, same_b = true;

	for (size_t k = 1; k < c->nr_columns; k++) {
		same_a &= c->a_runs[k] == c->a_runs[0];
		same_b &= c->b_runs[k] == c->b_runs[0];
	}
	fprintf(f, "\n Comparison of %s", c->a_name);
	if (same_a)
		fprintf(f, " (%zu runs%s)", c->a_runs[0], c->param ? " each" : "");
	fprintf(f, " with %s", c->b_name);
	if (same_b)
		fprintf(f, " (%zu runs%s)", c->b_runs[0], c->param ? " each" : "");
	if (c->param)
		fprintf(f, ", over %s", c->param);
	fprintf(f, ":\n");
	if (c->order)
		fprintf(f, " Runs ordered %s\n", c->order);
	if (c->paired)
		fprintf(f, " Paired: each run of %s with the run of %s in its block, tested on B - A\n",
			c->a_name, c->b_name);
	fprintf(f, " %s, alpha %g; ", cmp_test_name(c), c->opts.alpha);
	if (c->corrected)
		fprintf(f, "Holm's correction over %zu tests", c->nr_tests);
	else if (!c->nr_tests && !c->nr_constant)
		fprintf(f, "no test could be made (the notes say why)");
	else
		fprintf(f, "%s",
			c->nr_tests > 1 ? "no correction for multiple tests" :
			c->nr_tests ? "one test, no correction needed" : "no test");
	if (c->nr_constant)
		fprintf(f,
			"; %zu row%s one constant in A and B: cannot differ, not tests",
			c->nr_constant, c->nr_constant == 1 ? "" : "s");
	fprintf(f, "\n\n");
}

/* The heading of the interval beside the verdicts: the level they were
 * decided at ("95% CI" at alpha 0.05 alone), or Holm's. */
static void ci_heading(const struct hwp_compare *c, char *buf, size_t size)
{
	const char *of = c->paired ? "B/A" : "B - A";

	if (c->corrected)
		snprintf(buf, size, "Holm CI of %s", of);
	else
		snprintf(buf, size, "%.4g%% CI of %s", 100 * (1 - c->opts.alpha), of);
}

static void text_rows(const struct hwp_compare *c, bool big, struct table *t)
{
	char ci_head[64];
	const char *head[] = { "row", "mean A", "mean B", "ratio B/A", ci_head,
			       "p", "verdict" };

	ci_heading(c, ci_head, sizeof(ci_head));
	table_add(t, head);
	for (size_t i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];
		const struct hwp_compare_info *in = &row->cells[0].info;
		char name[300], ma[64], mb[64], ratio[32], lo[64], hi[64], ci[140], p[32];
		const char *verdict = hwp_enum_name(HWP_ENUM_VERDICT, in->verdict);
		const char *cells[] = { name, ma, mb, ratio, ci, p, verdict };
		bool none;

		row_label(row, name, sizeof(name));
		fmt_num(shown(row, in->a_mean), big, false, ma, sizeof(ma));
		fmt_num(shown(row, in->b_mean), big, false, mb, sizeof(mb));
		fmt_ratio(in->ratio, ratio, sizeof(ratio));
		if (c->paired) {
			fmt_ratio(in->ratio_ci_adj_low, lo, sizeof(lo));
			fmt_ratio(in->ratio_ci_adj_high, hi, sizeof(hi));
		} else {
			fmt_num(shown(row, in->ci_adj_low), big, true, lo, sizeof(lo));
			fmt_num(shown(row, in->ci_adj_high), big, true, hi, sizeof(hi));
		}
		none = isnan(c->paired ? in->ratio_ci_adj_low : in->ci_adj_low);
		snprintf(ci, sizeof(ci), none ? "-" : "[%s, %s]", lo, hi);
		fmt_p(c, in, p, sizeof(p));
		table_add(t, cells);
	}
}

/* A sweep: the ratio B/A and a verdict sign per column. */
static void text_ratios(const struct hwp_compare *c, struct table *t)
{
	const char **cells = calloc(c->nr_columns + 1, sizeof(*cells));
	char (*buf)[300] = calloc(c->nr_columns + 1, sizeof(*buf));

	if (!cells || !buf) {
		t->failed = true;
		goto out;
	}
	cells[0] = "ratio B/A";
	for (size_t k = 0; k < c->nr_columns; k++) {
		snprintf(buf[k + 1], sizeof(buf[0]), "%s=%s", c->param, c->columns[k]);
		cells[k + 1] = buf[k + 1];
	}
	table_add(t, cells);
	for (size_t i = 0; i < c->nr_rows; i++) {
		const struct cmp_row *row = &c->rows[i];

		cells[0] = row->label;
		for (size_t k = 0; k < c->nr_columns; k++) {
			const struct hwp_compare_info *in = &row->cells[k].info;
			static const char sign[] = { [HWP_VERDICT_UNCHANGED] = '=',
						     [HWP_VERDICT_INCREASE] = '+',
						     [HWP_VERDICT_DECREASE] = '-' };
			char ratio[32];

			fmt_ratio(in->ratio, ratio, sizeof(ratio));
			if (in->verdict == HWP_VERDICT_NONE)
				snprintf(buf[k + 1], sizeof(buf[0]), "n/a");
			else
				snprintf(buf[k + 1], sizeof(buf[0]), "%s %c", ratio,
					 sign[in->verdict]);
			cells[k + 1] = buf[k + 1];
		}
		table_add(t, cells);
	}
out:
	free(cells);
	free(buf);
}

static void text_noise(const struct hwp_compare *c, FILE *f)
{
	fprintf(f, "\n Noise ranking, least noisy first (coefficient of variation, the larger of A's and B's%s):\n",
		c->param ? ", over the columns" : "");
	for (size_t rank = 1; rank <= c->nr_rows; rank++)
		for (size_t i = 0; i < c->nr_rows; i++) {
			const struct cmp_row *row = &c->rows[i];

			if (row->noise_rank != rank)
				continue;
			if (isnan(row->noise))
				fprintf(f, " %4zu. %-32s %9s\n", rank, row->label, "-");
			else if (100 * row->noise >= 1e6)
				fprintf(f, " %4zu. %-32s %8.2e%%\n", rank, row->label,
					100 * row->noise);
			else
				fprintf(f, " %4zu. %-32s %8.2f%%\n", rank, row->label,
					100 * row->noise);
		}
}

/* "page-faults", or "page-faults at T=4" in a sweep. */
static void cell_label(const struct hwp_compare *c, size_t row, size_t col, char *buf,
		       size_t size)
{
	if (c->param)
		snprintf(buf, size, "%s at %s=%s", c->rows[row].label, c->param,
			 c->columns[col]);
	else
		snprintf(buf, size, "%s", c->rows[row].label);
}

/* A side whose runs are not all in a tested cell's numbers: a null in the
 * result is a run that failed or went missing. (Paired cells say which
 * runs have no partner in a warning.) */
static void note_missing(const struct hwp_compare *c, size_t k, const char *label,
			 const struct cmp_cell *cell, FILE *f)
{
	const struct hwp_compare_info *in = &cell->info;
	const size_t n[2] = { in->a_n, in->b_n };
	const size_t runs[2] = { c->a_runs[k], c->b_runs[k] };
	const char *name[2] = { c->a_name, c->b_name };

	if (!cell->tested || in->pairs)
		return;
	for (int s = 0; s < 2; s++)
		if (n[s] < runs[s])
			fprintf(f, " note: %s: %zu of the %zu runs of %s %s no value (null: failed or missing); its mean and test are of the other %zu\n",
				label, runs[s] - n[s], runs[s], name[s],
				runs[s] - n[s] == 1 ? "has" : "have", n[s]);
}

static void text_notes(const struct hwp_compare *c, FILE *f)
{
	bool approx = false, mw = c->opts.test == HWP_TEST_MANN_WHITNEY;

	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++) {
			const struct cmp_cell *cell = &c->rows[i].cells[k];
			const struct hwp_compare_info *in = &cell->info;
			char label[400];

			cell_label(c, i, k, label, sizeof(label));
			approx |= mw && cell->tested && !in->exact;
			if (cell->reason)
				fprintf(f, " note: %s: %s\n", label, cell->reason);
			note_missing(c, k, label, cell, f);
			if (in->a_outliers || in->b_outliers)
				fprintf(f, " note: %s: outlier runs (median absolute deviation): %zu in %s, %zu in %s\n",
					label, in->a_outliers, c->a_name, in->b_outliers,
					c->b_name);
		}
	if (approx)
		fprintf(f, " note: p*: normal approximation with tie and continuity corrections (%s); the other p are exact\n",
			c->paired ? "tied or zero differences, or 50 pairs or more" :
				    "ties, or 50 runs or more");
	for (size_t i = 0; i < c->nr_warnings; i++)
		fprintf(f, " warning: %s\n", c->warnings[i]);
	for (size_t i = 0; i < c->nr_rules; i++)
		fprintf(f, " %s: %s: %s\n", c->rules[i].broken ? "FAIL" : "pass",
			c->rules[i].spec, c->rules[i].finding);
}

/* Under the table of rows: what the interval beside a corrected verdict is. */
static void text_ci_note(const struct hwp_compare *c, FILE *f)
{
	double lo = NAN, hi = NAN;

	if (!c->corrected || c->param)
		return;
	for (size_t i = 0; i < c->nr_rows; i++) {
		double l = c->rows[i].cells[0].info.ci_adj_level;

		lo = fmin(lo, l);
		hi = fmax(hi, l);
	}
	if (isnan(lo))
		return;
	if (c->paired)
		fprintf(f, "\n Holm CI: the interval of B/A at the level Holm's correction decided each row at\n"
			   " (1 - alpha x p / p corrected: %.2f%% to %.2f%% here), Fieller's: the ratios r\n"
			   " whose B - r x A the paired t-test does not reject, so it holds 1 exactly when the\n"
			   " paired t-test's verdict is unchanged (not below 0 for values >= 0; none, '-', where\n"
			   " A's mean is not told from 0); each row's 95%% interval of B - A is in --json and CSV.\n",
			100 * lo, 100 * hi);
	else
		fprintf(f, "\n Holm CI: the interval of B - A at the level Holm's correction decided each row at\n"
			   " (1 - alpha x p / p corrected: %.2f%% to %.2f%% here), so that it holds 0 exactly\n"
			   " when Welch's verdict is unchanged; each row's 95%% interval is in --json and CSV.\n",
			100 * lo, 100 * hi);
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_compare *c = obj;
	const struct hwp_write_opts *o = opts;
	struct table t = { .nr_cols = c->param ? c->nr_columns + 1 : 7 };

	if (c->param)
		text_ratios(c, &t);
	else
		text_rows(c, !o->no_big_num, &t);
	if (t.failed) {
		table_release(&t);
		return fail(-ENOMEM, "out of memory");
	}
	text_header(c, f);
	table_print(&t, f);
	table_release(&t);
	text_ci_note(c, f);
	if (c->param)
		fprintf(f, "\n %s: + increase, - decrease, = unchanged at alpha %g; n/a: no test or no ratio (the notes say why)\n",
			"ratio B/A of the means", c->opts.alpha);
	text_noise(c, f);
	fputc('\n', f);
	text_notes(c, f);
	return 0;
}

/* ---- JSON ---- */

static void json_side(struct json_writer *w, const char *key, const char *name,
		      const size_t *runs, size_t n)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_key(w, "source");
	jw_string(w, name);
	jw_key(w, "runs");
	jw_array_begin(w, true);
	for (size_t k = 0; k < n; k++)
		jw_int(w, (long long)runs[k]);
	jw_array_end(w);
	jw_object_end(w);
}

static void json_num(struct json_writer *w, const char *key, double v)
{
	jw_key(w, key);
	jw_number(w, v);
}

static void json_cell(struct json_writer *w, const struct cmp_cell *cell)
{
	const struct hwp_compare_info *in = &cell->info;

	jw_object_begin(w);
	jw_key(w, "name");
	jw_string(w, in->name);
	if (in->aggr_unit) {
		jw_key(w, "aggregation_unit");
		jw_string(w, in->aggr_unit);
	}
	jw_key(w, "kind");
	jw_string(w, kind_name(in->kind));
	jw_key(w, "unit");
	jw_string(w, in->unit);
	jw_key(w, "column");
	jw_string(w, in->column);
	json_num(w, "a_mean", in->a_mean);
	json_num(w, "b_mean", in->b_mean);
	json_num(w, "ratio", in->ratio);
	json_num(w, "diff", in->diff);
	json_num(w, "ci_low", in->ci_low);
	json_num(w, "ci_high", in->ci_high);
	json_num(w, "ci_adj_low", in->ci_adj_low);
	json_num(w, "ci_adj_high", in->ci_adj_high);
	json_num(w, "ci_adj_level", in->ci_adj_level);
	jw_key(w, "pairs");
	jw_int(w, (long long)in->pairs);
	json_num(w, "ratio_ci_adj_low", in->ratio_ci_adj_low);
	json_num(w, "ratio_ci_adj_high", in->ratio_ci_adj_high);
	json_num(w, "p_value", in->p_value);
	json_num(w, "p_raw", in->p_raw);
	jw_key(w, "verdict");
	jw_string(w, hwp_enum_name(HWP_ENUM_VERDICT, in->verdict));
	jw_key(w, "reason");
	jw_string(w, in->reason);
	json_num(w, "statistic", in->statistic);
	json_num(w, "df", in->df);
	jw_key(w, "exact");
	jw_bool(w, in->exact);
	jw_key(w, "a_n");
	jw_int(w, (long long)in->a_n);
	jw_key(w, "b_n");
	jw_int(w, (long long)in->b_n);
	json_num(w, "a_cv", in->a_cv);
	json_num(w, "b_cv", in->b_cv);
	jw_key(w, "a_outliers");
	jw_int(w, (long long)in->a_outliers);
	jw_key(w, "b_outliers");
	jw_int(w, (long long)in->b_outliers);
	jw_key(w, "noise_rank");
	jw_int(w, (long long)in->noise_rank);
	jw_object_end(w);
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_compare *c = obj;
	struct json_writer w;

	(void)opts;

	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "schema");
	jw_string(&w, "hwprof-compare/1");
	json_side(&w, "a", c->a_name, c->a_runs, c->nr_columns);
	json_side(&w, "b", c->b_name, c->b_runs, c->nr_columns);
	jw_key(&w, "test");
	jw_string(&w, cmp_test_key(c));
	jw_key(&w, "paired");
	jw_bool(&w, c->paired);
	json_num(&w, "alpha", c->opts.alpha);
	jw_key(&w, "correction");
	jw_string(&w, c->corrected ? "holm" : "none");
	jw_key(&w, "tests");
	jw_int(&w, (long long)c->nr_tests);
	jw_key(&w, "order");
	jw_string(&w, c->order);
	jw_key(&w, "parameter");
	jw_string(&w, c->param);
	jw_key(&w, "columns");
	jw_array_begin(&w, true);
	for (size_t k = 0; k < c->nr_columns; k++)
		jw_string(&w, c->columns[k]);
	jw_array_end(&w);
	jw_key(&w, "rows");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++)
			json_cell(&w, &c->rows[i].cells[k]);
	jw_array_end(&w);
	jw_key(&w, "noise_ranking");
	jw_array_begin(&w, false);
	for (size_t rank = 1; rank <= c->nr_rows; rank++)
		for (size_t i = 0; i < c->nr_rows; i++)
			if (c->rows[i].noise_rank == rank) {
				jw_object_begin(&w);
				jw_key(&w, "name");
				jw_string(&w, c->rows[i].name);
				if (c->rows[i].aggr_unit) {
					jw_key(&w, "aggregation_unit");
					jw_string(&w, c->rows[i].aggr_unit);
				}
				json_num(&w, "cv", c->rows[i].noise);
				jw_object_end(&w);
			}
	jw_array_end(&w);
	jw_key(&w, "warnings");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < c->nr_warnings; i++)
		jw_string(&w, c->warnings[i]);
	jw_array_end(&w);
	jw_key(&w, "fail_on");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < c->nr_rules; i++) {
		jw_object_begin(&w);
		jw_key(&w, "rule");
		jw_string(&w, c->rules[i].spec);
		jw_key(&w, "broken");
		jw_bool(&w, c->rules[i].broken);
		jw_key(&w, "finding");
		jw_string(&w, c->rules[i].finding);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
	return 0;
}

/* ---- CSV: a header, then a line a cell, raw numbers (clocks in ns) ---- */

static void csv_num(FILE *f, double v, const char *sep)
{
	if (!isnan(v))
		fprintf(f, "%.10g", v);
	fputs(sep, f);
}

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	static const char *const head[] = {
		"row", "aggregation_unit", "kind", "unit", "column", "a_mean", "b_mean",
		"ratio", "diff", "ci_low", "ci_high", "ci_adj_low", "ci_adj_high",
		"ci_adj_level", "p_raw", "p_value", "verdict", "a_n", "b_n", "a_cv",
		"b_cv", "a_outliers", "b_outliers", "noise_rank", "reason",
		/* since 0.2, after the fields of 0.1's CSV */
		"pairs", "ratio_ci_adj_low", "ratio_ci_adj_high",
	};
	const struct hwp_compare *c = obj;
	const struct hwp_write_opts *o = opts;
	const char *sep = o->separator && *o->separator ? o->separator : ",";

	for (size_t k = 0; k < ARRAY_SIZE(head); k++)
		fprintf(f, "%s%s", k ? sep : "", head[k]);
	fputc('\n', f);
	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++) {
			const struct hwp_compare_info *in = &c->rows[i].cells[k].info;

			csv_field(f, in->name, sep);
			fputs(sep, f);
			csv_field(f, in->aggr_unit ? in->aggr_unit : "", sep);
			fprintf(f, "%s%s%s", sep, kind_name(in->kind), sep);
			csv_field(f, in->unit, sep);
			fputs(sep, f);
			csv_field(f, in->column ? in->column : "", sep);
			fputs(sep, f);
			csv_num(f, in->a_mean, sep);
			csv_num(f, in->b_mean, sep);
			csv_num(f, in->ratio, sep);
			csv_num(f, in->diff, sep);
			csv_num(f, in->ci_low, sep);
			csv_num(f, in->ci_high, sep);
			csv_num(f, in->ci_adj_low, sep);
			csv_num(f, in->ci_adj_high, sep);
			csv_num(f, in->ci_adj_level, sep);
			csv_num(f, in->p_raw, sep);
			csv_num(f, in->p_value, sep);
			fprintf(f, "%s%s%zu%s%zu%s",
				hwp_enum_name(HWP_ENUM_VERDICT, in->verdict), sep,
				in->a_n, sep, in->b_n, sep);
			csv_num(f, in->a_cv, sep);
			csv_num(f, in->b_cv, sep);
			fprintf(f, "%zu%s%zu%s%zu%s", in->a_outliers, sep, in->b_outliers,
				sep, in->noise_rank, sep);
			csv_field(f, in->reason ? in->reason : "", sep);
			fprintf(f, "%s%zu%s", sep, in->pairs, sep);
			csv_num(f, in->ratio_ci_adj_low, sep);
			if (!isnan(in->ratio_ci_adj_high))
				fprintf(f, "%.10g", in->ratio_ci_adj_high);
			fputc('\n', f);
		}
	return 0;
}

static const struct writer compare_writer = {
	.fn = "hwp_compare_write",
	.what = "the comparison",
	.subject = "a comparison is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_CSV] = write_csv,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_compare_write(const struct hwp_compare *c, FILE *f,
			      const struct hwp_write_opts *opts)
{
	return write_dispatch(&compare_writer, c, f, opts);
}
