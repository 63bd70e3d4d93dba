// SPDX-License-Identifier: MIT
/* What the formats (export-*.c) ask of a profile besides its entries: the
 * sort keys by name, whether an event counts nanoseconds, bytes and source
 * lines as text. */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdio.h>
#include <string.h>

bool event_in_ns(const struct hwp_profile *p, const char *event)
{
	if (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock"))
		return true;
	for (size_t i = 0; i < p->nr_events; i++)
		if (!strcmp(p->event_names[i], event))
			return p->oc.events && p->oc.events[i];
	return false;
}

/* Whether @s (@len bytes) names a sort key (lib/core/names.c), and which. */
static bool sort_key_named(const char *s, size_t len, size_t *key)
{
	const char *name;

	for (size_t k = 0; (name = hwp_enum_name(HWP_ENUM_SORT, (int)k)); k++)
		if (strlen(name) == len && !strncmp(name, s, len)) {
			*key = k;
			return true;
		}
	return false;
}

HWP_API int hwp_sort_parse(const char *list, enum hwp_sort *keys, size_t max, size_t *nr)
{
	const char *s = list;

	clear_error();
	if (!list || !keys || !nr)
		return fail(-EINVAL, "hwp_sort_parse: NULL argument");
	*nr = 0;
	for (;;) {
		size_t len = strcspn(s, ","), k;

		if (!sort_key_named(s, len, &k))
			return fail(-EINVAL, "'%.*s' is not a sort key: sym, rip, line, dso, cpu, comm or pid (comm and pid combine with sym or dso: comm,sym)",
				    (int)len, s);
		for (size_t i = 0; i < *nr; i++)
			if (keys[i] == (enum hwp_sort)k)
				return fail(-EINVAL, "'%s': '%s' is given twice", list,
					    hwp_enum_name(HWP_ENUM_SORT, (int)k));
		if (*nr == max)
			return fail(-E2BIG, "'%s': more than %zu sort keys", list, max);
		keys[(*nr)++] = (enum hwp_sort)k;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int sort_keys_of(const struct hwp_write_opts *o, struct sort_keys *k)
{
	memset(k, 0, sizeof(*k));
	k->keys = o->nr_sort_keys ? o->sort_keys : &o->sort;
	k->nr = o->nr_sort_keys ? o->nr_sort_keys : 1;
	if (!k->keys)
		return fail(-EINVAL, "hwp_write_opts: nr_sort_keys without sort_keys");
	k->site = k->keys[0];
	for (size_t i = 0; i < k->nr; i++) {
		if ((unsigned int)k->keys[i] > HWP_SORT_PID)
			return fail(-EINVAL, "unknown sort key %d", (int)k->keys[i]);
		k->comm |= k->keys[i] == HWP_SORT_COMM;
		k->pid |= k->keys[i] == HWP_SORT_PID;
		if (k->keys[i] != HWP_SORT_COMM && k->keys[i] != HWP_SORT_PID)
			k->site = k->keys[i];
		else if (k->site == HWP_SORT_COMM || k->site == HWP_SORT_PID)
			k->site = k->keys[i];
		snprintf(k->name + strlen(k->name), sizeof(k->name) - strlen(k->name),
			 "%s%s", i ? "," : "", hwp_enum_name(HWP_ENUM_SORT, k->keys[i]));
	}
	return 0;
}

void format_bytes(const uint8_t *b, size_t n, char *buf, size_t size)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && at + 4 <= size; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%02x", i ? " " : "", b[i]);
}

void format_source(const char *file, unsigned int line, char *buf, size_t size)
{
	const char *base;

	if (!file) {
		buf[0] = '\0';
		return;
	}
	base = strrchr(file, '/');
	snprintf(buf, size, "%s:%u", base ? base + 1 : file, line);
}
