// SPDX-License-Identifier: MIT
/* The regions of a program's runs in the OpenMetrics text exposition
 * format and the Prometheus text format (util/openmetrics.h): alone
 * (hwp_regionset_write()) or after a result's families. Counts are
 * counters (clocks in seconds), metrics gauges; a value that was not
 * counted has no sample. */
#include "core/core.h"
#include "regionset/regionset.h"
#include "util/openmetrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
					v = series_is_clock(sr) || !sr->supported ?
						    NAN : sr->values[0];
					break;
				case RF_EVENT_SECONDS:
					v = series_is_clock(sr) && sr->supported ?
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
