/* SPDX-License-Identifier: MIT */
/* Work with known counts, shared by tests/workload.c and the in-process
 * kernel tests: fresh pages (one fault each) and pipe ping-pong between two
 * threads on one CPU (two context switches a round trip). */
#ifndef HWPROF_TEST_WORK_H
#define HWPROF_TEST_WORK_H

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Raw system calls and no instrumentation: under the sanitizers, their
 * interceptors and shadow memory would fault pages of their own. */
__attribute__((no_sanitize("address", "undefined", "thread"), unused))
static void work_touch_pages(long n)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(n * page);
	char *m = (char *)syscall(SYS_mmap, NULL, len, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		abort();
	/* One fault per page: no transparent huge page. */
	syscall(SYS_madvise, m, len, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		((volatile char *)m)[i * page] = 1;
	syscall(SYS_munmap, m, len);
}

__attribute__((unused))
static int work_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

struct work_pipes {
	int ping[2], pong[2];
};

static void *work_echo(void *arg)
{
	struct work_pipes *p = arg;
	char c;

	work_pin(0);
	/* Until the 'q' after the last round trip: each side blocks once a trip. */
	while (read(p->ping[0], &c, 1) == 1 && c != 'q')
		if (write(p->pong[1], &c, 1) != 1)
			break;
	return NULL;
}

/* K round trips between this thread and a new one, both on CPU 0; the
 * caller's affinity is restored. Returns 0, or -1 if a pipe failed. */
__attribute__((unused))
static int work_pingpong(long k)
{
	struct work_pipes p;
	pthread_t t;
	cpu_set_t saved;
	char c = 'x';
	int ret = 0;

	if (pipe(p.ping))
		return -1;
	if (pipe(p.pong)) {
		close(p.ping[0]);
		close(p.ping[1]);
		return -1;
	}
	sched_getaffinity(0, sizeof(saved), &saved);
	work_pin(0);
	pthread_create(&t, NULL, work_echo, &p);
	for (long i = 0; i < k && !ret; i++)
		if (write(p.ping[1], &c, 1) != 1 || read(p.pong[0], &c, 1) != 1)
			ret = -1;
	c = 'q';
	if (write(p.ping[1], &c, 1) != 1)
		ret = -1;
	pthread_join(t, NULL);
	for (int i = 0; i < 2; i++) {
		close(p.ping[i]);
		close(p.pong[i]);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return ret;
}

#endif
