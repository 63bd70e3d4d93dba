// SPDX-License-Identifier: MIT
/* Event lists: "cycles,{instructions,LLC-load-misses},cpu-migrations:u" into
 * groups of perf_event_attr. */
#include "core/core.h"
#include "event/event.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_MAX 65536
#define NAME_MAX_LEN 1024
#define EVENTS_MAX 4096

struct parser {
	const char *spec;
	size_t pos;
	struct hwp_evlist *evl;
	struct hwp_evlist_opts opts;
	bool in_group;		/* between { and } */
};

static int syntax_error(const struct parser *ps, size_t pos, const char *fmt, ...)
	HWP_PRINTF(3, 4);

static int syntax_error(const struct parser *ps, size_t pos, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(ps->spec);
	va_list ap;

	strbuf_adds(&sb, "event list: ");
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strbuf_addf(&sb, " at position %zu", pos);
	if (len <= 160) {
		strbuf_addf(&sb, "\n  %s\n  %*s^", ps->spec, (int)pos, "");
	}
	fail(-HWP_ERR_SYNTAX, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return -HWP_ERR_SYNTAX;
}

static void event_release(struct event *ev)
{
	free(ev->name);
	free(ev->canonical);
	free(ev->desc);
	free(ev->unit_own);
}

static int unknown_event(const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	if (tracepoint_syntax(name) && !tracefs_mounted())
		return fail(-HWP_ERR_UNKNOWN_EVENT,
				"unknown event '%s'; if it is a tracepoint, tracefs is not mounted: "
				"sudo mount -t tracefs nodev /sys/kernel/tracing",
				name);
	event_suggest(name, &sb);
	if (sb.len)
		fail(-HWP_ERR_UNKNOWN_EVENT, "unknown event '%s'; did you mean: %s?",
		     name, strbuf_str(&sb));
	else
		fail(-HWP_ERR_UNKNOWN_EVENT,
			 "unknown event '%s'; 'hwprof list' shows the events this machine knows",
			 name);
	strbuf_release(&sb);
	return -HWP_ERR_UNKNOWN_EVENT;
}

/* "cycles:x" is a known event with a bad modifier, not an unknown event
 * (nor a libpfm4 attribute error: libpfm4 knows "cycles" too). */
static int bad_modifier_or(const struct parser *ps, size_t pos, const char *base, int err)
{
	const char *colon = strrchr(base, ':');
	char *head;
	bool ours;

	if (!colon || colon == base || colon[-1] == ':' || strlen(colon + 1) > 8)
		return err == -ENOENT ? unknown_event(base) : err;
	head = strndup(base, (size_t)(colon - base));
	if (!head)
		return fail(-ENOMEM, "out of memory");
	ours = event_is_own_name(head);
	free(head);
	if (!ours)
		return err == -ENOENT ? unknown_event(base) : err;
	return syntax_error(ps, pos + (size_t)(colon - base) + 1,
			    "'%s' is not a modifier: use letters of u k h H G I p P D (p at most 3 times)",
			    colon + 1);
}

static int add_event(struct parser *ps, const char *tok, size_t len, size_t pos,
		     size_t group, bool leader)
{
	struct hwp_evlist *evl = ps->evl;
	struct modifiers m = { 0 };
	struct event *ev;
	size_t base_len = modifier_split(tok, len);
	char *base;
	int err;

	if (len > NAME_MAX_LEN)
		return syntax_error(ps, pos, "event name longer than %d characters",
				    NAME_MAX_LEN);
	if (evl->nr_events >= EVENTS_MAX)
		return syntax_error(ps, pos, "more than %d events", EVENTS_MAX);
	/* Doubling: a realloc per event copied the list once per event. */
	if (evl->nr_events >= evl->cap_events) {
		size_t cap = evl->nr_events ? 2 * evl->nr_events : 8;

		ev = realloc(evl->events, cap * sizeof(*ev));
		if (!ev)
			return fail(-ENOMEM, "out of memory");
		evl->events = ev;
		evl->cap_events = cap;
	}
	ev = &evl->events[evl->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->name = strndup(tok, len);
	base = strndup(tok, base_len);
	if (!ev->name || !base) {
		free(base);
		event_release(ev);
		return fail(-ENOMEM, "out of memory");
	}
	if (base_len < len)
		parse_modifiers(ev->name + base_len + (tok[base_len] == ':'), &m);
	err = event_resolve(base, ev);
	/* A PMU's event is that PMU's or none: no second try, and its
	 * message stands. */
	if (pmu_syntax(base))
		goto resolved;
	if (err == -ENOENT && base_len < len) {
		/* libpfm4 has attributes that look like ours (":u", ":k"):
		 * let it try the whole name before giving up. */
		memset(&m, 0, sizeof(m));
		err = event_resolve(ev->name, ev);
	}
	if (err == -ENOENT || err == -HWP_ERR_SYNTAX)
		err = bad_modifier_or(ps, pos, base, err);
resolved:
	if (err)
		goto err;
	free(base);
	apply_modifiers(ev, &m);
	if (!ev->mod_explicit_plm && (ps->opts.all_user || ps->opts.all_kernel)) {
		ev->attr.exclude_user = ps->opts.all_kernel && !ps->opts.all_user;
		ev->attr.exclude_kernel = ps->opts.all_user && !ps->opts.all_kernel;
		ev->attr.exclude_hv = 1;
	}
	ev->group = group;
	ev->is_leader = leader;
	evl->nr_events++;
	return 0;
err:
	free(base);
	event_release(ev);
	return err;
}

/* A group holds events of one PMU (and software events): not all the
 * instances of one. */
static int instances_in_group(const struct parser *ps, size_t pos, const char *tok,
			      size_t len, char **specs, size_t nr)
{
	int first = (int)strcspn(specs[0], "/"), last = (int)strcspn(specs[nr - 1], "/");

	return syntax_error(ps, pos,
			    "'%.*s' in a group: this machine has its PMU as %zu instances, %.*s to %.*s, one a device, which no group holds together: count it outside the group, or name one instance in it (%s)",
			    (int)len, tok, nr, first, specs[0], last, specs[nr - 1],
			    specs[0]);
}

/* The event @tok, or one event an instance of its PMU, each a group of its
 * own from @group on, named as written and merged unless opts.no_merge. */
static int add_events(struct parser *ps, const char *tok, size_t len, size_t pos,
		      size_t group, bool leader)
{
	char **specs;
	size_t nr;
	int err = event_instance_specs(tok, len, &specs, &nr);

	if (!err && !nr)
		return add_event(ps, tok, len, pos, group, leader);
	if (!err && ps->in_group)
		err = instances_in_group(ps, pos, tok, len, specs, nr);
	for (size_t i = 0; !err && i < nr; i++) {
		struct event *ev;
		char *name;

		err = add_event(ps, specs[i], strlen(specs[i]), pos, group + i, true);
		if (err || ps->opts.no_merge)
			continue;
		ev = &ps->evl->events[ps->evl->nr_events - 1];
		name = strndup(tok, len);
		if (!name) {
			err = fail(-ENOMEM, "out of memory");
			continue;
		}
		free(ev->name);
		ev->name = name;
		ev->merged = i > 0;
	}
	for (size_t i = 0; i < nr; i++)
		free(specs[i]);
	free(specs);
	return err;
}

static void skip_spaces(struct parser *ps)
{
	while (ps->spec[ps->pos] == ' ' || ps->spec[ps->pos] == '\t')
		ps->pos++;
}

/* One event name: up to ',', '{', '}' or the end, keeping /.../ whole. */
static int parse_event(struct parser *ps, size_t group, bool leader)
{
	const char *s = ps->spec;
	size_t start, end;
	bool in_slash = false;

	skip_spaces(ps);
	start = ps->pos;
	while (s[ps->pos]) {
		char c = s[ps->pos];

		if (c == '/')
			in_slash = !in_slash;
		else if (!in_slash && (c == ',' || c == '{' || c == '}'))
			break;
		ps->pos++;
	}
	end = ps->pos;
	while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	if (end == start) {
		if (s[ps->pos] == '{')
			return syntax_error(ps, ps->pos, "groups do not nest");
		return syntax_error(ps, ps->pos, s[ps->pos] ? "expected an event name" :
					"expected an event name, but the list ends");
	}
	for (size_t i = start; i < end; i++)
		if (isspace((unsigned char)s[i]) || !isprint((unsigned char)s[i]))
			return syntax_error(ps, i, "unexpected %s in an event name",
					    isspace((unsigned char)s[i]) ?
					    "space" : "character");
	return add_events(ps, s + start, end - start, start, group, leader);
}

static int parse_group(struct parser *ps, size_t group)
{
	size_t open_pos = ps->pos, first = ps->evl->nr_events;
	struct modifiers m = { 0 };
	int err;

	ps->pos++;	/* '{' */
	ps->in_group = true;
	for (;;) {
		err = parse_event(ps, group, ps->evl->nr_events == first);
		if (err)
			return err;
		skip_spaces(ps);
		if (ps->spec[ps->pos] == ',') {
			ps->pos++;
			continue;
		}
		if (ps->spec[ps->pos] == '}')
			break;
		if (!ps->spec[ps->pos])
			return syntax_error(ps, open_pos, "missing '}' for this group");
		return syntax_error(ps, ps->pos, "groups do not nest");
	}
	ps->pos++;	/* '}' */
	ps->in_group = false;
	if (ps->spec[ps->pos] == ':') {
		size_t start = ++ps->pos;
		char buf[16];

		while (ps->spec[ps->pos] && ps->spec[ps->pos] != ',')
			ps->pos++;
		if (ps->pos - start >= sizeof(buf))
			return syntax_error(ps, start, "bad group modifiers");
		memcpy(buf, ps->spec + start, ps->pos - start);
		buf[ps->pos - start] = '\0';
		if (!parse_modifiers(buf, &m))
			return syntax_error(ps, start,
					    "bad group modifiers '%s' (expected letters of ukhHGIpPD)",
					    buf);
		for (size_t i = first; i < ps->evl->nr_events; i++) {
			struct modifiers each = m;

			/* :D pins the leader, which keeps the group on the
			 * PMU, as perf's: the kernel refuses a pinned member. */
			each.D = m.D && i == first;
			apply_modifiers(&ps->evl->events[i], &each);
		}
	}
	return 0;
}

HWP_API int hwp_evlist_parse(const char *spec, const struct hwp_evlist_opts *opts,
			     struct hwp_evlist **out)
{
	struct parser ps = { .spec = spec };
	size_t group = 0;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_evlist_parse: out is NULL");
	*out = NULL;
	if (!spec)
		return fail(-EINVAL, "hwp_evlist_parse: spec is NULL");
	err = OPTS_COPY(&ps.opts, opts, hwp_evlist_opts);
	if (err)
		return err;
	if (strlen(spec) > SPEC_MAX)
		return fail(-HWP_ERR_SYNTAX, "event list: longer than %d characters",
			    SPEC_MAX);
	ps.evl = calloc(1, sizeof(*ps.evl));
	if (!ps.evl || !(ps.evl->spec = strdup(spec))) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	skip_spaces(&ps);
	if (!spec[ps.pos]) {
		err = fail(-HWP_ERR_SYNTAX, "event list: it is empty; name at least one event (hwprof list shows them)");
		goto err;
	}
	for (;; group++) {
		skip_spaces(&ps);
		if (spec[ps.pos] == '{')
			err = parse_group(&ps, group);
		else if (spec[ps.pos] == '}')
			err = syntax_error(&ps, ps.pos, "'}' without '{'");
		else
			err = parse_event(&ps, group, true);
		if (err)
			goto err;
		/* An event of several instances is as many groups. */
		group = ps.evl->events[ps.evl->nr_events - 1].group;
		skip_spaces(&ps);
		if (!spec[ps.pos])
			break;
		if (spec[ps.pos] != ',') {
			err = syntax_error(&ps, ps.pos,
					   spec[ps.pos] == '}' ? "'}' without '{'" :
					   "expected ',' between events");
			goto err;
		}
		ps.pos++;
	}
	ps.evl->nr_groups = group + 1;
	*out = ps.evl;
	return 0;
err:
	hwp_evlist_free(ps.evl);
	return err;
}

HWP_API void hwp_evlist_free(struct hwp_evlist *evl)
{
	if (!evl)
		return;
	for (size_t i = 0; i < evl->nr_events; i++)
		event_release(&evl->events[i]);
	free(evl->events);
	free(evl->spec);
	free(evl);
}

/* @s's copy into @e: false, with @e's strings freed, when out of memory. */
static bool event_copy(struct event *e, const struct event *s)
{
	*e = *s;
	e->name = strdup(s->name);
	e->canonical = strdup(s->canonical);
	e->desc = strdup(s->desc ? s->desc : "");
	e->unit_own = s->unit_own ? strdup(s->unit_own) : NULL;
	if (s->unit_own)
		e->unit = e->unit_own ? e->unit_own : "";
	if (e->name && e->canonical && e->desc && (!s->unit_own || e->unit_own))
		return true;
	event_release(e);
	return false;
}

/* A copy of each event of @lists, in order, with @lists' groups: @nr lists. */
static int evlist_concat(const struct hwp_evlist *const *lists, size_t nr,
			 struct hwp_evlist **out)
{
	struct hwp_evlist *d = calloc(1, sizeof(*d));
	struct strbuf spec = STRBUF_INIT;

	*out = NULL;
	if (!d)
		return fail(-ENOMEM, "out of memory");
	for (size_t l = 0; l < nr; l++) {
		strbuf_addf(&spec, "%s%s", l ? "," : "", lists[l]->spec);
		d->cap_events += lists[l]->nr_events;
	}
	d->spec = strbuf_detach(&spec);
	d->events = calloc(d->cap_events ? d->cap_events : 1, sizeof(*d->events));
	if (!d->spec || !d->events)
		goto err;
	for (size_t l = 0; l < nr; l++) {
		for (size_t i = 0; i < lists[l]->nr_events; i++) {
			struct event *e = &d->events[d->nr_events];

			if (!event_copy(e, &lists[l]->events[i]))
				goto err;
			e->group += d->nr_groups;
			d->nr_events++;
		}
		d->nr_groups += lists[l]->nr_groups;
	}
	*out = d;
	return 0;
err:
	hwp_evlist_free(d);
	return fail(-ENOMEM, "out of memory");
}

int evlist_dup(const struct hwp_evlist *evl, struct hwp_evlist **out)
{
	return evlist_concat(&evl, 1, out);
}

int evlist_join(const struct hwp_evlist *a, const struct hwp_evlist *b,
		struct hwp_evlist **out)
{
	const struct hwp_evlist *lists[] = { a, b };

	return evlist_concat(lists, 2, out);
}

HWP_API size_t hwp_evlist_nr_events(const struct hwp_evlist *evl)
{
	return evl ? evl->nr_events : 0;
}

HWP_API size_t hwp_evlist_nr_groups(const struct hwp_evlist *evl)
{
	return evl ? evl->nr_groups : 0;
}

HWP_API const char *hwp_evlist_spec(const struct hwp_evlist *evl)
{
	return evl ? evl->spec : "";
}

const struct event *evlist_get(const struct hwp_evlist *evl, size_t idx)
{
	return idx < evl->nr_events ? &evl->events[idx] : NULL;
}

HWP_API int hwp_evlist_event(const struct hwp_evlist *evl, size_t idx,
			     struct hwp_event_info *info)
{
	const struct event *ev;
	struct hwp_event_info i = { .sz = sizeof(i) };

	if (!evl || idx >= evl->nr_events)
		return fail(-EINVAL, "hwp_evlist_event: no event %zu", idx);
	ev = &evl->events[idx];
	i.name = ev->name;
	i.canonical = ev->canonical;
	i.desc = ev->desc ? ev->desc : "";
	i.unit = ev->unit;
	i.source = ev->source;
	i.group = ev->group;
	i.is_leader = ev->is_leader;
	i.is_hardware = ev->is_hardware;
	i.attr = ev->attr;
	i.scale = event_scale(ev);
	i.is_topdown = ev->is_topdown;
	i.merged = ev->merged;
	return info_fill(info, &i, sizeof(i));
}
