// SPDX-License-Identifier: MIT
/*
 * What a cell of a comparison tests: runs of A and B measured in turn (stat
 * -- A ::: B) saw the same machine a block at a time, so the differences of
 * a block's runs are tested (paired t-test, Wilcoxon's signed-rank test): a
 * machine that drifts moves both runs of a pair alike, and no longer hides
 * a change in the spread of each side. Results measured apart are two
 * independent samples (Welch's t-test, Mann-Whitney U).
 */
#include "core/core.h"
#include "compare/compare.h"
#include "result/result.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t cmp_defined(const double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += !isnan(v[i]);
	return k;
}

/* The runs of @ra and @rb that pair, into new arrays (free both); the
 * number of pairs, SIZE_MAX when out of memory. */
static size_t pairs_of(const struct hwp_result *ra, const struct hwp_result *rb,
		       size_t **ia, size_t **ib)
{
	size_t most = ra->nr_runs < rb->nr_runs ? ra->nr_runs : rb->nr_runs;

	*ia = malloc((most + 1) * sizeof(**ia));
	*ib = malloc((most + 1) * sizeof(**ib));
	return *ia && *ib ? run_order_pairs(ra, rb, *ia, *ib) : SIZE_MAX;
}

/* The values of the pairs whose runs are both defined, into v->owned. */
static int pair_values(const struct hwp_result *ra, const struct series *sa,
		       const struct hwp_result *rb, const struct series *sb,
		       struct cmp_values *v)
{
	size_t *ia, *ib, n = pairs_of(ra, rb, &ia, &ib), k = 0;
	double *pa, *pb;

	v->owned = n != SIZE_MAX ? malloc((2 * n + 1) * sizeof(*v->owned)) : NULL;
	if (!v->owned) {
		free(ia);
		free(ib);
		return -ENOMEM;
	}
	pa = v->owned;
	pb = v->owned + n;
	for (size_t i = 0; i < n; i++) {
		double x = sa->values[ia[i]], y = sb->values[ib[i]];

		if (isnan(x) || isnan(y))
			continue;
		pa[k] = x;
		pb[k++] = y;
	}
	free(ia);
	free(ib);
	v->a = pa;
	v->b = pb;
	v->na = v->nb = k;
	return 0;
}

int cmp_values_of(const struct hwp_result *ra, const struct series *sa,
		  const struct hwp_result *rb, const struct series *sb,
		  struct cmp_values *v)
{
	memset(v, 0, sizeof(*v));
	v->runs_a = ra->nr_runs;
	v->runs_b = rb->nr_runs;
	v->paired = run_order_paired(ra, rb);
	if (v->paired)
		return pair_values(ra, sa, rb, sb, v);
	v->a = sa->values;
	v->b = sb->values;
	v->na = cmp_defined(sa->values, ra->nr_runs);
	v->nb = cmp_defined(sb->values, rb->nr_runs);
	return 0;
}

void cmp_values_release(struct cmp_values *v)
{
	free(v->owned);
	v->owned = NULL;
}

void cmp_pair_moments(const struct cmp_values *v, double ratio, struct cmp_cell *cell)
{
	double n = (double)v->na, ma = 0, me = 0, saa = 0, sae = 0, see = 0;

	cell->nonneg = true;
	for (size_t i = 0; i < v->na; i++) {
		ma += v->a[i] / n;
		me += (v->b[i] - ratio * v->a[i]) / n;
		cell->nonneg &= v->a[i] >= 0 && v->b[i] >= 0;
	}
	for (size_t i = 0; i < v->na; i++) {
		double da = v->a[i] - ma, de = v->b[i] - ratio * v->a[i] - me;

		saa += da * da;
		sae += da * de;
		see += de * de;
	}
	cell->var_a = saa / (n - 1);
	cell->cov_ae = sae / (n - 1);
	cell->var_e = see / (n - 1);
}

/* Wilcoxon's W+ against its middle: positive when B's differences lead. */
static double signed_rank_direction(const struct cmp_values *v, double w)
{
	size_t m = 0;

	for (size_t i = 0; i < v->na; i++)
		m += v->b[i] != v->a[i];
	return 2 * w - (double)m * (double)(m + 1) / 2;
}

int cmp_values_test(const struct hwp_compare *c, const struct cmp_values *v,
		    struct hwp_stats_test_result *t, struct cmp_cell *cell)
{
	HWP_OPTS(hwp_stats_test_opts, to, .test = c->opts.test);
	bool mw = c->opts.test == HWP_TEST_MANN_WHITNEY;
	int err;

	if (v->paired) {
		err = paired_test(v->a, v->b, v->na, c->opts.test, 0.95, t);
		if (err)
			return err == -ENOMEM ? err : fail(err, "fewer than 2 pairs");
		cell->welch_df = (double)(v->na - 1);
		cell->direction = mw ? signed_rank_direction(v, t->statistic) : t->diff;
		return 0;
	}
	err = hwp_stats_test(v->a, v->runs_a, v->b, v->runs_b, &to, t);
	if (err)
		return err;
	cell->welch_df = t->df;
	cell->direction = mw ? 2 * t->statistic - (double)(t->na * t->nb) : t->diff;
	if (mw) {
		struct hwp_stats_test_result w = { .sz = sizeof(w) };

		err = hwp_stats_test(v->a, v->runs_a, v->b, v->runs_b, NULL, &w);
		if (err)
			return err;
		cell->welch_df = w.df;
	}
	return 0;
}

const char *cmp_test_name(const struct hwp_compare *c)
{
	if (c->opts.test == HWP_TEST_MANN_WHITNEY)
		return c->paired ? "Wilcoxon signed-rank test" : "Mann-Whitney U test";
	return c->paired ? "Paired t-test" : "Welch's t-test";
}

const char *cmp_test_key(const struct hwp_compare *c)
{
	if (c->opts.test == HWP_TEST_MANN_WHITNEY)
		return c->paired ? "wilcoxon-signed-rank" : "mann-whitney";
	return c->paired ? "paired-t" : "welch";
}

int cmp_pairs_warning(const struct hwp_result *ra, const struct hwp_result *rb,
		      const char *a_name, const char *b_name, char **out)
{
	size_t *ia, *ib, n = pairs_of(ra, rb, &ia, &ib);

	free(ia);
	free(ib);
	*out = NULL;
	if (n == SIZE_MAX)
		return -ENOMEM;
	if (n == ra->nr_runs && n == rb->nr_runs)
		return 0;
	if (asprintf(out, "%zu of %zu runs of %s and %zu of %zu of %s have no partner in their block (a failed run, or a block left unfinished): the paired tests leave them out",
		     ra->nr_runs - n, ra->nr_runs, a_name, rb->nr_runs - n, rb->nr_runs,
		     b_name) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}
