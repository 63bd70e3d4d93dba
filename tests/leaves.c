/* SPDX-License-Identifier: MIT */
/* A program whose hot functions are leaves without a frame: built -O2 with
 * -fno-omit-frame-pointer (tests/meson.build), GCC on x86-64 still sets up
 * no frame in a function that calls nothing and keeps nothing on the
 * stack, so the frame pointer is its caller's, and the kernel's walk of
 * the frame records goes from the sampled address to the caller's caller:
 * the caller is skipped (tests/cli/test_leaf.py).
 *
 * - hot_dot(), a dot product, is called by dot_twice() for two thirds of
 *   its work and by dot_once() for the other third;
 * - cold_chase(), a walk of a cycle through memory, by chase() alone.
 *
 * main -> dot_twice -> hot_dot, main -> dot_once -> hot_dot and main ->
 * chase -> cold_chase, then: each caller works after its call, so that no
 * call is a tail call that would leave its caller off the stack.
 *
 * With "syscall", main -> ask -> getppid() instead: samples taken in the
 * kernel, whose user part starts in libc's getppid, which sets up no frame
 * either (libc has no frame pointers), so that ask would be skipped.
 *
 * Usage: leaves ROUNDS (about 0.3 ms of CPU each here)
 *        leaves syscall CALLS */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DOTS (1L << 16)	/* doubles a dot product of dot_once */
#define LINKS 4096

volatile double leaves_sink;

/* Not static: gcc would clone them with the constants. */
double hot_dot(const double *x, const double *y, long n);
long cold_chase(const long *next, long steps);
double dot_twice(const double *x, const double *y);
double dot_once(const double *x, const double *y);
long chase(const long *next);
long ask(long calls);

__attribute__((noinline)) double hot_dot(const double *x, const double *y, long n)
{
	double s = 0;

	for (long i = 0; i < n; i++)
		s += x[i] * y[i];
	return s;
}

__attribute__((noinline)) long cold_chase(const long *next, long steps)
{
	long at = 0;

	for (long i = 0; i < steps; i++)
		at = next[at];
	return at;
}

__attribute__((noinline)) double dot_twice(const double *x, const double *y)
{
	return hot_dot(x, y, 2 * DOTS) * 2 + leaves_sink;
}

__attribute__((noinline)) double dot_once(const double *x, const double *y)
{
	return hot_dot(x, y, DOTS) + 1 + leaves_sink;
}

__attribute__((noinline)) long chase(const long *next)
{
	return cold_chase(next, 16 * LINKS) + (long)leaves_sink;
}

__attribute__((noinline)) long ask(long calls)
{
	long sum = 0;

	for (long i = 0; i < calls; i++)
		sum += getppid();
	return sum + (long)leaves_sink;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	double *x;
	long *next;

	if (argc > 2 && !strcmp(argv[1], "syscall")) {
		leaves_sink = (double)ask(atol(argv[2]));
		return 0;
	}
	x = malloc(2 * DOTS * sizeof(*x));
	next = malloc(LINKS * sizeof(*next));
	if (!x || !next)
		return 1;
	for (long i = 0; i < 2 * DOTS; i++)
		x[i] = (double)(i % 7);
	for (long i = 0; i < LINKS; i++)
		next[i] = (i * 2654435761L + 1) % LINKS;
	for (long r = 0; r < rounds; r++)
		leaves_sink = dot_twice(x, x) + dot_once(x, x) + (double)chase(next);
	free(next);
	free(x);
	return 0;
}
