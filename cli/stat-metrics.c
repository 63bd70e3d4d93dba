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

char *formula_event_spec(const char *name)
{
	char *slashed = strdup(name);

	for (char *p = slashed; p && *p; p++)
		if (*p == '@')
			*p = '/';
	return slashed;
}

int stat_event_spec(const struct stat_config *c, const char *dflt, char **spec)
{
	const struct hwp_metric **named = calloc(c->nr_metrics + 1, sizeof(*named));
	const char *base = c->events.buf;
	bool names_only = c->nr_metrics > 0;
	size_t nr = 0;
	int err;

	*spec = NULL;
	if (!named)
		return cli_lib_error("stat", -ENOMEM);
	/* -M NAME's events are added; a formula's must be in the list (its
	 * names may be --score's). */
	for (size_t i = 0; i < c->nr_metrics; i++) {
		if (!metric_arg_is_name(c->metrics[i])) {
			names_only = false;
			continue;
		}
		named[nr] = metric_named(c->metrics[i]);
		if (!named[nr++]) {
			free(named);
			return CLI_EXIT_USAGE;
		}
	}
	/* As perf: -M alone counts the metrics' events, not the default list. */
	if (!base && !names_only)
		base = dflt;
	err = hwp_metric_event_spec(base, named, nr, spec);
	free(named);
	return err ? cli_lib_error("stat", err) : 0;
}
