/* SPDX-License-Identifier: MIT */
/*
 * The descriptors of events opened on targets, in one place for counting,
 * recording and holds (as libperf's evsel fd matrix): a matrix of events ×
 * instances, an instance being one CPU and one thread of struct targets
 * (instance i: CPU i / nr_tids, thread i % nr_tids), each slot an fd or -1
 * and the kernel's id of that fd. Events are opened into it through
 * event_open(), as members of their group on each instance where the
 * events are grouped; enabled, disabled and reset per fd or per group;
 * read; and closed, members before their leaders.
 */
#ifndef HWPROF_EVENT_FDS_H
#define HWPROF_EVENT_FDS_H

#include "event/event-open.h"

#include <errno.h>
#include <unistd.h>

struct fds {
	int *fd;		/* [inst][event]: -1 where not open */
	uint64_t *id;		/* same shape: PERF_EVENT_IOC_ID of each open fd */
	const struct targets *t;	/* borrowed: the instances' CPUs and threads */
	size_t nr_events, nr_inst;
	size_t nr_groups;
	/* nr_groups + 1: group g is the events [start[g], start[g + 1]);
	 * without grouping, each event is a group of its own. */
	size_t *group_start;
};

/* Every group, for fds_group_ioctl(). */
#define FDS_ALL_GROUPS ((size_t)-1)

/*
 * A matrix of @evl's events on every instance of @t (borrowed: it must
 * outlive the matrix and not change), every slot closed. With @grouped,
 * the events open in the groups of @evl ({a,b}); without, each alone.
 * 0, or -ENOMEM with the message set.
 */
int fds_init(struct fds *f, const struct hwp_evlist *evl, const struct targets *t,
	     bool grouped);
/* Where each group of @evl starts, into *@out (nr_groups + 1 entries, the
 * last the number of events; without @grouped, one group an event):
 * 0, or -ENOMEM with the message set. */
int fds_group_starts(const struct hwp_evlist *evl, bool grouped, size_t **out);
/* Close every fd and free the matrix; a zeroed @f is left alone. */
void fds_release(struct fds *f);

static inline size_t fds_slot(const struct fds *f, size_t inst, size_t e)
{
	return inst * f->nr_events + e;
}

static inline int fds_get(const struct fds *f, size_t inst, size_t e)
{
	return f->fd[fds_slot(f, inst, e)];
}

static inline uint64_t fds_id(const struct fds *f, size_t inst, size_t e)
{
	return f->id[fds_slot(f, inst, e)];
}

/* The instance of the @cpu-th CPU and @tid-th thread of the targets. */
static inline size_t fds_inst(const struct fds *f, size_t cpu, size_t tid)
{
	return cpu * f->t->nr_tids + tid;
}

/* The group of event @e. */
size_t fds_group_of(const struct fds *f, size_t e);
/* The fd of group @g's leader on instance @inst (its first open member),
 * or -1. */
int fds_leader(const struct fds *f, size_t inst, size_t g);
/* Whether an event before @e is open on instance @inst. */
bool fds_inst_has_open(const struct fds *f, size_t inst, size_t e);
/* How many slots are open. */
size_t fds_nr_open(const struct fds *f);
/* The slot whose fd has the kernel's id @id, or -1. */
long fds_find_id(const struct fds *f, uint64_t id);

/* Whether @ev opens on instance @inst: every event does, but one of a PMU
 * with a cpumask (uncore, power, cstate), which counts a device that its
 * CPUs share, opens system-wide on its mask's CPUs only. The one place
 * that counting, recording and holds ask. */
bool fds_opens_on(const struct fds *f, size_t inst, const struct event *ev);
/* Whether @ev opens on no instance of @f; then why, for people, into @why
 * (what to give instead: -a, or a CPU of its mask in -C). */
bool fds_opens_nowhere(const struct fds *f, const struct event *ev, struct strbuf *why);

/*
 * Open event @e on instance @inst with event_open(): @req gives the event,
 * its attr, the scope and pid for messages, and the flags; the matrix fills
 * in the CPU and the thread (unless @req->flags has PERF_FLAG_PID_CGROUP:
 * then @req->tid is the cgroup's fd), the group's leader on that instance
 * and how many of its members are open there, and the descriptors the
 * whole matrix needs. On OPEN_DONE and OPEN_USER_ONLY the fd and its id
 * are in the slot; where the id cannot be read, the fd is closed and the
 * outcome is OPEN_FAILED with the message set. The rest as event_open().
 * With @req->alone, it opens a copy of @req->attr changed as that says,
 * and leaves @req->attr as it was.
 */
enum open_outcome fds_open(struct fds *f, size_t inst, size_t e, struct open_req *req,
			   int *err, struct strbuf *reason);

/* Close event @e on every instance; every event of instance @inst; all,
 * members before leaders. */
void fds_close_event(struct fds *f, size_t e);
void fds_close_inst(struct fds *f, size_t inst);
void fds_close(struct fds *f);

/* ioctl @req (PERF_EVENT_IOC_ENABLE, _DISABLE, _RESET) on each open fd
 * alone: 0, or the first failure's negative errno (no message set). */
int fds_ioctl(const struct fds *f, unsigned long req);
/* ioctl @req on the leader of group @g (FDS_ALL_GROUPS: of every group) on
 * every instance, for the whole group (PERF_IOC_FLAG_GROUP): 0, or the
 * first failure's negative errno (no message set). */
int fds_group_ioctl(const struct fds *f, size_t g, unsigned long req);

/* One read() of @fd into @buf, again when a signal interrupts it: the
 * bytes read, or a negative errno (no message set). Inline: it is the
 * self-measurement read path of regions. */
static inline ssize_t fds_read_fd(int fd, void *buf, size_t size)
{
	ssize_t n;

	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/* fds_read_fd() of event @e's fd on instance @inst; -EBADF where it is not
 * open. */
ssize_t fds_read(const struct fds *f, size_t inst, size_t e, void *buf, size_t size);

#endif
