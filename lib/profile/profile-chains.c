// SPDX-License-Identifier: MIT
/* A profile's sites and call chains as samples add them: each distinct
 * (module, address) once, each distinct chain of sites once, the chains
 * walked by frame pointers or unwound from DWARF (unwind.c). */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdlib.h>
#include <string.h>

static bool site_eq(size_t idx, const void *key, const void *ctx)
{
	const struct hwp_profile *p = ctx;
	const struct location *k = key;

	return p->sites[idx].loc.dso == k->dso && p->sites[idx].loc.addr == k->addr;
}

static uint64_t hash_loc(const struct location *l)
{
	return hash_mix(hash_u64(l->addr), l->dso);
}

/* The site of @loc, added with no samples on first sight; -1 when out of memory. */
long profile_site(struct hwp_profile *p, const struct location *loc)
{
	uint64_t h = hash_loc(loc);
	long i = hidx_find(&p->site_idx, h, site_eq, loc, p);

	if (i >= 0)
		return i;
	if (vec_reserve(&p->sites, &p->cap_sites, p->nr_sites + 1, sizeof(*p->sites)) ||
	    hidx_add(&p->site_idx, h, p->nr_sites))
		return -1;
	memset(&p->sites[p->nr_sites], 0, sizeof(p->sites[0]));
	p->sites[p->nr_sites].loc = *loc;
	return (long)p->nr_sites++;
}

struct frames_key {
	const uint32_t *frames;
	uint32_t nr;
};

static bool stack_eq(size_t idx, const void *key, const void *ctx)
{
	const struct hwp_profile *p = ctx;
	const struct frames_key *k = key;
	const struct stack *st = &p->stacks[idx];

	return st->nr == k->nr &&
	       !memcmp(p->frames + st->first, k->frames, k->nr * sizeof(*k->frames));
}

int profile_add_stack(struct hwp_profile *p, const uint32_t *frames, uint32_t nr,
		      uint64_t period, int event, long *idx)
{
	struct frames_key k = { frames, nr };
	uint64_t h = hash_u32s(frames, nr);
	long i = hidx_find(&p->stack_idx, h, stack_eq, &k, p);

	if (i < 0) {
		if (vec_reserve(&p->stacks, &p->cap_stacks, p->nr_stacks + 1,
				sizeof(*p->stacks)) ||
		    vec_reserve(&p->frames, &p->cap_frames, p->nr_frames + nr,
				sizeof(*p->frames)) ||
		    hidx_add(&p->stack_idx, h, p->nr_stacks))
			return -ENOMEM;
		memcpy(p->frames + p->nr_frames, frames, nr * sizeof(*frames));
		p->stacks[p->nr_stacks] =
			(struct stack){ (uint32_t)p->nr_frames, nr, 0, 0, 0 };
		p->nr_frames += nr;
		i = (long)p->nr_stacks++;
	}
	*idx = i;
	if (event != p->event)
		return 0;
	p->nr_event_stacks += !p->stacks[i].samples;
	p->stacks[i].samples++;
	p->stacks[i].period += period;
	return 0;
}

static uint16_t context_mode(uint64_t marker)
{
	switch (marker) {
	case PERF_CONTEXT_KERNEL: return PERF_RECORD_MISC_KERNEL;
	case PERF_CONTEXT_USER: return PERF_RECORD_MISC_USER;
	case PERF_CONTEXT_HV: return PERF_RECORD_MISC_HYPERVISOR;
	case PERF_CONTEXT_GUEST_KERNEL: return PERF_RECORD_MISC_GUEST_KERNEL;
	case PERF_CONTEXT_GUEST_USER: return PERF_RECORD_MISC_GUEST_USER;
	default: return 0;
	}
}

/* The site of @ip in process @pid, in @cpumode: most samples and chains
 * land where others did, so it is looked up in a cache of the last
 * addresses first, which the machine's next record empties. */
long profile_site_of(struct hwp_profile *p, uint32_t pid, uint64_t ip, uint16_t cpumode)
{
	uint64_t gen = machine_generation(p->m);
	uint64_t h = hash_u64(ip ^ (uint64_t)pid << 40 ^ cpumode);
	struct site_cache *c = &p->site_cache[h & (SITE_CACHE_SLOTS - 1)];
	struct location loc;
	long site;

	if (c->gen == gen && c->ip == ip && c->pid == pid && c->cpumode == cpumode)
		return c->site;
	machine_resolve(p->m, pid, ip, cpumode, &loc);
	site = profile_site(p, &loc);
	if (site >= 0)
		*c = (struct site_cache){ ip, gen, pid, (uint32_t)site, cpumode };
	return site;
}

static int add_frame(struct hwp_profile *p, uint32_t *nr, uint32_t pid, uint64_t ip,
		     uint16_t mode)
{
	long site = profile_site_of(p, pid, ip, mode);

	if (site < 0)
		return -ENOMEM;
	p->scratch[(*nr)++] = (uint32_t)site;
	return 0;
}

static void count_unwind(struct hwp_profile *p, const struct pd_sample *s,
			 const struct unwind_result *res)
{
	struct unwind_stats *us = &p->us;

	if (s->stack_size > us->stack_size)
		us->stack_size = s->stack_size;
	switch (res->end) {
	case UNWIND_ENTRY:
		us->entry++;
		break;
	case UNWIND_STACK_SHORT:
		us->stack_short++;
		us->need[res->need / STACK_NEED_BUCKET < STACK_NEED_BUCKETS - 1 ?
			 res->need / STACK_NEED_BUCKET : STACK_NEED_BUCKETS - 1]++;
		break;
	case UNWIND_NO_INFO:
		us->no_info++;
		if (res->dso >= us->nr_no_info_by_dso) {
			size_t old = us->nr_no_info_by_dso;

			if (!vec_reserve(&us->no_info_by_dso, &us->nr_no_info_by_dso,
					 (size_t)res->dso + 1,
					 sizeof(*us->no_info_by_dso)))
				memset(us->no_info_by_dso + old, 0,
				       (us->nr_no_info_by_dso - old) *
				       sizeof(*us->no_info_by_dso));
		}
		if (res->dso < us->nr_no_info_by_dso)
			us->no_info_by_dso[res->dso]++;
		break;
	case UNWIND_FAILED:
		us->failed++;
		break;
	}
}

/* Where a chain of user frames may end: a program's or a thread's first
 * function, whose caller libunwind cannot step to where its tables do not
 * mark it outermost (the dynamic loader's _start). */
static bool is_entry(struct hwp_profile *p, uint32_t site)
{
	static const char *const entries[] = {
		"_start", "_dl_start_user", "clone", "__clone", "clone3", "__clone3",
		"start_thread",
	};
	const char *name;

	site_resolve(p, site, false);
	name = p->sites[site].si.symbol;
	for (size_t i = 0; name && i < ARRAY_SIZE(entries); i++)
		if (!strcmp(name, entries[i]))
			return true;
	return false;
}

/* The user part of a DWARF sample's chain, unwound from its registers and
 * stack; a chain that stopped early ends with "[truncated]". */
static int add_user_frames(struct hwp_profile *p, const struct pd_sample *s, uint32_t *nr,
			   bool counted)
{
	struct unwind_result res = { .end = UNWIND_FAILED };
	size_t n = 0;

	if (!s->regs_abi)
		return 0;	/* a kernel thread: no user stack */
	if (p->unw)
		n = unwind_sample(p->unw, s, p->unw_ips, PROFILE_MAX_FRAMES, &res);
	for (size_t i = 0; i < n && *nr < PROFILE_MAX_FRAMES - 1; i++) {
		/* the first is where the user code was, the rest return addresses */
		if (i == 0 && s->cpumode == PERF_RECORD_MISC_USER && *nr == 1)
			continue;	/* the sampled instruction itself */
		if (add_frame(p, nr, s->pid, i ? p->unw_ips[i] - 1 : p->unw_ips[i],
			      PERF_RECORD_MISC_USER))
			return -ENOMEM;
	}
	if (res.end != UNWIND_ENTRY && n && is_entry(p, p->scratch[*nr - 1]))
		res.end = UNWIND_ENTRY;
	if (counted)
		count_unwind(p, s, &res);	/* the reported event's success rate */
	if (res.end != UNWIND_ENTRY)
		p->scratch[(*nr)++] = p->truncated_site;
	return 0;
}

/* The caller that a frame-pointer chain skips after its first user frame
 * @pc (@i in @s's chain), or 0 (leaf-caller.c). */
static uint64_t skipped_caller(struct hwp_profile *p, const struct pd_sample *s,
			       uint64_t i, uint64_t pc, uint32_t leaf)
{
	struct location loc;
	uint64_t caller, next;

	if (!s->regs_abi && !s->stack_dyn_size)
		return 0;
	if (pc == s->ip && s->cpumode == PERF_RECORD_MISC_USER)
		loc = p->sites[leaf].loc;
	else if (machine_resolve(p->m, s->pid, pc, PERF_RECORD_MISC_USER, &loc))
		return 0;
	caller = leaf_caller(p, s, pc, &loc);
	if (caller && i + 1 < s->nr_ips) {
		memcpy(&next, s->ips + i + 1, sizeof(next));
		if (next == caller)
			return 0;	/* the walk has it: a frame record was made */
	}
	return caller;
}

/* Whether the chain's last frame lands in a module: a walk from a frame
 * pointer that the code used for data (built without them) stops at once,
 * or reads garbage. */
static bool in_module(struct hwp_profile *p, uint32_t nr)
{
	uint32_t dso = p->sites[p->scratch[nr - 1]].loc.dso;

	return machine_dso(p->m, dso)->kind != DSO_UNKNOWN;
}

/* The call chain as sites, the sampled instruction first. Callers are
 * looked up at their return address - 1, inside the call instruction, so
 * that a call at the end of a function is not put in the next one. */
int profile_add_callchain(struct hwp_profile *p, const struct pd_sample *s,
			  uint32_t leaf, int event, bool dwarf, long *stack)
{
	uint16_t mode = s->cpumode;
	uint32_t nr = 0, user_frames = 0;
	bool user_seen = false, walked = false;

	p->scratch[nr++] = leaf;
	for (uint64_t i = 0; i < s->nr_ips && nr < PROFILE_MAX_FRAMES; i++) {
		uint64_t ip, caller = 0;
		bool sampled;

		memcpy(&ip, s->ips + i, sizeof(ip));
		if (ip >= PERF_CONTEXT_MAX) {
			mode = context_mode(ip);
			continue;
		}
		/* the chain starts with the sampled address */
		sampled = ip == s->ip && nr == 1;
		if (!sampled && ip < 4096)
			break;		/* a frame pointer walk that ran into garbage */
		if (!sampled && dwarf && mode == PERF_RECORD_MISC_USER)
			break;		/* the user part is unwound below */
		if (!dwarf && mode == PERF_RECORD_MISC_USER && !user_seen) {
			user_seen = true;
			caller = skipped_caller(p, s, i, ip, leaf);
		}
		if (!sampled && add_frame(p, &nr, s->pid, ip - 1, mode))
			return -ENOMEM;
		if (user_seen && mode == PERF_RECORD_MISC_USER && ++user_frames == 2)
			walked = in_module(p, nr);
		if (caller && nr < PROFILE_MAX_FRAMES &&
		    add_frame(p, &nr, s->pid, caller - 1, mode))
			return -ENOMEM;
	}
	if (dwarf && add_user_frames(p, s, &nr, event == p->event))
		return -ENOMEM;
	if (user_seen && event == p->event) {
		p->fp_chains++;
		p->fp_one_frame += !walked;
	}
	return profile_add_stack(p, p->scratch, nr, s->period, event, stack);
}

/* The first DWARF sample: an unwinder, where this build has one. */
int profile_dwarf_begin(struct hwp_profile *p, const struct pd_event *ev)
{
	int err;
	struct location loc = { 0 };
	long site;

	p->dwarf = true;
	/* The size asked for: the kernel copies less where less of the
	 * stack lies above the stack pointer (seen on arm64). */
	p->us.stack_size = ev->attr.sample_stack_user;
	if (machine_pseudo_dso(p->m, "[truncated]", &loc.dso) ||
	    (site = profile_site(p, &loc)) < 0)
		return fail(-ENOMEM, "out of memory");
	p->truncated_site = (uint32_t)site;
	p->unw_ips = malloc(PROFILE_MAX_FRAMES * sizeof(*p->unw_ips));
	if (!p->unw_ips)
		return fail(-ENOMEM, "out of memory");
	err = unwinder_new(p->m, p->sym, &p->unw);
	if (err == -ENOMEM)
		return fail(err, "out of memory");
	return 0;	/* without one, the header says why (unwind_unavailable) */
}
