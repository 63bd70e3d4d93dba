// SPDX-License-Identifier: MIT
/* A CPU-bound program that times itself: the recording overhead is how
 * much slower its own loop runs under a profiler, which the profiler's
 * start, its stop and its writing of the file do not pad.
 * Usage: selftimed ITERATIONS FILE (appends the loop's seconds to FILE) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	FILE *f = argc > 2 ? fopen(argv[2], "a") : stdout;
	unsigned long x = 1;
	double t0, t1;

	if (!f)
		return 1;
	t0 = now();
	for (long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		sink = x >> 33;
	}
	t1 = now();
	fprintf(f, "%.6f\n", t1 - t0);
	return fclose(f) ? 1 : 0;
}
