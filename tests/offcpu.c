// SPDX-License-Identifier: MIT
/* The off-CPU tests' program (tests/cli/test_offcpu.py): a thread whose
 * function waiter sleeps 30 times 10 ms while the main thread's spinner
 * burns 100 ms of CPU. It prints what it measured itself, in nanoseconds:
 * the time waiter spent in its sleeps (each oversleeps by the wakeup's
 * latency, which a loaded machine lengthens), and the time spinner was
 * runnable but not running (its wall time less its CPU time). Built with
 * frame pointers; the sleep is one call below waiter, so that a frame
 * pointer walk from the C library, which keeps none, still finds waiter. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define SLEEPS 30
#define SLEEP_NS 10000000L
#define SPIN_NS 100000000L

static uint64_t now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static void nap(void)
{
	struct timespec ts = { 0, SLEEP_NS };

	while (nanosleep(&ts, &ts))
		;
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

static uint64_t slept;

__attribute__((noinline)) static void *waiter(void *arg)
{
	(void)arg;
	for (int i = 0; i < SLEEPS; i++) {
		uint64_t t0 = now(CLOCK_MONOTONIC);

		nap();
		slept += now(CLOCK_MONOTONIC) - t0;
	}
	return NULL;
}

static volatile uint64_t sink;

__attribute__((noinline)) static uint64_t spinner(void)
{
	uint64_t wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_THREAD_CPUTIME_ID);

	while (now(CLOCK_THREAD_CPUTIME_ID) - cpu < SPIN_NS)
		for (int i = 0; i < 1000; i++)
			sink += (uint64_t)i;
	wall = now(CLOCK_MONOTONIC) - wall;
	cpu = now(CLOCK_THREAD_CPUTIME_ID) - cpu;
	return wall > cpu ? wall - cpu : 0;
}

int main(void)
{
	pthread_t t;
	uint64_t waited;

	if (pthread_create(&t, NULL, waiter, NULL))
		return 1;
	waited = spinner();
	pthread_join(t, NULL);
	printf("waiter_slept_ns=%llu spinner_waited_ns=%llu\n", (unsigned long long)slept,
	       (unsigned long long)waited);
	return 0;
}
