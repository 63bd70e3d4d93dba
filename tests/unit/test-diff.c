// SPDX-License-Identifier: MIT
/*
 * The statistics of hwprof diff (lib/stats/proportions.c, lib/diff/diff.c):
 * - Fisher's exact test and Newcombe's interval give the published values;
 * - A/A: 100 seeded pairs of profiles of the same distribution, 20,000
 *   samples a side: no row significant in at least 95 of them;
 * - a row whose share grows by 3 points (10% to 13%), and the issue's
 *   0.5% to 4.5%, are significant increases in every pair, the others'
 *   verdicts being unchanged or the decrease that shares adding to 100%
 *   make;
 * - the 95% interval covers the true difference about 95% of the time.
 */
#include "core/core.h"
#include "diff/diff.h"
#include "stats/stats.h"
#include "harness.h"
#include "sim.h"

#define PAIRS 100
#define SAMPLES 20000
#define NR_ROWS 12

/* A profile's shares, in percent: a few hot functions and a tail. */
static const double base_shares[NR_ROWS] = { 30, 20, 15, 10, 8, 5, 4, 3, 2, 1.5, 1, 0.5 };

static void check_published_values(void)
{
	struct counts_result r;

	/* R: fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value, Fisher's tea. */
	CHECK(fabs(fisher_exact(3, 4, 1, 4) - 0.4857142857) < 1e-9, "tea: %.10f",
	      fisher_exact(3, 4, 1, 4));
	CHECK(fabs(fisher_exact(1, 12, 9, 12) - 0.0027594562) < 1e-9,
	      "1/12 vs 9/12: %.10f", fisher_exact(1, 12, 9, 12));
	CHECK(fabs(fisher_exact(100, 20000, 160, 20000) - 0.00022803944) < 1e-10,
	      "100 vs 160 of 20000: %.11f", fisher_exact(100, 20000, 160, 20000));
	CHECK(fabs(fisher_exact(0, 5, 5, 5) - 0.0079365079) < 1e-9, "0/5 vs 5/5: %.10f",
	      fisher_exact(0, 5, 5, 5));
	CHECK(fisher_exact(7, 100, 7, 100) == 1, "equal rows: %g",
	      fisher_exact(7, 100, 7, 100));
	CHECK(fisher_exact(0, 20000, 2000, 20000) < 1e-300, "far beyond: %g",
	      fisher_exact(0, 20000, 2000, 20000));
	/* Newcombe (1998), table II, 56/70 - 48/80, method 10: 0.0524 to 0.3339. */
	CHECK_ERR(counts_test(48, 80, 56, 70, &r), 0);
	CHECK(fabs(r.diff - 0.2) < 1e-12, "diff %g", r.diff);
	CHECK(fabs(r.ci_low - 0.0524) < 5e-5 && fabs(r.ci_high - 0.3339) < 5e-5,
	      "interval [%.5f, %.5f]", r.ci_low, r.ci_high);
	CHECK_ERR(counts_test(1, 0, 1, 10, &r), -EINVAL);
	CHECK_ERR(counts_test(11, 10, 1, 10, &r), -EINVAL);
}

/* @n samples drawn from @shares into rows[].info.a_samples (@side 0) or
 * b_samples (1). */
static void draw(struct diff_row *rows, const double *shares, int side)
{
	for (size_t k = 0; k < NR_ROWS; k++)
		*(side ? &rows[k].info.b_samples : &rows[k].info.a_samples) = 0;
	for (int i = 0; i < SAMPLES; i++) {
		double u = 100 * uniform(), acc = 0;
		size_t k = 0;

		while (k + 1 < NR_ROWS && u >= acc + shares[k])
			acc += shares[k++];
		(*(side ? &rows[k].info.b_samples : &rows[k].info.a_samples))++;
	}
}

static char row_names[NR_ROWS][8];

/* One simulated pair: A from @a_shares, B from @b_shares, decided. */
static struct diff_row *pair(const double *a_shares, const double *b_shares,
			     struct hwp_profile_diff_info *totals)
{
	static struct diff_row rows[NR_ROWS];

	memset(rows, 0, sizeof(rows));
	for (size_t k = 0; k < NR_ROWS; k++) {
		snprintf(row_names[k], sizeof(row_names[k]), "f%zu", k);
		rows[k].name = row_names[k];
		rows[k].dso = row_names[k];
	}
	draw(rows, a_shares, 0);
	draw(rows, b_shares, 1);
	*totals = (struct hwp_profile_diff_info){ .sz = sizeof(*totals) };
	if (diff_decide(rows, NR_ROWS, SAMPLES, SAMPLES, 0.05, false, totals))
		return NULL;
	return rows;
}

static void check_same_distribution(void)
{
	int quiet = 0;

	for (int t = 0; t < PAIRS; t++) {
		struct hwp_profile_diff_info totals;

		if (!pair(base_shares, base_shares, &totals)) {
			CHECK(0, "out of memory");
			return;
		}
		CHECK(totals.corrected && totals.nr_tests == NR_ROWS,
		      "Holm over %zu rows", totals.nr_tests);
		quiet += totals.nr_increase + totals.nr_decrease == 0;
	}
	t_note("same distribution: no row significant in %d of %d pairs", quiet, PAIRS);
	CHECK(quiet >= 95, "no row significant in only %d of %d pairs", quiet, PAIRS);
}

/* Row @grow goes from its share to @to points, the others shrinking in
 * proportion: it is an increase in every pair. */
static void check_growth(size_t grow, double to)
{
	double b_shares[NR_ROWS], rest = 100 - base_shares[grow];
	int found = 0, others_wrong = 0;

	for (size_t k = 0; k < NR_ROWS; k++)
		b_shares[k] = k == grow ? to : base_shares[k] * (100 - to) / rest;
	for (int t = 0; t < PAIRS; t++) {
		struct hwp_profile_diff_info totals;
		struct diff_row *rows = pair(base_shares, b_shares, &totals);

		if (!rows) {
			CHECK(0, "out of memory");
			return;
		}
		/* Sorted: the largest significant change first. */
		found += rows[0].name == row_names[grow] &&
			 rows[0].info.verdict == HWP_VERDICT_INCREASE;
		for (size_t k = 1; k < NR_ROWS; k++)
			others_wrong += rows[k].info.verdict == HWP_VERDICT_INCREASE;
	}
	t_note("%.1f%% -> %.1f%%: the first row, an increase, in %d of %d pairs",
	       base_shares[grow], to, found, PAIRS);
	CHECK(found == PAIRS, "%.1f%% -> %.1f%% found in %d of %d pairs",
	      base_shares[grow], to, found, PAIRS);
	CHECK(others_wrong == 0, "%d other rows called increases", others_wrong);
}

static void check_three_points(void)
{
	check_growth(3, 13);	/* 10% -> 13% */
}

static void check_half_to_four_and_a_half(void)
{
	check_growth(11, 4.5);	/* 0.5% -> 4.5% */
}

static void check_coverage(void)
{
	int covered = 0, trials = 2000;

	for (int t = 0; t < trials; t++) {
		uint64_t xa = 0, xb = 0;
		struct counts_result r;

		for (int i = 0; i < 2000; i++) {
			xa += uniform() < 0.10;
			xb += uniform() < 0.13;
		}
		counts_test(xa, 2000, xb, 2000, &r);
		covered += r.ci_low <= 0.03 && 0.03 <= r.ci_high;
	}
	t_note("95%% interval covers the true difference in %.1f%%",
	       100.0 * covered / trials);
	CHECK(covered >= 0.93 * trials && covered <= 0.97 * trials,
	      "coverage %d of %d", covered, trials);
}

int main(void)
{
	t_init();
	t_run(check_published_values);
	t_run(check_same_distribution);
	t_run(check_three_points);
	t_run(check_half_to_four_and_a_half);
	t_run(check_coverage);
	return t_done();
}
