// SPDX-License-Identifier: MIT
/* The demo workload: it faults pages in, bounces messages between two
 * threads through pipes, and moves itself between CPUs, so that page
 * faults, context switches and CPU migrations all have something to count.
 * Usage: churn [SCALE]   (default 1; the work grows linearly with it) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int ping[2], pong[2];

static void *echo(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1 && c != 'q')
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1, page = sysconf(_SC_PAGESIZE);
	long pages = 8192 * scale, trips = 2000 * scale, moves = 100 * scale;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t t;
	char *mem, c = 'x';

	if (scale < 1 || pipe(ping) || pipe(pong))
		return 2;
	mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	madvise(mem, pages * page, MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		mem[i * page] = (char)i;

	pthread_create(&t, NULL, echo, NULL);
	for (long i = 0; i < trips; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	c = 'q';
	if (write(ping[1], &c, 1) != 1)
		return 1;
	pthread_join(t, NULL);

	for (long i = 0; ncpu > 1 && i < moves; i++) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((int)(i % 2), &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	printf("churn: %ld pages, %ld round trips, %ld CPU moves\n", pages, trips,
	       ncpu > 1 ? moves : 0L);
	return 0;
}
