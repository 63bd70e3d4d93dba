// SPDX-License-Identifier: MIT
/* A program that switches a lot and times itself, for the cost of
 * recording off-CPU time (bench/bench-offcpu.py): two threads pass a byte
 * back and forth through two pipes, each blocking until the other answers,
 * so that every round trip is two switches out and two back in.
 * Usage: switcher ROUNDS FILE (appends the loop's seconds to FILE) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *echo(void *arg)
{
	char c;

	(void)arg;
	for (long i = 0; i < rounds; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	FILE *f;
	pthread_t t;
	double t0, t1;
	char c = 'x';

	rounds = argc > 1 ? atol(argv[1]) : 100000;
	f = argc > 2 ? fopen(argv[2], "a") : stdout;
	if (!f || pipe(ping) || pipe(pong) || pthread_create(&t, NULL, echo, NULL))
		return 1;
	t0 = now();
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	t1 = now();
	pthread_join(t, NULL);
	fprintf(f, "%.6f\n", t1 - t0);
	return fclose(f) ? 1 : 0;
}
