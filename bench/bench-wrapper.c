// SPDX-License-Identifier: MIT
/* Wall time of whole commands, alternating between them run after run,
 * and the median of each: for hwprof stat against perf stat on the same
 * events and the same command. BENCH_EACH=1 prints each round too, with
 * its ratios, for a goal that must hold in every round, not in the median.
 * Usage: bench-wrapper RUNS ::: CMD1 ARGS ::: CMD2 ARGS [::: CMD3 ARGS...] */
#include <fcntl.h>
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
	for (int r = 0; r < runs; r++)
		for (int c = 0; c < ncmd; c++) {
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
	for (int r = 0; each && *each == '1' && r < runs; r++)
		print_round(r, t, ncmd);
	printf("# %d runs each, alternating; median wall time\n", runs);
	for (int c = 0; c < ncmd; c++) {
		qsort(t[c], (size_t)runs, sizeof(double), cmp);
		printf("%8.2f ms  ", t[c][runs / 2]);
		for (char **a = cmd[c]; *a; a++)
			printf("%s ", *a);
		printf("\n");
	}
	for (int c = 1; c < ncmd; c++)
		printf("ratio command 1 / command %d: %.3f\n", c + 1,
		       t[0][runs / 2] / t[c][runs / 2]);
	return 0;
}
