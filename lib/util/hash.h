/* SPDX-License-Identifier: MIT */
/* An open-addressing index from hashes to entry numbers, for tables whose
 * entries live in the caller's own array, and a string interner built on it.
 * Memory is proportional to the entries, never to the lookups. */
#ifndef HWPROF_UTIL_HASH_H
#define HWPROF_UTIL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static inline uint64_t hash_mix(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

uint64_t hash_bytes(const void *data, size_t len);

/* @n 32-bit values, a multiplication each (FxHash's step), mixed at the
 * end: for arrays hashed once a sample, as call chains. */
static inline uint64_t hash_u32s(const uint32_t *v, size_t n)
{
	uint64_t h = n;

	for (size_t i = 0; i < n; i++)
		h = ((h << 5 | h >> 59) ^ v[i]) * 0x517cc1b727220a95ULL;
	return hash_u64(h);
}

/* Slots hold the low 32 bits of an entry's hash and its number + 1 (0: empty). */
struct hidx {
	uint64_t *slots;
	size_t mask;		/* capacity - 1; the capacity is a power of two */
	size_t nr;
};

/* Whether entry @idx is the one @key names. */
typedef bool (*hidx_eq_fn)(size_t idx, const void *key, const void *ctx);

/* The entry with @hash for which @eq holds, or -1. */
long hidx_find(const struct hidx *h, uint64_t hash, hidx_eq_fn eq, const void *key,
	       const void *ctx);
/* Add entry @idx (below 2^32 - 1) under @hash: 0 or -ENOMEM. */
int hidx_add(struct hidx *h, uint64_t hash, size_t idx);
void hidx_release(struct hidx *h);

/* Interned strings: each distinct string is stored once and keeps its
 * address for the table's life, so pointers compare equal iff the strings do. */
struct strtab {
	struct hidx idx;
	char **strs;
	size_t nr, cap;
};

/* The interned copy of @s (@len bytes, no NUL needed), or NULL when out of memory. */
const char *strtab_intern(struct strtab *t, const char *s, size_t len);
/* The same string's number: strings are numbered from 0 in the order first
 * interned (t->strs[number]); -1 when out of memory. */
long strtab_index(struct strtab *t, const char *s, size_t len);
void strtab_release(struct strtab *t);

int vec_grow(void *arr, size_t *cap, size_t want, size_t size);

/* Make room for @want elements of @size bytes in *@arr of capacity *@cap:
 * 0 or -ENOMEM (then *@arr is unchanged). Inline: most calls, a record's
 * or a sample's, find the room there already. */
static inline int vec_reserve(void *arr, size_t *cap, size_t want, size_t size)
{
	return want <= *cap ? 0 : vec_grow(arr, cap, want, size);
}

#endif
