// SPDX-License-Identifier: MIT
/* A formula's names against an event list: which are unknown (with the
 * events and scores they may have meant), and which read one of several
 * events of the same name (the note beside the metric's row). */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

struct note_ctx {
	const struct hwp_evlist *evl;
	struct strbuf *sb;
};

/* A name that matches several events, none without modifiers: say which
 * one the metric reads. Each name once, however often the formula has it. */
static int note_one(const char *name, void *arg)
{
	const struct note_ctx *nc = arg;
	const struct hwp_evlist *evl = nc->evl;
	size_t n, k = 0;
	long e = event_find_operand(evl->events, evl->nr_events, name, &n);
	char quoted[300];

	snprintf(quoted, sizeof(quoted), "'%s'", name);
	if (e < 0 || n < 2 || !event_name_has_modifiers(evl->events[e].name) ||
	    strstr(strbuf_str(nc->sb), quoted))
		return 0;
	strbuf_addf(nc->sb, "%s%s is %s, the first of", nc->sb->len ? "; " : "", quoted,
		    evl->events[e].name);
	for (size_t i = 0; i < evl->nr_events; i++)
		if (event_find_operand(&evl->events[i], 1, name, NULL) == 0)
			strbuf_addf(nc->sb, "%s %s", k++ ? "," : "", evl->events[i].name);
	return 0;
}

bool metric_operand_note(const struct hwp_metric *m, const struct hwp_evlist *evl,
			 struct strbuf *sb)
{
	struct note_ctx nc = { evl, sb };
	size_t len = sb->len;

	metric_foreach_input(m, note_one, &nc);
	return sb->len > len;
}

struct check_ctx {
	const struct hwp_metric *m;
	const struct hwp_evlist *evl;
	const char *const *names;	/* known besides the events */
	size_t nr_names;
};

/* @name (uncore_imc@x@) as the PMU's name of instances that the list has
 * each as a row of its own (--no-merge): -HWP_ERR_UNKNOWN_NAME, saying
 * so; 0 if it is not. */
static int unmerged_instance(const struct check_ctx *cc, const char *name)
{
	const struct hwp_evlist *evl = cc->evl;
	struct strbuf sb = STRBUF_INIT;
	char slashed[256];
	const char *first = NULL;

	snprintf(slashed, sizeof(slashed), "%s", name);
	event_operand_slashed(slashed);
	for (size_t e = 0; e < evl->nr_events; e++) {
		if (!event_is_instance(evl->events[e].name, slashed))
			continue;
		strbuf_addf(&sb, "%s%s", first ? ", " : "", evl->events[e].name);
		if (!first)
			first = evl->events[e].name;
	}
	if (first) {
		char *at = strdup(first);

		for (char *c = at; c && *c; c++)
			if (*c == '/')
				*c = '@';
		fail(-HWP_ERR_UNKNOWN_NAME,
		     "metric '%s': '%s' is %s, which this list counts as a row an instance, "
		     "unmerged (%s): name one, as '%s', or count them merged (without --no-merge; hwp_evlist_opts.no_merge)",
		     hwp_metric_name(cc->m), name, slashed, strbuf_str(&sb),
		     at ? at : first);
		free(at);
	}
	strbuf_release(&sb);
	return first ? -HWP_ERR_UNKNOWN_NAME : 0;
}

static int check_one(const char *name, void *arg)
{
	const struct check_ctx *cc = arg;
	const struct hwp_evlist *evl = cc->evl;
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < cc->nr_names; i++)
		if (names_match_loosely(cc->names[i], name))
			return 0;
	if (event_find_name(evl->events, evl->nr_events, name) >= 0)
		return 0;
	if (strchr(name, '@') && unmerged_instance(cc, name))
		return -HWP_ERR_UNKNOWN_NAME;
	for (size_t e = 0; e < evl->nr_events; e++)
		if (edit_distance(name, evl->events[e].name, 3) <= 3)
			strbuf_addf(&sb, "%s%s", n++ ? ", " : "", evl->events[e].name);
	for (size_t i = 0; i < cc->nr_names; i++)
		if (edit_distance(name, cc->names[i], 3) <= 3)
			strbuf_addf(&sb, "%s%s", n++ ? ", " : "", cc->names[i]);
	fail(-HWP_ERR_UNKNOWN_NAME,
	     "metric '%s': '%s' is not an event of the list '%s'%s%s%s%s",
	     hwp_metric_name(cc->m), name, evl->spec, cc->nr_names ? " nor a score" : "",
	     n ? "; did you mean: " : "",
	     strbuf_str(&sb),
	     strchr(name, '-') ? " (write 'a - b', with spaces, to subtract)" : "");
	strbuf_release(&sb);
	return -HWP_ERR_UNKNOWN_NAME;
}

HWP_API int hwp_metric_check(const struct hwp_metric *m, const struct hwp_evlist *evl)
{
	return hwp_metric_check_names(m, evl, NULL, 0);
}

HWP_API int hwp_metric_check_names(const struct hwp_metric *m,
				   const struct hwp_evlist *evl,
				   const char *const *names, size_t nr_names)
{
	struct check_ctx cc = { m, evl, names, nr_names };

	clear_error();
	if (!m || !evl || (!names && nr_names))
		return fail(-EINVAL, "hwp_metric_check: NULL argument");
	return metric_foreach_input(m, check_one, &cc);
}
