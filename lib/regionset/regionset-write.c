// SPDX-License-Identifier: MIT
/* Writing regionsets: the hwprof-regions/1 JSON, and the one text
 * rendering of regions, which 'hwprof stat --regions' shows after the
 * whole program's counts and hwp_region_write() prints for the live
 * regions: a block per region, its calls, time and ops, each event's count
 * per call and per op, its metrics. */
#include "core/core.h"
#include "regionset/regionset.h"
#include "util/format.h"
#include "util/json-writer.h"

#include <math.h>
#include <string.h>

/* ---- JSON ---- */

static void json_counts(struct json_writer *w, uint64_t calls, uint64_t measured,
			double seconds, uint64_t ops, bool too_short, bool exceeds_time)
{
	jw_key(w, "calls");
	jw_uint(w, calls);
	jw_key(w, "measured_calls");
	jw_uint(w, measured);
	jw_key(w, "seconds");
	jw_number(w, seconds);
	jw_key(w, "ops");
	jw_uint(w, ops);
	jw_key(w, "too_short");
	jw_bool(w, too_short);
	jw_key(w, "exceeds_time");
	jw_bool(w, exceeds_time);
}

/* Each event's count divided by @divisor, by event name: null without one. */
static void json_per(struct json_writer *w, const char *key,
		     const struct regionset_region *rg, double divisor)
{
	jw_key(w, key);
	jw_object_begin(w);
	for (size_t e = 0; e < rg->nr_events; e++) {
		jw_key(w, rg->rows[e].name);
		jw_number(w, divisor > 0 ? rg->values[e] / divisor : NAN);
	}
	jw_object_end(w);
}

static void json_thread(struct json_writer *w, const struct regionset_region *rg,
			const struct regionset_thread *t)
{
	jw_object_begin(w);
	jw_key(w, "tid");
	jw_int(w, t->tid);
	json_counts(w, t->calls, t->measured_calls, t->seconds, t->ops, t->too_short,
		    t->exceeds_time);
	jw_key(w, "counts");
	jw_object_begin(w);
	for (size_t e = 0; e < rg->nr_events; e++) {
		jw_key(w, rg->rows[e].name);
		jw_number(w, t->values[e]);
	}
	jw_object_end(w);
	jw_object_end(w);
}

static void json_region(struct json_writer *w, const struct regionset_region *rg)
{
	jw_object_begin(w);
	jw_key(w, "region");
	jw_string(w, rg->name);
	jw_key(w, "threads");
	jw_int(w, (long long)rg->nr_threads);
	json_counts(w, rg->calls, rg->measured_calls, rg->seconds, rg->ops,
		    rg->too_short, rg->exceeds_time);
	rows_json(w, rg->rows, rg->nr_rows, 1, NULL, false);
	json_per(w, "per_call", rg, (double)rg->calls);
	json_per(w, "per_op", rg, (double)rg->ops);
	jw_key(w, "per_thread");
	jw_array_begin(w, false);
	for (size_t i = 0; i < rg->nr_threads; i++)
		json_thread(w, rg, &rg->threads[i]);
	jw_array_end(w);
	jw_object_end(w);
}

void regionset_json(const struct hwp_regionset *rs, struct json_writer *w)
{
	jw_object_begin(w);
	jw_key(w, "schema");
	jw_string(w, "hwprof-regions/1");
	jw_key(w, "event_spec");
	jw_string(w, rs->spec);
	jw_key(w, "sample_every");
	jw_int(w, rs->sample_every);
	jw_key(w, "read_cost_ns");
	jw_number(w, rs->read_cost_ns);
	jw_key(w, "regions");
	jw_array_begin(w, false);
	for (size_t i = 0; i < rs->nr_regions; i++)
		json_region(w, &rs->regions[i]);
	jw_array_end(w);
	json_environment(w, &rs->env);
	jw_object_end(w);
}

/* ---- text: a block per region ---- */

/* A count per call and per operation; clocks count ns and show msec. */
static void per_figures(FILE *f, double per_call, double per_op, bool clock)
{
	if (!isnan(per_call))
		fprintf(f, " %12.4g %s/call", clock ? per_call / 1e6 : per_call,
			clock ? "msec" : "");
	if (!isnan(per_op))
		fprintf(f, " %12.4g %s/op", clock ? per_op / 1e6 : per_op,
			clock ? "msec" : "");
}

static void text_event(FILE *f, const struct regionset_region *rg,
		       const struct series *sr, bool big)
{
	double count = sr->values[0], pct = sr->pct ? sr->pct[0] : NAN;
	double per_call = rg->calls ? count / (double)rg->calls : NAN;
	double per_op = rg->ops ? count / (double)rg->ops : NAN;
	bool clock = !strcmp(sr->unit, "ns");
	char value[64];

	if (!sr->supported)
		snprintf(value, sizeof(value), "<not supported>");
	else if (isnan(count))
		snprintf(value, sizeof(value), "<not counted>");
	else if (clock)
		snprintf(value, sizeof(value), "%.2f msec", count / 1e6);
	else
		fmt_grouped(count, big, value, sizeof(value));
	fprintf(f, "%23s  %-24s", value, sr->name);
	per_figures(f, per_call, per_op, clock);
	if (!isnan(count) && !isnan(pct) && pct < 99.995)
		fprintf(f, " (%.2f%% counted, scaled)", pct);
	if (sr->reason && isnan(count))
		fprintf(f, "  # %s", sr->reason);
	fputc('\n', f);
}

static void text_metrics(FILE *f, const struct regionset_region *rg, bool big)
{
	if (rg->nr_rows == rg->nr_events)
		return;
	fprintf(f, "   metrics:");
	for (size_t i = rg->nr_events; i < rg->nr_rows; i++) {
		const struct series *m = &rg->rows[i];
		char num[64];

		if (isnan(m->values[0]))
			snprintf(num, sizeof(num), "<undefined>");
		else
			fmt_metric(m->values[0], big, num, sizeof(num));
		fprintf(f, "%s %s %s", i > rg->nr_events ? "," : "", m->name, num);
	}
	fputc('\n', f);
}

static void text_region(FILE *f, const struct regionset_region *rg, bool big)
{
	fprintf(f, "\n Region '%s': %zu thread%s, %llu calls", rg->name, rg->nr_threads,
		rg->nr_threads == 1 ? "" : "s", (unsigned long long)rg->calls);
	if (rg->measured_calls != rg->calls)
		fprintf(f, " (%llu measured; the others estimated)",
			(unsigned long long)rg->measured_calls);
	fprintf(f, ", %.6f s", rg->seconds);
	if (rg->ops > 0)
		fprintf(f, ", %llu ops", (unsigned long long)rg->ops);
	fprintf(f, "\n");
	for (size_t e = 0; e < rg->nr_events; e++)
		text_event(f, rg, &rg->rows[e], big);
	text_metrics(f, rg, big);
	if (rg->too_short)
		fprintf(f, "   warning: its calls last less than 20 reads of the counters: their counts are disturbed by the measurement\n");
	if (rg->exceeds_time)
		fprintf(f, "   WARNING: these totals, estimated from %llu measured calls of %llu, are more than its threads ran: disturbed measured calls (preempted, cold) weigh for the calls they stand for; do not trust them (measure every call: HWPROF_SAMPLE_EVERY=1)\n",
			(unsigned long long)rg->measured_calls,
			(unsigned long long)rg->calls);
}

void regionset_text(const struct hwp_regionset *rs, FILE *f, bool big, size_t of_runs)
{
	fprintf(f, " Regions");
	if (of_runs > 1)
		fprintf(f, " of the last run (of %zu; --json keeps them all)", of_runs);
	fprintf(f, ", events %s, a read costs %.0f ns:\n", rs->spec ? rs->spec : "?",
		rs->read_cost_ns);
	if (!rs->nr_regions)
		fprintf(f, "\n (none: the program entered no region)\n");
	for (size_t i = 0; i < rs->nr_regions; i++)
		text_region(f, &rs->regions[i], big);
	fputc('\n', f);
}

/* ---- text: every run's regions, region by region ---- */

/* The mean over the runs of @v[k] / @per[k] (per[k] NAN or 0: skipped). */
static double mean_per(const double *v, const double *per, size_t n)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && !isnan(per[i]) && per[i] > 0) {
			sum += v[i] / per[i];
			k++;
		}
	return k ? sum / (double)k : NAN;
}

static void pm(FILE *f, const struct hwp_stats_summary *s)
{
	if (s->n > 1 && !isnan(s->rel_stderr))
		fprintf(f, " ( +- %5.2f%% )", 100.0 * s->rel_stderr);
	else
		fprintf(f, " %12s", "");
}

static void runs_event(FILE *f, const struct region_runs *rr, const struct series *sr,
		       bool big)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };
	bool clock = !strcmp(sr->unit, "ns");
	double per_call = mean_per(sr->values, rr->calls, rr->nr_runs);
	double per_op = mean_per(sr->values, rr->ops, rr->nr_runs);
	char value[64];

	hwp_stats_summarize(sr->values, rr->nr_runs, &s);
	if (!sr->supported)
		snprintf(value, sizeof(value), "<not supported>");
	else if (!s.n)
		snprintf(value, sizeof(value), "<not counted>");
	else if (clock)
		snprintf(value, sizeof(value), "%.2f msec", s.mean / 1e6);
	else
		fmt_grouped(s.mean, big, value, sizeof(value));
	fprintf(f, "%23s  %-24s", value, sr->name);
	pm(f, &s);
	per_figures(f, per_call, per_op, clock);
	fputc('\n', f);
}

/* As a result's: each metric's formula on the mean counts, and the mean of
 * the runs' own values beside it. */
static void runs_metrics(FILE *f, const struct region_runs *rr, bool big)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };

	fprintf(f, "   metrics:");
	for (size_t i = rr->nr_events; i < rr->nr_rows; i++) {
		const struct series *m = &rr->rows[i];
		char num[64];
		double v = metric_of_means(rr->rows, rr->nr_rows, m, rr->nr_runs,
					   rr->seconds);

		hwp_stats_summarize(m->values, rr->nr_runs, &s);
		if (!s.n || isnan(v))
			snprintf(num, sizeof(num), "<undefined>");
		else
			fmt_metric(v, big, num, sizeof(num));
		fprintf(f, "%s %s %s", i > rr->nr_events ? "," : "", m->name, num);
		if (s.n > 1 && !isnan(v) && !isnan(s.rel_stderr)) {
			fmt_metric(s.mean, big, num, sizeof(num));
			fprintf(f, " (runs: mean %s +- %.2f%%)", num,
				100.0 * s.rel_stderr);
		}
	}
	fputc('\n', f);
}

static void runs_region(FILE *f, const struct region_runs *rr, bool big)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };
	const struct regionset_region *last = rr->last;

	hwp_stats_summarize(rr->seconds, rr->nr_runs, &s);
	fprintf(f, "\n Region '%s': in %zu of %zu runs; %zu thread%s, %llu calls",
		rr->name, rr->nr_entered, rr->nr_runs, last->nr_threads,
		last->nr_threads == 1 ? "" : "s", (unsigned long long)last->calls);
	if (last->ops > 0)
		fprintf(f, ", %llu ops", (unsigned long long)last->ops);
	fprintf(f, " (the last run); %.6f s", s.mean);
	pm(f, &s);
	fputc('\n', f);
	for (size_t e = 0; e < rr->nr_events; e++)
		runs_event(f, rr, &rr->rows[e], big);
	if (rr->nr_exceeding)
		fprintf(f, "   WARNING: in %zu of the runs, its totals, estimated from the calls measured, are more than its threads ran (--json has each run's): do not trust them\n",
			rr->nr_exceeding);
	if (rr->nr_rows > rr->nr_events)
		runs_metrics(f, rr, big);
}

void regionset_runs_text(struct hwp_regionset *const *sets, size_t nr_sets, FILE *f,
			 bool big)
{
	const struct hwp_regionset *rs = sets[nr_sets - 1];
	struct region_runs *rr;
	size_t nr;

	if (nr_sets < 2 || region_runs_build(sets, nr_sets, &rr, &nr)) {
		/* Out of memory for the statistics: the last run's, as they are. */
		regionset_text(rs, f, big, nr_sets);
		return;
	}
	fprintf(f, " Regions over %zu runs (mean, +- its standard error), events %s, a read costs %.0f ns:\n",
		nr_sets, rs->spec ? rs->spec : "?", rs->read_cost_ns);
	if (!nr)
		fprintf(f, "\n (none: the program entered no region)\n");
	for (size_t i = 0; i < nr; i++)
		runs_region(f, &rr[i], big);
	fputc('\n', f);
	region_runs_free(rr, nr);
}

/* ---- hwp_regionset_write() ---- */

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_write_opts *o = opts;

	regionset_text(obj, f, !o->no_big_num, 1);
	return 0;
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	struct json_writer w;

	(void)opts;
	jw_init(&w, f, true);
	regionset_json(obj, &w);
	jw_finish(&w);
	return 0;
}

static const struct writer regionset_writer = {
	.fn = "hwp_regionset_write",
	.what = "the regions",
	.subject = "regions are",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_JSON] = write_json,
		[HWP_FORMAT_OPENMETRICS] = regionset_openmetrics,
		[HWP_FORMAT_PROMETHEUS] = regionset_openmetrics,
	},
};

HWP_API int hwp_regionset_write(const struct hwp_regionset *rs, FILE *f,
				const struct hwp_write_opts *opts)
{
	return write_dispatch(&regionset_writer, rs, f, opts);
}
