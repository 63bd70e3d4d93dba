// SPDX-License-Identifier: MIT
/*
 * What pairing runs measured in turn buys, on a simulated machine (a seeded
 * generator: every run sees the same numbers) whose cost grows by 1% a run,
 * compounded, over n = 10 or 20 runs of each of A and B in ABBA order (20
 * or 40 runs, +21% or +48% from first to last), noise CV 2%, alpha 0.05,
 * 2000 trials a cell:
 * - A/A: each test calls the same command different in at most alpha of
 *   the trials (all below it: the drift widens each side's spread, and
 *   that of the pairs' differences, whose sign alternates A B, B A);
 * - a real 3% or 5% difference is found in most trials by the paired
 *   t-test and Wilcoxon's signed-rank test (nearly all at n = 20), where
 *   Welch's test and Mann-Whitney's, on the same runs, find few.
 * The rates are printed (BENCHMARKS.md quotes them).
 */
#include "core/core.h"
#include "stats/stats.h"
#include "harness.h"
#include "sim.h"

#define TRIALS 2000
#define N_MAX 20

enum kind { WELCH, MANN_WHITNEY, PAIRED_T, WILCOXON };

static const char *const kind_name[] = {
	[WELCH] = "Welch", [MANN_WHITNEY] = "Mann-Whitney",
	[PAIRED_T] = "paired t", [WILCOXON] = "Wilcoxon signed-rank",
};

/* A's and B's runs (B @shift costlier) of one trial; run k of each side is
 * in block k, as hwprof stat runs them. */
static void trial(size_t n, double per_run, double shift, double *a, double *b)
{
	size_t o[2 * N_MAX], na = 0, nb = 0;

	hwp_stats_order(HWP_ORDER_ABBA, 2, n, 0, o);
	for (size_t i = 0; i < 2 * n; i++) {
		double cost = 1000 * pow(1 + per_run, (double)i);
		double v = normal(cost * (o[i] ? 1 + shift : 1), 0.02 * cost);

		if (o[i])
			b[nb++] = v;
		else
			a[na++] = v;
	}
}

static bool differs(enum kind k, size_t n, const double *a, const double *b)
{
	enum hwp_stats_test test = k == MANN_WHITNEY || k == WILCOXON ?
				   HWP_TEST_MANN_WHITNEY : HWP_TEST_WELCH;
	HWP_OPTS(hwp_stats_test_opts, o, .test = test);
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	int err = k >= PAIRED_T ? paired_test(a, b, n, test, 0.95, &r) :
				  hwp_stats_test(a, n, b, n, &o, &r);

	CHECK(!err, "%s: %d", kind_name[k], err);
	return !err && r.p_value < 0.05;
}

/* The share of the trials in which each test calls A and B different. */
static void rates(size_t n, double per_run, double shift, double *out)
{
	double a[N_MAX], b[N_MAX];
	int found[4] = { 0 };

	rng_state = 0x2545f4914f6cdd1dULL;
	for (int t = 0; t < TRIALS; t++) {
		trial(n, per_run, shift, a, b);
		for (int k = WELCH; k <= WILCOXON; k++)
			found[k] += differs(k, n, a, b);
	}
	for (int k = WELCH; k <= WILCOXON; k++)
		out[k] = (double)found[k] / TRIALS;
}

/* n runs of each: the rates, printed, and what they must be. */
static void check_runs(size_t n, double min_power3)
{
	double aa[4], p3[4], p5[4], steady[4];

	rates(n, 0.01, 0, aa);
	rates(n, 0.01, 0.03, p3);
	rates(n, 0.01, 0.05, p5);
	rates(n, 0, 0.03, steady);
	for (int k = WELCH; k <= WILCOXON; k++)
		t_note("n %zu, %-20s A/A %5.1f%%, 3%% found %5.1f%%, 5%% found %5.1f%% (drift 1%%/run); 3%% found %5.1f%% (no drift)",
		       n, kind_name[k], 100 * aa[k], 100 * p3[k], 100 * p5[k],
		       100 * steady[k]);
	for (int k = WELCH; k <= WILCOXON; k++)
		CHECK(aa[k] <= 0.05, "%s: A/A called different in %.4f", kind_name[k],
		      aa[k]);
	for (int k = PAIRED_T; k <= WILCOXON; k++)
		CHECK(p3[k] >= min_power3 && p5[k] >= p3[k], "%s: power %.4f %.4f",
		      kind_name[k], p3[k], p5[k]);
	CHECK(p3[WELCH] < 0.2 && p3[MANN_WHITNEY] < 0.2 && p5[WELCH] < 0.5,
	      "unpaired: 3%% found in %.4f %.4f", p3[WELCH], p3[MANN_WHITNEY]);
}

static void check_drift(void)
{
	check_runs(10, 0.6);
	check_runs(20, 0.95);
}

int main(void)
{
	t_init();
	t_run(check_drift);
	return t_done();
}
