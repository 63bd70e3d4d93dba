// SPDX-License-Identifier: MIT
/* Wall time of whole commands, alternating between them run after run,
 * and the median of each: for hwprof stat against perf stat on the same
 * events and the same command. BENCH_EACH=1 prints each round too, with
 * its ratios, for a goal that must hold in every round, not in the median.
 * BENCH_SHUFFLE=1 runs each round's commands in an order of its own
 * (pseudo-random, the same from run to run), so that no command always
 * runs first, or after the same one.
 * Usage: bench-wrapper RUNS ::: CMD1 ARGS ::: CMD2 ARGS [::: CMD3 ARGS...] */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The order of a round's commands: as given, or shuffled (Fisher-Yates, an
 * LCG from a fixed seed: the same orders from run to run). The place in a
 * round costs: what ran just before (perf stat's exit, its counters'
 * closes) slowed the next two commands by up to 2x at a load of 12 here. */
static void round_order(int *order, int n, bool shuffle, uint32_t *seed)
{
	for (int k = 0; k < n; k++)
		order[k] = k;
	for (int k = n - 1; shuffle && k > 0; k--) {
		int j, tmp;

		*seed = *seed * 1103515245u + 12345u;
		j = (int)((*seed >> 16) % (uint32_t)(k + 1));
		tmp = order[k];
		order[k] = order[j];
		order[j] = tmp;
	}
}

static void print_round(int r, double *const *t, int ncmd)
{
	printf("round %2d:", r + 1);
	for (int c = 0; c < ncmd; c++)
		printf(" %9.2f ms", t[c][r]);
	for (int c = 1; c < ncmd; c++)
		printf("  1/%d: %.3f", c + 1, t[0][r] / t[c][r]);
	printf("\n");
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 0, ncmd = 0;
	char **cmd[16];
	double *t[16];
	posix_spawn_file_actions_t fa;
	const char *each = getenv("BENCH_EACH");
	const char *shuf = getenv("BENCH_SHUFFLE");
	bool shuffle = shuf && *shuf == '1';
	int order[16];
	uint32_t seed = 1;

	for (int i = 2; i < argc && ncmd < 16; i++)
		if (!strcmp(argv[i], ":::")) {
			argv[i] = NULL;
			if (i + 1 < argc)
				cmd[ncmd++] = &argv[i + 1];
		}
	if (runs < 1 || ncmd < 1) {
		fprintf(stderr,
			"usage: bench-wrapper RUNS ::: CMD1 ARGS ::: CMD2 ARGS...\n");
		return 2;
	}
	/* The commands' output goes nowhere: we time them, not the terminal. */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int c = 0; c < ncmd; c++)
		t[c] = calloc((size_t)runs, sizeof(double));
	for (int r = 0; r < runs; r++) {
		round_order(order, ncmd, shuffle, &seed);
		for (int k = 0; k < ncmd; k++) {
			int c = order[k];
			double t0 = now_ms();
			pid_t pid;
			int st;

			if (posix_spawnp(&pid, cmd[c][0], &fa, NULL, cmd[c], environ)) {
				perror(cmd[c][0]);
				return 1;
			}
			waitpid(pid, &st, 0);
			t[c][r] = now_ms() - t0;
			if (!WIFEXITED(st) || WEXITSTATUS(st)) {
				fprintf(stderr, "bench-wrapper: '%s' failed\n",
					cmd[c][0]);
				return 1;
			}
		}
	}
	for (int r = 0; each && *each == '1' && r < runs; r++)
		print_round(r, t, ncmd);
	printf("# %d runs each, alternating; median wall time\n", runs);
	for (int c = 0; c < ncmd; c++) {
		qsort(t[c], (size_t)runs, sizeof(double), cmp);
		printf("%8.3f ms  ", t[c][runs / 2]);
		for (char **a = cmd[c]; *a; a++)
			printf("%s ", *a);
		printf("\n");
	}
	for (int c = 1; c < ncmd; c++)
		printf("ratio command 1 / command %d: %.3f\n", c + 1,
		       t[0][runs / 2] / t[c][runs / 2]);
	return 0;
}
