/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/event.h>: events and event lists: specs parsed, the machine's events.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_EVENT_H
#define HWPROF_API_EVENT_H

#include <hwprof/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Events and event lists
 *
 * An event list is a string such as
 *	"cycles,{instructions,LLC-load-misses},cpu-migrations:u"
 * Commas separate events; braces form a group, scheduled on the PMU
 * together so that ratios within it are consistent; a suffix of modifier
 * letters after the last colon applies to one event or, after the closing
 * brace, to every event of the group:
 *	u user, k kernel, h hypervisor (any of them excludes the others),
 *	H host, G guest, I exclude idle, p precise (repeat for more), P the
 *	highest precision, D pinned.
 * Names resolve in this order:
 *	1. perf's generic names and aliases (cycles, cache-misses,
 *	   LLC-load-misses, task-clock, page-faults/faults, cs, migrations...)
 *	2. libpfm4 names: PMU events (MEM_LOAD_RETIRED:L3_MISS,
 *	   icl::INST_RETIRED:ANY_P) and perf:: names; LIBPFM_FORCE_PMU makes
 *	   libpfm4 encode the events of another PMU
 *	3. raw codes rNNNN (hexadecimal), optionally rNNNN:MODIFIERS
 *	4. tracepoints subsystem:name, read from tracefs
 * and, as perf writes them, the events of every PMU the kernel has
 * (since 0.2): pmu/event/ with an event of
 * /sys/bus/event_source/devices/PMU/events (msr/tsc/, msr/aperf/,
 * cstate_core/c6-residency/, power/energy-pkg/), or pmu/term=value,.../
 * with the PMU's format fields (cpu/event=0x3c,umask=0x01/) and config,
 * config1, config2; modifiers follow the last slash (msr/tsc/u or
 * msr/tsc/:u). A metric formula names such an event as perf's metrics
 * do, with '@' for '/': msr@aperf@.
 */

enum hwp_event_source {
	HWP_SOURCE_GENERIC = 0,	/* perf's generic hardware, cache and software names */
	HWP_SOURCE_PFM,		/* libpfm4 */
	HWP_SOURCE_RAW,		/* rNNNN */
	HWP_SOURCE_TRACEPOINT,	/* subsystem:name */
	HWP_SOURCE_PMU,		/* pmu/event/, pmu/term=value/ (since 0.2) */
};

/* What one event of a list is. Filled by hwp_evlist_event(). */
struct hwp_event_info {
	size_t sz;
	const char *name;	/* as written in the list, modifiers included */
	/* Resolved: "cpu-migrations", "amd64_fam19h::RETIRED_INSTRUCTIONS". */
	const char *canonical;
	const char *desc;	/* one line */
	/* "ns" for the clocks (cpu-clock, task-clock); a PMU event's unit file
	 * when its scale is 1 (since 0.2); else "" */
	const char *unit;
	enum hwp_event_source source;
	size_t group;		/* index of its group; an event alone is a group of one */
	bool is_leader;		/* first event of its group */
	bool is_hardware;	/* needs a hardware PMU */
	struct perf_event_attr attr;	/* as it will be opened (before fallbacks) */
	/* Since 0.2: what one count is worth in @unit, from the PMU's
	 * events/NAME.scale (power/energy-pkg/: 2.3283064365386962890625e-10
	 * Joules); 1 for every other event. A session's counts are kept
	 * unscaled; a result's rows apply it (hwp_series_info). */
	double scale;
	/* Since 0.2: one of the kernel's topdown events of Intel's core PMU
	 * (cpu/slots/, cpu/topdown-*), known by the kernel's encodings: it
	 * opens them only together, in one group that slots leads, however
	 * many (9 on Sapphire Rapids), and reads topdown-* as slots times its
	 * share in the PERF_METRICS MSR. An Atom's topdown-* are not. */
	bool is_topdown;
	/* Since 0.2: an instance after the first of an event of a PMU of
	 * several instances (uncore_imc/X/ as uncore_imc_0 .. _N, without
	 * hwp_evlist_opts.no_merge): add it to the row of the event before
	 * it, as a result does. The row's value is the sum of each
	 * instance's hwp_count_scaled() (one that never ran adds 0), its
	 * percent running that of the summed times; an instance whose
	 * cpumask the session's CPU list misses is left out of it (its
	 * status says not supported, and why). Instances share the name as
	 * written. */
	bool merged;
};

struct hwp_evlist;

struct hwp_evlist_opts {
	size_t sz;
	bool all_user;		/* count user space only, as if every event had :u */
	bool all_kernel;	/* count the kernel only, as if every event had :k */
	/* An event of a PMU that the machine has as numbered instances
	 * (uncore_imc/EVENT/: uncore_imc_0 .. uncore_imc_N, a memory
	 * controller each) is one event an instance, each a group of its
	 * own, opened on its instance's cpumask CPUs; a result shows their
	 * sum as one row named as written, as perf stat merges them. With
	 * no_merge, each is an event of its own, named by its instance
	 * (uncore_imc_0/EVENT/), as perf stat --no-merge shows them.
	 * Since: 0.2 */
	bool no_merge;
	size_t :0;
};

/*
 * hwp_evlist_parse - parse an event list
 * @spec: the list, as above
 * @opts: NULL or options
 * @out: the parsed list; free it with hwp_evlist_free()
 *
 * Errors: -HWP_ERR_SYNTAX for a malformed list (hwp_errmsg() points at the
 * position), or, since 0.2, an event of a PMU's instances (opts' no_merge)
 * within braces, -HWP_ERR_UNKNOWN_EVENT for a name no source knows
 * (hwp_errmsg() suggests up to three close names), -ENOENT for a tracepoint
 * when tracefs is not mounted (the message says how to mount it),
 * -ENOMEM. Parsing opens no counter. Since: 0.1
 */
HWP_API int hwp_evlist_parse(const char *spec, const struct hwp_evlist_opts *opts,
			     struct hwp_evlist **out);

/* hwp_evlist_free - free a list. Since: 0.1 */
HWP_API void hwp_evlist_free(struct hwp_evlist *evl);

/* hwp_evlist_nr_events - how many events the list has. Since: 0.1 */
HWP_API size_t hwp_evlist_nr_events(const struct hwp_evlist *evl);

/* hwp_evlist_nr_groups - how many groups (an ungrouped event counts as one).
 * Since: 0.1 */
HWP_API size_t hwp_evlist_nr_groups(const struct hwp_evlist *evl);

/* hwp_evlist_spec - the list as it was parsed. Since: 0.1 */
HWP_API const char *hwp_evlist_spec(const struct hwp_evlist *evl);

/*
 * hwp_evlist_event - describe event @idx of the list
 * @info: filled up to info->sz bytes; its strings are borrowed from @evl
 *
 * Errors: -EINVAL for an index out of range or info->sz too small.
 * Since: 0.1
 */
HWP_API int hwp_evlist_event(const struct hwp_evlist *evl, size_t idx,
			     struct hwp_event_info *info);

/* One event a source knows, for listing. Frozen at 0.2: it has no sz, and
 * a later version that needs more adds a type, not a field (docs/api.md). */
struct hwp_event_desc {
	const char *name;	/* the name to write in an event list */
	const char *desc;	/* one line, possibly empty */
	/* "generic", "software", a libpfm4 PMU name, "tracepoint" */
	const char *pmu;
	enum hwp_event_source source;
};

/* A walk callback: return 0 to go on, anything else to stop (it is returned). */
typedef int (*hwp_event_fn)(const struct hwp_event_desc *ev, void *ctx);

/*
 * hwp_events_foreach - walk the events that can be named on this machine
 * @pattern: NULL, or a case-insensitive substring or glob (*, ?) to match
 *	     against the name
 * @fn, @ctx: called once per event; the desc's strings live during the call
 *
 * Walks perf's generic names, then the libpfm4 events of the PMUs that
 * libpfm4 detected (or that LIBPFM_FORCE_PMU forces), then tracepoints when
 * tracefs is mounted. Returns 0, what @fn returned to stop, or a negative
 * error. Thread-safe. Since: 0.1
 */
HWP_API int hwp_events_foreach(const char *pattern, hwp_event_fn fn, void *ctx);

/*
 * hwp_event_probe - whether one event opens on this machine right now
 * @name: one event, as in a list
 *
 * Opens the event on the calling thread (an event of a PMU with a cpumask,
 * an uncore one, system-wide on the mask's first CPU, as it counts; since
 * 0.2) and closes it at once. Returns 0
 * when it opens; else a negative error, with hwp_errmsg() saying why (for
 * example that there is no hardware PMU, or the perf_event_paranoid value
 * that forbids it). Thread-safe. Since: 0.1
 */
HWP_API int hwp_event_probe(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_EVENT_H */
