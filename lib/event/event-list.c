// SPDX-License-Identifier: MIT
/* Listing every kind of event name, and probing one: the event stage's
 * entry points that use all the others (the parser, the resolver's kinds,
 * the open with its fallbacks), and that none of them calls. */
#include "event/event-open.h"
#include "util/text.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

static int generic_foreach(const char *pattern, hwp_event_fn fn, void *ctx)
{
	for (size_t i = 0; i < generic_nr(); i++) {
		const struct generic_event *g = generic_get(i);
		struct hwp_event_desc d = {
			.name = g->name,
			.desc = g->desc,
			.pmu = g->type == PERF_TYPE_SOFTWARE ? "software" :
			       g->type == PERF_TYPE_HW_CACHE ? "cache" : "hardware",
			.source = HWP_SOURCE_GENERIC,
		};
		char desc[256];
		int ret;

		if (pattern && !pattern_match(pattern, g->name) &&
		    !(g->alias && pattern_match(pattern, g->alias)))
			continue;
		if (g->alias) {
			snprintf(desc, sizeof(desc), "%s (alias: %s)", g->desc, g->alias);
			d.desc = desc;
		}
		ret = fn(&d, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

HWP_API int hwp_events_foreach(const char *pattern, hwp_event_fn fn, void *ctx)
{
	int ret;

	clear_error();
	if (!fn)
		return fail(-EINVAL, "hwp_events_foreach: no callback");
	ret = generic_foreach(pattern, fn, ctx);
	if (ret)
		return ret;
	ret = libpfm_foreach(pattern, fn, ctx);
	if (ret)
		return ret;
	ret = pmu_foreach(pattern, fn, ctx);
	if (ret)
		return ret;
	return tracepoint_foreach(pattern, fn, ctx);
}

HWP_API int hwp_event_probe(const char *name)
{
	struct hwp_evlist *evl = NULL;
	struct perf_event_attr attr;
	struct strbuf reason = STRBUF_INIT;
	struct open_req req = {
		.cpu = -1,
		.group_fd = -1,
		.scope = HWP_SCOPE_THREAD,
		.fds_needed = 1,
	};
	int fd, err;

	clear_error();
	err = hwp_evlist_parse(name, NULL, &evl);
	if (err)
		return err;
	if (evl->nr_events != 1) {
		hwp_evlist_free(evl);
		return fail(-EINVAL, "hwp_event_probe: '%s' is not one event", name);
	}
	/* Opened as a session opens it, with the same fallbacks: an uncore
	 * PMU's event system-wide on its cpumask's first CPU, as it counts. */
	req.ev = &evl->events[0];
	if (req.ev->nr_cpumask) {
		req.cpu = req.ev->cpumask_first;
		req.tid = -1;
		req.scope = HWP_SCOPE_CPUS;
	}
	attr = req.ev->attr;
	attr.disabled = 1;
	req.attr = &attr;
	switch (event_open(&req, &fd, &err, &reason)) {
	case OPEN_DONE:
	case OPEN_USER_ONLY:
		close(fd);
		err = 0;
		break;
	case OPEN_NOT_SUPPORTED:
		if (req.ev->is_hardware && !have_hw_pmu())
			err = -HWP_ERR_NO_PMU;
		fail(err, "%s: not supported: %s", name, strbuf_str(&reason));
		break;
	case OPEN_THREAD_GONE:
	case OPEN_FAILED:
		break;	/* the message is set */
	}
	strbuf_release(&reason);
	hwp_evlist_free(evl);
	return err;
}
