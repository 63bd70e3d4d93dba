// SPDX-License-Identifier: MIT
/* Summaries and distributions, against values worked out independently:
 * Student t quantiles from the published tables, and hand computations. */
#include "hwprof-internal.h"
#include "stats.h"
#include "harness.h"

static void check_t(void)
{
	/* Two-sided 95% critical values, t(0.975, df), from standard tables. */
	static const struct {
		double df, q;
	} table[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 }, { 5, 2.5706 },
		{ 9, 2.2622 }, { 10, 2.2281 }, { 19, 2.0930 }, { 29, 2.0452 }, { 120, 1.9799 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		CHECK_NEAR(hwp_t_quantile(0.975, table[i].df), table[i].q, 5e-4);
	CHECK_NEAR(hwp_t_quantile(0.995, 9), 3.2498, 5e-4);
	CHECK_NEAR(hwp_t_quantile(0.5, 7), 0, 1e-9);
	CHECK_NEAR(hwp_t_quantile(0.025, 9), -2.2622, 5e-4);
	CHECK_NEAR(hwp_t_cdf(2.2622, 9), 0.975, 1e-4);
	CHECK_NEAR(hwp_t_cdf(0, 3), 0.5, 1e-12);
	CHECK_NEAR(hwp_t_cdf(-1.0, 1), 0.25, 1e-9);	/* Cauchy: 1/2 + atan(-1)/pi */
	CHECK(isnan(hwp_t_cdf(1, 0)), "df 0 has no distribution");
	CHECK_NEAR(hwp_normal_cdf(1.959964), 0.975, 1e-6);
	CHECK_NEAR(hwp_incbeta(2, 3, 0.4), 0.5248, 1e-4);	/* 1 - sum of binomial terms */
	CHECK_NEAR(hwp_incbeta(1, 1, 0.3), 0.3, 1e-12);
}

static void check_summary(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double odd[] = { 3, NAN, 1, 2 };
	struct hwp_summary s = { .sz = sizeof(s) };

	CHECK_ERR(hwp_summarize(v, 8, &s), 0);
	CHECK(s.n == 8, "n %zu", s.n);
	CHECK_NEAR(s.mean, 5, 1e-12);
	CHECK_NEAR(s.median, 4.5, 1e-12);
	CHECK_NEAR(s.stddev, sqrt(32.0 / 7.0), 1e-12);
	CHECK_NEAR(s.cv, sqrt(32.0 / 7.0) / 5, 1e-12);
	CHECK_NEAR(s.min, 2, 0);
	CHECK_NEAR(s.max, 9, 0);
	CHECK_NEAR(s.rel_stderr, sqrt(32.0 / 7.0) / sqrt(8) / 5, 1e-12);
	/* mean +- t(0.975, 7) * s / sqrt(n), t = 2.3646 */
	CHECK_NEAR(s.ci_low, 5 - 2.3646 * sqrt(32.0 / 7.0) / sqrt(8), 1e-3);
	CHECK_NEAR(s.ci_high, 5 + 2.3646 * sqrt(32.0 / 7.0) / sqrt(8), 1e-3);

	CHECK_ERR(hwp_summarize(odd, 4, &s), 0);
	CHECK(s.n == 3, "NAN skipped: n %zu", s.n);
	CHECK_NEAR(s.median, 2, 0);
	CHECK_NEAR(s.mean, 2, 1e-12);

	CHECK_ERR(hwp_summarize(v, 1, &s), 0);
	CHECK(s.n == 1 && s.mean == 2 && isnan(s.stddev) && isnan(s.ci_low),
	      "one value: mean only");
	CHECK_ERR(hwp_summarize(NULL, 0, &s), 0);
	CHECK(s.n == 0 && isnan(s.mean), "no value: NAN");
	CHECK_ERR(hwp_summarize(v, 8, NULL), -EINVAL);

	/* Large offsets: Welford keeps the variance exact where sums of squares would not. */
	{
		const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };

		hwp_summarize(big, 4, &s);
		CHECK_NEAR(s.stddev, sqrt(30.0), 1e-6);
	}
	/* An old caller with a smaller struct gets only what it knows. */
	{
		struct {
			size_t sz;
			size_t n;
			double mean;
			double guard;
		} small = { .sz = offsetof(struct hwp_summary, median), .guard = -1 };

		CHECK_ERR(hwp_summarize(v, 8, (struct hwp_summary *)&small), 0);
		CHECK(small.n == 8 && small.mean == 5 && small.guard == -1,
		      "filled up to sz only: guard %g", small.guard);
	}
}

static void check_scaling(void)
{
	struct hwp_count c = { .value = 1000, .time_enabled = 200, .time_running = 50 };

	CHECK_NEAR(hwp_count_scaled(&c), 4000, 1e-9);
	CHECK_NEAR(hwp_count_percent_running(&c), 25, 1e-12);
	c = (struct hwp_count){ .value = 7, .time_enabled = 100, .time_running = 100 };
	CHECK_NEAR(hwp_count_scaled(&c), 7, 0);
	CHECK_NEAR(hwp_count_percent_running(&c), 100, 0);
	c = (struct hwp_count){ .value = 0, .time_enabled = 100, .time_running = 0 };
	CHECK(isnan(hwp_count_scaled(&c)), "never ran: not counted, not 0");
	CHECK_NEAR(hwp_count_percent_running(&c), 0, 0);
	c = (struct hwp_count){ 0 };
	CHECK(isnan(hwp_count_percent_running(&c)), "never enabled");
	/* Scaling happens in floating point: no overflow of value * enabled. */
	c = (struct hwp_count){ .value = UINT64_MAX / 2, .time_enabled = 3000000000ULL,
				.time_running = 1000000000ULL };
	CHECK_NEAR(hwp_count_scaled(&c) / ((double)(UINT64_MAX / 2) * 3), 1, 1e-12);
	CHECK(isnan(hwp_count_scaled(NULL)), "NULL");
}

int main(void)
{
	t_init();
	check_t();
	check_summary();
	check_scaling();
	return t_done();
}
