// SPDX-License-Identifier: MIT
/* Writing results: perf stat's text layout, its -x CSV, and JSON. */
#include "core/core.h"
#include "event/event.h"
#include "result/result.h"
#include "util/format.h"
#include "util/json-writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void command_line(char *const *argv, struct strbuf *sb)
{
	for (size_t i = 0; argv && argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
	if (!argv || !argv[0])
		strbuf_adds(sb, "(no command)");
}

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

static void text_row(const struct hwp_result *r, const struct row *row,
		     const struct result_unit *unit, const struct hwp_write_opts *o,
		     FILE *f)
{
	const struct series *sr = row->sr;
	struct strbuf line = STRBUF_INIT;
	char value[64];
	const char *unit_name = row->clock && !row_placeholder(row) ? "msec" : "";
	size_t nr_outliers;
	bool *outliers;

	row_format(row, !o->no_big_num, value, sizeof(value));
	if (o->interval > 0)
		strbuf_addf(&line, "%16.9f ", o->interval);
	unit_prefix(r, unit, &line);
	strbuf_addf(&line, "%18s %-5s %-28s", value, unit_name, sr->name);
	if (row->sum.n && !isnan(row->pct) && row->pct < 99.995)
		strbuf_addf(&line, " (%.2f%% counted, scaled)", row->pct);
	if (r->nr_runs > 1 && row->sum.n > 1 && !isnan(row->sum.rel_stderr))
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

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	struct strbuf cmd = STRBUF_INIT;
	struct hwp_stats_summary secs = { .sz = sizeof(secs) };
	enum hwp_series_kind kind = HWP_SERIES_EVENT;
	struct row row;

	if (o->interval > 0 && !o->no_header) {
		struct strbuf hdr = STRBUF_INIT;
		struct result_unit head = {
			.u.name = (char *)(r->aggr == HWP_AGGR_CPU ? "CPU" :
					   hwp_aggr_name(r->aggr)),
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
	for (size_t i = 0; i < r->nr_series; i++) {
		/* Times come after the elapsed time, as perf has them. */
		if (r->series[i].kind == HWP_SERIES_TIME)
			continue;
		row_init(&r->series[i], r->nr_runs, &row);
		if (row.sr->kind != kind && o->interval <= 0 &&
		    kind_heading(row.sr->kind))
			fprintf(f, "\n %s:\n", kind_heading(row.sr->kind));
		kind = row.sr->kind;
		if (!r->nr_units)
			text_row(r, &row, NULL, o, f);
		/* As perf stat -A: each row, unit by unit. */
		for (size_t u = 0; u < r->nr_units; u++) {
			const struct result_unit *ru = &r->units[u];

			if (i >= ru->nr_series)
				continue;
			row_init(&ru->series[i], r->nr_runs, &row);
			text_row(r, &row, ru, o, f);
		}
	}
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
	if (r->nr_regionsets)
		regionset_runs_text(r, f, !o->no_big_num);
	return 0;
}

/* ---- CSV (perf stat -x) ---- */

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	const char *sep = o->separator && *o->separator ? o->separator : ",";
	bool repeated = r->nr_runs > 1;
	struct row row;

	for (size_t k = 0; k < r->nr_series * (r->nr_units ? r->nr_units : 1); k++) {
		const struct result_unit *ru = r->nr_units ?
			&r->units[k % r->nr_units] : NULL;
		size_t i = r->nr_units ? k / r->nr_units : k;
		const struct series *sr;
		char value[64] = "", num[64] = "";
		bool event;

		if (ru && i >= ru->nr_series)
			continue;
		/* perf stat -x has no user and sys lines; the JSON has them. */
		if (r->series[i].kind == HWP_SERIES_TIME)
			continue;
		row_init(ru ? &ru->series[i] : &r->series[i], r->nr_runs, &row);
		sr = row.sr;
		/* A score is a row like an event: its value first. */
		event = sr->kind != HWP_SERIES_METRIC;
		if (o->interval > 0)
			fprintf(f, "%.9f%s", o->interval, sep);
		/* perf's unit fields: the unit, and how many CPUs it has */
		unit_prefix_csv(r, ru, f, sep);
		/* value, unit, event */
		if (event) {
			if (row_placeholder(&row))
				snprintf(value, sizeof(value), "%s",
					 row_placeholder(&row));
			else if (row.clock)
				snprintf(value, sizeof(value), "%.2f",
					 row.sum.mean / 1e6);
			else if (sr->kind == HWP_SERIES_SCORE)
				snprintf(value, sizeof(value), "%.10g", row.sum.mean);
			else
				snprintf(value, sizeof(value), "%.0f", row.sum.mean);
			csv_field(f, value, sep);
			fprintf(f, "%s%s%s", sep, row.clock ? "msec" : "", sep);
			csv_field(f, sr->name, sep);
		} else {
			fprintf(f, "%s%s", sep, sep);
		}
		fputs(sep, f);
		if (repeated) {
			if (row.sum.n > 1 && !isnan(row.sum.rel_stderr))
				fprintf(f, "%.2f%%", 100.0 * row.sum.rel_stderr);
			fputs(sep, f);
		}
		/* run time, percent running */
		if (sr->kind == HWP_SERIES_EVENT && row.sum.n)
			fprintf(f, "%.0f%s%.2f", row.running, sep, row.pct);
		else
			fputs(sep, f);
		fputs(sep, f);
		/* metric value, metric unit */
		if (!event) {
			if (row.sum.n)
				snprintf(num, sizeof(num), "%.6g", row.sum.mean);
			fprintf(f, "%s%s", num, sep);
			csv_field(f, sr->name, sep);
		} else {
			fputs(sep, f);
		}
		fputc('\n', f);
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
		rows_json(&w, r->series, r->nr_series, r->nr_runs, false);
		units_json(&w, r, false);
		jw_object_end(&w);
		jw_finish(&w);
		return 0;
	}
	jw_init(&w, f, true);
	result_json(r, &w);
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
	rows_json(w, r->series, r->nr_series, r->nr_runs, true);
	units_json(w, r, true);
	if (r->nr_regionsets) {
		jw_key(w, "regions");
		jw_array_begin(w, false);
		for (size_t i = 0; i < r->nr_regionsets; i++)
			regionset_json(r->regionsets[i], w);
		jw_array_end(w);
	}
	json_environment(w, &r->env);
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
