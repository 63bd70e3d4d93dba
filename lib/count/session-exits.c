// SPDX-License-Identifier: MIT
/* Counts per thread of a command: the exit records of its threads
 * (inherit_stat), from one ring a CPU, into a unit a thread. */
#include "count/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

/* A command per thread: the exit records of its threads, in a ring a CPU
 * that the group leaders of that CPU write to, read while it runs. */
int session_exit_rings_map(struct hwp_session *s)
{
	int err;

	if (!s->per_exit)
		return 0;
	s->rings = calloc(s->nr_inst, sizeof(*s->rings));
	if (!s->rings)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < s->nr_inst; i++)
		s->rings[i].fd = -1;
	for (size_t i = 0; i < s->nr_inst; i++) {
		int first = -1;

		/* Every counter writes its record at a thread's exit. */
		for (size_t e = 0; e < s->evl->nr_events; e++) {
			int fd = fds_get(&s->fds, i, e);

			if (fd < 0)
				continue;
			if (first < 0) {
				err = exit_ring_map(&s->rings[i], fd, &s->ring_pages);
				if (err == -EPERM || err == -ENOMEM)
					return fail(err, "counts per thread of a command: the threads' exit records need a ring of %zu KiB on each of the %zu CPUs, which the kernel refused (%s): raise kernel.perf_event_mlock_kb or RLIMIT_MEMLOCK, or count as root",
						    exit_ring_kib(s->ring_pages),
						    s->nr_inst,
						    errno_text(-err));
				if (err)
					return err;
				first = fd;
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, first) < 0) {
				return fail(-errno, "counts per thread: cannot share the ring of the threads' exits: %s",
					    errno_text(errno));
			}
		}
	}
	return exit_reader_watch(s->reader, s->rings, s->nr_inst);
}

void session_exit_rings_unmap(struct hwp_session *s)
{
	for (size_t i = 0; s->rings && i < s->nr_inst; i++)
		ring_unmap(&s->rings[i]);
	free(s->rings);
	s->rings = NULL;
}

/* ---- a command per thread: the records of its threads' exits ---- */

static struct tid_comm *tid_entry(struct hwp_session *s, pid_t tid, bool add)
{
	struct tid_comm *c;

	for (size_t i = 0; i < s->nr_comms; i++)
		if (s->comms[i].tid == tid)
			return &s->comms[i];
	if (!add)
		return NULL;
	if (s->nr_comms == s->cap_comms) {
		size_t cap = s->cap_comms ? 2 * s->cap_comms : 16;
		struct tid_comm *n = realloc(s->comms, cap * sizeof(*n));

		if (!n)
			return NULL;
		s->comms = n;
		s->cap_comms = cap;
	}
	c = &s->comms[s->nr_comms++];
	*c = (struct tid_comm){ .tid = tid };
	return c;
}

/* A thread's name: its COMM's, else its creator's (a new thread has the
 * name of the one that created it), up the FORKs; NULL if none known. The
 * records come from one ring a CPU: they are matched once all are read. */
static const char *comm_of(struct hwp_session *s, pid_t tid)
{
	for (int depth = 0; depth < 64 && tid > 0; depth++) {
		const struct tid_comm *c = tid_entry(s, tid, false);

		if (!c)
			return NULL;
		if (*c->comm)
			return c->comm;
		tid = c->ptid;
	}
	return NULL;
}

/* Name each thread's unit from what the records said. */
static int name_units(struct hwp_session *s)
{
	for (size_t u = 0; u < s->nr_units; u++) {
		struct unit *x = &s->units[u];
		const char *comm = comm_of(s, x->tid);

		if (!comm && u)
			comm = s->units[0].comm;
		if (comm && strcmp(comm, x->comm) && session_rename_unit(x, comm, x->tid))
			return -ENOMEM;
	}
	return 0;
}

struct exit_read {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr, time_enabled, time_running;
	uint64_t member[];	/* value, id[, lost]: s->member_words a member; then
				 * the trailer: time, the writer's id */
};

/*
 * A thread's exit: the count of the counter that wrote the record into its
 * unit. Each counter writes one (inherit_stat on each); a group's may list
 * the members not yet taken out of the group as the thread's counters
 * close, which write their own (a member's record held the leader's count
 * too, which was then counted twice): only the writer's is taken.
 */
static int on_exit_read(struct hwp_session *s, const struct exit_read *r)
{
	size_t u, nr_ev = s->evl->nr_events, stride = s->member_words;
	size_t trailer = EXIT_TRAILER_WORDS * sizeof(uint64_t);
	const uint64_t *words = (const uint64_t *)r;
	struct tid_comm *tc;
	uint64_t writer;
	int err;

	if (r->h.size < sizeof(*r) + trailer ||
	    r->nr > (r->h.size - sizeof(*r) - trailer) / (stride * sizeof(r->member[0])))
		return 0;
	writer = words[r->h.size / sizeof(*words) - 1];
	tc = tid_entry(s, (pid_t)r->tid, true);
	if (!tc)
		return fail(-ENOMEM, "out of memory");
	tc->reads++;
	for (u = 1; u < s->nr_units; u++)
		if (s->units[u].tid == (pid_t)r->tid)
			break;
	if (u == s->nr_units) {
		err = session_thread_unit(s, (pid_t)r->tid, "?");
		if (err)
			return err;
	}
	/* One record a CPU's counter of the thread: their sum is its count. */
	for (uint64_t j = 0; j < r->nr; j++) {
		long k = r->member[j * stride + 1] == writer ?
			 fds_find_id(&s->fds, writer) : -1;
		struct hwp_count *c;

		if (k < 0)
			continue;
		c = &s->exited[u * nr_ev + (size_t)k % nr_ev];
		c->value += r->member[j * stride];
		session_add_times(s, c, r->time_enabled, r->time_running);
	}
	return 0;
}

static int on_exit_record(const struct perf_event_header *h, void *arg)
{
	struct hwp_session *s = arg;
	const uint32_t *w = (const uint32_t *)(h + 1);
	struct tid_comm *c;

	switch (h->type) {
	case PERF_RECORD_READ:
		return on_exit_read(s, (const struct exit_read *)h);
	case PERF_RECORD_COMM:	/* pid, tid, comm */
		if (h->size <= sizeof(*h) + 8)
			return 0;
		c = tid_entry(s, (pid_t)w[1], true);
		if (!c)
			return fail(-ENOMEM, "out of memory");
		snprintf(c->comm, sizeof(c->comm), "%.*s",
			 (int)(h->size - sizeof(*h) - 8), (const char *)(w + 2));
		return 0;
	case PERF_RECORD_FORK:	/* pid, ppid, tid, ptid */
		if (h->size < sizeof(*h) + 16)
			return 0;
		c = tid_entry(s, (pid_t)w[2], true);
		if (!c)
			return fail(-ENOMEM, "out of memory");
		c->ptid = (pid_t)w[3];
		return 0;
	case PERF_RECORD_LOST:	/* id, lost */
		if (h->size >= sizeof(*h) + 16)
			s->lost += ((const uint64_t *)(h + 1))[1];
		return 0;
	}
	return 0;
}

/*
 * Once the command is gone, every thread it started has written its exit
 * records: a READ record for each counter on each CPU (the first thread,
 * which holds the counters we opened, writes none). The kernel's ring of a CPU
 * takes the records of threads ending on every CPU, and is made for one
 * writer: records of threads that end at once on two CPUs can be lost
 * without a word from the kernel (PERF_RECORD_LOST and PERF_FORMAT_LOST
 * count full rings only). Their counts would land in the wrong row.
 */
static int exits_complete(struct hwp_session *s)
{
	const struct tid_comm *first = tid_entry(s, s->first_tid, false);
	size_t want = 0, partial = 0, none = 0, some = 0;

	if (!exit_rings_hup(s->rings, s->nr_inst))
		return 0;
	for (size_t i = 0; i < s->nr_inst; i++)
		for (size_t e = 0; e < s->evl->nr_events; e++)
			want += fds_get(&s->fds, i, e) >= 0;
	for (size_t i = 0; i < s->nr_comms; i++) {
		const struct tid_comm *c = &s->comms[i];

		partial += c->reads && c->reads != want;
		none += !c->reads && c->ptid;
		some += c->reads != 0;
	}
	if (!partial && !none)
		return 0;
	/* A thread other than the first called exec: it took the first
	 * thread's tid (the kernel's de_thread()), its records came under
	 * that tid and none under its own. Not a loss, but not split right
	 * either: said, rather than rows that leave its counts out. */
	if (first && first->reads && none == 1 && !partial)
		return fail(-EOPNOTSUPP, "counts per thread: a thread of the command other than the first called exec, taking the first thread's tid; its counts cannot be told apart from the first thread's. Count the threads together (without counts per thread)");
	if (!partial && !none)
		return 0;
	/* Not one record while threads came and went: the kernel writes none
	 * (seen on Debian's 6.1 in the emulated arm64 machine), not a race. */
	if (!some && none > 1)
		return fail(-EOPNOTSUPP, "counts per thread: this kernel wrote no exit record of the command's %zu threads (PERF_RECORD_READ with inherit_stat), so their counts cannot be split by thread and would all show in the first thread's row. Count the threads together (without counts per thread), or count each thread of a running process with -p PID --per-thread",
			    none);
	return fail(-EOVERFLOW, "counts per thread: the kernel lost the exit records of %zu of the command's threads without saying so (%zu others lack some): a CPU's ring takes the records of threads ending on every CPU, and drops some when threads end on several CPUs at once; their counts would show in the wrong row. Count the threads together (without counts per thread)",
		    none, partial);
}

int session_take_exits(struct hwp_session *s)
{
	return exit_reader_take(s->reader, on_exit_record, s);
}

HWP_API int hwp_session_read_units(struct hwp_session *s, struct hwp_count *counts,
				   size_t nr)
{
	size_t nr_ev;
	int err;

	clear_error();
	if (!s || !s->open)
		return fail(-EBADF, "hwp_session_read_units: the session is not open");
	nr_ev = s->evl->nr_events;
	if (s->per_exit && (err = session_take_exits(s)))
		return err;
	if (s->per_exit && (err = name_units(s)))
		return err;
	if (!counts || nr < s->nr_units * nr_ev)
		return fail(counts ? -ENOSPC : -EINVAL,
			    "hwp_session_read_units: room for %zu counts, %zu units of %zu events",
			    nr, s->nr_units, nr_ev);
	memset(counts, 0, s->nr_units * nr_ev * sizeof(*counts));
	s->read_lost = 0;
	err = session_read_instances(s, counts, true, false);
	if (err || !s->per_exit)
		return err;
	/* The first thread's own counters; the others' at their exits. The
	 * threads still running are in the total (hwp_session_read()) only. */
	err = session_first_read(s, counts);
	if (err)
		return err;
	memcpy(counts + nr_ev, s->exited + nr_ev,
	       (s->nr_units - 1) * nr_ev * sizeof(*counts));
	return exit_lost_error(s->lost > s->read_lost ? s->lost : s->read_lost,
			       s->ring_pages) ?: exits_complete(s);
}
