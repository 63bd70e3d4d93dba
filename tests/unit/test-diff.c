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
 * - the 95% interval covers the true difference about 95% of the time;
 * - the exact test of two Poisson rates and Clopper and Pearson's interval
 *   give R's published values (binom.test, poisson.test);
 * - a function that shrinks from 40% to 10% of the cost of one run, the
 *   others unchanged: by share, the others are increases; per recording
 *   (absolute) they are unchanged in at least 90 of 100 pairs (5% expected
 *   with Holm's correction), and the shrunk one a decrease in every pair;
 * - the interval of the ratio of rates covers the true ratio at least 95%
 *   of the time (it is exact, so conservative).
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
	*totals = (struct hwp_profile_diff_info){ .sz = sizeof(*totals),
						  .a_samples = SAMPLES,
						  .b_samples = SAMPLES };
	if (diff_decide(rows, NR_ROWS, 0.05, false, totals))
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

static void check_rates_published(void)
{
	struct rates_result r;

	/* R: binom.test(682, 925, p = 3/4), ?binom.test's example. */
	CHECK(fabs(binomial_exact(682, 925, 0.75) - 0.38249156) < 1e-8,
	      "682 of 925: %.9f", binomial_exact(682, 925, 0.75));
	CHECK(binomial_exact(0, 10, 0.5) == 0.001953125, "0 of 10: %.10g",
	      binomial_exact(0, 10, 0.5));
	CHECK(binomial_exact(100, 200, 0.5) == 1, "100 of 200: %.10g",
	      binomial_exact(100, 200, 0.5));
	/* R: poisson.test(c(11, 6 + 8 + 7), c(800, 1083 + 1050 + 878)), its
	 * example: B 11 in 800, A 21 in 3011; rate ratio 1.971488, p 0.07967,
	 * 95% interval 0.8584264 to 4.2772659. */
	CHECK_ERR(rates_test(21, 3011, 11, 800, &r), 0);
	CHECK(fabs(r.ratio - 1.971488) < 5e-7, "ratio %.7f", r.ratio);
	CHECK(fabs(r.p_value - 0.0796686330) < 1e-9, "p %.10f", r.p_value);
	CHECK(fabs(r.ci_low - 0.8584264) < 5e-7 && fabs(r.ci_high - 4.2772659) < 5e-7,
	      "interval [%.7f, %.7f]", r.ci_low, r.ci_high);
	CHECK_ERR(rates_test(0, 1, 5, 1, &r), 0);
	CHECK(isnan(r.ratio) && isinf(r.ci_high) && r.ci_low > 0 && r.p_value < 0.07,
	      "none in A: ratio %g [%g, %g] p %g", r.ratio, r.ci_low, r.ci_high,
	      r.p_value);
	CHECK_ERR(rates_test(1, 0, 1, 1, &r), -EINVAL);
	CHECK_ERR(rates_test(1, 1, 1, NAN, &r), -EINVAL);
}

/* A Poisson count of mean @mean: exponential gaps within one unit. */
static uint64_t poisson(double mean)
{
	double t = 0;
	uint64_t k = 0;

	for (;;) {
		t -= log(1 - uniform()) / mean;
		if (t > 1)
			return k;
		k++;
	}
}

/* One run of a fixed workload a side, one sample a millisecond of each
 * row's cost: row 0 costs @a0 ms in A and @b0 in B, the others 300, 200
 * and 100 on both sides. */
static struct diff_row *run_pair(double a0, double b0, bool absolute,
				 struct hwp_profile_diff_info *t)
{
	static struct diff_row rows[4];
	static const double cost[4] = { 0, 300, 200, 100 };
	static char names[4][8];

	*t = (struct hwp_profile_diff_info){ .sz = sizeof(*t), .absolute = absolute,
					     .a_period = 1e6, .b_period = 1e6 };
	memset(rows, 0, sizeof(rows));
	for (size_t k = 0; k < 4; k++) {
		snprintf(names[k], sizeof(names[k]), "f%zu", k);
		rows[k].name = rows[k].dso = names[k];
		rows[k].info.a_samples = poisson(k ? cost[k] : a0);
		rows[k].info.b_samples = poisson(k ? cost[k] : b0);
		t->a_samples += rows[k].info.a_samples;
		t->b_samples += rows[k].info.b_samples;
	}
	return diff_decide(rows, 4, 0.05, false, t) ? NULL : rows;
}

static void check_shrink_absolute(void)
{
	int share_up = 0, quiet = 0, shrunk = 0;

	for (int i = 0; i < PAIRS; i++) {
		struct hwp_profile_diff_info t;
		struct diff_row *rows = run_pair(400, 100, false, &t);
		size_t others = 0;

		/* f1 and f2, 30% -> 43% and 20% -> 29% of 1,000 samples */
		for (size_t k = 0; rows && k < 4; k++)
			others += (!strcmp(rows[k].name, "f1") ||
				   !strcmp(rows[k].name, "f2")) &&
				  rows[k].info.verdict == HWP_VERDICT_INCREASE;
		share_up += others == 2;
		rows = run_pair(400, 100, true, &t);
		if (!rows) {
			CHECK(0, "out of memory");
			return;
		}
		CHECK(rows[0].info.a_value == 1e6 * (double)rows[0].info.a_samples,
		      "a value is samples times the period: %g", rows[0].info.a_value);
		quiet += t.nr_increase == 0 && t.nr_decrease == 1;
		shrunk += !strcmp(rows[0].name, "f0") &&
			  rows[0].info.verdict == HWP_VERDICT_DECREASE;
	}
	t_note("40%% -> 10%%: by share, the two larger others up in %d of %d pairs; absolute, only the shrunk one changed in %d",
	       share_up, PAIRS, quiet);
	CHECK(share_up >= 95, "by share, the others are increases in only %d pairs",
	      share_up);
	/* Holm's correction keeps a false change to 5% of the pairs: 90 of
	 * 100 is far beyond chance. */
	CHECK(quiet >= 90 && shrunk == PAIRS, "absolute: %d quiet, %d shrunk of %d",
	      quiet, shrunk, PAIRS);
}

static void check_rates_coverage(void)
{
	int covered = 0, trials = 2000;

	for (int t = 0; t < trials; t++) {
		struct rates_result r;

		/* A at 50 a unit for 2 units, B at 75 a unit for 1: ratio 1.5. */
		rates_test(poisson(100), 2, poisson(75), 1, &r);
		covered += r.ci_low <= 1.5 && 1.5 <= r.ci_high;
	}
	t_note("the interval of the ratio covers it in %.1f%%", 100.0 * covered / trials);
	CHECK(covered >= 0.94 * trials && covered <= 0.995 * trials, "coverage %d of %d",
	      covered, trials);
}

int main(void)
{
	t_init();
	t_run(check_published_values);
	t_run(check_same_distribution);
	t_run(check_three_points);
	t_run(check_half_to_four_and_a_half);
	t_run(check_coverage);
	t_run(check_rates_published);
	t_run(check_shrink_absolute);
	t_run(check_rates_coverage);
	return t_done();
}
