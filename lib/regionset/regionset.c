// SPDX-License-Identifier: MIT
/* Regionsets: the regions of one run of a program, typed, as a
 * hwprof-regions/1 document has them: per region its calls, ops and time,
 * its rows (each event's count with its percent running, and the metrics)
 * and each thread's part. Built from the live regions (region.c) or read
 * from the JSON (regionset-read.c); written by regionset-write.c. */
#include "core/core.h"
#include "regionset/regionset.h"
#include "util/hash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int regionset_new(struct hwp_regionset **out)
{
	struct hwp_regionset *rs = calloc(1, sizeof(*rs));

	*out = rs;
	if (!rs)
		return fail(-ENOMEM, "out of memory");
	rs->sample_every = 1;
	rs->read_cost_ns = NAN;
	return 0;
}

static void region_release(struct regionset_region *rg)
{
	free(rg->name);
	for (size_t i = 0; i < rg->nr_rows; i++)
		series_release(&rg->rows[i]);
	free(rg->rows);
	free(rg->values);
	for (size_t i = 0; i < rg->nr_threads; i++)
		free(rg->threads[i].values);
	free(rg->threads);
}

HWP_API void hwp_regionset_free(struct hwp_regionset *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->nr_regions; i++)
		region_release(&rs->regions[i]);
	free(rs->regions);
	free(rs->spec);
	environment_release(&rs->env);
	free(rs);
}

struct regionset_region *regionset_add_region(struct hwp_regionset *rs)
{
	struct regionset_region *n;

	if (vec_reserve(&rs->regions, &rs->cap_regions, rs->nr_regions + 1, sizeof(*n)))
		return NULL;
	n = &rs->regions[rs->nr_regions++];
	memset(n, 0, sizeof(*n));
	return n;
}

void regionset_drop_last(struct hwp_regionset *rs)
{
	if (rs->nr_regions)
		region_release(&rs->regions[--rs->nr_regions]);
}

struct regionset_thread *regionset_add_thread(struct regionset_region *rg)
{
	struct regionset_thread *n;

	if (vec_reserve(&rg->threads, &rg->cap_threads, rg->nr_threads + 1, sizeof(*n)))
		return NULL;
	n = &rg->threads[rg->nr_threads++];
	memset(n, 0, sizeof(*n));
	return n;
}

int regionset_region_done(struct regionset_region *rg)
{
	free(rg->values);
	rg->values = calloc(rg->nr_events ? rg->nr_events : 1, sizeof(*rg->values));
	if (!rg->values)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < rg->nr_events; e++)
		rg->values[e] = rg->rows[e].values[0];
	return 0;
}

/* ---- the public view ---- */

HWP_API int hwp_regionset_info(const struct hwp_regionset *rs,
			       struct hwp_regionset_info *info)
{
	struct hwp_regionset_info i = { .sz = sizeof(i) };

	clear_error();
	if (!rs)
		return fail(-EINVAL, "hwp_regionset_info: NULL regionset");
	i.event_spec = rs->spec;
	i.sample_every = rs->sample_every;
	i.read_cost_ns = rs->read_cost_ns;
	i.nr_regions = rs->nr_regions;
	i.nr_unreadable = rs->nr_unreadable;
	return info_fill(info, &i, sizeof(i));
}

static const struct regionset_region *region_at(const struct hwp_regionset *rs,
						size_t idx, const char *fn)
{
	clear_error();
	if (!rs || idx >= rs->nr_regions) {
		fail(-EINVAL, "%s: no region %zu", fn, idx);
		return NULL;
	}
	return &rs->regions[idx];
}

HWP_API int hwp_regionset_region(const struct hwp_regionset *rs, size_t idx,
				 struct hwp_region_info *info)
{
	const struct regionset_region *rg = region_at(rs, idx, "hwp_regionset_region");
	struct hwp_region_info i = { .sz = sizeof(i) };

	if (!rg)
		return -EINVAL;
	i.name = rg->name;
	i.nr_threads = rg->nr_threads;
	i.calls = rg->calls;
	i.measured_calls = rg->measured_calls;
	i.ops = rg->ops;
	i.seconds = rg->seconds;
	i.too_short = rg->too_short;
	i.nr_events = rg->nr_events;
	i.values = rg->values;
	return info_fill(info, &i, sizeof(i));
}

HWP_API int hwp_regionset_thread(const struct hwp_regionset *rs, size_t region,
				 size_t idx, struct hwp_region_info *info)
{
	const struct regionset_region *rg = region_at(rs, region, "hwp_regionset_thread");
	const struct regionset_thread *t;
	struct hwp_region_info i = { .sz = sizeof(i) };

	if (!rg)
		return -EINVAL;
	if (idx >= rg->nr_threads)
		return fail(-EINVAL,
			    "hwp_regionset_thread: region '%s' has %zu threads, not %zu",
			    rg->name, rg->nr_threads, idx + 1);
	t = &rg->threads[idx];
	i.name = rg->name;
	i.tid = t->tid;
	i.nr_threads = 1;
	i.calls = t->calls;
	i.measured_calls = t->measured_calls;
	i.ops = t->ops;
	i.seconds = t->seconds;
	i.too_short = t->too_short;
	i.nr_events = rg->nr_events;
	i.values = t->values;
	return info_fill(info, &i, sizeof(i));
}

HWP_API size_t hwp_regionset_nr_series(const struct hwp_regionset *rs, size_t region)
{
	return rs && region < rs->nr_regions ? rs->regions[region].nr_rows : 0;
}

HWP_API int hwp_regionset_series(const struct hwp_regionset *rs, size_t region,
				 size_t idx, struct hwp_series_info *info)
{
	const struct regionset_region *rg = region_at(rs, region, "hwp_regionset_series");
	struct hwp_series_info i;

	if (!rg)
		return -EINVAL;
	if (idx >= rg->nr_rows)
		return fail(-EINVAL, "hwp_regionset_series: region '%s' has no row %zu",
				rg->name, idx);
	series_info(rg->rows, rg->nr_rows, idx, 1, NULL, &i);
	return info_fill(info, &i, sizeof(i));
}
