// SPDX-License-Identifier: MIT
/* An event's modifiers, perf's letters after its name (cycles:u,
 * cpu/cycles/k, {...}:k): where they start in a name, what they say, and
 * what they change in its attr. The parser and the matching of names in
 * formulas both ask. */
#include "event/event.h"

#include <string.h>

bool parse_modifiers(const char *s, struct modifiers *m)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		switch (*s) {
		case 'u': m->u = true; break;
		case 'k': m->k = true; break;
		case 'h': m->h = true; break;
		case 'H': m->H = true; break;
		case 'G': m->G = true; break;
		case 'I': m->I = true; break;
		case 'D': m->D = true; break;
		case 'P': m->P = true; break;
		case 'p':
			if (++m->p > 3)
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

void apply_modifiers(struct event *ev, const struct modifiers *m)
{
	struct perf_event_attr *a = &ev->attr;

	/* "{faults:u,cs}:k": the levels of the event and its group add up. */
	ev->plm_bits |= (m->u ? 1 : 0) | (m->k ? 2 : 0) | (m->h ? 4 : 0);
	if (ev->plm_bits) {
		a->exclude_user = !(ev->plm_bits & 1);
		a->exclude_kernel = !(ev->plm_bits & 2);
		a->exclude_hv = !(ev->plm_bits & 4);
		ev->mod_explicit_plm = true;
	}
	if (m->H)
		a->exclude_guest = 1;
	if (m->G)
		a->exclude_host = 1;
	if (m->I)
		a->exclude_idle = 1;
	if (m->D)
		a->pinned = 1;
	if (m->p)
		a->precise_ip = (unsigned)m->p;
	if (m->P)
		a->precise_ip = 3;	/* lowered at the open until the PMU takes it */
}

size_t modifier_split(const char *tok, size_t len)
{
	struct modifiers m = { 0 };
	char buf[16];
	size_t colon = len;

	while (colon > 0 && tok[colon - 1] != ':' && tok[colon - 1] != '/')
		colon--;
	/* perf writes a PMU event's modifiers after its last slash, with or
	 * without a colon: cpu/cycles/u, msr/tsc/:u. */
	if (colon > 0 && tok[colon - 1] == '/' && colon < len &&
	    len - colon < sizeof(buf)) {
		memcpy(buf, tok + colon, len - colon);
		buf[len - colon] = '\0';
		return parse_modifiers(buf, &m) ? colon : len;
	}
	if (colon == 0 || tok[colon - 1] != ':' || len - colon >= sizeof(buf))
		return len;
	memcpy(buf, tok + colon, len - colon);
	buf[len - colon] = '\0';
	return parse_modifiers(buf, &m) ? colon - 1 : len;
}

bool event_name_has_modifiers(const char *name)
{
	size_t len = strlen(name);

	return modifier_split(name, len) < len;
}
