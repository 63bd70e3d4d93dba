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

int metric_args_add(struct stat_config *c, char *arg)
{
	bool names = metric_arg_is_name(arg);

	for (char *name = arg, *next; name; name = next) {
		const char **l = realloc(c->metrics, (c->nr_metrics + 1) * sizeof(*l));

		if (!l) {
			cli_error("stat", "out of memory");
			return CLI_EXIT_FAILURE;
		}
		c->metrics = l;
		/* NAME,NAME: an entry each; a formula is one */
		next = names ? strchr(name, ',') : NULL;
		if (next)
			*next++ = '\0';
		if (*name)
			c->metrics[c->nr_metrics++] = name;
	}
	return 0;
}

const struct hwp_metric *metric_named(const char *name)
{
	const struct hwp_metric *m;
	char names[1024] = "";
	size_t len = 0;

	for (size_t i = 0; (m = hwp_metric_builtin(i)); i++)
		if (!strcmp(hwp_metric_name(m), name))
			return m;
	for (size_t i = 0; (m = hwp_metric_builtin(i)); i++)
		if (!strcasecmp(hwp_metric_name(m), name))
			return m;
	for (size_t i = 0; (m = hwp_metric_builtin(i)) && len < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
					i ? ", " : "", hwp_metric_name(m));
	cli_error("stat", "-M %s: no built-in metric of that name; they are: %s (or define one: -M 'NAME=EXPR', e.g. -M 'mpm=cache-misses / cpu-migrations')",
		  name, names);
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

/* Add to @more each event @m reads that @evl (NULL: none) does not count
 * and @more does not have yet. */
static int add_inputs(const struct hwp_metric *m, const struct hwp_evlist *evl,
		      struct cli_list *more)
{
	const char *in;

	for (size_t k = 0; (in = hwp_metric_input(m, k)); k++) {
		struct hwp_evlist *added = NULL;
		bool have = evl && counts_name(evl, in);

		if (!have && more->buf && !hwp_evlist_parse(more->buf, NULL, &added))
			have = counts_name(added, in);
		hwp_evlist_free(added);
		if (!have && cli_list_add(more, in))
			return -ENOMEM;
	}
	return 0;
}

int stat_event_spec(const struct stat_config *c, const char *dflt, char **spec)
{
	struct cli_list more = { 0 };
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

		if (!metric_arg_is_name(c->metrics[i]))
			continue;
		m = metric_named(c->metrics[i]);
		if (!m)
			ret = CLI_EXIT_USAGE;
		else if (add_inputs(m, evl, &more))
			ret = cli_lib_error("stat", -ENOMEM);
	}
	hwp_evlist_free(evl);
	if (!ret && asprintf(spec, "%s%s%s", base ? base : "",
			     base && more.buf ? "," : "", more.buf ? more.buf : "") < 0) {
		*spec = NULL;
		ret = cli_lib_error("stat", -ENOMEM);
	}
	free(more.buf);
	return ret;
}
