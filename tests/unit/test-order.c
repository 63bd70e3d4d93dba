// SPDX-License-Identifier: MIT
/*
 * hwp_stats_order(): the orders themselves, and what they are for, on a
 * simulated machine (a seeded generator: every run sees the same numbers)
 * whose speed drifts linearly by 10% over the whole experiment, n = 10 runs
 * of each of A and B, noise CV 2%, Welch's test at alpha 0.05:
 * - A/A: run in two blocks, the drift is called a difference in most
 *   trials; interleaved (abba, random), at most alpha of them;
 * - a real 5% difference is found in at least 90% of trials interleaved,
 *   without drift and with it.
 * The rates are printed (BENCHMARKS.md quotes them).
 */
#include "core/core.h"
#include "harness.h"
#include "sim.h"

#define TRIALS 2000
#define N 10

static void test_abba(void)
{
	size_t o[12];
	static const size_t want[12] = { 0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0 };

	CHECK_ERR(hwp_stats_order(HWP_ORDER_ABBA, 3, 4, 0, o), 0);
	CHECK(!memcmp(o, want, sizeof(want)), "A B C C B A A B C C B A: %zu %zu %zu %zu",
	      o[0], o[3], o[4], o[5]);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_SEQUENTIAL, 3, 4, 0, o), 0);
	for (size_t i = 0; i < 12; i++)
		CHECK(o[i] == i / 4, "sequential: run %zu is variant %zu", i, o[i]);
	CHECK(!strcmp(hwp_enum_name(HWP_ENUM_ORDER, HWP_ORDER_RANDOM), "random"), "name");
	CHECK(hwp_enum_name(HWP_ENUM_ORDER, (enum hwp_order)7) == NULL, "no such order");
	CHECK_ERR(hwp_stats_order((enum hwp_order)7, 2, 2, 0, o), -EINVAL);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_ABBA, 0, 2, 0, o), -EINVAL);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_ABBA, 2, 0, 0, o), -EINVAL);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_ABBA, 2, 2, 0, NULL), -EINVAL);
}

static void test_random(void)
{
	enum { K = 4, R = 200 };
	static size_t a[K * R], b[K * R], c[K * R];
	size_t first[K] = { 0 };
	bool differ = false;

	CHECK_ERR(hwp_stats_order(HWP_ORDER_RANDOM, K, R, 42, a), 0);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_RANDOM, K, R, 42, b), 0);
	CHECK_ERR(hwp_stats_order(HWP_ORDER_RANDOM, K, R, 43, c), 0);
	CHECK(!memcmp(a, b, sizeof(a)), "the same seed, the same order");
	for (size_t i = 0; i < K * R; i++)
		differ |= a[i] != c[i];
	CHECK(differ, "another seed, another order");
	for (size_t blk = 0; blk < R; blk++) {
		unsigned seen = 0;

		for (size_t v = 0; v < K; v++)
			seen |= 1u << a[blk * K + v];
		CHECK(seen == (1u << K) - 1, "block %zu has every variant once", blk);
		first[a[blk * K]]++;
	}
	/* Each variant leads about a quarter of the blocks (binomial sd ~6). */
	for (size_t v = 0; v < K; v++)
		CHECK(first[v] > 25 && first[v] < 75,
		      "variant %zu first in %zu of %d blocks", v, first[v], R);
}

/* The share of TRIALS in which A and B (B @shift times slower) are called
 * different, on a machine that slows by @drift over the 2N runs. */
static double rejections(enum hwp_order order, double drift, double shift)
{
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	size_t o[2 * N];
	double a[N], b[N];
	int rejected = 0;

	for (int t = 0; t < TRIALS; t++) {
		size_t na = 0, nb = 0;

		if (hwp_stats_order(order, 2, N, (uint64_t)t, o))
			return NAN;
		for (size_t i = 0; i < 2 * N; i++) {
			double speed = 1000 * (1 + drift * (double)i / (2 * N - 1));
			double v = normal(speed * (o[i] ? 1 + shift : 1), 0.02 * speed);

			if (o[i])
				b[nb++] = v;
			else
				a[na++] = v;
		}
		if (hwp_stats_test(a, N, b, N, NULL, &r))
			return NAN;
		rejected += r.p_value < 0.05;
	}
	return (double)rejected / TRIALS;
}

static void test_drift(void)
{
	double seq = rejections(HWP_ORDER_SEQUENTIAL, 0.10, 0);
	double abba = rejections(HWP_ORDER_ABBA, 0.10, 0);
	double rnd = rejections(HWP_ORDER_RANDOM, 0.10, 0);
	double p_abba = rejections(HWP_ORDER_ABBA, 0, 0.05);
	double p_rnd = rejections(HWP_ORDER_RANDOM, 0, 0.05);
	double pd_abba = rejections(HWP_ORDER_ABBA, 0.10, 0.05);
	double pd_rnd = rejections(HWP_ORDER_RANDOM, 0.10, 0.05);

	t_note("A/A, drift 10%%: false positives sequential %.1f%%, abba %.1f%%, random %.1f%%",
	       100 * seq, 100 * abba, 100 * rnd);
	t_note("5%% difference, CV 2%%, n = 10: found abba %.1f%%, random %.1f%% (no drift); "
	       "abba %.1f%%, random %.1f%% (drift 10%%)", 100 * p_abba, 100 * p_rnd,
	       100 * pd_abba, 100 * pd_rnd);
	CHECK(seq > 0.5, "two blocks call the drift a difference: %.4f", seq);
	CHECK(abba <= 0.05 && rnd <= 0.06, "interleaved: %.4f %.4f", abba, rnd);
	CHECK(p_abba >= 0.9 && p_rnd >= 0.9, "power %.4f %.4f", p_abba, p_rnd);
	CHECK(pd_abba >= 0.9, "power under drift %.4f", pd_abba);
}

int main(void)
{
	t_init();
	t_run(test_abba);
	t_run(test_random);
	t_run(test_drift);
	return t_done();
}
