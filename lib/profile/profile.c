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

/* A sample of the event; with several events, of another event too, which
 * adds to the values of every event alone (label_values), in the shape of
 * the event's: a call chain where the event has them. */
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

/* Whether the filters (hwp_profile_opts' comms, pids, tids, dsos) drop @s,
 * which is counted as filtered where it is of the reported event (@ours). */
static bool sample_dropped(struct hwp_profile *p, const struct pd_sample *s, bool ours)
{
	struct location loc;

	if (!p->filtering)
		return false;
	machine_resolve(p->m, s->pid, s->ip, s->cpumode, &loc);
	if (sample_kept(p, s, &loc))
		return false;
	if (ours) {
		p->samples++;
		p->period += s->period;
		p->filtered_samples++;
		p->filtered_period += s->period;
	}
	return true;
}

/* Count sample @s of the reported event @ev at @site: its site, CPU,
 * thread and time. 0 or -ENOMEM (with the message). */
static int count_sample(struct hwp_profile *p, const struct pd_event *ev,
			const struct pd_sample *s, long site)
{
	int err;

	p->sites[site].samples++;
	p->sites[site].period += s->period;
	p->samples++;
	p->period += s->period;
	err = cpu_add(p, s->cpu, 1, s->period);
	if (!err)
		err = thread_add(p, s->tid, comm_of(p, s->tid), (uint32_t)site,
				 s->period);
	if (err)
		return err;
	if (ev->attr.sample_type & PERF_SAMPLE_TIME) {
		if (!p->time_first || s->time < p->time_first)
			p->time_first = s->time;
		if (s->time > p->time_last)
			p->time_last = s->time;
	}
	return 0;
}

/* Sample @s's call chain (or its site alone, where event @ev has none) as
 * a stack of sites, when the reported event has chains. */
static int add_sample_stack(struct hwp_profile *p, const struct pd_event *ev,
			    const struct pd_sample *s, long site, int event, long *stack)
{
	int err;

	if (!has_chains(pd_event(p->file, (size_t)p->event)))
		return 0;
	p->callchains |= event == p->event;
	if (has_chains(ev))
		err = profile_add_callchain(p, s, (uint32_t)site, event, has_dwarf(ev),
					    stack);
	else
		err = profile_add_stack(p, (const uint32_t[]){ (uint32_t)site }, 1,
					s->period, event, stack);
	return err ? fail(-ENOMEM, "out of memory") : 0;
}

static int add_sample(struct hwp_profile *p, const struct pd_record *rec)
{
	const struct pd_event *ev = pd_event(p->file, (size_t)rec->event);
	bool ours = rec->event == p->event;
	bool off_cpu = offcpu_event(p, ev);
	struct pd_sample s;
	long site, stack = -1, label;
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
	if (sample_dropped(p, &s, ours))
		return 0;
	/* The first sample in the kernel starts reading its symbols, on a
	 * thread, while the rest of the file is read. */
	if (s.cpumode == PERF_RECORD_MISC_KERNEL)
		symbolizer_prefetch_kernel(p->sym);
	site = profile_site_of(p, s.pid, s.ip, s.cpumode);
	if (site < 0)
		return fail(-ENOMEM, "out of memory");
	if (ours && (err = count_sample(p, ev, &s, site)))
		return err;
	if (has_dwarf(ev) && !p->dwarf && (err = profile_dwarf_begin(p, ev)))
		return err;
	err = add_sample_stack(p, ev, &s, site, rec->event, &stack) ?:
	      labels_add(p, &s, comm_of(p, s.tid), site, stack, rec->event, &label);
	if (err)
		return err;
	return off_cpu ? offcpu_sample(p, &s, rec->event, site, stack, label) : 0;
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
	case PERF_RECORD_CGROUP:
		return labels_cgroup(p, rec->h);
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

/* A profile with @o's settings, nothing read yet, in *@out (freed by the
 * caller, also on error). */
static int profile_alloc(const char *path, int fd, const struct hwp_profile_opts *o,
			 struct hwp_profile **out)
{
	struct hwp_profile *p;
	int err;

	*out = p = calloc(1, sizeof(*p));
	if (!p)
		return fail(-ENOMEM, "out of memory");
	p->scratch = malloc(PROFILE_MAX_FRAMES * sizeof(*p->scratch));
	p->site_cache = calloc(SITE_CACHE_SLOTS, sizeof(*p->site_cache));
	/* Named as the file reader names it, in every message and output. */
	p->in_memory = !path || (fd < 0 && !strcmp(path, "-"));
	p->input = strdup(!path ? "(in memory)" :
			  p->in_memory ? "(standard input)" : path);
	p->no_demangle = o->no_demangle;
	p->inline_frames = o->inline_frames;
	p->no_kallsyms_cache = o->no_kallsyms_cache;
	p->no_debug_cache = o->no_debug_cache;
	p->read_threads = o->threads;
	err = copy_filters(p, o);
	if (err)
		return err;
	p->kallsyms = o->kallsyms ? strdup(o->kallsyms) : NULL;
	p->vmlinux = o->vmlinux ? strdup(o->vmlinux) : NULL;
	if (!p->scratch || !p->site_cache || !p->input || (o->kallsyms && !p->kallsyms) ||
	    (o->vmlinux && !p->vmlinux))
		return fail(-ENOMEM, "out of memory");
	return 0;
}

/* Open @p's file (@path or @fd) and read it: its events, build-ids and
 * host, then every record, aggregated. */
static int profile_read_file(struct hwp_profile *p, const char *path, int fd,
			     const struct hwp_profile_opts *o)
{
	int err;

	err = pd_open(path, fd, &p->file);
	if (!err)
		err = choose_event(p, o->event);
	if (!err)
		p->nr_events = pd_nr_events(p->file);
	if (!err)
		err = machine_new(&p->m);
	if (!err)
		err = symbolizer_new(p->m, o->kallsyms, &p->sym);
	if (!err)
		err = symbolizer_set_vmlinux(p->sym, o->vmlinux);
	if (!err)
		symbolizer_set_demangle(p->sym, !o->no_demangle);
	if (!err)
		symbolizer_set_kallsyms_cache(p->sym, !o->no_kallsyms_cache);
	if (!err)
		symbolizer_set_debug_cache(p->sym, !o->no_debug_cache);
	if (!err)
		err = pd_foreach_build_id(p->file, note_build_id, p->m);
	if (!err)
		err = pd_foreach_file_stat(p->file, note_file_stat, p->m);
	if (!err)
		err = note_recording_host(p);
	if (!err)
		err = cpu_filter_set(p, o->cpus);
	if (!err)
		err = offcpu_begin(p);
	if (!err)
		err = pd_foreach_threads(p->file, o->threads, on_record, p);
	return err;
}

/* What is left once every record is read: the totals, the events' names,
 * the modules without debug info; then the file and what reading it
 * needed go. */
static int profile_finish(struct hwp_profile *p)
{
	int err;

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
	if (!p->event_names)
		return fail(-ENOMEM, "out of memory");
	/* LOST records (the rings') miss the samples dropped at the end;
	 * LOST_SAMPLES (the events' counters, written at the end) miss those
	 * of inherited children. Both count the same drops, so the sums are
	 * not added: the larger is the better bound. */
	p->lost = p->lost_records > p->lost_samples ? p->lost_records : p->lost_samples;
	if (p->dwarf) {
		err = name_no_info_modules(p);
		if (err)
			return err;
	}
	/* Everything needed is aggregated: the file's mapping goes. */
	pd_close(p->file);
	p->file = NULL;
	free(p->scratch);
	p->scratch = NULL;
	free(p->site_cache);
	p->site_cache = NULL;
	leaf_callers_free(&p->leaf_callers);
	return 0;
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
	err = profile_alloc(path, fd, &o, &p);
	if (!err)
		err = profile_read_file(p, path, fd, &o);
	if (!err)
		err = profile_finish(p);
	if (err)
		goto err;
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
	labels_release(p);
	free(p->event_names);
	free(p->input);
	free(p->source);
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
	i.input = p->source ? p->source : p->input;
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

HWP_API int hwpriv_profile_set_source(struct hwp_profile *p, const char *source)
{
	char *copy;

	clear_error();
	if (!p || !source)
		return fail(-EINVAL, "hwpriv_profile_set_source: NULL argument");
	copy = strdup(source);
	if (!copy)
		return fail(-ENOMEM, "out of memory");
	free(p->source);
	p->source = copy;
	return 0;
}
