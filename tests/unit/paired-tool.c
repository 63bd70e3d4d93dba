// SPDX-License-Identifier: MIT
/* The paired tests of lib/stats/paired.c, for test_paired_scipy.py to check
 * against scipy: each line of stdin is "t N a1..aN b1..bN" (paired t-test)
 * or "w N ..." (Wilcoxon's signed-rank test); each line of stdout is
 * "statistic df p diff ci_low ci_high exact pairs", every number to 17
 * digits ("nan" where there is none). */
#include "core/core.h"
#include "stats/stats.h"

#include <stdio.h>
#include <stdlib.h>

static int one(char kind, size_t n)
{
	struct hwp_stats_test_result r = { .sz = sizeof(r) };
	double *v = calloc(2 * n + 1, sizeof(*v));
	int err;

	if (!v)
		return 1;
	for (size_t i = 0; i < 2 * n; i++)
		if (scanf("%lf", &v[i]) != 1) {
			free(v);
			return 1;
		}
	err = paired_test(v, v + n, n,
			  kind == 'w' ? HWP_TEST_MANN_WHITNEY : HWP_TEST_WELCH, 0.95, &r);
	free(v);
	if (err) {
		printf("error %d\n", err);
		return 0;
	}
	printf("%.17g %.17g %.17g %.17g %.17g %.17g %d %zu\n", r.statistic, r.df,
	       r.p_value, r.diff, r.ci_low, r.ci_high, r.exact, r.na);
	return 0;
}

int main(void)
{
	char kind;
	size_t n;

	while (scanf(" %c %zu", &kind, &n) == 2)
		if (one(kind, n))
			return 1;
	return fflush(stdout) ? 1 : 0;
}
