/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/record.h>: sampling: recordings, as `hwprof record` makes them.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_RECORD_H
#define HWPROF_API_RECORD_H

#include <hwprof/core.h>
#include <hwprof/count.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Sampling: hwprof record
 *
 * A recording samples events on every CPU for its target, as perf record
 * does, into one kernel ring buffer a CPU, and writes what the kernel
 * reports (samples, and the MMAP2, COMM, FORK, EXIT, LOST and THROTTLE
 * records that make addresses resolvable after the process is gone) to a
 * file in perf's perf.data format, which `perf report -i` reads too. The
 * file is written under a temporary name and renamed into place by
 * hwp_record_finish(); without a path it is kept in memory for
 * hwp_profile_from_record().
 *
 * Typical use:
 *	hwp_evlist_parse("cpu-clock", NULL, &evl);	(or NULL: the default)
 *	hwp_record_new(evl, &opts, &r);
 *	hwp_record_open(r);		(opts.enable_on_exec: the command enables it)
 *	hwp_record_enable(r);
 *	while (running)
 *		poll hwp_record_fd(r), then hwp_record_read(r);
 *	hwp_record_finish(r);
 */

enum hwp_callchain {
	HWP_CALLCHAIN_NONE = 0,
	/* Frame pointers, walked by the kernel (perf record -g): the code
	 * must keep them (-fno-omit-frame-pointer). */
	HWP_CALLCHAIN_FP,
	/* DWARF (perf record --call-graph dwarf): each sample keeps the user
	 * registers and a copy of the top of the user stack (stack_size
	 * bytes), which a profile unwinds with the modules' unwind tables
	 * (.eh_frame), so code built without frame pointers gets its
	 * callers. The kernel's part of a chain is walked by the kernel. The
	 * file is perf's format: perf report unwinds it too. Needs an
	 * architecture hwprof knows the registers of (x86-64, arm64).
	 * Since: 0.2 (before, -EOPNOTSUPP) */
	HWP_CALLCHAIN_DWARF,
};

struct hwp_record_opts {
	size_t sz;
	uint64_t freq;		/* samples/s of each event on each CPU; default 4000 */
	uint64_t period;	/* instead of freq: one sample every @period events */
	enum hwp_callchain callchain;
	enum hwp_scope scope;	/* what to sample, as for counting sessions */
	pid_t pid;		/* see enum hwp_scope; 0: the calling thread or process */
	const char *cpus;	/* HWP_SCOPE_CPUS: a CPU list; NULL: all online CPUs */
	bool no_inherit;	/* do not sample threads and children created later */
	bool enable_on_exec;	/* start when the target calls exec() (a new command) */
	size_t mmap_pages;	/* data pages per CPU ring, a power of two; default 128 */
	/* perf.data path; NULL: keep the recording in memory; "-": standard
	 * output, in perf's pipe format (perf record -o -), since 0.2, as is
	 * any path that is not a regular file (a FIFO, /dev/null). A file is
	 * 0600 whatever the umask, and a non-empty one it replaces is kept
	 * as PATH.old (as perf record does), since 0.2 */
	const char *output;
	/* The command line kept in the file (NULL-terminated), or NULL. */
	char *const *argv;
	/* HWP_CALLCHAIN_DWARF: the bytes of user stack copied with each
	 * sample, a multiple of 8 up to 65528; 0: 8192, as perf. A chain
	 * deeper than the copy stops early, and the profile says so
	 * (hwp_profile_info's unwind counts). Since: 0.2 */
	uint32_t stack_size;
	/* Off-CPU time: also sample context-switches at every switch (period
	 * 1, whatever @freq or @period say of the other events), with call
	 * chains (HWP_CALLCHAIN_FP where @callchain is NONE), and record the
	 * switches (PERF_RECORD_SWITCH, perf record --switch-events), which
	 * time each interval until the thread runs again: a profile of the
	 * file weighs each such sample by it (hwp_profile_info's off_cpu).
	 * hwp_record_new()'s list may name events to sample as well
	 * (cpu-clock: on-CPU time in the same file), or be NULL for the
	 * switches alone, which follow the list's events. Needs no PMU
	 * and no tracefs, but the kernel's samples: hwp_record_open() fails
	 * with -EACCES where only user space may be sampled. Since: 0.2 */
	bool off_cpu;
	/* Each sample carries the cgroup v2 id of its task
	 * (PERF_SAMPLE_CGROUP), and the file names every cgroup by its path
	 * under the v2 mount (PERF_RECORD_CGROUP: those that exist when each
	 * file begins, and those created meanwhile), as perf record
	 * --all-cgroups writes them; hwp_profile_write()'s pprof labels each
	 * sample with its cgroup's path. Needs Linux 5.7; older kernels
	 * refuse it (hwp_record_open() fails with -EINVAL). Since: 0.2 */
	bool all_cgroups;
	size_t :0;
};

/* What a recording saw. Filled by hwp_record_info(). */
struct hwp_record_info {
	size_t sz;
	const char *event;	/* the event list sampled (after a fallback) */
	/* Why the default event was replaced, and which events sample user
	 * space only because the kernel refused the rest (sentences joined
	 * by "; "), or NULL when no fallback was taken */
	const char *fallback;
	uint64_t samples;	/* samples written */
	/* Samples the kernel dropped because a ring buffer was full, of all
	 * events: counted as hwp_profile_info() counts them in the file. */
	uint64_t lost;
	/* Times the kernel throttled sampling (THROTTLE records). */
	uint64_t throttled;
	unsigned int max_sample_rate;	/* kernel.perf_event_max_sample_rate now, Hz */
	uint64_t freq;		/* the frequency asked of the kernel, or 0 */
	uint64_t period;	/* the period asked of the kernel, or 0 */
	/* Why sampling stopped before the end: writing the file failed (a
	 * full disk), and hwp_record_finish() ended the file at the last
	 * complete round, whose samples it holds (samples counts those).
	 * NULL when the recording is whole. Since: 0.2 */
	const char *stopped;
	/* The whole recording's samples, lost samples and THROTTLE records:
	 * those of every file hwp_record_rotate() finished and the current
	 * one's, where samples, lost and throttled count the current file's
	 * alone; without a rotation, the same numbers. Since: 0.2 */
	uint64_t run_samples;
	uint64_t run_lost;
	uint64_t run_throttled;
};

struct hwp_record;

/*
 * hwp_record_new - a recording that will sample @evl's events as @opts says
 * @evl: the events (hwp_evlist_parse()), each sampled alone (a group's
 *	 members too); the recording keeps its own copy. NULL: cycles at the
 *	 highest precise_ip the PMU takes, or cpu-clock where the machine has
 *	 no PMU (hwp_record_info() says so); with off_cpu, the switches alone.
 * @opts: NULL for defaults (the calling thread, in memory)
 * @out: free it with hwp_record_free()
 *
 * Opens nothing yet. Errors: -EINVAL for options that exclude each other
 * (freq and period, a CPU list without HWP_SCOPE_CPUS, a ring that is not
 * a power of two, a stack_size that is not a multiple of 8 up to 65528 or
 * without HWP_CALLCHAIN_DWARF) or a NULL @out, -EOPNOTSUPP for
 * HWP_CALLCHAIN_DWARF on an architecture whose registers hwprof does not
 * know, -ENOMEM. Since: 0.1; 0.2 takes @evl, where 0.1 parsed a string
 * given in its options (programs built against 0.1 still get 0.1's).
 */
HWP_API int hwp_record_new(const struct hwp_evlist *evl,
			   const struct hwp_record_opts *opts, struct hwp_record **out);

/*
 * hwp_record_open - open the events, map the ring buffers, start the file
 *
 * Writes the attributes, an MMAP record of the kernel's text and, for a
 * target that already runs (not enable_on_exec), the COMM and MMAP2
 * records of its threads and executable mappings, read from /proc (for
 * HWP_SCOPE_CPUS, of every process). The events start disabled unless
 * they wait for exec(). They are opened as a counting session opens them,
 * with the same fallbacks: lower precision, user space only where the
 * kernel refuses to be sampled (hwp_record_info() says so), a raised
 * open-file limit. Errors: -EACCES or -EPERM with the
 * perf_event_paranoid explanation, -ESRCH (no such process), the event's
 * error when it cannot be sampled (hwp_errmsg() says why), the output
 * file's error (it is written under a temporary name, renamed into place at
 * the finish), -EINVAL on a second call: a
 * recording is opened once, whether that worked or not; -EACCES for
 * off_cpu where only user space may be sampled (since 0.2). Since: 0.1
 */
HWP_API int hwp_record_open(struct hwp_record *r);

/* hwp_record_enable, hwp_record_disable - start, stop sampling. -EBADF when not
 * open. Since: 0.1 */
HWP_API int hwp_record_enable(struct hwp_record *r);
HWP_API int hwp_record_disable(struct hwp_record *r);

/*
 * hwp_record_fd - a descriptor that polls readable when a ring buffer is
 * half full: call hwp_record_read() then. -1 when not open. Borrowed.
 * Since: 0.1
 */
HWP_API int hwp_record_fd(const struct hwp_record *r);

/*
 * hwp_record_read - move every complete record from the ring buffers to
 * the file, without blocking
 *
 * Call it often enough that the rings do not fill (on hwp_record_fd(),
 * and every few hundred milliseconds); what the kernel could not write is
 * counted as lost. Errors: the write's errno (-ENOSPC, -EFBIG...), or
 * -EIO when a ring buffer holds a record the kernel could not have
 * written whole (a corrupt ring); after either the recording only fails,
 * each call with the same error and message, until hwp_record_finish()
 * keeps what was complete. -EBADF when not open. Since: 0.1
 */
HWP_API int hwp_record_read(struct hwp_record *r);

/*
 * hwp_record_finish - stop, read what is left, close the events, and
 * complete the file: its feature sections and its header, then the
 * rename into place. The file is whole even when the target was stopped
 * by a signal. When writing failed before (hwp_record_read() said so; a
 * full disk), the file ends at the last round that was complete on disk,
 * without feature sections if there is no room for them, and reads:
 * hwp_record_info() gives the reason in stopped, and the samples kept.
 * Errors: a write error that leaves not even that; the file is then
 * removed (an older file under the name is left as it was), and the
 * recording counts as failed: hwp_profile_from_record() refuses it.
 * Since: 0.1
 */
HWP_API int hwp_record_finish(struct hwp_record *r);

/*
 * hwp_record_rotate - end the file and go on in @path, losing no sample
 * @path: the next perf.data file, as opts.output (copied)
 *
 * Drains the rings into the current file and completes it as
 * hwp_record_finish() would (lost samples, build-ids, header; renamed into
 * place), while the events go on counting: what the kernel writes after
 * the drain is in @path's file, which begins with its own attributes and
 * the processes that exist then, so that each file reads on its own (perf
 * record --switch-output). hwp_record_info() then counts the new file's
 * samples, and in run_samples those of every file. Errors: -EBADF when
 * not open, -EINVAL for a recording kept in memory or to a stream, the
 * errors of hwp_record_read() and hwp_record_finish() for the old file and
 * of hwp_record_open() for the new one; after any of them the recording
 * fails as a failed read does. Since: 0.2
 */
HWP_API int hwp_record_rotate(struct hwp_record *r, const char *path);

/* hwp_record_info - what was recorded so far; strings borrowed from @r.
 * Since: 0.1 (as hwp_record_stats) */
HWP_API int hwp_record_info(const struct hwp_record *r, struct hwp_record_info *st);

/* hwp_record_free - close, and drop an unfinished file. Since: 0.1 */
HWP_API void hwp_record_free(struct hwp_record *r);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_RECORD_H */
