// SPDX-License-Identifier: MIT
/* A metric over runs: its value is its formula on the mean counts (a ratio
 * of means, as perf stat's), beside the distribution of its runs' values. */
#include "core/core.h"
#include "result/result.h"
#include "harness.h"

#include <math.h>

/* Over runs, a metric's value is its formula on the mean counts: 100
 * faults a run over 1 and 9 migrations is 100 / 5 = 20 faults a
 * migration, where the mean of the runs' ratios (100 and 11.1) is 55.6.
 * An event in its unit (a count times its scale) is read as a count. */
static void check_metric_of_means(void)
{
	double faults[] = { 100, 100 }, migrations[] = { 1, 9 };
	double joules[] = { 2, 6 };
	double fpm[] = { 100, 100.0 / 9 }, secs[] = { 1, 3 };
	struct hwp_metric *m = NULL, *w = NULL;
	struct series rows[] = {
		{ .kind = HWP_SERIES_EVENT, .name = "page-faults", .supported = true,
		  .values = faults },
		{ .kind = HWP_SERIES_EVENT, .name = "cpu-migrations", .supported = true,
		  .values = migrations },
		{ .kind = HWP_SERIES_EVENT, .name = "energy", .supported = true,
		  .scale = 0.5, .values = joules },
		{ .kind = HWP_SERIES_METRIC, .name = "fpm", .supported = true,
		  .values = fpm },
		{ .kind = HWP_SERIES_METRIC, .name = "w", .supported = true,
		  .expr = "energy / seconds" },
	};
	struct row row;

	CHECK_ERR(hwp_metric_parse("fpm=page-faults / cpu-migrations", &m), 0);
	CHECK_ERR(hwp_metric_parse("w=energy / seconds", &w), 0);
	rows[3].metric = m;
	rows[4].metric = w;
	row_init_in(rows, ARRAY_SIZE(rows), 3, 2, secs, &row);
	CHECK(fabs(row.value - 20) < 1e-12 &&
	      fabs(row.sum.mean - (100 + 100.0 / 9) / 2) < 1e-9,
	      "fpm over 2 runs: %g (the runs' mean %g)", row.value, row.sum.mean);
	row_init_in(rows, ARRAY_SIZE(rows), 3, 2, NULL, &row);
	CHECK(fabs(row.value - row.sum.mean) < 1e-12,
	      "without the runs' seconds: the mean");
	/* 4 J a run, 8 counts of 0.5 J, over 2 s a run */
	CHECK_NEAR(metric_of_means(rows, ARRAY_SIZE(rows), &rows[4], 2, secs), 8.0 / 2,
		   1e-12);
	/* a result read from a file: the formula from its text */
	rows[4].metric = NULL;
	CHECK_NEAR(metric_of_means(rows, ARRAY_SIZE(rows), &rows[4], 2, secs), 8.0 / 2,
		   1e-12);
	hwp_metric_free(m);
	hwp_metric_free(w);
}

int main(void)
{
	t_init();
	t_run(check_metric_of_means);
	return t_done();
}
