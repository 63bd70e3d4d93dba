// SPDX-License-Identifier: MIT
/* Writing profile differences: a text table, CSV with a header row, and
 * hwprof-diff/1 JSON (README.md). */
#include "diff/diff.h"
#include "profile/report.h"
#include "util/format.h"
#include "util/json-writer.h"
#include "util/strbuf.h"
#include "util/table.h"
#include "util/text.h"

#include <math.h>
#include <string.h>

/* What a row stands for, by sort key: the first column's title. */
static const char *row_title(enum hwp_sort sort)
{
	static const char *const titles[] = {
		[HWP_SORT_SYM] = "symbol",
		[HWP_SORT_RIP] = "instruction",
		[HWP_SORT_LINE] = "line",
		[HWP_SORT_DSO] = "module",
	};

	return (unsigned int)sort < ARRAY_SIZE(titles) ? titles[sort] : "row";
}

static size_t rows_shown(const struct hwp_profile_diff *d, const struct hwp_write_opts *o)
{
	return o->top && o->top < d->nr_rows ? o->top : d->nr_rows;
}

static void fmt_p(double p, char *buf, size_t size)
{
	if (p < 0.001)
		snprintf(buf, size, "<0.001");
	else
		snprintf(buf, size, "%.3f", p);
}

static void text_header(const struct hwp_profile_diff *d, bool big, FILE *f)
{
	const struct hwp_profile_diff_info *in = &d->info;
	char na[32], nb[32];

	fmt_grouped((double)in->a_samples, big, na, sizeof(na));
	fmt_grouped((double)in->b_samples, big, nb, sizeof(nb));
	fprintf(f, "\n Difference of %s (B, %s samples) against %s (A, %s samples),\n",
		in->b_input, nb, in->a_input, na);
	fprintf(f, " shares of the %s samples by %s:\n", in->event, row_title(in->sort));
	fprintf(f, " Fisher's exact test on each row's samples, alpha %g; ", in->alpha);
	if (in->corrected)
		fprintf(f, "Holm's correction over %zu rows\n", in->nr_tests);
	else
		fprintf(f, "%s\n", in->nr_tests > 1 ? "no correction for multiple tests" :
					 "one test, no correction needed");
	fprintf(f, " %zu significant: %zu increase%s, %zu decrease%s\n\n",
		in->nr_increase + in->nr_decrease, in->nr_increase,
		in->nr_increase == 1 ? "" : "s", in->nr_decrease,
		in->nr_decrease == 1 ? "" : "s");
}

static void text_rows(const struct hwp_profile_diff *d, size_t n, struct table *t)
{
	bool dso_col = d->info.sort != HWP_SORT_DSO;
	const char *head[] = { row_title(d->info.sort), "A %", "B %", "B - A",
			       "95% CI of B - A", "ratio B/A", "p", "verdict",
			       "module" };

	/* Names from the files, escaped before the columns are measured: a
	 * line feed or a tab would break the rows (as in the report). */
	struct strbuf name = STRBUF_INIT, dso = STRBUF_INIT;

	table_add(t, head);
	for (size_t i = 0; i < n; i++) {
		const struct hwp_profile_diff_row_info *in = &d->rows[i].info;
		char a[32], b[32], diff[32], ci[80], ratio[32], p[32];
		const char *cells[] = { NULL, a, b, diff, ci, ratio, p,
					hwp_verdict_name(in->verdict), NULL };

		strbuf_reset(&name);
		strbuf_reset(&dso);
		strbuf_add_escaped(&name, in->name ? in->name : "", false);
		cells[0] = strbuf_failed(&name) ? "?" : strbuf_str(&name);
		if (dso_col && in->dso) {
			strbuf_add_escaped(&dso, in->dso, false);
			cells[8] = strbuf_failed(&dso) ? "?" : strbuf_str(&dso);
		}

		snprintf(a, sizeof(a), "%.2f", in->a_share);
		snprintf(b, sizeof(b), "%.2f", in->b_share);
		snprintf(diff, sizeof(diff), "%+.2f", in->diff);
		snprintf(ci, sizeof(ci), "[%+.2f, %+.2f]", in->ci_low, in->ci_high);
		if (isnan(in->ratio))
			snprintf(ratio, sizeof(ratio), "new");
		else
			snprintf(ratio, sizeof(ratio), "%.3f", in->ratio);
		fmt_p(in->p_value, p, sizeof(p));
		table_add(t, cells);
	}
	strbuf_release(&name);
	strbuf_release(&dso);
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_profile_diff *d = obj;
	const struct hwp_write_opts *o = opts;
	size_t n = rows_shown(d, o);
	struct table t = { .nr_cols = d->info.sort == HWP_SORT_DSO ? 8 : 9 };

	text_rows(d, n, &t);
	if (t.failed) {
		table_release(&t);
		return fail(-ENOMEM, "out of memory");
	}
	text_header(d, !o->no_big_num, f);
	table_print(&t, f);
	table_release(&t);
	if (d->info.corrected)
		fprintf(f, "\n B - A and its 95%% interval, before the correction, in points of the share;\n"
			   " p after it: a row may be unchanged beside an interval that leaves out 0.\n");
	else
		fprintf(f, "\n B - A and its 95%% interval in points of the share.\n");
	if (n < d->nr_rows)
		fprintf(f, " %zu more rows, smaller changes%s (--top 0 shows all)\n",
			d->nr_rows - n, d->info.nr_increase + d->info.nr_decrease > n ?
			", some of them significant" : " and none significant");
	return 0;
}

/* ---- CSV ---- */

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	static const char *const heads[] = { "name", "dso", "a_samples", "b_samples",
					     "a_share", "b_share", "diff", "ci_low",
					     "ci_high", "ratio", "p_value", "p_raw",
					     "verdict" };
	const struct hwp_profile_diff *d = obj;
	const struct hwp_write_opts *o = opts;
	const char *sep = o->separator && *o->separator ? o->separator : ",";
	size_t n = rows_shown(d, o);

	for (size_t k = 0; k < ARRAY_SIZE(heads); k++)
		fprintf(f, "%s%s", heads[k], k + 1 < ARRAY_SIZE(heads) ? sep : "\n");
	for (size_t i = 0; i < n; i++) {
		const struct hwp_profile_diff_row_info *in = &d->rows[i].info;

		csv_field(f, in->name, sep);
		fputs(sep, f);
		csv_field(f, in->dso, sep);
		fprintf(f, "%s%llu%s%llu%s%.4f%s%.4f%s%.4f%s%.4f%s%.4f%s", sep,
			(unsigned long long)in->a_samples, sep,
			(unsigned long long)in->b_samples, sep, in->a_share, sep,
			in->b_share, sep, in->diff, sep, in->ci_low, sep, in->ci_high,
			sep);
		if (!isnan(in->ratio))
			fprintf(f, "%.4f", in->ratio);
		fprintf(f, "%s%.4g%s%.4g%s%s\n", sep, in->p_value, sep, in->p_raw, sep,
			hwp_verdict_name(in->verdict));
	}
	return 0;
}

/* ---- JSON ---- */

static void json_num(struct json_writer *w, const char *key, double v)
{
	jw_key(w, key);
	jw_number(w, v);
}

static void json_side(struct json_writer *w, const char *key, const char *input,
		      uint64_t samples)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_key(w, "source");
	jw_string(w, input);
	jw_key(w, "samples");
	jw_uint(w, samples);
	jw_object_end(w);
}

static void json_row(struct json_writer *w, const struct hwp_profile_diff_row_info *in)
{
	jw_object_begin(w);
	jw_key(w, "name");
	jw_string(w, in->name);
	jw_key(w, "dso");
	jw_string(w, in->dso);
	jw_key(w, "a_samples");
	jw_uint(w, in->a_samples);
	jw_key(w, "b_samples");
	jw_uint(w, in->b_samples);
	json_num(w, "a_share", in->a_share);
	json_num(w, "b_share", in->b_share);
	json_num(w, "diff", in->diff);
	json_num(w, "ci_low", in->ci_low);
	json_num(w, "ci_high", in->ci_high);
	json_num(w, "ratio", in->ratio);
	json_num(w, "p_value", in->p_value);
	json_num(w, "p_raw", in->p_raw);
	jw_key(w, "verdict");
	jw_string(w, hwp_verdict_name(in->verdict));
	jw_object_end(w);
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_profile_diff *d = obj;
	const struct hwp_profile_diff_info *in = &d->info;
	size_t n = rows_shown(d, opts);
	struct json_writer w;

	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "schema");
	jw_string(&w, "hwprof-diff/1");
	json_side(&w, "a", in->a_input, in->a_samples);
	json_side(&w, "b", in->b_input, in->b_samples);
	jw_key(&w, "event");
	jw_string(&w, in->event);
	jw_key(&w, "sort");
	jw_string(&w, hwp_sort_name(in->sort));
	jw_key(&w, "test");
	jw_string(&w, "fisher-exact");
	jw_key(&w, "interval");
	jw_string(&w, "newcombe");
	json_num(&w, "alpha", in->alpha);
	jw_key(&w, "correction");
	jw_string(&w, in->corrected ? "holm" : "none");
	jw_key(&w, "tests");
	jw_int(&w, (long long)in->nr_tests);
	jw_key(&w, "increases");
	jw_int(&w, (long long)in->nr_increase);
	jw_key(&w, "decreases");
	jw_int(&w, (long long)in->nr_decrease);
	jw_key(&w, "nr_rows");
	jw_int(&w, (long long)d->nr_rows);
	jw_key(&w, "rows");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < n; i++)
		json_row(&w, &d->rows[i].info);
	jw_array_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
	return 0;
}

static const struct writer diff_writer = {
	.fn = "hwp_profile_diff_write",
	.what = "the difference",
	.subject = "a profile difference is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_CSV] = write_csv,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_profile_diff_write(const struct hwp_profile_diff *d, FILE *f,
				   const struct hwp_write_opts *opts)
{
	return write_dispatch(&diff_writer, d, f, opts);
}
