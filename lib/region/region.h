/* SPDX-License-Identifier: MIT */
/* Regions' private header: the totals of a region measured one call in N
 * (HWPROF_SAMPLE_EVERY), estimated from the measured calls without what
 * measuring them cost. */
#ifndef HWPROF_REGION_H
#define HWPROF_REGION_H

#include "count/count.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A region's total over @calls calls from @sum, the sum of its @measured
 * measured calls: those as they were, and each other call as a measured
 * one less @cost, what the measurement added to it (never below 0). NAN
 * when no call was measured.
 */
double region_estimate(double sum, uint64_t calls, uint64_t measured, double cost);

struct regionset_region;
struct series;

/*
 * The rows of a live region into @rg, from the sums of its @measured
 * measured calls of @calls (@counts, with their real enabled and running
 * times, over @seconds); each event's count estimated by region_estimate()
 * with @cost[e] (NULL: no cost known).
 */
int region_rows(const struct hwp_session *s, const struct hwp_count *counts,
		double seconds, uint64_t calls, uint64_t measured, const double *cost,
		struct regionset_region *rg);

/*
 * Whether a region's estimate from its @measured calls of @calls is more
 * than its threads ran since their first region: its @seconds more than
 * their @wall_ns, or a clock event's count (task-clock, cpu-clock: @rows
 * in ns) of @values more than their @cpu_ns. A measured call that was
 * disturbed (preempted, cold) weighs for the calls it stands for. Never
 * when every call was measured.
 */
bool region_exceeds_time(uint64_t calls, uint64_t measured, double wall_ns, double cpu_ns,
			 double seconds, const double *values, const struct series *rows,
			 size_t nr_events);

#endif
