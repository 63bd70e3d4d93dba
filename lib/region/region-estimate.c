// SPDX-License-Identifier: MIT
/* Sparse measurement (HWPROF_SAMPLE_EVERY=N) reads the counters at one
 * call in N. A measured call carries its two reads: on a region as short
 * as a read, they are most of what it counted. Scaling the measured sums
 * by N would charge each unmeasured call with reads it never made, and
 * add up to more than the program ran. The unmeasured calls are estimated
 * as a measured call less what an empty measured call counts. */
#include "core/core.h"
#include "region/region.h"
#include "result/result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 5
#define PAIRS 200

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* One round of empty measured calls, as hwp_region_begin() and _end() make
 * them: their mean wall time, and into @sums each event's total. */
static double empty_calls(struct hwp_session *s, const struct raw_item *items,
			  size_t nr_items, uint64_t *a, uint64_t *b, double *sums)
{
	uint64_t ns = 0;

	for (int i = 0; i < PAIRS; i++) {
		uint64_t t0 = clock_ns();

		session_read_raw(s, a);
		session_read_raw(s, b);
		ns += clock_ns() - t0;
		for (size_t k = 0; k < nr_items; k++)
			sums[items[k].event] +=
				(double)(b[items[k].value] - a[items[k].value]);
	}
	return (double)ns / PAIRS;
}

/* The middle of ROUNDS values: a round that a busy machine disturbed
 * moves it no more than an undisturbed one. */
static double median(double *v)
{
	for (int i = 1; i < ROUNDS; i++)
		for (int k = i; k > 0 && v[k - 1] > v[k]; k--) {
			double t = v[k];

			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	return v[ROUNDS / 2];
}

int region_cost_measure(struct region_cost *c, struct hwp_session *s,
			const struct raw_item *items, size_t nr_items,
			uint64_t *a, uint64_t *b, size_t nr_events)
{
	size_t n = nr_events ? nr_events : 1;
	double *sums = calloc(ROUNDS * n, sizeof(*sums)), ns[ROUNDS], v[ROUNDS];

	c->value = calloc(n, sizeof(*c->value));
	if (!sums || !c->value) {
		free(sums);
		free(c->value);
		c->value = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	c->nr_events = nr_events;
	for (int round = 0; round < ROUNDS; round++)
		ns[round] = empty_calls(s, items, nr_items, a, b, sums + round * n);
	for (size_t e = 0; e < nr_events; e++) {
		for (int round = 0; round < ROUNDS; round++)
			v[round] = sums[round * n + e] / PAIRS;
		c->value[e] = median(v);
	}
	c->ns = median(ns);
	/* A read at its best, as the report gives it (ns is sorted). */
	c->read_ns = ns[0] / 2;
	free(sums);
	return 0;
}

void region_cost_release(struct region_cost *c)
{
	free(c->value);
	c->value = NULL;
	c->nr_events = 0;
}

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
