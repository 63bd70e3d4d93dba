// SPDX-License-Identifier: MIT
/*
 * Holds: the kernel's switches for an event list's software events and
 * tracepoints, kept on across sessions that open and close the same events
 * one after another (stat -r, interleaved variants, sweeps).
 *
 * The first open of a software event other than cpu-clock and task-clock
 * turns a static key on (perf_swevent_enabled[]: the kernel's text is
 * patched, with an interrupt to every CPU) and the last close turns it off
 * again; the first open of a tracepoint registers its probe, and the last
 * close unregisters it and waits for an RCU grace period. A run that
 * opens its counters and closes them pays both; a hold pays them once. A
 * held event is a disabled instance of the event on the calling thread,
 * not inherited, never enabled: it counts nothing and takes no counter,
 * and a session's counts are what they were without it.
 */
#include "count/count.h"
#include "event/event.h"
#include "event/fds.h"

#include <stdlib.h>

struct hwpriv_hold {
	int cpu;		/* -1: wherever the thread runs */
	pid_t tid;		/* 0: the calling thread */
	struct targets t;	/* the one instance: the two above */
	struct fds fds;		/* [0][event]: open for the events held */
};

/* Whether opening @a turns a switch of the kernel's on: a software event
 * that the software PMU counts (cpu-clock and task-clock have PMUs of
 * their own, which switch nothing), or a tracepoint. */
static bool switches_on(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_TRACEPOINT)
		return true;
	return a->type == PERF_TYPE_SOFTWARE && a->config != PERF_COUNT_SW_CPU_CLOCK &&
	       a->config != PERF_COUNT_SW_TASK_CLOCK;
}

/* Whether an event before @e is held, and the same one (page-faults and
 * page-faults:u switch the same key on). */
static bool held_before(const struct hwpriv_hold *h, const struct hwp_evlist *evl,
			size_t e)
{
	const struct perf_event_attr *a = &evl->events[e].attr;

	for (size_t k = 0; k < e; k++) {
		const struct perf_event_attr *b = &evl->events[k].attr;

		if (b->type == a->type && b->config == a->config &&
		    fds_opens_on(&h->fds, 0, &evl->events[k]))
			return true;
	}
	return false;
}

static void hold_one(struct hwpriv_hold *h, const struct event *ev, size_t e)
{
	struct perf_event_attr attr = ev->attr;
	struct open_req req = {
		.ev = ev,
		.attr = &attr,
		.scope = HWP_SCOPE_THREAD,
		.no_lone_id = true,	/* a hold is never read */
	};
	struct strbuf reason = STRBUF_INIT;
	int err;

	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.inherit = 0;
	attr.enable_on_exec = 0;
	attr.read_format = 0;
	switch (fds_open(&h->fds, 0, e, &req, &err, &reason)) {
	case OPEN_DONE:
	case OPEN_USER_ONLY:
		pr_debug("%s: held open between sessions (disabled)", ev->name);
		break;
	default:
		/* Nothing is lost: the sessions open it as they would have. */
		pr_debug("%s: not held between sessions: %s", ev->name,
			 reason.len ? reason.buf : hwp_errmsg());
		break;
	}
	strbuf_release(&reason);
}

HWP_API int hwpriv_hold_new(const struct hwp_evlist *evl, struct hwpriv_hold **out)
{
	struct hwpriv_hold *h;
	int err;

	clear_error();
	if (out)
		*out = NULL;
	if (!out || !evl)
		return fail(-EINVAL, "hwpriv_hold_new: NULL argument");
	h = calloc(1, sizeof(*h));
	if (!h)
		return fail(-ENOMEM, "out of memory");
	h->cpu = -1;
	h->t = (struct targets){ &h->cpu, 1, &h->tid, 1 };
	err = fds_init(&h->fds, evl, &h->t, false);
	if (err) {
		free(h);
		return err;
	}
	for (size_t e = 0; e < evl->nr_events; e++) {
		if (switches_on(&evl->events[e].attr) && !held_before(h, evl, e) &&
		    fds_opens_on(&h->fds, 0, &evl->events[e]))
			hold_one(h, &evl->events[e], e);
	}
	clear_error();
	*out = h;
	return 0;
}

HWP_API size_t hwpriv_hold_nr_events(const struct hwpriv_hold *h)
{
	return h ? fds_nr_open(&h->fds) : 0;
}

HWP_API void hwpriv_hold_free(struct hwpriv_hold *h)
{
	if (!h)
		return;
	fds_release(&h->fds);
	free(h);
}
