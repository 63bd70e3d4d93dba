// SPDX-License-Identifier: MIT
/* Live counts in the OpenMetrics or Prometheus text format, as hwprof
 * serve answers a scrape: each event's count since the start, per CPU and
 * cgroup, as a counter, its running ratio beside it. Written by the same
 * pieces as a result's exposition (openmetrics.h), so that the two agree
 * on names, escaping and numbers. */
#include "core/core.h"
#include "result/openmetrics.h"

#include <math.h>
#include <string.h>

static const struct om_family live_count = {
	"hwprof_event", "counter", NULL,
	"Events counted since hwprof serve started, scaled when multiplexed",
};
static const struct om_family live_seconds = {
	"hwprof_event_seconds", "counter", "seconds",
	"Clock events (cpu-clock, task-clock) counted since hwprof serve started, in seconds",
};

/* The count scaled for multiplexing, as perf stat scales it; NaN when the
 * event was enabled but never on a counter (perf's <not counted>). Not
 * hwp_count_scaled(), which says NaN for a count never enabled: a cgroup
 * whose tasks have not run yet is enabled for no time and has counted 0,
 * the value its series must start from. */
static double scaled(const struct hwp_count *c)
{
	if (!c->time_enabled || c->time_running >= c->time_enabled)
		return (double)c->value;
	if (!c->time_running)
		return NAN;
	return (double)c->value * ((double)c->time_enabled / (double)c->time_running);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* hwprof_event_supported once an event and cgroup, at its first entry. */
static bool first_of_event(const struct hwpriv_om_count *c, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(c[j].event, c[i].event) && same_str(c[j].cgroup, c[i].cgroup))
			return false;
	return true;
}

static double family_value(const struct om_family *fam, const struct hwpriv_om_count *c)
{
	const struct hwp_count *n = &c->count;

	if (fam == &om_event_supported)
		return c->supported;
	if (!c->supported)
		return NAN;
	if (fam == &om_event_ratio && !n->time_enabled)
		return NAN;
	if (fam == &om_event_ratio)
		return (double)n->time_running / (double)n->time_enabled;
	if ((fam == &live_seconds) != c->clock)
		return NAN;
	return fam == &live_seconds ? scaled(n) / 1e9 : scaled(n);
}

static void live_family(FILE *f, const struct om_family *fam,
			const struct hwpriv_om_count *c, size_t nr, const char *host,
			bool prom)
{
	bool begun = false;

	for (size_t i = 0; i < nr; i++) {
		struct om_labels l = { .n = 0 };
		char cpu[16];
		double v = family_value(fam, &c[i]);

		if (isnan(v) || (fam == &om_event_supported && !first_of_event(c, i)))
			continue;
		if (!begun)
			om_family_begin(f, fam, prom);
		begun = true;
		om_label_add(&l, "event", c[i].event);
		if (c[i].cpu >= 0 && fam != &om_event_supported) {
			snprintf(cpu, sizeof(cpu), "%d", c[i].cpu);
			om_label_add(&l, "cpu", cpu);
		}
		om_label_add(&l, "cgroup", c[i].cgroup);
		om_label_add(&l, "host", host);
		om_sample(f, fam, &l, v);
	}
}

HWP_API int hwpriv_openmetrics_counts(FILE *f, const struct hwpriv_om_count *counts,
				      size_t nr, const char *host, enum hwp_format format)
{
	bool prom = format == HWP_FORMAT_PROMETHEUS;

	if (!f || (nr && !counts))
		return fail(-EINVAL, "hwpriv_openmetrics_counts: no file or no counts");
	if (format != HWP_FORMAT_PROMETHEUS && format != HWP_FORMAT_OPENMETRICS)
		return fail(-EOPNOTSUPP, "live counts are written as openmetrics or prometheus, not format %d",
			    (int)format);
	live_family(f, &live_count, counts, nr, host, prom);
	live_family(f, &live_seconds, counts, nr, host, prom);
	live_family(f, &om_event_ratio, counts, nr, host, prom);
	live_family(f, &om_event_supported, counts, nr, host, prom);
	if (!prom)
		fputs("# EOF\n", f);
	return ferror(f) ? fail(-EIO, "writing the metrics failed") : 0;
}
