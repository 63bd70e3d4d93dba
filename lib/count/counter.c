// SPDX-License-Identifier: MIT
/* Counting sessions: groups opened on threads or CPUs, read with one read()
 * per group, failures sorted per event as perf does. */
#include "count/count.h"
#include "event/event-open.h"
#include "event/ring.h"

#include <errno.h>
#include <fcntl.h>
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
 * value and an id a member, leader first, in the order they joined; and
 * the records the member's ring had no room for, with PERF_FORMAT_LOST
 * (counts per thread of a command). */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t member[];	/* @stride words a member: value, id[, lost] */
};

#define WORD(field) (offsetof(struct group_read, field) / sizeof(uint64_t))
#define MEMBER_WORDS_MAX 3

/* The size in words of a group read of @members of @stride words, and
 * where member @j's value lies in it. */
static inline size_t group_read_words(size_t members, size_t stride)
{
	return WORD(member) + members * stride;
}

#define MEMBER_VALUE_WORD(j, stride) group_read_words(j, stride)

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
	/* Same shape: what the kernel still reports after the last reset (the
	 * counts exited children passed up), taken off each read; NULL: none */
	uint64_t *base;
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
	/* Aggregation units (opts.aggr), built at the open. */
	struct unit *units;
	size_t nr_units, cap_units;
	size_t *unit_of;	/* per instance: its unit */
	char *cgroup;		/* opts.cgroup, copied */
	int cgroup_fd;		/* its directory, open while the session is */
	/* A command per thread: the threads' exit records (inherit_stat) in
	 * one ring; exited[u * nr_events + e] what unit u counted. */
	struct ring *rings;	/* one an instance (a CPU) */
	bool per_exit;
	struct hwp_count *exited;
	uint64_t lost;		/* records the ring had no room for */
	uint64_t read_lost;	/* the same, as the last read of the counters says */
	struct exit_reader *reader;	/* reads the rings while the command runs */
	size_t ring_pages;	/* each ring's data pages */
	bool ring_unread;	/* a test's: no reader, only the reads empty them */
	size_t member_words;	/* a member's words in a group read */
	struct tid_comm *comms;	/* each thread's name, from FORK and COMM */
	pid_t first_tid;	/* the command's first thread */
	size_t nr_comms, cap_comms;
};

struct tid_comm {
	pid_t tid, ptid;	/* ptid: its creator, from its FORK; 0 if unknown */
	char comm[16];		/* "" until a COMM record names it */
	uint32_t reads;		/* its exit's READ records */
};

static inline size_t slot(const struct hwp_session *s, size_t inst, size_t ev)
{
	return inst * s->evl->nr_events + ev;
}

/* A cgroup is named as a path under the cgroup v2 mount, as perf's -G
 * takes it: never above it ('..', which the kernel refused with EBADF),
 * nor the root ('', '/'), which holds every task. */
static int check_cgroup_name(const char *name)
{
	bool below_root = false;

	for (const char *p = name; *p; p += strcspn(p, "/")) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return fail(-EINVAL, "cgroup '%s': a '..' may lead out of the cgroup v2 hierarchy, where the kernel refuses it (EBADF): name a cgroup by its path under the mount (e.g. system.slice/NAME.service), as perf's -G takes it",
				    name);
		below_root |= n && !(n == 1 && *p == '.');
	}
	if (!below_root)
		return fail(-EINVAL, "cgroup '%s' is the root cgroup, which holds every task: count them all with -a alone, or name a cgroup under the mount",
			    name);
	return 0;
}

/* Which aggregations a scope has units for, and the cgroup's needs. */
static int check_aggr(const struct hwp_session_opts *o)
{
	if ((unsigned)o->aggr > HWP_AGGR_THREAD)
		return fail(-EINVAL, "hwp_session_opts: unknown aggregation %d",
			    (int)o->aggr);
	if (o->aggr != HWP_AGGR_GLOBAL && o->aggr != HWP_AGGR_THREAD &&
	    o->scope != HWP_SCOPE_CPUS)
		return fail(-EINVAL, "counts per %s need CPUs to count (HWP_SCOPE_CPUS: -a or -C): a thread's counters follow it from CPU to CPU",
			    hwp_enum_name(HWP_ENUM_AGGR, o->aggr));
	if (o->aggr == HWP_AGGR_THREAD && o->scope == HWP_SCOPE_CPUS)
		return fail(-EINVAL, "counts per thread need threads to count (a command or a process), not CPUs");
	if (o->aggr == HWP_AGGR_THREAD && o->scope == HWP_SCOPE_THREAD && o->no_inherit)
		return fail(-EINVAL, "counts per thread of one thread without inheritance are its counts: drop no_inherit, or HWP_AGGR_THREAD");
	if (o->cgroup && o->scope != HWP_SCOPE_CPUS)
		return fail(-EINVAL, "cgroup '%s': a cgroup is counted on CPUs (HWP_SCOPE_CPUS: -a or -C), as perf's -G is",
			    o->cgroup);
	return o->cgroup ? check_cgroup_name(o->cgroup) : 0;
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
	s->cgroup_fd = -1;
	s->member_words = 2;
	err = OPTS_COPY(&s->opts, opts, hwp_session_opts);
	if (err)
		goto err;
	if (s->opts.scope > HWP_SCOPE_CPUS) {
		err = fail(-EINVAL, "hwp_session_opts: unknown scope %d",
			   (int)s->opts.scope);
		goto err;
	}
	err = check_aggr(&s->opts);
	if (err)
		goto err;
	if (s->opts.cgroup && !(s->cgroup = strdup(s->opts.cgroup))) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	s->opts.cgroup = NULL;
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
	s->buf_words = group_read_words(max_group, MEMBER_WORDS_MAX);
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
		if (s->member_words > 2)
			a->read_format |= PERF_FORMAT_LOST;
		a->inherit = !s->opts.no_inherit && s->opts.scope != HWP_SCOPE_CPUS;
		if (s->user_read && ev->is_hardware)
			rdpmc_request(a);
		/* Each exiting thread's group, once: a record from its leader. */
		a->inherit_stat = s->per_exit && e == s->group_start[ev->group];
		/* Wake the reader every EXIT_RING_WAKE bytes, not at the
		 * half of the ring: it may come late. */
		a->watermark = a->inherit_stat;
		a->wakeup_watermark = a->inherit_stat ? EXIT_RING_WAKE : 0;
		a->comm = a->task = s->per_exit && e == 0;
		/* Each record's time, which tells a record written from one
		 * not yet written (exit-reader.c). */
		a->sample_id_all = a->inherit_stat;
		if (a->inherit_stat)
			a->sample_type |= PERF_SAMPLE_TIME;
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
		.tid = s->cgroup_fd >= 0 ? s->cgroup_fd : s->t.tids[inst % s->t.nr_tids],
		.cpu = s->t.cpus[inst / s->t.nr_tids],
		.group_fd = leader_fd,
		.flags = s->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0,
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
				errno_text(errno));
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
		s->raw_words[g] = group_read_words(members, s->member_words);
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

/* Where the cgroup v2 hierarchy is mounted, from /proc/self/mountinfo
 * (a hybrid layout has it at /sys/fs/cgroup/unified). */
static int cgroup2_mount(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		char mnt[4096], *dash = strstr(line, " - ");
		char fstype[64];

		/* id parent major:minor root mount-point ... - fstype source */
		if (!dash || sscanf(dash, " - %63s", fstype) != 1 ||
		    strcmp(fstype, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		snprintf(buf, size, "%s", mnt);
		err = 0;
	}
	fclose(f);
	return err;
}

COLD_FRAME static int cgroup_open(struct hwp_session *s)
{
	char mnt[4096], path[8192];
	int err;

	if (!s->cgroup)
		return 0;
	err = cgroup2_mount(mnt, sizeof(mnt));
	if (err)
		return fail(err, "cgroup '%s': no cgroup v2 hierarchy is mounted (mount -t cgroup2 none /sys/fs/cgroup); perf's -G counts cgroup v2 paths under it",
			    s->cgroup);
	snprintf(path, sizeof(path), "%s/%s", mnt, s->cgroup);
	s->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->cgroup_fd < 0)
		return fail(-errno, "cgroup '%s': cannot open %s: %s (a path under the cgroup v2 mount %s, as perf's -G takes it)",
			    s->cgroup, path, errno_text(errno), mnt);
	return 0;
}

static struct unit *add_unit(struct hwp_session *s)
{
	if (s->nr_units == s->cap_units) {
		size_t cap = s->cap_units ? 2 * s->cap_units : 8;
		struct unit *u = realloc(s->units, cap * sizeof(*u));
		struct hwp_count *x = NULL;

		if (!u)
			return NULL;
		s->units = u;
		if (s->per_exit) {
			x = realloc(s->exited, cap * s->evl->nr_events * sizeof(*x));
			if (!x)
				return NULL;
			s->exited = x;
		}
		s->cap_units = cap;
	}
	if (s->per_exit)
		memset(&s->exited[s->nr_units * s->evl->nr_events], 0,
		       s->evl->nr_events * sizeof(*s->exited));
	memset(&s->units[s->nr_units], 0, sizeof(s->units[0]));
	s->units[s->nr_units].tid = -1;
	s->units[s->nr_units].package = s->units[s->nr_units].die = -1;
	return &s->units[s->nr_units++];
}

/* Thread @tid's unit, named comm-tid ("comm-running" for tid -1). */
static int rename_unit(struct unit *x, const char *comm, pid_t tid)
{
	char *c = strdup(comm), *name;

	if (!c || (tid > 0 ? asprintf(&name, "%s-%d", comm, (int)tid) :
		   asprintf(&name, "%s-running", comm)) < 0) {
		free(c);
		return fail(-ENOMEM, "out of memory");
	}
	free(x->comm);
	free(x->name);
	x->comm = c;
	x->name = name;
	x->tid = tid;
	x->id = tid;
	return 0;
}

static int thread_unit(struct hwp_session *s, pid_t tid, const char *comm)
{
	struct unit *u = add_unit(s);

	return u ? rename_unit(u, comm, tid) : fail(-ENOMEM, "out of memory");
}

static void read_comm(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)size, f))
		snprintf(buf, size, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The units of opts.aggr, once the instances are open. */
static int units_build(struct hwp_session *s)
{
	struct hwp_topology *topo = NULL;
	size_t *unit_of_cpu = NULL;
	struct unit *u;
	int err = 0;

	s->unit_of = calloc(s->nr_inst, sizeof(*s->unit_of));
	if (!s->unit_of)
		return fail(-ENOMEM, "out of memory");
	switch (s->opts.aggr) {
	case HWP_AGGR_GLOBAL:
		if (!(u = add_unit(s)) || !(u->name = strdup("all")))
			return fail(-ENOMEM, "out of memory");
		return 0;
	case HWP_AGGR_THREAD:
		/* A command: its first thread's unit, on every CPU; the others
		 * come with their exits. */
		for (size_t i = 0; i < s->nr_inst && !err; i++) {
			if (s->per_exit && i) {
				s->unit_of[i] = 0;
				continue;
			}
			pid_t tid = s->t.tids[i % s->t.nr_tids];
			char comm[64];

			s->first_tid = tid;
			read_comm(s->opts.pid ? s->opts.pid : getpid(), tid, comm,
				  sizeof(comm));
			s->unit_of[i] = s->nr_units;
			err = thread_unit(s, tid, comm);
		}
		return err;
	default:
		break;
	}
	unit_of_cpu = calloc(s->t.nr_cpus, sizeof(*unit_of_cpu));
	if (!unit_of_cpu)
		return fail(-ENOMEM, "out of memory");
	err = hwp_topology_load(NULL, &topo);
	if (!err)
		err = units_of_cpus(topo, s->opts.aggr, s->t.cpus, s->t.nr_cpus,
				    &s->units, &s->nr_units, unit_of_cpu);
	s->cap_units = s->nr_units;
	for (size_t i = 0; !err && i < s->nr_inst; i++)
		s->unit_of[i] = unit_of_cpu[i / s->t.nr_tids];
	hwp_topology_free(topo);
	free(unit_of_cpu);
	return err;
}

/* A command per thread: the exit records of its threads, in a ring a CPU
 * that the group leaders of that CPU write to, read while it runs. */
static int exit_rings_map(struct hwp_session *s)
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

		for (size_t g = 0; g < s->evl->nr_groups; g++) {
			int fd = group_leader_fd(s, i, g);

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

static void exit_rings_unmap(struct hwp_session *s)
{
	for (size_t i = 0; s->rings && i < s->nr_inst; i++)
		ring_unmap(&s->rings[i]);
	free(s->rings);
	s->rings = NULL;
}

/* A failed open closes what it opened, and its message stays. */
COLD_FRAME static int close_keeping_error(struct hwp_session *s, int err)
{
	struct kept_error why;

	error_keep(&why, err);
	hwp_session_close(s);
	return error_restore(&why);
}

HWP_API int hwp_session_open(struct hwp_session *s)
{
	size_t nr_slots;
	int err;

	clear_error();
	if (!s)
		return fail(-EINVAL, "hwp_session_open: session is NULL");
	hwp_session_close(s);
	s->per_exit = s->opts.aggr == HWP_AGGR_THREAD &&
		      s->opts.scope == HWP_SCOPE_THREAD;
	s->member_words = s->per_exit && exit_lost_format() ? 3 : 2;
	s->ring_pages = exit_ring_pages(&s->ring_unread);
	/* The kernel maps no ring of an inherited counter on any CPU: the
	 * threads' exits are recorded on one ring a CPU. */
	err = targets_set(&s->t, s->opts.scope, s->opts.pid, s->cpulist, s->per_exit);
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
	err = cgroup_open(s);
	/* Before the open: a thread started later would be counted, as one
	 * of ours, where we count ourselves. */
	if (!err && s->per_exit)
		err = exit_reader_new(!s->ring_unread, &s->reader);
	if (!err)
		err = open_all(s);
	if (!err)
		err = units_build(s);
	if (!err)
		err = exit_rings_map(s);
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
	return err ? close_keeping_error(s, err) : 0;
}

HWP_API void hwp_session_close(struct hwp_session *s)
{
	if (!s || !s->open)
		return;
	unmap_rdpmc(s);
	exit_reader_free(s->reader);
	s->reader = NULL;
	/* Members before leaders: a leader closed first would promote its
	 * members to groups of their own for a moment. */
	for (size_t i = s->nr_inst * s->evl->nr_events; i-- > 0;)
		if (s->fds[i] >= 0) {
			close(s->fds[i]);
			s->fds[i] = -1;
		}
	exit_rings_unmap(s);
	if (s->cgroup_fd >= 0)
		close(s->cgroup_fd);
	s->cgroup_fd = -1;
	units_release(s->units, s->nr_units);
	s->units = NULL;
	s->nr_units = s->cap_units = 0;
	free(s->unit_of);
	s->unit_of = NULL;
	free(s->exited);
	s->exited = NULL;
	free(s->base);
	s->base = NULL;
	free(s->comms);
	s->comms = NULL;
	s->nr_comms = s->cap_comms = 0;
	s->lost = 0;
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
	free(s->cgroup);
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
						errno_text(errno));
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

static int read_instances(struct hwp_session *s, struct hwp_count *counts, bool per_unit,
			  bool take_base);
static int on_exit_record(const struct perf_event_header *h, void *arg);

/*
 * The kernel's reset zeroes a counter's own count, not what its exited
 * children added to it (child_count, which every read includes): that is
 * read now and taken off every later read. Counts the kernel reports past
 * the reset are read as they come, so the reset is exact.
 */
HWP_API int hwp_session_reset(struct hwp_session *s)
{
	size_t n;
	bool inherit = false;
	int err = group_ioctl(s, PERF_EVENT_IOC_RESET, "hwp_session_reset");

	if (err)
		return err;
	/* Counters that do not inherit have no children's counts. */
	for (size_t e = 0; e < s->evl->nr_events && !inherit; e++)
		inherit = s->attrs[e].inherit;
	if (!inherit)
		return 0;
	n = s->nr_inst * s->evl->nr_events;
	if (!s->base && !(s->base = calloc(n ? n : 1, sizeof(*s->base))))
		return fail(-ENOMEM, "hwp_session_reset: out of memory");
	err = read_instances(s, NULL, false, true);
	if (err)
		return fail_prefix(err, "hwp_session_reset");
	/* The threads that exited are counted from 0 again too, those whose
	 * records wait in the rings or the reader's queue with them. */
	if (s->per_exit && (err = exit_reader_take(s->reader, on_exit_record, s)))
		return err;
	if (s->exited)
		memset(s->exited, 0,
		       s->nr_units * s->evl->nr_events * sizeof(*s->exited));
	return 0;
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
static void add_times(const struct hwp_session *s, struct hwp_count *c, uint64_t enabled,
		      uint64_t running)
{
	/* One task on every CPU (a command per thread): each CPU's counter
	 * runs while the task is on that CPU, and its enabled time counts
	 * other CPUs' time too, and that of exited threads that never ran
	 * there. The running times are what the counts cover: they are
	 * not scaled (see hwp_session_read_units()). */
	c->time_enabled += s->per_exit ? running : enabled;
	c->time_running += running;
}

/* Add one group read to @counts, less the base of the last reset; or,
 * with @take_base, make what it read the base. The records lost, into
 * s->read_lost. */
static void add_group_read(struct hwp_session *s, size_t inst, size_t g,
			   struct hwp_count *counts, bool take_base)
{
	const struct group_read *b = (const struct group_read *)s->buf;
	size_t e = s->group_start[g], end = s->group_start[g + 1];
	size_t stride = s->member_words;

	for (uint64_t j = 0; j < b->nr && group_read_words(j + 1, stride) <= s->buf_words;
	     j++) {
		uint64_t value = b->member[j * stride], id = b->member[j * stride + 1];
		size_t k;

		if (stride > 2)
			s->read_lost += b->member[j * stride + 2];

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
		if (take_base) {
			s->base[slot(s, inst, k)] = value;
			e = k + 1;
			continue;
		}
		if (s->base)
			value -= s->base[slot(s, inst, k)] < value ?
				 s->base[slot(s, inst, k)] : value;
		counts[k].value += value;
		add_times(s, &counts[k], b->time_enabled, b->time_running);
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
	for (size_t e = start; e < end; e++) {
		if (s->fds[e] >= 0 && rdpmc_read(s->pages[e], &counts[e])) {
			for (size_t k = start; k <= e; k++)
				counts[k] = (struct hwp_count){ 0 };
			return false;
		}
		if (s->fds[e] >= 0 && s->base)
			counts[e].value -= s->base[e] < counts[e].value ? s->base[e] :
					   counts[e].value;
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
					.value = off +
						 MEMBER_VALUE_WORD(j, s->member_words),
					.enabled = off + WORD(time_enabled),
					.running = off + WORD(time_running),
				};
			n++;
			j++;
		}
		if (j)
			off += group_read_words(j, s->member_words);
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
		b->member[j++ * s->member_words] = c.value;
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
						errno_text(errno));
		}
		off += s->raw_words[g];
	}
	return 0;
}

/* Every instance's groups into @counts; with @per_unit, instance i's into
 * its unit's row (counts + unit_of[i] * nr_events), else all into one.
 * With @take_base, into s->base instead (by read(): the same counts as
 * rdpmc's, children's included). */
static int read_instances(struct hwp_session *s, struct hwp_count *counts, bool per_unit,
			  bool take_base)
{
	for (size_t inst = 0; inst < s->nr_inst; inst++)
		for (size_t g = 0; g < s->evl->nr_groups; g++) {
			struct hwp_count *row = per_unit ?
				counts + s->unit_of[inst] * s->evl->nr_events : counts;
			int fd = group_leader_fd(s, inst, g);
			ssize_t n;

			if (fd < 0 ||
			    (!take_base && s->pages && read_group_rdpmc(s, g, row)))
				continue;
			do
				n = read(fd, s->buf, s->buf_words * sizeof(*s->buf));
			while (n < 0 && errno == EINTR);
			if (n < 0)
				return fail(-errno, "reading the counters failed: %s",
						errno_text(errno));
			/* Nothing left to read: the task is gone. */
			if ((size_t)n < 3 * sizeof(uint64_t))
				continue;
			add_group_read(s, inst, g, row, take_base);
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
	return read_instances(s, counts, false, false);
}

HWP_API size_t hwp_session_nr_units(const struct hwp_session *s)
{
	return s && s->open ? s->nr_units : 0;
}

HWP_API int hwp_session_unit(const struct hwp_session *s, size_t idx,
			     struct hwp_unit_info *info)
{
	struct hwp_unit_info i;

	clear_error();
	if (!s || !info || !s->open || idx >= s->nr_units)
		return fail(-EINVAL, "hwp_session_unit: no unit %zu", idx);
	unit_info(&s->units[idx], s->opts.aggr, &i);
	return info_fill(info, &i, sizeof(i));
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

static bool has_exited(const struct hwp_session *s, pid_t tid)
{
	for (size_t u = 1; u < s->nr_units; u++)
		if (s->units[u].tid == tid)
			return true;
	return false;
}

/* Whose the first unit is: the rest, the total less the exit records.
 * The kernel swaps the counters of two tasks that inherit from one another
 * when it switches between them on a CPU (inherit_stat moves the counts
 * with them, so each task's follow it): the task that holds the counters
 * we opened writes no record at its exit, whichever it is, and its counts
 * are the rest. That is the first thread, until it writes a record; then
 * the one task seen (by its FORK) without one, once only one is left; and
 * while several are, "running" (tid -1). */
static int resolve_rest(struct hwp_session *s)
{
	struct unit *u0 = &s->units[0];
	pid_t owner = s->first_tid;
	const char *comm;
	size_t n = 0;

	if (has_exited(s, owner)) {
		for (size_t i = 0; i < s->nr_comms; i++)
			if (s->comms[i].ptid && !has_exited(s, s->comms[i].tid)) {
				owner = s->comms[i].tid;
				n++;
			}
		if (n != 1)
			owner = -1;
	}
	if (u0->tid == owner)
		return 0;
	comm = owner > 0 ? comm_of(s, owner) : NULL;
	if (!comm)
		comm = comm_of(s, s->first_tid) ?: u0->comm;
	return rename_unit(u0, comm, owner);
}

/* Name each thread's unit from what the records said. */
static int name_units(struct hwp_session *s)
{
	for (size_t u = 0; u < s->nr_units; u++) {
		struct unit *x = &s->units[u];
		const char *comm = comm_of(s, x->tid);

		if (!comm && u)
			comm = s->units[0].comm;
		if (comm && strcmp(comm, x->comm) && rename_unit(x, comm, x->tid))
			return -ENOMEM;
	}
	return 0;
}

struct exit_read {
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t nr, time_enabled, time_running;
	uint64_t member[];	/* value, id[, lost]: s->member_words a member */
};

/* A thread's exit: its group's counts into its unit, by id. */
static int on_exit_read(struct hwp_session *s, const struct exit_read *r)
{
	size_t u, nr_ev = s->evl->nr_events, stride = s->member_words;
	struct tid_comm *tc;
	int err;

	if (r->h.size < sizeof(*r) ||
	    r->nr > (r->h.size - sizeof(*r)) / (stride * sizeof(r->member[0])))
		return 0;
	tc = tid_entry(s, (pid_t)r->tid, true);
	if (!tc)
		return fail(-ENOMEM, "out of memory");
	tc->reads++;
	for (u = 1; u < s->nr_units; u++)
		if (s->units[u].tid == (pid_t)r->tid)
			break;
	if (u == s->nr_units) {
		err = thread_unit(s, (pid_t)r->tid, "?");
		if (err)
			return err;
	}
	/* One record a CPU's counter of the thread: their sum is its count. */
	for (uint64_t j = 0; j < r->nr; j++)
		for (size_t k = 0; k < s->nr_inst * nr_ev; k++)
			if (s->fds[k] >= 0 && s->ids[k] == r->member[j * stride + 1]) {
				struct hwp_count *c = &s->exited[u * nr_ev + k % nr_ev];

				c->value += r->member[j * stride];
				add_times(s, c, r->time_enabled, r->time_running);
				break;
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
 * records: a READ record for each group on each CPU, but the one task left
 * with the counters we opened (resolve_rest()). The kernel's ring of a CPU
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
		for (size_t g = 0; g < s->evl->nr_groups; g++)
			want += group_leader_fd(s, i, g) >= 0;
	for (size_t i = 0; i < s->nr_comms; i++) {
		const struct tid_comm *c = &s->comms[i];

		partial += c->reads && c->reads != want;
		none += !c->reads && c->ptid;
		some += c->reads != 0;
	}
	/* The task that kept our counters has none: the first, or one other. */
	if (first && first->reads && none)
		none--;
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

HWP_API int hwp_session_read_units(struct hwp_session *s, struct hwp_count *counts,
				   size_t nr)
{
	size_t nr_ev;
	int err;

	clear_error();
	if (!s || !s->open)
		return fail(-EBADF, "hwp_session_read_units: the session is not open");
	nr_ev = s->evl->nr_events;
	if (s->per_exit && (err = exit_reader_take(s->reader, on_exit_record, s)))
		return err;
	if (s->per_exit && ((err = resolve_rest(s)) || (err = name_units(s))))
		return err;
	if (!counts || nr < s->nr_units * nr_ev)
		return fail(counts ? -ENOSPC : -EINVAL,
			    "hwp_session_read_units: room for %zu counts, %zu units of %zu events",
			    nr, s->nr_units, nr_ev);
	memset(counts, 0, s->nr_units * nr_ev * sizeof(*counts));
	s->read_lost = 0;
	err = read_instances(s, counts, true, false);
	if (err || !s->per_exit)
		return err;
	/* The first thread's unit: the total less the threads that exited. */
	for (size_t u = 1; u < s->nr_units; u++)
		for (size_t e = 0; e < nr_ev; e++) {
			const struct hwp_count *x = &s->exited[u * nr_ev + e];
			struct hwp_count *c = &counts[e];

			counts[u * nr_ev + e] = *x;
			c->value -= x->value < c->value ? x->value : c->value;
			c->time_enabled -= x->time_enabled < c->time_enabled ?
					   x->time_enabled : c->time_enabled;
			c->time_running -= x->time_running < c->time_running ?
					   x->time_running : c->time_running;
		}
	return exit_lost_error(s->lost > s->read_lost ? s->lost : s->read_lost,
			       s->ring_pages) ?: exits_complete(s);
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
	long found;
	int err;

	if (sl->extra && (err = sl->extra(name, value, sl->extra_ctx)) != -ENOENT)
		return err;
	if (!strcmp(name, "seconds")) {
		*value = sl->seconds;
		return sl->seconds > 0 ? 0 : -HWP_ERR_UNDEFINED;
	}
	found = event_find_operand(evl->events, evl->nr_events, name, NULL);
	if (found < 0)
		return -ENOENT;
	e = (size_t)found;
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
