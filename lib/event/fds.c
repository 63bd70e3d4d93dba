// SPDX-License-Identifier: MIT
/* The fd matrix of events × instances (fds.h): how descriptors are laid
 * out, opened into their groups, ioctl'ed, read and closed, once for
 * counting, recording and holds. */
#include "event/fds.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int fds_group_starts(const struct hwp_evlist *evl, bool grouped, size_t **out)
{
	size_t nr = grouped ? evl->nr_groups : evl->nr_events;
	size_t *start = calloc(nr + 1, sizeof(*start));

	*out = start;
	if (!start)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0, g = 0; e < evl->nr_events; e++) {
		if (e == 0 || !grouped ||
		    evl->events[e].group != evl->events[e - 1].group)
			start[g++] = e;
		start[g] = e + 1;
	}
	return 0;
}

int fds_init(struct fds *f, const struct hwp_evlist *evl, const struct targets *t,
	     bool grouped)
{
	size_t n;

	*f = (struct fds){ .t = t, .nr_events = evl->nr_events,
			   .nr_inst = t->nr_cpus * t->nr_tids };
	n = f->nr_inst * f->nr_events;
	f->nr_groups = grouped ? evl->nr_groups : evl->nr_events;
	/* + 1: an empty matrix is no allocation failure */
	f->fd = malloc((n + 1) * sizeof(*f->fd));
	for (size_t i = 0; f->fd && i < n; i++)
		f->fd[i] = -1;
	f->id = calloc(n + 1, sizeof(*f->id));
	if (!f->fd || !f->id || fds_group_starts(evl, grouped, &f->group_start)) {
		fds_release(f);
		return fail(-ENOMEM, "out of memory");
	}
	return 0;
}

void fds_release(struct fds *f)
{
	if (f->fd)
		fds_close(f);
	free(f->fd);
	free(f->id);
	free(f->group_start);
	*f = (struct fds){ 0 };
}

size_t fds_group_of(const struct fds *f, size_t e)
{
	size_t g = 0;

	while (g + 1 < f->nr_groups && f->group_start[g + 1] <= e)
		g++;
	return g;
}

int fds_leader(const struct fds *f, size_t inst, size_t g)
{
	for (size_t e = f->group_start[g]; e < f->group_start[g + 1]; e++) {
		int fd = fds_get(f, inst, e);

		if (fd >= 0)
			return fd;
	}
	return -1;
}

bool fds_inst_has_open(const struct fds *f, size_t inst, size_t e)
{
	for (size_t k = 0; k < e; k++)
		if (fds_get(f, inst, k) >= 0)
			return true;
	return false;
}

size_t fds_nr_open(const struct fds *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr_inst * f->nr_events; i++)
		n += f->fd[i] >= 0;
	return n;
}

long fds_find_id(const struct fds *f, uint64_t id)
{
	for (size_t i = 0; i < f->nr_inst * f->nr_events; i++)
		if (f->fd[i] >= 0 && f->id[i] == id)
			return (long)i;
	return -1;
}

bool fds_opens_on(const struct fds *f, size_t inst, const struct event *ev)
{
	if (!ev->nr_cpumask)
		return true;
	return f->t->tids[inst % f->t->nr_tids] == -1 &&
	       event_counts_on(ev, f->t->cpus[inst / f->t->nr_tids]);
}

bool fds_opens_nowhere(const struct fds *f, const struct event *ev, struct strbuf *why)
{
	char mask[128];

	for (size_t inst = 0; inst < f->nr_inst; inst++)
		if (fds_opens_on(f, inst, ev))
			return false;
	event_cpumask_format(ev, mask, sizeof(mask));
	if (f->t->tids[0] != -1)
		strbuf_addf(why, "its PMU counts a device that every CPU shares (its cpumask: CPU %s), not a thread: count it system-wide, with -a",
			    mask);
	else
		strbuf_addf(why, "its PMU counts on CPU %s only (its cpumask), which the CPU list leaves out: add one of them to -C, or count with -a",
			    mask);
	return true;
}

/* The members of @e's group @g open on instance @inst before it. */
static size_t opened_before(const struct fds *f, size_t inst, size_t g, size_t e)
{
	size_t n = 0;

	for (size_t k = f->group_start[g]; k < e; k++)
		n += fds_get(f, inst, k) >= 0;
	return n;
}

/* @a as a counter of one thread alone opens it (open_req.alone). */
static void alone_attr(struct perf_event_attr *a)
{
	a->inherit = 0;
	a->inherit_stat = 0;
	a->pinned = 0;
	a->watermark = 0;
	a->wakeup_watermark = 0;
	a->comm = a->task = 0;
	a->sample_id_all = 0;
	a->sample_type = 0;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

enum open_outcome fds_open(struct fds *f, size_t inst, size_t e, struct open_req *req,
			   int *err, struct strbuf *reason)
{
	size_t g = fds_group_of(f, e), s = fds_slot(f, inst, e);
	struct perf_event_attr alone, *asked = req->attr;
	enum open_outcome o;
	int fd;

	if (req->alone) {
		alone = *asked;
		alone_attr(&alone);
		req->attr = &alone;
	}

	req->cpu = f->t->cpus[inst / f->t->nr_tids];
	if (!(req->flags & PERF_FLAG_PID_CGROUP))
		req->tid = f->t->tids[inst % f->t->nr_tids];
	req->group_fd = fds_leader(f, inst, g);
	req->group_size = f->group_start[g + 1] - f->group_start[g];
	req->group_opened = opened_before(f, inst, g, e);
	req->fds_needed = f->nr_events * f->nr_inst;
	o = event_open(req, &fd, err, reason);
	req->attr = asked;
	if (o != OPEN_DONE && o != OPEN_USER_ONLY)
		return o;
	f->fd[s] = fd;
	if ((req->group_size > 1 || !req->no_lone_id) &&
	    ioctl(fd, PERF_EVENT_IOC_ID, &f->id[s]) < 0) {
		*err = fail(-errno, "%s: PERF_EVENT_IOC_ID failed: %s", req->ev->name,
			    errno_text(errno));
		close(fd);
		f->fd[s] = -1;
		return OPEN_FAILED;
	}
	return o;
}

static void close_slot(struct fds *f, size_t s)
{
	if (f->fd[s] >= 0)
		close(f->fd[s]);
	f->fd[s] = -1;
}

void fds_close_event(struct fds *f, size_t e)
{
	for (size_t i = 0; i < f->nr_inst; i++)
		close_slot(f, fds_slot(f, i, e));
}

void fds_close_inst(struct fds *f, size_t inst)
{
	for (size_t e = f->nr_events; e-- > 0;)
		close_slot(f, fds_slot(f, inst, e));
}

/* Members before leaders: a leader closed first would promote its members
 * to groups of their own for a moment. */
void fds_close(struct fds *f)
{
	for (size_t i = f->nr_inst * f->nr_events; i-- > 0;)
		close_slot(f, i);
}

int fds_ioctl(const struct fds *f, unsigned long req)
{
	for (size_t i = 0; i < f->nr_inst * f->nr_events; i++)
		if (f->fd[i] >= 0 && ioctl(f->fd[i], req, 0) < 0)
			return -errno;
	return 0;
}

int fds_group_ioctl(const struct fds *f, size_t g, unsigned long req)
{
	size_t first = g == FDS_ALL_GROUPS ? 0 : g;
	size_t end = g == FDS_ALL_GROUPS ? f->nr_groups : g + 1;

	for (size_t inst = 0; inst < f->nr_inst; inst++)
		for (size_t k = first; k < end && k < f->nr_groups; k++) {
			int fd = fds_leader(f, inst, k);

			if (fd >= 0 && ioctl(fd, req, PERF_IOC_FLAG_GROUP) < 0)
				return -errno;
		}
	return 0;
}

ssize_t fds_read(const struct fds *f, size_t inst, size_t e, void *buf, size_t size)
{
	int fd = fds_get(f, inst, e);

	return fd < 0 ? -EBADF : fds_read_fd(fd, buf, size);
}
