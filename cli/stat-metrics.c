// SPDX-License-Identifier: MIT
/* hwprof stat -M NAME: a built-in metric by name, as perf's -M names its
 * metrics, with the events it reads added to the list. */
#include "stat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool metric_arg_is_name(const char *arg)
{
	return !strchr(arg, '=');
}

static const struct hwp_metric *find_in(const struct hwp_metric *(*at)(size_t),
				       const char *name, bool nocase)
{
	const struct hwp_metric *m;

	for (size_t i = 0; (m = at(i)); i++)
		if (!(nocase ? strcasecmp : strcmp)(hwp_metric_name(m), name))
			return m;
	return NULL;
}

static int push_name(struct stat_config *c, const char *name)
{
	const char **l = realloc(c->metrics, (c->nr_metrics + 1) * sizeof(*l));

	if (!l) {
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	c->metrics = l;
	c->metrics[c->nr_metrics++] = name;
	return 0;
}

static const char *metric_group(const struct hwp_metric *m)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };

	return hwp_metric_info(m, &mi) ? "" : mi.group;
}

/* A name once, as perf takes -M TopdownL1,Retiring or --topdown -M
 * TopdownL1: a formula given twice is an error (its name may differ). */
static int push_named(struct stat_config *c, const char *name)
{
	for (size_t i = 0; i < c->nr_metrics; i++)
		if (metric_arg_is_name(c->metrics[i]) && !strcasecmp(c->metrics[i], name))
			return 0;
	return push_name(c, name);
}

/* -M TopdownL1: a group of this CPU model's metrics becomes its members. */
static int push_group(struct stat_config *c, const char *name, bool *found)
{
	const struct hwp_metric *m;

	*found = false;
	for (size_t i = 0; (m = hwp_metric_model(i)); i++) {
		if (strcasecmp(metric_group(m), name))
			continue;
		*found = true;
		if (push_named(c, hwp_metric_name(m)))
			return CLI_EXIT_FAILURE;
	}
	return 0;
}

int metric_args_add(struct stat_config *c, char *arg)
{
	bool names = metric_arg_is_name(arg);

	for (char *name = arg, *next; name; name = next) {
		bool group = false;

		/* NAME,NAME: an entry each; a formula is one */
		next = names ? strchr(name, ',') : NULL;
		if (next)
			*next++ = '\0';
		if (!*name)
			continue;
		if (names && !find_in(hwp_metric_builtin, name, true) &&
		    push_group(c, name, &group))
			return CLI_EXIT_FAILURE;
		if (!group && (names ? push_named(c, name) : push_name(c, name)))
			return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* The deepest TopdownL<N> of this CPU model's metrics; 0: none. */
static long topdown_levels(void)
{
	const struct hwp_metric *m;
	long top = 0;

	for (size_t i = 0; (m = hwp_metric_model(i)); i++) {
		const char *g = metric_group(m);

		if (!strncmp(g, "TopdownL", 8) && g[8] > '0' && g[8] <= '9' && !g[9])
			top = top > g[8] - '0' ? top : g[8] - '0';
	}
	return top;
}

int metric_td_level(struct stat_config *c, const char *arg)
{
	/* metric_args_add() keeps the names: each its own string */
	static char names[9][16];
	long level = -1, top;
	char deepest[16] = "none";

	if (!cli_parse_long(arg, 0, 9, &level)) {
		cli_error("stat", "--td-level %s: not a level from 0 (all) to 9", arg);
		return CLI_EXIT_USAGE;
	}
	top = topdown_levels();
	if (top)
		snprintf(deepest, sizeof(deepest), "level %ld", top);
	if (!top || level > top) {
		cli_error("stat",
			  "--td-level %s: this CPU model's topdown metrics go to %s (hwprof list --metrics)",
			  arg, deepest);
		return CLI_EXIT_USAGE;
	}
	for (int k = 1; k <= (level ? level : top) && k <= 9; k++) {
		snprintf(names[k - 1], sizeof(names[k - 1]), "TopdownL%d", k);
		if (metric_args_add(c, names[k - 1]))
			return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* A built-in first, so that their -M does not load libpfm4 (the model's
 * metrics do, to know the model): each exactly, then ignoring case. */
static const struct hwp_metric *find_named(const char *name)
{
	const struct hwp_metric *m = find_in(hwp_metric_builtin, name, false);

	m = m ? m : find_in(hwp_metric_builtin, name, true);
	m = m ? m : find_in(hwp_metric_model, name, false);
	return m ? m : find_in(hwp_metric_model, name, true);
}

/* ", " and the names of @at's metrics, into @buf of @size. */
static void metric_names(const struct hwp_metric *(*at)(size_t), char *buf, size_t size)
{
	const struct hwp_metric *m;
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; (m = at(i)) && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
					hwp_metric_name(m));
}

const struct hwp_metric *metric_named(const char *name)
{
	const struct hwp_metric *m = find_named(name);
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	const char *cpu = "none of those with named metrics";
	char names[1024], model[1024];

	if (m)
		return m;
	metric_names(hwp_metric_builtin, names, sizeof(names));
	metric_names(hwp_metric_model, model, sizeof(model));
	if (hwp_metric_model(0) && !hwp_metric_info(hwp_metric_model(0), &mi))
		cpu = mi.model;
	cli_error("stat", "-M %s: no built-in metric of that name; they are: %s; nor a metric or group of this CPU model's (%s, as libpfm4 detects it%s%s; LIBPFM_FORCE_PMU=NAME chooses another: 'hwprof list --metrics') (or define one: -M 'NAME=EXPR', e.g. -M 'mpm=cache-misses / cpu-migrations')",
		  name, names, cpu, model[0] ? "): " : "", model);
	return NULL;
}

/* Whether @evl counts the event @name, as a formula reads it. */
static bool counts_name(const struct hwp_evlist *evl, const char *name)
{
	struct hwp_metric *m;
	bool ok;

	if (hwp_metric_parse(name, &m))
		return false;
	ok = !hwp_metric_check(m, evl);
	hwp_metric_free(m);
	return ok;
}

/* The event lists add_inputs() has seen: each parsed once, as parsing
 * reads sysfs (a metric of 48 data-fabric events parsed its growing list
 * once an input: 9,000 opens of sysfs files and 50 ms). */
struct seen_lists {
	struct hwp_evlist **evl;
	size_t nr, cap;
};

/* @spec (NULL: nothing) parsed into @seen; a list that does not parse is
 * left out (its own parse says why, later). 0 or -ENOMEM. */
static int seen_add(struct seen_lists *seen, const char *spec)
{
	struct hwp_evlist *evl;

	if (!spec || hwp_evlist_parse(spec, NULL, &evl))
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

char *formula_event_spec(const char *name)
{
	char *slashed = strdup(name);

	for (char *p = slashed; p && *p; p++)
		if (*p == '@')
			*p = '/';
	return slashed;
}

/* Add to @to each event @m reads that @evl (NULL: none), @more and @to do
 * not count yet. */
static int add_inputs(const struct hwp_metric *m, const struct hwp_evlist *evl,
		      const struct cli_list *more, struct cli_list *to)
{
	struct seen_lists seen = { 0 };
	const char *in;
	int err = seen_add(&seen, more->buf);

	if (!err && to != more)
		err = seen_add(&seen, to->buf);
	for (size_t k = 0; !err && (in = hwp_metric_input(m, k)); k++) {
		char *spec;

		if ((evl && counts_name(evl, in)) || seen_counts(&seen, in))
			continue;
		spec = formula_event_spec(in);
		err = spec ? cli_list_add(to, spec) : -ENOMEM;
		if (!err)
			err = seen_add(&seen, spec);
		free(spec);
	}
	seen_free(&seen);
	return err;
}

/* The most events a group of a model's metrics holds: each TopdownL1 fits
 * its cores' counters (Ice Lake's 6 events in 8 counters, Zen 4's 6 in 6,
 * Neoverse V1's 7 in 6 and the cycle counter). TopdownL2 reads more (19
 * events on Ice Lake, 9 on Sapphire Rapids, 11 on Zen 4): ungrouped, they
 * multiplex, as perf counts a metric whose events do not fit together. */
#define MODEL_GROUP_MAX 7

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
 * events, as the library knows them, which the kernel opens only in one
 * group led by slots (9 of them for Sapphire Rapids' level 2: more than
 * MODEL_GROUP_MAX, but counted at once, from PERF_METRICS). */
static bool kernel_topdown(const char *list)
{
	struct hwp_evlist *evl = NULL;
	bool all = !hwp_evlist_parse(list, NULL, &evl);
	size_t n = hwp_evlist_nr_events(evl);

	for (size_t i = 0; all && i < n; i++) {
		struct hwp_event_info info = { .sz = sizeof(info) };

		all = !hwp_evlist_event(evl, i, &info) && info.is_topdown;
	}
	hwp_evlist_free(evl);
	return all && n;
}

/* The events the metrics add to the list; where a group of the kernel's
 * topdown events is among them, the place of its closing brace. */
struct model_events {
	struct cli_list list;
	size_t topdown_end;	/* 0: no such group */
};

/* The kernel's topdown-* events of a second level (-M TopdownL1,TopdownL2,
 * --td-level 2) whose slots and level 1 an earlier group took: into that
 * group, which the kernel wants led by slots, as perf's one group of nine.
 * 0, 1 when there is no such group, or -ENOMEM. */
static int join_topdown_group(struct model_events *more, const char *events)
{
	size_t end = more->topdown_end;
	char *n;
	int len;

	if (!end || !kernel_topdown(events))
		return 1;
	len = asprintf(&n, "%.*s,%s%s", (int)end, more->list.buf, events,
		       more->list.buf + end);
	if (len < 0)
		return -ENOMEM;
	free(more->list.buf);
	more->list.buf = n;
	more->list.len = (size_t)len;
	more->topdown_end += strlen(events) + 1;
	return 0;
}

/* The events of a CPU model's metrics, in one group ({...}) for the -M
 * entries from @i on of one group of the model (TopdownL1) or for the one
 * metric @i, as their formulas divide counts taken at the same time (when
 * they fit in MODEL_GROUP_MAX). The index of the last entry taken into
 * *@last. */
static int add_model_inputs(const struct stat_config *c, size_t i,
			    const struct hwp_evlist *evl, struct model_events *more,
			    size_t *last)
{
	const struct hwp_metric *m = metric_named(c->metrics[i]);
	const char *group = metric_group(m);
	struct cli_list grp = { 0 };
	char *braced = NULL;
	bool topdown;
	int err = add_inputs(m, evl, &more->list, &grp);

	for (*last = i; !err && group[0] && *last + 1 < c->nr_metrics; ++*last) {
		const char *next = c->metrics[*last + 1];
		const struct hwp_metric *n = metric_arg_is_name(next) ?
					     find_named(next) : NULL;

		if (!n || strcmp(metric_group(n), group))
			break;
		err = add_inputs(n, evl, &more->list, &grp);
	}
	if (err || !grp.buf)
		goto out;
	err = join_topdown_group(more, grp.buf);
	if (err <= 0)
		goto out;
	topdown = kernel_topdown(grp.buf);
	if (strchr(grp.buf, ',') &&
	    (nr_events(grp.buf) <= MODEL_GROUP_MAX || topdown) &&
	    !several_pmus(grp.buf)) {
		err = asprintf(&braced, "{%s}", grp.buf) < 0 ? -ENOMEM :
		      cli_list_add(&more->list, braced);
		if (!err && topdown)
			more->topdown_end = more->list.len - 1;
	} else {
		err = cli_list_add(&more->list, grp.buf);
	}
out:
	free(braced);
	free(grp.buf);
	return err;
}

static bool is_model_metric(const struct hwp_metric *m)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };

	return !hwp_metric_info(m, &mi) && mi.model[0];
}

int stat_event_spec(const struct stat_config *c, const char *dflt, char **spec)
{
	struct model_events more = { 0 };
	struct hwp_evlist *evl = NULL;
	const char *base = c->events.buf;
	bool names_only = c->nr_metrics > 0, names = false;
	int ret = 0;

	*spec = NULL;
	for (size_t i = 0; i < c->nr_metrics; i++) {
		names_only &= metric_arg_is_name(c->metrics[i]);
		names |= metric_arg_is_name(c->metrics[i]);
	}
	/* As perf: -M alone counts the metrics' events, not the default list. */
	if (!base && !names_only)
		base = dflt;
	/* Parsed only to see which inputs of -M NAME it lacks: a plain stat's
	 * start does not parse its list twice. */
	if (names && base && hwp_evlist_parse(base, NULL, &evl))
		evl = NULL;	/* its own parse says why, after this */
	for (size_t i = 0; !ret && i < c->nr_metrics; i++) {
		const struct hwp_metric *m;
		int err;

		if (!metric_arg_is_name(c->metrics[i]))
			continue;
		m = metric_named(c->metrics[i]);
		if (!m) {
			ret = CLI_EXIT_USAGE;
			break;
		}
		if (is_model_metric(m))
			err = add_model_inputs(c, i, evl, &more, &i);
		else
			err = add_inputs(m, evl, &more.list, &more.list);
		if (err)
			ret = cli_lib_error("stat", -ENOMEM);
	}
	hwp_evlist_free(evl);
	if (!ret && asprintf(spec, "%s%s%s", base ? base : "",
			     base && more.list.buf ? "," : "",
			     more.list.buf ? more.list.buf : "") < 0) {
		*spec = NULL;
		ret = cli_lib_error("stat", -ENOMEM);
	}
	free(more.list.buf);
	return ret;
}
