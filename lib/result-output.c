// SPDX-License-Identifier: MIT
/* Writing results: perf stat's text layout, its -x CSV, and JSON. */
#include "hwprof-internal.h"
#include "result.h"
#include "util/format.h"
#include "util/json-writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double mean_defined(const double *v, size_t n)
{
	double s = 0;
	size_t k = 0;

	for (size_t i = 0; v && i < n; i++)
		if (!isnan(v[i])) {
			s += v[i];
			k++;
		}
	return k ? s / (double)k : NAN;
}

void hwp_row_init(const struct hwp_result *r, size_t idx, struct hwp_row *row)
{
	const struct series *sr = &r->series[idx];

	memset(row, 0, sizeof(*row));
	row->sr = sr;
	row->sum.sz = sizeof(row->sum);
	hwp_summarize(sr->values, r->nr_runs, &row->sum);
	row->pct = sr->kind == HWP_SERIES_EVENT ? mean_defined(sr->pct, r->nr_runs) : NAN;
	row->running = sr->kind == HWP_SERIES_EVENT ? mean_defined(sr->running, r->nr_runs) : NAN;
	row->clock = sr->kind == HWP_SERIES_EVENT && !strcmp(sr->unit, "ns");
}

const char *hwp_row_placeholder(const struct hwp_row *row)
{
	if (row->sr->kind == HWP_SERIES_EVENT && !row->sr->supported)
		return "<not supported>";
	if (row->sum.n)
		return NULL;
	return row->sr->kind == HWP_SERIES_EVENT ? "<not counted>" : "<undefined>";
}

void hwp_fmt_metric(double v, bool big, char *buf, size_t size)
{
	if (fabs(v) >= 1e5)
		fmt_grouped(v, big, buf, size);
	else if (fabs(v) >= 100)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.3f", v);
}

void hwp_row_format(const struct hwp_row *row, bool big, char *buf, size_t size)
{
	const char *ph = hwp_row_placeholder(row);

	if (ph)
		snprintf(buf, size, "%s", ph);
	else if (row->clock)
		snprintf(buf, size, "%.2f", row->sum.mean / 1e6);
	else if (row->sr->kind == HWP_SERIES_EVENT)
		fmt_grouped(row->sum.mean, big, buf, size);
	else
		hwp_fmt_metric(row->sum.mean, big, buf, size);
	/* A rate in percent shows its sign, within the buffer (a huge value
	 * can fill it). */
	if (!ph && row->sr->kind == HWP_SERIES_METRIC && !strcmp(row->sr->unit, "%")) {
		size_t len = strnlen(buf, size);

		if (len + 1 < size) {
			buf[len] = '%';
			buf[len + 1] = '\0';
		}
	}
}

void hwp_command_line(char *const *argv, struct strbuf *sb)
{
	for (size_t i = 0; argv && argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
	if (!argv || !argv[0])
		strbuf_adds(sb, "(no command)");
}

/* Which runs of a row are outliers (hwp_outliers_mad()); NULL when none
 * or out of memory, which only costs the annotation. */
static bool *outlier_runs(const struct hwp_result *r, const struct series *sr, size_t *nr)
{
	bool *flags = r->nr_runs >= 3 ? calloc(r->nr_runs, sizeof(*flags)) : NULL;

	*nr = 0;
	if (flags && (hwp_outliers_mad(sr->values, r->nr_runs, 0, flags, nr) || !*nr)) {
		free(flags);
		flags = NULL;
		*nr = 0;
	}
	return flags;
}

/* ---- text ---- */

static void text_row(const struct hwp_result *r, const struct hwp_row *row,
		     const struct hwp_write_opts *o, FILE *f)
{
	const struct series *sr = row->sr;
	struct strbuf line = STRBUF_INIT;
	char value[64];
	const char *unit = row->clock && !hwp_row_placeholder(row) ? "msec" : "";
	size_t nr_outliers;
	bool *outliers;

	hwp_row_format(row, !o->no_big_num, value, sizeof(value));
	if (o->interval > 0)
		strbuf_addf(&line, "%16.9f ", o->interval);
	strbuf_addf(&line, "%18s %-5s %-28s", value, unit, sr->name);
	if (row->sum.n && !isnan(row->pct) && row->pct < 99.995)
		strbuf_addf(&line, " (%.2f%% counted, scaled)", row->pct);
	if (r->nr_runs > 1 && row->sum.n > 1 && !isnan(row->sum.rel_stderr))
		strbuf_addf(&line, " ( +- %5.2f%% )", 100.0 * row->sum.rel_stderr);
	if (r->nr_runs > 1 && row->sum.n && row->sum.n < r->nr_runs)
		strbuf_addf(&line, " (counted in %zu of %zu runs)", row->sum.n, r->nr_runs);
	outliers = outlier_runs(r, sr, &nr_outliers);
	if (outliers) {
		strbuf_adds(&line, nr_outliers > 1 ? " (outliers: runs" : " (outlier: run");
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

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	struct strbuf cmd = STRBUF_INIT;
	struct hwp_summary secs = { .sz = sizeof(secs) };
	bool metrics_header = false;
	struct hwp_row row;

	if (o->interval > 0 && !o->no_header)
		fprintf(f, "#%15s %18s %-5s %s\n", "time", "counts", "unit", "events");
	if (o->interval <= 0) {
		hwp_command_line(r->argv, &cmd);
		if (r->target)
			fprintf(f, "\n Performance counter stats for %s", r->target);
		else
			fprintf(f, "\n Performance counter stats for '%s'", strbuf_str(&cmd));
		if (r->nr_runs > 1)
			fprintf(f, " (%zu runs)", r->nr_runs);
		fprintf(f, ":\n\n");
		strbuf_release(&cmd);
	}
	for (size_t i = 0; i < r->nr_series; i++) {
		hwp_row_init(r, i, &row);
		if (row.sr->kind == HWP_SERIES_METRIC && !metrics_header && o->interval <= 0) {
			fprintf(f, "\n Metrics:\n");
			metrics_header = true;
		}
		text_row(r, &row, o, f);
	}
	if (o->interval > 0)
		return 0;
	hwp_summarize(r->seconds, r->nr_runs, &secs);
	if (r->nr_runs > 1 && secs.n > 1)
		fprintf(f, "\n %17.9f +- %.9f seconds time elapsed  ( +- %5.2f%% )\n\n", secs.mean,
			secs.stddev / sqrt((double)secs.n), 100.0 * secs.rel_stderr);
	else
		fprintf(f, "\n %17.9f seconds time elapsed\n\n", secs.n ? secs.mean : 0.0);
	hwp_result_regions_text(r, f, !o->no_big_num);
	return 0;
}

/* ---- CSV (perf stat -x) ---- */


static int write_csv(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	const char *sep = o->separator && *o->separator ? o->separator : ",";
	bool repeated = r->nr_runs > 1;
	struct hwp_row row;

	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr;
		char value[64] = "", num[64] = "";
		bool event;

		hwp_row_init(r, i, &row);
		sr = row.sr;
		event = sr->kind == HWP_SERIES_EVENT;
		if (o->interval > 0)
			fprintf(f, "%.9f%s", o->interval, sep);
		/* value, unit, event */
		if (event) {
			if (hwp_row_placeholder(&row))
				snprintf(value, sizeof(value), "%s", hwp_row_placeholder(&row));
			else if (row.clock)
				snprintf(value, sizeof(value), "%.2f", row.sum.mean / 1e6);
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
		if (event && row.sum.n)
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

static void json_values(struct json_writer *w, const double *v, size_t n)
{
	jw_array_begin(w, true);
	for (size_t i = 0; v && i < n; i++)
		jw_number(w, v[i]);
	jw_array_end(w);
}

static void json_summary(struct json_writer *w, const struct hwp_summary *s)
{
	jw_key(w, "mean");
	jw_number(w, s->mean);
	jw_key(w, "median");
	jw_number(w, s->median);
	jw_key(w, "stddev");
	jw_number(w, s->stddev);
	jw_key(w, "cv");
	jw_number(w, s->cv);
	jw_key(w, "min");
	jw_number(w, s->min);
	jw_key(w, "max");
	jw_number(w, s->max);
	jw_key(w, "ci95");
	jw_array_begin(w, true);
	jw_number(w, s->ci_low);
	jw_number(w, s->ci_high);
	jw_array_end(w);
}

static void json_rows(const struct hwp_result *r, struct json_writer *w,
		      enum hwp_series_kind kind, bool all_runs)
{
	struct hwp_row row;

	jw_key(w, kind == HWP_SERIES_EVENT ? "events" : "metrics");
	jw_array_begin(w, false);
	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];

		if (sr->kind != kind)
			continue;
		hwp_row_init(r, i, &row);
		jw_object_begin(w);
		if (kind == HWP_SERIES_EVENT) {
			jw_key(w, "event");
			jw_string(w, sr->name);
			jw_key(w, "canonical");
			jw_string(w, sr->canonical);
			jw_key(w, "count");
			jw_number(w, row.sum.n ? row.sum.mean : NAN);
			jw_key(w, "unit");
			jw_string(w, sr->unit);
			jw_key(w, "supported");
			jw_bool(w, sr->supported);
			jw_key(w, "counted");
			jw_bool(w, row.sum.n > 0);
			jw_key(w, "user_only");
			jw_bool(w, sr->user_only);
			jw_key(w, "percent_running");
			jw_number(w, row.sum.n ? row.pct : NAN);
		} else {
			jw_key(w, "metric");
			jw_string(w, sr->name);
			jw_key(w, "value");
			jw_number(w, row.sum.n ? row.sum.mean : NAN);
			jw_key(w, "unit");
			jw_string(w, sr->unit);
			jw_key(w, "expr");
			jw_string(w, sr->expr);
			jw_key(w, "builtin");
			jw_bool(w, sr->builtin);
		}
		jw_key(w, "reason");
		jw_string(w, !row.sum.n || !sr->supported || sr->user_only ? sr->reason : NULL);
		if (all_runs) {
			size_t nr_outliers;
			bool *outliers = outlier_runs(r, sr, &nr_outliers);

			json_summary(w, &row.sum);
			jw_key(w, "values");
			json_values(w, sr->values, r->nr_runs);
			jw_key(w, "outliers");
			jw_array_begin(w, true);
			for (size_t k = 0; outliers && k < r->nr_runs; k++)
				if (outliers[k])
					jw_int(w, (long long)k);
			jw_array_end(w);
			free(outliers);
			if (kind == HWP_SERIES_EVENT) {
				jw_key(w, "percent_running_values");
				json_values(w, sr->pct, r->nr_runs);
			}
		}
		jw_object_end(w);
	}
	jw_array_end(w);
}

void hwp_result_json_rows(const struct hwp_result *r, struct json_writer *w, bool all_runs)
{
	json_rows(r, w, HWP_SERIES_EVENT, all_runs);
	json_rows(r, w, HWP_SERIES_METRIC, all_runs);
}

/* A result read from a file keeps where it was measured; a new one is
 * measured here, now. */
void hwp_json_environment(struct json_writer *w, const struct hwp_environment *saved)
{
	struct hwp_environment here = { 0 };
	const struct hwp_environment *env = saved;

	if (!env || !env->host) {
		hwp_environment_read(&here);
		env = &here;
	}
	jw_key(w, "environment");
	jw_object_begin(w);
	jw_key(w, "host");
	jw_string(w, env->host);
	jw_key(w, "kernel");
	jw_string(w, env->kernel);
	jw_key(w, "cpu");
	jw_string(w, env->cpu);
	jw_key(w, "nr_cpus");
	jw_int(w, env->nr_cpus);
	jw_key(w, "date");
	jw_string(w, env->date);
	jw_key(w, "hwprof_version");
	jw_string(w, env->version);
	jw_object_end(w);
	hwp_environment_release(&here);
}

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
		hwp_result_json_rows(r, &w, false);
		jw_object_end(&w);
		jw_finish(&w);
		return 0;
	}
	jw_init(&w, f, true);
	hwp_result_json(r, &w);
	jw_finish(&w);
	return 0;
}

void hwp_json_command(struct json_writer *w, char *const *argv)
{
	jw_key(w, "command");
	jw_array_begin(w, true);
	for (size_t i = 0; argv && argv[i]; i++)
		jw_string(w, argv[i]);
	jw_array_end(w);
}

void hwp_result_json(const struct hwp_result *r, struct json_writer *w)
{
	struct hwp_summary secs = { .sz = sizeof(secs) };

	jw_object_begin(w);
	jw_key(w, "schema");
	jw_string(w, "hwprof-stat/1");
	hwp_json_command(w, r->argv);
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
	hwp_summarize(r->seconds, r->nr_runs, &secs);
	jw_key(w, "seconds");
	jw_object_begin(w);
	json_summary(w, &secs);
	jw_key(w, "values");
	json_values(w, r->seconds, r->nr_runs);
	jw_object_end(w);
	hwp_result_json_rows(r, w, true);
	hwp_result_regions_json(r, w);
	hwp_json_environment(w, &r->env);
	jw_object_end(w);
}

static const struct writer result_writer = {
	.fn = "hwp_result_write",
	.what = "the result",
	.subject = "a result is",
	.opts_type = "hwp_write_opts",
	.opts_sz = sizeof(struct hwp_write_opts),
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_CSV] = write_csv,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_result_write(const struct hwp_result *r, FILE *f,
			     const struct hwp_write_opts *opts)
{
	return write_dispatch(&result_writer, r, f, opts);
}
