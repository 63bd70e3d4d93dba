// SPDX-License-Identifier: MIT
/* The order in which variants measured together run: blocks that cancel a
 * linear drift (ABBA), or blocks shuffled from a seed. */
#include "core/core.h"

#include <errno.h>

/* splitmix64: the same numbers from a seed on every machine and libc. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A number in [0, n), without the bias of a plain modulo. */
static size_t below(uint64_t *state, size_t n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

	do
		x = next_random(state);
	while (x >= limit);
	return (size_t)(x % n);
}

HWP_API int hwp_stats_order(enum hwp_order order, size_t nr_variants, size_t runs,
			    uint64_t seed, size_t *out)
{
	uint64_t state = seed;

	clear_error();
	if (!out || !nr_variants || !runs)
		return fail(-EINVAL, "hwp_stats_order: %s", out ? "no variant or no run" :
			    "out is NULL");
	if (!hwp_enum_name(HWP_ENUM_ORDER, order))
		return fail(-EINVAL, "hwp_stats_order: unknown order %d", (int)order);
	for (size_t b = 0; b < runs; b++) {
		size_t *block = out + b * nr_variants;

		for (size_t v = 0; v < nr_variants; v++)
			block[v] = order == HWP_ORDER_ABBA && b % 2 ?
				   nr_variants - 1 - v : v;
		if (order != HWP_ORDER_RANDOM)
			continue;
		for (size_t v = nr_variants - 1; v > 0; v--) {
			size_t j = below(&state, v + 1), t = block[v];

			block[v] = block[j];
			block[j] = t;
		}
	}
	if (order == HWP_ORDER_SEQUENTIAL)
		for (size_t i = 0; i < nr_variants * runs; i++)
			out[i] = i / runs;
	return 0;
}
