// SPDX-License-Identifier: MIT
/* The event list that counts a set of metrics (hwprof stat -M NAME): each
 * event a formula reads that the list does not count yet, and a CPU model's
 * group of metrics (TopdownL1) in one group of counters where the kernel
 * can count it so, as their formulas divide counts taken at the same time. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most events a group of a model's metrics holds: each TopdownL1 fits
 * its cores' counters (Ice Lake's 6 events in 8 counters, Zen 4's 6 in 6,
 * Neoverse V1's 7 in 6 and the cycle counter). TopdownL2 reads more (19
 * events on Ice Lake, 9 on Sapphire Rapids, 11 on Zen 4): ungrouped, they
 * multiplex, as perf counts a metric whose events do not fit together. */
#define MODEL_GROUP_MAX 7

/* The event lists add_inputs() has seen: each parsed once, as parsing
 * reads sysfs (a metric of 48 data-fabric events parsed its growing list
 * once an input: 9,000 opens of sysfs files and 50 ms). */
struct seen_lists {
	struct hwp_evlist **evl;
	size_t nr, cap;
};

/* @spec ("": nothing) parsed into @seen; a list that does not parse is
 * left out (its own parse says why, later). 0 or -ENOMEM. */
static int seen_add(struct seen_lists *seen, const char *spec)
{
	struct hwp_evlist *evl;

	if (!spec[0] || hwp_evlist_parse(spec, NULL, &evl))
		return 0;
	if (seen->nr == seen->cap) {
		size_t cap = seen->cap ? 2 * seen->cap : 8;
		void *n = realloc(seen->evl, cap * sizeof(*seen->evl));

		if (!n) {
			hwp_evlist_free(evl);
			return -ENOMEM;
		}
		seen->evl = n;
		seen->cap = cap;
	}
	seen->evl[seen->nr++] = evl;
	return 0;
}

/* Whether @evl (NULL: none) counts the event a formula names @name. */
static bool counts_name(const struct hwp_evlist *evl, const char *name)
{
	return evl && event_find_name(evl->events, evl->nr_events, name) >= 0;
}

static bool seen_counts(const struct seen_lists *seen, const char *name)
{
	for (size_t i = 0; i < seen->nr; i++)
		if (counts_name(seen->evl[i], name))
			return true;
	return false;
}

static void seen_free(struct seen_lists *seen)
{
	for (size_t i = 0; i < seen->nr; i++)
		hwp_evlist_free(seen->evl[i]);
	free(seen->evl);
}

/* Append @item to the comma-separated @l. 0 or -ENOMEM. */
static int list_add(struct strbuf *l, const char *item)
{
	if (l->len)
		strbuf_addch(l, ',');
	strbuf_adds(l, item);
	return strbuf_failed(l) ? -ENOMEM : 0;
}

/* Add to @to each event @m reads that @base (NULL: none), @more and @to do
 * not count yet; a formula's msr@aperf@ as the list writes it, msr/aperf/. */
static int add_inputs(const struct hwp_metric *m, const struct hwp_evlist *base,
		      const struct strbuf *more, struct strbuf *to)
{
	struct seen_lists seen = { 0 };
	const char *in;
	int err = seen_add(&seen, strbuf_str(more));

	if (!err && to != more)
		err = seen_add(&seen, strbuf_str(to));
	for (size_t k = 0; !err && (in = hwpriv_metric_input(m, k)); k++) {
		char *spec;

		if (counts_name(base, in) || seen_counts(&seen, in))
			continue;
		spec = strdup(in);
		if (spec)
			event_operand_slashed(spec);
		err = spec ? list_add(to, spec) : -ENOMEM;
		if (!err)
			err = seen_add(&seen, spec);
		free(spec);
	}
	seen_free(&seen);
	return err;
}

static size_t nr_events(const char *list)
{
	size_t n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* Whether the event list @list names events of two sysfs PMUs (uncore_imc_0/E/,
 * uncore_imc_1/E/), which the kernel does not open in one group. */
static bool several_pmus(const char *list)
{
	const char *first = NULL;
	size_t len = 0;

	for (const char *s = list; s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
		const char *slash = strchr(s, '/'), *comma = strchr(s, ',');

		if (!slash || (comma && slash > comma))
			continue;
		if (first && ((size_t)(slash - s) != len || strncmp(s, first, len)))
			return true;
		first = s;
		len = (size_t)(slash - s);
	}
	return false;
}

/* Whether every event of @list is one of the kernel's slots and topdown-*
 * events, which the kernel opens only in one group led by slots (9 of them
 * for Sapphire Rapids' level 2: more than MODEL_GROUP_MAX, but counted at
 * once, from PERF_METRICS). */
static bool kernel_topdown(const char *list)
{
	struct hwp_evlist *evl = NULL;
	bool all = !hwp_evlist_parse(list, NULL, &evl);

	for (size_t i = 0; all && i < evl->nr_events; i++)
		all = evl->events[i].is_topdown;
	all = all && evl->nr_events;
	hwp_evlist_free(evl);
	return all;
}

/* The events the metrics add to the list; where a group of the kernel's
 * topdown events is among them, the place of its closing brace. */
struct spec_build {
	const struct hwp_evlist *base;	/* NULL: none, or it does not parse */
	struct strbuf list;
	size_t topdown_end;	/* 0: no such group */
};

/* The kernel's topdown-* events of a second level (-M TopdownL1,TopdownL2;
 * @topdown: @events are the kernel's topdown events) whose slots and level
 * 1 an earlier group took: into that group, which
 * the kernel wants led by slots, as perf's one group of nine. 0, 1 when
 * there is no such group, or -ENOMEM. */
static int join_topdown_group(struct spec_build *b, const char *events, bool topdown)
{
	size_t end = b->topdown_end;
	struct strbuf n = STRBUF_INIT;

	if (!end || !topdown)
		return 1;
	strbuf_add(&n, b->list.buf, end);
	strbuf_addf(&n, ",%s%s", events, b->list.buf + end);
	if (strbuf_failed(&n)) {
		strbuf_release(&n);
		return -ENOMEM;
	}
	strbuf_release(&b->list);
	b->list = n;
	b->topdown_end += strlen(events) + 1;
	return 0;
}

/* @grp, the events of a model's metrics, in one group ({...}) when the
 * kernel counts them so: at most MODEL_GROUP_MAX or the kernel's topdown
 * events, of one PMU. */
static int add_group(struct spec_build *b, const char *grp)
{
	bool topdown = kernel_topdown(grp);	/* a parse: sysfs read once */
	int err = join_topdown_group(b, grp, topdown);

	if (err <= 0)
		return err;
	if (!strchr(grp, ',') || (nr_events(grp) > MODEL_GROUP_MAX && !topdown) ||
	    several_pmus(grp))
		return list_add(&b->list, grp);
	if (b->list.len)
		strbuf_addch(&b->list, ',');
	strbuf_addf(&b->list, "{%s}", grp);
	if (topdown)
		b->topdown_end = b->list.len - 1;
	return strbuf_failed(&b->list) ? -ENOMEM : 0;
}

static const char *metric_group(const struct hwp_metric *m)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };

	return hwp_metric_info(m, &mi) ? "" : mi.group;
}

/* The events of the CPU model's metric @ms[@i] and of those after it of
 * the same group of the model (TopdownL1), together; the index of the last
 * taken into *@last. */
static int add_model_inputs(struct spec_build *b, const struct hwp_metric *const *ms,
			    size_t nr, size_t i, size_t *last)
{
	const char *group = metric_group(ms[i]);
	struct strbuf grp = STRBUF_INIT;
	int err = add_inputs(ms[i], b->base, &b->list, &grp);

	for (*last = i; !err && group[0] && *last + 1 < nr; ++*last) {
		if (strcmp(metric_group(ms[*last + 1]), group))
			break;
		err = add_inputs(ms[*last + 1], b->base, &b->list, &grp);
	}
	if (!err && grp.len)
		err = add_group(b, grp.buf);
	strbuf_release(&grp);
	return err;
}

static bool is_model_metric(const struct hwp_metric *m)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };

	return !hwp_metric_info(m, &mi) && mi.model[0];
}

static int build_spec(struct spec_build *b, const struct hwp_metric *const *metrics,
		      size_t nr)
{
	int err = 0;

	for (size_t i = 0; !err && i < nr; i++) {
		if (is_model_metric(metrics[i]))
			err = add_model_inputs(b, metrics, nr, i, &i);
		else
			err = add_inputs(metrics[i], b->base, &b->list, &b->list);
	}
	return err;
}

HWP_API int hwp_metric_event_spec(const char *base,
				  const struct hwp_metric *const *metrics, size_t nr,
				  char **spec)
{
	struct spec_build b = { .list = STRBUF_INIT };
	struct hwp_evlist *evl = NULL;
	int err;

	clear_error();
	if (!spec || (!metrics && nr))
		return fail(-EINVAL, "hwp_metric_event_spec: NULL argument");
	*spec = NULL;
	for (size_t i = 0; i < nr; i++)
		if (!metrics[i])
			return fail(-EINVAL, "hwp_metric_event_spec: metric %zu is NULL",
				    i);
	/* Parsed only to see which inputs it lacks: a base that does not parse
	 * is not looked into, and its own parse says why. */
	if (nr && base && hwp_evlist_parse(base, NULL, &evl))
		evl = NULL;
	b.base = evl;
	err = build_spec(&b, metrics, nr);
	hwp_evlist_free(evl);
	clear_error();
	if (!err && asprintf(spec, "%s%s%s", base ? base : "",
			     base && b.list.len ? "," : "", strbuf_str(&b.list)) < 0) {
		*spec = NULL;
		err = -ENOMEM;
	}
	strbuf_release(&b.list);
	return err ? fail(err, "hwp_metric_event_spec: out of memory") : 0;
}
