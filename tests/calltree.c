/* SPDX-License-Identifier: MIT */
/* A program with a known call tree, built without frame pointers (-O2
 * -fomit-frame-pointer, tests/meson.build), for the DWARF call-chain
 * tests: leaf() does all the work, reached as main -> a -> b -> leaf for
 * two thirds of it and main -> c -> leaf for the other third. Every call
 * is followed by work of its caller, so none is a tail call that would
 * leave its caller off the stack.
 *
 * Usage: calltree tree ROUNDS     the tree above, ROUNDS rounds (~10 ms each)
 *        calltree thread ROUNDS   the same on a thread of its own
 *        calltree deep ROUNDS [DEPTH]  leaf() under DEPTH frames of recursion
 *                                 (1,000: a stack deeper than the kernel's
 *                                 largest copy, 64 KB)
 *        calltree signal ROUNDS   the tree, and leaf() in a SIGPROF handler
 *                                 every millisecond of CPU: chains that cross
 *                                 the kernel's signal frame
 *        calltree syscall ROUNDS  main -> in_kernel -> getppid() and read() of
 *                                 /dev/zero: samples taken in the kernel,
 *                                 whose user part is unwound from the user
 *                                 registers the kernel saved */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

volatile unsigned long calltree_sink;

#define UNIT 1000000UL	/* leaf iterations a unit of work */

/* Not static: gcc would clone them (a.constprop.0) with the constants. */
unsigned long leaf(unsigned long n);
unsigned long b(unsigned long n);
unsigned long a(unsigned long n);
unsigned long c(unsigned long n);
unsigned long recurse(int depth, unsigned long n);

__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i;
	return acc;
}

__attribute__((noinline)) unsigned long b(unsigned long n)
{
	return leaf(n) * 3 + calltree_sink;
}

__attribute__((noinline)) unsigned long a(unsigned long n)
{
	return b(n) * 5 + calltree_sink;
}

__attribute__((noinline)) unsigned long c(unsigned long n)
{
	return leaf(n) * 7 + calltree_sink;
}

__attribute__((noinline)) unsigned long recurse(int depth, unsigned long n)
{
	volatile char frame[64];	/* each frame takes stack */

	frame[0] = (char)depth;
	if (!depth)
		return leaf(n) + frame[0];
	return recurse(depth - 1, n) * 3 + frame[0];
}

/* A few milliseconds a round, nearly all of them in the kernel. */
__attribute__((noinline)) unsigned long in_kernel(int fd);
__attribute__((noinline)) unsigned long in_kernel(int fd)
{
	static char buf[1 << 16];
	unsigned long sum = 0;

	for (int i = 0; i < 2000; i++) {
		sum += (unsigned long)getppid();
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			abort();
	}
	return sum + (unsigned long)buf[7];
}

static long rounds;

/* Two units (~0.8 ms here): several periods of the tests' 4 kHz sampling.
 * The timer's signal comes at a tick, and a task clock's samples keep
 * their phase to the ticks while the task stays on its CPU: a handler
 * shorter than a period (a quarter unit, 0.1 ms, once) was missed by every
 * sample of some runs (1 of 3,299 here, 0 in CI). */
__attribute__((noinline)) void on_prof(int sig);
__attribute__((noinline)) void on_prof(int sig)
{
	calltree_sink += leaf(2 * UNIT) + (unsigned long)sig;
}

static void *tree(void *arg)
{
	(void)arg;
	for (long r = 0; r < rounds; r++) {
		calltree_sink += a(2 * UNIT);
		calltree_sink += c(UNIT);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc < 3)
		return 2;
	rounds = atol(argv[2]);
	if (!strcmp(argv[1], "tree")) {
		tree(NULL);
	} else if (!strcmp(argv[1], "thread")) {
		if (pthread_create(&t, NULL, tree, NULL) || pthread_join(t, NULL))
			return 1;
	} else if (!strcmp(argv[1], "signal")) {
		struct itimerval every = { { 0, 1000 }, { 0, 1000 } };

		signal(SIGPROF, on_prof);
		if (setitimer(ITIMER_PROF, &every, NULL))
			return 1;
		tree(NULL);
	} else if (!strcmp(argv[1], "syscall")) {
		int fd = open("/dev/zero", O_RDONLY);

		if (fd < 0)
			return 1;
		for (long r = 0; r < rounds; r++)
			calltree_sink += in_kernel(fd);
		close(fd);
	} else if (!strcmp(argv[1], "deep")) {
		int depth = argc > 3 ? atoi(argv[3]) : 1000;

		for (long r = 0; r < rounds; r++)
			calltree_sink += recurse(depth, 3 * UNIT);
	} else {
		return 2;
	}
	return 0;
}
