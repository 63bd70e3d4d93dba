// SPDX-License-Identifier: MIT
/* Summaries, distributions and tests, against values worked out
 * independently: Student t quantiles from the published tables, textbook
 * examples of Welch's t-test and Mann-Whitney U with their published
 * p-values, and hand computations. */
#include "core/core.h"
#include "stats/stats.h"
#include "harness.h"

static void check_t(void)
{
	/* Two-sided 95% critical values, t(0.975, df), from standard tables. */
	static const struct {
		double df, q;
	} table[] = {
		{ 1, 12.7062 }, { 2, 4.3027 }, { 3, 3.1824 }, { 4, 2.7764 },
		{ 5, 2.5706 }, { 9, 2.2622 }, { 10, 2.2281 }, { 19, 2.0930 },
		{ 29, 2.0452 }, { 120, 1.9799 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		CHECK_NEAR(t_quantile(0.975, table[i].df), table[i].q, 5e-4);
	CHECK_NEAR(t_quantile(0.995, 9), 3.2498, 5e-4);
	/* One-sided 95%, same tables. */
	CHECK_NEAR(t_quantile(0.95, 5), 2.0150, 5e-4);
	CHECK_NEAR(t_quantile(0.95, 10), 1.8125, 5e-4);
	CHECK_NEAR(t_quantile(0.95, 30), 1.6973, 5e-4);
	/* A fractional df, as Welch's test makes: between its neighbours. */
	CHECK(t_quantile(0.975, 17.776) < t_quantile(0.975, 17) &&
	      t_quantile(0.975, 17.776) > t_quantile(0.975, 18), "df 17.776");
	CHECK_NEAR(t_quantile(0.5, 7), 0, 1e-9);
	CHECK_NEAR(t_quantile(0.025, 9), -2.2622, 5e-4);
	CHECK_NEAR(t_cdf(2.2622, 9), 0.975, 1e-4);
	CHECK_NEAR(t_cdf(0, 3), 0.5, 1e-12);
	CHECK_NEAR(t_cdf(-1.0, 1), 0.25, 1e-9);	/* Cauchy: 1/2 + atan(-1)/pi */
	CHECK(isnan(t_cdf(1, 0)), "df 0 has no distribution");
	CHECK_NEAR(normal_cdf(1.959964), 0.975, 1e-6);
	CHECK_NEAR(incbeta(2, 3, 0.4), 0.5248, 1e-4);	/* 1 - sum of binomial terms */
	CHECK_NEAR(incbeta(1, 1, 0.3), 0.3, 1e-12);
}

static void check_summary(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double odd[] = { 3, NAN, 1, 2 };
	struct hwp_stats_summary s = { .sz = sizeof(s) };

	CHECK_ERR(hwp_stats_summarize(v, 8, &s), 0);
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

	CHECK_ERR(hwp_stats_summarize(odd, 4, &s), 0);
	CHECK(s.n == 3, "NAN skipped: n %zu", s.n);
	CHECK_NEAR(s.median, 2, 0);
	CHECK_NEAR(s.mean, 2, 1e-12);

	CHECK_ERR(hwp_stats_summarize(v, 1, &s), 0);
	CHECK(s.n == 1 && s.mean == 2 && isnan(s.stddev) && isnan(s.ci_low),
	      "one value: mean only");
	CHECK_ERR(hwp_stats_summarize(NULL, 0, &s), 0);
	CHECK(s.n == 0 && isnan(s.mean), "no value: NAN");
	CHECK_ERR(hwp_stats_summarize(v, 8, NULL), -EINVAL);

	/* Large offsets: Welford keeps the variance exact where sums of squares
	 * would not. */
	{
		const double big[] = { 1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16 };

		hwp_stats_summarize(big, 4, &s);
		CHECK_NEAR(s.stddev, sqrt(30.0), 1e-6);
	}
	/* An old caller with a smaller struct gets only what it knows. */
	{
		struct {
			size_t sz;
			size_t n;
			double mean;
			double guard;
		} small = { .sz = offsetof(struct hwp_stats_summary, median),
			    .guard = -1 };

		CHECK_ERR(hwp_stats_summarize(v, 8,
					      (struct hwp_stats_summary *)&small), 0);
		CHECK(small.n == 8 && small.mean == 5 && small.guard == -1,
		      "filled up to sz only: guard %g", small.guard);
	}
}

/*
 * Student's sleep data (Cushny and Peebles, as in Student, Biometrika 6,
 * 1908): extra hours of sleep with two drugs, ten patients each. R's
 * documented example t.test(extra ~ group, data = sleep) publishes Welch's
 * t = -1.8608, df = 17.776, p-value = 0.07939 and the 95% interval of
 * mean(1) - mean(2), (-3.3654832, 0.2054832); we test b - a, so the signs
 * turn. wilcox.test(extra ~ group, data = sleep) publishes W = 25.5,
 * p-value = 0.06933 from the normal approximation with tie and continuity
 * corrections (the data have ties); W counts pairs where group 1 is larger,
 * so our U of b is 10 * 10 - 25.5.
 */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };

static void check_welch(void)
{
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	HWP_OPTS(hwp_stats_test_opts, o90, .confidence = 0.90);
	/* Rosetta Code's "Welch's t-test" task: p = 0.010751 (R agrees). */
	const double x[] = { 3.0, 4.0, 1.0, 2.1 }, y[] = { 490.2, 340.0, 433.9 };
	const double same[] = { 5, 5, 5 }, other[] = { 6, 6, 6, 6 }, one[] = { 1, NAN };

	CHECK_ERR(hwp_stats_test(sleep1, 10, sleep2, 10, NULL, &r), 0);
	CHECK(r.test == HWP_TEST_WELCH && r.na == 10 && r.nb == 10 && !r.exact,
	      "Welch, 10 + 10");
	CHECK_NEAR(r.diff, 1.58, 1e-12);
	CHECK_NEAR(r.statistic, 1.8608, 5e-5);
	CHECK_NEAR(r.df, 17.776, 5e-4);
	CHECK_NEAR(r.p_value, 0.07939, 5e-6);
	CHECK_NEAR(r.ci_low, -0.2054832, 5e-7);
	CHECK_NEAR(r.ci_high, 3.3654832, 5e-7);
	/* The other way round: the same p, the difference negated. */
	CHECK_ERR(hwp_stats_test(sleep2, 10, sleep1, 10, NULL, &r), 0);
	CHECK_NEAR(r.p_value, 0.07939, 5e-6);
	CHECK_NEAR(r.ci_low, -3.3654832, 5e-7);
	/* A 90% interval is narrower: t(0.95, 17.776) instead of t(0.975, ...). */
	CHECK_ERR(hwp_stats_test(sleep1, 10, sleep2, 10, &o90, &r), 0);
	CHECK(r.ci_low > -0.2054832 && r.ci_high < 3.3654832, "90%% narrower: [%g, %g]",
	      r.ci_low, r.ci_high);
	/* The same standard error as the published 95% interval's. */
	CHECK_NEAR(r.ci_high - r.diff,
		   (3.3654832 + 0.2054832) / 2 * t_quantile(0.95, 17.776) /
			   t_quantile(0.975, 17.776), 1e-5);

	CHECK_ERR(hwp_stats_test(x, 4, y, 3, NULL, &r), 0);
	CHECK_NEAR(r.p_value, 0.010751, 5e-6);

	/* No spread: equal means are not different, unequal ones are. */
	CHECK_ERR(hwp_stats_test(same, 3, same, 3, NULL, &r), 0);
	CHECK(r.p_value == 1 && r.diff == 0, "identical: p %g", r.p_value);
	CHECK_ERR(hwp_stats_test(same, 3, other, 4, NULL, &r), 0);
	CHECK(r.p_value == 0 && r.diff == 1 && r.ci_low == 1 && r.ci_high == 1,
	      "constant and different: p %g", r.p_value);

	CHECK_ERR(hwp_stats_test(one, 2, same, 3, NULL, &r), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "first sample has 1 value:"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_stats_test(same, 3, one, 1, NULL, &r), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "second sample"), "%s", hwp_errmsg());
	o90.confidence = 1.5;
	CHECK_ERR(hwp_stats_test(same, 3, other, 4, &o90, &r), -EINVAL);
	CHECK_ERR(hwp_stats_test(same, 3, other, 4, NULL, NULL), -EINVAL);
}

static void check_mann_whitney(void)
{
	HWP_OPTS(hwp_stats_test_opts, mw, .test = HWP_TEST_MANN_WHITNEY);
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	/*
	 * Hollander and Wolfe, Nonparametric Statistical Methods (1973),
	 * Table 4.1: permeability of the human chorioamnion at term (x) and
	 * at 12-26 weeks (y). R's documented example wilcox.test(x, y,
	 * alternative = "g") publishes W = 35, p-value = 0.1272 (exact, no
	 * ties), so two-sided 0.2544; U of y is 50 - 35.
	 */
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	/* By hand: U of b is 4 in one order of C(4, 2) = 6; two-sided 2/6. */
	const double lo[] = { 1, 2 }, hi[] = { 3, 4 };
	const double all_same[] = { 7, 7, 7 };

	CHECK_ERR(hwp_stats_test(x, 10, y, 5, &mw, &r), 0);
	CHECK(r.test == HWP_TEST_MANN_WHITNEY && r.exact, "exact without ties");
	CHECK_NEAR(r.statistic, 15, 0);
	CHECK_NEAR(r.p_value, 0.2544, 5e-5);
	CHECK(isnan(r.df), "no df: %g", r.df);
	CHECK_NEAR(r.diff, (0.88 + 0.90 + 0.74 + 1.21 + 1.15) / 5 - 13.13 / 10, 1e-12);

	CHECK_ERR(hwp_stats_test(sleep1, 10, sleep2, 10, &mw, &r), 0);
	CHECK(!r.exact, "ties: the normal approximation");
	CHECK_NEAR(r.statistic, 74.5, 1e-12);
	CHECK_NEAR(r.p_value, 0.06933, 5e-6);

	CHECK_ERR(hwp_stats_test(lo, 2, hi, 2, &mw, &r), 0);
	CHECK(r.exact && r.statistic == 4, "U %g", r.statistic);
	CHECK_NEAR(r.p_value, 1.0 / 3, 1e-12);
	CHECK_ERR(hwp_stats_test(hi, 2, lo, 2, &mw, &r), 0);
	CHECK(r.statistic == 0, "U %g", r.statistic);
	CHECK_NEAR(r.p_value, 1.0 / 3, 1e-12);
	/* Everything tied: nothing to tell apart. */
	CHECK_ERR(hwp_stats_test(all_same, 3, all_same, 3, &mw, &r), 0);
	CHECK(r.p_value == 1 && !r.exact, "all tied: p %g", r.p_value);
	/* 60 a side is past the exact range: approximate, and still right. */
	{
		double a[60], b[60];

		for (int i = 0; i < 60; i++) {
			a[i] = i;
			b[i] = i + 30.5;
		}
		CHECK_ERR(hwp_stats_test(a, 60, b, 60, &mw, &r), 0);
		CHECK(!r.exact && r.p_value < 1e-4, "shifted by half: p %g", r.p_value);
	}
	mw.test = 7;
	CHECK_ERR(hwp_stats_test(lo, 2, hi, 2, &mw, &r), -EINVAL);
}

static void check_holm(void)
{
	/* By hand: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1 is 0.02 0.03
	 * 0.06 0.04, and the step-down keeps the last at 0.06. */
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double with_nan[] = { 0.02, NAN, 0.5 };
	double big[] = { 0.6, 0.9 };

	CHECK_ERR(hwp_stats_holm(p, 4, adj), 0);
	CHECK_NEAR(adj[0], 0.03, 1e-15);
	CHECK_NEAR(adj[1], 0.06, 1e-15);
	CHECK_NEAR(adj[2], 0.06, 1e-15);
	CHECK_NEAR(adj[3], 0.02, 1e-15);
	/* A NAN is no test: a family of two. In place. */
	CHECK_ERR(hwp_stats_holm(with_nan, 3, with_nan), 0);
	CHECK_NEAR(with_nan[0], 0.04, 1e-15);
	CHECK(isnan(with_nan[1]), "NAN stays");
	CHECK_NEAR(with_nan[2], 0.5, 1e-15);
	CHECK_ERR(hwp_stats_holm(big, 2, big), 0);
	CHECK(big[0] == 1 && big[1] == 1, "capped at 1: %g %g", big[0], big[1]);
	CHECK_ERR(hwp_stats_holm(p, 1, adj), 0);
	CHECK(adj[0] == 0.01, "one test: unchanged");
	CHECK_ERR(hwp_stats_holm(NULL, 0, NULL), 0);
	CHECK_ERR(hwp_stats_holm(NULL, 2, adj), -EINVAL);
}

static void check_outliers(void)
{
	/* median 11, |deviations| 1 0 1 1 0 1 39, MAD 1: 50 scores 0.6745 * 39 */
	const double v[] = { 10, 11, 10, 12, 11, 10, 50 };
	/* MAD 0: mean absolute deviation 4/7, 9 scores 4 / (1.2533 * 4/7) = 5.6 */
	const double flat[] = { 5, 5, 5, 5, 5, 5, 9 };
	const double counts[] = { 10052, 10052, 10052, 10052, 10053, 10052 };
	/* median 1219.5, MAD 0.5: 1228 scores 11.5 but is 0.7% off, so not far;
	 * 1250 scores 41 and is 2.5% off. */
	const double wobble[] = { 1219, 1220, 1218, 1219, 1228, 1219, 1250, 1220 };
	const double zeros[] = { 0, 0, 0, 0, 0, 3 };
	const double few[] = { 1, 100 };
	bool f[8];
	size_t nr;

	CHECK_ERR(hwp_stats_outliers_mad(v, 7, 0, f, &nr), 0);
	CHECK(nr == 1 && f[6] && !f[0] && !f[3], "one outlier: %zu", nr);
	/* 0.6745 * 39 = 26.3: a threshold above it flags nothing. */
	CHECK_ERR(hwp_stats_outliers_mad(v, 7, 27, f, &nr), 0);
	CHECK(nr == 0 && !f[6], "threshold 27: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(v, 7, 26, NULL, &nr), 0);
	CHECK(nr == 1, "threshold 26: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(flat, 7, 0, f, &nr), 0);
	CHECK(nr == 1 && f[6], "MAD 0: mean deviation: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(counts, 6, 0, f, &nr), 0);
	CHECK(nr == 0, "a unit in ten thousand is noise: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(wobble, 8, 0, f, &nr), 0);
	CHECK(nr == 1 && f[6] && !f[4], "within 1%% is not far: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(zeros, 6, 0, f, &nr), 0);
	CHECK(nr == 1 && f[5], "3 among zeros: %zu", nr);
	CHECK_ERR(hwp_stats_outliers_mad(few, 2, 0, f, &nr), 0);
	CHECK(nr == 0, "two values: no outlier");
	CHECK_ERR(hwp_stats_outliers_mad(v, 7, -1, f, &nr), -EINVAL);
}

static void check_histogram(void)
{
	const double v[] = { 1, 2, 2, 3, 3, 3, 4, 4, 4, NAN, 4 };
	const double eq[] = { 5, 5 };
	size_t bins[4];
	double lo, width;

	/* width 0.75: [1, 1.75) [1.75, 2.5) [2.5, 3.25) [3.25, 4] */
	CHECK_ERR(hwp_stats_histogram(v, 11, bins, 4, &lo, &width), 0);
	CHECK(lo == 1 && width == 0.75, "lo %g width %g", lo, width);
	CHECK(bins[0] == 1 && bins[1] == 2 && bins[2] == 3 && bins[3] == 4,
	      "bins %zu %zu %zu %zu", bins[0], bins[1], bins[2], bins[3]);
	CHECK_ERR(hwp_stats_histogram(eq, 2, bins, 4, &lo, &width), 0);
	CHECK(lo == 5 && width == 0 && bins[0] == 2 && bins[3] == 0, "all equal");
	CHECK_ERR(hwp_stats_histogram(NULL, 0, bins, 4, &lo, &width), 0);
	CHECK(isnan(lo) && bins[0] == 0, "no value");
	CHECK_ERR(hwp_stats_histogram(v, 11, bins, 0, &lo, &width), -EINVAL);
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

/* Spearman's rho by hand: ranks of y with a tie (3.5, 3.5); p from the
 * closed form of Student's t with 3 degrees of freedom. */
static void check_spearman(void)
{
	static const double x[] = { 1, 2, 3, 4, 5, NAN }, y[] = { 5, 6, 7, 8, 7, 100 };
	static const double flat[] = { 2, 2, 2, 2, 2 };
	double rho, p, t, cdf;

	CHECK_ERR(hwp_stats_spearman(x, y, 6, &rho, &p), 0);
	CHECK_NEAR(rho, 8 / sqrt(95), 1e-12);
	t = rho * sqrt(3 / (1 - rho * rho));
	cdf = 0.5 + (t / sqrt(3) / (1 + t * t / 3) + atan(t / sqrt(3))) / M_PI;
	CHECK_NEAR(p, 2 * (1 - cdf), 1e-9);
	CHECK_ERR(hwp_stats_spearman(y, x, 5, &rho, &p), 0);
	CHECK_NEAR(rho, 8 / sqrt(95), 1e-12);
	CHECK_ERR(hwp_stats_spearman(x, x, 5, &rho, &p), 0);
	CHECK(rho == 1 && p == 0, "identical ranks: %g %g", rho, p);
	CHECK_ERR(hwp_stats_spearman(x, flat, 5, &rho, &p), -HWP_ERR_UNDEFINED);
	CHECK(isnan(rho) && isnan(p), "undefined is NAN");
	CHECK_ERR(hwp_stats_spearman(x, y, 2, &rho, &p), -HWP_ERR_UNDEFINED);
	CHECK_ERR(hwp_stats_spearman(x, y, 5, NULL, &p), -EINVAL);
}

int main(void)
{
	t_init();
	t_run(check_t);
	t_run(check_spearman);
	t_run(check_summary);
	t_run(check_scaling);
	t_run(check_welch);
	t_run(check_mann_whitney);
	t_run(check_holm);
	t_run(check_outliers);
	t_run(check_histogram);
	return t_done();
}
