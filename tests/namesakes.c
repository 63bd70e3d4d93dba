/* SPDX-License-Identifier: MIT */
/* A program with two functions of one name: a static work() here and
 * another in namesakes-other.c. This one runs three times as many loop
 * iterations as the other, so it has 75% of their samples. Reports must
 * keep them apart, and --annotate work must pick this one, the hotter, and
 * say that the name is ambiguous. Built like hotspots.c (tests/meson.build).
 * Usage: namesakes ROUNDS (each round is about 4 ms here) */
#include <stdlib.h>

volatile unsigned long namesakes_sink;

void other(unsigned long n);

static __attribute__((noinline)) void work(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i;
	namesakes_sink += acc;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;

	for (long r = 0; r < rounds; r++) {
		work(7500000);
		other(2500000);
	}
	return 0;
}
