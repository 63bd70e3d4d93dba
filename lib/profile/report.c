// SPDX-License-Identifier: MIT
/* The queries over a profile: its sites resolved (each once), grouped by
 * instruction, function, source line or module, sorted, with the callers of
 * the top entries from the call chains; the modules that lacked symbols;
 * the call chains by function for flame graphs. The reports built once a
 * sort key are kept in the profile's cache. The formats (export-*.c) are
 * written with these queries alone. */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdlib.h>
#include <string.h>

#define NO_GROUP UINT32_MAX
#define MAX_CALLERS 16

struct group {
	uint32_t dso;
	const char *symbol, *file;
	unsigned int line;
	uint64_t addr;		/* RIP, and unresolved addresses: the address */
	uint32_t site;		/* the first site of the group, for its details */
	uint64_t samples, period;
	struct hwp_caller *callers;
	size_t nr_callers;
};

struct report {
	enum hwp_sort sort;
	struct group *groups;
	size_t nr, cap;
	struct hidx idx;
	uint32_t *order;	/* groups, hottest first */
	uint32_t *rank;		/* group → its place in order */
	uint32_t *site_group;	/* site → group, NO_GROUP when not sampled */
	bool callers_done;
};

void site_resolve(struct hwp_profile *p, size_t i, bool lines)
{
	struct site *s = &p->sites[i];
	uint8_t want;
	char buf[512];
	struct dso *d;
	uint64_t at;

	lines = lines || p->inline_frames;	/* the inlined functions are DWARF's */
	want = lines ? 2 : 1;
	if (s->resolved >= want)
		return;
	symbolize(p->sym, &s->loc, lines, &s->si);
	s->resolved = want;
	if (s->si.symbol) {
		s->name = s->si.symbol;
		return;
	}
	if (machine_dso(p->m, s->loc.dso)->kind == DSO_UNKNOWN) {
		/* "[unknown]": one name for all */
		s->name = machine_dso(p->m, s->loc.dso)->path;
		return;
	}
	d = machine_dso(p->m, s->loc.dso);
	at = s->si.vaddr >= d->kmod_start ? s->si.vaddr - d->kmod_start : s->si.vaddr;
	snprintf(buf, sizeof(buf), "%s+0x%llx", d->name, (unsigned long long)at);
	s->name = symbolize_intern(p->sym, buf);
}

/* The frames of the functions DWARF says were inlined at @s, then its own,
 * added to p->site_frames; none where nothing was inlined there. */
static int add_site_frames(struct hwp_profile *p, struct site *s,
			   const struct inline_frame *in, size_t n)
{
	const char *file = s->si.file;
	unsigned int line = s->si.line;
	struct profile_frame *f;
	char buf[512];

	if (p->nr_site_frames + n + 1 > UINT32_MAX ||
	    vec_reserve(&p->site_frames, &p->cap_site_frames, p->nr_site_frames + n + 1,
			sizeof(*p->site_frames)))
		return -ENOMEM;
	f = p->site_frames + p->nr_site_frames;
	for (size_t i = 0; i < n; i++) {
		/* perf report --inline's marking */
		snprintf(buf, sizeof(buf), "%s (inlined)", in[i].name);
		f[i] = (struct profile_frame){ symbolize_intern(p->sym, buf), in[i].name,
					       file, line };
		if (!f[i].name)
			return -ENOMEM;
		file = in[i].call_file;
		line = in[i].call_line;
	}
	f[n] = (struct profile_frame){ s->name, s->name, file, line };
	s->frames = (uint32_t)p->nr_site_frames;
	s->nr_frames = (uint32_t)n + 1;
	p->nr_site_frames += n + 1;
	return 0;
}

/* Look up the functions inlined at site @site, once: 0 or -ENOMEM. */
static int site_inlines(struct hwp_profile *p, uint32_t site)
{
	struct site *s = &p->sites[site];
	struct inline_frame *in;
	size_t n;
	int err;

	site_resolve(p, site, true);
	if (s->inlines_done)
		return 0;
	s->nr_frames = 0;
	/* without a line, an address DWARF does not cover, or not the
	 * module's (outside its segments): nothing inlined there */
	if (!s->si.file) {
		s->inlines_done = true;
		return 0;
	}
	err = symbolize_inlines(p->sym, s->loc.dso, s->si.vaddr, &in, &n);
	if (!err && n)
		err = add_site_frames(p, s, in, n);
	free(in);
	s->inlines_done = !err;
	return err;
}

/* The innermost function inlined at site @site (site_inlines() done), or NULL. */
static const char *site_inlined(const struct hwp_profile *p, const struct site *s)
{
	return s->inlines_done && s->nr_frames > 1 ? p->site_frames[s->frames].function :
						     NULL;
}

/* Site @site's frames, the innermost first, in *@out: with @inlines, the
 * functions DWARF says were inlined there, then always its own (in @own
 * where it is the only one). Returns how many, valid until the next site is
 * resolved, or -ENOMEM. The one place chains are expanded. */
static long site_frames(struct hwp_profile *p, uint32_t site, bool inlines,
			struct profile_frame *own, const struct profile_frame **out)
{
	const struct site *s = &p->sites[site];
	int err;

	site_resolve(p, site, false);
	if (inlines && (err = site_inlines(p, site)))
		return err;
	if (inlines && s->nr_frames) {
		*out = p->site_frames + s->frames;
		return s->nr_frames;
	}
	*own = (struct profile_frame){ s->name, s->name, s->si.file, s->si.line };
	*out = own;
	return 1;
}

/* ---- grouping ---- */

static void group_key(const struct hwp_profile *p, enum hwp_sort sort,
		      const struct site *s, struct group *g)
{
	memset(g, 0, sizeof(*g));
	g->dso = s->loc.dso;
	switch (sort) {
	case HWP_SORT_DSO:
	case HWP_SORT_CPU:	/* not by site: cpus.c */
	case HWP_SORT_COMM:	/* not by site alone: thread_foreach_entry() */
	case HWP_SORT_PID:
		break;
	case HWP_SORT_RIP:
		g->addr = s->si.vaddr;
		g->symbol = s->si.symbol;
		break;
	case HWP_SORT_LINE:
		g->file = s->si.file;
		g->line = s->si.line;
		if (!g->file)
			g->symbol = s->si.symbol;
		if (!g->file && !g->symbol)
			g->addr = s->si.vaddr;
		break;
	case HWP_SORT_SYM:
		/* A function is its module and start address: two static
		 * functions may share a name, even in one module. */
		g->symbol = s->si.symbol;
		if (g->symbol)
			g->addr = s->si.sym_start;
		else if (machine_dso(p->m, s->loc.dso)->kind != DSO_UNKNOWN)
			g->addr = s->si.vaddr;
		break;
	}
}

static uint64_t hash_group(const struct group *g)
{
	uint64_t h = hash_u64(g->dso);

	h = hash_mix(h, (uint64_t)(uintptr_t)g->symbol);
	h = hash_mix(h, (uint64_t)(uintptr_t)g->file);
	h = hash_mix(h, g->line);
	return hash_mix(h, g->addr);
}

static bool group_eq(size_t idx, const void *key, const void *ctx)
{
	const struct group *a = &((const struct report *)ctx)->groups[idx], *b = key;

	/* Interned strings: equal strings are the same pointer. */
	return a->dso == b->dso && a->symbol == b->symbol && a->file == b->file &&
	       a->line == b->line && a->addr == b->addr;
}

static int add_to_group(struct report *r, struct group *key, const struct site *s,
			uint32_t site)
{
	uint64_t h = hash_group(key);
	long i = hidx_find(&r->idx, h, group_eq, key, r);

	if (i < 0) {
		if (vec_reserve(&r->groups, &r->cap, r->nr + 1, sizeof(*r->groups)) ||
		    hidx_add(&r->idx, h, r->nr))
			return -ENOMEM;
		key->site = site;
		r->groups[r->nr] = *key;
		i = (long)r->nr++;
	}
	r->groups[i].samples += s->samples;
	r->groups[i].period += s->period;
	r->site_group[site] = (uint32_t)i;
	return 0;
}

struct sort_ctx {
	const struct report *r;
	const struct hwp_profile *p;
};

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_groups(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *sc = arg;
	const struct group *a = &sc->r->groups[*(const uint32_t *)pa];
	const struct group *b = &sc->r->groups[*(const uint32_t *)pb];
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	c = cmp_str(sc->p->sites[a->site].name, sc->p->sites[b->site].name);
	if (!c)
		c = cmp_str(a->file, b->file);
	if (!c)
		c = strcmp(machine_dso(sc->p->m, a->dso)->path,
			   machine_dso(sc->p->m, b->dso)->path);
	if (!c && a->line != b->line)
		c = a->line < b->line ? -1 : 1;
	if (!c && a->addr != b->addr)
		c = a->addr < b->addr ? -1 : 1;
	return c;
}

static void report_free(struct report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr; i++)
		free(r->groups[i].callers);
	free(r->groups);
	free(r->order);
	free(r->rank);
	free(r->site_group);
	hidx_release(&r->idx);
	free(r);
}

void report_cache_free(struct hwp_profile *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(p->reports); i++) {
		report_free(p->reports[i]);
		p->reports[i] = NULL;
	}
	disasm_close(p->dis);
	p->dis = NULL;
	free(p->threads);
	hidx_release(&p->thread_idx);
}

static int build_report(struct hwp_profile *p, enum hwp_sort sort, struct report **out)
{
	bool lines = sort == HWP_SORT_RIP || sort == HWP_SORT_LINE;
	struct report *r = calloc(1, sizeof(*r));

	if (!r || !(r->site_group = malloc((p->nr_sites + 1) * sizeof(*r->site_group))))
		goto nomem;
	r->sort = sort;
	p->lines_used |= lines;
	for (size_t i = 0; i < p->nr_sites; i++) {
		struct group key;

		r->site_group[i] = NO_GROUP;
		if (!p->sites[i].samples)
			continue;
		site_resolve(p, i, lines);
		/* the entries name the function inlined there */
		if (lines && site_inlines(p, (uint32_t)i))
			goto nomem;
		group_key(p, sort, &p->sites[i], &key);
		if (add_to_group(r, &key, &p->sites[i], (uint32_t)i))
			goto nomem;
	}
	r->order = malloc((r->nr + 1) * sizeof(*r->order));
	r->rank = malloc((r->nr + 1) * sizeof(*r->rank));
	if (!r->order || !r->rank)
		goto nomem;
	for (size_t i = 0; i < r->nr; i++)
		r->order[i] = (uint32_t)i;
	qsort_r(r->order, r->nr, sizeof(*r->order), cmp_groups,
		&(struct sort_ctx){ r, p });
	for (size_t i = 0; i < r->nr; i++)
		r->rank[r->order[i]] = (uint32_t)i;
	*out = r;
	return 0;
nomem:
	report_free(r);
	return fail(-ENOMEM, "out of memory");
}

/* ---- callers ---- */

/* A caller of a group: a function, known by its module and start (two may
 * share a name), or an address no symbol covers, whose name says where. */
struct caller_key {
	uint32_t group, dso;
	const char *name;	/* interned */
	uint64_t start;
};

struct caller_row {
	struct caller_key key;
	uint64_t samples;
	/* what the callers are ranked by: the samples, or in an off-CPU
	 * profile the time off the CPU */
	uint64_t weight;
};

/* The callers of all groups at once, in one table: a search per group
 * would cost the square of its callers, and a chain of 100,000 distinct
 * return addresses is an ordinary profile of generated code. */
struct caller_set {
	struct caller_row *v;
	size_t nr, cap;
	struct hidx idx;
};

static bool caller_eq(size_t idx, const void *key, const void *ctx)
{
	const struct caller_key *a = &((const struct caller_set *)ctx)->v[idx].key;
	const struct caller_key *b = key;

	return a->group == b->group && a->dso == b->dso && a->name == b->name &&
	       a->start == b->start;
}

static int add_caller(struct hwp_profile *p, struct caller_set *cs, uint32_t group,
		      uint32_t site, uint64_t samples, uint64_t weight)
{
	const struct site *s = &p->sites[site];
	const struct profile_frame *f;
	struct profile_frame own;
	struct caller_key k;
	uint64_t h;
	long i = site_frames(p, site, p->inline_frames, &own, &f);

	if (i < 0)
		return (int)i;
	/* the innermost frame: the caller */
	k = (struct caller_key){ group, s->loc.dso, f[0].name,
				 s->si.symbol ? s->si.sym_start : 0 };
	h = hash_mix(hash_mix(hash_u64(k.group), k.dso), (uint64_t)(uintptr_t)k.name);
	h = hash_mix(h, k.start);
	i = hidx_find(&cs->idx, h, caller_eq, &k, cs);
	if (i < 0) {
		if (vec_reserve(&cs->v, &cs->cap, cs->nr + 1, sizeof(*cs->v)) ||
		    hidx_add(&cs->idx, h, cs->nr))
			return -ENOMEM;
		cs->v[cs->nr] = (struct caller_row){ k, 0, 0 };
		i = (long)cs->nr++;
	}
	cs->v[i].samples += samples;
	cs->v[i].weight += weight;
	return 0;
}

/* By group, then the most frequent first; ties by name, module and start,
 * so that the order does not depend on the file's. */
static int cmp_caller_rows(const void *pa, const void *pb, void *arg)
{
	const struct caller_row *a = pa, *b = pb;
	struct machine *m = arg;
	int c;

	if (a->key.group != b->key.group)
		return a->key.group < b->key.group ? -1 : 1;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	c = strcmp(a->key.name, b->key.name);
	if (!c)
		c = strcmp(machine_dso(m, a->key.dso)->path,
			   machine_dso(m, b->key.dso)->path);
	if (!c && a->key.start != b->key.start)
		c = a->key.start < b->key.start ? -1 : 1;
	return c;
}

static void drop_callers(struct report *r)
{
	for (size_t g = 0; g < r->nr; g++) {
		free(r->groups[g].callers);
		r->groups[g].callers = NULL;
		r->groups[g].nr_callers = 0;
	}
}

/* Each group's MAX_CALLERS most frequent callers, from @cs sorted. */
static int give_callers(struct hwp_profile *p, struct report *r,
			const struct caller_set *cs)
{
	for (size_t i = 0; i < cs->nr; i++) {
		const struct caller_row *c = &cs->v[i];
		struct group *gr = &r->groups[c->key.group];
		uint64_t of = p->off_cpu ? gr->period : gr->samples;

		if (gr->nr_callers == MAX_CALLERS)
			continue;
		if (!gr->callers &&
		    !(gr->callers = calloc(MAX_CALLERS, sizeof(*gr->callers))))
			return -ENOMEM;
		gr->callers[gr->nr_callers++] = (struct hwp_caller){
			.name = c->key.name,
			.dso = machine_dso(p->m, c->key.dso)->path,
			.samples = c->samples,
			.percent = of ? 100.0 * (double)c->weight / (double)of : 0,
		};
	}
	return 0;
}

static int find_callers(struct hwp_profile *p, struct report *r)
{
	struct caller_set cs = { 0 };
	int err = 0;

	for (size_t i = 0; i < p->nr_stacks && !err; i++) {
		const struct stack *st = &p->stacks[i];
		uint32_t g;

		if (st->nr < 2 || !st->samples)
			continue;
		g = r->site_group[p->frames[st->first]];
		if (g != NO_GROUP)
			err = add_caller(p, &cs, g, p->frames[st->first + 1],
					 st->samples,
					 p->off_cpu ? st->period : st->samples);
	}
	if (!err && cs.nr) {	/* qsort_r() of NULL is undefined, even for none */
		qsort_r(cs.v, cs.nr, sizeof(*cs.v), cmp_caller_rows, p->m);
		err = give_callers(p, r, &cs);
	}
	free(cs.v);
	hidx_release(&cs.idx);
	if (err) {
		drop_callers(r);
		return fail(-ENOMEM, "out of memory");
	}
	r->callers_done = true;
	return 0;
}

static int get_report(struct hwp_profile *p, enum hwp_sort sort, struct report **out)
{
	int err;

	if ((unsigned int)sort > HWP_SORT_DSO)
		return fail(-EINVAL, "'%s' is not a sort key of sites",
			    hwp_enum_name(HWP_ENUM_SORT, sort) ?: "?");
	if (!p->reports[sort]) {
		err = build_report(p, sort, &p->reports[sort]);
		if (err)
			return err;
	}
	if (p->callchains && !p->reports[sort]->callers_done) {
		err = find_callers(p, p->reports[sort]);
		if (err)
			return err;
	}
	*out = p->reports[sort];
	return 0;
}

/* ---- walking the top ---- */

int profile_disasm(struct hwp_profile *p, uint32_t dso, uint64_t vaddr, uint8_t *bytes,
		   size_t nbytes, char *text, size_t size)
{
	int machine = symbolize_elf_machine(p->sym, dso);
	ssize_t n = symbolize_read_code(p->sym, dso, vaddr, bytes, nbytes);

	if (n <= 0)
		return -ENOENT;
	if (machine != p->dis_machine) {
		disasm_close(p->dis);
		p->dis = NULL;
		p->dis_machine = disasm_open(machine, &p->dis) ? -1 : machine;
	}
	if (!p->dis)
		return -EOPNOTSUPP;
	return disasm_one(p->dis, bytes, (size_t)n, vaddr, text, size);
}

struct entry_buf {
	char name[600];
	char disasm[160];
	uint8_t bytes[16];
};

static void fill_entry(struct hwp_profile *p, const struct report *r, size_t rank,
		       struct hwp_entry *e, struct entry_buf *b)
{
	const struct group *g = &r->groups[r->order[rank]];
	const struct site *s = &p->sites[g->site];
	const struct dso *d = machine_dso(p->m, g->dso);
	int len;

	memset(e, 0, sizeof(*e));
	e->sz = sizeof(*e);
	e->tid = -1;
	e->rank = rank;
	e->dso = d->path;
	e->samples = g->samples;
	e->period = g->period;
	e->percent = p->period ? 100.0 * (double)g->period / (double)p->period : 0;
	e->symbol = r->sort == HWP_SORT_DSO ? NULL : g->symbol ? g->symbol : s->si.symbol;
	e->callers = g->callers;
	e->nr_callers = g->nr_callers;
	e->name = b->name;
	switch (r->sort) {
	case HWP_SORT_DSO:
	case HWP_SORT_CPU:	/* not by site: cpus.c */
	case HWP_SORT_COMM:	/* not by site alone: thread_foreach_entry() */
	case HWP_SORT_PID:
		snprintf(b->name, sizeof(b->name), "%s", d->path);
		break;
	case HWP_SORT_SYM:
		e->address = s->si.symbol ? s->si.sym_start : s->si.vaddr;
		snprintf(b->name, sizeof(b->name), "%s", s->name);
		break;
	case HWP_SORT_LINE:
		e->file = g->file;
		e->line = g->line;
		e->inlined = g->file ? site_inlined(p, s) : NULL;
		if (g->file)
			format_source(g->file, g->line, b->name, sizeof(b->name));
		else
			snprintf(b->name, sizeof(b->name), "%s", s->name);
		break;
	case HWP_SORT_RIP:
		e->address = s->si.vaddr;
		e->file = s->si.file;
		e->line = s->si.line;
		e->inlined = site_inlined(p, s);
		if (s->si.symbol) {
			e->offset = s->si.vaddr - s->si.sym_start;
			snprintf(b->name, sizeof(b->name), "%s+0x%llx", s->si.symbol,
				 (unsigned long long)e->offset);
		} else {
			snprintf(b->name, sizeof(b->name), "%s", s->name);
		}
		len = profile_disasm(p, g->dso, s->si.vaddr, b->bytes, sizeof(b->bytes),
				     b->disasm, sizeof(b->disasm));
		if (len > 0) {
			e->bytes = b->bytes;
			e->nr_bytes = (size_t)len;
			e->disasm = b->disasm;
		}
		break;
	}
}

/* ---- by thread: HWP_SORT_COMM, HWP_SORT_PID ---- */

struct thread_key {
	uint32_t tid;
	const char *comm;
	uint32_t site;
};

static uint64_t hash_thread(const struct thread_key *k)
{
	uint64_t h = hash_mix(hash_u64(k->tid), (uint64_t)(uintptr_t)k->comm);

	return hash_mix(h, k->site);
}

static bool thread_eq(size_t idx, const void *key, const void *ctx)
{
	const struct thread_count *a = &((const struct hwp_profile *)ctx)->threads[idx];
	const struct thread_key *b = key;

	return a->tid == b->tid && a->comm == b->comm && a->site == b->site;
}

/* The thread_count of @k, added on first sight: its index, or -1 when out
 * of memory. */
static long thread_index(struct hwp_profile *p, const struct thread_key *k)
{
	uint64_t h = hash_thread(k);
	long i = hidx_find(&p->thread_idx, h, thread_eq, k, p);

	if (i >= 0)
		return i;
	if (vec_reserve(&p->threads, &p->cap_threads, p->nr_threads + 1,
			sizeof(*p->threads)) ||
	    hidx_add(&p->thread_idx, h, p->nr_threads))
		return -1;
	p->threads[p->nr_threads] =
		(struct thread_count){ k->tid, k->comm, k->site, 0, 0 };
	return (long)p->nr_threads++;
}

int thread_add(struct hwp_profile *p, uint32_t tid, const char *comm, uint32_t site,
	       uint64_t period)
{
	struct thread_key k = { tid, comm, site };
	uint32_t *last = &p->thread_last[(tid * 0x9e3779b1u ^ site) &
					 (THREAD_CACHE_SLOTS - 1)];
	long i = *last && thread_eq(*last - 1, &k, p) ? (long)*last - 1 :
						       thread_index(p, &k);

	if (i < 0)
		return fail(-ENOMEM, "out of memory");
	*last = (uint32_t)i + 1;
	p->threads[i].samples++;
	p->threads[i].period += period;
	return 0;
}

/* One row of a report with thread keys: the thread's part of the key (tid
 * 0 when pid is not a key, comm NULL when comm is not), and the group of
 * the site key's report (0 without one). */
struct thread_row {
	uint32_t tid;
	const char *comm;	/* comm key: the sample's; pid key: the thread's last */
	uint32_t group;
	uint64_t samples, period;
	size_t last;		/* the latest thread_count, for pid's name */
};

struct thread_sort {
	bool by_comm, by_pid;
};

static int cmp_key(const struct thread_row *a, const struct thread_row *b,
		   const struct thread_sort *ts)
{
	int c;

	if (ts->by_pid && a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	if (ts->by_comm && (c = cmp_str(a->comm, b->comm)))
		return c;
	return a->group < b->group ? -1 : a->group > b->group;
}

static int cmp_thread_key(const void *pa, const void *pb, void *arg)
{
	return cmp_key(pa, pb, arg);
}

/* Hottest first; ties by the key, so the order is stable. */
static int cmp_thread_rows(const void *pa, const void *pb, void *arg)
{
	const struct thread_row *a = pa, *b = pb;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return cmp_key(a, b, arg);
}

static int thread_foreach_entry(struct hwp_profile *p, const enum hwp_sort *keys,
				size_t nr_keys, size_t n, hwp_entry_fn fn, void *ctx)
{
	struct thread_sort ts = { false, false };
	struct report *r = NULL;
	struct thread_row *rows;
	struct entry_buf b;
	size_t nr = 0;
	int err = 0;

	for (size_t i = 0; i < nr_keys; i++) {
		if (keys[i] == HWP_SORT_COMM)
			ts.by_comm = true;
		else if (keys[i] == HWP_SORT_PID)
			ts.by_pid = true;
		else if (r || (keys[i] != HWP_SORT_SYM && keys[i] != HWP_SORT_DSO))
			return fail(-EINVAL, "sort keys: '%s' does not combine with comm or pid here: comm and pid combine with one of sym or dso",
				    hwp_enum_name(HWP_ENUM_SORT, keys[i]));
		else if ((err = get_report(p, keys[i], &r)))
			return err;
	}
	if (p->off_cpu)
		return fail(-EOPNOTSUPP, "'%s': the periods of '%s' are time off the CPU, weighed after the sample: they are not kept by thread, and cannot be sorted by comm or pid",
			    p->input, p->event_names[p->event]);
	rows = malloc((p->nr_threads ? p->nr_threads : 1) * sizeof(*rows));
	if (!rows)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nr_threads; i++) {
		const struct thread_count *t = &p->threads[i];

		rows[i] = (struct thread_row){
			.tid = ts.by_pid ? t->tid : 0,
			.comm = ts.by_comm ? t->comm : NULL,
			.group = r ? r->site_group[t->site] : 0,
			.samples = t->samples, .period = t->period, .last = i,
		};
	}
	if (p->nr_threads)
		qsort_r(rows, p->nr_threads, sizeof(*rows), cmp_thread_key, &ts);
	/* pid: named by the thread's last name, whichever comm the row's is
	 * (perf's "24246:yes" of the samples before the exec, as sh) */
	for (size_t i = 0, j; ts.by_pid && i < p->nr_threads; i = j) {
		size_t last = rows[i].last;

		for (j = i; j < p->nr_threads && rows[j].tid == rows[i].tid; j++)
			if (rows[j].last > last)
				last = rows[j].last;
		while (i < j)
			rows[i++].last = last;
	}
	for (size_t i = 0; i < p->nr_threads; i++) {
		if (nr && !cmp_key(&rows[nr - 1], &rows[i], &ts)) {
			rows[nr - 1].samples += rows[i].samples;
			rows[nr - 1].period += rows[i].period;
			if (rows[i].last > rows[nr - 1].last)
				rows[nr - 1].last = rows[i].last;
		} else {
			rows[nr++] = rows[i];
		}
	}
	if (nr)
		qsort_r(rows, nr, sizeof(*rows), cmp_thread_rows, &ts);
	if (!n || n > nr)
		n = nr;
	for (size_t i = 0; i < n && !err; i++) {
		const struct thread_row *t = &rows[i];
		const char *last = p->threads[t->last].comm;
		/* comm: the row's name; pid alone: the thread's last */
		const char *comm = ts.by_comm ? t->comm : last;
		struct hwp_entry e;

		if (r) {
			fill_entry(p, r, r->rank[t->group], &e, &b);
			/* callers are the group's, of every thread */
			e.callers = NULL;
			e.nr_callers = 0;
		} else {
			memset(&e, 0, sizeof(e));
			e.sz = sizeof(e);
			e.dso = "";
			e.name = b.name;
			if (ts.by_pid)
				snprintf(b.name, sizeof(b.name), "%u:%s", t->tid,
					 comm ? comm : "?");
			else
				snprintf(b.name, sizeof(b.name), "%s", comm ? comm : "?");
		}
		e.rank = i;
		e.samples = t->samples;
		e.period = t->period;
		e.percent = p->period ? 100.0 * (double)t->period / (double)p->period : 0;
		e.comm = comm ? comm : "?";
		e.thread_comm = ts.by_pid ? (last ? last : "?") : NULL;
		e.tid = ts.by_pid ? (int64_t)t->tid : -1;
		err = fn(&e, ctx);
	}
	free(rows);
	return err;
}

int profile_foreach_entry_by(struct hwp_profile *p, const enum hwp_sort *keys,
					 size_t nr_keys, size_t n, hwp_entry_fn fn,
					 void *ctx)
{
	struct entry_buf b;
	struct report *r = NULL;
	int err;

	clear_error();
	if (!p || !fn || !keys || !nr_keys)
		return fail(-EINVAL,
			    "profile_foreach_entry_by: NULL argument or no key");
	for (size_t i = 0; i < nr_keys; i++) {
		if ((unsigned int)keys[i] > HWP_SORT_PID)
			return fail(-EINVAL, "unknown sort key %d", (int)keys[i]);
		if (keys[i] == HWP_SORT_COMM || keys[i] == HWP_SORT_PID)
			return thread_foreach_entry(p, keys, nr_keys, n, fn, ctx);
	}
	if (nr_keys > 1)
		return fail(-EINVAL, "sort keys: '%s,%s': only comm and pid combine with another key",
			    hwp_enum_name(HWP_ENUM_SORT, keys[0]),
			    hwp_enum_name(HWP_ENUM_SORT, keys[1]));
	if (keys[0] == HWP_SORT_CPU)
		return cpu_foreach_entry(p, n, fn, ctx);
	err = get_report(p, keys[0], &r);
	if (err)
		return err;
	if (!n || n > r->nr)
		n = r->nr;
	for (size_t i = 0; i < n; i++) {
		struct hwp_entry e;

		fill_entry(p, r, i, &e, &b);
		err = fn(&e, ctx);
		if (err)
			return err;
	}
	return 0;
}

HWP_API int hwp_profile_foreach_entry(struct hwp_profile *p, enum hwp_sort sort, size_t n,
			    hwp_entry_fn fn, void *ctx)
{
	return profile_foreach_entry_by(p, &sort, 1, n, fn, ctx);
}

/* ---- modules ---- */

struct module_row {
	uint32_t dso;
	uint64_t samples;
};

static int cmp_modules(const void *pa, const void *pb)
{
	const struct module_row *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->dso < b->dso ? -1 : a->dso > b->dso;
}

int profile_foreach_module(struct hwp_profile *p, hwp_module_fn fn, void *ctx)
{
	size_t nd;
	struct module_row *rows;
	int err = 0;

	clear_error();
	if (!p || !fn)
		return fail(-EINVAL, "profile_foreach_module: NULL argument");
	nd = machine_nr_dsos(p->m);
	rows = calloc(nd + 1, sizeof(*rows));
	if (!rows)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nd; i++)
		rows[i].dso = (uint32_t)i;
	for (size_t i = 0; i < p->nr_sites; i++)
		rows[p->sites[i].loc.dso].samples += p->sites[i].samples;
	qsort(rows, nd, sizeof(*rows), cmp_modules);
	for (size_t i = 0; i < nd && rows[i].samples && !err; i++) {
		struct dso *d = machine_dso(p->m, rows[i].dso);
		struct hwp_module_info mi = { .sz = sizeof(mi) };

		symbolize_check(p->sym, rows[i].dso, p->lines_used);
		mi.path = d->path;
		mi.samples = rows[i].samples;
		mi.has_symbols = d->has_symbols;
		mi.has_debuginfo = d->has_debuginfo;
		mi.no_symbols = d->has_symbols ? NULL : d->sym_problem;
		mi.no_debuginfo = d->has_debuginfo ? NULL : d->dbg_problem;
		mi.no_code = symbolize_code_problem(p->sym, rows[i].dso);
		mi.read_from = d->build_copy;
		mi.from_debuginfod = d->from_debuginfod;
		err = fn(&mi, ctx);
	}
	free(rows);
	return err;
}

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

/* The source file and line of the first instruction of @s's function (NULL
 * and 0 when unknown). */
static void function_source(struct hwp_profile *p, const struct site *s,
			    const char **file, unsigned int *line)
{
	struct symbol_info entry;

	if (s->si.symbol &&
	    !symbolize_vaddr(p->sym, s->loc.dso, s->si.sym_start, true, &entry) &&
	    entry.file) {
		*file = entry.file;
		*line = entry.line;
	}
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

/* ---- call chains by address ---- */

/* A stack's or site's values: with one event, its period. */
static const uint64_t *values(const uint64_t *table, size_t row, size_t nr_events,
			      const uint64_t *period)
{
	return nr_events > 1 ? table + row * nr_events : period;
}

static bool any_value(const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return true;
	return false;
}

int profile_foreach_site_chain(struct hwp_profile *p, profile_site_chain_fn fn, void *ctx)
{
	int err = 0;

	for (size_t i = 0; p->callchains && i < p->nr_stacks && !err; i++) {
		const struct stack *st = &p->stacks[i];
		const uint64_t *v = values(p->stack_values, i, p->nr_events, &st->period);

		if (any_value(v, p->nr_events))
			err = fn(p->frames + st->first, st->nr, v, ctx);
	}
	for (size_t i = 0; !p->callchains && i < p->nr_sites && !err; i++) {
		const uint64_t *v = values(p->site_values, i, p->nr_events,
					   &p->sites[i].period);
		uint32_t site = (uint32_t)i;

		if (p->sites[i].samples ||
		    (p->nr_events > 1 && any_value(v, p->nr_events)))
			err = fn(&site, 1, v, ctx);
	}
	return err;
}

void profile_recording(const struct hwp_profile *p, struct profile_recording *out)
{
	*out = (struct profile_recording){
		.cmdline = p->cmdline,
		.hostname = p->hostname,
		.osrelease = p->osrelease,
		.duration_ns = p->time_last - p->time_first,
		.sample_period = p->sample_period,
		.event = (size_t)p->event,
	};
}

size_t profile_nr_sites(const struct hwp_profile *p)
{
	return p->nr_sites;
}

size_t profile_nr_modules(const struct hwp_profile *p)
{
	return machine_nr_dsos(p->m);
}

int profile_site_get(struct hwp_profile *p, uint32_t site, struct profile_site *out)
{
	const struct site *s = &p->sites[site];
	const struct dso *d = machine_dso(p->m, s->loc.dso);
	const struct profile_frame *f;
	long n;

	site_resolve(p, site, true);
	p->lines_used = true;
	n = site_frames(p, site, true, &p->own_frame, &f);
	if (n < 0)
		return fail(-ENOMEM, "out of memory");
	*out = (struct profile_site){
		.module = s->loc.dso,
		.module_path = d->path,
		.build_id = &d->build_id,
		.address = s->si.vaddr,
		.function = s->name,
		.has_symbol = s->si.symbol != NULL,
		.file = s->si.file,
		.line = s->si.line,
		.frames = f,
		.nr_frames = (size_t)n,
	};
	function_source(p, s, &out->function_file, &out->function_line);
	return 0;
}

/* ---- for the formats ---- */

bool event_in_ns(const struct hwp_profile *p, const char *event)
{
	if (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock"))
		return true;
	for (size_t i = 0; i < p->nr_events; i++)
		if (!strcmp(p->event_names[i], event))
			return p->oc.events && p->oc.events[i];
	return false;
}

/* Whether @s (@len bytes) names a sort key (lib/core/names.c), and which. */
static bool sort_key_named(const char *s, size_t len, size_t *key)
{
	const char *name;

	for (size_t k = 0; (name = hwp_enum_name(HWP_ENUM_SORT, (int)k)); k++)
		if (strlen(name) == len && !strncmp(name, s, len)) {
			*key = k;
			return true;
		}
	return false;
}

HWP_API int hwp_sort_parse(const char *list, enum hwp_sort *keys, size_t max, size_t *nr)
{
	const char *s = list;

	clear_error();
	if (!list || !keys || !nr)
		return fail(-EINVAL, "hwp_sort_parse: NULL argument");
	*nr = 0;
	for (;;) {
		size_t len = strcspn(s, ","), k;

		if (!sort_key_named(s, len, &k))
			return fail(-EINVAL, "'%.*s' is not a sort key: sym, rip, line, dso, cpu, comm or pid (comm and pid combine with sym or dso: comm,sym)",
				    (int)len, s);
		for (size_t i = 0; i < *nr; i++)
			if (keys[i] == (enum hwp_sort)k)
				return fail(-EINVAL, "'%s': '%s' is given twice", list,
					    hwp_enum_name(HWP_ENUM_SORT, (int)k));
		if (*nr == max)
			return fail(-E2BIG, "'%s': more than %zu sort keys", list, max);
		keys[(*nr)++] = (enum hwp_sort)k;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int sort_keys_of(const struct hwp_write_opts *o, struct sort_keys *k)
{
	memset(k, 0, sizeof(*k));
	k->keys = o->nr_sort_keys ? o->sort_keys : &o->sort;
	k->nr = o->nr_sort_keys ? o->nr_sort_keys : 1;
	if (!k->keys)
		return fail(-EINVAL, "hwp_write_opts: nr_sort_keys without sort_keys");
	k->site = k->keys[0];
	for (size_t i = 0; i < k->nr; i++) {
		if ((unsigned int)k->keys[i] > HWP_SORT_PID)
			return fail(-EINVAL, "unknown sort key %d", (int)k->keys[i]);
		k->comm |= k->keys[i] == HWP_SORT_COMM;
		k->pid |= k->keys[i] == HWP_SORT_PID;
		if (k->keys[i] != HWP_SORT_COMM && k->keys[i] != HWP_SORT_PID)
			k->site = k->keys[i];
		else if (k->site == HWP_SORT_COMM || k->site == HWP_SORT_PID)
			k->site = k->keys[i];
		snprintf(k->name + strlen(k->name), sizeof(k->name) - strlen(k->name),
			 "%s%s", i ? "," : "", hwp_enum_name(HWP_ENUM_SORT, k->keys[i]));
	}
	return 0;
}

int sort_keys_foreach(struct hwp_profile *p, const struct sort_keys *k, size_t n,
		      hwp_entry_fn fn, void *ctx)
{
	return profile_foreach_entry_by(p, k->keys, k->nr, n, fn, ctx);
}

void format_bytes(const uint8_t *b, size_t n, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 4 <= size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%02x", i ? " " : "", b[i]);
}

void format_source(const char *file, unsigned int line, char *buf, size_t size)
{
	const char *base;

	if (!file) {
		buf[0] = '\0';
		return;
	}
	base = strrchr(file, '/');
	snprintf(buf, size, "%s:%u", base ? base + 1 : file, line);
}
