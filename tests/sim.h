/* SPDX-License-Identifier: MIT */
/* Seeded random numbers for the tests that simulate measurements, so that
 * every run of a test sees the same numbers. */
#ifndef HWPROF_TEST_SIM_H
#define HWPROF_TEST_SIM_H

#include <math.h>
#include <stdint.h>

/* splitmix64 (Steele, Lea and Flood, OOPSLA 2014): small, and good enough
 * to feed Box-Muller. */
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static inline uint64_t next_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1): 53 random bits, never 0, for log(). */
static inline double uniform(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller: two uniforms give a standard normal (the second one it
 * could give is dropped; simplicity over speed). */
static inline double normal(double mean, double sd)
{
	double u1 = uniform(), u2 = uniform();

	return mean + sd * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

#endif
