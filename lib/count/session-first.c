// SPDX-License-Identifier: MIT
/*
 * Counts per thread of a command: its first thread counted on its own.
 *
 * The counters on every CPU that the threads inherit count them all; each
 * other thread's counts come with its exit (session-exits.c). The first
 * thread gets a second counter of each event of its own, which no thread
 * inherits, for two reasons:
 *
 * - Its row is its counts, read when the others' are, growing as it runs:
 *   the total less the exits was the first thread and every thread still
 *   running, and fell when one of them ended (an -I delta that wrapped).
 * - The kernel swaps the counters of two threads of a process when it
 *   switches from one to the other on a CPU, rather than scheduling them
 *   out and in, if their sets of counters are clones; with inherit_stat it
 *   swaps the counts too, but pairs the counters by their place in each
 *   set's list, and the first thread lists them in the order they were
 *   opened while the inherited sets list them by CPU and PMU: counts moved
 *   between events and threads (task-clock's nanoseconds as page faults).
 *   A counter that no thread inherits makes the sets no clones: the kernel
 *   never swaps them, and each thread's counters stay its own.
 *
 * The copies are grouped as the events are. The cost: while the first
 * thread runs, a hardware group needs the PMU's counters twice; and the
 * kernel schedules each thread's counters out and in at every switch
 * between the threads, where it swapped them before.
 *
 * The copies are never pinned, whatever the events ask (:D): a pinned
 * counter the kernel cannot put on the PMU beside its pinned twin on the
 * CPU goes into error state for good, and reads nothing, which made the
 * row of a thread that ran <not counted>. Not pinned, a copy gets the
 * counters left, and its row is scaled and says so where they are too
 * few; the pinned events stay pinned where the command is counted.
 */
#include "count/session.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Event @e's attr as opened on the CPUs, for the first thread alone; in
 * the group of @leader (-1: it leads), as on the CPUs. */
static void first_attr(const struct hwp_session *s, size_t e, int leader,
		       struct perf_event_attr *a)
{
	*a = s->attrs[e];
	a->inherit = 0;
	a->inherit_stat = 0;
	a->pinned = 0;
	a->watermark = 0;
	a->wakeup_watermark = 0;
	a->comm = a->task = 0;
	a->sample_id_all = 0;
	a->sample_type = 0;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->disabled = leader < 0;
	a->enable_on_exec = leader < 0 && s->opts.enable_on_exec;
}

int session_first_open(struct hwp_session *s)
{
	size_t n = s->evl->nr_events;
	pid_t tid = s->first_tid;
	int leader = -1;

	s->first_fd = malloc(n * sizeof(*s->first_fd));
	if (!s->first_fd)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < n; e++)
		s->first_fd[e] = -1;
	for (size_t e = 0; e < n; e++) {
		struct perf_event_attr a;
		long fd;

		if (e == s->group_start[s->evl->events[e].group])
			leader = -1;
		if (s->status[e] != HWP_EVENT_COUNTING &&
		    s->status[e] != HWP_EVENT_USER_ONLY)
			continue;
		first_attr(s, e, leader, &a);
		fd = sys_perf_event_open(&a, tid, -1, leader, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			return fail(-errno, "counts per thread: %s opened on every CPU for the command's threads, but not for its first thread %d alone, which its row needs: %s",
				    s->evl->events[e].name, (int)tid, errno_text(errno));
		s->first_fd[e] = (int)fd;
		if (leader < 0)
			leader = (int)fd;
	}
	return 0;
}

void session_first_close(struct hwp_session *s)
{
	for (size_t e = 0; s->first_fd && e < s->evl->nr_events; e++)
		if (s->first_fd[e] >= 0)
			close(s->first_fd[e]);
	free(s->first_fd);
	s->first_fd = NULL;
}

int session_first_ioctl(const struct hwp_session *s, unsigned long req)
{
	for (size_t e = 0; s->first_fd && e < s->evl->nr_events; e++)
		if (s->first_fd[e] >= 0 && ioctl(s->first_fd[e], req, 0) < 0)
			return -errno;
	return 0;
}

int session_first_read(const struct hwp_session *s, struct hwp_count *row)
{
	for (size_t e = 0; s->first_fd && e < s->evl->nr_events; e++) {
		uint64_t v[3];
		ssize_t n;

		row[e] = (struct hwp_count){ 0 };
		if (s->first_fd[e] < 0)
			continue;
		n = fds_read_fd(s->first_fd[e], v, sizeof(v));
		if (n < 0)
			return fail((int)n,
				    "reading the first thread's counters failed: %s",
				    errno_text((int)-n));
		if ((size_t)n < sizeof(v))
			continue;
		/* A counter of one task on any CPU: its enabled time is the
		 * task's own, so that where these copies and the per-CPU ones
		 * share too few hardware counters, the row is scaled and says
		 * so (not session_add_times(), whose per-CPU rows cannot be). */
		row[e].value = v[0];
		row[e].time_enabled = v[1];
		row[e].time_running = v[2];
	}
	return 0;
}
