// SPDX-License-Identifier: MIT
/* Sparse measurement (HWPROF_SAMPLE_EVERY=N) reads the counters at one
 * call in N. A measured call carries its two reads: on a region as short
 * as a read, they are most of what it counted. Scaling the measured sums
 * by N would charge each unmeasured call with reads it never made, and
 * add up to more than the program ran. The unmeasured calls are estimated
 * as a measured call less what an empty measured call counts, read at the
 * end of each measured call (region.c). */
#include "core/core.h"
#include "region/region.h"
#include "result/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double region_estimate(double sum, uint64_t calls, uint64_t measured, double cost)
{
	double other;

	if (!measured)
		return NAN;
	if (calls <= measured || isnan(sum))
		return sum;
	other = sum / (double)measured - (isnan(cost) ? 0 : cost);
	return sum + (double)(calls - measured) * (other > 0 ? other : 0);
}

int region_rows(const struct hwp_session *s, const struct hwp_count *counts,
		double seconds, uint64_t calls, uint64_t measured, const double *cost,
		struct regionset_region *rg)
{
	int err = result_rows_of_reading(s, counts, seconds, &rg->rows, &rg->nr_rows,
					 &rg->nr_events);

	if (err)
		return err;
	/* Sparse measurement estimates every count and the time alike: the
	 * metrics, ratios and rates, stay as the measured calls made them. */
	for (size_t e = 0; e < rg->nr_events; e++)
		rg->rows[e].values[0] = region_estimate(rg->rows[e].values[0], calls,
							measured, cost ? cost[e] : 0);
	return regionset_region_done(rg);
}

bool region_exceeds_time(uint64_t calls, uint64_t measured, double wall_ns, double cpu_ns,
			 double seconds, const double *values, const struct series *rows,
			 size_t nr_events)
{
	if (calls <= measured)
		return false;
	if (seconds * 1e9 > wall_ns)
		return true;
	for (size_t e = 0; e < nr_events; e++)
		if (!strcmp(rows[e].unit, "ns") && values[e] > cpu_ns)
			return true;
	return false;
}
