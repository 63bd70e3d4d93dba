// SPDX-License-Identifier: MIT
/*
 * What a comparison decides from its tests: Holm's correction over every
 * tested cell, each verdict with the interval at the level it was decided
 * at, and the rows ranked by their noise (each verdict's name: core/names.c).
 */
#include "core/core.h"
#include "compare/compare.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/*
 * The interval of B - A at the level the verdict was decided at: Holm's
 * test rejects where p_raw < alpha p_raw / p_value, so Welch's interval at
 * 1 - alpha p_raw / p_value excludes 0 exactly when the verdict is a
 * change (the 95% one need not: a row called unchanged beside an interval
 * without 0 confuses). The level lies between 1 - alpha and 1 - alpha / m:
 * p_value is at most m p_raw.
 */
static void decision_interval(const struct hwp_compare *c, struct cmp_cell *cell)
{
	struct hwp_compare_info *i = &cell->info;
	double gamma, se, df = cell->welch_df;

	i->ci_adj_low = i->ci_adj_high = i->ci_adj_level = NAN;
	if (isnan(i->p_value) || isnan(i->ci_low) || isnan(i->ci_high))
		return;
	gamma = i->p_value > 0 ? c->opts.alpha * i->p_raw / i->p_value :
		c->opts.alpha / (double)(c->corrected ? c->nr_tests : 1);
	if (!(gamma <= c->opts.alpha))
		gamma = c->opts.alpha;
	i->ci_adj_level = 1 - gamma;
	/* No spread (df NAN): the interval is the difference itself. */
	if (isnan(df) || i->ci_high == i->ci_low) {
		i->ci_adj_low = i->ci_low;
		i->ci_adj_high = i->ci_high;
		return;
	}
	se = (i->ci_high - i->ci_low) / 2 / t_quantile(0.975, df);
	i->ci_adj_low = i->diff - t_quantile(1 - gamma / 2, df) * se;
	i->ci_adj_high = i->diff + t_quantile(1 - gamma / 2, df) * se;
}

/*
 * Paired: the interval of B/A at the level the verdict was decided at,
 * Fieller's: the ratios r whose b - r a the paired t-test at that level
 * does not reject. At r = 1 that is the test of B - A, so the interval
 * holds 1 exactly when the verdict is unchanged; unlike 1 + the interval
 * of B - A over A's mean, it counts A's noise too. With r = R + x, R the
 * ratio of the means and e = b - R a, the bounds solve
 *   x^2 (mean_a^2 - k var_a) + 2 x k cov_ae - k var_e = 0, k = q^2 / n,
 * whose two roots have opposite signs. Where A's mean is itself not told
 * from 0 at that level (mean_a^2 <= k var_a) the set is unbounded: no
 * interval. Rows whose values are all >= 0 (counts, times) have a ratio
 * >= 0, so the lower bound stops at 0: the interval still holds the true
 * ratio as often as its level says.
 */
static void ratio_interval(const struct cmp_cell *cell, struct hwp_compare_info *i)
{
	double r = i->ratio, k, qa, qb, root;

	if (!i->pairs || isnan(r) || isnan(i->ci_adj_level))
		return;
	/* B - A without spread is not B/A without it: where A varies, b - r a
	 * does for every r but 1. The roots below are R itself only where
	 * both A and B are constant. */
	k = t_quantile(1 - (1 - i->ci_adj_level) / 2, cell->welch_df);
	k = k * k / (double)i->pairs;
	qa = i->a_mean * i->a_mean - k * cell->var_a;
	qb = k * cell->cov_ae;
	root = sqrt(qb * qb + qa * k * cell->var_e);
	if (!(qa > 0) || !isfinite(root))
		return;
	i->ratio_ci_adj_low = r + (-qb - root) / qa;
	i->ratio_ci_adj_high = r + (-qb + root) / qa;
	if (cell->nonneg && i->ratio_ci_adj_low < 0)
		i->ratio_ci_adj_low = 0;
}

int cmp_correct_and_decide(struct hwp_compare *c)
{
	double *p = malloc((c->nr_rows * c->nr_columns + 1) * sizeof(*p));
	size_t n = 0;

	if (!p)
		return -ENOMEM;
	c->corrected = c->nr_tests > 1 && !c->opts.no_correction;
	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++) {
			const struct cmp_cell *cell = &c->rows[i].cells[k];

			p[n++] = cell->tested && !cell->constant ? cell->info.p_raw : NAN;
		}
	if (c->corrected && hwp_stats_holm(p, n, p)) {
		free(p);
		return -ENOMEM;
	}
	n = 0;
	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++) {
			struct cmp_cell *cell = &c->rows[i].cells[k];
			struct hwp_compare_info *info = &cell->info;
			double up;

			info->p_value = cell->constant ? info->p_raw : p[n];
			n++;
			if (!cell->tested)
				continue;
			/* The rank tests' direction is their statistic's
			 * against its middle, not the difference of means. */
			up = cell->direction;
			/* Values so large their mean overflows give no p-value:
			 * no verdict either, rather than "unchanged". */
			if (isnan(info->p_value))
				info->verdict = HWP_VERDICT_NONE;
			else if (!(info->p_value < c->opts.alpha))
				info->verdict = HWP_VERDICT_UNCHANGED;
			else if (up > 0)
				info->verdict = HWP_VERDICT_INCREASE;
			else
				info->verdict = HWP_VERDICT_DECREASE;
			decision_interval(c, cell);
			ratio_interval(cell, info);
		}
	free(p);
	return 0;
}

static int cmp_noise(const void *x, const void *y)
{
	const struct cmp_row *a = *(const struct cmp_row *const *)x;
	const struct cmp_row *b = *(const struct cmp_row *const *)y;

	/* No CV (a mean of 0) ranks last; equal ones keep the table's order. */
	if (isnan(a->noise) || isnan(b->noise)) {
		if (isnan(a->noise) != isnan(b->noise))
			return isnan(a->noise) - isnan(b->noise);
	} else if (a->noise != b->noise) {
		return (a->noise > b->noise) - (a->noise < b->noise);
	}
	return (a > b) - (a < b);
}

int cmp_rank_noise(struct hwp_compare *c)
{
	struct cmp_row **order = malloc((c->nr_rows + 1) * sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < c->nr_rows; i++) {
		struct cmp_row *row = &c->rows[i];

		row->noise = NAN;
		for (size_t k = 0; k < c->nr_columns; k++) {
			const struct hwp_compare_info *info = &row->cells[k].info;
			double cv = fmax(info->a_cv, info->b_cv);

			/* fmax() takes the number over a NAN. */
			if (row->cells[k].tested)
				row->noise = fmax(row->noise, cv);
		}
		order[i] = row;
	}
	/* qsort is not stable: ties keep the table's order through the index. */
	qsort(order, c->nr_rows, sizeof(*order), cmp_noise);
	for (size_t r = 0; r < c->nr_rows; r++)
		order[r]->noise_rank = r + 1;
	free(order);
	for (size_t i = 0; i < c->nr_rows; i++)
		for (size_t k = 0; k < c->nr_columns; k++) {
			struct hwp_compare_info *info = &c->rows[i].cells[k].info;

			info->noise_rank = c->rows[i].noise_rank;
			info->name = c->rows[i].name;
			info->aggr_unit = c->rows[i].aggr_unit;
			info->unit = c->rows[i].unit;
			info->kind = c->rows[i].kind;
			info->column = c->columns[k];
			info->reason = c->rows[i].cells[k].reason;
		}
	return 0;
}
