// SPDX-License-Identifier: MIT
/* Event names: perf's generic table, the one resolver that asks each kind
 * of name in turn, suggestions for misspellings, names in formulas. */
#include "event/event.h"
#include "util/text.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HW(n, a, c, d) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, d, "" }
#define SW(n, a, c, d, u) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, d, u }

static const struct generic_event fixed_events[] = {
	HW("cycles", "cpu-cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "Instructions retired"),
	HW("cache-references", NULL, CACHE_REFERENCES, "Last-level cache accesses"),
	HW("cache-misses", NULL, CACHE_MISSES, "Last-level cache misses"),
	HW("branches", "branch-instructions", BRANCH_INSTRUCTIONS,
	   "Branch instructions retired"),
	HW("branch-misses", NULL, BRANCH_MISSES, "Mispredicted branches"),
	HW("bus-cycles", NULL, BUS_CYCLES, "Bus cycles"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "Cycles the front end delivered no instruction"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND,
	   "Cycles the back end executed no instruction"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES,
	   "Reference cycles, unaffected by frequency scaling"),
	SW("cpu-clock", NULL, CPU_CLOCK,
	   "CPU clock, a high-resolution per-CPU timer", "ns"),
	SW("task-clock", NULL, TASK_CLOCK, "Time the task ran on a CPU", "ns"),
	SW("page-faults", "faults", PAGE_FAULTS, "Page faults", ""),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "Context switches", ""),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS,
	   "Moves of the task to another CPU", ""),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "Page faults served without I/O", ""),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "Page faults that needed I/O", ""),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS,
	   "Unaligned accesses the kernel fixed up", ""),
	SW("emulation-faults", NULL, EMULATION_FAULTS,
	   "Instructions the kernel emulated", ""),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES,
	   "Switches between tasks of different cgroups", ""),
	SW("dummy", NULL, DUMMY,
	   "Counts nothing; a placeholder for side-band records", ""),
};

/* perf's names for PERF_TYPE_HW_CACHE: CACHE-OP[-misses]. */
static const char *const cache_names[] = { "L1-dcache", "L1-icache", "LLC", "dTLB",
					   "iTLB", "branch", "node" };
static const char *const cache_op_names[] = { "load", "store", "prefetch" };
/* Their accesses, as perf names them. */
static const char *const cache_op_plurals[] = { "loads", "stores", "prefetches" };

#define NR_CACHE_EVENTS (ARRAY_SIZE(cache_names) * ARRAY_SIZE(cache_op_names) * 2)

static struct generic_event cache_events[NR_CACHE_EVENTS];
static char cache_name_buf[NR_CACHE_EVENTS][40];
static char cache_desc_buf[NR_CACHE_EVENTS][64];
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_events_init(void)
{
	size_t i = 0;

	for (size_t c = 0; c < ARRAY_SIZE(cache_names); c++)
		for (size_t op = 0; op < ARRAY_SIZE(cache_op_names); op++)
			for (size_t miss = 0; miss < 2; miss++, i++) {
				if (miss)
					snprintf(cache_name_buf[i],
						 sizeof(cache_name_buf[i]),
						 "%s-%s-misses", cache_names[c],
						 cache_op_names[op]);
				else
					snprintf(cache_name_buf[i],
						 sizeof(cache_name_buf[i]), "%s-%s",
						 cache_names[c], cache_op_plurals[op]);
				snprintf(cache_desc_buf[i], sizeof(cache_desc_buf[i]),
					 "%s %s %s", cache_names[c], cache_op_names[op],
					 miss ? "misses" : "accesses");
				cache_events[i] = (struct generic_event){
					.name = cache_name_buf[i],
					.type = PERF_TYPE_HW_CACHE,
					.config = c | (op << 8) |
						((miss ? PERF_COUNT_HW_CACHE_RESULT_MISS :
						  PERF_COUNT_HW_CACHE_RESULT_ACCESS)
						 << 16),
					.desc = cache_desc_buf[i],
					.unit = "",
				};
			}
}

size_t generic_nr(void)
{
	return ARRAY_SIZE(fixed_events) + NR_CACHE_EVENTS;
}

const struct generic_event *generic_get(size_t idx)
{
	pthread_once(&cache_once, cache_events_init);
	if (idx < ARRAY_SIZE(fixed_events))
		return &fixed_events[idx];
	idx -= ARRAY_SIZE(fixed_events);
	return idx < NR_CACHE_EVENTS ? &cache_events[idx] : NULL;
}

/* strcasecmp() folds each byte as tolower() does: names whose first
 * letters differ cannot match, and most do. */
static bool same_name(const char *name, int first, const char *known)
{
	return known && first == tolower((unsigned char)*known) &&
	       !strcasecmp(name, known);
}

/* Called for every metric input against every event: the cache names are
 * made only for a name that may be one of them. */
static const struct generic_event *generic_find(const char *name)
{
	int first = tolower((unsigned char)*name);
	bool may_be_cache = false;

	for (size_t i = 0; i < ARRAY_SIZE(fixed_events); i++) {
		const struct generic_event *g = &fixed_events[i];

		if (same_name(name, first, g->name) || same_name(name, first, g->alias))
			return g;
	}
	for (size_t c = 0; c < ARRAY_SIZE(cache_names); c++)
		may_be_cache |= first == tolower((unsigned char)*cache_names[c]);
	if (!may_be_cache)
		return NULL;
	pthread_once(&cache_once, cache_events_init);
	for (size_t i = 0; i < NR_CACHE_EVENTS; i++)
		if (same_name(name, first, cache_events[i].name))
			return &cache_events[i];
	return NULL;
}

static bool is_raw_name(const char *name)
{
	if (name[0] != 'r' || !name[1] || strlen(name) > 17)
		return false;
	for (const char *p = name + 1; *p; p++)
		if (!isxdigit((unsigned char)*p))
			return false;
	return true;
}

bool event_is_own_name(const char *name)
{
	return generic_find(name) || is_raw_name(name);
}

int generic_resolve(const char *name, struct event *ev, struct event_names *n)
{
	const struct generic_event *g = generic_find(name);

	if (!g)
		return -ENOENT;
	ev->source = HWP_SOURCE_GENERIC;
	ev->attr.type = g->type;
	ev->attr.config = g->config;
	ev->unit = g->unit;
	ev->is_hardware = g->type != PERF_TYPE_SOFTWARE;
	n->canonical = g->name;
	n->desc = g->desc;
	return 0;
}

int raw_resolve(const char *name, struct event *ev, struct event_names *n)
{
	if (!is_raw_name(name))
		return -ENOENT;
	ev->source = HWP_SOURCE_RAW;
	ev->attr.type = PERF_TYPE_RAW;
	ev->attr.config = strtoull(name + 1, NULL, 16);
	ev->is_hardware = true;
	n->canonical = name;
	n->desc = "Raw PMU event code";
	return 0;
}

/* Replace *@dst with a copy of @src: 0 or -ENOMEM. */
static int set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

/* The kinds of name, in the order they are asked: a PMU's syntax is its
 * own; perf's generic names come before libpfm4's, which knows some of
 * them too; libpfm4 takes most raw codes as its perf_raw::rNNN, and ours
 * the rest; a tracepoint is what is left. */
static const event_kind_fn kinds[] = {
	pmu_resolve, generic_resolve, libpfm_resolve, raw_resolve, tracepoint_resolve,
};

int event_resolve(const char *name, struct event *ev)
{
	struct event_names n;
	int err = -ENOENT;

	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	ev->unit = "";
	ev->scale = 1.0;
	for (size_t i = 0; i < ARRAY_SIZE(kinds) && err == -ENOENT; i++) {
		n.canonical = n.desc = NULL;
		err = kinds[i](name, ev, &n);
	}
	if (err)
		return err;
	if (set_str(&ev->canonical, n.canonical) || set_str(&ev->desc, n.desc))
		return fail(-ENOMEM, "out of memory");
	return 0;
}

/* ---- suggestions ---- */

struct suggest_ctx {
	const char *name;
	size_t cap;
	struct {
		char name[128];
		size_t dist;
	} best[3];
};

static int suggest_consider(const char *cand, void *arg)
{
	struct suggest_ctx *sc = arg;
	size_t d = edit_distance(sc->name, cand, sc->cap);
	size_t slot;

	if (d > sc->cap || strlen(cand) >= sizeof(sc->best[0].name))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(sc->best); i++)
		if (sc->best[i].name[0] && !strcasecmp(sc->best[i].name, cand))
			return 0;
	for (slot = 0; slot < ARRAY_SIZE(sc->best); slot++)
		if (!sc->best[slot].name[0] || d < sc->best[slot].dist)
			break;
	if (slot == ARRAY_SIZE(sc->best))
		return 0;
	memmove(&sc->best[slot + 1], &sc->best[slot],
		(ARRAY_SIZE(sc->best) - slot - 1) * sizeof(sc->best[0]));
	snprintf(sc->best[slot].name, sizeof(sc->best[slot].name), "%s", cand);
	sc->best[slot].dist = d;
	return 0;
}

static int suggest_tracepoint(const struct hwp_event_desc *ev, void *arg)
{
	return suggest_consider(ev->name, arg);
}

void event_suggest(const char *name, struct strbuf *sb)
{
	struct suggest_ctx sc = { .name = name };
	size_t len = strlen(name), n = 0;

	/* Roughly one typo per four letters, and at least two. */
	sc.cap = len / 4 > 2 ? len / 4 : 2;
	for (size_t i = 0; i < generic_nr(); i++) {
		const struct generic_event *g = generic_get(i);

		suggest_consider(g->name, &sc);
		if (g->alias)
			suggest_consider(g->alias, &sc);
	}
	libpfm_names(suggest_consider, &sc);
	if (tracepoint_syntax(name))
		tracepoint_foreach(NULL, suggest_tracepoint, &sc);
	for (size_t i = 0; i < ARRAY_SIZE(sc.best) && sc.best[i].name[0]; i++, n++)
		strbuf_addf(sb, "%s%s", n ? ", " : "", sc.best[i].name);
}

/* ---- matching names in formulas ---- */

static void normalize(const char *in, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++)
		if (*in != '-' && *in != '_')
			out[n++] = (char)tolower((unsigned char)*in);
	out[n] = '\0';
}

bool names_match_loosely(const char *x, const char *y)
{
	char a[256], b[256];

	normalize(x, a, sizeof(a));
	normalize(y, b, sizeof(b));
	return !strcmp(a, b);
}

/* What of a name is the same against every event: a metric's inputs are
 * matched against each event of the list, ~300 pairs for the built-in
 * metrics on every stat. */
struct name_key {
	const char *name;
	const struct generic_event *g;
	char norm[256];
	bool pmu_form;		/* msr@aperf@, as perf's metrics write msr/aperf/ */
	char slashed[256];
	/* Whether norm is some generic event's alias: if not, no event's
	 * generic entry need be looked up to compare its alias. */
	bool alias_form;
};

/* Whether normalize(@s) is @norm, in one pass that most pairs leave at
 * their first letter. */
static bool normalizes_to(const char *s, const char *norm)
{
	size_t n = 0;

	for (; *s && n + 1 < sizeof(((struct name_key *)0)->norm); s++) {
		if (*s == '-' || *s == '_')
			continue;
		if ((char)tolower((unsigned char)*s) != norm[n])
			return false;
		n++;
	}
	return !norm[n];
}

void event_operand_slashed(char *name)
{
	for (; *name; name++)
		if (*name == '@')
			*name = '/';
}

static void name_key_init(struct name_key *k, const char *name)
{
	k->name = name;
	k->pmu_form = strchr(name, '@') != NULL;
	if (k->pmu_form) {
		snprintf(k->slashed, sizeof(k->slashed), "%s", name);
		event_operand_slashed(k->slashed);
	}
	k->g = generic_find(name);
	normalize(name, k->norm, sizeof(k->norm));
	k->alias_form = false;
	for (size_t i = 0; i < ARRAY_SIZE(fixed_events) && !k->alias_form; i++)
		k->alias_form = fixed_events[i].alias &&
				normalizes_to(fixed_events[i].alias, k->norm);
}

static bool key_matches(const struct event *ev, const struct name_key *k)
{
	const struct generic_event *g;

	if (!strcmp(k->name, ev->name) || !strcasecmp(k->name, ev->canonical))
		return true;
	/* the name as written too: uncore_imc/cas_count_read/, one of
	 * its PMU's instances (event-instances.c) */
	if (ev->source == HWP_SOURCE_PMU && k->pmu_form)
		return !strcasecmp(k->slashed, ev->canonical) ||
		       !strcasecmp(k->slashed, ev->name);
	if (k->g && !strcmp(k->g->name, ev->canonical))
		return true;
	if (normalizes_to(ev->canonical, k->norm) || normalizes_to(ev->name, k->norm))
		return true;
	if (!k->alias_form)
		return false;	/* cache events have no alias */
	g = generic_find(ev->canonical);
	return g && g->alias && normalizes_to(g->alias, k->norm);
}

long event_find_name(const struct event *events, size_t nr, const char *name)
{
	struct name_key k;

	name_key_init(&k, name);
	for (size_t e = 0; e < nr; e++)
		if (key_matches(&events[e], &k))
			return (long)e;
	return -1;
}

long event_find_operand(const struct event *events, size_t nr, const char *name,
			size_t *nr_matches)
{
	struct name_key k;
	long first = -1, plain = -1;
	size_t n = 0;

	for (size_t e = 0; e < nr; e++)
		if (!strcmp(events[e].name, name)) {
			if (nr_matches)
				*nr_matches = 1;
			return (long)e;
		}
	name_key_init(&k, name);
	for (size_t e = 0; e < nr; e++) {
		if (!key_matches(&events[e], &k))
			continue;
		n++;
		if (first < 0)
			first = (long)e;
		if (plain < 0 && !events[e].mod_explicit_plm &&
		    !event_name_has_modifiers(events[e].name))
			plain = (long)e;
	}
	if (nr_matches)
		*nr_matches = n;
	return plain >= 0 ? plain : first;
}

bool event_name_matches(const struct event *ev, const char *name)
{
	return event_find_name(ev, 1, name) == 0;
}

struct event event_of_row(char *name, char *canonical)
{
	struct event ev = { .name = name, .canonical = canonical ? canonical : name };

	if (strchr(ev.canonical, '/') || strchr(name, '/'))
		ev.source = HWP_SOURCE_PMU;
	return ev;
}

void explain_unsupported(struct strbuf *sb, const struct event *ev, int err)
{
	if (ev->is_hardware && !have_hw_pmu()) {
		strbuf_adds(sb, "this machine has no hardware PMU "
				"(a virtual machine without PMU passthrough?)");
		return;
	}
	switch (-err) {
	case ENOENT:
		strbuf_adds(sb,
			    "the kernel or the CPU does not know this event (ENOENT)");
		break;
	case EOPNOTSUPP:
		strbuf_adds(sb, "this PMU or kernel does not support it (EOPNOTSUPP)");
		break;
	case EINVAL:
		strbuf_adds(sb, "the kernel rejected its encoding (EINVAL)");
		break;
	case ENODEV:
		strbuf_adds(sb, "no such PMU on this machine (ENODEV)");
		break;
	case EBUSY:
		strbuf_adds(sb, "the counter is in use, perhaps by the NMI watchdog "
				"(sysctl kernel.nmi_watchdog=0) or another tool (EBUSY)");
		break;
	default:
		strbuf_addf(sb, "perf_event_open failed: %s", errno_text(-err));
	}
}
