// SPDX-License-Identifier: MIT
/* DWARF call chains: the user stack a sample copied (PERF_SAMPLE_STACK_USER)
 * unwound from its registers (PERF_SAMPLE_REGS_USER) with libunwind's
 * remote interface. libunwind asks through the accessors below: registers
 * from the sample, memory from the stack's copy or from the modules' files
 * (opened once, by the symbolizer, for symbols too), and unwind tables
 * from each module's .eh_frame_hdr, read once per module and kept, or,
 * for a module without, its .debug_frame (or its debug file's) rewritten
 * as .eh_frame (debug-frame.c) and served at an address of its own. What
 * stops a chain early is told apart, so that the report can say how much
 * of what it shows is whole (profile.c counts it). */
#include "profile/profile.h"

#include "util/dynlib.h"

#include <libunwind.h>
#include <stdlib.h>
#include <string.h>

/* Not in libunwind's headers, though exported: perf declares it the same way. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
					      unw_dyn_info_t *di, unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);
#define dwarf_search_unwind_table UNW_OBJ(dwarf_search_unwind_table)

/* libunwind is loaded at the first DWARF profile (util/dynlib.h says why);
 * the generic library of the target, as libunwind-generic.pc names it. */
#define LIBUNWIND "libunwind-" DYNLIB_STR(UNW_TARGET) ".so.8"
#define UW_FUNCS(X)                                                          \
	X(unw_create_addr_space) X(unw_destroy_addr_space) X(unw_flush_cache) \
	X(unw_set_caching_policy) X(unw_init_remote) X(unw_get_reg)           \
	X(unw_step) X(dwarf_search_unwind_table)

DYNLIB(UW_FUNCS, LIBUNWIND, "libunwind", "libunwind8")

/* DW_EH_PE_* of .eh_frame_hdr that libunwind's binary search takes. */
#define EH_PE_UDATA4 0x03
#define EH_PE_SDATA4 0x0b
#define EH_PE_PCREL 0x10
#define EH_PE_DATAREL 0x30
#define EH_PE_OMIT 0xff

/* One module's unwind table, found on its first frame. */
struct umod {
	uint8_t state;		/* 0: not looked at, 1: has a table, 2: has none */
	struct dw_module *mod;
	uint64_t lo, hi;	/* the module addresses its segments cover */
	uint64_t hdr, table, fde_count;	/* module addresses, the table's entries */
	struct eh_rewrite rw;	/* .debug_frame's rewrite, where .eh_frame_hdr lacks */
	uint32_t pid;		/* the last process it was unwound in, and where */
	uint64_t bias;
};

/* Where module @dso's rewrite is, for libunwind: above every address a
 * process can map (x86-64's and arm64's user halves end below 2^56), so
 * that no read of a process's memory lands in it. */
#define REWRITE_BASE (1ULL << 63)
#define REWRITE_SPAN_BITS 32

static uint64_t rewrite_base(uint32_t dso)
{
	return REWRITE_BASE | (uint64_t)dso << REWRITE_SPAN_BITS;
}

/* The modules one unwind has touched, with where each is loaded. */
#define TOUCHED 8

/* What an unwind read of the sample: a register, or a word of the stack's
 * copy (or a word past it). Module memory is the same for every sample. */
enum { READ_REG, READ_STACK, READ_PAST };

struct memo_read {
	uint64_t where, value;
	uint8_t kind;
};

/* The most reads and frames an unwind may have to be remembered: longer
 * ones are unwound each time. */
#define MEMO_READS 256
#define MEMO_IPS 128
/* Unwinds remembered at one address, and in all (their memory is bounded). */
#define MEMO_PER_IP 8
#define MEMO_MAX (1u << 18)

/* An unwind, with every input it read: libunwind is a function of those
 * inputs (and of the modules, fixed until the mappings change), so a
 * sample that has them all gets the same chain without unwinding again.
 * In a loop the samples at one address share the stack above it: libunwind
 * takes a lock with two system calls a frame, the larger part of its cost. */
struct memo {
	uint64_t ip, sp, stack_size, dyn_size, regs_mask;
	uint32_t pid;
	uint32_t first_read, nr_reads, first_ip, nr_ips;
	struct unwind_result res;
};

struct unwind_ctx {
	struct unwinder *u;
	const struct pd_sample *s;
	uint64_t sp;
	struct {
		uint32_t dso;	/* u->mods may move as modules are added */
		uint64_t bias;
	} touched[TOUCHED];
	unsigned int nr_touched, next_touched;
	uint64_t need;		/* the end of the furthest read past the copy */
	bool no_info;
	uint32_t no_info_dso;
	struct memo_read reads[MEMO_READS];
	size_t nr_reads;	/* past MEMO_READS: too many to remember */
};

struct unwinder {
	struct machine *m;
	struct symbolizer *sym;
	const struct regs_arch *arch;
	unw_addr_space_t as;
	struct umod *mods;	/* by dso */
	size_t nr_mods;
	struct memo *memos;
	size_t nr_memos, cap_memos;
	struct memo_read *reads;
	size_t nr_reads, cap_reads;
	uint64_t *ips;
	size_t nr_ips, cap_ips;
	struct hidx memo_idx;
	uint64_t hits, misses;
};

static void note_read(struct unwind_ctx *c, int kind, uint64_t where, uint64_t value)
{
	if (c->nr_reads < MEMO_READS)
		c->reads[c->nr_reads] = (struct memo_read){ where, value, (uint8_t)kind };
	c->nr_reads++;
}

static struct umod *umod_of(struct unwinder *u, uint32_t dso)
{
	if (dso >= u->nr_mods) {
		size_t n = dso + 64;
		struct umod *v = realloc(u->mods, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + u->nr_mods, 0, (n - u->nr_mods) * sizeof(*v));
		u->mods = v;
		u->nr_mods = n;
	}
	return &u->mods[dso];
}

static bool read_encoded(struct dw_module *mod, uint64_t *pos, uint8_t enc, uint64_t *v)
{
	uint32_t w;
	uint64_t at = *pos;

	if ((enc & 0x0f) != EH_PE_UDATA4 && (enc & 0x0f) != EH_PE_SDATA4)
		return false;
	if (dw_module_read_image(mod, at, &w, 4))
		return false;
	*pos += 4;
	*v = (enc & 0x0f) == EH_PE_SDATA4 ? (uint64_t)(int64_t)(int32_t)w : w;
	if ((enc & 0x70) == EH_PE_PCREL)
		*v += at;
	else if (enc & 0x70)
		return false;
	return true;
}

/* The table of .eh_frame_hdr: a version, three encodings, the address of
 * .eh_frame, the count of entries, then the sorted (start, FDE) pairs. */
static void umod_load_debug_frame(struct umod *um)
{
	const void *data;
	size_t size;
	unsigned int addr_size;
	int err;

	if (!dw_module_debug_frame(um->mod, &data, &size, &addr_size))
		return;
	err = debug_frame_rewrite(data, size, addr_size, um->lo, um->hi, &um->rw);
	if (err) {
		pr_debug("unwind: the .debug_frame of a module cannot be used: %s",
			 hwp_strerror(err));
		return;
	}
	if (um->rw.size >= 1ULL << REWRITE_SPAN_BITS) {
		free(um->rw.data);
		memset(&um->rw, 0, sizeof(um->rw));
		return;
	}
	um->state = 1;
}

static void umod_load(struct unwinder *u, struct umod *um, uint32_t dso)
{
	uint8_t head[4];
	uint64_t size, pos, eh_frame;

	um->state = 2;
	um->mod = symbolize_module(u->sym, dso);
	if (!um->mod || !dw_module_span(um->mod, &um->lo, &um->hi))
		return;
	if (!dw_module_eh_frame_hdr(um->mod, &um->hdr, &size)) {
		umod_load_debug_frame(um);
		return;
	}
	if (dw_module_read_image(um->mod, um->hdr, head, sizeof(head)) || head[0] != 1 ||
	    head[3] != (EH_PE_DATAREL | EH_PE_SDATA4))
		return;
	pos = um->hdr + 4;
	if (!read_encoded(um->mod, &pos, head[1], &eh_frame) ||
	    head[2] == EH_PE_OMIT ||
	    !read_encoded(um->mod, &pos, head[2], &um->fde_count))
		return;
	um->table = pos;
	/* a count the header's segment cannot hold is a corrupt file */
	if (!um->fde_count || um->fde_count > (size - (pos - um->hdr)) / 8)
		return;
	um->state = 1;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi,
			  int need_unwind_info, void *arg)
{
	struct unwind_ctx *c = arg;
	struct location loc;
	struct umod *um;
	struct dso *d;
	unw_dyn_info_t di;
	uint64_t vaddr, bias;
	int ret;

	machine_resolve(c->u->m, c->s->pid, ip, PERF_RECORD_MISC_USER, &loc);
	d = machine_dso(c->u->m, loc.dso);
	um = d && (d->kind == DSO_FILE || d->kind == DSO_VDSO) ?
		umod_of(c->u, loc.dso) : NULL;
	if (um && !um->state)
		umod_load(c->u, um, loc.dso);
	if (!um || um->state != 1 || !dw_module_vaddr(um->mod, loc.addr, &vaddr)) {
		c->no_info = true;
		c->no_info_dso = loc.dso;
		return -UNW_ENOINFO;
	}
	bias = ip - vaddr;
	um->pid = c->s->pid;
	um->bias = bias;
	c->touched[c->next_touched].dso = loc.dso;
	c->touched[c->next_touched].bias = bias;
	c->next_touched = (c->next_touched + 1) % TOUCHED;
	if (c->nr_touched < TOUCHED)
		c->nr_touched++;
	memset(&di, 0, sizeof(di));
	di.start_ip = bias + um->lo;
	di.end_ip = bias + um->hi;
	if (um->rw.data) {
		/* the table's starts are from the module's first address, its
		 * FDEs' addresses from the bias (datarel: the "gp") */
		di.format = UNW_INFO_FORMAT_IP_OFFSET;
		di.u.rti.segbase = rewrite_base(loc.dso);
		di.u.rti.table_data = rewrite_base(loc.dso) + um->rw.table;
		di.u.rti.table_len = um->rw.nr * 8 / sizeof(unw_word_t);
		pi->gp = bias;
	} else {
		di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
		di.u.rti.segbase = bias + um->hdr;
		di.u.rti.table_data = bias + um->table;
		di.u.rti.table_len = um->fde_count * 8 / sizeof(unw_word_t);
	}
	ret = dl.dwarf_search_unwind_table(as, ip, &di, pi, need_unwind_info, arg);
	if (ret == -UNW_ENOINFO) {
		c->no_info = true;
		c->no_info_dso = loc.dso;
	}
	return ret;
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	(void)as, (void)pi, (void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *addr, void *arg)
{
	(void)as, (void)addr, (void)arg;
	return -UNW_ENOINFO;
}

/* A word of a module this unwind has not looked up, where the process
 * last had it: libunwind keeps what it learnt of an address across
 * unwinds (its global cache), and a rule it learnt may read the module's
 * .eh_frame again in a later unwind that never looked the address up (the
 * signal frame's rules are DWARF expressions there, evaluated at each
 * step). The machine cannot say: .eh_frame is in a segment that is not
 * executable, whose mapping the recording does not have. */
static int read_module(struct unwind_ctx *c, uint64_t addr, unw_word_t *valp)
{
	for (size_t i = 0; i < c->u->nr_mods; i++) {
		const struct umod *um = &c->u->mods[i];

		if (um->state == 1 && um->pid == c->s->pid &&
		    !dw_module_read_image(um->mod, addr - um->bias, valp, sizeof(*valp)))
			return 0;
	}
	return -ENOENT;
}

/* The copy of the stack has no guard: a read past it, while the copy was
 * as long as asked, is the stack the copy was too small for. */
#define STACK_REACH (8u << 20)

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write,
		      void *arg)
{
	struct unwind_ctx *c = arg;
	const struct pd_sample *s = c->s;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	if (addr >= REWRITE_BASE) {
		uint64_t dso = (addr - REWRITE_BASE) >> REWRITE_SPAN_BITS;
		uint64_t off = addr & ((1ULL << REWRITE_SPAN_BITS) - 1);
		const struct eh_rewrite *rw =
			dso < c->u->nr_mods ? &c->u->mods[dso].rw : NULL;

		if (!rw || !rw->data || rw->size < sizeof(*valp) ||
		    off > rw->size - sizeof(*valp))
			return -UNW_EINVAL;
		memcpy(valp, rw->data + off, sizeof(*valp));
		return 0;
	}
	if (addr >= c->sp && addr - c->sp <= s->stack_dyn_size &&
	    s->stack_dyn_size - (addr - c->sp) >= sizeof(*valp)) {
		memcpy(valp, s->stack + (addr - c->sp), sizeof(*valp));
		note_read(c, READ_STACK, addr, *valp);
		return 0;
	}
	for (unsigned int i = 0; i < c->nr_touched; i++) {
		struct dw_module *mod = c->u->mods[c->touched[i].dso].mod;

		if (!dw_module_read_image(mod, addr - c->touched[i].bias, valp,
					  sizeof(*valp)))
			return 0;
	}
	if (!read_module(c, addr, valp))
		return 0;
	note_read(c, READ_PAST, addr, 0);
	if (addr >= c->sp && addr - c->sp < STACK_REACH &&
	    s->stack_dyn_size == s->stack_size && addr + 8 - c->sp > c->need)
		c->need = addr + 8 - c->sp;
	return -UNW_EINVAL;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *valp, int write,
		      void *arg)
{
	struct unwind_ctx *c = arg;
	uint64_t v;

	(void)as;
	if (write || regs_dwarf_value(c->u->arch, c->s, reg, &v)) {
		note_read(c, READ_REG, (uint64_t)reg, UINT64_MAX);
		return -UNW_EBADREG;
	}
	note_read(c, READ_REG, (uint64_t)reg, v);
	*valp = v;
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val,
			int write, void *arg)
{
	(void)as, (void)reg, (void)val, (void)write, (void)arg;
	return -UNW_EINVAL;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	(void)as, (void)cu, (void)arg;
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len,
			 unw_word_t *offp, void *arg)
{
	(void)as, (void)addr, (void)buf, (void)len, (void)offp, (void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

const char *unwind_unavailable(void)
{
	if (!regs_arch_host())
		return "hwprof does not know this architecture's registers (x86-64 and arm64 only)";
	return dl_load();
}

int unwinder_new(struct machine *m, struct symbolizer *sym, struct unwinder **out)
{
	struct unwinder *u;

	*out = NULL;
	if (unwind_unavailable())
		return -EOPNOTSUPP;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->m = m;
	u->sym = sym;
	u->arch = regs_arch_host();
	u->as = dl.unw_create_addr_space(&accessors, 0);
	if (!u->as) {
		free(u);
		return -ENOMEM;
	}
	/* What libunwind learns of an address (its CFI rules) holds for every
	 * sample, until the mappings change. */
	dl.unw_set_caching_policy(u->as, UNW_CACHE_GLOBAL);
	*out = u;
	return 0;
}

static void memo_clear(struct unwinder *u)
{
	hidx_release(&u->memo_idx);
	memset(&u->memo_idx, 0, sizeof(u->memo_idx));
	u->nr_memos = u->nr_reads = u->nr_ips = 0;
}

void unwinder_free(struct unwinder *u)
{
	if (!u)
		return;
	pr_debug("unwind: %llu samples unwound, %llu found remembered",
		 (unsigned long long)u->misses, (unsigned long long)u->hits);
	dl.unw_destroy_addr_space(u->as);
	memo_clear(u);
	free(u->memos);
	free(u->reads);
	free(u->ips);
	for (size_t i = 0; i < u->nr_mods; i++)
		free(u->mods[i].rw.data);
	free(u->mods);
	free(u);
}

void unwinder_flush(struct unwinder *u)
{
	if (!u)
		return;
	dl.unw_flush_cache(u->as, 0, 0);
	memo_clear(u);	/* module memory may be another file's now */
}

struct memo_key {
	const struct unwinder *u;
	const struct unwind_ctx *c;	/* the sample's registers and stack */
	uint64_t ip;
	unsigned int *same_ip;	/* memos of this address seen */
};

static uint64_t memo_hash(uint32_t pid, uint64_t ip)
{
	return hash_mix(hash_u64(ip), pid);
}

/* Whether the sample gives every read of memo @idx the value it had. */
static bool memo_eq(size_t idx, const void *key, const void *ctx)
{
	const struct memo_key *k = key;
	const struct memo *mo = &k->u->memos[idx];
	const struct pd_sample *s = k->c->s;

	(void)ctx;
	if (mo->ip != k->ip || mo->pid != s->pid)
		return false;
	(*k->same_ip)++;
	if (mo->sp != k->c->sp || mo->stack_size != s->stack_size ||
	    mo->dyn_size != s->stack_dyn_size || mo->regs_mask != s->regs_mask)
		return false;
	for (uint32_t i = 0; i < mo->nr_reads; i++) {
		const struct memo_read *r = &k->u->reads[mo->first_read + i];
		uint64_t v;

		switch (r->kind) {
		case READ_REG:
			if (regs_dwarf_value(k->u->arch, s, (int)r->where, &v))
				v = UINT64_MAX;
			if (v != r->value)
				return false;
			break;
		case READ_STACK:	/* in the copy: the same sp and size say so */
			memcpy(&v, s->stack + (r->where - mo->sp), sizeof(v));
			if (v != r->value)
				return false;
			break;
		default:		/* past the copy in both */
			break;
		}
	}
	return true;
}

static void memo_add(struct unwinder *u, const struct unwind_ctx *c, uint64_t ip,
		     const uint64_t *ips, size_t n, const struct unwind_result *res)
{
	struct memo *mo;

	if (c->nr_reads > MEMO_READS || n > MEMO_IPS || u->nr_memos >= MEMO_MAX ||
	    vec_reserve(&u->memos, &u->cap_memos, u->nr_memos + 1, sizeof(*u->memos)) ||
	    vec_reserve(&u->reads, &u->cap_reads, u->nr_reads + c->nr_reads,
			sizeof(*u->reads)) ||
	    vec_reserve(&u->ips, &u->cap_ips, u->nr_ips + n, sizeof(*u->ips)) ||
	    hidx_add(&u->memo_idx, memo_hash(c->s->pid, ip), u->nr_memos))
		return;
	mo = &u->memos[u->nr_memos++];
	*mo = (struct memo){ .ip = ip, .sp = c->sp, .stack_size = c->s->stack_size,
			     .dyn_size = c->s->stack_dyn_size,
			     .regs_mask = c->s->regs_mask, .pid = c->s->pid,
			     .first_read = (uint32_t)u->nr_reads,
			     .nr_reads = (uint32_t)c->nr_reads,
			     .first_ip = (uint32_t)u->nr_ips, .nr_ips = (uint32_t)n,
			     .res = *res };
	if (c->nr_reads)
		memcpy(u->reads + u->nr_reads, c->reads, c->nr_reads * sizeof(*c->reads));
	u->nr_reads += c->nr_reads;
	if (n)	/* a chain of none: the arena may have no array yet */
		memcpy(u->ips + u->nr_ips, ips, n * sizeof(*ips));
	u->nr_ips += n;
}

size_t unwind_sample(struct unwinder *u, const struct pd_sample *s, uint64_t *ips,
		     size_t max, struct unwind_result *res)
{
	struct unwind_ctx c = { .u = u, .s = s };
	unw_cursor_t cur;
	uint64_t ip0;
	size_t n = 0;
	bool remember;
	int ret;

	memset(res, 0, sizeof(*res));
	res->end = UNWIND_FAILED;
	if (!s->regs_abi || !s->stack_size ||
	    regs_dwarf_value(u->arch, s, u->arch->sp, &c.sp) ||
	    (sizeof(void *) == 8 && s->regs_abi != PERF_SAMPLE_REGS_ABI_64))
		return 0;
	if (regs_dwarf_value(u->arch, s, u->arch->ip, &ip0))
		return 0;
	{
		unsigned int same_ip = 0;
		struct memo_key k = { u, &c, ip0, &same_ip };
		long m = hidx_find(&u->memo_idx, memo_hash(s->pid, ip0), memo_eq, &k,
				   NULL);

		if (m >= 0 && u->memos[m].nr_ips <= max) {
			u->hits++;
			*res = u->memos[m].res;
			if (u->memos[m].nr_ips)
				memcpy(ips, u->ips + u->memos[m].first_ip,
				       u->memos[m].nr_ips * sizeof(*ips));
			return u->memos[m].nr_ips;
		}
		remember = same_ip < MEMO_PER_IP;
	}
	u->misses++;
	if (dl.unw_init_remote(&cur, u->as, &c) < 0)
		return 0;
	while (n < max) {
		unw_word_t ip;

		if (dl.unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		ips[n++] = ip;
		ret = dl.unw_step(&cur);
		if (c.no_info) {
			/* libunwind guesses on (frame pointers) where the
			 * tables end: a guess is not shown as a caller */
			res->end = UNWIND_NO_INFO;
			res->dso = c.no_info_dso;
			break;
		}
		if (ret == 0) {
			res->end = UNWIND_ENTRY;
			break;
		}
		if (ret < 0) {
			res->end = c.need ? UNWIND_STACK_SHORT : UNWIND_FAILED;
			res->need = c.need;
			break;
		}
	}
	if (remember)
		memo_add(u, &c, ip0, ips, n, res);
	return n;
}
