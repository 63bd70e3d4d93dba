// SPDX-License-Identifier: MIT
/* Counting sessions: groups opened on threads or CPUs, read with one read()
 * per group, failures sorted per event as perf does. */
#include "count/session.h"
#include "util/cpulist.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	return o->cgroup ? cgroup_check_name(o->cgroup) : 0;
}

/* Copy and check @opts (NULL: defaults) into @s, its strings duplicated. */
static int copy_opts(struct hwp_session *s, const struct hwp_session_opts *opts)
{
	int err = OPTS_COPY(&s->opts, opts, hwp_session_opts);

	if (err)
		return err;
	if (s->opts.scope > HWP_SCOPE_CPUS)
		return fail(-EINVAL, "hwp_session_opts: unknown scope %d",
			    (int)s->opts.scope);
	err = check_aggr(&s->opts);
	if (err)
		return err;
	if (s->opts.cgroup && !(s->cgroup = strdup(s->opts.cgroup)))
		return fail(-ENOMEM, "out of memory");
	s->opts.cgroup = NULL;
	if (s->opts.cpus && s->opts.scope != HWP_SCOPE_CPUS)
		return fail(-EINVAL, "hwp_session_opts: a CPU list needs HWP_SCOPE_CPUS");
	if (s->opts.cpus) {
		s->cpulist = strdup(s->opts.cpus);
		if (!s->cpulist)
			return fail(-ENOMEM, "out of memory");
		/* A bad list is the caller's mistake: say so now, not at the open. */
		err = targets_set(&s->t, HWP_SCOPE_CPUS, 0, s->cpulist, false);
		targets_release(&s->t);
	}
	s->opts.cpus = NULL;	/* never keep the caller's pointer */
	return err;
}

/* A copy of @evl, its groups, and room for what each event becomes. */
static int take_events(struct hwp_session *s, const struct hwp_evlist *evl)
{
	size_t nr, max_group = 0;
	int err = evlist_dup(evl, &s->evl);

	if (err)
		return err;
	nr = s->evl->nr_events;
	err = fds_group_starts(s->evl, true, &s->group_start);
	if (err)
		return err;
	s->status = calloc(nr, sizeof(*s->status));
	s->reason = calloc(nr, sizeof(*s->reason));
	s->attrs = calloc(nr, sizeof(*s->attrs));
	s->left_out = calloc(nr, sizeof(*s->left_out));
	if (!s->status || !s->reason || !s->attrs || !s->left_out)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++)
		s->status[i] = HWP_EVENT_NOT_OPENED;
	for (size_t g = 0; g < s->evl->nr_groups; g++)
		if (s->group_start[g + 1] - s->group_start[g] > max_group)
			max_group = s->group_start[g + 1] - s->group_start[g];
	s->buf_words = group_read_words(max_group, MEMBER_WORDS_MAX);
	s->buf = calloc(s->buf_words, sizeof(*s->buf));
	return s->buf ? 0 : fail(-ENOMEM, "out of memory");
}

HWP_API int hwp_session_new(const struct hwp_evlist *evl,
			    const struct hwp_session_opts *opts, struct hwp_session **out)
{
	struct hwp_session *s;
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
	err = copy_opts(s, opts);
	if (!err)
		err = take_events(s, evl);
	if (err) {
		hwp_session_free(s);
		return err;
	}
	*out = s;
	return 0;
}

static int set_reason(struct hwp_session *s, size_t ev, enum hwp_event_status st,
		      struct strbuf *sb)
{
	free(s->reason[ev]);
	s->reason[ev] = strbuf_detach(sb);
	s->status[ev] = st;
	return s->reason[ev] ? 0 : fail(-ENOMEM, "out of memory");
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
		/* Each exiting thread's counts: a record from each counter,
		 * members too (a leader's record lacks the members the
		 * kernel took out of its group first). */
		a->inherit_stat = s->per_exit;
		/* Wake the reader every EXIT_RING_WAKE bytes, not at the
		 * half of the ring: it may come late. */
		a->watermark = a->inherit_stat;
		a->wakeup_watermark = a->inherit_stat ? EXIT_RING_WAKE : 0;
		/* Each record's time, which tells a record written from one
		 * not yet written (exit-reader.c), and its writer's id. */
		a->sample_id_all = a->inherit_stat;
		if (a->inherit_stat)
			a->sample_type |= EXIT_SAMPLE_ID_ALL;
	}
}

/* Open event @e on instance @inst; 0 with the fd stored, 1 when the event
 * was marked not supported or its thread is gone, or a fatal negative
 * error. */
static int open_one(struct hwp_session *s, size_t inst, size_t e)
{
	const struct event *ev = &s->evl->events[e];
	bool leader = fds_leader(&s->fds, inst, ev->group) < 0;
	struct open_req req = {
		.ev = ev,
		.attr = &s->attrs[e],
		.tid = s->cgroup_fd,
		.flags = s->cgroup_fd >= 0 ? PERF_FLAG_PID_CGROUP : 0,
		.scope = s->opts.scope,
		.pid = s->opts.pid,
		/* Only the exits' records are matched to a lone event by id. */
		.no_lone_id = !s->per_exit,
	};
	struct strbuf reason = STRBUF_INIT;
	int err;

	req.attr->disabled = leader;
	req.attr->enable_on_exec = leader && s->opts.enable_on_exec;
	/* The threads' FORK, COMM and EXIT records, which name them and
	 * tell a lost exit: from the first event open on the instance (a
	 * CPU's ring), which is not the list's first where that one cannot
	 * be counted or does not count on this CPU. */
	req.attr->comm = req.attr->task =
		s->per_exit && !fds_inst_has_open(&s->fds, inst, e);
	switch (fds_open(&s->fds, inst, e, &req, &err, &reason)) {
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
		fds_close_event(&s->fds, e);
		pr_debug("%s: %s", ev->name, s->reason[e]);
		return 1;
	case OPEN_THREAD_GONE:
		strbuf_release(&reason);
		return 1;
	case OPEN_FAILED:
		strbuf_release(&reason);
		return err;
	}
	if (s->status[e] == HWP_EVENT_NOT_OPENED)
		s->status[e] = HWP_EVENT_COUNTING;
	return 0;
}

/* Of a merged row, the instances that open nowhere while another opens
 * somewhere are left out of it, as perf stat drops the instances whose
 * cpumask misses -C; when none opens, the row says why. */
static void leave_out_instances(struct hwp_session *s)
{
	const struct hwp_evlist *evl = s->evl;

	for (size_t e = 0, n; e < evl->nr_events; e += n) {
		bool any = false;

		n = evlist_row_events(evl, e);
		for (size_t k = e; k < e + n; k++)
			any |= s->status[k] != HWP_EVENT_NOT_SUPPORTED;
		for (size_t k = e; k < e + n && n > 1 && any; k++)
			s->left_out[k] = s->status[k] == HWP_EVENT_NOT_SUPPORTED;
	}
}

/* An event of a PMU with a cpumask that opens on none of the targets
 * (fds_opens_nowhere()) is marked, with why. */
static int check_cpumasks(struct hwp_session *s)
{
	for (size_t e = 0; e < s->evl->nr_events; e++) {
		struct strbuf sb = STRBUF_INIT;

		if (fds_opens_nowhere(&s->fds, &s->evl->events[e], &sb) &&
		    set_reason(s, e, HWP_EVENT_NOT_SUPPORTED, &sb))
			return -ENOMEM;
		strbuf_release(&sb);
	}
	leave_out_instances(s);
	return 0;
}

static int open_all(struct hwp_session *s)
{
	const struct hwp_evlist *evl = s->evl;
	size_t live_threads = 0;

	for (size_t inst = 0; inst < s->nr_inst; inst++) {
		bool thread_gone = false;

		for (size_t e = 0; e < evl->nr_events && !thread_gone; e++) {
			int ret;

			if (s->status[e] == HWP_EVENT_NOT_SUPPORTED ||
			    !fds_opens_on(&s->fds, inst, &evl->events[e]))
				continue;
			ret = open_one(s, inst, e);
			if (ret < 0)
				return ret;
			thread_gone = ret == 1 && s->status[e] != HWP_EVENT_NOT_SUPPORTED;
		}
		if (thread_gone)
			fds_close_inst(&s->fds, inst);
		else
			live_threads++;
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

		s->raw_fd[g] = fds_leader(&s->fds, 0, g);
		for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++)
			members += fds_get(&s->fds, 0, e) >= 0;
		s->raw_words[g] = group_read_words(members, s->member_words);
	}
	return 0;
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
	fds_release(&s->fds);
	err = fds_init(&s->fds, s->evl, &s->t, true);
	if (err)
		return err;
	for (size_t e = 0; e < s->evl->nr_events; e++) {
		free(s->reason[e]);
		s->reason[e] = NULL;
		s->status[e] = HWP_EVENT_NOT_OPENED;
		s->left_out[e] = false;
	}
	s->open = true;
	s->user_read = session_want_user_read(s);
	prepare_attrs(s);
	err = session_cgroup_open(s);
	/* Before the open: a thread started later would be counted, as one
	 * of ours, where we count ourselves. */
	if (!err && s->per_exit)
		err = exit_reader_new(!s->ring_unread, &s->reader);
	if (!err)
		err = check_cpumasks(s);
	if (!err)
		err = open_all(s);
	if (!err)
		err = session_units_build(s);
	if (!err && s->per_exit)
		err = session_first_open(s);
	if (!err)
		err = session_exit_rings_map(s);
	if (!err)
		err = session_map_rdpmc(s);
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
	session_unmap_rdpmc(s);
	exit_reader_free(s->reader);
	s->reader = NULL;
	fds_close(&s->fds);
	session_first_close(s);
	session_exit_rings_unmap(s);
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
	free(s->left_out);
	free(s->group_start);
	fds_release(&s->fds);
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

static int group_ioctl(struct hwp_session *s, unsigned long req, const char *what)
{
	int err;

	if (!s || !s->open)
		return fail(-EBADF, "%s: the session is not open", what);
	err = fds_group_ioctl(&s->fds, FDS_ALL_GROUPS, req) ?: fds_ioctl(&s->first, req);
	return err ? fail(err, "%s: ioctl failed: %s", what, errno_text(-err)) : 0;
}

HWP_API int hwp_session_enable(struct hwp_session *s)
{
	return group_ioctl(s, PERF_EVENT_IOC_ENABLE, "hwp_session_enable");
}

HWP_API int hwp_session_disable(struct hwp_session *s)
{
	return group_ioctl(s, PERF_EVENT_IOC_DISABLE, "hwp_session_disable");
}

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
	err = session_read_instances(s, NULL, false, true);
	if (err)
		return fail_prefix(err, "hwp_session_reset");
	/* The threads that exited are counted from 0 again too, those whose
	 * records wait in the rings or the reader's queue with them. */
	if (s->per_exit && (err = session_take_exits(s)))
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
