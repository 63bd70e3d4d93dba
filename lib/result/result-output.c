// SPDX-License-Identifier: MIT
/* Writing results: perf stat's text layout, its -x CSV, and JSON. */
#include "core/core.h"
#include "event/event.h"
#include "result/result.h"
#include "util/format.h"
#include "util/json-writer.h"
#include "util/table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ---- */

/* The unit's columns before a row, as perf stat prints them: "CPU3 ",
 * "S0-D0-C1    2 " (with its number of CPUs), "comm-tid "... */
static bool unit_has_cpus(const struct hwp_result *r)
{
	return r->aggr != HWP_AGGR_CPU && r->aggr != HWP_AGGR_THREAD;
}

static void unit_prefix(const struct hwp_result *r, const struct result_unit *u,
			struct strbuf *sb)
{
	if (!u)
		return;
	if (!unit_has_cpus(r))
		strbuf_addf(sb, "%-*s ", r->aggr == HWP_AGGR_CPU ? 8 : 20, u->u.name);
	else
		strbuf_addf(sb, "%-12s %4zu ", u->u.name, u->u.nr_cpus);
}

/* ...and in perf's -x fields: the unit, then its number of CPUs. */
static void unit_prefix_csv(const struct hwp_result *r, const struct result_unit *u,
			    FILE *f, const char *sep)
{
	if (!u)
		return;
	csv_field(f, u->u.name, sep);
	fputs(sep, f);
	if (unit_has_cpus(r))
		fprintf(f, "%zu%s", u->u.nr_cpus, sep);
}

/* The rows of @r, or of its unit @u. */
static const struct series *rows_of(const struct hwp_result *r,
				    const struct result_unit *u, size_t *nr)
{
	*nr = u ? u->nr_series : r->nr_series;
	return u ? u->series : r->series;
}

/* After an event, as perf stat: "# 1.510 K/sec", its built-in metric. */
static void text_beside(const struct hwp_result *r, const struct result_unit *u,
			size_t idx, struct strbuf *line)
{
	size_t nr;
	const struct series *rows = rows_of(r, u, &nr);
	long m = beside_metric(rows, nr, idx);
	char value[64], unit[64];
	struct row row;

	if (m < 0)
		return;
	row_init_in(rows, nr, (size_t)m, r->nr_runs, r->seconds, &row);
	if (row_placeholder(&row))
		return;
	beside_format(&row, value, sizeof(value), unit, sizeof(unit));
	strbuf_addf(line, " # %8s %-16s", value, unit);
}

/* A metric over runs: the distribution of its per-run values, beside its
 * value (the formula on the mean counts). */
static void text_metric_runs(const struct row *row, bool big, struct strbuf *line)
{
	char mean[64], lo[64], hi[64];

	fmt_metric(row->sum.mean, big, mean, sizeof(mean));
	strbuf_addf(line, " (runs: mean %s", mean);
	if (!isnan(row->sum.cv))
		strbuf_addf(line, ", CV %.2f%%", 100.0 * row->sum.cv);
	if (!isnan(row->sum.ci_low) && !isnan(row->sum.ci_high)) {
		fmt_metric(row->sum.ci_low, big, lo, sizeof(lo));
		fmt_metric(row->sum.ci_high, big, hi, sizeof(hi));
		strbuf_addf(line, ", 95%% CI %s to %s", lo, hi);
	}
	strbuf_addch(line, ')');
}

static void text_row(const struct hwp_result *r, const struct row *row, size_t idx,
		     const struct result_unit *unit, const struct hwp_write_opts *o,
		     FILE *f)
{
	const struct series *sr = row->sr;
	struct strbuf line = STRBUF_INIT;
	char value[64];
	const char *unit_name = row_placeholder(row) ? "" : row_unit(row);
	size_t nr_outliers;
	bool *outliers;

	row_format(row, !o->no_big_num, value, sizeof(value));
	if (o->interval > 0)
		strbuf_addf(&line, "%16.9f ", o->interval);
	unit_prefix(r, unit, &line);
	strbuf_addf(&line, "%18s %-5s %-28s", value, unit_name, sr->name);
	text_beside(r, unit, idx, &line);
	if (row->sum.n && !isnan(row->pct) && row->pct < 99.995)
		strbuf_addf(&line, " (%.2f%% counted, scaled)", row->pct);
	if (sr->kind == HWP_SERIES_METRIC && r->nr_runs > 1 && row->sum.n > 1 &&
	    !row_placeholder(row))
		text_metric_runs(row, !o->no_big_num, &line);
	else if (r->nr_runs > 1 && row->sum.n > 1 && !isnan(row->sum.rel_stderr))
		strbuf_addf(&line, " ( +- %5.2f%% )", 100.0 * row->sum.rel_stderr);
	if (r->nr_runs > 1 && row->sum.n && row->sum.n < r->nr_runs)
		strbuf_addf(&line, " (counted in %zu of %zu runs)", row->sum.n,
			    r->nr_runs);
	outliers = series_outliers(sr, r->nr_runs, &nr_outliers);
	if (outliers) {
		strbuf_adds(&line,
			    nr_outliers > 1 ? " (outliers: runs" : " (outlier: run");
		for (size_t i = 0, k = 0; i < r->nr_runs; i++)
			if (outliers[i])
				strbuf_addf(&line, "%s %zu", k++ ? "," : "", i + 1);
		strbuf_addch(&line, ')');
		free(outliers);
	}
	if (sr->reason && (!sr->supported || sr->user_only || !row->sum.n))
		strbuf_addf(&line, "  # %s", sr->reason);
	else if (sr->note)
		strbuf_addf(&line, "  # %s", sr->note);
	while (line.len && line.buf[line.len - 1] == ' ')
		line.buf[--line.len] = '\0';
	fprintf(f, "%s\n", strbuf_str(&line));
	strbuf_release(&line);
}

/* perf's "seconds user" and "seconds sys", from the time rows: whether
 * there were any. */
static bool text_cpu_times(const struct hwp_result *r, FILE *f)
{
	bool any = false;
	struct row row;

	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];

		if (sr->kind != HWP_SERIES_TIME || !strcmp(sr->name, "elapsed"))
			continue;
		row_init(sr, r->nr_runs, &row);
		if (!row.sum.n)
			continue;
		fprintf(f, " %17.9f", row.sum.mean);
		if (row.sum.n > 1 && !isnan(row.sum.rel_stderr))
			fprintf(f, " +- %.9f", row.sum.stddev / sqrt((double)row.sum.n));
		fprintf(f, " seconds %s", strcmp(sr->name, "system") ? sr->name : "sys");
		if (row.sum.n > 1 && !isnan(row.sum.rel_stderr))
			fprintf(f, "  ( +- %5.2f%% )", 100.0 * row.sum.rel_stderr);
		fputc('\n', f);
		any = true;
	}
	return any;
}

/* ---- one line a run (--per-run) ---- */

/* Whether a row has a value in some run: the others are left out of the
 * text table, and named under it. */
static bool has_values(const struct series *sr, size_t nr_runs)
{
	for (size_t i = 0; i < nr_runs; i++)
		if (!isnan(sr->values[i]))
			return true;
	return false;
}

/* A row's column in the per-run table: events, metrics and scores. Not the
 * time rows: elapsed is the table's seconds column, and user and system
 * are in the report's rows and the JSON's times. */
static bool per_run_column(const struct series *sr)
{
	return sr->kind != HWP_SERIES_TIME;
}

/* The heading of a row's column: its name, and "(msec)" for clocks. */
static void per_run_heading(const struct series *sr, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s", sr->name, series_is_clock(sr) ? " (msec)" : "");
}

/* A run's value as the report shows its row's mean. */
static void per_run_value(const struct series *sr, double v, bool big, char *buf,
			  size_t size)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (series_is_clock(sr))
		snprintf(buf, size, "%.2f", v / 1e6);
	else if (sr->kind == HWP_SERIES_EVENT)
		fmt_grouped(v, big, buf, size);
	else if (sr->kind == HWP_SERIES_METRIC)
		fmt_metric(v, big, buf, size);
	else
		snprintf(buf, size, "%.10g", v);
}

/* The heading row of the per-run table into @t, its cells in @cells and
 * @buf; each shown row's outliers in @outliers; the rows without a value
 * in any run named in @left_out. */
static void per_run_headings(const struct hwp_result *r, struct table *t,
			     const char **cells, char (*buf)[80], bool **outliers,
			     struct strbuf *left_out)
{
	for (size_t i = 0; i < r->nr_series; i++)
		t->nr_cols += per_run_column(&r->series[i]) &&
			      has_values(&r->series[i], r->nr_runs);
	cells[0] = "run";
	cells[1] = "seconds";
	for (size_t i = 0, col = 2; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];
		size_t nr;

		if (!per_run_column(sr))
			continue;
		if (!has_values(sr, r->nr_runs)) {
			strbuf_addf(left_out, "%s%s", left_out->len ? ", " : "",
				    sr->name);
			continue;
		}
		per_run_heading(sr, buf[col], sizeof(buf[0]));
		cells[col] = buf[col];
		col++;
		outliers[i] = series_outliers(sr, r->nr_runs, &nr);
	}
	table_add(t, cells);
}

/* Run @run's row of the per-run table into @t: whether a value of it is
 * starred as an outlier of its column. */
static bool per_run_row(const struct hwp_result *r, const struct hwp_write_opts *o,
			size_t run, const char **cells, char (*buf)[80],
			bool *const *outliers, struct table *t)
{
	bool starred = false;
	size_t col = 2;

	snprintf(buf[0], sizeof(buf[0]), "%zu", run + 1);
	snprintf(buf[1], sizeof(buf[0]), "%.6f", r->seconds[run]);
	cells[0] = buf[0];
	cells[1] = buf[1];
	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];
		size_t len;

		if (!per_run_column(sr) || !has_values(sr, r->nr_runs))
			continue;
		per_run_value(sr, sr->values[run], !o->no_big_num, buf[col],
			      sizeof(buf[0]) - 1);
		len = strlen(buf[col]);
		if (outliers[i] && outliers[i][run]) {
			buf[col][len] = '*';
			buf[col][len + 1] = '\0';
			starred = true;
		}
		cells[col] = buf[col];
		col++;
	}
	table_add(t, cells);
	return starred;
}

static int per_run_text(const struct hwp_result *r, const struct hwp_write_opts *o,
			FILE *f)
{
	struct table t = { .nr_cols = 2 };
	struct strbuf left_out = STRBUF_INIT;
	const char **cells = calloc(r->nr_series + 3, sizeof(*cells));
	char (*buf)[80] = calloc(r->nr_series + 3, sizeof(*buf));
	bool **outliers = calloc(r->nr_series + 1, sizeof(*outliers));
	bool starred = false;
	int err = 0;

	if (!cells || !buf || !outliers) {
		err = -ENOMEM;
		goto out;
	}
	per_run_headings(r, &t, cells, buf, outliers, &left_out);
	for (size_t run = 0; run < r->nr_runs; run++)
		starred |= per_run_row(r, o, run, cells, buf, outliers, &t);
	if (t.failed || strbuf_failed(&left_out)) {
		err = -ENOMEM;
		goto out;
	}
	fprintf(f, " Per run (%zu runs):\n\n", r->nr_runs);
	table_print(&t, f);
	if (starred)
		fprintf(f,
			"\n * an outlier of its column (modified z-score above 3.5)\n");
	if (left_out.len)
		fprintf(f, "\n Without a value in any run, not shown: %s\n",
			strbuf_str(&left_out));
	fputc('\n', f);
out:
	for (size_t i = 0; outliers && i < r->nr_series; i++)
		free(outliers[i]);
	free(outliers);
	free(cells);
	free(buf);
	table_release(&t);
	strbuf_release(&left_out);
	return err ? fail(err, "out of memory") : 0;
}

/* A header, then a line a run: every row, counted or not (an empty field
 * where a run has no value), so that the columns do not change. */
static int per_run_csv(const struct hwp_result *r, const char *sep, FILE *f)
{
	char head[300];

	fprintf(f, "run%sseconds", sep);
	for (size_t i = 0; i < r->nr_series; i++) {
		if (!per_run_column(&r->series[i]))
			continue;
		per_run_heading(&r->series[i], head, sizeof(head));
		fputs(sep, f);
		csv_field(f, head, sep);
	}
	fputc('\n', f);
	for (size_t run = 0; run < r->nr_runs; run++) {
		fprintf(f, "%zu%s%.9f", run + 1, sep, r->seconds[run]);
		for (size_t i = 0; i < r->nr_series; i++) {
			const struct series *sr = &r->series[i];
			double v = sr->values[run];

			if (!per_run_column(sr))
				continue;
			fputs(sep, f);
			if (!isnan(v))
				fprintf(f, "%.10g", series_is_clock(sr) ? v / 1e6 : v);
		}
		fputc('\n', f);
	}
	return 0;
}

/* "per_run": {"columns": [...], "runs": [[run, seconds, values...]...]},
 * values as the rest of the JSON has them (clocks in ns). */
static void per_run_json(const struct hwp_result *r, struct json_writer *w)
{
	jw_key(w, "per_run");
	jw_object_begin(w);
	jw_key(w, "columns");
	jw_array_begin(w, false);
	for (size_t i = 0; i < r->nr_series; i++) {
		if (!per_run_column(&r->series[i]))
			continue;
		jw_object_begin(w);
		jw_key(w, "name");
		jw_string(w, r->series[i].name);
		jw_key(w, "kind");
		jw_string(w, kind_name(r->series[i].kind));
		jw_key(w, "unit");
		jw_string(w, r->series[i].unit);
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_key(w, "runs");
	jw_array_begin(w, false);
	for (size_t run = 0; run < r->nr_runs; run++) {
		jw_array_begin(w, true);
		jw_int(w, (long long)run + 1);
		jw_number(w, r->seconds[run]);
		for (size_t i = 0; i < r->nr_series; i++)
			if (per_run_column(&r->series[i]))
				jw_number(w, r->series[i].values[run]);
		jw_array_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

/* Each row after its kind's heading; with units, as perf stat -A: each
 * row, unit by unit. */
static void text_rows(const struct hwp_result *r, const struct hwp_write_opts *o,
		      FILE *f)
{
	enum hwp_series_kind kind = HWP_SERIES_EVENT;
	struct row row;

	for (size_t i = 0; i < r->nr_series; i++) {
		/* Times come after the elapsed time, as perf has them; perf's
		 * own metrics are on their event's line. */
		if (r->series[i].kind == HWP_SERIES_TIME ||
		    metric_is_beside(r->series, r->nr_series, i))
			continue;
		row_init_in(r->series, r->nr_series, i, r->nr_runs, r->seconds, &row);
		if (row.sr->kind != kind && o->interval <= 0 &&
		    kind_heading(row.sr->kind))
			fprintf(f, "\n %s:\n", kind_heading(row.sr->kind));
		kind = row.sr->kind;
		if (!r->nr_units)
			text_row(r, &row, i, NULL, o, f);
		for (size_t u = 0; u < r->nr_units; u++) {
			const struct result_unit *ru = &r->units[u];

			if (i >= ru->nr_series)
				continue;
			row_init_in(ru->series, ru->nr_series, i, r->nr_runs, r->seconds,
				    &row);
			text_row(r, &row, i, ru, o, f);
		}
	}
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	struct strbuf cmd = STRBUF_INIT;
	struct hwp_stats_summary secs = { .sz = sizeof(secs) };

	if (o->interval > 0 && !o->no_header) {
		struct strbuf hdr = STRBUF_INIT;
		struct result_unit head = {
			.u.name = (char *)(r->aggr == HWP_AGGR_CPU ? "CPU" :
					   hwp_enum_name(HWP_ENUM_AGGR, r->aggr)),
		};

		unit_prefix(r, r->nr_units ? &head : NULL, &hdr);
		if (r->nr_units && unit_has_cpus(r)) {
			strbuf_reset(&hdr);
			strbuf_addf(&hdr, "%-12s %4s ", head.u.name, "cpus");
		}
		fprintf(f, "#%15s %s%18s %-5s %s\n", "time", strbuf_str(&hdr), "counts",
			"unit", "events");
		strbuf_release(&hdr);
	}
	if (o->interval <= 0) {
		command_line(r->argv, &cmd);
		if (r->target)
			fprintf(f, "\n Performance counter stats for %s", r->target);
		else
			fprintf(f, "\n Performance counter stats for '%s'",
				strbuf_str(&cmd));
		if (r->nr_runs > 1)
			fprintf(f, " (%zu runs)", r->nr_runs);
		fprintf(f, ":\n\n");
		strbuf_release(&cmd);
	}
	text_rows(r, o, f);
	if (o->interval > 0)
		return 0;
	hwp_stats_summarize(r->seconds, r->nr_runs, &secs);
	if (r->nr_runs > 1 && secs.n > 1)
		fprintf(f, "\n %17.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n\n",
			secs.mean, secs.stddev / sqrt((double)secs.n),
			100.0 * secs.rel_stderr);
	else
		fprintf(f, "\n %17.9f seconds time elapsed\n\n",
			secs.n ? secs.mean : 0.0);
	if (text_cpu_times(r, f))
		fputc('\n', f);
	if (o->per_run && r->nr_runs) {
		int err = per_run_text(r, o, f);

		if (err)
			return err;
	}
	if (r->nr_regionsets)
		regionset_runs_text(r->regionsets, r->nr_regionsets, f, !o->no_big_num);
	return 0;
}

/* ---- CSV (perf stat -x) ---- */

/* An event's (or a score's) value, as perf stat -x writes it. */
static void csv_value(const struct row *row, char *value, size_t size)
{
	if (row_placeholder(row))
		snprintf(value, size, "%s", row_placeholder(row));
	else if (row->clock)
		snprintf(value, size, "%.2f", row->value / 1e6);
	else if (row->measure)
		snprintf(value, size, "%.2f", row->value);
	else if (row->sr->kind == HWP_SERIES_SCORE)
		snprintf(value, size, "%.10g", row->value);
	else
		snprintf(value, size, "%.0f", row->value);
}

/* A row of -x, in perf stat's fields: value, unit, event, [variance,] run
 * time, percent running, metric value, metric unit. perf's own metrics are
 * on their event's line; the others on lines of their own, with the event
 * fields empty, as perf writes a second metric of an event. */
static void csv_row(const struct hwp_result *r, const struct result_unit *ru, size_t i,
		    const char *sep, FILE *f)
{
	size_t nr;
	const struct series *rows = rows_of(r, ru, &nr);
	bool event = rows[i].kind != HWP_SERIES_METRIC;
	char value[64] = "", unit[64] = "";
	struct row row, m;
	long beside;

	row_init_in(rows, nr, i, r->nr_runs, r->seconds, &row);
	if (event) {
		csv_value(&row, value, sizeof(value));
		csv_field(f, value, sep);
		fprintf(f, "%s%s%s", sep, row_unit(&row), sep);
		csv_field(f, row.sr->name, sep);
	} else {
		fprintf(f, "%s%s", sep, sep);
	}
	fputs(sep, f);
	if (r->nr_runs > 1) {
		/* perf's rel_stddev_stats(): 0 for a mean of 0 */
		if (event && row.sum.n > 1 && !isnan(row.sum.rel_stderr))
			fprintf(f, "%.2f%%", 100.0 * row.sum.rel_stderr);
		else if (event && row.sum.n > 1 && row.sum.mean == 0)
			fputs("0.00%", f);
		fputs(sep, f);
	}
	if (row.sr->kind == HWP_SERIES_EVENT && row.sum.n)
		fprintf(f, "%.0f%s%.2f", row.running, sep, row.pct);
	else
		fputs(sep, f);
	fputs(sep, f);
	beside = event ? beside_metric(rows, nr, i) : -1;
	if (beside >= 0) {
		row_init_in(rows, nr, (size_t)beside, r->nr_runs, r->seconds, &m);
		if (!row_placeholder(&m))
			beside_format(&m, value, sizeof(value), unit, sizeof(unit));
		fprintf(f, "%s%s%s", row_placeholder(&m) ? "" : value, sep, unit);
	} else if (!event) {
		if (!row_placeholder(&row))
			fprintf(f, "%.6g", row.value);
		fputs(sep, f);
		csv_field(f, row.sr->name, sep);
	} else {
		fputs(sep, f);
	}
	fputc('\n', f);
}

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	const char *sep = o->separator && *o->separator ? o->separator : ",";

	if (o->per_run && o->interval <= 0)
		return per_run_csv(r, sep, f);
	for (size_t k = 0; k < r->nr_series * (r->nr_units ? r->nr_units : 1); k++) {
		const struct result_unit *ru = r->nr_units ?
			&r->units[k % r->nr_units] : NULL;
		size_t i = r->nr_units ? k / r->nr_units : k;

		if (ru && i >= ru->nr_series)
			continue;
		/* perf stat -x has no user and sys lines; the JSON has them. */
		if (r->series[i].kind == HWP_SERIES_TIME ||
		    metric_is_beside(r->series, r->nr_series, i))
			continue;
		if (o->interval > 0)
			fprintf(f, "%.9f%s", o->interval, sep);
		/* perf's unit fields: the unit, and how many CPUs it has */
		unit_prefix_csv(r, ru, f, sep);
		csv_row(r, ru, i, sep, f);
	}
	return 0;
}

/* ---- JSON ---- */

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	struct json_writer w;

	if (o->interval > 0) {
		jw_init(&w, f, false);
		jw_object_begin(&w);
		jw_key(&w, "interval");
		jw_number(&w, o->interval);
		rows_json(&w, r->series, r->nr_series, r->nr_runs, r->seconds, false);
		units_json(&w, r, false);
		jw_object_end(&w);
		jw_finish(&w);
		return 0;
	}
	jw_init(&w, f, true);
	result_json_more(r, o->per_run ? per_run_json : NULL, &w);
	jw_finish(&w);
	return 0;
}

void json_command(struct json_writer *w, char *const *argv)
{
	jw_key(w, "command");
	jw_array_begin(w, true);
	for (size_t i = 0; argv && argv[i]; i++)
		jw_string(w, argv[i]);
	jw_array_end(w);
}

void result_json(const struct hwp_result *r, struct json_writer *w)
{
	result_json_more(r, NULL, w);
}

void result_json_more(const struct hwp_result *r,
		      void (*more)(const struct hwp_result *, struct json_writer *),
		      struct json_writer *w)
{
	struct hwp_stats_summary secs = { .sz = sizeof(secs) };

	jw_object_begin(w);
	jw_key(w, "schema");
	jw_string(w, "hwprof-stat/1");
	json_command(w, r->argv);
	jw_key(w, "target");
	jw_string(w, r->target);
	jw_key(w, "event_spec");
	jw_string(w, r->spec);
	jw_key(w, "runs");
	jw_int(w, (long long)r->nr_runs);
	jw_key(w, "exit_status");
	if (r->exit_code >= 0)
		jw_int(w, r->exit_code);
	else
		jw_null(w);
	hwp_stats_summarize(r->seconds, r->nr_runs, &secs);
	jw_key(w, "seconds");
	jw_object_begin(w);
	summary_json(w, &secs);
	jw_key(w, "values");
	values_json(w, r->seconds, r->nr_runs);
	jw_object_end(w);
	rows_json(w, r->series, r->nr_series, r->nr_runs, r->seconds, true);
	units_json(w, r, true);
	if (r->nr_regionsets) {
		jw_key(w, "regions");
		jw_array_begin(w, false);
		for (size_t i = 0; i < r->nr_regionsets; i++)
			regionset_json(r->regionsets[i], w);
		jw_array_end(w);
	}
	run_order_json(w, r);
	json_environment(w, &r->env);
	if (more)
		more(r, w);
	jw_object_end(w);
}

static const struct writer result_writer = {
	.fn = "hwp_result_write",
	.what = "the result",
	.subject = "a result is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_CSV] = write_csv,
		[HWP_FORMAT_JSON] = write_json,
		[HWP_FORMAT_OPENMETRICS] = result_openmetrics,
		[HWP_FORMAT_PROMETHEUS] = result_openmetrics,
	},
};

HWP_API int hwp_result_write(const struct hwp_result *r, FILE *f,
			     const struct hwp_write_opts *opts)
{
	return write_dispatch(&result_writer, r, f, opts);
}
