// SPDX-License-Identifier: MIT
/* Address spaces rebuilt from the records, so that a sample's address can
 * be placed in a module long after the process is gone: MMAP and MMAP2 add
 * executable mappings, COMM with the exec flag empties an address space,
 * FORK gives the child its parent's, EXIT of a process's last thread lets
 * it go. The kernel's addresses need no mapping: they go to kallsyms
 * (symbolize.c); but those of a kernel module (the kernel's MMAP records
 * of .ko files, as perf record writes them) are the module's, named as
 * perf names it ("[e1000e]").
 *
 * An address space is shared, as perf shares its map groups: by the
 * threads of a process (one entry per pid), and by a forked child with
 * its parent until either maps something (copy on write) or the child
 * execs (it lets go). So a fork costs nothing, whatever the parent maps.
 * It is freed when the last process holding it execs or exits. Only
 * processes whose FORK was seen have their threads counted, so only they
 * are let go at exit; those that ran before the recording keep theirs,
 * bounded by what ran then. Files with times are read in time order, so
 * no sample of a process comes after its exit; in a file without times a
 * sample written after its process's EXIT stays unresolved, as in perf.
 *
 * The mappings of a space are a balanced tree (tsearch) by address, none
 * overlapping: a lookup and an insertion cost O(log n). */
#include "sample/sample.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct maps {
	unsigned int refs;	/* the processes that share it */
	void *root;		/* struct map, by address; no two overlap */
	size_t nr;
};

struct proc {
	uint32_t pid;
	struct maps *maps;	/* NULL: nothing mapped */
	uint32_t threads;	/* alive, when @counted */
	bool counted;		/* its FORK was seen, so its threads are known */
};

/* A thread's command name (COMM records, inherited at FORK), as perf
 * keeps it for report --comm and --sort comm. */
struct thread {
	uint32_t tid;
	const char *comm;	/* interned in the machine's paths */
};

struct machine {
	struct strtab paths;
	struct thread *threads;
	size_t nr_threads, cap_threads;
	struct hidx thread_idx;	/* by tid */
	struct dso *dsos;
	size_t nr_dsos, cap_dsos;
	struct hidx dso_idx;	/* by interned path */
	struct proc *procs;
	size_t nr_procs, cap_procs;
	struct hidx proc_idx;	/* by pid */
	size_t last_proc;	/* the process of the last lookup, a cheap cache */
	size_t nr_maps;		/* in all address spaces, each counted once */
	uint64_t generation;	/* machine_generation() */
	uint32_t kernel_dso, unknown_dso;
	struct maps *kmods;	/* the kernel's modules, where they were loaded */
	/* The kernel map's reference symbol ("_text" of the MMAP of
	 * "[kernel.kallsyms]_text") and its address in the recording (the
	 * record's pgoff, as perf writes it), or "" */
	char kref_name[64];
	uint64_t kref_addr;
	/* where the modules are placed by this machine's list of them, for a
	 * recording of this kernel that maps none: asked, and still to do */
	bool running_modules;
};

/* Comparisons of mappings, for the tests: the work of the lookups. */
static _Thread_local unsigned long map_compares;

/* The kernel's half of a 64-bit address space (perf's default kernel
 * start, on x86-64 and arm64): a "kernel" sample below it is not in the
 * kernel's code (a broken chain, a user address in a kernel frame). */
#define KERNEL_START_MIN (1ull << 63)

static bool dso_eq(size_t idx, const void *key, const void *ctx)
{
	const struct machine *m = ctx;

	return m->dsos[idx].path == key;
}

static enum dso_kind kind_of(const char *path)
{
	if (!strcmp(path, "[vdso]"))
		return DSO_VDSO;
	if (path[0] == '/' && strncmp(path, "/memfd:", 7) && !strstr(path, " (deleted)"))
		return DSO_FILE;
	return DSO_ANON;
}

/* The module of @path (interned), added on first sight. */
static int dso_find(struct machine *m, const char *path, enum dso_kind kind,
		    uint32_t *out)
{
	const char *p = strtab_intern(&m->paths, path, strlen(path));
	uint64_t h;
	long i;
	struct dso *d;
	const char *slash;

	if (!p)
		return -ENOMEM;
	h = hash_u64((uint64_t)(uintptr_t)p);
	i = hidx_find(&m->dso_idx, h, dso_eq, p, m);
	if (i >= 0) {
		*out = (uint32_t)i;
		return 0;
	}
	if (vec_reserve(&m->dsos, &m->cap_dsos, m->nr_dsos + 1, sizeof(*m->dsos)) ||
	    hidx_add(&m->dso_idx, h, m->nr_dsos))
		return -ENOMEM;
	d = &m->dsos[m->nr_dsos];
	memset(d, 0, sizeof(*d));
	d->path = p;
	slash = strrchr(p, '/');
	d->name = slash && slash[1] ? slash + 1 : p;
	d->kind = kind;
	*out = (uint32_t)m->nr_dsos++;
	return 0;
}

static void maps_put(struct machine *m, struct maps *g);

int machine_pseudo_dso(struct machine *m, const char *name, uint32_t *out)
{
	return dso_find(m, name, DSO_UNKNOWN, out);
}

int machine_set_build_id(struct machine *m, const char *path,
			 const struct pd_build_id *id)
{
	uint32_t dso;

	if (kind_of(path) != DSO_FILE)
		return 0;	/* the kernel's, and memory's: not files to check */
	if (dso_find(m, path, DSO_FILE, &dso))
		return fail(-ENOMEM, "out of memory");
	m->dsos[dso].build_id = *id;
	return 0;
}

int machine_set_file_stat(struct machine *m, const char *path,
			  const struct pd_file_stat *st)
{
	uint32_t dso;

	if (kind_of(path) != DSO_FILE)
		return 0;
	if (dso_find(m, path, DSO_FILE, &dso))
		return fail(-ENOMEM, "out of memory");
	m->dsos[dso].stat = *st;
	m->dsos[dso].stat_known = true;
	return 0;
}

/* The file an MMAP2 mapped at @d's path: the first, and whether another
 * one was mapped there too (rebuilt while recording, or another mount
 * namespace's). */
static void note_file_id(struct dso *d, const struct mmap_fields *f)
{
	if (d->kind != DSO_FILE || !f->ino)
		return;
	if (!d->ino) {
		d->maj = f->maj;
		d->min = f->min;
		d->ino = f->ino;
		d->ino_gen = f->ino_gen;
	} else if (d->ino != f->ino || d->maj != f->maj || d->min != f->min ||
		   (d->ino_gen && f->ino_gen && d->ino_gen != f->ino_gen)) {
		d->remapped = true;
	}
}

int machine_new(struct machine **out)
{
	struct machine *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m || !(m->kmods = calloc(1, sizeof(*m->kmods))) ||
	    dso_find(m, PD_KERNEL_NAME, DSO_KERNEL, &m->kernel_dso) ||
	    dso_find(m, "[unknown]", DSO_UNKNOWN, &m->unknown_dso)) {
		machine_free(m);
		return fail(-ENOMEM, "out of memory");
	}
	m->kmods->refs = 1;
	m->generation = 1;
	*out = m;
	return 0;
}

void machine_free(struct machine *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_procs; i++)
		maps_put(m, m->procs[i].maps);
	maps_put(m, m->kmods);
	free(m->procs);
	free(m->threads);
	hidx_release(&m->thread_idx);
	free(m->dsos);
	hidx_release(&m->proc_idx);
	hidx_release(&m->dso_idx);
	strtab_release(&m->paths);
	free(m);
}

size_t machine_nr_dsos(const struct machine *m)
{
	return m->nr_dsos;
}

struct dso *machine_dso(struct machine *m, uint32_t idx)
{
	return idx < m->nr_dsos ? &m->dsos[idx] : NULL;
}

static bool proc_eq(size_t idx, const void *key, const void *ctx)
{
	const struct machine *m = ctx;

	return m->procs[idx].pid == *(const uint32_t *)key;
}

static struct proc *proc_find(struct machine *m, uint32_t pid, bool create)
{
	long i;

	if (m->last_proc < m->nr_procs && m->procs[m->last_proc].pid == pid)
		return &m->procs[m->last_proc];
	i = hidx_find(&m->proc_idx, hash_u64(pid), proc_eq, &pid, m);
	if (i < 0) {
		if (!create ||
		    vec_reserve(&m->procs, &m->cap_procs, m->nr_procs + 1,
				sizeof(*m->procs)) ||
		    hidx_add(&m->proc_idx, hash_u64(pid), m->nr_procs))
			return NULL;
		i = (long)m->nr_procs++;
		memset(&m->procs[i], 0, sizeof(m->procs[i]));
		m->procs[i].pid = pid;
	}
	m->last_proc = (size_t)i;
	return &m->procs[i];
}

/* Mappings that overlap compare equal: in a tree of mappings that never
 * overlap, a lookup finds one that overlaps the key, if any does. */
static int cmp_map(const void *a, const void *b)
{
	const struct map *x = a, *y = b;

	map_compares++;
	if (x->end <= y->start)
		return -1;
	return x->start >= y->end;
}

static struct maps *maps_get(struct maps *g)
{
	if (g)
		g->refs++;
	return g;
}

static void maps_put(struct machine *m, struct maps *g)
{
	if (!g || --g->refs)
		return;
	m->nr_maps -= g->nr;
	tdestroy(g->root, free);
	free(g);
}

static int maps_insert(struct machine *m, struct maps *g, const struct map *mp)
{
	struct map *copy = malloc(sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	*copy = *mp;
	if (!tsearch(copy, &g->root, cmp_map)) {
		free(copy);
		return -ENOMEM;
	}
	g->nr++;
	m->nr_maps++;
	return 0;
}

static void maps_remove(struct machine *m, struct maps *g, struct map *mp)
{
	tdelete(mp, &g->root, cmp_map);
	free(mp);
	g->nr--;
	m->nr_maps--;
}

struct maps_copy {
	struct machine *m;
	struct maps *to;
	int err;
};

static void copy_one(const void *node, VISIT which, void *ctx)
{
	struct maps_copy *c = ctx;

	if ((which == postorder || which == leaf) && !c->err)
		c->err = maps_insert(c->m, c->to, *(struct map *const *)node);
}

/* @p's address space, its own to change: copied when it is shared. */
static int maps_own(struct machine *m, struct proc *p)
{
	struct maps_copy c = { m, NULL, 0 };

	if (p->maps && p->maps->refs == 1)
		return 0;
	c.to = calloc(1, sizeof(*c.to));
	if (!c.to)
		return -ENOMEM;
	c.to->refs = 1;
	if (p->maps)
		twalk_r(p->maps->root, copy_one, &c);
	if (c.err) {
		maps_put(m, c.to);
		return c.err;
	}
	maps_put(m, p->maps);
	p->maps = c.to;
	return 0;
}

/* Add a mapping; what it covers of older ones is cut out of them, as a new
 * mmap() replaces what was there. */
static int add_map(struct machine *m, struct maps *g, const struct map *nm)
{
	struct map **hit;
	int err = 0;

	while (!err && (hit = tfind(nm, &g->root, cmp_map))) {
		struct map old = **hit;

		maps_remove(m, g, *hit);
		if (old.start < nm->start)
			err = maps_insert(m, g, &(struct map){
				old.start, nm->start, old.pgoff, old.dso });
		if (!err && old.end > nm->end)
			err = maps_insert(m, g, &(struct map){
				nm->end, old.end, old.pgoff + (nm->end - old.start),
				old.dso });
	}
	return err ? err : maps_insert(m, g, nm);
}

bool parse_mmap(const struct perf_event_header *h, struct mmap_fields *f)
{
	const unsigned char *p = (const unsigned char *)(h + 1);
	const unsigned char *end = (const unsigned char *)h + h->size;
	size_t fixed = h->type == PERF_RECORD_MMAP2 ? 64 : 32;
	uint32_t prot;

	if ((size_t)(end - p) < fixed + 1)
		return false;
	memcpy(&f->pid, p, 4);
	memcpy(&f->start, p + 8, 8);
	memcpy(&f->len, p + 16, 8);
	memcpy(&f->pgoff, p + 24, 8);
	f->ino = 0;
	if (h->type == PERF_RECORD_MMAP2) {
		memcpy(&prot, p + 56, 4);
		f->exec = prot & PROT_EXEC;
		/* else a build-id in their place (perf record --buildid-mmap) */
		if (!(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			memcpy(&f->maj, p + 32, 4);
			memcpy(&f->min, p + 36, 4);
			memcpy(&f->ino, p + 40, 8);
			memcpy(&f->ino_gen, p + 48, 8);
		}
	} else {
		f->exec = !(h->misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	f->name = (const char *)p + fixed;
	return memchr(f->name, '\0', (size_t)(end - p) - fixed) != NULL;
}

/* The kernel's own map, "[kernel.kallsyms]SYMBOL" with SYMBOL's address
 * in pgoff: where the recording's kernel was (KASLR moves it each boot).
 * As perf, a map without a symbol or an address names no reference. */
static void note_kernel_ref(struct machine *m, const struct mmap_fields *f)
{
	const char *sym = f->name + strlen(PD_KERNEL_NAME);

	if (*sym && f->pgoff && strlen(sym) < sizeof(m->kref_name)) {
		strcpy(m->kref_name, sym);
		m->kref_addr = f->pgoff;
	}
}

bool machine_kernel_ref(const struct machine *m, const char **name, uint64_t *addr)
{
	*name = m->kref_name;
	*addr = m->kref_addr;
	return m->kref_name[0] != '\0';
}

/* Module @dso's code lies at [@start, @end). */
static int add_module_map(struct machine *m, uint32_t dso, uint64_t start, uint64_t end)
{
	m->dsos[dso].kmod_start = start;
	return add_map(m, m->kmods, &(struct map){ start, end, 0, dso });
}

/* The kernel's MMAP of a module: where its code lies. */
static int apply_module(struct machine *m, const struct mmap_fields *f)
{
	char name[256];
	uint32_t dso;
	int err;

	if (!kmod_name(f->name, name, sizeof(name)))
		return 0;	/* kallsyms covers the kernel */
	err = dso_find(m, name, DSO_KERNEL, &dso);
	if (!err)
		err = add_module_map(m, dso, f->start, f->start + f->len);
	return err ? fail(err, "out of memory") : 0;
}

/* Anonymous memory that a JIT writes code into, as perf tells it. */
static bool is_anon_code(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14);
}

/* The module of @f's file; anonymous code is the process's JIT map, whose
 * addresses are the process's own (a mapping at offset its start). */
static int mmap_dso(struct machine *m, struct mmap_fields *f, uint32_t *dso)
{
	char jit[64];

	if (!is_anon_code(f->name))
		return dso_find(m, f->name, kind_of(f->name), dso);
	snprintf(jit, sizeof(jit), "/tmp/perf-%u.map", f->pid);
	f->pgoff = f->start;
	return dso_find(m, jit, DSO_JIT, dso);
}

static int apply_mmap(struct machine *m, const struct perf_event_header *h)
{
	struct mmap_fields f;
	struct proc *p;
	uint32_t dso;
	bool kernel;
	int err;

	if (!parse_mmap(h, &f))
		return 0;
	kernel = f.pid == PD_KERNEL_PID ||
		 (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	/* The reference holds whatever the map's length (to the end of the
	 * address space, in hwprof's own files). */
	if (kernel && !strncmp(f.name, PD_KERNEL_NAME, strlen(PD_KERNEL_NAME)))
		note_kernel_ref(m, &f);
	if (!f.exec || !f.len || f.start + f.len < f.start)
		return 0;
	if (kernel)
		return apply_module(m, &f);
	err = mmap_dso(m, &f, &dso);
	p = err ? NULL : proc_find(m, f.pid, true);
	if (!p)
		return fail(-ENOMEM, "out of memory");
	note_file_id(&m->dsos[dso], &f);
	err = maps_own(m, p);
	if (!err)
		err = add_map(m, p->maps,
			      &(struct map){ f.start, f.start + f.len, f.pgoff, dso });
	return err ? fail(err, "out of memory") : 0;
}

static bool thread_eq(size_t idx, const void *key, const void *ctx)
{
	return ((const struct machine *)ctx)->threads[idx].tid == *(const uint32_t *)key;
}

static struct thread *thread_find(struct machine *m, uint32_t tid, bool create)
{
	long i = hidx_find(&m->thread_idx, hash_u64(tid), thread_eq, &tid, m);

	if (i >= 0)
		return &m->threads[i];
	if (!create ||
	    vec_reserve(&m->threads, &m->cap_threads, m->nr_threads + 1,
			sizeof(*m->threads)) ||
	    hidx_add(&m->thread_idx, hash_u64(tid), m->nr_threads))
		return NULL;
	m->threads[m->nr_threads] = (struct thread){ tid, NULL };
	return &m->threads[m->nr_threads++];
}

const char *machine_comm(struct machine *m, uint32_t tid)
{
	struct thread *t = thread_find(m, tid, false);

	return t ? t->comm : NULL;
}

/* A new thread has its parent thread's name until it names itself. */
static int inherit_comm(struct machine *m, const struct perf_event_header *h)
{
	uint32_t tid, ptid;
	const char *comm;
	struct thread *t;

	memcpy(&tid, (const char *)(h + 1) + 8, 4);
	memcpy(&ptid, (const char *)(h + 1) + 12, 4);
	comm = machine_comm(m, ptid);
	if (!comm)
		return 0;
	t = thread_find(m, tid, true);
	if (!t)
		return fail(-ENOMEM, "out of memory");
	t->comm = comm;
	return 0;
}

/* FORK and EXIT: u32 pid, ppid, tid, ptid. */
static int apply_fork(struct machine *m, const struct perf_event_header *h)
{
	uint32_t pid, ppid;
	struct proc *parent, *child;
	struct maps *shared;

	if (h->size < sizeof(*h) + 16)
		return 0;
	if (inherit_comm(m, h))
		return -ENOMEM;
	memcpy(&pid, h + 1, 4);
	memcpy(&ppid, (const char *)(h + 1) + 4, 4);
	if (pid == ppid) {
		/* A new thread, in its process's address space. */
		child = proc_find(m, pid, false);
		if (child && child->counted)
			child->threads++;
		return 0;
	}
	parent = proc_find(m, ppid, false);
	shared = parent ? parent->maps : NULL;
	child = proc_find(m, pid, true);	/* may move the parent */
	if (!child)
		return fail(-ENOMEM, "out of memory");
	maps_get(shared);
	maps_put(m, child->maps);	/* a process that had the pid before */
	child->maps = shared;
	child->threads = 1;
	child->counted = true;
	return 0;
}

static void apply_exit(struct machine *m, const struct perf_event_header *h)
{
	struct proc *p;
	uint32_t pid;

	if (h->size < sizeof(*h) + 16)
		return;
	memcpy(&pid, h + 1, 4);
	p = proc_find(m, pid, false);
	if (!p || !p->counted || !p->threads || --p->threads)
		return;
	maps_put(m, p->maps);
	p->maps = NULL;
}

/* COMM: u32 pid, tid, then the name, NUL-terminated within the record. */
static int set_comm(struct machine *m, const struct perf_event_header *h, uint32_t tid)
{
	const char *name = (const char *)(h + 1) + 8;
	size_t max = h->size - sizeof(*h) - 8;
	struct thread *t = thread_find(m, tid, true);

	if (!memchr(name, '\0', max))
		return 0;	/* not a name: the thread keeps its own */
	if (!t || !(t->comm = strtab_intern(&m->paths, name, strlen(name))))
		return fail(-ENOMEM, "out of memory");
	return 0;
}

static int apply_comm(struct machine *m, const struct perf_event_header *h)
{
	uint32_t pid, tid;
	struct proc *p;

	if (h->size < sizeof(*h) + 8)
		return 0;
	memcpy(&pid, h + 1, 4);
	memcpy(&tid, (const char *)(h + 1) + 4, 4);
	if (set_comm(m, h, tid))
		return -ENOMEM;
	if (!(h->misc & PERF_RECORD_MISC_COMM_EXEC))
		return 0;
	p = pid == tid ? proc_find(m, pid, false) : NULL;
	if (p) {
		/* exec: a new address space, mapped by the records to come */
		maps_put(m, p->maps);
		p->maps = NULL;
	}
	return 0;
}

int machine_apply(struct machine *m, const struct perf_event_header *h)
{
	m->generation++;
	switch (h->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return apply_mmap(m, h);
	case PERF_RECORD_FORK:
		return apply_fork(m, h);
	case PERF_RECORD_EXIT:
		apply_exit(m, h);
		return 0;
	case PERF_RECORD_COMM:
		return apply_comm(m, h);
	default:
		return 0;
	}
}

static const struct map *map_find(const struct maps *g, uint64_t ip)
{
	const struct map key = { ip, ip + 1, 0, 0 };
	struct map *const *hit;

	if (!g || ip == UINT64_MAX)	/* no mapping ends past it */
		return NULL;
	hit = tfind(&key, &g->root, cmp_map);
	return hit ? *hit : NULL;
}

void machine_use_running_modules(struct machine *m)
{
	m->running_modules = true;
}

bool machine_maps_modules(const struct machine *m)
{
	return m->kmods->nr != 0;
}

static int add_running_module(struct machine *m, const struct kmod_loaded *km)
{
	uint32_t dso;

	if (dso_find(m, km->name, DSO_KERNEL, &dso))
		return -ENOMEM;
	return add_module_map(m, dso, km->addr, km->addr + km->size);
}

/* The modules of a recording of this kernel that maps none (hwprof's
 * before 0.2), from this machine's list, once: only when the kernel is
 * where the recording had it (this boot, or a kernel KASLR does not move),
 * so that the modules loaded now are the ones that were, as far as anyone
 * can tell. */
static void place_running_modules(struct machine *m)
{
	struct kmod_list l;
	char path[4352];
	const char *ref;
	uint64_t addr;
	int err;

	m->running_modules = false;
	if (!m->kref_name[0] || kallsyms_ref(NULL, &addr, &ref) ||
	    strcmp(ref, m->kref_name) || addr != m->kref_addr)
		return;
	snprintf(path, sizeof(path), "%s/proc/modules", kmodules_root());
	/* by address: a later map overrides an earlier one where they meet,
	 * and /proc/modules gives each module's whole size, newest first */
	err = kmodules_by_addr(path, &l);
	for (size_t i = 0; !err && i < l.nr; i++)
		err = add_running_module(m, &l.m[i]);
	kmod_list_free(&l);
	if (err && err != -ENOENT)
		pr_warn("kernel modules: '%s': %s: samples in modules are not named by module\n",
			path, kmodules_problem(err));
	m->generation++;
}

int machine_resolve(struct machine *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
		    struct location *loc)
{
	const struct proc *p;
	const struct map *mp;

	loc->dso = m->unknown_dso;
	loc->addr = ip;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		if (ip < KERNEL_START_MIN)
			return 0;	/* user space's half: no kernel code there */
		if (!m->kmods->nr && m->running_modules)
			place_running_modules(m);
		mp = m->kmods->nr ? map_find(m->kmods, ip) : NULL;
		loc->dso = mp ? mp->dso : m->kernel_dso;
		return 0;
	}
	if (cpumode != PERF_RECORD_MISC_USER)
		return 0;	/* hypervisor, guests: not followed */
	p = proc_find(m, pid, false);
	mp = p ? map_find(p->maps, ip) : NULL;
	if (mp) {
		loc->dso = mp->dso;
		loc->addr = ip - mp->start + mp->pgoff;
	}
	return 0;
}

uint64_t machine_generation(const struct machine *m)
{
	return m->generation;
}

size_t machine_nr_maps(const struct machine *m)
{
	return m->nr_maps;
}

unsigned long machine_map_compares(void)
{
	return map_compares;
}
