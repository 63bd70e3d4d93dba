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
 * The copies are never pinned (open_req.alone), whatever the events ask
 * (:D): a pinned counter the kernel cannot put on the PMU beside its
 * pinned twin on the CPU goes into error state for good, and reads
 * nothing, which made the row of a thread that ran <not counted>. Not
 * pinned, a copy gets the counters left, and its row is scaled and says so
 * where they are too few; the pinned events stay pinned where the command
 * is counted.
 */
#include "count/session.h"

#include <errno.h>

#define NOT_ALONE \
	"counts per thread: %s opened on every CPU for the command's threads, but not for its first thread %d alone, which its row needs"

/* Event @e for the first thread alone, in its group as on the CPUs: 0, or
 * a negative error with the message set. */
static int first_open_event(struct hwp_session *s, size_t e)
{
	const struct event *ev = &s->evl->events[e];
	bool leader = fds_leader(&s->first, 0, fds_group_of(&s->first, e)) < 0;
	struct perf_event_attr a = s->attrs[e];
	struct open_req req = {
		.ev = ev,
		.attr = &a,
		.scope = s->opts.scope,
		.pid = s->opts.pid,
		.no_lone_id = true,
		.alone = true,
	};
	struct strbuf reason = STRBUF_INIT;
	int err = 0;

	a.disabled = leader;
	a.enable_on_exec = leader && s->opts.enable_on_exec;
	switch (fds_open(&s->first, 0, e, &req, &err, &reason)) {
	case OPEN_DONE:
	case OPEN_USER_ONLY:
		err = 0;
		break;
	case OPEN_FAILED:
		err = fail_prefix(err, NOT_ALONE, ev->name, (int)s->first_tid);
		break;
	case OPEN_NOT_SUPPORTED:
	case OPEN_THREAD_GONE:
		err = fail(err ? err : -EOPNOTSUPP, NOT_ALONE ": %s", ev->name,
			   (int)s->first_tid,
			   reason.len ? strbuf_str(&reason) : errno_text(-err));
		break;
	}
	strbuf_release(&reason);
	return err;
}

int session_first_open(struct hwp_session *s)
{
	int err = targets_set(&s->first_t, HWP_SCOPE_THREAD, s->first_tid, NULL, false);

	if (!err)
		err = fds_init(&s->first, s->evl, &s->first_t, true);
	for (size_t e = 0; !err && e < s->evl->nr_events; e++)
		if (s->status[e] == HWP_EVENT_COUNTING ||
		    s->status[e] == HWP_EVENT_USER_ONLY)
			err = first_open_event(s, e);
	return err;
}

void session_first_close(struct hwp_session *s)
{
	fds_release(&s->first);
	targets_release(&s->first_t);
}

int session_first_read(const struct hwp_session *s, struct hwp_count *row)
{
	for (size_t e = 0; s->first.fd && e < s->evl->nr_events; e++) {
		uint64_t v[3];
		ssize_t n;

		row[e] = (struct hwp_count){ 0 };
		if (fds_get(&s->first, 0, e) < 0)
			continue;
		n = fds_read(&s->first, 0, e, v, sizeof(v));
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
