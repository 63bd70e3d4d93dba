// SPDX-License-Identifier: MIT
/* A region across the runs of 'hwprof stat --regions -r N': each of its
 * rows (events, then metrics) as a row of a result, a value a run, so that
 * the statistics and 'compare' treat it as they treat the whole program's
 * rows. Run k's value is NAN where run k did not enter the region. */
#include "core/core.h"
#include "regionset/regionset.h"
#include "util/hash.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void region_runs_free(struct region_runs *rr, size_t nr)
{
	for (size_t i = 0; rr && i < nr; i++) {
		for (size_t k = 0; k < rr[i].nr_rows; k++)
			series_release(&rr[i].rows[k]);
		free(rr[i].rows);
		free(rr[i].calls);
		free(rr[i].seconds);
		free(rr[i].ops);
	}
	free(rr);
}

static const struct regionset_region *region_named(const struct hwp_regionset *rs,
						   const char *name)
{
	for (size_t i = 0; i < rs->nr_regions; i++)
		if (!strcmp(rs->regions[i].name, name))
			return &rs->regions[i];
	return NULL;
}

static int fill_row(struct series *dst, const struct series *first, size_t runs)
{
	dst->kind = first->kind;
	dst->name = strdup(first->name);
	dst->unit = strdup(first->unit ? first->unit : "");
	dst->canonical = first->canonical ? strdup(first->canonical) : NULL;
	/* what a metric's value over the runs is worked out from */
	dst->expr = first->expr ? strdup(first->expr) : NULL;
	dst->scale = first->scale;
	dst->values = malloc(runs * sizeof(*dst->values));
	dst->supported = false;
	if (!dst->name || !dst->unit || (first->canonical && !dst->canonical) ||
	    (first->expr && !dst->expr) || !dst->values)
		return -ENOMEM;
	for (size_t k = 0; k < runs; k++)
		dst->values[k] = NAN;
	return 0;
}

/* One row of @rr for each of the first region's rows; then each run's. */
static int region_fill(struct region_runs *rr, struct hwp_regionset *const *sets,
		       size_t runs, const struct regionset_region *first)
{

	rr->nr_runs = runs;
	rr->nr_events = first->nr_events;
	rr->rows = calloc(first->nr_rows ? first->nr_rows : 1, sizeof(*rr->rows));
	rr->calls = malloc(runs * sizeof(*rr->calls));
	rr->seconds = malloc(runs * sizeof(*rr->seconds));
	rr->ops = malloc(runs * sizeof(*rr->ops));
	if (!rr->rows || !rr->calls || !rr->seconds || !rr->ops)
		return -ENOMEM;
	for (size_t i = 0; i < first->nr_rows; i++, rr->nr_rows++)
		if (fill_row(&rr->rows[i], &first->rows[i], runs))
			return -ENOMEM;
	for (size_t k = 0; k < runs; k++) {
		const struct regionset_region *rg =
			region_named(sets[k], rr->name);

		rr->calls[k] = rg ? (double)rg->calls : NAN;
		rr->seconds[k] = rg ? rg->seconds : NAN;
		rr->ops[k] = rg && rg->ops ? (double)rg->ops : NAN;
		rr->nr_entered += rg != NULL;
		rr->nr_exceeding += rg && rg->exceeds_time;
		if (rg)
			rr->last = rg;
		for (size_t i = 0; rg && i < rr->nr_rows; i++) {
			struct series *dst = &rr->rows[i];

			for (size_t j = 0; j < rg->nr_rows; j++) {
				const struct series *src = &rg->rows[j];

				if (src->kind != dst->kind ||
				    strcmp(src->name, dst->name))
					continue;
				dst->values[k] = src->values[0];
				dst->supported |= src->supported;
				break;
			}
		}
	}
	return 0;
}

int region_runs_build(struct hwp_regionset *const *sets, size_t nr_sets,
		      struct region_runs **out, size_t *nr)
{
	struct region_runs *rr = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	*nr = 0;
	/* Every region any run entered, in the order the runs first show them. */
	for (size_t k = 0; k < nr_sets; k++) {
		const struct hwp_regionset *rs = sets[k];

		for (size_t i = 0; i < rs->nr_regions; i++) {
			const struct regionset_region *rg = &rs->regions[i];
			bool seen = false;

			for (size_t j = 0; j < n && !seen; j++)
				seen = !strcmp(rr[j].name, rg->name);
			if (seen)
				continue;
			if (vec_reserve(&rr, &cap, n + 1, sizeof(*rr)))
				goto nomem;
			memset(&rr[n], 0, sizeof(rr[n]));
			rr[n].name = rg->name;
			n++;
			if (region_fill(&rr[n - 1], sets, nr_sets, rg))
				goto nomem;
		}
	}
	*out = rr;
	*nr = n;
	return 0;
nomem:
	region_runs_free(rr, n);
	return fail(-ENOMEM, "out of memory");
}
