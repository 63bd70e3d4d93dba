// SPDX-License-Identifier: MIT
/* Writing profile differences: a text table, CSV with a header row, and
 * hwprof-diff/1 JSON (hwprof-formats(5)). */
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

/* What the rows' values are, by mode: the JSON's "mode". */
static const char *mode_name(const struct hwp_profile_diff_info *in)
{
	return in->per_second ? "rate" : in->absolute ? "count" : "share";
}

/* A row's verdict as the text shows it: of a share, "share up". */
static const char *verdict_text(const struct hwp_profile_diff_info *in,
				enum hwp_verdict v)
{
	if (in->absolute || v == HWP_VERDICT_UNCHANGED)
		return hwp_enum_name(HWP_ENUM_VERDICT, v);
	return v == HWP_VERDICT_INCREASE ? "share up" : "share down";
}

/* The module maps, their names escaped as the rows' are. */
static void text_modules(const struct hwp_profile_diff *d, FILE *f)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

	for (size_t i = 0; i < d->nr_maps; i++) {
		strbuf_reset(&a);
		strbuf_reset(&b);
		strbuf_add_escaped(&a, d->maps[i].a, false);
		strbuf_add_escaped(&b, d->maps[i].b, false);
		if (strbuf_failed(&a) || strbuf_failed(&b))
			break;
		if (d->info.auto_matched)
			fprintf(f, " %s (A) and %s (B) are compared as one module: the programs differ only in name\n"
				   " (--map-module OLD=NEW to say which modules are one)\n",
				strbuf_str(&a), strbuf_str(&b));
		else
			fprintf(f, " %s (A) is compared as %s (B) (--map-module)\n",
				strbuf_str(&a), strbuf_str(&b));
	}
	strbuf_release(&a);
	strbuf_release(&b);
}

static void text_measure(const struct hwp_profile_diff_info *in, bool big, FILE *f)
{
	char pa[32], pb[32];

	if (!in->absolute) {
		fprintf(f, " shares of the %s samples by %s, as perf diff's: a share falls when another\n"
			   " grows, whatever its own cost (--mode count compares costs):\n",
			in->event, row_title(in->sort));
		fprintf(f, " Fisher's exact test on each row's samples, alpha %g; ",
			in->alpha);
		return;
	}
	fmt_num(in->a_period, big, false, pa, sizeof(pa));
	fmt_num(in->b_period, big, false, pb, sizeof(pb));
	fprintf(f, " %s events %s, by %s:\n", in->event,
		in->per_second ? "per second of recording" : "per recording",
		row_title(in->sort));
	fprintf(f, " a row's samples times the mean period of its side's (%s in A, %s in B)%s;\n",
		pa, pb, in->per_second ? ", over the side's seconds" : "");
	fprintf(f, " the exact test of two Poisson rates on each row's samples, ");
	fprintf(f, "alpha %g; ", in->alpha);
}

static void text_header(const struct hwp_profile_diff *d, bool big, FILE *f)
{
	const struct hwp_profile_diff_info *in = &d->info;
	char na[32], nb[32], sa[40] = "", sb[40] = "";

	fmt_grouped((double)in->a_samples, big, na, sizeof(na));
	fmt_grouped((double)in->b_samples, big, nb, sizeof(nb));
	if (in->per_second) {
		snprintf(sa, sizeof(sa), " in %.3f s", in->a_seconds);
		snprintf(sb, sizeof(sb), " in %.3f s", in->b_seconds);
	}
	fprintf(f,
		"\n Difference of %s (B, %s samples%s) against %s (A, %s samples%s),\n",
		in->b_input, nb, sb, in->a_input, na, sa);
	text_modules(d, f);
	text_measure(in, big, f);
	if (in->corrected)
		fprintf(f, "Holm's correction over %zu rows\n", in->nr_tests);
	else
		fprintf(f, "%s\n", in->nr_tests > 1 ? "no correction for multiple tests" :
					 "one test, no correction needed");
	if (in->absolute)
		fprintf(f, " %zu significant: %zu increase%s, %zu decrease%s\n\n",
			in->nr_increase + in->nr_decrease, in->nr_increase,
			in->nr_increase == 1 ? "" : "s", in->nr_decrease,
			in->nr_decrease == 1 ? "" : "s");
	else
		fprintf(f, " %zu significant: %zu share%s up, %zu share%s down\n\n",
			in->nr_increase + in->nr_decrease, in->nr_increase,
			in->nr_increase == 1 ? "" : "s", in->nr_decrease,
			in->nr_decrease == 1 ? "" : "s");
}

/* The first and last cells of a row: its name ("work (a.c)" for one of
 * two functions of that name) and its module, escaped before the columns
 * are measured (a line feed or a tab would break the rows, as in the
 * report); "?" when out of memory. */
static void name_cells(const struct hwp_profile_diff_row_info *in, bool dso_col,
		       struct strbuf *name, struct strbuf *dso, const char **cells,
		       size_t last)
{
	strbuf_reset(name);
	strbuf_reset(dso);
	strbuf_add_escaped(name, in->name ? in->name : "", false);
	if (in->file) {
		strbuf_adds(name, " (");
		strbuf_add_escaped(name, in->file, false);
		strbuf_adds(name, ")");
	}
	cells[0] = strbuf_failed(name) ? "?" : strbuf_str(name);
	if (dso_col && in->dso) {
		strbuf_add_escaped(dso, in->dso, false);
		cells[last] = strbuf_failed(dso) ? "?" : strbuf_str(dso);
	}
}

/* A row's cells but its name and module. */
struct text_cells {
	char a[40], b[40], diff[40], ci[80], ratio[32], p[32];
};

/* By share: percent, points, Newcombe's interval of the difference. */
static void share_cells(const struct hwp_profile_diff_row_info *in,
			struct text_cells *c)
{
	snprintf(c->a, sizeof(c->a), "%.2f", in->a_share);
	snprintf(c->b, sizeof(c->b), "%.2f", in->b_share);
	snprintf(c->diff, sizeof(c->diff), "%+.2f", in->diff);
	snprintf(c->ci, sizeof(c->ci), "[%+.2f, %+.2f]", in->ci_low, in->ci_high);
}

/* Absolute: events (or per second), the interval of the ratio. */
static void value_cells(const struct hwp_profile_diff_row_info *in, bool big,
			struct text_cells *c)
{
	char lo[32], hi[32];

	fmt_grouped(in->a_value, big, c->a, sizeof(c->a));
	fmt_grouped(in->b_value, big, c->b, sizeof(c->b));
	fmt_grouped(fabs(in->b_value - in->a_value), big, c->diff + 1,
		    sizeof(c->diff) - 1);
	c->diff[0] = in->b_value < in->a_value ? '-' : '+';
	fmt_num(in->ratio_low, big, false, lo, sizeof(lo));
	fmt_num(in->ratio_high, big, false, hi, sizeof(hi));
	snprintf(c->ci, sizeof(c->ci), "[%s, %s]", lo,
		 isinf(in->ratio_high) ? "inf" : hi);
}

/* The columns: by share, B - A and its interval, then the ratio; absolute,
 * the ratio and its interval. */
static void text_head(const struct hwp_profile_diff *d, struct table *t)
{
	const char *share[] = { row_title(d->info.sort), "A %", "B %", "B - A",
				"95% CI of B - A", "ratio B/A", "p", "verdict",
				"module" };
	const char *value[] = { row_title(d->info.sort), "A", "B", "B - A",
				"ratio B/A", "95% CI of B/A", "p", "verdict", "module" };

	if (d->info.per_second) {
		value[1] = "A/s";
		value[2] = "B/s";
	}
	table_add(t, d->info.absolute ? value : share);
}

static void text_rows(const struct hwp_profile_diff *d, size_t n, bool big,
		      struct table *t)
{
	bool dso_col = d->info.sort != HWP_SORT_DSO, abs = d->info.absolute;
	struct strbuf name = STRBUF_INIT, dso = STRBUF_INIT;

	text_head(d, t);
	for (size_t i = 0; i < n; i++) {
		const struct hwp_profile_diff_row_info *in = &d->rows[i].info;
		struct text_cells c;
		const char *cells[] = { NULL, c.a, c.b, c.diff, abs ? c.ratio : c.ci,
					abs ? c.ci : c.ratio, c.p,
					verdict_text(&d->info, in->verdict), NULL };

		name_cells(in, dso_col, &name, &dso, cells, 8);
		if (abs)
			value_cells(in, big, &c);
		else
			share_cells(in, &c);
		if (isnan(in->ratio))
			snprintf(c.ratio, sizeof(c.ratio), "new");
		else
			snprintf(c.ratio, sizeof(c.ratio), "%.3f", in->ratio);
		fmt_p(in->p_value, c.p, sizeof(c.p));
		table_add(t, cells);
	}
	strbuf_release(&name);
	strbuf_release(&dso);
}

static void text_footer(const struct hwp_profile_diff *d, size_t n, FILE *f)
{
	const char *what = d->info.absolute ? "B / A" : "B - A";

	if (d->info.corrected)
		fprintf(f, "\n %s and its 95%% interval, before the correction%s;\n"
			   " p after it: a row may be unchanged beside an interval that leaves out %s.\n",
			what, d->info.absolute ? "" : ", in points of the share",
			d->info.absolute ? "1" : "0");
	else
		fprintf(f, "\n %s and its 95%% interval%s.\n", what,
			d->info.absolute ? "" : " in points of the share");
	if (!d->info.absolute)
		fprintf(f, " A share up or down is of the samples, not a cost (--mode count).\n");
	if (n < d->nr_rows)
		fprintf(f, " %zu more rows, smaller changes%s (--top 0 shows all)\n",
			d->nr_rows - n, d->info.nr_increase + d->info.nr_decrease > n ?
			", some of them significant" : " and none significant");
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_profile_diff *d = obj;
	const struct hwp_write_opts *o = opts;
	size_t n = rows_shown(d, o);
	struct table t = { .nr_cols = d->info.sort == HWP_SORT_DSO ? 8 : 9 };

	text_rows(d, n, !o->no_big_num, &t);
	if (t.failed) {
		table_release(&t);
		return fail(-ENOMEM, "out of memory");
	}
	text_header(d, !o->no_big_num, f);
	table_print(&t, f);
	table_release(&t);
	text_footer(d, n, f);
	return 0;
}

/* ---- CSV ---- */

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	static const char *const heads[] = { "name", "dso", "a_samples", "b_samples",
					     "a_share", "b_share", "diff", "ci_low",
					     "ci_high", "ratio", "p_value", "p_raw",
					     "verdict", "file", "a_value", "b_value",
					     "ratio_low", "ratio_high" };
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
		fprintf(f, "%s%.4g%s%.4g%s%s%s", sep, in->p_value, sep, in->p_raw, sep,
			hwp_enum_name(HWP_ENUM_VERDICT, in->verdict), sep);
		if (in->file)
			csv_field(f, in->file, sep);
		fprintf(f, "%s%.10g%s%.10g%s", sep, in->a_value, sep, in->b_value, sep);
		if (!isnan(in->ratio_low))
			fprintf(f, "%.4f%s%.4f", in->ratio_low, sep, in->ratio_high);
		else
			fputs(sep, f);
		fputc('\n', f);
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
		      uint64_t samples, double seconds, double period,
		      const char *program)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_key(w, "source");
	jw_string(w, input);
	jw_key(w, "samples");
	jw_uint(w, samples);
	json_num(w, "seconds", seconds);
	json_num(w, "period", period);
	jw_kv_string(w, "program", program);
	jw_object_end(w);
}

static void json_maps(struct json_writer *w, const struct hwp_profile_diff *d)
{
	jw_key(w, "module_map");
	jw_array_begin(w, false);
	for (size_t i = 0; i < d->nr_maps; i++) {
		jw_object_begin(w);
		jw_kv_string(w, "a", d->maps[i].a);
		jw_kv_string(w, "b", d->maps[i].b);
		jw_key(w, "auto");
		jw_bool(w, d->info.auto_matched);
		jw_object_end(w);
	}
	jw_array_end(w);
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
	jw_string(w, hwp_enum_name(HWP_ENUM_VERDICT, in->verdict));
	jw_kv_string(w, "file", in->file);
	json_num(w, "a_value", in->a_value);
	json_num(w, "b_value", in->b_value);
	json_num(w, "ratio_low", in->ratio_low);
	json_num(w, "ratio_high", in->ratio_high);
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
	json_side(&w, "a", in->a_input, in->a_samples, in->a_seconds, in->a_period,
		  in->a_program);
	json_side(&w, "b", in->b_input, in->b_samples, in->b_seconds, in->b_period,
		  in->b_program);
	jw_key(&w, "event");
	jw_string(&w, in->event);
	jw_key(&w, "sort");
	jw_string(&w, hwp_enum_name(HWP_ENUM_SORT, in->sort));
	jw_key(&w, "mode");
	jw_string(&w, mode_name(in));
	jw_key(&w, "test");
	jw_string(&w, in->absolute ? "poisson-exact" : "fisher-exact");
	jw_key(&w, "interval");
	jw_string(&w, in->absolute ? "clopper-pearson" : "newcombe");
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
	jw_key(&w, "matched");
	jw_int(&w, (long long)in->nr_matched);
	json_maps(&w, d);
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
