// SPDX-License-Identifier: MIT
/*
 * The rows of a difference: each side's entries by the sort key, matched
 * by module file name and name. Two functions of one name in one module
 * (static namesakes) stay two rows, as the report keeps them (by symbol
 * address), told apart by their source file, which two builds share; by
 * address where no line is known. Modules match by file name, after the
 * OLD=NEW maps, or the automatic match of two programs that differ only
 * in name.
 */
#include "diff/diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One side's rows, as the profile's query gives them. */
struct side {
	struct hwp_profile *p;
	struct diff_row *rows;
	size_t nr, cap;
	enum hwp_sort sort;
	int err;
};

/* Modules match by file name: two builds, or one library installed in two
 * places, are the same module to a reader. */
static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return !path ? "[unknown]" : slash && slash[1] ? slash + 1 : path;
}

void diff_row_release(struct diff_row *r)
{
	free(r->name);
	free(r->dso);
	free(r->file);
}

static int add_entry(const struct hwp_entry *e, void *ctx)
{
	struct side *s = ctx;
	const char *dso = base_name(e->dso);
	struct diff_row *r;

	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		struct diff_row *rows = realloc(s->rows, cap * sizeof(*rows));

		if (!rows)
			return s->err = -ENOMEM;
		s->rows = rows;
		s->cap = cap;
	}
	r = &s->rows[s->nr];
	memset(r, 0, sizeof(*r));
	r->name = strdup(s->sort == HWP_SORT_DSO ? dso : e->name);
	r->dso = strdup(dso);
	r->path = e->dso;
	r->addr = e->address;
	r->src = s->sort == HWP_SORT_RIP ? e->file : NULL;
	r->info.a_samples = e->samples;
	s->nr++;
	if (!r->name || !r->dso)
		return s->err = -ENOMEM;
	return 0;
}

static int str_cmp_null(const char *a, const char *b)
{
	return !a || !b ? (a != NULL) - (b != NULL) : strcmp(a, b);
}

int diff_row_cmp(const struct diff_row *a, const struct diff_row *b)
{
	int c = strcmp(a->dso, b->dso);

	if (!c)
		c = strcmp(a->name, b->name);
	return c ? c : str_cmp_null(a->file, b->file);
}

static int row_qsort(const void *a, const void *b)
{
	return diff_row_cmp(a, b);
}

static void side_release(struct side *s)
{
	for (size_t i = 0; i < s->nr; i++)
		diff_row_release(&s->rows[i]);
	free(s->rows);
}

static int side_load(struct hwp_profile *p, enum hwp_sort sort, struct side *s)
{
	int err;

	s->p = p;
	s->sort = sort;
	err = hwp_profile_foreach_entry(p, sort, 0, add_entry, s);
	if (s->err)
		return fail(s->err, "out of memory");
	return err;
}

/* ---- Namesakes ---- */

/* A row of either side, for finding the names that two functions of one
 * module have on either. */
struct row_ref {
	struct diff_row *r;
	int side;
};

static int ref_cmp(const void *pa, const void *pb)
{
	const struct row_ref *a = pa, *b = pb;
	int c = strcmp(a->r->dso, b->r->dso);

	if (!c)
		c = strcmp(a->r->name, b->r->name);
	if (!c)
		c = a->side - b->side;
	return c ? c : (a->r->addr > b->r->addr) - (a->r->addr < b->r->addr);
}

/* Whether refs[i..j) (one name of one module) holds two addresses of one
 * side. */
static bool two_functions(const struct row_ref *refs, size_t i, size_t j)
{
	for (size_t k = i + 1; k < j; k++)
		if (refs[k].side == refs[k - 1].side &&
		    refs[k].r->addr != refs[k - 1].r->addr)
			return true;
	return false;
}

/* Mark the rows of either side whose name, in their module, is two
 * functions' on either side: 0 or -ENOMEM. */
static int mark_namesakes(struct side *sides)
{
	size_t n = sides[0].nr + sides[1].nr, k = 0;
	struct row_ref *refs = malloc((n + 1) * sizeof(*refs));

	if (!refs)
		return fail(-ENOMEM, "out of memory");
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sides[s].nr; i++)
			refs[k++] = (struct row_ref){ &sides[s].rows[i], s };
	qsort(refs, n, sizeof(*refs), ref_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(refs[j].r->dso, refs[i].r->dso) &&
				!strcmp(refs[j].r->name, refs[i].r->name); j++)
			;
		if (two_functions(refs, i, j))
			for (size_t m = i; m < j; m++)
				refs[m].r->namesake = true;
	}
	free(refs);
	return 0;
}

/* By symbol, the namesakes of a side, to find their source files. */
struct source_find {
	struct diff_row **rows;
	size_t nr;
};

/* By symbol: the source file of a namesake is that of its hottest
 * instruction outside inlined code, found by instruction. */
static int find_source(const struct hwp_entry *e, void *ctx)
{
	struct source_find *f = ctx;

	if (!e->symbol || !e->file || e->inlined)
		return 0;
	for (size_t i = 0; i < f->nr; i++) {
		struct diff_row *r = f->rows[i];

		if (!r->src && r->addr == e->address - e->offset &&
		    !strcmp(r->name, e->symbol) && !str_cmp_null(r->path, e->dso))
			r->src = e->file;
	}
	return 0;
}

static int find_sources(struct side *s, size_t nr)
{
	struct source_find f = { .rows = malloc(nr * sizeof(*f.rows)) };
	int err;

	if (!f.rows)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < s->nr; i++)
		if (s->rows[i].namesake)
			f.rows[f.nr++] = &s->rows[i];
	err = hwp_profile_foreach_entry(s->p, HWP_SORT_RIP, 0, find_source, &f);
	free(f.rows);
	return err;
}

/* Tell @s's namesakes apart: by their source file's name, else by their
 * address ("work@0x1139"). 0 or a negative error. */
static int tag_namesakes(struct side *s)
{
	size_t nr = 0;
	int err;

	for (size_t i = 0; i < s->nr; i++)
		nr += s->rows[i].namesake;
	if (!nr)
		return 0;
	if (s->sort == HWP_SORT_SYM) {
		err = find_sources(s, nr);
		if (err)
			return err;
	}
	for (size_t i = 0; i < s->nr; i++) {
		struct diff_row *r = &s->rows[i];
		char *name = NULL;

		if (!r->namesake)
			continue;
		if (r->src) {
			r->file = strdup(base_name(r->src));
			if (!r->file)
				return fail(-ENOMEM, "out of memory");
			continue;
		}
		if (asprintf(&name, "%s@%#" PRIx64, r->name, r->addr) < 0)
			return fail(-ENOMEM, "out of memory");
		free(r->name);
		r->name = name;
	}
	return 0;
}

/* ---- Modules ---- */

int diff_maps_copy(struct hwp_profile_diff *d, const char *const *maps, size_t n)
{
	if (n && !maps)
		return fail(-EINVAL, "hwp_profile_diff_new: nr_map_modules is %zu and map_modules NULL",
			    n);
	d->maps = calloc(n + 1, sizeof(*d->maps));
	if (!d->maps)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *eq = maps[i] ? strchr(maps[i], '=') : NULL;

		if (!eq || eq == maps[i] || !eq[1])
			return fail(-EINVAL, "hwp_profile_diff_new: module map '%s' is not OLD=NEW (A's module file name, then B's)",
				    maps[i] ? maps[i] : "(null)");
		d->maps[i].a = strndup(maps[i], (size_t)(eq - maps[i]));
		d->maps[i].b = strdup(eq + 1);
		d->nr_maps++;
		if (!d->maps[i].a || !d->maps[i].b)
			return fail(-ENOMEM, "out of memory");
	}
	return 0;
}

/* Whether file name @base has the extension @ext, maybe versioned or
 * compressed after it: "libc.so.6", "x.ko.xz". */
static bool has_ext(const char *base, const char *ext)
{
	size_t n = strlen(ext);

	for (const char *at = strstr(base, ext); at; at = strstr(at + 1, ext))
		if (at[n] == '\0' || at[n] == '.')
			return true;
	return false;
}

/* Whether a module, by its path, is a program: not the kernel or one of
 * its modules, nor a library, the loader or anonymous and JIT code. */
static bool is_program(const char *path)
{
	const char *base = base_name(path);

	if (!path || path[0] == '[' || !strncmp(path, "//", 2) ||
	    !strncmp(base, "ld-", 3) || has_ext(base, ".so") || has_ext(base, ".ko"))
		return false;
	return !(strncmp(base, "perf-", 5) == 0 && has_ext(base, ".map"));
}

/* The most sampled program of a profile, or whether it has a module. */
struct module_find {
	const char *want;	/* NULL: the program */
	const char *found;
};

static int find_module(const struct hwp_entry *e, void *ctx)
{
	struct module_find *f = ctx;

	if (f->want ? !strcmp(base_name(e->dso), f->want) : is_program(e->dso)) {
		f->found = base_name(e->dso);
		return 1;
	}
	return 0;
}

static int module_walk(struct hwp_profile *p, struct module_find *f)
{
	int err = hwp_profile_foreach_entry(p, HWP_SORT_DSO, 0, find_module, f);

	return err < 0 ? err : 0;
}

/* Each side's program; when no map was given and they differ in name, and
 * neither side has the other's, map A's to B's. */
static int match_programs(struct hwp_profile_diff *d, struct hwp_profile *a,
			  struct hwp_profile *b)
{
	struct module_find fa = { 0 }, fb = { 0 }, ia = { 0 }, ib = { 0 };
	int err = module_walk(a, &fa) ?: module_walk(b, &fb);

	if (err)
		return err;
	d->a_program = fa.found ? strdup(fa.found) : NULL;
	d->b_program = fb.found ? strdup(fb.found) : NULL;
	if ((fa.found && !d->a_program) || (fb.found && !d->b_program))
		return fail(-ENOMEM, "out of memory");
	d->info.a_program = d->a_program;
	d->info.b_program = d->b_program;
	if (d->nr_maps || !fa.found || !fb.found || !strcmp(fa.found, fb.found))
		return 0;
	ia.want = fb.found;
	ib.want = fa.found;
	err = module_walk(a, &ia) ?: module_walk(b, &ib);
	if (err || ia.found || ib.found)
		return err;
	d->maps[0].a = strdup(fa.found);
	d->maps[0].b = strdup(fb.found);
	d->nr_maps = 1;
	if (!d->maps[0].a || !d->maps[0].b)
		return fail(-ENOMEM, "out of memory");
	d->info.auto_matched = true;
	return 0;
}

/* A's rows of a mapped module take B's name for it. */
static int apply_maps(const struct hwp_profile_diff *d, struct side *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		struct diff_row *r = &s->rows[i];

		for (size_t m = 0; m < d->nr_maps; m++) {
			if (strcmp(r->dso, d->maps[m].a))
				continue;
			free(r->dso);
			r->dso = strdup(d->maps[m].b);
			if (s->sort == HWP_SORT_DSO) {
				free(r->name);
				r->name = strdup(d->maps[m].b);
			}
			if (!r->dso || !r->name)
				return fail(-ENOMEM, "out of memory");
			break;
		}
	}
	return 0;
}

/* ---- Matching ---- */

/* Sort @s's rows by key, those of one key (namesakes of two directories,
 * or of one source file name) added into one. */
static void side_sum(struct side *s)
{
	size_t kept = 0;

	qsort(s->rows, s->nr, sizeof(*s->rows), row_qsort);
	for (size_t i = 0; i < s->nr; i++) {
		if (kept && !diff_row_cmp(&s->rows[kept - 1], &s->rows[i])) {
			s->rows[kept - 1].info.a_samples += s->rows[i].info.a_samples;
			diff_row_release(&s->rows[i]);
			continue;
		}
		s->rows[kept++] = s->rows[i];
	}
	s->nr = kept;
}

/* The union of both sides' rows, by key: the rows of @a and @b move into
 * @d (their strings with them). */
static int merge_sides(struct hwp_profile_diff *d, struct side *a, struct side *b)
{
	size_t i = 0, j = 0;

	d->rows = calloc(a->nr + b->nr + 1, sizeof(*d->rows));
	if (!d->rows)
		return fail(-ENOMEM, "out of memory");
	while (i < a->nr || j < b->nr) {
		int c = i == a->nr ? 1 : j == b->nr ? -1 :
			diff_row_cmp(&a->rows[i], &b->rows[j]);
		struct diff_row *r = &d->rows[d->nr_rows++];

		if (c <= 0) {
			*r = a->rows[i++];
			if (c == 0) {
				r->info.b_samples = b->rows[j].info.a_samples;
				diff_row_release(&b->rows[j++]);
			}
		} else {
			*r = b->rows[j++];
			r->info.b_samples = r->info.a_samples;
			r->info.a_samples = 0;
		}
		r->path = r->src = NULL;
		d->info.nr_matched += r->info.a_samples && r->info.b_samples;
	}
	a->nr = b->nr = 0;
	return 0;
}

int diff_rows(struct hwp_profile_diff *d, struct hwp_profile *a, struct hwp_profile *b)
{
	struct side s[2] = { { 0 }, { 0 } };
	int err;

	err = match_programs(d, a, b);
	if (!err)
		err = side_load(a, d->opts.sort, &s[0]) ?:
		      side_load(b, d->opts.sort, &s[1]);
	if (!err)
		err = apply_maps(d, &s[0]);
	if (!err && (d->opts.sort == HWP_SORT_SYM || d->opts.sort == HWP_SORT_RIP))
		err = mark_namesakes(s) ?: tag_namesakes(&s[0]) ?: tag_namesakes(&s[1]);
	if (!err) {
		side_sum(&s[0]);
		side_sum(&s[1]);
		err = merge_sides(d, &s[0], &s[1]);
	}
	side_release(&s[0]);
	side_release(&s[1]);
	return err;
}
