// SPDX-License-Identifier: MIT
/*
 * The tests behave as they claim, on simulated benchmarks with a seeded
 * generator (so every run of this test sees the same numbers):
 * - A/A: two samples of the same normal distribution (n = 10, CV 3%) are
 *   called different at alpha 0.05 in 3% to 7% of 2000 trials;
 * - a true 5% shift with CV 2% and n = 10 is found in at least 90%;
 * - the 95% interval of the difference covers the true one about 95% of
 *   the time;
 * - Holm keeps the chance of any false positive among 5 A/A rows near
 *   alpha, where 5 uncorrected tests would exceed it four times over.
 */
#include "core/core.h"
#include "harness.h"
#include "sim.h"

#include <stdint.h>

#define TRIALS 2000
#define N 10

static void sample(double *v, double mean, double cv)
{
	for (int i = 0; i < N; i++)
		v[i] = normal(mean, cv * mean);
}

/* How often @test calls samples of means 1000 and @mean_b different. */
static double rejection_rate(enum hwp_stats_test test, double mean_b, double cv,
			     double *coverage)
{
	HWP_OPTS(hwp_stats_test_opts, o, .test = test);
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	double a[N], b[N];
	int rejected = 0, covered = 0;

	for (int t = 0; t < TRIALS; t++) {
		sample(a, 1000, cv);
		sample(b, mean_b, cv);
		if (hwp_stats_test(a, N, b, N, &o, &r)) {
			CHECK(0, "trial %d: %s", t, hwp_errmsg());
			return NAN;
		}
		rejected += r.p_value < 0.05;
		covered += r.ci_low <= mean_b - 1000 && mean_b - 1000 <= r.ci_high;
	}
	if (coverage)
		*coverage = (double)covered / TRIALS;
	return (double)rejected / TRIALS;
}

static void check_welch(void)
{
	double coverage, fp, power;

	fp = rejection_rate(HWP_TEST_WELCH, 1000, 0.03, &coverage);
	t_note("Welch A/A: %.2f%% false positives, 95%% interval covers %.2f%%", 100 * fp,
	       100 * coverage);
	CHECK(fp >= 0.03 && fp <= 0.07, "A/A false positives %.4f", fp);
	CHECK(coverage >= 0.93 && coverage <= 0.97, "coverage %.4f", coverage);
	power = rejection_rate(HWP_TEST_WELCH, 1050, 0.02, &coverage);
	t_note("Welch 5%% shift: found in %.2f%%, covered %.2f%%", 100 * power,
	       100 * coverage);
	CHECK(power >= 0.90, "5%% shift found in %.4f", power);
	CHECK(coverage >= 0.93 && coverage <= 0.97, "coverage %.4f", coverage);
}

static void check_mann_whitney(void)
{
	double fp, power;

	/* U moves in steps: at n = 10 the exact test rejects 4.3% under the
	 * null at most, a little below alpha by design. */
	fp = rejection_rate(HWP_TEST_MANN_WHITNEY, 1000, 0.03, NULL);
	t_note("Mann-Whitney A/A: %.2f%% false positives", 100 * fp);
	CHECK(fp >= 0.03 && fp <= 0.07, "A/A false positives %.4f", fp);
	power = rejection_rate(HWP_TEST_MANN_WHITNEY, 1050, 0.02, NULL);
	t_note("Mann-Whitney 5%% shift: found in %.2f%%", 100 * power);
	CHECK(power >= 0.90, "5%% shift found in %.4f", power);
}

static void check_holm(void)
{
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	int any_raw = 0, any_holm = 0;

	for (int t = 0; t < TRIALS; t++) {
		double p[5], adj[5], a[N], b[N];
		bool raw = false, holm = false;

		for (int k = 0; k < 5; k++) {
			sample(a, 1000, 0.03);
			sample(b, 1000, 0.03);
			hwp_stats_test(a, N, b, N, NULL, &r);
			p[k] = r.p_value;
		}
		CHECK_ERR(hwp_stats_holm(p, 5, adj), 0);
		for (int k = 0; k < 5; k++) {
			raw |= p[k] < 0.05;
			holm |= adj[k] < 0.05;
		}
		any_raw += raw;
		any_holm += holm;
	}
	t_note("5 A/A rows: any false positive in %.2f%% uncorrected, %.2f%% with Holm",
	       100.0 * any_raw / TRIALS, 100.0 * any_holm / TRIALS);
	/* 1 - 0.95^5 = 22.6% uncorrected; Holm keeps it at alpha or below. */
	CHECK(any_raw >= 0.18 * TRIALS, "uncorrected: %d", any_raw);
	CHECK(any_holm >= 0.03 * TRIALS && any_holm <= 0.07 * TRIALS, "Holm: %d",
	      any_holm);
}

int main(void)
{
	t_init();
	t_run(check_welch);
	t_run(check_mann_whitney);
	t_run(check_holm);
	return t_done();
}
