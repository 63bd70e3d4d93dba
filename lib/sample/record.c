// SPDX-License-Identifier: MIT
/* Recording sessions: sampling events opened on every CPU for the target
 * tasks (as perf record does: inherited events can only be mapped per CPU),
 * one ring buffer a CPU that the CPU's other events write into too, drained
 * into a perf.data file: on disk, or in memory for hwp_profile_from_record(). */
#include "event/event-open.h"
#include "sample/sample.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DEFAULT_FREQ 4000
#define DEFAULT_PAGES 128	/* 512 KiB a CPU, as perf */
#define FALLBACK_EVENT "cpu-clock"
#define OFFCPU_EVENT "context-switches"

struct hwp_record {
	struct hwp_record_opts o;	/* its strings point into the copies below */
	char *events, *cpulist, *output;
	char **argv;
	struct hwp_evlist *evl;
	struct perf_event_attr *attrs;	/* per event, as opened */
	struct targets t;	/* every online CPU (one ring each), or those of -C */
	int *fds;		/* [cpu][tid][event], -1 when not open */
	uint64_t *ids;
	struct ring *rings;	/* one a CPU */
	int epfd;
	struct hwpriv_ofile *of;	/* the file on disk, or */
	bool streamed;		/* in perf's pipe format: it cannot be read back */
	int memfd;		/* the file in memory */
	FILE *f;
	struct pd_writer *w;
	size_t id_size;		/* the sample_id trailer of non-sample records */
	/* Why the default event was replaced, and why events sample user
	 * space only: the sentences of the fallbacks taken, "; " between. */
	struct strbuf fallbacks;
	uint64_t freq;
	uint64_t samples, lost, throttled, round_bytes;
	/* What was on disk at the last round's end: where a file whose
	 * writing failed ends, and the samples it holds. */
	int64_t good_data;
	uint64_t good_samples;
	char *stopped;		/* why sampling stopped early, or NULL */
	/* the files the records map executable: their build-ids go in the file */
	struct strtab mapped;
	/* what the events' read_format LOST counters said at the end */
	uint64_t lost_read;
	/* The recording failed for good (failure.err != 0): every later call
	 * returns this error with this message. */
	struct kept_error failure;
	/* off_cpu: the context-switches event added last, sampled at each
	 * switch; the first event records the switches */
	size_t offcpu_ev;
	bool open, finished;
	bool tried;		/* hwp_record_open() was called: it is not called twice */
};

static inline size_t slot(const struct hwp_record *r, size_t cpu, size_t tid, size_t ev)
{
	return (cpu * r->t.nr_tids + tid) * r->evl->nr_events + ev;
}

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

/* Off-CPU time: the switches are sampled (their call chains say where
 * threads leave the CPU) after the events asked for, if any. */
static int add_off_cpu(struct hwp_record *r)
{
	struct strbuf sb = STRBUF_INIT;

	if (r->events)
		strbuf_addf(&sb, "%s,", r->events);
	strbuf_addf(&sb, "%s", OFFCPU_EVENT);
	free(r->events);
	r->events = strbuf_detach(&sb);
	r->o.events = r->events;
	if (!r->events)
		return fail(-ENOMEM, "out of memory");
	if (r->o.callchain == HWP_CALLCHAIN_NONE)
		r->o.callchain = HWP_CALLCHAIN_FP;
	return 0;
}

HWP_API int hwp_record_new(const struct hwp_record_opts *opts, struct hwp_record **out)
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
	err = OPTS_COPY(&r->o, opts, hwp_record_opts);
	if (!err)
		err = check_opts(&r->o);
	if (err)
		goto err;
	r->events = dup_or_null(r->o.events, &err);
	r->cpulist = dup_or_null(r->o.cpus, &err);
	r->output = dup_or_null(r->o.output, &err);
	if (!err && r->o.argv && !(r->argv = strv_dup(r->o.argv)))
		err = -ENOMEM;
	r->o.events = r->events;
	r->o.cpus = r->cpulist;
	r->o.output = r->output;
	r->o.argv = NULL;	/* never keep the caller's pointers */
	if (err) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	if (!r->o.mmap_pages)
		r->o.mmap_pages = DEFAULT_PAGES;
	if (r->o.off_cpu) {
		err = add_off_cpu(r);
		if (err)
			goto err;
	}
	err = hwp_evlist_parse(r->events ? r->events : "cycles", NULL, &r->evl);
	if (err)
		goto err;
	r->offcpu_ev = r->evl->nr_events - 1;
	*out = r;
	return 0;
err:
	hwp_record_free(r);
	return err;
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
	} else if (ev->attr.type == PERF_TYPE_TRACEPOINT && !r->o.freq) {
		a->sample_period = 1;	/* every tracepoint hit, as perf */
		a->freq = 0;
	} else {
		a->sample_freq = r->freq;
		a->freq = 1;
	}
	a->sample_id_all = 1;
	a->disabled = 1;
	a->enable_on_exec = r->o.enable_on_exec;
	a->inherit = !r->o.no_inherit;
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(ring_bytes / 2);
	/* Only the first event says where code is mapped and what tasks do. */
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = e == 0;
	/* perf's unwinder reads .eh_frame_hdr through the mappings, and the
	 * linker puts it in a segment that is not executable: with DWARF
	 * chains the data mappings are recorded too, as perf does. */
	a->mmap_data = e == 0 && r->o.callchain == HWP_CALLCHAIN_DWARF;
	/* PERF_RECORD_SWITCH: when each thread leaves and comes back */
	a->context_switch = e == 0 && r->o.off_cpu;
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

/* Open event @e on CPU @c for thread @t: 0, 1 when the thread is gone, or
 * a negative error. */
static int open_fd(struct hwp_record *r, size_t c, size_t t, size_t e)
{
	struct open_req req = {
		.ev = evlist_get(r->evl, e),
		.attr = &r->attrs[e],
		.tid = r->t.tids[t],
		.cpu = r->t.cpus[c],
		.group_fd = -1,
		.scope = r->o.scope,
		.pid = r->o.pid,
		.fds_needed = r->evl->nr_events * r->t.nr_cpus * r->t.nr_tids,
	};
	struct strbuf reason = STRBUF_INIT;
	size_t s = slot(r, c, t, e);
	int fd, err;

	switch (event_open(&req, &fd, &err, &reason)) {
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
	r->fds[s] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &r->ids[s]) < 0)
		return fail(-errno, "PERF_EVENT_IOC_ID failed: %s",
			    errno_text(errno));
	return 0;
}

static void close_fds(struct hwp_record *r)
{
	size_t n = r->t.nr_cpus * r->t.nr_tids * (r->evl ? r->evl->nr_events : 0);

	for (size_t c = 0; r->rings && c < r->t.nr_cpus; c++)
		ring_unmap(&r->rings[c]);
	for (size_t i = 0; r->fds && i < n; i++)
		if (r->fds[i] >= 0) {
			close(r->fds[i]);
			r->fds[i] = -1;
		}
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
			int fd = r->fds[slot(r, c, t, e)];

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
	size_t n = r->t.nr_cpus * r->t.nr_tids * r->evl->nr_events;
	size_t live = 0;
	int err;

	r->fds = malloc(n * sizeof(*r->fds));
	r->ids = calloc(n, sizeof(*r->ids));
	r->rings = calloc(r->t.nr_cpus, sizeof(*r->rings));
	r->attrs = calloc(r->evl->nr_events, sizeof(*r->attrs));
	if (!r->fds || !r->ids || !r->rings || !r->attrs)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		r->fds[i] = -1;
	for (size_t c = 0; c < r->t.nr_cpus; c++)
		r->rings[c].fd = -1;
	for (size_t e = 0; e < r->evl->nr_events; e++)
		sampling_attr(r, e, &r->attrs[e]);
	for (size_t t = 0; t < r->t.nr_tids; t++) {
		bool gone = false;

		for (size_t c = 0; c < r->t.nr_cpus && !gone; c++)
			for (size_t e = 0; e < r->evl->nr_events && !gone; e++) {
				err = open_fd(r, c, t, e);
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
	close_fds(r);
	free(r->fds);
	free(r->ids);
	free(r->rings);
	free(r->attrs);
	r->fds = NULL;
	r->ids = NULL;
	r->rings = NULL;
	r->attrs = NULL;
	hwp_evlist_free(r->evl);
	r->evl = NULL;
	err = hwp_evlist_parse(FALLBACK_EVENT, NULL, &r->evl);
	return err ? err : open_all(r);
}

/* ---- the output ---- */

static int open_output(struct hwp_record *r)
{
	int fd;

	if (r->output) {
		int err = ofile_open_recording(r->output, &r->of);

		if (err)
			return err;
		r->f = hwpriv_ofile_stream(r->of);
		return 0;
	}
	r->memfd = memfd_create("hwprof-record", MFD_CLOEXEC);
	if (r->memfd < 0)
		return fail(-errno, "memfd_create: %s%s", errno_text(errno),
				resource_advice(-errno));
	fd = fcntl(r->memfd, F_DUPFD_CLOEXEC, 0);
	r->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->f) {
		if (fd >= 0)
			close(fd);
		return fail(-errno, "cannot buffer the recording: %s",
			    errno_text(errno));
	}
	return 0;
}

/* Writing the file failed with @err: which file, why, what to do. */
static int write_error(const struct hwp_record *r, int err)
{
	if (r->output)
		return fail(err, "writing '%s' failed: %s; %s", r->output,
				errno_text(-err), write_advice(err));
	return fail(err, "keeping the recording in memory failed: %s; record to a file instead",
			errno_text(-err));
}

/* Remember @err and the message that explains it: the recording has
 * failed, and every later call says so in the same words. */
static int keep_failure(struct hwp_record *r, int err)
{
	error_keep(&r->failure, err);
	return err;
}

/* An MMAP or MMAP2 of an executable file: kept, to name its build. */
static void note_mapping(struct hwp_record *r, const struct perf_event_header *h)
{
	struct mmap_fields f;

	/* out of memory: that file's build-id is not named */
	if (parse_mmap(h, &f) && f.exec && f.name[0] == '/')
		strtab_intern(&r->mapped, f.name, strlen(f.name));
}

/* The build-ids of the files mapped, for the file's header, as perf's;
 * and the kernel's, which tells a report on another kernel (or none) that
 * this machine's kernel symbols are not the recording's. */
static int add_build_ids(struct hwp_record *r)
{
	struct pd_build_id kernel;

	if (!pd_build_id_of_notes(PD_KERNEL_NOTES, &kernel)) {
		int err = pd_writer_add_build_id(r->w, PD_KERNEL_NAME, true, &kernel);

		if (err)
			return err;
	}
	for (size_t i = 0; i < r->mapped.nr; i++) {
		struct pd_build_id id;
		int err;

		/* no build-id: what tells another build, its size and time */
		if (pd_build_id_of(r->mapped.strs[i], &id))
			err = pd_writer_add_file_stat(r->w, r->mapped.strs[i]);
		else
			err = pd_writer_add_build_id(r->w, r->mapped.strs[i], false, &id);
		if (err)
			return err;
	}
	return 0;
}

static int write_record(const struct perf_event_header *h, void *ctx)
{
	struct hwp_record *r = ctx;

	if (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2)
		note_mapping(r, h);
	errno = 0;
	if (fwrite(h, 1, h->size, r->f) != h->size)
		return write_error(r, errno ? -errno : -EIO);
	r->round_bytes += h->size;
	return 0;
}

static void mark_complete(struct hwp_record *r)
{
	int64_t size = pd_writer_data_size(r->w);

	if (size >= 0) {
		r->good_data = size;
		r->good_samples = r->samples;
	}
}

static bool is_regular(FILE *f)
{
	struct stat st;

	return !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
}

static int begin_file(struct hwp_record *r)
{
	size_t nr = r->evl->nr_events, per = r->t.nr_cpus * r->t.nr_tids;
	struct pd_write_event *wev = calloc(nr, sizeof(*wev));
	uint64_t *ids = calloc(nr * per + 1, sizeof(*ids));
	int err = 0;

	if (!wev || !ids) {
		err = fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t e = 0; e < nr; e++) {
		uint64_t *mine = ids + e * per;
		size_t n = 0;

		for (size_t c = 0; c < r->t.nr_cpus; c++)
			for (size_t t = 0; t < r->t.nr_tids; t++)
				if (r->fds[slot(r, c, t, e)] >= 0)
					mine[n++] = r->ids[slot(r, c, t, e)];
		wev[e] = (struct pd_write_event){ &r->attrs[e],
						  evlist_get(r->evl, e)->name, mine, n };
	}
	/* To standard output, perf's pipe format: perf record -o - writes it;
	 * and to whatever cannot be sought back to its start for the header
	 * (a FIFO, a socket, /dev/null), which a reader reads as a stream. */
	r->streamed = r->output && (!strcmp(r->output, "-") || !is_regular(r->f));
	if (r->streamed)
		err = pd_writer_begin_pipe(r->f, wev, nr, r->argv, &r->w);
	else
		err = pd_writer_begin(r->f, wev, nr, &r->w);
out:
	free(wev);
	free(ids);
	return err;
}

/* What existed before sampling began: the kernel, and a running target. */
static int synthesize(struct hwp_record *r)
{
	int err = synth_kernel_mmap(r->id_size, write_record, r);

	if (!err)
		err = synth_kernel_modules(r->id_size, write_record, r);
	if (err || r->o.enable_on_exec)
		return err;	/* a command about to exec maps everything anew */
	if (r->o.scope == HWP_SCOPE_CPUS)
		return synth_all_processes(r->id_size, write_record, r);
	return synth_process(r->o.pid ? r->o.pid : getpid(), r->id_size, write_record, r);
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
		err = r->events ? open_all(r) : open_default(r);
	if (!err && r->o.off_cpu && r->attrs[r->offcpu_ev].exclude_kernel)
		err = fail(-EACCES, "off-CPU time needs samples of the kernel, where threads switch, and the kernel allows user space only (kernel.perf_event_paranoid is %d): run as root, give CAP_PERFMON, or allow it with sysctl -w kernel.perf_event_paranoid=1",
			   read_paranoid());
	if (!err)
		err = open_output(r);
	if (!err) {
		r->id_size = pd_sample_id_size(&r->attrs[0]);
		err = begin_file(r);
	}
	if (!err)
		err = synthesize(r);
	if (!err && fflush(r->f))
		err = write_error(r, -errno);
	if (!err)
		mark_complete(r);	/* what a failed write later keeps */
	if (err) {
		struct kept_error why;

		error_keep(&why, err);
		close_fds(r);
		return error_restore(&why);
	}
	r->open = true;
	return 0;
}

static int ioctl_all(struct hwp_record *r, unsigned long req, const char *what)
{
	size_t n = r->t.nr_cpus * r->t.nr_tids * r->evl->nr_events;

	if (!r->open)
		return fail(-EBADF, "%s: the recording is not open", what);
	for (size_t i = 0; i < n; i++)
		if (r->fds[i] >= 0 && ioctl(r->fds[i], req, 0) < 0)
			return fail(-errno, "%s: %s", what, errno_text(errno));
	return 0;
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

HWP_API int hwp_record_fd(const struct hwp_record *r)
{
	return r && r->open ? r->epfd : -1;
}

static int count_and_write(const struct perf_event_header *h, void *ctx)
{
	struct hwp_record *r = ctx;
	uint64_t lost;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->samples++;
		break;
	case PERF_RECORD_LOST:
		/* u64 id, u64 lost */
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&lost, (const char *)(h + 1) + 8, 8);
			r->lost += lost;
		}
		break;
	case PERF_RECORD_THROTTLE:
		r->throttled++;
		break;
	}
	return write_record(h, ctx);
}

/* A ring's owner whose task exited polls as hung up, for ever: take it
 * out of the set, or a poll on hwp_record_fd() would spin. The CPU's other
 * events may still write there; the periodic reads collect it. */
static void drop_hangups(struct hwp_record *r)
{
	struct epoll_event ev[64];
	int n = epoll_wait(r->epfd, ev, ARRAY_SIZE(ev), 0);

	for (int i = 0; i < n; i++)
		if ((ev[i].events & (EPOLLHUP | EPOLLERR)) &&
		    ev[i].data.u64 < r->t.nr_cpus)
			epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->rings[ev[i].data.u64].fd,
				  NULL);
}

HWP_API int hwp_record_read(struct hwp_record *r)
{
	static const struct perf_event_header round = { .type = PD_RECORD_FINISHED_ROUND,
							.size = sizeof(round) };
	int err = 0;

	clear_error();
	if (!r || !r->open)
		return fail(-EBADF, "hwp_record_read: the recording is not open");
	if (r->failure.err)
		return error_restore(&r->failure);
	drop_hangups(r);
	r->round_bytes = 0;
	for (size_t c = 0; c < r->t.nr_cpus && !err; c++)
		err = ring_drain(&r->rings[c], count_and_write, r);
	/* A round's end tells readers that later records are not older; once
	 * it is on disk, it is where a file whose writing fails later ends. */
	if (!err && r->round_bytes)
		err = write_record(&round, r);
	if (!err && r->round_bytes) {
		if (fflush(r->f))
			err = write_error(r, -errno);
		else
			mark_complete(r);
	}
	return err ? keep_failure(r, err) : 0;
}

/* A PERF_RECORD_LOST_SAMPLES of event @e: u64 lost, and a sample_id
 * trailer whose last u64, the IDENTIFIER, names the event. */
static int write_lost_samples(struct hwp_record *r, size_t e, uint64_t lost)
{
	uint64_t rec[16] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES,
				       .size = (uint16_t)(sizeof(h) + 8 + r->id_size) };

	memcpy(rec, &h, sizeof(h));
	rec[1] = lost;
	for (size_t c = 0; c < r->t.nr_cpus; c++)
		for (size_t t = 0; t < r->t.nr_tids; t++)
			if (r->fds[slot(r, c, t, e)] >= 0)
				rec[1 + r->id_size / 8] = r->ids[slot(r, c, t, e)];
	return write_record((const struct perf_event_header *)rec, r);
}

/* The samples each event lost, as the kernel counted them. */
static int read_lost(struct hwp_record *r)
{
	int err = 0;

	for (size_t e = 0; e < r->evl->nr_events && !err; e++) {
		uint64_t lost = 0;

		if (!(r->attrs[e].read_format & PERF_FORMAT_LOST))
			continue;	/* a kernel before 6.0 */

		for (size_t c = 0; c < r->t.nr_cpus; c++)
			for (size_t t = 0; t < r->t.nr_tids; t++) {
				int fd = r->fds[slot(r, c, t, e)];
				uint64_t v[2];

				if (fd >= 0 &&
				    read(fd, v, sizeof(v)) == (ssize_t)sizeof(v))
					lost += v[1];
			}
		r->lost_read += lost;
		if (lost)
			err = write_lost_samples(r, e, lost);
	}
	return err;
}

/* The file ends at @end; the recording's output, committed or not. */
static int commit_output(struct hwp_record *r, int err)
{
	if (r->of) {
		if (err) {
			hwpriv_ofile_abort(r->of);
		} else {
			err = hwpriv_ofile_commit(r->of);
		}
		r->of = NULL;
		r->f = NULL;
	} else if (r->f) {
		if (fclose(r->f) && !err)
			err = write_error(r, -errno);
		r->f = NULL;
	}
	return err;
}

/* Writing the file failed: end it at the last complete round, so that it
 * reads, with what was on disk then; hwp_record_info().stopped says why.
 * @err: adding the build-ids failed (or 0: they are added). */
static int keep_what_was_written(struct hwp_record *r, int err)
{
	r->stopped = strdup(r->failure.msg);
	if (!r->stopped) {
		pd_writer_abort(r->w);
		r->w = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	if (!err)
		err = pd_writer_finish_at(r->w, r->good_data, r->argv);
	else
		pd_writer_abort(r->w);
	r->w = NULL;
	err = commit_output(r, err);
	if (err) {
		/* Not even that (a device, not a file): the first failure is
		 * what the user needs to hear of. */
		free(r->stopped);
		r->stopped = NULL;
		return error_restore(&r->failure);
	}
	r->samples = r->good_samples;
	r->failure.err = 0;	/* the file is whole: it can be read */
	r->finished = true;
	return 0;
}

/* The last records (the lost samples' counts), on disk: a failure to
 * write the rest keeps them. */
static int end_data(struct hwp_record *r)
{
	int err = read_lost(r);

	if (!err && fflush(r->f))
		err = write_error(r, -errno);
	if (err)
		return keep_failure(r, err);
	mark_complete(r);
	return 0;
}

HWP_API int hwp_record_finish(struct hwp_record *r)
{
	int err;

	clear_error();
	if (!r || !r->open)
		return fail(-EBADF, "hwp_record_finish: the recording is not open");
	hwp_record_disable(r);
	err = hwp_record_read(r) ?: end_data(r);
	close_fds(r);
	r->open = false;
	if (err && r->failure.err && r->w)
		return keep_what_was_written(r, add_build_ids(r));
	if (!err) {
		err = add_build_ids(r) ?: pd_writer_finish(r->w, r->argv);
		/* The features did not fit (a file size limit, a full disk right
		 * past the data): the file ends after the data, every sample kept.
		 * The writer does not know the file's name: say it. */
		if (err && err != -ENOMEM) {
			keep_failure(r, write_error(r, err));
			return keep_what_was_written(r, 0);
		}
		if (err)
			pd_writer_abort(r->w);
		r->w = NULL;
	}
	err = commit_output(r, err);
	/* A file that could not be completed is never read, nor an older
	 * one under its name. */
	r->finished = !err;
	return err ? keep_failure(r, err) : 0;
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
	close_fds(r);
	pd_writer_abort(r->w);
	if (r->of)
		hwpriv_ofile_abort(r->of);
	else if (r->f)
		fclose(r->f);
	if (r->memfd >= 0)
		close(r->memfd);
	strv_free(r->argv);
	free(r->events);
	free(r->cpulist);
	free(r->output);
	free(r->attrs);
	free(r->fds);
	free(r->ids);
	free(r->rings);
	targets_release(&r->t);
	strbuf_release(&r->fallbacks);
	strtab_release(&r->mapped);
	free(r->stopped);
	hwp_evlist_free(r->evl);
	free(r);
}
