// SPDX-License-Identifier: MIT
/* Results in the OpenMetrics text exposition format, which Prometheus
 * scrapes, and in the Prometheus text format (util/openmetrics.h), their
 * regions' families after their own (regionset-openmetrics.c). Counts are
 * counters (clocks in seconds, the base unit), metrics gauges. A value that
 * was not counted has no sample: the format has no comments to say why, so
 * hwprof_event_supported says which events could be opened. */
#include "core/core.h"
#include "result/openmetrics.h"
#include "result/result.h"
#include "util/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct om_family ev_count = {
	"hwprof_event", "counter", NULL,
	"Events counted (hwprof stat), scaled when multiplexed",
};
static const struct om_family ev_seconds = {
	"hwprof_event_seconds", "counter", "seconds",
	"Clock events (task-clock, cpu-clock) counted (hwprof stat), in seconds",
};
const struct om_family om_event_ratio = {
	"hwprof_event_running_ratio", "gauge", "ratio",
	"The share of its enabled time each event was counted (below 1: multiplexed, scaled)",
};
const struct om_family om_event_supported = {
	"hwprof_event_supported", "gauge", NULL,
	"1 for an event this machine can count, 0 for one it cannot",
};
static const struct om_family metric_family = {
	"hwprof_metric", "gauge", NULL,
	"Metrics derived from the events (hwprof stat -M and the built-in ones)",
};
static const struct om_family score_family = {
	"hwprof_score", "gauge", NULL,
	"The benchmark's own numbers, taken from its output (hwprof stat --score)",
};
static const struct om_family elapsed = {
	"hwprof_elapsed_seconds", "gauge", "seconds",
	"Wall-clock time of the measurement, since its start with -I",
};

/* What the families of a result share: the command and, over repeated
 * runs, which run a sample is of. */
struct om_ctx {
	const struct hwp_result *r;
	const char *command;
	char run[24];
	bool per_run;
	bool prom;		/* the Prometheus text format */
};

static void base_labels(struct om_ctx *c, size_t run, struct om_labels *l)
{
	om_label_add(l, "command", c->command);
	if (c->per_run) {
		snprintf(c->run, sizeof(c->run), "%zu", run + 1);
		om_label_add(l, "run", c->run);
	}
}

/* The events of family @fam, one sample a run that counted it. */
static void event_samples(FILE *f, struct om_ctx *c, const struct om_family *fam)
{
	const struct hwp_result *r = c->r;
	bool begun = false;

	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];
		size_t nth = series_occurrence(r->series, i);
		char occurrence[24];

		if (sr->kind != HWP_SERIES_EVENT)
			continue;
		/* An event listed twice is two series, not one series twice. */
		snprintf(occurrence, sizeof(occurrence), "%zu", nth + 1);
		for (size_t k = 0; k < r->nr_runs; k++) {
			struct om_labels l = { .n = 0 };
			double v = sr->values[k];

			if (fam == &om_event_supported ? k > 0 :
			    (!sr->supported || isnan(v)))
				continue;
			if (fam == &ev_count && series_is_clock(sr))
				continue;
			if (fam == &ev_seconds && !series_is_clock(sr))
				continue;
			if (!begun)
				om_family_begin(f, fam, c->prom);
			begun = true;
			om_label_add(&l, "event", sr->name);
			if (nth)
				om_label_add(&l, "occurrence", occurrence);
			if (fam == &om_event_supported) {
				om_label_add(&l, "command", c->command);
				om_sample(f, fam, &l, sr->supported);
				continue;
			}
			base_labels(c, k, &l);
			if (fam == &om_event_ratio)
				v = sr->pct ? sr->pct[k] / 100.0 : NAN;
			else if (fam == &ev_seconds)
				v /= 1e9;
			if (!isnan(v))
				om_sample(f, fam, &l, v);
		}
	}
}

/* The rows of @kind (metrics, scores) as @fam, one sample a run. */
static void value_samples(FILE *f, struct om_ctx *c, enum hwp_series_kind kind,
			  const struct om_family *fam)
{
	const struct hwp_result *r = c->r;
	bool begun = false;

	for (size_t i = 0; i < r->nr_series; i++) {
		const struct series *sr = &r->series[i];

		if (sr->kind != kind)
			continue;
		for (size_t k = 0; k < r->nr_runs; k++) {
			struct om_labels l = { .n = 0 };

			if (isnan(sr->values[k]))
				continue;
			if (!begun)
				om_family_begin(f, fam, c->prom);
			begun = true;
			om_label_add(&l, kind_name(kind), sr->name);
			if (sr->unit && *sr->unit)
				om_label_add(&l, "unit", sr->unit);
			base_labels(c, k, &l);
			om_sample(f, fam, &l, sr->values[k]);
		}
	}
}

static void elapsed_samples(FILE *f, struct om_ctx *c, double interval)
{
	struct om_labels l = { .n = 0 };

	if (!c->r->nr_runs)
		return;
	om_family_begin(f, &elapsed, c->prom);
	if (interval > 0) {
		base_labels(c, 0, &l);
		om_sample(f, &elapsed, &l, interval);
		return;
	}
	for (size_t k = 0; k < c->r->nr_runs; k++) {
		l.n = 0;
		base_labels(c, k, &l);
		om_sample(f, &elapsed, &l, c->r->seconds[k]);
	}
}

int result_openmetrics(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_result *r = obj;
	const struct hwp_write_opts *o = opts;
	struct strbuf cmd = STRBUF_INIT;
	struct om_ctx c = {
		.r = r,
		.per_run = r->nr_runs > 1,
		.prom = o->format == HWP_FORMAT_PROMETHEUS,
	};

	if (r->target) {
		c.command = r->target;
	} else if (r->argv) {
		command_line(r->argv, &cmd);
		c.command = strbuf_str(&cmd);
	}
	event_samples(f, &c, &ev_count);
	event_samples(f, &c, &ev_seconds);
	event_samples(f, &c, &om_event_ratio);
	event_samples(f, &c, &om_event_supported);
	value_samples(f, &c, HWP_SERIES_METRIC, &metric_family);
	value_samples(f, &c, HWP_SERIES_SCORE, &score_family);
	elapsed_samples(f, &c, o->interval);
	if (r->nr_regionsets)
		regionset_openmetrics_families(r->regionsets, r->nr_regionsets, c.command,
					       c.prom, f);
	if (!c.prom)
		fputs("# EOF\n", f);
	strbuf_release(&cmd);
	return 0;
}
