// SPDX-License-Identifier: MIT
/* A profile's call chains: folded by function for flame graphs
 * (hwp_profile_foreach_stack()), by function with their sources and by
 * address for the formats that keep frames or addresses. */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdlib.h>
#include <string.h>

/* ---- call chains by function ---- */

struct folded {
	const char *key;	/* "main;mid;leaf", interned */
	uint32_t rep;		/* a stack (or site, without call chains) that has it */
	uint64_t samples, period;
};

struct folded_set {
	struct folded *v;
	size_t nr, cap;
	struct hidx idx;
};

static bool folded_eq(size_t idx, const void *key, const void *ctx)
{
	return ((const struct folded_set *)ctx)->v[idx].key == key;
}

static int fold(struct folded_set *fs, const char *key, uint32_t rep, uint64_t samples,
		uint64_t period)
{
	uint64_t h = hash_u64((uint64_t)(uintptr_t)key);
	long i = hidx_find(&fs->idx, h, folded_eq, key, fs);

	if (i < 0) {
		if (vec_reserve(&fs->v, &fs->cap, fs->nr + 1, sizeof(*fs->v)) ||
		    hidx_add(&fs->idx, h, fs->nr))
			return -ENOMEM;
		fs->v[fs->nr] = (struct folded){ key, rep, 0, 0 };
		i = (long)fs->nr++;
	}
	fs->v[i].samples += samples;
	fs->v[i].period += period;
	return 0;
}

static int cmp_folded(const void *pa, const void *pb)
{
	const struct folded *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* A chain's frame names, the outermost first. */
struct names {
	const char **v;
	size_t nr, cap;
};

/* The names of the frames of @nr sites, @sites the innermost first (as a
 * stack keeps them), into @nb: 0 or -ENOMEM. */
static int chain_names(struct hwp_profile *p, const uint32_t *sites, uint32_t nr,
		       struct names *nb)
{
	nb->nr = 0;
	for (uint32_t j = nr; j-- > 0;) {
		const struct profile_frame *f;
		struct profile_frame own;
		long k = site_frames(p, sites[j], p->inline_frames, &own, &f);

		if (k < 0 ||
		    vec_reserve(&nb->v, &nb->cap, nb->nr + (size_t)k, sizeof(*nb->v)))
			return -ENOMEM;
		while (k)
			nb->v[nb->nr++] = f[--k].name;
	}
	return 0;
}

/* The names of folded chain @f's frames (the sites of its stack, or its
 * site without call chains) into @nb: 0 or -ENOMEM. */
static int folded_names(struct hwp_profile *p, const struct folded *f, struct names *nb)
{
	const struct stack *st;

	if (!p->callchains)
		return chain_names(p, &f->rep, 1, nb);
	st = &p->stacks[f->rep];
	return chain_names(p, p->frames + st->first, st->nr, nb);
}

/* Whether folded chain @f stopped early (a DWARF chain's "[truncated]"). */
static bool folded_truncated(const struct hwp_profile *p, const struct folded *f)
{
	const struct stack *st;

	if (!p->callchains || !p->dwarf)
		return false;
	st = &p->stacks[f->rep];
	return st->nr && p->truncated_site == p->frames[st->first + st->nr - 1];
}

static int fold_all(struct hwp_profile *p, struct folded_set *fs, struct names *nb)
{
	size_t n = p->callchains ? p->nr_stacks : p->nr_sites;
	struct strbuf sb = STRBUF_INIT;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		struct folded f = { .rep = (uint32_t)i };

		if (p->callchains) {
			f.samples = p->stacks[i].samples;
			f.period = p->stacks[i].period;
		} else {
			f.samples = p->sites[i].samples;
			f.period = p->sites[i].period;
		}
		if (!f.samples)
			continue;	/* another event's, or a caller's */
		err = folded_names(p, &f, nb);
		strbuf_reset(&sb);
		for (size_t j = 0; j < nb->nr && !err; j++)
			strbuf_addf(&sb, "%s%s", j ? ";" : "", nb->v[j]);
		f.key = err || strbuf_failed(&sb) ? NULL :
			symbolize_intern(p->sym, strbuf_str(&sb));
		err = f.key ? fold(fs, f.key, f.rep, f.samples, f.period) : -ENOMEM;
	}
	strbuf_release(&sb);
	return err;
}

HWP_API int hwp_profile_foreach_stack(struct hwp_profile *p, hwp_stack_fn fn, void *ctx)
{
	struct folded_set fs = { 0 };
	struct names nb = { 0 };
	int err;

	clear_error();
	if (!p || !fn)
		return fail(-EINVAL, "hwp_profile_foreach_stack: NULL argument");
	err = fold_all(p, &fs, &nb);
	if (!err && fs.nr > 1)
		qsort(fs.v, fs.nr, sizeof(*fs.v), cmp_folded);
	for (size_t i = 0; i < fs.nr && !err; i++) {
		struct hwp_stack st = { .sz = sizeof(st),
					.samples = fs.v[i].samples,
					.period = fs.v[i].period,
					.truncated = folded_truncated(p, &fs.v[i]) };

		err = folded_names(p, &fs.v[i], &nb);
		if (err)
			break;
		st.frames = nb.v;
		st.nr_frames = nb.nr;
		err = fn(&st, ctx);
		if (err)
			goto out;	/* the caller's, unchanged */
	}
	if (err)
		err = fail(-ENOMEM, "out of memory");
out:
	free(fs.v);
	hidx_release(&fs.idx);
	free(nb.v);
	return err;
}

/* ---- call chains by function, with their sources ---- */

struct chain_funcs {
	struct profile_function *v;
	size_t nr, cap;
	struct hidx idx;
	uint32_t *of_site;	/* by site: its function + 1, 0 before it is known */
};

static bool func_eq(size_t idx, const void *key, const void *ctx)
{
	const struct chain_funcs *cf = ctx;
	const struct profile_function *k = key, *f = &cf->v[idx];

	return f->name == k->name && f->file == k->file;
}

/* Function @k's index in @cf, added if new. Names and files are interned,
 * so pointers tell them apart. */
static long chain_function(struct chain_funcs *cf, const struct profile_function *k)
{
	uint64_t h = hash_mix(hash_u64((uint64_t)(uintptr_t)k->name),
			      (uint64_t)(uintptr_t)k->file);
	long i = hidx_find(&cf->idx, h, func_eq, k, cf);
	if (i < 0) {
		if (vec_reserve(&cf->v, &cf->cap, cf->nr + 1, sizeof(*cf->v)) ||
		    hidx_add(&cf->idx, h, cf->nr))
			return -ENOMEM;
		cf->v[cf->nr] = *k;
		i = (long)cf->nr++;
	}
	return i;
}

/* Site @site's function: its name, and the source of its entry. */
static long site_function(struct hwp_profile *p, struct chain_funcs *cf, uint32_t site)
{
	const struct site *s = &p->sites[site];
	struct profile_function k = { 0 };
	long i;

	if (cf->of_site[site])
		return (long)cf->of_site[site] - 1;
	site_resolve(p, site, false);
	k.name = s->name;
	function_source(p, s, &k.file, &k.line);
	i = chain_function(cf, &k);
	if (i < 0)
		return i;
	cf->of_site[site] = (uint32_t)i + 1;
	return i;
}
/* A chain's functions, the outermost first (profile_foreach_chain). */
struct funcs {
	uint32_t *v;
	size_t nr, cap;
};

/* Add site @site's functions to @fs: its own, then, outward in, those DWARF
 * says were inlined there, each a frame of its own (without a source). */
static int add_site_functions(struct hwp_profile *p, struct chain_funcs *cf,
			      uint32_t site, struct funcs *fs)
{
	const struct profile_frame *f;
	struct profile_frame own;
	long k = site_function(p, cf, site);
	long n = k < 0 ? k : site_frames(p, site, p->inline_frames, &own, &f);

	if (n < 0 || vec_reserve(&fs->v, &fs->cap, fs->nr + (size_t)n, sizeof(*fs->v)))
		return -ENOMEM;
	fs->v[fs->nr++] = (uint32_t)k;
	for (long i = n - 2; i >= 0; i--) {
		k = chain_function(cf, &(struct profile_function){ .name = f[i].name });
		if (k < 0)
			return -ENOMEM;
		fs->v[fs->nr++] = (uint32_t)k;
	}
	return 0;
}

static int walk_chains(struct hwp_profile *p, struct chain_funcs *cf, struct funcs *fs,
		       profile_chain_fn fn, void *ctx)
{
	size_t n = p->callchains ? p->nr_stacks : p->nr_sites;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		const struct stack *st = p->callchains ? &p->stacks[i] : NULL;
		uint32_t site = (uint32_t)i;
		uint64_t samples = st ? st->samples : p->sites[i].samples;
		uint64_t period = st ? st->period : p->sites[i].period;

		if (!samples)
			continue;	/* another event's, or a caller's */
		fs->nr = 0;
		for (uint32_t j = st ? st->nr : 1; j-- > 0 && !err;) {
			if (st)
				site = p->frames[st->first + j];
			err = add_site_functions(p, cf, site, fs);
		}
		if (err)
			return err;
		err = fn(fs->v, fs->nr, samples, period, ctx);
	}
	return err;
}

int profile_foreach_chain(struct hwp_profile *p, profile_chain_fn fn, void *ctx,
			  struct profile_function **funcs, size_t *nr_funcs)
{
	struct chain_funcs cf = { 0 };
	struct funcs fs = { 0 };
	int err;

	cf.of_site = calloc(p->nr_sites + 1, sizeof(*cf.of_site));
	p->lines_used = true;
	err = cf.of_site ? walk_chains(p, &cf, &fs, fn, ctx) : -ENOMEM;
	if (err == -ENOMEM)
		err = fail(-ENOMEM, "out of memory");
	*funcs = cf.v;
	*nr_funcs = cf.nr;
	hidx_release(&cf.idx);
	free(cf.of_site);
	free(fs.v);
	return err;
}
