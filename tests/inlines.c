/* SPDX-License-Identifier: MIT */
/* A program of inlined frames, for report --inline (tests/cli/test_inline.py
 * and the C API test in tests/kernel/test-record.c). Built -O2 with -g and
 * frame pointers, in leaf functions too (tests/meson.build: GCC for arm64
 * omits them there, and a leaf's caller would be missing from its -g
 * chain), so that DWARF records every inlining and -g chains reach main:
 *
 * - deep(): three always_inline functions, top() calls mid() calls leaf(),
 *   all inlined into it: an address of leaf's loop is, as addr2line -i says,
 *   leaf at its line, mid at the line of its call of leaf, top at the line of
 *   its call of mid, then deep at the line of its call of top.
 * - via(): relay_a() calls relay_b() calls callee(), a real call; both relays
 *   are inlined into via(), so that in callee's call chains the inlined
 *   frames sit between a caller (via) and its callee.
 *
 * The loops add into locals on the stack, so that each function sets up its
 * frame (hotspots.c says why). Lines the tests look for are marked LINE: and
 * CALL:. Usage: inlines ROUNDS (each is about 7.5 ms here). */
#include <stdlib.h>

volatile unsigned long inlines_sink;

void deep(unsigned long n);
void via(unsigned long n);
void callee(unsigned long n);

static inline __attribute__((always_inline)) void leaf(volatile unsigned long *acc,
							unsigned long i)
{
	*acc += i ^ (i >> 3);			/* LINE:leaf */
}

static inline __attribute__((always_inline)) void mid(volatile unsigned long *acc,
						       unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		leaf(acc, i);			/* CALL:leaf */
}

static inline __attribute__((always_inline)) void top(volatile unsigned long *acc,
						       unsigned long n)
{
	mid(acc, n);				/* CALL:mid */
	*acc += 1;
}

__attribute__((noinline)) void deep(unsigned long n)
{
	volatile unsigned long acc = 0;

	top(&acc, n);				/* CALL:top */
	inlines_sink += acc;
}

__attribute__((noinline)) void callee(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i * 7;			/* LINE:callee */
	inlines_sink += acc;
}

static inline __attribute__((always_inline)) void relay_b(unsigned long n)
{
	callee(n);				/* CALL:callee */
	inlines_sink++;
}

static inline __attribute__((always_inline)) void relay_a(unsigned long n)
{
	relay_b(n);				/* CALL:relay_b */
	inlines_sink++;
}

__attribute__((noinline)) void via(unsigned long n)
{
	volatile unsigned long acc = 0;

	relay_a(n);				/* CALL:relay_a */
	inlines_sink += acc;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100;

	for (long r = 0; r < rounds; r++) {
		deep(6000000);
		via(4000000);
	}
	return 0;
}
