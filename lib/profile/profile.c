// SPDX-License-Identifier: MIT
/* Profiles: the samples of one event of a perf.data file, aggregated by
 * (module, address) as they are read, with their call chains as chains of
 * such addresses. Nothing is kept per sample, so memory follows the
 * distinct addresses and chains; symbols are looked up later, once each
 * (report.c). */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* Row @row of a table of @nr_events values a row, made and zeroed. */
static uint64_t *values_row(uint64_t **v, size_t *cap, size_t row, size_t nr_events)
{
	if (vec_reserve(v, cap, (row + 1) * nr_events, sizeof(**v)))
		return NULL;
	memset(*v + row * nr_events, 0, nr_events * sizeof(**v));
	return *v + row * nr_events;
}

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
	    (p->nr_events > 1 && !values_row(&p->site_values, &p->cap_site_values,
					      p->nr_sites, p->nr_events)) ||
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

static int add_stack(struct hwp_profile *p, const uint32_t *frames, uint32_t nr,
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
		    (p->nr_events > 1 &&
		     !values_row(&p->stack_values, &p->cap_stack_values, p->nr_stacks,
				 p->nr_events)) ||
		    hidx_add(&p->stack_idx, h, p->nr_stacks))
			return -ENOMEM;
		memcpy(p->frames + p->nr_frames, frames, nr * sizeof(*frames));
		p->stacks[p->nr_stacks] =
			(struct stack){ (uint32_t)p->nr_frames, nr, 0, 0 };
		p->nr_frames += nr;
		i = (long)p->nr_stacks++;
	}
	*idx = i;
	if (p->nr_events > 1)
		p->stack_values[(size_t)i * p->nr_events + (size_t)event] += period;
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
static long site_of(struct hwp_profile *p, uint32_t pid, uint64_t ip, uint16_t cpumode)
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
	long site = site_of(p, pid, ip, mode);

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
static int add_callchain(struct hwp_profile *p, const struct pd_sample *s, uint32_t leaf,
			 int event, bool dwarf, long *stack)
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
	return add_stack(p, p->scratch, nr, s->period, event, stack);
}

/* The first DWARF sample: an unwinder, where this build has one. */
static int dwarf_begin(struct hwp_profile *p, const struct pd_event *ev)
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

/* A sample of the event; with several events, of another event too, which
 * adds to the values of every event alone (stack_values, site_values), in
 * the shape of the event's: a call chain where the event has them. */
/* The user stack and registers that DWARF chains are unwound from. */
static bool has_dwarf(const struct pd_event *ev)
{
	return regs_unwound(&ev->attr);
}

static bool has_chains(const struct pd_event *ev)
{
	return (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN) || has_dwarf(ev);
}

/* Whether @item is one of comma-separated @list's. */
static bool in_list(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *c = list; c;) {
		size_t len = strcspn(c, ",");

		if (len == n && !strncmp(c, item, n))
			return true;
		c = c[len] ? c + len + 1 : NULL;
	}
	return false;
}

static bool id_in_list(const char *list, uint32_t id)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", id);
	return in_list(list, buf);
}

/* Thread @tid's name now: most samples are of the last sample's thread. */
static const char *comm_of(struct hwp_profile *p, uint32_t tid)
{
	uint64_t gen = machine_generation(p->m);

	if (p->comm_gen != gen || p->comm_tid != tid) {
		p->comm = machine_comm(p->m, tid);
		p->comm_tid = tid;
		p->comm_gen = gen;
	}
	return p->comm;
}

/* Whether the filters (hwp_profile_opts' comms, pids, tids, dsos) keep @s. */
static bool sample_kept(struct hwp_profile *p, const struct pd_sample *s,
			const struct location *loc)
{
	const struct dso *d;
	const char *comm;

	if (p->pids && !id_in_list(p->pids, s->pid))
		return false;
	if (p->tids && !id_in_list(p->tids, s->tid))
		return false;
	if (p->comms) {
		comm = comm_of(p, s->tid);
		if (!comm || !in_list(p->comms, comm))
			return false;
	}
	d = machine_dso(p->m, loc->dso);
	return !p->dsos || in_list(p->dsos, d->path) || in_list(p->dsos, d->name);
}

static int add_sample(struct hwp_profile *p, const struct pd_record *rec)
{
	const struct pd_event *ev = pd_event(p->file, (size_t)rec->event);
	bool ours = rec->event == p->event, dwarf = has_dwarf(ev);
	bool off_cpu = offcpu_event(p, ev);
	struct pd_sample s;
	struct location loc;
	long site, stack = -1;
	int err;

	err = pd_decode_sample(&ev->attr, rec->h, &s);
	if (err && !ours) {
		p->skipped++;	/* another event's: its report will say */
		return 0;
	}
	if (err)
		return fail_prefix(err, "'%s', record at offset %llu", p->input,
				       (unsigned long long)rec->offset);
	if (!cpu_wanted(p, s.cpu)) {
		p->other_cpus += ours;
		return 0;
	}
	/* Weighed when the thread runs again (offcpu.c). */
	if (off_cpu)
		s.period = 0;
	if (p->filtering) {
		machine_resolve(p->m, s.pid, s.ip, s.cpumode, &loc);
		if (!sample_kept(p, &s, &loc)) {
			if (ours) {
				p->samples++;
				p->period += s.period;
				p->filtered_samples++;
				p->filtered_period += s.period;
			}
			return 0;
		}
	}
	/* The first sample in the kernel starts reading its symbols, on a
	 * thread, while the rest of the file is read. */
	if (s.cpumode == PERF_RECORD_MISC_KERNEL)
		symbolizer_prefetch_kernel(p->sym);
	site = site_of(p, s.pid, s.ip, s.cpumode);
	if (site < 0)
		return fail(-ENOMEM, "out of memory");
	if (p->nr_events > 1)
		p->site_values[(size_t)site * p->nr_events + (size_t)rec->event] +=
			s.period;
	if (ours) {
		p->sites[site].samples++;
		p->sites[site].period += s.period;
		p->samples++;
		p->period += s.period;
		err = cpu_add(p, s.cpu, 1, s.period);
		if (!err)
			err = thread_add(p, s.tid, comm_of(p, s.tid),
					 (uint32_t)site, s.period);
		if (err)
			return err;
	}
	if (dwarf && !p->dwarf) {
		err = dwarf_begin(p, ev);
		if (err)
			return err;
	}
	if (ours && (ev->attr.sample_type & PERF_SAMPLE_TIME)) {
		if (!p->time_first || s.time < p->time_first)
			p->time_first = s.time;
		if (s.time > p->time_last)
			p->time_last = s.time;
	}
	if (has_chains(pd_event(p->file, (size_t)p->event))) {
		p->callchains |= ours;
		if (has_chains(ev))
			err = add_callchain(p, &s, (uint32_t)site, rec->event, dwarf,
					    &stack);
		else
			err = add_stack(p, (const uint32_t[]){ (uint32_t)site }, 1,
					s.period, rec->event, &stack);
		if (err)
			return fail(-ENOMEM, "out of memory");
	}
	return off_cpu ? offcpu_sample(p, &s, rec->event, site, stack) : 0;
}

void profile_add_period(struct hwp_profile *p, int event, long site, long stack,
			uint32_t cpu, uint64_t period)
{
	size_t e = (size_t)event;

	if (p->nr_events > 1) {
		p->site_values[(size_t)site * p->nr_events + e] += period;
		if (stack >= 0)
			p->stack_values[(size_t)stack * p->nr_events + e] += period;
	}
	if (event != p->event)
		return;
	p->sites[site].period += period;
	if (stack >= 0)
		p->stacks[stack].period += period;
	p->period += period;
	cpu_add(p, cpu, 0, period);	/* the CPU's row exists: the sample made it */
}

static uint64_t u64_at(const struct perf_event_header *h, size_t off)
{
	uint64_t v = 0;

	if (h->size >= sizeof(*h) + off + 8)
		memcpy(&v, (const char *)(h + 1) + off, 8);
	return v;
}

static int on_record(const struct pd_record *rec, void *ctx)
{
	struct hwp_profile *p = ctx;

	switch (rec->h->type) {
	case PERF_RECORD_SAMPLE:
		if (rec->event == p->event)
			return add_sample(p, rec);
		/* An event that a stream described after its start has no
		 * column in the values: skipped, and counted. */
		if (rec->event < 0 || (size_t)rec->event >= p->nr_events) {
			p->skipped++;
			return 0;
		}
		p->other_samples++;
		return p->nr_events > 1 ? add_sample(p, rec) : 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		unwinder_flush(p->unw);
		return machine_apply(p->m, rec->h);
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return machine_apply(p->m, rec->h);
	case PERF_RECORD_UNTHROTTLE:
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return offcpu_switch(p, rec);
	/* For the whole file, whatever event they name: a ring's LOST
	 * carries the id of the event that wrote next, not of the samples
	 * that were dropped, which may be any event's of that ring. */
	case PERF_RECORD_LOST:
		p->lost_records += u64_at(rec->h, 8);	/* u64 id, u64 lost */
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		p->lost_samples += u64_at(rec->h, 0);
		return 0;
	case PERF_RECORD_THROTTLE:
		p->throttled++;
		return 0;
	default:
		p->skipped++;
		return 0;
	}
}

static int choose_event(struct hwp_profile *p, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (!name)
		return 0;
	for (size_t i = 0; i < pd_nr_events(p->file); i++)
		if (!strcmp(pd_event(p->file, i)->name, name)) {
			p->event = (int)i;
			return 0;
		}
	for (size_t i = 0; i < pd_nr_events(p->file); i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", pd_event(p->file, i)->name);
	fail(-ENOENT, "'%s' has no event '%s'; it has: %s", p->input, name,
	     strbuf_str(&sb));
	strbuf_release(&sb);
	return -ENOENT;
}

/* Where the file was recorded, and a warning when that was not here:
 * module paths are opened on this machine, so another kernel or host may
 * not match them; and the kernel's symbols are not named when they are
 * not the recording kernel's (symbolizer_choose_kernel()). */
static int note_recording_host(struct hwp_profile *p)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	bool other_host, other_kernel;
	const char *refused;
	int err;

	p->hostname = symbolize_intern(p->sym,
				       pd_feature_string(p->file, PD_FEAT_HOSTNAME));
	p->osrelease = symbolize_intern(p->sym,
					pd_feature_string(p->file, PD_FEAT_OSRELEASE));
	p->cmdline = symbolize_intern(p->sym,
				      pd_feature_string(p->file, PD_FEAT_CMDLINE));
	err = symbolizer_choose_kernel(p->sym, pd_file_kernel_build_id(p->file),
				       p->osrelease);
	if (err || uname(&u))
		return err;
	other_host = p->hostname && strcmp(p->hostname, u.nodename);
	other_kernel = p->osrelease && strcmp(p->osrelease, u.release);
	refused = symbolizer_kernel_refused(p->sym);
	if (!other_host && !other_kernel && !refused && !p->kallsyms)
		machine_use_running_modules(p->m);
	if (!other_host && !other_kernel && !refused)
		return 0;
	strbuf_addf(&sb, "'%s' was recorded", p->input);
	if (other_host)
		strbuf_addf(&sb, " on host '%s' (this is '%s')", p->hostname, u.nodename);
	if (other_kernel)
		strbuf_addf(&sb, "%s kernel %s (this one runs %s)",
			    other_host ? " with" : " under", p->osrelease, u.release);
	strbuf_adds(&sb, ": ");
	if (refused)
		strbuf_addf(&sb, "kernel symbols are not named (%s)%s", refused,
			    other_host || other_kernel ? ", and " : "");
	if (other_host || other_kernel)
		strbuf_adds(&sb,
			    "modules (opened by their recorded paths on this machine) may not match the recording's");
	p->host_warning = strbuf_detach(&sb);
	return p->host_warning ? 0 : fail(-ENOMEM, "out of memory");
}

/* The least copy that 95% of the chains cut by theirs would have needed. */
static uint64_t stack_needed(const struct unwind_stats *us)
{
	uint64_t seen = 0;

	if (!us->stack_short)
		return 0;
	for (size_t b = 0; b < STACK_NEED_BUCKETS; b++) {
		seen += us->need[b];
		if (seen * 100 >= us->stack_short * 95) {
			uint64_t size = (b + 1) * (uint64_t)STACK_NEED_BUCKET;

			return b == STACK_NEED_BUCKETS - 1 || size > STACK_USER_MAX ?
				STACK_USER_MAX : size;
		}
	}
	return STACK_USER_MAX;
}

static int cmp_count_desc(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? 1 : x[0] > y[0] ? -1 : (x[1] > y[1]) - (x[1] < y[1]);
}

/* "path (N), ..." of the modules where unwinding found no tables. */
static int name_no_info_modules(struct hwp_profile *p)
{
	struct unwind_stats *us = &p->us;
	struct strbuf sb = STRBUF_INIT;
	uint64_t (*v)[2];
	size_t n = 0;

	if (!us->no_info)
		return 0;
	v = calloc(us->nr_no_info_by_dso, sizeof(*v));
	if (!v)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < us->nr_no_info_by_dso; i++)
		if (us->no_info_by_dso[i]) {
			v[n][0] = us->no_info_by_dso[i];
			v[n++][1] = i;
		}
	qsort(v, n, sizeof(*v), cmp_count_desc);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s (%llu)", i ? ", " : "",
			    machine_dso(p->m, (uint32_t)v[i][1])->path,
			    (unsigned long long)v[i][0]);
	free(v);
	us->no_info_modules = strbuf_detach(&sb);
	return us->no_info_modules ? 0 : fail(-ENOMEM, "out of memory");
}

/* The builds the file names: a module on disk that is another build is
 * not used for the recording's addresses (symbolize.c). */
static int note_build_id(const char *path, const struct pd_build_id *id, void *ctx)
{
	return machine_set_build_id(ctx, path, id);
}

static int note_file_stat(const char *path, const struct pd_file_stat *st, void *ctx)
{
	return machine_set_file_stat(ctx, path, st);
}

/* Records the reader passed over are counted; AUX area traces are said. */
static void note_skipped(struct hwp_profile *p)
{
	struct pd_stats st;

	pd_get_stats(p->file, &st);
	p->skipped += st.skipped;
	if (st.aux_records)
		pr_warn("'%s' holds %llu bytes of AUX area trace data (Intel PT, CoreSight...) in %llu records, which hwprof does not decode: skipped; its samples are reported",
			p->input, (unsigned long long)st.aux_bytes,
			(unsigned long long)st.aux_records);
}

/* A list of ids: numbers, separated by commas. */
static int check_ids(const char *list, const char *what)
{
	for (const char *c = list; c;) {
		size_t len = strspn(c, "0123456789");

		if (!len || len > 10 || (c[len] && c[len] != ','))
			return fail(-EINVAL, "'%s' is not a list of %s ids (numbers separated by commas)",
				    list, what);
		c = c[len] ? c + len + 1 : NULL;
	}
	return 0;
}

static int copy_filter(char **dst, const char *src)
{
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : fail(-ENOMEM, "out of memory");
}

static int copy_filters(struct hwp_profile *p, const struct hwp_profile_opts *o)
{
	int err = 0;

	if (o->pids)
		err = check_ids(o->pids, "process");
	if (!err && o->tids)
		err = check_ids(o->tids, "thread");
	if (!err)
		err = copy_filter(&p->comms, o->comms);
	if (!err)
		err = copy_filter(&p->pids, o->pids);
	if (!err)
		err = copy_filter(&p->tids, o->tids);
	if (!err)
		err = copy_filter(&p->dsos, o->dsos);
	p->filtering = p->comms || p->pids || p->tids || p->dsos;
	return err;
}

static int profile_load(const char *path, int fd, const struct hwp_profile_opts *opts,
			struct hwp_profile **out)
{
	struct hwp_profile_opts o;
	struct hwp_profile *p;
	int err;

	*out = NULL;
	err = OPTS_COPY(&o, opts, hwp_profile_opts);
	if (err)
		return err;
	p = calloc(1, sizeof(*p));
	if (!p)
		return fail(-ENOMEM, "out of memory");
	p->scratch = malloc(PROFILE_MAX_FRAMES * sizeof(*p->scratch));
	p->site_cache = calloc(SITE_CACHE_SLOTS, sizeof(*p->site_cache));
	/* Named as the file reader names it, in every message and output. */
	p->in_memory = !path || (fd < 0 && !strcmp(path, "-"));
	p->input = strdup(!path ? "(in memory)" :
			  p->in_memory ? "(standard input)" : path);
	p->no_demangle = o.no_demangle;
	p->inline_frames = o.inline_frames;
	p->no_kallsyms_cache = o.no_kallsyms_cache;
	p->no_debug_cache = o.no_debug_cache;
	p->read_threads = o.threads;
	err = copy_filters(p, &o);
	if (err)
		goto err;
	p->kallsyms = o.kallsyms ? strdup(o.kallsyms) : NULL;
	p->vmlinux = o.vmlinux ? strdup(o.vmlinux) : NULL;
	if (!p->scratch || !p->site_cache || !p->input || (o.kallsyms && !p->kallsyms) ||
	    (o.vmlinux && !p->vmlinux)) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	err = pd_open(path, fd, &p->file);
	if (!err)
		err = choose_event(p, o.event);
	if (!err)
		p->nr_events = pd_nr_events(p->file);
	if (!err)
		err = machine_new(&p->m);
	if (!err)
		err = symbolizer_new(p->m, o.kallsyms, &p->sym);
	if (!err)
		err = symbolizer_set_vmlinux(p->sym, o.vmlinux);
	if (!err)
		symbolizer_set_demangle(p->sym, !o.no_demangle);
	if (!err)
		symbolizer_set_kallsyms_cache(p->sym, !o.no_kallsyms_cache);
	if (!err)
		symbolizer_set_debug_cache(p->sym, !o.no_debug_cache);
	if (!err)
		err = pd_foreach_build_id(p->file, note_build_id, p->m);
	if (!err)
		err = pd_foreach_file_stat(p->file, note_file_stat, p->m);
	if (!err)
		err = note_recording_host(p);
	if (!err)
		err = cpu_filter_set(p, o.cpus);
	if (!err)
		err = offcpu_begin(p);
	if (!err)
		err = pd_foreach_threads(p->file, o.threads, on_record, p);
	if (err)
		goto err;
	offcpu_end(p);
	note_skipped(p);
	if (p->nr_events) {
		const struct perf_event_attr *a =
			&pd_event(p->file, (size_t)p->event)->attr;

		p->sample_period = a->freq ? 0 : a->sample_period;
	}
	p->event_names = calloc(p->nr_events, sizeof(*p->event_names));
	for (size_t i = 0; p->event_names && i < p->nr_events; i++)
		p->event_names[i] = symbolize_intern(p->sym, pd_event(p->file, i)->name);
	if (!p->event_names) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	/* LOST records (the rings') miss the samples dropped at the end;
	 * LOST_SAMPLES (the events' counters, written at the end) miss those
	 * of inherited children. Both count the same drops, so the sums are
	 * not added: the larger is the better bound. */
	p->lost = p->lost_records > p->lost_samples ? p->lost_records : p->lost_samples;
	if (p->dwarf) {
		err = name_no_info_modules(p);
		if (err)
			goto err;
	}
	/* Everything needed is aggregated: the file's mapping goes. */
	pd_close(p->file);
	p->file = NULL;
	free(p->scratch);
	p->scratch = NULL;
	free(p->site_cache);
	p->site_cache = NULL;
	leaf_callers_free(&p->leaf_callers);
	*out = p;
	return 0;
err:
	hwp_profile_free(p);
	return err;
}

HWP_API int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
			     struct hwp_profile **out)
{
	clear_error();
	if (!out || !path)
		return fail(-EINVAL, "hwp_profile_load: NULL argument");
	return profile_load(path, -1, opts, out);
}

int profile_open_event(const struct hwp_profile *p, size_t idx, struct hwp_profile **out)
{
	HWP_OPTS(hwp_profile_opts, o, .kallsyms = p->kallsyms, .vmlinux = p->vmlinux,
		 .no_demangle = p->no_demangle, .comms = p->comms, .pids = p->pids,
		 .tids = p->tids, .dsos = p->dsos, .inline_frames = p->inline_frames,
		 .no_kallsyms_cache = p->no_kallsyms_cache,
		 .no_debug_cache = p->no_debug_cache, .threads = p->read_threads);

	*out = NULL;
	if (idx >= p->nr_events)
		return fail(-EINVAL, "'%s' has %zu events, not %zu", p->input,
			    p->nr_events, idx + 1);
	if (p->in_memory)
		return fail(-EOPNOTSUPP,
			    "'%s' is read once: its profile of '%s' cannot be read again for '%s'",
			    p->input, p->event_names[p->event], p->event_names[idx]);
	o.event = p->event_names[idx];
	return profile_load(p->input, -1, &o, out);
}

HWP_API int hwp_profile_from_record(const struct hwp_record *r,
				    const struct hwp_profile_opts *opts,
				    struct hwp_profile **out)
{
	const char *path;
	int fd, err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_profile_from_record: out is NULL");
	*out = NULL;
	err = record_file(r, &path, &fd);
	if (err)
		return err;
	return profile_load(fd >= 0 ? NULL : path, fd, opts, out);
}

HWP_API void hwp_profile_free(struct hwp_profile *p)
{
	if (!p)
		return;
	report_cache_free(p);
	unwinder_free(p->unw);
	offcpu_release(p);
	cpu_release(p);
	free(p->unw_ips);
	free(p->us.no_info_by_dso);
	free(p->us.no_info_modules);
	pd_close(p->file);
	symbolizer_free(p->sym);
	machine_free(p->m);
	hidx_release(&p->site_idx);
	hidx_release(&p->stack_idx);
	free(p->sites);
	free(p->site_frames);
	free(p->stacks);
	free(p->frames);
	free(p->scratch);
	free(p->site_cache);
	leaf_callers_free(&p->leaf_callers);
	free(p->stack_values);
	free(p->site_values);
	free(p->event_names);
	free(p->input);
	free(p->kallsyms);
	free(p->vmlinux);
	free(p->comms);
	free(p->pids);
	free(p->tids);
	free(p->dsos);
	free(p->host_warning);
	free(p);
}

HWP_API int hwp_profile_info(const struct hwp_profile *p, struct hwp_profile_info *info)
{
	struct hwp_profile_info i = { .sz = sizeof(i) };

	clear_error();
	if (!p)
		return fail(-EINVAL, "hwp_profile_info: NULL");
	i.input = p->input;
	i.event = p->event_names[p->event];
	i.samples = p->samples;
	i.period = p->period;
	i.lost = p->lost;
	i.throttled = p->throttled;
	i.skipped = p->skipped;
	i.other_samples = p->other_samples;
	i.nr_events = p->nr_events;
	i.addresses = p->nr_sites;
	i.stacks = p->nr_event_stacks;
	i.callchains = p->callchains;
	i.hostname = p->hostname;
	i.osrelease = p->osrelease;
	i.host_warning = p->host_warning;
	i.filtered_samples = p->filtered_samples;
	i.filtered_period = p->filtered_period;
	i.dwarf = p->dwarf;
	i.off_cpu = p->off_cpu;
	i.off_cpu_unmatched = p->oc.unmatched;
	i.other_cpus = p->other_cpus;
	i.fp_chains = p->fp_chains;
	i.fp_one_frame = p->fp_one_frame;
	if (p->dwarf) {
		i.unwind_entry = p->us.entry;
		i.unwind_stack_short = p->us.stack_short;
		i.unwind_no_info = p->us.no_info;
		i.unwind_failed = p->us.failed;
		i.stack_size = p->us.stack_size;
		i.stack_size_needed = stack_needed(&p->us);
		i.unwind_no_info_modules = p->us.no_info_modules;
		i.unwind_unavailable = p->unw ? NULL : unwind_unavailable();
	}
	return info_fill(info, &i, sizeof(i));
}

const char *profile_event_name(const struct hwp_profile *p, size_t idx)
{
	return p && idx < p->nr_events ? p->event_names[idx] : NULL;
}
