// SPDX-License-Identifier: MIT
/* The kernel's symbols loaded both ways, alternating, in one process:
 * parsed from /proc/kallsyms (the kernel formats it for the read), and
 * mapped from the cache of them (lib/sample/kallsyms.c), with the key
 * that decides whether the cache may be used timed alone: wall and CPU
 * time (the process's, user and system: on a loaded machine the wall time
 * is mostly waiting for a CPU). Median of the rounds.
 * Usage: bench-kallsyms ROUNDS (XDG_CACHE_HOME: where the cache is) */
#include "sample/sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 0;
	double *t[3], *c[2];
	struct ksyms k;
	char key[256];
	size_t nr = 0;

	if (rounds < 1) {
		fprintf(stderr, "usage: bench-kallsyms ROUNDS\n");
		return 2;
	}
	if (ksyms_cache_key(key, sizeof(key))) {
		fprintf(stderr, "bench-kallsyms: no cache here (no build-id, hidden addresses, or no right to list BPF programs)\n");
		return 1;
	}
	ksyms_load(&k, "/proc/kallsyms", true);	/* writes the cache */
	ksyms_release(&k);
	for (int i = 0; i < 3; i++)
		t[i] = calloc((size_t)rounds, sizeof(double));
	for (int i = 0; i < 2; i++)
		c[i] = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		double c0 = cpu_ms(), t0 = now_seconds(), t1, t2, t3, c1, c2;

		ksyms_load(&k, "/proc/kallsyms", false);
		t1 = now_seconds();
		nr = k.nr;
		ksyms_release(&k);
		c1 = cpu_ms();
		t2 = now_seconds();
		ksyms_load(&k, "/proc/kallsyms", true);
		t3 = now_seconds();
		c2 = cpu_ms();
		c[0][r] = c1 - c0;
		c[1][r] = c2 - c1;
		if (!k.cached || k.nr != nr) {
			fprintf(stderr, "bench-kallsyms: the cache was not used\n");
			return 1;
		}
		ksyms_release(&k);
		t[0][r] = (t1 - t0) * 1e3;
		t[1][r] = (t3 - t2) * 1e3;
		t0 = now_seconds();
		ksyms_cache_key(key, sizeof(key));
		t[2][r] = (now_seconds() - t0) * 1e3;
	}
	for (int i = 0; i < 3; i++)
		qsort(t[i], (size_t)rounds, sizeof(double), cmp);
	for (int i = 0; i < 2; i++)
		qsort(c[i], (size_t)rounds, sizeof(double), cmp);
	printf("# %d rounds, alternating; median wall and CPU time; %zu text symbols\n",
	       rounds, nr);
	printf("%8.2f ms %8.2f ms CPU  parsed from /proc/kallsyms\n", t[0][rounds / 2],
	       c[0][rounds / 2]);
	printf("%8.2f ms %8.2f ms CPU  from the cache (the key included)\n",
	       t[1][rounds / 2], c[1][rounds / 2]);
	printf("%8.2f ms               the key alone\n", t[2][rounds / 2]);
	printf("ratio cache / parse: %.3f wall, %.3f CPU\n",
	       t[1][rounds / 2] / t[0][rounds / 2], c[1][rounds / 2] / c[0][rounds / 2]);
	for (int i = 0; i < 3; i++)
		free(t[i]);
	for (int i = 0; i < 2; i++)
		free(c[i]);
	return 0;
}
