/* SPDX-License-Identifier: MIT */
/* A program whose profile is known, for the record and report tests: 70%
 * of its loop iterations run in hot(), called from main(), and 30% in
 * cold(), which main() reaches through mid(). Each iteration costs the same
 * in both, so the time splits 70/30. Built with -g, frame pointers in every
 * function, and no inlining (tests/meson.build), so that symbols, source
 * lines and call chains are what the source says. The loops add into a
 * local on the stack: gcc gives a leaf function that never touches the
 * stack no frame, even with -fno-omit-frame-pointer, and its caller would
 * then be missing from the call chain.
 *
 * hot() adds through bump(), which is always inlined: its line is hot's
 * hottest, and DWARF says which function was inlined there.
 *
 * The lines the tests look for are marked LINE:hot and LINE:cold.
 * Usage: hotspots ROUNDS [HOT COLD] (each round is about 10 ms here):
 * HOT and COLD, the iterations a round of each, in millions (7 and 3), give
 * another split, for the tests of hwprof diff. */
#include <stdlib.h>

volatile unsigned long hotspots_sink;

void hot(unsigned long n);
void cold(unsigned long n);
void mid(unsigned long n);

static inline __attribute__((always_inline)) void bump(volatile unsigned long *acc,
							unsigned long i)
{
	*acc += i;				/* LINE:hot LINE:bump */
}

__attribute__((noinline)) void hot(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)	/* LINE:hot */
		bump(&acc, i);			/* LINE:hot CALL:bump */
	hotspots_sink += acc;
}

__attribute__((noinline)) void cold(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)	/* LINE:cold */
		acc += i;			/* LINE:cold */
	hotspots_sink += acc;
}

__attribute__((noinline)) void mid(unsigned long n)
{
	cold(n);
	hotspots_sink++;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;
	unsigned long hot_n = argc > 3 ? strtoul(argv[2], NULL, 10) * 1000000 : 7000000;
	unsigned long cold_n = argc > 3 ? strtoul(argv[3], NULL, 10) * 1000000 : 3000000;

	for (long r = 0; r < rounds; r++) {
		hot(hot_n);
		mid(cold_n);
	}
	return 0;
}
