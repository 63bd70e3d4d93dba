// SPDX-License-Identifier: MIT
/* Counting sessions: groups opened on threads or CPUs, read with one read()
 * per group, failures sorted per event as perf does. */
#include "count/count.h"
#include "event/event-open.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define READ_FORMAT \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/* What one read() of a group returns (READ_FORMAT): the times, then a
 * value and an id a member, leader first, in the order they joined. */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	struct {
		uint64_t value;
		uint64_t id;
	} member[];
};

#define WORD(field) (offsetof(struct group_read, field) / sizeof(uint64_t))

/* The size in words of a group read of @members, and where member @j's
 * value lies in it. */
static inline size_t group_read_words(size_t members)
{
	return WORD(member) + members * sizeof(((struct group_read *)0)->member[0]) /
				      sizeof(uint64_t);
}

#define MEMBER_VALUE_WORD(j) group_read_words(j)

struct hwp_session {
	struct hwp_evlist *evl;
	struct hwp_session_opts opts;
	char *cpulist;
	struct targets t;	/* CPUs of HWP_SCOPE_CPUS, else -1; threads, else -1 */
	size_t nr_inst;		/* t.nr_cpus * t.nr_tids */
	struct perf_event_attr *attrs;	/* per event, as last opened (after fallbacks) */
	/* nr_groups + 1: the events of group g are [start[g], start[g+1]). */
	size_t *group_start;
	int *fds;		/* nr_inst * nr_events, -1 when not open */
	uint64_t *ids;		/* same shape */
	enum hwp_event_status *status;
	char **reason;
	uint64_t *buf;		/* one group read */
	size_t buf_words;
	void **pages;		/* rdpmc: the mmap'ed page of each slot, or NULL */
	pid_t owner_tid;	/* rdpmc reads only work on the counted thread itself */
	uint64_t rdpmc_reads;	/* groups read through rdpmc: for the tests */
	bool user_read;		/* open hardware events for user-space reads */
	int *raw_fd;		/* per group: its leader's fd on instance 0, or -1 */
	size_t *raw_words;	/* per group: the words of its read */
	bool open;
};

static inline size_t slot(const struct hwp_session *s, size_t inst, size_t ev)
{
	return inst * s->evl->nr_events + ev;
}

HWP_API int hwp_session_new(const struct hwp_evlist *evl,
			    const struct hwp_session_opts *opts, struct hwp_session **out)
{
	struct hwp_session *s;
	size_t nr, max_group = 0;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_session_new: out is NULL");
	*out = NULL;
	if (!evl || !evl->nr_events)
		return fail(-EINVAL, "hwp_session_new: no event list");
	s = calloc(1, sizeof(*s));
	if (!s)
		return fail(-ENOMEM, "out of memory");
	err = OPTS_COPY(&s->opts, opts, hwp_session_opts);
	if (err)
		goto err;
	if (s->opts.scope > HWP_SCOPE_CPUS) {
		err = fail(-EINVAL, "hwp_session_opts: unknown scope %d",
			   (int)s->opts.scope);
		goto err;
	}
	if (s->opts.cpus && s->opts.scope != HWP_SCOPE_CPUS) {
		err = fail(-EINVAL, "hwp_session_opts: a CPU list needs HWP_SCOPE_CPUS");
		goto err;
	}
	if (s->opts.cpus) {
		s->cpulist = strdup(s->opts.cpus);
		if (!s->cpulist) {
			err = fail(-ENOMEM, "out of memory");
			goto err;
		}
		/* A bad list is the caller's mistake: say so now, not at the open. */
		err = targets_set(&s->t, HWP_SCOPE_CPUS, 0, s->cpulist, false);
		targets_release(&s->t);
	}
	s->opts.cpus = NULL;	/* never keep the caller's pointer */
	if (err)
		goto err;
	err = evlist_dup(evl, &s->evl);
	if (err)
		goto err;
	nr = s->evl->nr_events;
	s->group_start = calloc(s->evl->nr_groups + 1, sizeof(*s->group_start));
	s->status = calloc(nr, sizeof(*s->status));
	s->reason = calloc(nr, sizeof(*s->reason));
	s->attrs = calloc(nr, sizeof(*s->attrs));
	if (!s->group_start || !s->status || !s->reason || !s->attrs) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	for (size_t i = 0, g = 0; i < nr; i++) {
		const struct event *ev = &s->evl->events[i];

		s->status[i] = HWP_EVENT_NOT_OPENED;
		if (i == 0 || ev->group != s->evl->events[i - 1].group)
			s->group_start[g++] = i;
		s->group_start[g] = i + 1;
	}
	for (size_t g = 0; g < s->evl->nr_groups; g++)
		if (s->group_start[g + 1] - s->group_start[g] > max_group)
			max_group = s->group_start[g + 1] - s->group_start[g];
	s->buf_words = group_read_words(max_group);
	s->buf = calloc(s->buf_words, sizeof(*s->buf));
	if (!s->buf) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	*out = s;
	return 0;
err:
	hwp_session_free(s);
	return err;
}

static int set_reason(struct hwp_session *s, size_t ev, enum hwp_event_status st,
		      struct strbuf *sb)
{
	free(s->reason[ev]);
	s->reason[ev] = strbuf_detach(sb);
	s->status[ev] = st;
	return s->reason[ev] ? 0 : fail(-ENOMEM, "out of memory");
}

static void close_event(struct hwp_session *s, size_t ev)
{
	for (size_t i = 0; i < s->nr_inst; i++) {
		int *fd = &s->fds[slot(s, i, ev)];

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

/* Each event's attr as the first open tries it; fallbacks change it there,
 * so that the event's other instances start from what worked. */
static void prepare_attrs(struct hwp_session *s)
{
	for (size_t e = 0; e < s->evl->nr_events; e++) {
		const struct event *ev = &s->evl->events[e];
		struct perf_event_attr *a = &s->attrs[e];

		*a = ev->attr;
		a->size = sizeof(*a);
		a->read_format = READ_FORMAT;
		a->inherit = !s->opts.no_inherit && s->opts.scope != HWP_SCOPE_CPUS;
		if (s->user_read && ev->is_hardware)
			rdpmc_request(a);
	}
}

/* The members of @e's group open on instance @inst before it. */
static size_t opened_before(const struct hwp_session *s, size_t inst, size_t e)
{
	size_t n = 0;

	for (size_t k = s->group_start[s->evl->events[e].group]; k < e; k++)
		n += s->fds[slot(s, inst, k)] >= 0;
	return n;
}

/* Open event @e on instance @inst; 0 with the fd stored, 1 when the event
 * was marked not supported or its thread is gone, or a fatal negative
 * error. */
static int open_one(struct hwp_session *s, size_t inst, size_t e, int leader_fd)
{
	const struct event *ev = &s->evl->events[e];
	size_t g = ev->group;
	struct open_req req = {
		.ev = ev,
		.attr = &s->attrs[e],
		.tid = s->t.tids[inst % s->t.nr_tids],
		.cpu = s->t.cpus[inst / s->t.nr_tids],
		.group_fd = leader_fd,
		.group_size = s->group_start[g + 1] - s->group_start[g],
		.group_opened = opened_before(s, inst, e),
		.scope = s->opts.scope,
		.pid = s->opts.pid,
		.fds_needed = s->evl->nr_events * s->nr_inst,
	};
	struct strbuf reason = STRBUF_INIT;
	int fd, err;

	req.attr->disabled = leader_fd < 0;
	req.attr->enable_on_exec = leader_fd < 0 && s->opts.enable_on_exec;
	switch (event_open(&req, &fd, &err, &reason)) {
	case OPEN_DONE:
		strbuf_release(&reason);
		break;
	case OPEN_USER_ONLY:	/* once an event: its attr excludes the kernel now */
		if (set_reason(s, e, HWP_EVENT_USER_ONLY, &reason))
			return -ENOMEM;
		pr_warn("%s: %s", ev->name, s->reason[e]);
		break;
	case OPEN_NOT_SUPPORTED:
		if (set_reason(s, e, HWP_EVENT_NOT_SUPPORTED, &reason))
			return -ENOMEM;
		close_event(s, e);
		pr_debug("%s: %s", ev->name, s->reason[e]);
		return 1;
	case OPEN_THREAD_GONE:
		strbuf_release(&reason);
		return 1;
	case OPEN_FAILED:
		strbuf_release(&reason);
		return err;
	}
	s->fds[slot(s, inst, e)] = fd;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &s->ids[slot(s, inst, e)]) < 0)
		return fail(-errno, "%s: PERF_EVENT_IOC_ID failed: %s", ev->name,
				strerrordesc_np(errno));
	if (s->status[e] == HWP_EVENT_NOT_OPENED)
		s->status[e] = HWP_EVENT_COUNTING;
	return 0;
}

static int open_all(struct hwp_session *s)
{
	const struct hwp_evlist *evl = s->evl;
	size_t live_threads = 0;

	for (size_t inst = 0; inst < s->nr_inst; inst++) {
		bool thread_gone = false;

		for (size_t g = 0; g < evl->nr_groups && !thread_gone; g++) {
			int leader_fd = -1;

			for (size_t e = s->group_start[g]; e < s->group_start[g + 1];
			     e++) {
				int ret;

				if (s->status[e] == HWP_EVENT_NOT_SUPPORTED)
					continue;
				ret = open_one(s, inst, e, leader_fd);
				if (ret < 0)
					return ret;
				if (ret == 1 && s->status[e] != HWP_EVENT_NOT_SUPPORTED) {
					thread_gone = true;
					break;
				}
				if (ret == 0 && leader_fd < 0)
					leader_fd = s->fds[slot(s, inst, e)];
			}
		}
		if (thread_gone) {
			for (size_t e = 0; e < evl->nr_events; e++) {
				int *fd = &s->fds[slot(s, inst, e)];

				if (*fd >= 0)
					close(*fd);
				*fd = -1;
			}
		} else {
			live_threads++;
		}
	}
	if (!live_threads)
		return fail(-ESRCH,
			    "process %d exited before its counters could be opened",
			    (int)s->opts.pid);
	return 0;
}

static int nothing_counted(struct hwp_session *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_adds(&sb, "none of the events could be counted:");
	for (size_t e = 0; e < s->evl->nr_events; e++)
		strbuf_addf(&sb, "\n  %s: not supported: %s", s->evl->events[e].name,
			    s->reason[e] ? s->reason[e] : "not opened");
	fail(-HWP_ERR_NOTHING_COUNTED, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return -HWP_ERR_NOTHING_COUNTED;
}

static inline int group_leader_fd(const struct hwp_session *s, size_t inst, size_t g);

/* What a raw read of instance 0 does per group, worked out once. */
static int raw_prepare(struct hwp_session *s)
{
	size_t groups = s->evl->nr_groups;

	free(s->raw_fd);
	free(s->raw_words);
	s->raw_fd = malloc(groups * sizeof(*s->raw_fd));
	s->raw_words = calloc(groups, sizeof(*s->raw_words));
	if (!s->raw_fd || !s->raw_words)
		return fail(-ENOMEM, "out of memory");
	for (size_t g = 0; g < groups; g++) {
		size_t members = 0;

		s->raw_fd[g] = group_leader_fd(s, 0, g);
		for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++)
			members += s->fds[e] >= 0;
		s->raw_words[g] = group_read_words(members);
	}
	return 0;
}

static HWP_TLS pid_t cached_tid;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* The forking thread's cache would make the child take the parent's
 * counters for its own. */
static void forget_tid(void)
{
	cached_tid = 0;
}

static void watch_forks(void)
{
	pthread_atfork(NULL, NULL, forget_tid);
}

static pid_t current_tid(void)
{
	if (!cached_tid)
		cached_tid = (pid_t)syscall(SYS_gettid);
	return cached_tid;
}

/* rdpmc reads the counter of the CPU we run on: only for events counting
 * the calling thread itself, not inherited (their children's counts are
 * not on our counter), on the PMU, where the kernel allows it. */
static bool want_user_read(const struct hwp_session *s)
{
	struct strbuf why = STRBUF_INIT;
	bool hardware = false;

	if (s->opts.no_rdpmc || s->opts.scope != HWP_SCOPE_THREAD || s->opts.pid != 0 ||
	    !s->opts.no_inherit)
		return false;
	for (size_t e = 0; e < s->evl->nr_events; e++)
		hardware |= s->evl->events[e].is_hardware;
	if (!hardware)
		return false;
	if (!rdpmc_allowed(&why)) {
		pr_debug("%s", strbuf_str(&why));
		strbuf_release(&why);
		return false;
	}
	return true;
}

static int map_rdpmc(struct hwp_session *s)
{
	bool any = false;

	if (!s->user_read)
		return 0;
	pthread_once(&fork_once, watch_forks);
	s->pages = calloc(s->evl->nr_events, sizeof(*s->pages));
	if (!s->pages)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < s->evl->nr_events; e++)
		if (s->fds[e] >= 0 && s->evl->events[e].is_hardware) {
			s->pages[e] = rdpmc_map(s->fds[e]);
			any |= s->pages[e] != NULL;
		}
	if (!any) {
		free(s->pages);
		s->pages = NULL;
	}
	s->owner_tid = current_tid();
	return 0;
}

static void unmap_rdpmc(struct hwp_session *s)
{
	if (!s->pages)
		return;
	for (size_t e = 0; e < s->evl->nr_events; e++)
		rdpmc_unmap(s->pages[e]);
	free(s->pages);
	s->pages = NULL;
}

HWP_API bool hwp_session_rdpmc(const struct hwp_session *s)
{
	return s && s->open && s->pages;
}

HWP_API int hwp_session_open(struct hwp_session *s)
{
	size_t nr_slots;
	int err;

	clear_error();
	if (!s)
		return fail(-EINVAL, "hwp_session_open: session is NULL");
	hwp_session_close(s);
	err = targets_set(&s->t, s->opts.scope, s->opts.pid, s->cpulist, false);
	if (err)
		return err;
	s->nr_inst = s->t.nr_cpus * s->t.nr_tids;
	nr_slots = s->nr_inst * s->evl->nr_events;
	free(s->fds);
	free(s->ids);
	s->fds = malloc(nr_slots * sizeof(*s->fds));
	s->ids = calloc(nr_slots, sizeof(*s->ids));
	if (!s->fds || !s->ids)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr_slots; i++)
		s->fds[i] = -1;
	for (size_t e = 0; e < s->evl->nr_events; e++) {
		free(s->reason[e]);
		s->reason[e] = NULL;
		s->status[e] = HWP_EVENT_NOT_OPENED;
	}
	s->open = true;
	s->user_read = want_user_read(s);
	prepare_attrs(s);
	err = open_all(s);
	if (!err)
		err = map_rdpmc(s);
	if (!err)
		err = raw_prepare(s);
	if (!err) {
		bool any = false;

		for (size_t e = 0; e < s->evl->nr_events; e++)
			any |= s->status[e] == HWP_EVENT_COUNTING ||
			       s->status[e] == HWP_EVENT_USER_ONLY;
		if (!any)
			err = nothing_counted(s);
	}
	if (err) {
		struct kept_error why;

		error_keep(&why, err);
		hwp_session_close(s);
		err = error_restore(&why);
	}
	return err;
}

HWP_API void hwp_session_close(struct hwp_session *s)
{
	if (!s || !s->open)
		return;
	unmap_rdpmc(s);
	/* Members before leaders: a leader closed first would promote its
	 * members to groups of their own for a moment. */
	for (size_t i = s->nr_inst * s->evl->nr_events; i-- > 0;)
		if (s->fds[i] >= 0) {
			close(s->fds[i]);
			s->fds[i] = -1;
		}
	/* The statuses stay: they say what became of each event at the open. */
	s->open = false;
}

HWP_API void hwp_session_free(struct hwp_session *s)
{
	if (!s)
		return;
	hwp_session_close(s);
	if (s->reason && s->evl)
		for (size_t e = 0; e < s->evl->nr_events; e++)
			free(s->reason[e]);
	free(s->reason);
	free(s->status);
	free(s->group_start);
	free(s->fds);
	free(s->ids);
	free(s->buf);
	free(s->raw_fd);
	free(s->raw_words);
	targets_release(&s->t);
	free(s->attrs);
	free(s->cpulist);
	hwp_evlist_free(s->evl);
	free(s);
}

/* The fd of group @g's leader on instance @inst, or -1. */
static inline int group_leader_fd(const struct hwp_session *s, size_t inst, size_t g)
{
	for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++) {
		int fd = s->fds[slot(s, inst, e)];

		if (fd >= 0)
			return fd;
	}
	return -1;
}

static int group_ioctl(struct hwp_session *s, unsigned long req, const char *what)
{
	if (!s || !s->open)
		return fail(-EBADF, "%s: the session is not open", what);
	for (size_t inst = 0; inst < s->nr_inst; inst++)
		for (size_t g = 0; g < s->evl->nr_groups; g++) {
			int fd = group_leader_fd(s, inst, g);

			if (fd >= 0 && ioctl(fd, req, PERF_IOC_FLAG_GROUP) < 0)
				return fail(-errno, "%s: ioctl failed: %s", what,
						strerrordesc_np(errno));
		}
	return 0;
}

HWP_API int hwp_session_enable(struct hwp_session *s)
{
	return group_ioctl(s, PERF_EVENT_IOC_ENABLE, "hwp_session_enable");
}

HWP_API int hwp_session_disable(struct hwp_session *s)
{
	return group_ioctl(s, PERF_EVENT_IOC_DISABLE, "hwp_session_disable");
}

HWP_API int hwp_session_reset(struct hwp_session *s)
{
	return group_ioctl(s, PERF_EVENT_IOC_RESET, "hwp_session_reset");
}

HWP_API size_t hwp_session_nr_events(const struct hwp_session *s)
{
	return s ? s->evl->nr_events : 0;
}

HWP_API const struct hwp_evlist *hwp_session_evlist(const struct hwp_session *s)
{
	return s ? s->evl : NULL;
}

HWP_API enum hwp_event_status hwp_session_event_status(const struct hwp_session *s,
							size_t idx, const char **reason)
{
	if (reason)
		*reason = NULL;
	if (!s || idx >= s->evl->nr_events)
		return HWP_EVENT_NOT_OPENED;
	if (reason)
		*reason = s->reason[idx];
	return s->status[idx];
}

/* Add one group read to @counts. The kernel lists the leader, then the
 * members in the order they joined: match by position, check by id. */
static void add_group_read(const struct hwp_session *s, size_t inst, size_t g,
			   struct hwp_count *counts)
{
	const struct group_read *b = (const struct group_read *)s->buf;
	size_t e = s->group_start[g], end = s->group_start[g + 1];

	for (uint64_t j = 0; j < b->nr && group_read_words(j + 1) <= s->buf_words; j++) {
		uint64_t value = b->member[j].value, id = b->member[j].id;
		size_t k;

		while (e < end && s->fds[slot(s, inst, e)] < 0)
			e++;
		k = e;
		if (k >= end || s->ids[slot(s, inst, k)] != id)
			for (k = s->group_start[g]; k < end; k++)
				if (s->fds[slot(s, inst, k)] >= 0 &&
				    s->ids[slot(s, inst, k)] == id)
					break;
		if (k >= end)
			continue;
		counts[k].value += value;
		counts[k].time_enabled += b->time_enabled;
		counts[k].time_running += b->time_running;
		e = k + 1;
	}
}

/* Group @g through rdpmc: true when every member was read that way. A
 * member not on a counter, or multiplexed, sends the group to read(). */
static bool read_group_rdpmc(const struct hwp_session *s, size_t g,
			     struct hwp_count *counts)
{
	size_t start = s->group_start[g], end = s->group_start[g + 1];

	if (current_tid() != s->owner_tid)
		return false;
	for (size_t e = start; e < end; e++)
		if (s->fds[e] >= 0 && !s->pages[e])
			return false;
	for (size_t e = start; e < end; e++)
		if (s->fds[e] >= 0 && rdpmc_read(s->pages[e], &counts[e])) {
			for (size_t k = start; k <= e; k++)
				counts[k] = (struct hwp_count){ 0 };
			return false;
		}
	((struct hwp_session *)s)->rdpmc_reads++;
	return true;
}

uint64_t session_rdpmc_reads(const struct hwp_session *s)
{
	return s->rdpmc_reads;
}

/* ---- raw reads, for regions: the groups' buffers back to back ---- */

size_t session_raw_layout(const struct hwp_session *s, struct raw_item *items,
			      size_t *words)
{
	size_t n = 0, off = 0;

	for (size_t g = 0; g < s->evl->nr_groups; g++) {
		size_t j = 0;

		for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++) {
			if (s->fds[e] < 0)
				continue;
			if (items)
				items[n] = (struct raw_item){
					.event = e,
					.value = off + MEMBER_VALUE_WORD(j),
					.enabled = off + WORD(time_enabled),
					.running = off + WORD(time_running),
				};
			n++;
			j++;
		}
		if (j)
			off += group_read_words(j);
	}
	*words = off;
	return n;
}

/* Group @g's members through rdpmc, into its raw buffer: false to read(). */
static bool read_group_raw_rdpmc(const struct hwp_session *s, size_t g, uint64_t *buf)
{
	struct group_read *b = (struct group_read *)buf;
	struct hwp_count c;
	size_t j = 0;

	if (current_tid() != s->owner_tid)
		return false;
	for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++) {
		if (s->fds[e] < 0)
			continue;
		if (!s->pages[e] || rdpmc_read(s->pages[e], &c))
			return false;
		if (!j) {
			b->time_enabled = c.time_enabled;
			b->time_running = c.time_running;
		}
		b->member[j++].value = c.value;
	}
	b->nr = j;
	((struct hwp_session *)s)->rdpmc_reads++;
	return true;
}

int session_read_raw(struct hwp_session *s, uint64_t *buf)
{
	if (!s->open)
		return fail(-EBADF, "reading the counters: the session is closed");
	for (size_t g = 0, off = 0; g < s->evl->nr_groups; g++) {
		int fd = s->raw_fd[g];
		ssize_t n;

		if (fd < 0)
			continue;
		if (!s->pages || !read_group_raw_rdpmc(s, g, buf + off)) {
			do
				n = read(fd, buf + off, s->raw_words[g] * sizeof(*buf));
			while (n < 0 && errno == EINTR);
			if (n < 0)
				return fail(-errno, "reading the counters failed: %s",
						strerrordesc_np(errno));
		}
		off += s->raw_words[g];
	}
	return 0;
}

HWP_API int hwp_session_read(struct hwp_session *s, struct hwp_count *counts, size_t nr)
{
	if (!s || !s->open)
		return fail(-EBADF, "hwp_session_read: the session is not open");
	if (!counts || nr < s->evl->nr_events)
		return fail(-EINVAL, "hwp_session_read: room for %zu counts, %zu events",
			    nr, s->evl->nr_events);
	memset(counts, 0, s->evl->nr_events * sizeof(*counts));
	for (size_t inst = 0; inst < s->nr_inst; inst++)
		for (size_t g = 0; g < s->evl->nr_groups; g++) {
			int fd = group_leader_fd(s, inst, g);
			ssize_t n;

			if (fd < 0 || (s->pages && read_group_rdpmc(s, g, counts)))
				continue;
			do
				n = read(fd, s->buf, s->buf_words * sizeof(*s->buf));
			while (n < 0 && errno == EINTR);
			if (n < 0)
				return fail(-errno, "reading the counters failed: %s",
						strerrordesc_np(errno));
			/* Nothing left to read: the task is gone. */
			if ((size_t)n < 3 * sizeof(uint64_t))
				continue;
			add_group_read(s, inst, g, counts);
		}
	return 0;
}

HWP_API double hwp_count_scaled(const struct hwp_count *c)
{
	if (!c || !c->time_running)
		return NAN;
	if (c->time_running >= c->time_enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->time_enabled / (double)c->time_running);
}

HWP_API double hwp_count_percent_running(const struct hwp_count *c)
{
	if (!c || !c->time_enabled)
		return NAN;
	if (c->time_running >= c->time_enabled)
		return 100.0;
	return 100.0 * (double)c->time_running / (double)c->time_enabled;
}

/* ---- metrics over a session's reading ---- */

struct session_lookup {
	const struct hwp_session *s;
	const struct hwp_count *counts;
	double seconds;
	hwp_value_fn extra;	/* asked first; NULL: none */
	void *extra_ctx;
};

static int session_value(const char *name, double *value, void *arg)
{
	const struct session_lookup *sl = arg;
	const struct hwp_evlist *evl = sl->s->evl;
	size_t e;
	int err;

	if (sl->extra && (err = sl->extra(name, value, sl->extra_ctx)) != -ENOENT)
		return err;
	if (!strcmp(name, "seconds")) {
		*value = sl->seconds;
		return sl->seconds > 0 ? 0 : -HWP_ERR_UNDEFINED;
	}
	for (e = 0; e < evl->nr_events; e++)
		if (!strcmp(name, evl->events[e].name))
			break;
	if (e == evl->nr_events)
		for (e = 0; e < evl->nr_events; e++)
			if (event_name_matches(&evl->events[e], name))
				break;
	if (e == evl->nr_events)
		return -ENOENT;
	if (sl->s->status[e] != HWP_EVENT_COUNTING &&
	    sl->s->status[e] != HWP_EVENT_USER_ONLY)
		return -HWP_ERR_UNDEFINED;
	*value = hwp_count_scaled(&sl->counts[e]);
	return isnan(*value) ? -HWP_ERR_UNDEFINED : 0;
}

HWP_API int hwp_session_metric(const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds,
			       const struct hwp_metric *m, double *value)
{
	clear_error();
	if (!s || !counts || !m || !value)
		return fail(-EINVAL, "hwp_session_metric: NULL argument");
	return session_metric_with(s, counts, seconds, m, NULL, NULL, value);
}

int session_metric_with(const struct hwp_session *s, const struct hwp_count *counts,
			double seconds, const struct hwp_metric *m, hwp_value_fn extra,
			void *extra_ctx, double *value)
{
	struct session_lookup sl = { s, counts, seconds, extra, extra_ctx };

	return hwp_metric_eval(m, session_value, &sl, value);
}
