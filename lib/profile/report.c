// SPDX-License-Identifier: MIT
/* The queries over a profile: its sites (report-sites.c) grouped by
 * instruction, function, source line or module, sorted, with the callers of
 * the top entries from the call chains; the modules that lacked symbols.
 * The call chains are report-stacks.c's. The reports built once a
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
		e->address = s->si.no_vaddr ? 0 : s->si.vaddr;
		e->no_address = s->si.no_vaddr;
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

/* Which of comm and pid @keys sort by, in @ts, and the report of their
 * other key (sym or dso; *@r stays NULL without one). */
static int thread_sort_keys(struct hwp_profile *p, const enum hwp_sort *keys,
			    size_t nr_keys, struct thread_sort *ts, struct report **r)
{
	int err;

	for (size_t i = 0; i < nr_keys; i++) {
		if (keys[i] == HWP_SORT_COMM)
			ts->by_comm = true;
		else if (keys[i] == HWP_SORT_PID)
			ts->by_pid = true;
		else if (*r || (keys[i] != HWP_SORT_SYM && keys[i] != HWP_SORT_DSO))
			return fail(-EINVAL, "sort keys: '%s' does not combine with comm or pid here: comm and pid combine with one of sym or dso",
				    hwp_enum_name(HWP_ENUM_SORT, keys[i]));
		else if ((err = get_report(p, keys[i], r)))
			return err;
	}
	if (p->off_cpu)
		return fail(-EOPNOTSUPP, "'%s': the periods of '%s' are time off the CPU, weighed after the sample: they are not kept by thread, and cannot be sorted by comm or pid",
			    p->input, p->event_names[p->event]);
	return 0;
}

/* @rows, one a thread sorted by key, merged into one a key: how many. A
 * pid's row is named by the thread's last name, whichever comm the row's
 * is (perf's "24246:yes" of the samples before the exec, as sh). */
static size_t merge_thread_rows(struct thread_row *rows, size_t nr_threads,
				struct thread_sort *ts)
{
	size_t nr = 0;

	for (size_t i = 0, j; ts->by_pid && i < nr_threads; i = j) {
		size_t last = rows[i].last;

		for (j = i; j < nr_threads && rows[j].tid == rows[i].tid; j++)
			if (rows[j].last > last)
				last = rows[j].last;
		while (i < j)
			rows[i++].last = last;
	}
	for (size_t i = 0; i < nr_threads; i++) {
		if (nr && !cmp_key(&rows[nr - 1], &rows[i], ts)) {
			rows[nr - 1].samples += rows[i].samples;
			rows[nr - 1].period += rows[i].period;
			if (rows[i].last > rows[nr - 1].last)
				rows[nr - 1].last = rows[i].last;
		} else {
			rows[nr++] = rows[i];
		}
	}
	return nr;
}

/* The rows by @ts's keys (and @r's groups), hottest first, in *@out: how
 * many, or -ENOMEM. */
static long thread_rows(struct hwp_profile *p, struct thread_sort *ts,
			const struct report *r, struct thread_row **out)
{
	struct thread_row *rows;
	size_t nr;

	rows = malloc((p->nr_threads ? p->nr_threads : 1) * sizeof(*rows));
	if (!rows)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nr_threads; i++) {
		const struct thread_count *t = &p->threads[i];

		rows[i] = (struct thread_row){
			.tid = ts->by_pid ? t->tid : 0,
			.comm = ts->by_comm ? t->comm : NULL,
			.group = r ? r->site_group[t->site] : 0,
			.samples = t->samples, .period = t->period, .last = i,
		};
	}
	if (p->nr_threads)
		qsort_r(rows, p->nr_threads, sizeof(*rows), cmp_thread_key, ts);
	nr = merge_thread_rows(rows, p->nr_threads, ts);
	if (nr)
		qsort_r(rows, nr, sizeof(*rows), cmp_thread_rows, ts);
	*out = rows;
	return (long)nr;
}

/* The entry of row @t, ranked @rank, in @e (its strings in @b). */
static void thread_entry(struct hwp_profile *p, const struct report *r,
			 const struct thread_sort *ts, const struct thread_row *t,
			 size_t rank, struct hwp_entry *e, struct entry_buf *b)
{
	const char *last = p->threads[t->last].comm;
	/* comm: the row's name; pid alone: the thread's last */
	const char *comm = ts->by_comm ? t->comm : last;

	if (r) {
		fill_entry(p, r, r->rank[t->group], e, b);
		/* callers are the group's, of every thread */
		e->callers = NULL;
		e->nr_callers = 0;
	} else {
		memset(e, 0, sizeof(*e));
		e->sz = sizeof(*e);
		e->dso = "";
		e->name = b->name;
		if (ts->by_pid)
			snprintf(b->name, sizeof(b->name), "%u:%s", t->tid,
				 comm ? comm : "?");
		else
			snprintf(b->name, sizeof(b->name), "%s", comm ? comm : "?");
	}
	e->rank = rank;
	e->samples = t->samples;
	e->period = t->period;
	e->percent = p->period ? 100.0 * (double)t->period / (double)p->period : 0;
	e->comm = comm ? comm : "?";
	e->thread_comm = ts->by_pid ? (last ? last : "?") : NULL;
	e->tid = ts->by_pid ? (int64_t)t->tid : -1;
}

static int thread_foreach_entry(struct hwp_profile *p, const enum hwp_sort *keys,
				size_t nr_keys, size_t n, hwp_entry_fn fn, void *ctx)
{
	struct thread_sort ts = { false, false };
	struct report *r = NULL;
	struct thread_row *rows = NULL;
	struct entry_buf b;
	struct hwp_entry e;
	long nr;
	int err;

	err = thread_sort_keys(p, keys, nr_keys, &ts, &r);
	if (err)
		return err;
	nr = thread_rows(p, &ts, r, &rows);
	if (nr < 0)
		return (int)nr;
	if (!n || n > (size_t)nr)
		n = (size_t)nr;
	for (size_t i = 0; i < n && !err; i++) {
		thread_entry(p, r, &ts, &rows[i], i, &e, &b);
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
			    "hwp_profile_foreach_entry: NULL argument or no key");
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

int sort_keys_foreach(struct hwp_profile *p, const struct sort_keys *k, size_t n,
		      hwp_entry_fn fn, void *ctx)
{
	return profile_foreach_entry_by(p, k->keys, k->nr, n, fn, ctx);
}
