// SPDX-License-Identifier: MIT
/* Recording sessions: sampling events opened on every CPU for the target
 * tasks (as perf record does: inherited events can only be mapped per CPU),
 * one ring buffer a CPU that the CPU's other events write into too, drained
 * (record-file.c) into a perf.data file: on disk, or in memory for
 * hwp_profile_from_record(). */
#include "sample/record.h"

#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

static char *dup_or_null(const char *s, int *err)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*err = -ENOMEM;
	return d;
}

static int check_opts(const struct hwp_record_opts *o)
{
	if (o->freq && o->period)
		return fail(-EINVAL, "a sampling frequency and a period exclude each other: give one");
	if (o->scope > HWP_SCOPE_CPUS)
		return fail(-EINVAL, "hwp_record_opts: unknown scope %d", (int)o->scope);
	if (o->cpus && o->scope != HWP_SCOPE_CPUS)
		return fail(-EINVAL, "hwp_record_opts: a CPU list needs HWP_SCOPE_CPUS");
	if (o->mmap_pages && (o->mmap_pages & (o->mmap_pages - 1)))
		return fail(-EINVAL,
			    "the ring buffer size must be a power of two pages, not %zu",
			    o->mmap_pages);
	if (o->callchain == HWP_CALLCHAIN_DWARF && !regs_arch_host())
		return fail(-EOPNOTSUPP,
			    "DWARF call chains need the user registers of this architecture, which hwprof does not know (x86-64 and arm64 only); use frame pointers (-g) and build with -fno-omit-frame-pointer");
	if (o->stack_size && o->callchain != HWP_CALLCHAIN_DWARF)
		return fail(-EINVAL, "a stack copy size is for DWARF call chains only (--call-graph dwarf,SIZE)");
	if (o->stack_size % 8 || o->stack_size > STACK_USER_MAX)
		return fail(-EINVAL,
			    "the stack copy size must be a multiple of 8 bytes up to %u, not %u",
			    STACK_USER_MAX, o->stack_size);
	if (o->callchain > HWP_CALLCHAIN_DWARF)
		return fail(-EINVAL, "hwp_record_opts: unknown call-chain mode %d",
				(int)o->callchain);
	return 0;
}

/* The events to sample: a copy of @evl's, or the default event, then the
 * switches for off-CPU time (their call chains say where threads leave
 * the CPU). */
static int take_events(struct hwp_record *r, const struct hwp_evlist *evl)
{
	struct hwp_evlist *off = NULL;
	int err;

	r->default_event = !evl && !r->o.off_cpu;
	if (!r->o.off_cpu)
		return evl ? evlist_dup(evl, &r->evl) :
			     hwp_evlist_parse("cycles", NULL, &r->evl);
	err = hwp_evlist_parse(OFFCPU_EVENT, NULL, &off);
	if (!err)
		err = evl ? evlist_join(evl, off, &r->evl) : evlist_dup(off, &r->evl);
	hwp_evlist_free(off);
	if (err)
		return err;
	r->offcpu_ev = r->evl->nr_events - 1;
	if (r->o.callchain == HWP_CALLCHAIN_NONE)
		r->o.callchain = HWP_CALLCHAIN_FP;
	return 0;
}

static int copy_opts(struct hwp_record *r, const struct hwp_record_opts *opts)
{
	int err = OPTS_COPY(&r->o, opts, hwp_record_opts);

	if (err || (err = check_opts(&r->o)))
		return err;
	r->cpulist = dup_or_null(r->o.cpus, &err);
	r->output = dup_or_null(r->o.output, &err);
	if (!err && r->o.argv && !(r->argv = strv_dup(r->o.argv)))
		err = -ENOMEM;
	r->o.cpus = r->cpulist;
	r->o.output = r->output;
	r->o.argv = NULL;	/* never keep the caller's pointers */
	if (err)
		return fail(-ENOMEM, "out of memory");
	if (!r->o.mmap_pages)
		r->o.mmap_pages = DEFAULT_PAGES;
	return 0;
}

HWP_API int hwp_record_new_0_2(const struct hwp_evlist *evl,
			       const struct hwp_record_opts *opts,
			       struct hwp_record **out);
HWP_SYMVER_DEFAULT(hwp_record_new_0_2, hwp_record_new, "HWPROF_0.2");

HWP_API int hwp_record_new_0_2(const struct hwp_evlist *evl,
			       const struct hwp_record_opts *opts,
			       struct hwp_record **out)
{
	struct hwp_record *r;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_record_new: out is NULL");
	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return fail(-ENOMEM, "out of memory");
	r->epfd = r->memfd = -1;
	err = copy_opts(r, opts);
	if (!err)
		err = take_events(r, evl);
	if (err) {
		hwp_record_free(r);
		return err;
	}
	*out = r;
	return 0;
}

/* ---- opening the events ---- */

static unsigned int max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned int v = 0;

	if (f) {
		if (fscanf(f, "%u", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

/* How often @e samples: every off-CPU switch, a fixed period (-c), every
 * tracepoint hit, else a frequency. */
static void sampling_period(const struct hwp_record *r, size_t e,
			    struct perf_event_attr *a)
{
	const struct event *ev = evlist_get(r->evl, e);

	if (r->o.off_cpu && e == r->offcpu_ev) {
		/* Every switch, each timed: a period that is always 1 needs
		 * no field (readers take the attr's), and a switch out is
		 * the ring's busiest writer. */
		a->sample_period = 1;
		a->freq = 0;
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	} else if (r->o.period) {
		a->sample_period = r->o.period;
		a->freq = 0;
		/* As perf: a fixed period needs no field, and with one the
		 * kernel samples every software event (perf_swevent_event()
		 * takes the count as the period). Tracepoints keep it, as
		 * perf's: each hit's count (sched_stat_*'s ns) is its period. */
		if (ev->attr.type != PERF_TYPE_TRACEPOINT)
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	} else if (ev->attr.type == PERF_TYPE_TRACEPOINT && !r->o.freq) {
		a->sample_period = 1;	/* every tracepoint hit, as perf */
		a->freq = 0;
	} else {
		a->sample_freq = r->freq;
		a->freq = 1;
	}
}

static void sampling_attr(struct hwp_record *r, size_t e, struct perf_event_attr *a)
{
	const struct event *ev = evlist_get(r->evl, e);
	size_t ring_bytes = r->o.mmap_pages * (size_t)sysconf(_SC_PAGESIZE);

	*a = ev->attr;
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (r->o.callchain == HWP_CALLCHAIN_FP) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		/* A leaf function's caller, which the kernel's walk of the
		 * frame records skips, is in arm64's link register (as perf
		 * 5.19), on x86-64's stack (leaf-caller.c) */
		if (regs_arch_host() && regs_arch_host()->fp_mask) {
			a->sample_type |= PERF_SAMPLE_REGS_USER;
			a->sample_regs_user = regs_arch_host()->fp_mask;
		}
		if (regs_arch_host() && regs_arch_host()->fp_stack) {
			a->sample_type |= PERF_SAMPLE_STACK_USER;
			a->sample_stack_user = regs_arch_host()->fp_stack;
		}
	}
	if (r->o.callchain == HWP_CALLCHAIN_DWARF) {
		/* As perf: the kernel walks its own part, the user part is
		 * unwound from the registers and the stack's copy. */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_user = 1;
		a->sample_regs_user = regs_arch_host()->user_mask;
		a->sample_stack_user = r->o.stack_size ? r->o.stack_size :
							 STACK_USER_DEFAULT;
	}
	/* The kernel's own count of dropped samples (Linux 6.0): a LOST record
	 * is only written once the ring has room again, which may be never.
	 * Older kernels refuse it, and the open goes on without. */
	a->read_format = PERF_FORMAT_LOST;
	if (r->o.all_cgroups)
		a->sample_type |= PERF_SAMPLE_CGROUP;
	sampling_period(r, e, a);
	a->sample_id_all = 1;
	a->disabled = 1;
	a->enable_on_exec = r->o.enable_on_exec;
	a->inherit = !r->o.no_inherit;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 2);
}

/* The side-band records (where code is mapped, what tasks do), asked of
 * one event an instance: set in @a, or cleared. */
static void side_band(const struct hwp_record *r, struct perf_event_attr *a, bool on)
{
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = on;
	/* perf's unwinder reads .eh_frame_hdr through the mappings, and the
	 * linker puts it in a segment that is not executable: with DWARF
	 * chains the data mappings are recorded too, as perf does. */
	a->mmap_data = on && r->o.callchain == HWP_CALLCHAIN_DWARF;
	/* PERF_RECORD_SWITCH: when each thread leaves and comes back */
	a->context_switch = on && r->o.off_cpu;
	/* PERF_RECORD_CGROUP: the path of each cgroup created meanwhile */
	a->cgroup = on && r->o.all_cgroups;
}

static void add_fallback(struct hwp_record *r, const char *fmt, ...) HWP_PRINTF(2, 3);

static void add_fallback(struct hwp_record *r, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pr_info("%s", strbuf_str(&sb));
	strbuf_addf(&r->fallbacks, "%s%s", r->fallbacks.len ? "; " : "", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* Event @e cannot be sampled here: why, as the error of the open. */
static int cannot_sample(struct hwp_record *r, size_t e, int err,
			 const struct strbuf *reason)
{
	const struct event *ev = evlist_get(r->evl, e);

	if (err == -EINVAL && r->attrs[e].freq && r->freq > max_sample_rate())
		return fail(err, "cannot sample %s at %llu Hz: kernel.perf_event_max_sample_rate is %u (lower -F, or raise the limit with sysctl)",
				ev->name, (unsigned long long)r->freq, max_sample_rate());
	return fail(err, "cannot sample %s: %s", ev->name, strbuf_str(reason));
}

/* Open event @e on instance @inst: 0, 1 when the thread is gone, or a
 * negative error. */
static int open_event(struct hwp_record *r, size_t inst, size_t e)
{
	struct open_req req = {
		.ev = evlist_get(r->evl, e),
		.attr = &r->attrs[e],
		.scope = r->o.scope,
		.pid = r->o.pid,
	};
	struct strbuf reason = STRBUF_INIT;
	int err;

	switch (fds_open(&r->fds, inst, e, &req, &err, &reason)) {
	case OPEN_USER_ONLY:	/* once an event: its attr excludes the kernel now */
		add_fallback(r, "%s: %s", req.ev->name, strbuf_str(&reason));
		break;
	case OPEN_DONE:
		break;
	case OPEN_NOT_SUPPORTED:
		err = cannot_sample(r, e, err, &reason);
		strbuf_release(&reason);
		return err;
	case OPEN_THREAD_GONE:
		return 1;
	case OPEN_FAILED:
		strbuf_release(&reason);
		return err;
	}
	strbuf_release(&reason);
	return 0;
}

/* open_event() with the side-band records asked of the first event open
 * on the instance (a CPU's ring): not the list's first on a CPU outside
 * its PMU's cpumask, where that one is not opened. The file's attr of an
 * event says whether it carries them on any instance. */
static int open_fd(struct hwp_record *r, size_t inst, size_t e)
{
	struct perf_event_attr *a = &r->attrs[e];
	bool carries = !fds_inst_has_open(&r->fds, inst, e), carried = a->mmap;
	int err;

	side_band(r, a, carries);
	err = open_event(r, inst, e);
	side_band(r, a, carries || carried);
	return err;
}

/* An event of a PMU with a cpumask is sampled where it counts, as a
 * session counts it: an error where that is none of the targets. */
static int check_cpumask(struct hwp_record *r, size_t e)
{
	struct strbuf why = STRBUF_INIT;
	int err = 0;

	if (fds_opens_nowhere(&r->fds, evlist_get(r->evl, e), &why))
		err = cannot_sample(r, e, -EOPNOTSUPP, &why);
	strbuf_release(&why);
	return err;
}

void record_close_fds(struct hwp_record *r)
{
	for (size_t c = 0; r->rings && c < r->t.nr_cpus; c++)
		ring_unmap(&r->rings[c]);
	fds_close(&r->fds);
	if (r->epfd >= 0)
		close(r->epfd);
	r->epfd = -1;
}

/* Every fd of CPU @c writes into the ring of the first one. */
static int map_ring(struct hwp_record *r, size_t c)
{
	struct ring *ring = &r->rings[c];
	struct epoll_event ee = { .events = EPOLLIN };
	int err;

	for (size_t t = 0; t < r->t.nr_tids; t++)
		for (size_t e = 0; e < r->evl->nr_events; e++) {
			int fd = fds_get(&r->fds, fds_inst(&r->fds, c, t), e);

			if (fd < 0)
				continue;
			if (!ring->base) {
				err = ring_map(ring, fd, r->o.mmap_pages);
				if (err)
					return err;
				ee.data.u64 = c;
				if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ee))
					return fail(-errno, "epoll_ctl: %s",
						    errno_text(errno));
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring->fd) < 0) {
				return fail(-errno, "PERF_EVENT_IOC_SET_OUTPUT: %s",
						errno_text(errno));
			}
		}
	return 0;
}

static int open_all(struct hwp_record *r)
{
	size_t live = 0;
	int err = fds_init(&r->fds, r->evl, &r->t, false);

	if (err)
		return err;
	r->rings = calloc(r->t.nr_cpus, sizeof(*r->rings));
	r->attrs = calloc(r->evl->nr_events, sizeof(*r->attrs));
	if (!r->rings || !r->attrs)
		return fail(-ENOMEM, "out of memory");
	for (size_t c = 0; c < r->t.nr_cpus; c++)
		r->rings[c].fd = -1;
	for (size_t e = 0; e < r->evl->nr_events; e++) {
		err = check_cpumask(r, e);
		if (err)
			return err;
		sampling_attr(r, e, &r->attrs[e]);
	}
	for (size_t t = 0; t < r->t.nr_tids; t++) {
		bool gone = false;

		for (size_t c = 0; c < r->t.nr_cpus && !gone; c++)
			for (size_t e = 0; e < r->evl->nr_events && !gone; e++) {
				size_t inst = fds_inst(&r->fds, c, t);

				if (!fds_opens_on(&r->fds, inst, evlist_get(r->evl, e)))
					continue;
				err = open_fd(r, inst, e);
				if (err < 0)
					return err;
				gone = err == 1;
			}
		live += !gone;
	}
	if (!live)
		return fail(-ESRCH, "process %d exited before it could be sampled",
				(int)r->o.pid);
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0)
		return fail(-errno, "epoll_create1: %s%s", errno_text(errno),
				resource_advice(-errno));
	for (size_t c = 0; c < r->t.nr_cpus; c++) {
		err = map_ring(r, c);
		if (err)
			return err;
	}
	return 0;
}

/* The default event: cycles at the highest precision the PMU takes, or
 * cpu-clock where there is no PMU to count cycles. */
static int open_default(struct hwp_record *r)
{
	int err;

	r->evl->events[0].attr.precise_ip = 3;
	err = open_all(r);
	if (err != -ENOENT && err != -ENODEV && err != -EOPNOTSUPP && err != -EINVAL)
		return err;
	add_fallback(r, "cycles cannot be sampled here (%s): sampling %s instead",
		     have_hw_pmu() ? hwp_errmsg() : "no hardware PMU", FALLBACK_EVENT);
	record_close_fds(r);
	fds_release(&r->fds);
	free(r->rings);
	free(r->attrs);
	r->rings = NULL;
	r->attrs = NULL;
	hwp_evlist_free(r->evl);
	r->evl = NULL;
	err = hwp_evlist_parse(FALLBACK_EVENT, NULL, &r->evl);
	return err ? err : open_all(r);
}

HWP_API int hwp_record_open(struct hwp_record *r)
{
	int err;

	clear_error();
	if (!r || r->tried)
		return fail(-EINVAL, "hwp_record_open: %s",
			    r ? "a recording is opened once (free it and make a new one)" :
			    "NULL");
	r->tried = true;
	r->freq = r->o.freq ? r->o.freq : DEFAULT_FREQ;
	if (!r->o.period && max_sample_rate() && r->freq > max_sample_rate()) {
		pr_warn("-F %llu is above kernel.perf_event_max_sample_rate: sampling at %u Hz",
			(unsigned long long)r->freq, max_sample_rate());
		r->freq = max_sample_rate();
	}
	err = targets_set(&r->t, r->o.scope, r->o.pid, r->cpulist, true);
	if (!err)
		err = r->default_event ? open_default(r) : open_all(r);
	if (!err && r->o.off_cpu && r->attrs[r->offcpu_ev].exclude_kernel)
		err = fail(-EACCES, "off-CPU time needs samples of the kernel, where threads switch, and the kernel allows user space only (kernel.perf_event_paranoid is %d): run as root, give CAP_PERFMON, or allow it with sysctl -w kernel.perf_event_paranoid=1",
			   read_paranoid());
	if (!err)
		err = record_begin_output(r);
	if (err) {
		struct kept_error why;

		error_keep(&why, err);
		record_close_fds(r);
		return error_restore(&why);
	}
	r->open = true;
	return 0;
}

static int ioctl_all(struct hwp_record *r, unsigned long req, const char *what)
{
	int err;

	if (!r->open)
		return fail(-EBADF, "%s: the recording is not open", what);
	err = fds_ioctl(&r->fds, req);
	return err ? fail(err, "%s: %s", what, errno_text(-err)) : 0;
}

HWP_API int hwp_record_enable(struct hwp_record *r)
{
	clear_error();
	return r ? ioctl_all(r, PERF_EVENT_IOC_ENABLE, "hwp_record_enable") : -EINVAL;
}

HWP_API int hwp_record_disable(struct hwp_record *r)
{
	clear_error();
	return r ? ioctl_all(r, PERF_EVENT_IOC_DISABLE, "hwp_record_disable") : -EINVAL;
}

HWP_API int hwp_record_finish(struct hwp_record *r)
{
	int err;

	clear_error();
	if (!r || !r->open)
		return fail(-EBADF, "hwp_record_finish: the recording is not open");
	hwp_record_disable(r);
	err = hwp_record_read(r) ?: record_end_data(r);
	record_close_fds(r);
	r->open = false;
	return record_end_output(r, err);
}

HWP_API int hwp_record_rotate(struct hwp_record *r, const char *path)
{
	char *copy;
	int err;

	clear_error();
	if (!r || !r->open)
		return fail(-EBADF, "hwp_record_rotate: the recording is not open");
	if (!path || !r->output || r->streamed)
		return fail(-EINVAL,
			    "hwp_record_rotate: only a recording to a regular file moves on to another file, and it needs the path of the next");
	err = hwp_record_read(r);
	if (err)
		return err;
	copy = strdup(path);
	if (!copy)
		return fail(-ENOMEM, "out of memory");
	return record_rotate_output(r, copy);
}

HWP_API int hwp_record_fd(const struct hwp_record *r)
{
	return r && r->open ? r->epfd : -1;
}

HWP_API int hwp_record_info(const struct hwp_record *r, struct hwp_record_info *st)
{
	struct hwp_record_info s = { .sz = sizeof(s) };

	clear_error();
	if (!r)
		return fail(-EINVAL, "hwp_record_info: NULL");
	s.event = r->evl ? r->evl->spec : NULL;
	s.fallback = r->fallbacks.len ? strbuf_str(&r->fallbacks) : NULL;
	s.stopped = r->stopped;
	s.samples = r->samples;
	/* LOST records miss what was dropped last; the counters miss the
	 * inherited children's: the larger is the better bound. */
	s.lost = r->lost > r->lost_read ? r->lost : r->lost_read;
	s.throttled = r->throttled;
	s.run_samples = r->done_samples + s.samples;
	s.run_lost = r->done_lost + s.lost;
	s.run_throttled = r->done_throttled + s.throttled;
	s.max_sample_rate = max_sample_rate();
	s.freq = r->attrs && r->attrs[0].freq ? r->freq : 0;
	s.period = r->attrs && !r->attrs[0].freq ? r->attrs[0].sample_period : 0;
	return info_fill(st, &s, sizeof(s));
}

uint64_t record_lost_records(const struct hwp_record *r)
{
	return r->lost;
}

/* For hwp_profile_from_record(): the finished recording's file. */
int record_file(const struct hwp_record *r, const char **path, int *fd)
{
	if (r && r->failure.err)
		return fail(-EINVAL,
			    "the recording failed, so there is nothing to read: %s",
			    r->failure.msg);
	if (!r || !r->finished)
		return fail(-EINVAL, "the recording is not finished: call hwp_record_finish() first");
	if (r->streamed)
		return fail(-EOPNOTSUPP,
			    "the recording went to '%s' as a stream, which cannot be read back: record to a regular file, or read the stream where it went",
			    r->output);
	*path = r->output;
	*fd = r->memfd;
	return 0;
}

HWP_API void hwp_record_free(struct hwp_record *r)
{
	if (!r)
		return;
	record_close_fds(r);
	pd_writer_abort(r->w);
	if (r->of)
		hwpriv_ofile_abort(r->of);
	else if (r->f)
		fclose(r->f);
	if (r->memfd >= 0)
		close(r->memfd);
	strv_free(r->argv);
	free(r->cpulist);
	free(r->output);
	free(r->attrs);
	fds_release(&r->fds);
	free(r->rings);
	targets_release(&r->t);
	strbuf_release(&r->fallbacks);
	strtab_release(&r->mapped);
	free(r->stopped);
	free(r->lost_before);
	hwp_evlist_free(r->evl);
	free(r);
}
