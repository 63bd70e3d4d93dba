// SPDX-License-Identifier: MIT
/* Profiles: the samples of one event of a perf.data file, aggregated by
 * (module, address) as they are read, with their call chains as chains of
 * such addresses. Nothing is kept per sample, so memory follows the
 * distinct addresses and chains; symbols are looked up later, once each
 * (report.c). */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

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

static int add_stack(struct hwp_profile *p, const uint32_t *frames, uint32_t nr,
		     uint64_t period)
{
	struct frames_key k = { frames, nr };
	uint64_t h = hash_bytes(frames, nr * sizeof(*frames));
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
			(struct stack){ (uint32_t)p->nr_frames, nr, 0, 0 };
		p->nr_frames += nr;
		i = (long)p->nr_stacks++;
	}
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

/* The call chain as sites, the sampled instruction first. Callers are
 * looked up at their return address - 1, inside the call instruction, so
 * that a call at the end of a function is not put in the next one. */
static int add_callchain(struct hwp_profile *p, const struct pd_sample *s, uint32_t leaf)
{
	uint16_t mode = s->cpumode;
	uint32_t nr = 0;

	p->scratch[nr++] = leaf;
	for (uint64_t i = 0; i < s->nr_ips && nr < PROFILE_MAX_FRAMES; i++) {
		uint64_t ip;
		struct location loc;
		long site;

		memcpy(&ip, s->ips + i, sizeof(ip));
		if (ip >= PERF_CONTEXT_MAX) {
			mode = context_mode(ip);
			continue;
		}
		if (ip == s->ip && nr == 1)
			continue;	/* the chain starts with the sampled address */
		if (ip < 4096)
			break;		/* a frame pointer walk that ran into garbage */
		machine_resolve(p->m, s->pid, ip - 1, mode, &loc);
		site = profile_site(p, &loc);
		if (site < 0)
			return -ENOMEM;
		p->scratch[nr++] = (uint32_t)site;
	}
	return add_stack(p, p->scratch, nr, s->period);
}

static int add_sample(struct hwp_profile *p, const struct pd_record *rec)
{
	const struct pd_event *ev = pd_event(p->file, (size_t)rec->event);
	struct pd_sample s;
	struct location loc;
	long site;
	int err;

	err = pd_decode_sample(&ev->attr, rec->h, &s);
	if (err)
		return fail_prefix(err, "'%s', record at offset %llu", p->input,
				       (unsigned long long)rec->offset);
	machine_resolve(p->m, s.pid, s.ip, s.cpumode, &loc);
	/* The first sample in the kernel starts reading its symbols, on a
	 * thread, while the rest of the file is read. */
	if (s.cpumode == PERF_RECORD_MISC_KERNEL)
		symbolizer_prefetch_kernel(p->sym);
	site = profile_site(p, &loc);
	if (site < 0)
		return fail(-ENOMEM, "out of memory");
	p->sites[site].samples++;
	p->sites[site].period += s.period;
	p->samples++;
	p->period += s.period;
	if (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		p->callchains = true;
		if (add_callchain(p, &s, (uint32_t)site))
			return fail(-ENOMEM, "out of memory");
	}
	return 0;
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
		if (rec->event < 0)
			p->skipped++;
		else
			p->other_samples++;
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return machine_apply(p->m, rec->h);
	case PERF_RECORD_UNTHROTTLE:
		return 0;
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

/* Where the file was recorded, and a warning when that was not here: the
 * kernel's symbols are this machine's /proc/kallsyms, and module paths are
 * opened on this machine, so another kernel or host may not match them. */
static int note_recording_host(struct hwp_profile *p, const char *kallsyms)
{
	struct strbuf sb = STRBUF_INIT;
	struct utsname u;
	bool other_host, other_kernel;

	p->hostname = symbolize_intern(p->sym,
				       pd_feature_string(p->file, PD_FEAT_HOSTNAME));
	p->osrelease = symbolize_intern(p->sym,
					pd_feature_string(p->file, PD_FEAT_OSRELEASE));
	if (uname(&u))
		return 0;
	other_host = p->hostname && strcmp(p->hostname, u.nodename);
	/* Symbols from a file given for the purpose are the user's choice. */
	other_kernel = p->osrelease && strcmp(p->osrelease, u.release) && !kallsyms;
	if (!other_host && !other_kernel)
		return 0;
	strbuf_addf(&sb, "'%s' was recorded", p->input);
	if (other_host)
		strbuf_addf(&sb, " on host '%s' (this is '%s')", p->hostname, u.nodename);
	if (other_kernel)
		strbuf_addf(&sb, "%s kernel %s (this one runs %s)",
			    other_host ? " with" : " under", p->osrelease, u.release);
	strbuf_addf(&sb, ": %s%s%s may not match the recording's",
		    other_kernel ? "kernel symbols (read from this machine's /proc/kallsyms; give a "
				   "copy of the recording machine's: report --kallsyms FILE)" :
				   "",
		    other_kernel ? " and " : "",
		    "modules (opened by their recorded paths on this machine)");
	p->host_warning = strbuf_detach(&sb);
	return p->host_warning ? 0 : fail(-ENOMEM, "out of memory");
}

/* The builds the file names: a module on disk that is another build is
 * not used for the recording's addresses (symbolize.c). */
static int note_build_id(const char *path, const struct pd_build_id *id, void *ctx)
{
	return machine_set_build_id(ctx, path, id);
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
	p->input = strdup(path ? path : "(in memory)");
	if (!p->scratch || !p->input) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	err = pd_open(path, fd, &p->file);
	if (!err)
		err = choose_event(p, o.event);
	if (!err)
		err = machine_new(&p->m);
	if (!err)
		err = symbolizer_new(p->m, o.kallsyms, &p->sym);
	if (!err)
		err = pd_foreach_build_id(p->file, note_build_id, p->m);
	if (!err)
		err = note_recording_host(p, o.kallsyms);
	if (!err)
		err = pd_foreach(p->file, on_record, p);
	if (err)
		goto err;
	note_skipped(p);
	p->nr_events = pd_nr_events(p->file);
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
	/* Everything needed is aggregated: the file's mapping goes. */
	pd_close(p->file);
	p->file = NULL;
	free(p->scratch);
	p->scratch = NULL;
	*out = p;
	return 0;
err:
	hwp_profile_free(p);
	return err;
}

HWP_API int hwp_profile_open(const char *path, const struct hwp_profile_opts *opts,
			     struct hwp_profile **out)
{
	clear_error();
	if (!out || !path)
		return fail(-EINVAL, "hwp_profile_open: NULL argument");
	return profile_load(path, -1, opts, out);
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
	pd_close(p->file);
	symbolizer_free(p->sym);
	machine_free(p->m);
	hidx_release(&p->site_idx);
	hidx_release(&p->stack_idx);
	free(p->sites);
	free(p->stacks);
	free(p->frames);
	free(p->scratch);
	free(p->event_names);
	free(p->input);
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
	i.stacks = p->nr_stacks;
	i.callchains = p->callchains;
	i.hostname = p->hostname;
	i.osrelease = p->osrelease;
	i.host_warning = p->host_warning;
	return info_fill(info, &i, sizeof(i));
}

HWP_API const char *hwp_profile_event_name(const struct hwp_profile *p, size_t idx)
{
	return p && idx < p->nr_events ? p->event_names[idx] : NULL;
}
