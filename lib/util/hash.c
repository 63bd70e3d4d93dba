// SPDX-License-Identifier: MIT
#include "hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

uint64_t hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL ^ len;
	size_t i = 0;

	/* Eight bytes a step, then the tail: FNV's mixing is too slow per byte. */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h = hash_mix(h, w);
	}
	if (i < len) {
		uint64_t w = 0;

		memcpy(&w, p + i, len - i);
		h = hash_mix(h, w);
	}
	return h;
}

long hidx_find(const struct hidx *h, uint64_t hash, hidx_eq_fn eq, const void *key,
	       const void *ctx)
{
	uint32_t tag = (uint32_t)hash;

	if (!h->slots)
		return -1;
	for (size_t i = tag & h->mask;; i = (i + 1) & h->mask) {
		uint64_t s = h->slots[i];
		uint32_t idx1 = (uint32_t)s;

		if (!idx1)
			return -1;
		if ((uint32_t)(s >> 32) == tag && eq(idx1 - 1, key, ctx))
			return (long)(idx1 - 1);
	}
}

static void put(uint64_t *slots, size_t mask, uint64_t s)
{
	size_t i = (uint32_t)(s >> 32) & mask;

	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = s;
}

int hidx_add(struct hidx *h, uint64_t hash, size_t idx)
{
	if (idx >= UINT32_MAX)
		return -ENOMEM;
	/* At most half full, so that probes stay short and always end. */
	if (!h->slots || 2 * (h->nr + 1) > h->mask + 1) {
		size_t cap = h->slots ? 2 * (h->mask + 1) : 64;
		uint64_t *n = calloc(cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		for (size_t i = 0; h->slots && i <= h->mask; i++)
			if (h->slots[i])
				put(n, cap - 1, h->slots[i]);
		free(h->slots);
		h->slots = n;
		h->mask = cap - 1;
	}
	put(h->slots, h->mask, (uint64_t)(uint32_t)hash << 32 | (uint32_t)(idx + 1));
	h->nr++;
	return 0;
}

void hidx_release(struct hidx *h)
{
	free(h->slots);
	memset(h, 0, sizeof(*h));
}

struct str_key {
	const char *s;
	size_t len;
};

static bool str_eq(size_t idx, const void *key, const void *ctx)
{
	const struct str_key *k = key;
	const struct strtab *t = ctx;

	return !strncmp(t->strs[idx], k->s, k->len) && !t->strs[idx][k->len];
}

long strtab_index(struct strtab *t, const char *s, size_t len)
{
	struct str_key k = { s, len };
	uint64_t h = hash_bytes(s, len);
	long i = hidx_find(&t->idx, h, str_eq, &k, t);
	char *copy;

	if (i >= 0)
		return i;
	if (vec_reserve(&t->strs, &t->cap, t->nr + 1, sizeof(*t->strs)))
		return -1;
	copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, s, len);
	copy[len] = '\0';
	if (hidx_add(&t->idx, h, t->nr)) {
		free(copy);
		return -1;
	}
	t->strs[t->nr++] = copy;
	return (long)t->nr - 1;
}

const char *strtab_intern(struct strtab *t, const char *s, size_t len)
{
	long i = strtab_index(t, s, len);

	return i < 0 ? NULL : t->strs[i];
}

void strtab_release(struct strtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->strs[i]);
	free(t->strs);
	hidx_release(&t->idx);
	memset(t, 0, sizeof(*t));
}

int vec_grow(void *arr, size_t *cap, size_t want, size_t size)
{
	void **p = arr;
	size_t n;
	void *m;

	n = *cap ? *cap : 8;
	while (n < want) {
		if (n > SIZE_MAX / 2 / size)
			return -ENOMEM;
		n *= 2;
	}
	m = realloc(*p, n * size);
	if (!m)
		return -ENOMEM;
	*p = m;
	*cap = n;
	return 0;
}
