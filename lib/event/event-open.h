/* SPDX-License-Identifier: MIT */
/* The one layer that opens events on targets, for counting, recording and
 * probing alike: the targets (CPUs × threads, as libperf's cpu map and
 * thread map) and one open-with-fallbacks function whose outcome says what
 * became of the event. Every fallback perf knows is here, once:
 *   - :P and :pp step down until the PMU takes them;
 *   - the kernel refused kernel counting: user space only, unless the event
 *     asked for the kernel alone (it would count nothing: not supported);
 *   - a kernel without PERF_FORMAT_LOST (before 6.0): opened without it;
 *   - a user-space read the PMU will not give: opened without asking;
 *   - EMFILE: RLIMIT_NOFILE raised once;
 *   - a group member the PMU has no counter for, or past the members the
 *     kernel reads at once: the group is too large. */
#ifndef HWPROF_EVENT_OPEN_H
#define HWPROF_EVENT_OPEN_H

#include "core/core.h"
#include "event/event.h"

/* What to open events on: every pair of a CPU and a thread. */
struct targets {
	int *cpus;		/* -1 alone: the thread wherever it runs */
	size_t nr_cpus;
	pid_t *tids;		/* -1 alone: every task on the CPUs */
	size_t nr_tids;
};

/*
 * Fill @t for @scope: the threads of @pid (0: the calling thread or
 * process) or every task on the CPUs of @cpulist (NULL: all online). With
 * @per_cpu, a thread's events are opened on each online CPU (a recording
 * maps one ring buffer a CPU); without, once on any CPU (-1).
 */
int targets_set(struct targets *t, enum hwp_scope scope, pid_t pid, const char *cpulist,
		bool per_cpu);
void targets_release(struct targets *t);

/* What became of one open. */
enum open_outcome {
	OPEN_DONE,		/* opened as asked, or with a lower precision */
	OPEN_USER_ONLY,		/* opened, counting user space only: *reason says why */
	OPEN_NOT_SUPPORTED,	/* this machine cannot count it: *reason says why */
	OPEN_THREAD_GONE,	/* the thread exited meanwhile (a process's threads) */
	OPEN_FAILED,		/* fatal for the whole list: error and message are set */
};

struct open_req {
	const struct event *ev;	/* the event as parsed: name, levels, PMU */
	struct perf_event_attr *attr;	/* in: what to open; out: what was opened */
	/* or a cgroup's directory fd, with PERF_FLAG_PID_CGROUP */
	pid_t tid;
	int cpu;
	int group_fd;			/* the group's leader, or -1 */
	/* fds_open(): an event alone in its group is read alone, and its
	 * group read's one entry is its own: its id (PERF_EVENT_IOC_ID, an
	 * ioctl a counter) is not asked for, and stays 0, which the kernel
	 * gives no event. Not for records, nor exits' reads matched by id. */
	bool no_lone_id;
	/* fds_open(): a counter of its thread alone, beside counters of the
	 * same event that the threads inherit (counts per thread of a
	 * command: its first thread's own). Opened from a copy of @attr, but
	 * not inherited nor pinned (a pinned twin of a pinned counter, where
	 * the PMU cannot hold both, would go into error state and read
	 * nothing), writing no records, and read alone: one read() gives the
	 * value, the time enabled and the time running. */
	bool alone;
	unsigned long flags;		/* perf_event_open's: PERF_FLAG_PID_CGROUP or 0 */
	/* For messages: the members of the group, and how many of them are
	 * open on this instance before this one */
	size_t group_size, group_opened;
	/* CPUs: no user-space fallback; process: ESRCH is a thread gone. */
	enum hwp_scope scope;
	pid_t pid;			/* the target as the user gave it, for messages */
	/* How many descriptors the whole list takes, for messages. */
	size_t fds_needed;
};

/*
 * Open @req's event with every fallback. Returns the outcome; *@fd is the
 * descriptor for OPEN_DONE and OPEN_USER_ONLY, else -1. *@err is the
 * open's error (negative) for the others; for OPEN_FAILED the message is
 * set (hwp_errmsg()). @reason (may be NULL) gets the sentence that explains
 * OPEN_USER_ONLY or OPEN_NOT_SUPPORTED. @req->attr is left as it was
 * opened (exclude_kernel set, precise_ip lowered, PERF_FORMAT_LOST
 * dropped), so that the next open of the same event starts from there.
 */
enum open_outcome event_open(struct open_req *req, int *fd, int *err,
			     struct strbuf *reason);

#endif
