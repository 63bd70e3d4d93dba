/* SPDX-License-Identifier: MIT */
/*
 * Events: a name (perf's generic names, libpfm4's, raw codes, tracepoints,
 * sysfs PMUs) and its modifiers into a perf_event_attr; event lists and
 * groups. event/event-open.h opens them.
 */
#ifndef HWPROF_EVENT_H
#define HWPROF_EVENT_H

#include "core/core.h"

/* event.c */
/* The highest CPU a PMU's cpumask may name, plus one. */
#define EVENT_CPUMASK_MAX 1024

struct event {
	char *name;		/* as written, modifiers included */
	char *canonical;
	char *desc;
	const char *unit;	/* static, or unit_own */
	char *unit_own;		/* a sysfs PMU event's unit file */
	/* A sysfs PMU event's scale file: what a count is worth in unit
	 * (power/energy-pkg/: 2.3283064365386962890625e-10 Joules); else 1. */
	double scale;
	enum hwp_event_source source;
	size_t group;
	bool is_leader;
	bool is_hardware;
	/* One of the kernel's topdown events of Intel's core PMU (slots,
	 * topdown-*: pmu.c), which it opens only in one group that slots
	 * leads, and reads from the PERF_METRICS MSR. */
	bool is_topdown;
	/* u/k/h given: no permission fallback changes it silently. */
	bool mod_explicit_plm;
	/* Which of u, k, h were given, event and group together. */
	unsigned char plm_bits;
	/* A sysfs PMU's cpumask (uncore, power, cstate): the only CPUs that
	 * count it, one a package, die, core (cstate_core) or CCX (amd_l3);
	 * nr_cpumask 0: any CPU. A bit a CPU below EVENT_CPUMASK_MAX. */
	unsigned nr_cpumask;
	int cpumask_first;
	uint64_t cpumask[EVENT_CPUMASK_MAX / 64];
	/* One of the events an event of a PMU of several instances is
	 * counted as (uncore_imc/EVENT/: uncore_imc_0/EVENT/..., event-
	 * instances.c) after the first: its count adds to the first's row,
	 * as perf stat merges them. Each instance is a group of its own. */
	bool merged;
	struct perf_event_attr attr;
};

/* What one count of @ev is worth in its value unit (event_value_unit()):
 * its scale, 1 where none was set. */
static inline double event_scale(const struct event *ev)
{
	return ev->scale > 0 ? ev->scale : 1.0;
}

/* The unit of a count times event_scale(): the PMU's unit file, even where
 * the scale is not 1 (ev->unit, a raw count's, is then ""). */
static inline const char *event_value_unit(const struct event *ev)
{
	return ev->unit_own ? ev->unit_own : ev->unit;
}

struct hwp_evlist {
	char *spec;
	struct event *events;
	size_t nr_events;
	size_t cap_events;	/* allocated */
	size_t nr_groups;
};

int evlist_dup(const struct hwp_evlist *evl, struct hwp_evlist **out);
/* @a's events, then @b's, in a new list whose spec is "@a's,@b's": @b's
 * groups follow @a's. */
int evlist_join(const struct hwp_evlist *a, const struct hwp_evlist *b,
		struct hwp_evlist **out);
const struct event *evlist_get(const struct hwp_evlist *evl, size_t idx);
/* Resolve one name (no modifiers) into @ev's attr, canonical, desc, unit:
 * the one resolver, which asks each kind of name in turn (a sysfs PMU's,
 * perf's generic names, libpfm4's, a raw code, a tracepoint); -ENOENT when
 * none knows it. */
int event_resolve(const char *name, struct event *ev);

/* What a kind of name calls the event it resolved, which the resolver
 * copies into it: static or borrowed strings, or text in @buf. */
struct event_names {
	const char *canonical;
	const char *desc;
	char buf[1280];
};
/* Each kind of name resolves @name into @ev (attr, source, is_hardware,
 * and unit and scale where it has them) and @n: 0, -ENOENT when @name is
 * not of its kind, or the error of a name of its kind, message set. None
 * calls the resolver back. */
typedef int (*event_kind_fn)(const char *name, struct event *ev, struct event_names *n);
/* event-names.c: perf's generic names ("cycles", "L1-dcache-load-misses"),
 * and raw codes ("r1a8"). */
int generic_resolve(const char *name, struct event *ev, struct event_names *n);
int raw_resolve(const char *name, struct event *ev, struct event_names *n);
/* Whether @name is one of perf's generic names or a raw code rNNNN. */
bool event_is_own_name(const char *name);
/* Why an event could not be opened, for people. */
void explain_unsupported(struct strbuf *sb, const struct event *ev, int err);
/* Up to three names close to @name, comma-separated, into @sb. */
void event_suggest(const char *name, struct strbuf *sb);
/* The event a metric formula's @name reads: the one of that name, else,
 * of those it matches, the first without modifiers, else the first; -1 if
 * none. *@nr_matches (may be NULL) gets how many it matches. */
long event_find_operand(const struct event *events, size_t nr, const char *name,
			size_t *nr_matches);
/* Match a name as a metric formula may write it against an event. */
bool event_name_matches(const struct event *ev, const char *name);
/* The event a result's row of @name (@canonical: may be NULL) names, for
 * event_name_matches(): a PMU's event (a '/' in the name, "fake/x/") is
 * matched by pmu@x@ too, as the list's own event is. */
struct event event_of_row(char *name, char *canonical);
/* The first of @nr events that @name matches as above, or -1. */
long event_find_name(const struct event *events, size_t nr, const char *name);
/* A formula's operand as an event list writes it, in place: msr@aperf@
 * (perf's metrics' way of writing a PMU event) becomes msr/aperf/. */
void event_operand_slashed(char *name);
/* Equal, ignoring case, '-' and '_'. */
bool names_match_loosely(const char *a, const char *b);
/* The generic-name table, for listing and suggestions. */
struct generic_event {
	const char *name;
	const char *alias;
	uint32_t type;
	uint64_t config;
	const char *desc;
	const char *unit;
};
size_t generic_nr(void);
const struct generic_event *generic_get(size_t idx);

/* modifiers.c: perf's letters after an event's name */
struct modifiers {
	bool u, k, h, H, G, I, D, P;
	int p;
};
/* The letters of @s (u k h H G I D P, p up to 3 times) into @m: false if
 * @s is empty or holds another. */
bool parse_modifiers(const char *s, struct modifiers *m);
/* Set @ev's attr as @m says; the levels of an event and of its group add
 * up. */
void apply_modifiers(struct event *ev, const struct modifiers *m);
/* The offset of a trailing ":MODIFIERS" (or, after a PMU event's last
 * slash, "MODIFIERS") in @tok of @len bytes, or @len if none. */
size_t modifier_split(const char *tok, size_t len);
/* Whether @name, an event as written, ends in modifiers: cycles:u,
 * cpu/cycles/k (not icl::INST_RETIRED:ANY_P, nor sched:sched_switch). */
bool event_name_has_modifiers(const char *name);

/* event-pfm.c: libpfm4 at the boundary; PFM_ERR_* never leave it. */
int libpfm_init(void);
/* The kind of name of libpfm4's events: its errors translated. */
int libpfm_resolve(const char *name, struct event *ev, struct event_names *n);
int libpfm_foreach(const char *pattern, hwp_event_fn fn, void *ctx);
/* Calls @fn for every libpfm4 event name of the active PMUs. */
int libpfm_names(int (*fn)(const char *name, void *ctx), void *ctx);
bool libpfm_pmu_present(const char *name);

/* pmu.c: the kernel's PMUs of sysfs, as perf names their events; the one
 * reader of their folders, under sysfs_root() (HWPROF_SYSFS_ROOT). */
/* The folder of PMU @pmu (NULL: of all PMUs) into @buf. */
void pmu_path(char *buf, size_t size, const char *pmu);
/* The first line of @pmu's file @rel (NULL @pmu: the PMUs' folder's). */
int pmu_read(const char *pmu, const char *rel, char *buf, size_t size);
/* @pmu's type: 0, -errno, or -EINVAL when the file holds no type. */
int pmu_type(const char *pmu, uint32_t *type);
/* @pmu's format field @name ("config1:1"): the config word it sets (0 for
 * config, 1, 2) and its bits there: 0, -errno, or -EINVAL if malformed. */
int pmu_format(const char *pmu, const char *name, int *word, uint64_t *mask);
/* Calls @fn for each PMU's name, in directory order, until it returns
 * non-zero, which it returns; 0 when there is no PMU folder. */
int pmu_foreach_pmu(int (*fn)(const char *pmu, void *ctx), void *ctx);
/* Whether the machine has a hardware PMU (a PMU of PERF_TYPE_RAW, or a
 * hybrid or Arm core PMU), read once. */
bool have_hw_pmu(void);
/* Whether @name looks like pmu/.../ (no modifiers). */
bool pmu_syntax(const char *name);
/* The kind of name "msr/tsc/" or "cpu/event=0x3c,umask=1/" (-ENOENT for
 * another). Errors, with the message set: -HWP_ERR_UNKNOWN_EVENT (no such
 * PMU, event or term), -HWP_ERR_SYNTAX (a bad value or one out of its
 * field's range), -HWP_ERR_FORMAT (sysfs files not as the kernel writes
 * them), -ENOMEM. */
int pmu_resolve(const char *name, struct event *ev, struct event_names *n);
int pmu_foreach(const char *pattern, hwp_event_fn fn, void *ctx);

/* pmu-known.c: the terms of @pmu's event @name where sysfs does not name
 * it but perf does for this CPU model (amd_df's) into @terms: 0, or
 * -ENOENT. */
int pmu_known_event(const char *pmu, const char *name, char *terms, size_t size);
typedef int (*pmu_known_fn)(const char *name, const char *desc, void *ctx);
/* Calls @fn for each such event of @pmu until it returns non-zero, which
 * it returns. */
int pmu_known_foreach(const char *pmu, pmu_known_fn fn, void *ctx);
/* Their names, a family a range ("cs0..11"), comma-separated into @sb. */
void pmu_known_names(const char *pmu, struct strbuf *sb);

/* uncore PMUs, one instance a device */
/* The numbers N of the PMUs named @base_N, ascending, into *@nrs (freed
 * by the caller) and *@nr (0: none): 0, or -ENOMEM with the message set. */
int pmu_instances(const char *base, long **nrs, size_t *nr);
/* @pmu's cpumask file into @ev's cpumask (none: nr_cpumask 0): 0, or
 * -HWP_ERR_FORMAT or -ENOMEM with the message set. */
int pmu_cpumask(const char *pmu, struct event *ev);
/* @ev's cpumask as a CPU list ("0,18", "0-31") into @buf. */
void event_cpumask_format(const struct event *ev, char *buf, size_t size);
/* Whether @ev counts on @cpu: in its cpumask, or it has none. */
bool event_counts_on(const struct event *ev, int cpu);

/* event-instances.c: a PMU of several instances, one a device */
/* The names of the instances of @tok's PMU, pmu_N/.../ with @tok's terms
 * and modifiers, into *@specs (free each and it) and *@nr, when @tok of
 * @len bytes names a PMU the machine has not by that name but as
 * PMU_0..PMU_N (uncore_imc/cas_count_read/); else none (*@nr 0). 0, or
 * -ENOMEM with the message set. */
int event_instance_specs(const char *tok, size_t len, char ***specs, size_t *nr);
/* Whether @instance (uncore_imc_0/cas_count_read/) is one of the instances
 * that @written (uncore_imc/cas_count_read/) names, modifiers included. */
bool event_is_instance(const char *instance, const char *written);
/* How many events from @e on make its row: 1, or its instances merged. */
size_t evlist_row_events(const struct hwp_evlist *evl, size_t e);
/* How many rows the events of @evl make. */
size_t evlist_nr_rows(const struct hwp_evlist *evl);
/* How many events from @e on the formula's name @name reads: those of its
 * row, unless @name is the instance's own name (uncore_imc_0@EVENT@). */
size_t evlist_operand_events(const struct hwp_evlist *evl, size_t e, const char *name);

/* tracepoint.c */
/* The kind of name "subsystem:name", from tracefs. */
int tracepoint_resolve(const char *name, struct event *ev, struct event_names *n);
int tracepoint_foreach(const char *pattern, hwp_event_fn fn, void *ctx);
bool tracepoint_syntax(const char *name);
bool tracefs_mounted(void);

#endif
