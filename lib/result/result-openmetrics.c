// SPDX-License-Identifier: MIT
/* Results and regions in the OpenMetrics text exposition format, which
 * Prometheus scrapes: each metric family once, its samples together, then
 * "# EOF"; and in the Prometheus text format (0.0.4) that node_exporter's
 * textfile collector and promtool read, which differs in three points:
 * a counter's family is named with its _total, there are no units and no
 * "# EOF". Counts are counters (clocks in seconds, the base unit),
 * metrics gauges. A value that
 * was not counted has no sample: the format has no comments to say why, so
 * hwprof_event_supported says which events could be opened. */
#include "core/core.h"
#include "result/openmetrics.h"
#include "result/result.h"
#include "util/utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void om_label_add(struct om_labels *l, const char *key, const char *value)
{
	if (l->n < OM_MAX_LABELS && value) {
		l->key[l->n] = key;
		l->value[l->n++] = value;
	}
}

/* Text in the exposition is UTF-8 (both formats say so, and a scraper
 * refuses the whole of it otherwise): an invalid sequence in a command line
 * or a name is written as U+FFFD. Backslash and line feed are escaped, and
 * with @quote the double quote too (label values; the spec's ABNF). */
static void om_text(FILE *f, const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		int n = utf8_char(p, left);

		if (n < 0) {
			fputs("\xef\xbf\xbd", f);
			n = -n;
		} else if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '"' && quote) {
			fputs("\\\"", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else {
			fwrite(p, 1, (size_t)n, f);
		}
		p += n;
		left -= (size_t)n;
	}
}

void om_label_value(FILE *f, const char *s)
{
	fputc('"', f);
	om_text(f, s, true);
	fputc('"', f);
}

/* A HELP text escapes backslash and line feed. */
static void help_text(FILE *f, const char *s)
{
	om_text(f, s, false);
}

static bool is_counter(const struct om_family *fam)
{
	return !strcmp(fam->type, "counter");
}

void om_family_begin(FILE *f, const struct om_family *fam, bool prom)
{
	const char *total = prom && is_counter(fam) ? "_total" : "";

	fprintf(f, "# TYPE %s%s %s\n", fam->name, total, fam->type);
	if (fam->unit && !prom)
		fprintf(f, "# UNIT %s %s\n", fam->name, fam->unit);
	fprintf(f, "# HELP %s%s ", fam->name, total);
	help_text(f, fam->help);
	fputc('\n', f);
}

/* The fewest digits that read back as @v. */
static const char *shortest(double v, char *buf, size_t size)
{
	for (int digits = 15; digits < 17; digits++) {
		snprintf(buf, size, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

/* Integers as integers; else enough digits to tell doubles apart. */
static void om_number(FILE *f, double v)
{
	char buf[32];

	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%s", shortest(v, buf, sizeof(buf)));
}

void om_sample(FILE *f, const struct om_family *fam, const struct om_labels *l,
	       double v)
{
	fputs(fam->name, f);
	if (is_counter(fam))
		fputs("_total", f);
	if (l->n) {
		fputc('{', f);
		for (size_t i = 0; i < l->n; i++) {
			fprintf(f, "%s%s=", i ? "," : "", l->key[i]);
			om_label_value(f, l->value[i]);
		}
		fputc('}', f);
	}
	fputc(' ', f);
	om_number(f, v);
	fputc('\n', f);
}

/* ---- results ---- */

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

static bool is_clock(const struct series *sr)
{
	return !strcmp(sr->unit, "ns");
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
			bool supported_family = fam == &om_event_supported;

			if (supported_family ? k > 0 : (!sr->supported || isnan(v)))
				continue;
			if (fam == &ev_count && is_clock(sr))
				continue;
			if (fam == &ev_seconds && !is_clock(sr))
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

/* ---- regions ---- */

enum region_family {
	RF_CALLS,
	RF_SECONDS,
	RF_OPS,
	RF_EVENT,
	RF_EVENT_SECONDS,
	RF_METRIC,
};

static const struct om_family region_families[] = {
	[RF_CALLS] = { "hwprof_region_calls", "counter", NULL,
		       "Calls of each region (hwp_region_begin/end), all threads" },
	[RF_SECONDS] = { "hwprof_region_seconds", "counter", "seconds",
			 "Time spent inside each region, all threads, all calls" },
	[RF_OPS] = { "hwprof_region_ops", "counter", NULL,
		     "Operations each region declared (hwp_region_end's ops)" },
	[RF_EVENT] = { "hwprof_region_event", "counter", NULL,
		       "Events counted inside each region, scaled by its sampling of calls" },
	[RF_EVENT_SECONDS] = { "hwprof_region_event_seconds", "counter", "seconds",
			       "Clock events counted inside each region, in seconds" },
	[RF_METRIC] = { "hwprof_region_metric", "gauge", NULL,
			"Metrics of each region's counts" },
};

struct region_ctx {
	const char *command;
	char run[24];
	bool per_run;
	bool prom;		/* the Prometheus text format */
};

static void region_family(FILE *f, enum region_family which,
			  struct hwp_regionset *const *sets, size_t nr_sets,
			  struct region_ctx *c)
{
	const struct om_family *fam = &region_families[which];
	bool begun = false;

	for (size_t s = 0; s < nr_sets; s++) {
		for (size_t i = 0; i < sets[s]->nr_regions; i++) {
			const struct regionset_region *rg = &sets[s]->regions[i];
			size_t first = 0, end = 1;

			if (which == RF_EVENT || which == RF_EVENT_SECONDS)
				end = rg->nr_events;
			else if (which == RF_METRIC)
				first = rg->nr_events, end = rg->nr_rows;
			for (size_t k = first; k < end; k++) {
				struct om_labels l = { .n = 0 };
				const struct series *sr =
					which >= RF_EVENT ? &rg->rows[k] : NULL;
				double v;

				switch (which) {
				case RF_CALLS: v = (double)rg->calls; break;
				case RF_SECONDS: v = rg->seconds; break;
				case RF_OPS: v = (double)rg->ops; break;
				case RF_EVENT:
					v = is_clock(sr) || !sr->supported ?
						    NAN : sr->values[0];
					break;
				case RF_EVENT_SECONDS:
					v = is_clock(sr) && sr->supported ?
						    sr->values[0] / 1e9 : NAN;
					break;
				default: v = sr->values[0]; break;
				}
				if (isnan(v))
					continue;
				if (!begun)
					om_family_begin(f, fam, c->prom);
				begun = true;
				om_label_add(&l, "region", rg->name);
				if (which == RF_METRIC)
					om_label_add(&l, "metric", sr->name);
				else if (sr)
					om_label_add(&l, "event", sr->name);
				om_label_add(&l, "command", c->command);
				if (c->per_run) {
					snprintf(c->run, sizeof(c->run), "%zu", s + 1);
					om_label_add(&l, "run", c->run);
				}
				om_sample(f, fam, &l, v);
			}
		}
	}
}

void regionset_openmetrics_families(struct hwp_regionset *const *sets, size_t nr_sets,
				    const char *command, bool prom, FILE *f)
{
	struct region_ctx c = {
		.command = command, .per_run = nr_sets > 1, .prom = prom,
	};

	for (int which = RF_CALLS; which <= RF_METRIC; which++)
		region_family(f, (enum region_family)which, sets, nr_sets, &c);
}

int regionset_openmetrics(const void *obj, FILE *f, const void *opts)
{
	struct hwp_regionset *rs = (struct hwp_regionset *)obj;
	const struct hwp_write_opts *o = opts;
	bool prom = o->format == HWP_FORMAT_PROMETHEUS;

	regionset_openmetrics_families(&rs, 1, NULL, prom, f);
	if (!prom)
		fputs("# EOF\n", f);
	return 0;
}
