/* SPDX-License-Identifier: MIT */
/*
 * hwprof: hardware-counter profiling on Linux, built on perf_event_open.
 *
 * Conventions that hold for every function below unless its comment says
 * otherwise:
 *
 * - A fallible function returns 0 on success or a negative error code: a
 *   negative errno (-ENOENT, -EACCES...) or a negative HWP_ERR_* value
 *   (4000 and up). hwp_strerror() names both kinds. After a failure,
 *   hwp_errmsg() returns a sentence for people that names the input, the
 *   cause and the fix.
 * - Constructors return the object through an out parameter and leave it
 *   NULL on failure. Every _free(NULL) is a no-op.
 * - Returned pointers are borrowed from the object they came from and live
 *   as long as it does, unless the function name says _dup or _take.
 * - Opts and info structs start with `size_t sz`: set it to sizeof the
 *   struct (HWP_OPTS does). NULL opts means defaults; zero fields mean
 *   defaults. The library copies what it needs from opts and never keeps
 *   the caller's pointer.
 * - Names: hwp_<object>_<verb>() on struct hwp_<object>; HWP_ for macros
 *   and enum constants; nothing else the library exports starts with hwp_.
 *   hwp_<object>_info() fills the struct of an object's own totals;
 *   hwp_<object>_<element>(obj, idx, info) fills one element's, for idx
 *   below hwp_<object>_nr_<elements>(). Walks over what is computed or live
 *   (a machine's events, a profile's entries, the regions being measured)
 *   are hwp_<object>_foreach[_<element>](obj, fn, ctx): @fn returns 0 to go
 *   on, anything else to stop, and that is returned. Every writer is
 *   hwp_<object>_write(obj, FILE *, const struct hwp_write_opts *).
 * - One object belongs to one thread at a time. Functions that take no
 *   object are thread-safe.
 * - The library never writes to stdout and never calls exit(). Warnings go
 *   to the log callback (see hwp_log_set()).
 */
#ifndef HWPROF_HWPROF_H
#define HWPROF_HWPROF_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <hwprof/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HWP_API
#define HWP_API __attribute__((visibility("default")))
#endif

/*
 * Declare and initialize an opts struct: HWP_OPTS(hwp_session_opts, o,
 * .scope = HWP_SCOPE_PROCESS); sets .sz and zeroes every other byte,
 * padding included. Every opts struct ends in `size_t :0;`: the bytes after
 * its last field are where a later version adds fields, and the library
 * refuses a caller whose struct sets bytes it does not know (-EOPNOTSUPP),
 * so they must be zero, which a plain initializer does not promise.
 */
#define HWP_OPTS(TYPE, ...) HWP_OPTS_(TYPE, __VA_ARGS__, )
#define HWP_OPTS_(TYPE, NAME, ...)                                      \
	struct TYPE NAME = __extension__({                              \
		memset(&NAME, 0, sizeof(struct TYPE));                  \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ }; \
	})

/* ------------------------------------------------------------------------
 * Errors
 */

/* Library-specific error codes. Functions return them negated. */
enum hwp_error {
	HWP_ERR_BASE = 4000,
	/* An event name that no source (perf, libpfm4, raw, tracepoint) knows. */
	HWP_ERR_UNKNOWN_EVENT = HWP_ERR_BASE,
	/* Malformed input: an event list, a formula, a CPU list. */
	HWP_ERR_SYNTAX,
	/* The event needs a hardware PMU that this machine does not have. */
	HWP_ERR_NO_PMU,
	/* No event of the list could be opened on this machine. */
	HWP_ERR_NOTHING_COUNTED,
	/* A metric has no value: an input was not counted, or a division by 0. */
	HWP_ERR_UNDEFINED,
	/* A formula names something that is not in the event list. */
	HWP_ERR_UNKNOWN_NAME,
	/* The command to measure could not be started. */
	HWP_ERR_EXEC,
	/* A file or input that is not in the format it should be. */
	HWP_ERR_FORMAT,
	/* Two results that cannot be compared (different events, too few runs). */
	HWP_ERR_MISMATCH,
	/* The module has no symbols or debug information. */
	HWP_ERR_NO_DEBUGINFO,
	HWP_ERR_END,
};

/*
 * hwp_strerror - a short description of an error code
 * @err: a negative or positive errno or HWP_ERR_* value
 *
 * Returns a static string; never NULL. Since: 0.1
 */
HWP_API const char *hwp_strerror(int err);

/*
 * hwp_errmsg - the detailed message of the last failure on this thread
 *
 * Set by every function that fails; it names what failed, why, and what to
 * do, and may span several lines. The string stays valid until the next
 * call into the library on the same thread. Returns "" when no call has
 * failed on this thread. Thread-safe (one message per thread). Since: 0.1
 */
HWP_API const char *hwp_errmsg(void);

/*
 * hwp_version - the library's version string, "MAJOR.MINOR.PATCH"
 * Since: 0.1
 */
HWP_API const char *hwp_version(void);

/* ------------------------------------------------------------------------
 * Logging
 */

enum hwp_log_level {
	HWP_LOG_ERROR = 0,
	HWP_LOG_WARN,
	HWP_LOG_INFO,
	HWP_LOG_DEBUG,
};

/* A log callback. @msg has no trailing newline. */
typedef void (*hwp_log_fn)(enum hwp_log_level level, const char *msg, void *ctx);

/*
 * hwp_log_set - send the library's messages to @fn
 * @fn: the callback, or NULL for the default (stderr, prefixed "hwprof: ")
 * @ctx: passed to @fn unchanged
 *
 * The pair is swapped atomically: a message goes to the old pair or the new
 * one, never to a mix. Thread-safe. Since: 0.1
 */
HWP_API void hwp_log_set(hwp_log_fn fn, void *ctx);

/*
 * hwp_log_set_level - the most verbose level passed to the callback
 *
 * The default is HWP_LOG_WARN, or what the environment variable
 * HWPROF_LOG_LEVEL says (error, warn, info, debug, or 0-3). Thread-safe.
 * Since: 0.1
 */
HWP_API void hwp_log_set_level(enum hwp_log_level level);

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
};

struct hwp_evlist;

struct hwp_evlist_opts {
	size_t sz;
	bool all_user;		/* count user space only, as if every event had :u */
	bool all_kernel;	/* count the kernel only, as if every event had :k */
	size_t :0;
};

/*
 * hwp_evlist_parse - parse an event list
 * @spec: the list, as above
 * @opts: NULL or options
 * @out: the parsed list; free it with hwp_evlist_free()
 *
 * Errors: -HWP_ERR_SYNTAX for a malformed list (hwp_errmsg() points at the
 * position), -HWP_ERR_UNKNOWN_EVENT for a name no source knows
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

/* One event a source knows, for listing. */
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
 * Opens the event on the calling thread and closes it at once. Returns 0
 * when it opens; else a negative error, with hwp_errmsg() saying why (for
 * example that there is no hardware PMU, or the perf_event_paranoid value
 * that forbids it). Thread-safe. Since: 0.1
 */
HWP_API int hwp_event_probe(const char *name);

/* ------------------------------------------------------------------------
 * Counting sessions
 */

/* What a session counts. */
enum hwp_scope {
	/* One thread: opts.pid's (0: the calling thread). With inheritance,
	 * also the threads and children it creates after the open. */
	HWP_SCOPE_THREAD = 0,
	/* Every thread that process opts.pid (0: the calling process) has at
	 * the open, and with inheritance those created later. */
	HWP_SCOPE_PROCESS,
	/* Every task on the CPUs of opts.cpus (NULL: all online CPUs). Needs
	 * perf_event_paranoid <= 0 or CAP_PERFMON. */
	HWP_SCOPE_CPUS,
};

/*
 * Aggregation: how a session's counts are split into units, as perf stat's
 * -A, --per-core, --per-die, --per-socket, --per-node and --per-thread
 * split them. Since: 0.2
 */
enum hwp_aggr {
	HWP_AGGR_GLOBAL = 0,	/* one unit: everything counted */
	HWP_AGGR_CPU,		/* one unit a CPU ("CPU3"); HWP_SCOPE_CPUS */
	HWP_AGGR_CORE,		/* a core's CPUs ("S0-D0-C1"); HWP_SCOPE_CPUS */
	HWP_AGGR_DIE,		/* a die's ("S0-D0"); HWP_SCOPE_CPUS */
	HWP_AGGR_SOCKET,	/* a package's ("S1"); HWP_SCOPE_CPUS */
	HWP_AGGR_NODE,		/* a NUMA node's ("N0"); HWP_SCOPE_CPUS */
	/* One unit a thread ("comm-tid"): HWP_SCOPE_PROCESS (the threads it
	 * has at the open; a thread created later counts in its creator's
	 * unit unless no_inherit), or HWP_SCOPE_THREAD with inheritance (a
	 * command: every thread and child process it creates gets its own
	 * unit when it exits, see hwp_session_read_units()). */
	HWP_AGGR_THREAD,
};

struct hwp_session_opts {
	size_t sz;
	enum hwp_scope scope;
	pid_t pid;		/* see enum hwp_scope */
	const char *cpus;	/* HWP_SCOPE_CPUS: a CPU list such as "0-3,6" */
	bool no_inherit;	/* do not count threads and children created later */
	bool enable_on_exec;	/* start counting when the task calls exec() */
	/* Read with read() even where user space could read the counters
	 * (rdpmc on x86, mrs on arm64; see hwp_session_rdpmc()). */
	bool no_rdpmc;
	/* The units hwp_session_read_units() splits the counts into. Since: 0.2 */
	enum hwp_aggr aggr;
	/* HWP_SCOPE_CPUS: count only the tasks of this cgroup v2 (a path
	 * under the cgroup2 mount, as perf's -G takes it: "user.slice/x"; a
	 * path with "..", or the root ("", "/"), is -EINVAL). Since: 0.2 */
	const char *cgroup;
	size_t :0;
};

/* One event's reading. A frozen value type. */
struct hwp_count {
	uint64_t value;		/* the raw count */
	uint64_t time_enabled;	/* ns the event was enabled */
	uint64_t time_running;	/* ns it was on a counter (less when multiplexed) */
};

/* What became of an event at the open. */
enum hwp_event_status {
	HWP_EVENT_COUNTING = 0,		/* opened as asked */
	HWP_EVENT_NOT_SUPPORTED,	/* not on this machine; the reason says why */
	HWP_EVENT_USER_ONLY,		/* counts user space only (permission fallback) */
	HWP_EVENT_NOT_OPENED,		/* the session is not open */
};

struct hwp_session;

/*
 * hwp_session_new - a session that will count @evl's events
 * @evl: the events; the session keeps its own copy
 * @opts: NULL (the calling thread, inherited) or options
 * @out: the session; free it with hwp_session_free()
 *
 * Opens nothing yet. Errors: -HWP_ERR_SYNTAX for a bad CPU list, -ENODEV
 * for a CPU that does not exist (the message lists the online ones),
 * -EINVAL for a bad scope, -ENOMEM. Since: 0.1
 */
HWP_API int hwp_session_new(const struct hwp_evlist *evl,
			    const struct hwp_session_opts *opts,
			    struct hwp_session **out);

/*
 * hwp_session_open - open the counters, disabled
 *
 * Failures are sorted per event, as perf does: an event the machine does
 * not support (no PMU, unknown to the kernel) is marked
 * HWP_EVENT_NOT_SUPPORTED and the rest go on; when the member of a group is
 * unsupported, the group goes on without it, and when its leader is, the
 * next member leads. An event refused for permission is retried counting
 * user space only (HWP_EVENT_USER_ONLY, with a warning); if that fails too
 * the open fails with -EACCES or -EPERM and a message that names
 * perf_event_paranoid and the fix. -EMFILE raises RLIMIT_NOFILE to its
 * hard limit once and retries. -ESRCH: the process is gone.
 * -HWP_ERR_NOTHING_COUNTED when no event could be opened.
 * Opening an open session closes it first. Since: 0.1
 */
HWP_API int hwp_session_open(struct hwp_session *s);

/* hwp_session_close - close the counters; the session can be opened again. Since: 0.1 */
HWP_API void hwp_session_close(struct hwp_session *s);

/* hwp_session_free - close and free. Since: 0.1 */
HWP_API void hwp_session_free(struct hwp_session *s);

/*
 * hwp_session_enable, hwp_session_disable, hwp_session_reset - start, stop,
 * zero every counter. One ioctl per group and instance. Errors: -EBADF when
 * the session is not open. Since: 0.1
 *
 * hwp_session_reset zeroes what inherited children that have exited
 * counted too (the kernel's reset leaves it: the session reads it once,
 * and takes it off every later read), and the counts of the threads that
 * exited (HWP_AGGR_THREAD). It reads every counter, once, by read(); it
 * may return the errors of hwp_session_read(), and -ENOMEM. Since: 0.2
 */
HWP_API int hwp_session_enable(struct hwp_session *s);
HWP_API int hwp_session_disable(struct hwp_session *s);
HWP_API int hwp_session_reset(struct hwp_session *s);

/* hwp_session_nr_events - the number of events, as in the event list. Since: 0.1 */
HWP_API size_t hwp_session_nr_events(const struct hwp_session *s);

/* hwp_session_evlist - the session's copy of the event list. Since: 0.1 */
HWP_API const struct hwp_evlist *hwp_session_evlist(const struct hwp_session *s);

/*
 * hwp_session_read - read every event: one read() per group and instance
 * @counts: an array of @nr entries; entry i receives event i, summed over
 *	    the session's threads or CPUs. An event that is not supported
 *	    reads as all zeros (see hwp_session_event_status()).
 * @nr: at least hwp_session_nr_events()
 *
 * Reads every group before returning, so ratios within a group are
 * consistent. Allocates nothing and takes no lock. See hwp_session_rdpmc()
 * for the reads that need no system call. Errors: -EBADF when not
 * open, -EINVAL when @nr is too small, or the read()'s errno. Since: 0.1
 */
HWP_API int hwp_session_read(struct hwp_session *s, struct hwp_count *counts, size_t nr);

/*
 * hwp_session_rdpmc - whether reads may go through user space
 *
 * True when the session counts the calling thread alone (HWP_SCOPE_THREAD,
 * pid 0, no_inherit) on x86 or arm64, the kernel lets user space read
 * counters, and at least one hardware event's page could be mapped.
 * hwp_session_read() then reads such a group from the page and the
 * counter itself (rdpmc on x86, mrs on arm64), without a system call, when
 * it runs on the thread that opened the session and every member is on a
 * hardware counter and not multiplexed; any other group, thread or moment
 * uses read(). Members of a group are then read one after the other, not
 * atomically. The kernel allows it by default on x86 (unless
 * /sys/bus/event_source/devices/cpu/rdpmc is 0), on arm64 only with
 * sysctl kernel.perf_user_access=1 (Linux 5.17 or later); where it does
 * not, this is false and the debug log says why. Since: 0.1
 */
HWP_API bool hwp_session_rdpmc(const struct hwp_session *s);

/*
 * hwp_session_event_status - what became of event @idx at the open
 * @reason: NULL, or set to a sentence (borrowed) saying why the event is
 *	    not supported or counts user space only; NULL when counting
 * Since: 0.1
 */
HWP_API enum hwp_event_status hwp_session_event_status(const struct hwp_session *s,
							size_t idx, const char **reason);

/* One aggregation unit of a session (or a result). Since: 0.2 */
struct hwp_unit_info {
	size_t sz;
	const char *name;	/* "CPU3", "S0-D0-C1", "S0-D0", "S1", "N0", "comm-tid";
				 * "all" for HWP_AGGR_GLOBAL */
	enum hwp_aggr aggr;
	int id;			/* the CPU, core, die, package or node number; the tid */
	int package, die;	/* for CPU units; -1 for threads */
	size_t nr_cpus;		/* the session's CPUs in the unit; 0 for threads */
	const int *cpus;	/* those CPUs, ascending; NULL for threads */
	pid_t tid;		/* threads; else -1 */
	const char *comm;	/* threads: the name at the open; else NULL */
};

/*
 * hwp_session_nr_units - the units of the open session: 1 for
 * HWP_AGGR_GLOBAL, else as opts.aggr groups the CPUs or threads. For a
 * command counted per thread (HWP_SCOPE_THREAD, HWP_AGGR_THREAD) the units
 * grow as its threads exit: each read adds those that ended since. 0 when
 * the session is not open. Since: 0.2
 */
HWP_API size_t hwp_session_nr_units(const struct hwp_session *s);

/*
 * hwp_session_unit - describe unit @idx (below hwp_session_nr_units())
 *
 * Its strings are borrowed from @s, valid until the session is closed.
 * Errors: -EINVAL for @idx past the last or a NULL argument. Since: 0.2
 */
HWP_API int hwp_session_unit(const struct hwp_session *s, size_t idx,
			     struct hwp_unit_info *info);

/*
 * hwp_session_read_units - read every event, unit by unit
 * @counts: room for @nr counts; entry u * nr_events + e receives event e
 *	    of unit u, for u below hwp_session_nr_units() *after* the read
 * @nr: at least hwp_session_nr_units() * nr_events; with -ENOSPC, the
 *	read found new units (threads that exited): hwp_session_nr_units()
 *	says how many there are now; read again with room for them
 *
 * As hwp_session_read(), every group read before it returns; the units
 * sum to what hwp_session_read() gives. A command per thread
 * (HWP_SCOPE_THREAD, HWP_AGGR_THREAD): the events are opened on every
 * CPU with inherit_stat, and each thread or child that exits is a unit
 * with what it counted (the kernel's PERF_RECORD_READ at its exit, one a
 * CPU, read from a ring a CPU; its name from the PERF_RECORD_COMM and
 * FORK records). Unit 0 holds the rest: the total less those records.
 * The kernel swaps the counters of a task and a thread that inherits
 * them when it switches between the two on a CPU, so the one task whose
 * exit writes no record is not always the first: unit 0 is named after
 * that task once it is the only one left (after the command ends), and
 * "comm-running" (tid -1) while several run. In this mode the counts are
 * not scaled for multiplexing (each CPU's counter's enabled time covers
 * other CPUs' too): keep hardware events in groups the PMU holds at once.
 * A thread of the session's own reads the rings while the command runs
 * (started at hwp_session_open(), before the counters open, with every
 * signal blocked; joined at hwp_session_close()).
 * Errors: as hwp_session_read(); -ENOSPC (see @nr); -EOVERFLOW when exit
 * records were lost: a ring was full (the message says how many), or,
 * once the command is gone, a thread lacks the record of a CPU or a record
 * was never finished (the kernel's ring is made for one writer, and every
 * CPU writes to each CPU's ring at threads' exits): the units are
 * wrong, whatever it filled in @counts. Since: 0.2
 */
HWP_API int hwp_session_read_units(struct hwp_session *s, struct hwp_count *counts,
				   size_t nr);

/* ------------------------------------------------------------------------
 * Topology: which core, die, package and NUMA node each CPU is on
 */

/* One CPU's place. Since: 0.2 */
struct hwp_cpu_info {
	size_t sz;
	int cpu;
	int core;		/* core_id: unique within its package and die */
	int die;		/* die_id within the package (0 before Linux 5.2) */
	int package;		/* physical_package_id: the socket */
	int node;		/* NUMA node (0 when the kernel has no NUMA) */
};

struct hwp_topology;

/*
 * hwp_topology_read - read the topology of the online CPUs from sysfs
 * @root: the sysfs mount to read (NULL: $HWPROF_SYSFS_ROOT if set, else
 *	  "/sys"); a directory laid out as sysfs is, for tests and for
 *	  reading another machine's saved tree
 * @out: free it with hwp_topology_free()
 *
 * Reads devices/system/cpu/online, each CPU's topology/core_id,
 * die_id and physical_package_id, and devices/system/node/nodeN/cpulist.
 * Errors: the errno of a file that cannot be read, -HWP_ERR_FORMAT for
 * one that holds no number, -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_topology_read(const char *root, struct hwp_topology **out);

/* hwp_topology_free - NULL is a no-op. Since: 0.2 */
HWP_API void hwp_topology_free(struct hwp_topology *t);

/* hwp_topology_nr_cpus - the online CPUs; 0 for NULL. Since: 0.2 */
HWP_API size_t hwp_topology_nr_cpus(const struct hwp_topology *t);

/* hwp_topology_cpu - the @idx-th online CPU, ascending. Errors: -EINVAL.
 * Since: 0.2 */
HWP_API int hwp_topology_cpu(const struct hwp_topology *t, size_t idx,
			     struct hwp_cpu_info *info);

/* hwp_topology_find - CPU number @cpu. Errors: -ENODEV when it is not
 * online, -EINVAL. Since: 0.2 */
HWP_API int hwp_topology_find(const struct hwp_topology *t, int cpu,
			      struct hwp_cpu_info *info);

/*
 * hwp_topology_shared - the smallest unit that holds every CPU of @cpulist
 * @cpulist: "0,15", "0-3"...; its CPUs must be online
 * @level: HWP_AGGR_CPU (one CPU), HWP_AGGR_CORE (SMT siblings of one
 *	   core), HWP_AGGR_DIE (one die, different cores), HWP_AGGR_SOCKET
 *	   (one package, different dies), or HWP_AGGR_GLOBAL (more than one
 *	   package). This is what 'hwprof stat --pin 0,15' says.
 *
 * Errors: -HWP_ERR_SYNTAX for a bad list, -ENODEV for a CPU that is not
 * online or not in @t, -EINVAL. Since: 0.2
 */
HWP_API int hwp_topology_shared(const struct hwp_topology *t, const char *cpulist,
				enum hwp_aggr *level);

/* hwp_aggr_name - "global", "cpu", "core", "die", "socket", "node",
 * "thread"; NULL for another value. Since: 0.2 */
HWP_API const char *hwp_aggr_name(enum hwp_aggr aggr);

/*
 * hwp_count_scaled - the count scaled for multiplexing
 *
 * value * time_enabled / time_running, in floating point. NAN when the
 * event never ran (time_running == 0): it was "not counted", which is not 0.
 * Since: 0.1
 */
HWP_API double hwp_count_scaled(const struct hwp_count *c);

/* hwp_count_percent_running - 100 * time_running / time_enabled; NAN if never
 * enabled. Since: 0.1 */
HWP_API double hwp_count_percent_running(const struct hwp_count *c);

/* ------------------------------------------------------------------------
 * Workloads: the fork/exec handshake
 */

/* Which output of a command hwp_workload_opts' capture connects to a pipe. */
enum hwp_capture {
	HWP_CAPTURE_NONE = 0,
	HWP_CAPTURE_STDOUT,
	HWP_CAPTURE_STDERR,
};

struct hwp_workload_opts {
	size_t sz;
	const char *cpus;	/* pin the command to this CPU list, as taskset does */
	/* Send the command SIGTERM when the thread that created it ends, by
	 * exit or kill -9 (prctl PR_SET_PDEATHSIG): a killed wrapper leaves
	 * no orphan running. Create it on a thread that outlives it. Since: 0.2 */
	bool die_with_parent;
	/* Connect the command's standard output or error (HWP_CAPTURE_*) to a
	 * pipe whose read end hwp_workload_output_fd() gives, to scan what it
	 * prints ('hwprof stat --score'). Since: 0.2 */
	enum hwp_capture capture;
	/* Start no process until hwp_workload_start(), which then starts the
	 * command as posix_spawn() does (a vfork-style clone: the caller's
	 * page tables are not copied, and no handshake waits on a pipe): the
	 * cheapest start, for short commands run many times. The pid is 0
	 * until then, so counters opened before it with hwp_workload_pid()
	 * count the calling thread (HWP_SCOPE_THREAD, pid 0): with
	 * inheritance and enable_on_exec, the command's inherited copies
	 * start at its exec and the caller's never do, so they count the
	 * command alone. Open them and call hwp_workload_start() on one
	 * thread (a child inherits its creating thread's counters), and
	 * close them before the next start. Not for HWP_AGGR_THREAD,
	 * no_inherit or sampling (the kernel maps no ring of an inherited
	 * per-thread event). Since: 0.2 */
	bool spawn_at_start;
	size_t :0;
};

struct hwp_workload;

/*
 * hwp_workload_output_fd - the read end of the pipe that hwp_workload_opts'
 * capture connected to the command's output; non-blocking, close-on-exec,
 * borrowed (hwp_workload_free() closes it). It reads EOF once the command
 * and every process that inherited the output have closed it. -1 without
 * capture. Since: 0.2
 */
HWP_API int hwp_workload_output_fd(const struct hwp_workload *w);

/*
 * hwp_workload_new - fork a command that waits to be started (or, with
 * spawn_at_start, get ready to start one)
 * @argv: NULL-terminated; argv[0] is searched in PATH as execvp() does. It
 *	  is never run through a shell.
 * @out: the workload; its pid can be counted before hwp_workload_start()
 *
 * The child blocks until hwp_workload_start(), so counters opened with
 * enable_on_exec see exactly the command. Errors: -ENOENT (command not
 * found), -EACCES (not executable), -HWP_ERR_SYNTAX or -ENODEV for a bad
 * CPU list, or fork's errno. Since: 0.1
 */
HWP_API int hwp_workload_new(char *const argv[], const struct hwp_workload_opts *opts,
			     struct hwp_workload **out);

/* hwp_workload_pid - the child's pid; 0 before hwp_workload_start() with
 * spawn_at_start. Since: 0.1 */
HWP_API pid_t hwp_workload_pid(const struct hwp_workload *w);

/*
 * hwp_workload_start - let the child exec the command (with spawn_at_start:
 * start it)
 *
 * Returns once the exec succeeded, or with -HWP_ERR_EXEC (the exec's errno
 * in the message) when it failed; the child has then exited with 127 (or
 * 126 when the file is not executable). Since: 0.1
 */
HWP_API int hwp_workload_start(struct hwp_workload *w);

/*
 * hwp_workload_fd - a file descriptor that polls readable when the child
 * exits (a pidfd); borrowed. -1 where the kernel (before 5.3) or a tool
 * such as valgrind 3.19 has no pidfds: then poll with hwp_workload_poll().
 * Since: 0.1
 */
HWP_API int hwp_workload_fd(const struct hwp_workload *w);

/*
 * hwp_workload_poll - whether the child has exited, without waiting
 *
 * Returns 1 when it has (it is then reaped, as by hwp_workload_wait()), 0
 * while it runs, or a negative error. Since: 0.1
 */
HWP_API int hwp_workload_poll(struct hwp_workload *w);

/*
 * hwp_workload_wait - wait for the child and reap it
 * @status: NULL, or set to the wait status (see waitpid())
 *
 * Blocks until the child ends, through signals. To stop waiting on a
 * signal, wait on hwp_workload_fd() with poll() instead, or call
 * hwp_workload_poll(). Errors: -EINVAL, waitpid()'s errno. Since: 0.1; 0.2
 * dropped 0.1's third argument, a stop flag no caller set.
 */
HWP_API int hwp_workload_wait(struct hwp_workload *w, int *status);

/* hwp_workload_kill - send @sig to the child if it still runs. Since: 0.1 */
HWP_API int hwp_workload_kill(struct hwp_workload *w, int sig);

/* hwp_workload_elapsed - seconds from hwp_workload_start() to its exit (or
 * now). Since: 0.1 */
HWP_API double hwp_workload_elapsed(const struct hwp_workload *w);

/*
 * hwp_workload_cpu_times - the CPU time the command and its reaped children
 * took, in seconds, from wait4()'s rusage: @user and @system (either may be
 * NULL). Errors: -EINVAL for NULL @w; -EBUSY before hwp_workload_wait() or
 * hwp_workload_poll() reaped it. Since: 0.2
 */
HWP_API int hwp_workload_cpu_times(const struct hwp_workload *w, double *user,
				   double *system);

/*
 * hwp_workload_exit_code - the shell's view of a wait status: the exit
 * status, or 128+N when killed by signal N. Since: 0.1
 */
HWP_API int hwp_workload_exit_code(int status);

/* hwp_workload_free - kill (SIGKILL) and reap the child if it still runs, then
 * free. Since: 0.1 */
HWP_API void hwp_workload_free(struct hwp_workload *w);

/* ------------------------------------------------------------------------
 * Metrics: formulas over counts
 *
 * A formula has + - * / ( ), decimal numbers (1e9 too), event names and
 * `seconds` (the wall time). An event name matches an event of the list as
 * written ("cpu-migrations:u"), by its canonical name, by an alias
 * ("migrations"), or ignoring case, '-' and '_' ("cachemisses"). A '-'
 * between two letters with no space is part of a name: write "a - b" to
 * subtract.
 */

struct hwp_metric;

/*
 * hwp_metric_parse - parse "NAME=EXPR", or EXPR alone (then NAME is EXPR)
 * @out: free it with hwp_metric_free()
 *
 * Errors: -HWP_ERR_SYNTAX with the position in hwp_errmsg(), -ENOMEM.
 * Formulas nest at most 64 deep and are at most 4096 bytes. Since: 0.1
 */
HWP_API int hwp_metric_parse(const char *def, struct hwp_metric **out);

/* hwp_metric_free - free a metric (never a built-in one). Since: 0.1 */
HWP_API void hwp_metric_free(struct hwp_metric *m);

/* hwp_metric_name, hwp_metric_expr, hwp_metric_desc. Since: 0.1 */
HWP_API const char *hwp_metric_name(const struct hwp_metric *m);
HWP_API const char *hwp_metric_expr(const struct hwp_metric *m);
HWP_API const char *hwp_metric_desc(const struct hwp_metric *m);

/*
 * A value lookup for hwp_metric_eval(): set *value and return 0; return
 * -ENOENT when @name is unknown, -HWP_ERR_UNDEFINED when it is known but
 * has no value (not supported, not counted).
 */
typedef int (*hwp_value_fn)(const char *name, double *value, void *ctx);

/*
 * hwp_metric_eval - evaluate a formula
 *
 * Errors: -HWP_ERR_UNKNOWN_NAME (a name @lookup does not know),
 * -HWP_ERR_UNDEFINED (an input without value, a division by zero, or a
 * result that is not finite). hwp_errmsg() names the input. A metric is
 * never 0 or infinite in place of undefined. Since: 0.1
 */
HWP_API int hwp_metric_eval(const struct hwp_metric *m, hwp_value_fn lookup, void *ctx,
			    double *value);

/*
 * hwp_metric_check - whether every name in @m is an event of @evl or "seconds"
 *
 * Run it before measuring, so that a typo is reported before the command
 * runs. Errors: -HWP_ERR_UNKNOWN_NAME naming the first unknown name and
 * the events it could have meant. Since: 0.1
 */
HWP_API int hwp_metric_check(const struct hwp_metric *m, const struct hwp_evlist *evl);

/*
 * hwp_metric_check_names - hwp_metric_check(), with @names (the scores of a
 * result, 'hwprof stat --score') known too, as a formula may read them
 * (matched as hwp_result_find() matches a metric's name). Since: 0.2
 */
HWP_API int hwp_metric_check_names(const struct hwp_metric *m,
				   const struct hwp_evlist *evl,
				   const char *const *names, size_t nr_names);

/*
 * hwp_metric_builtin - built-in metric @idx, or NULL past the last
 *
 * The built-ins: LLC misses per CPU migration, IPC, LLC MPKI, CPUs
 * utilized, migrations/sec, cs/sec, faults/sec (per second of task-clock,
 * as perf stat's K/sec; in 0.1, migrations/s, cs/s and faults/s were per
 * second of wall time), and miss rates. Borrowed, static. Since: 0.1
 */
HWP_API const struct hwp_metric *hwp_metric_builtin(size_t idx);

/*
 * hwp_metric_input - the @idx-th event name @m's formula reads
 * @idx: from 0; each name once, in the order the formula first has it
 *
 * What to add to an event list so that @m can be computed, as hwprof stat
 * -M NAME adds the events of a built-in metric. "seconds" and numbers are
 * not inputs. Returns NULL past the last, or for a NULL @m; the name is
 * borrowed from @m. Thread-safe for a built-in @m. Since: 0.2
 */
HWP_API const char *hwp_metric_input(const struct hwp_metric *m, size_t idx);

/*
 * hwp_session_metric - evaluate @m on a reading of @s
 * @counts: from hwp_session_read()
 * @seconds: the wall time the counts cover (for "seconds" and the rates)
 *
 * Names resolve against the session's events (see above). An event that is
 * not supported or never ran makes the metric -HWP_ERR_UNDEFINED.
 * Since: 0.1
 */
HWP_API int hwp_session_metric(const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds,
			       const struct hwp_metric *m, double *value);

/* ------------------------------------------------------------------------
 * Statistics
 */

/* A summary of repeated measurements. */
struct hwp_stats_summary {
	size_t sz;
	size_t n;		/* values that were defined (NAN ones are skipped) */
	double mean;
	double median;
	double stddev;		/* sample standard deviation (n - 1) */
	double cv;		/* stddev / |mean|; NAN when mean is 0 */
	double min, max;
	/* stddev / sqrt(n) / |mean|: perf stat's "+- x%" (as a fraction) */
	double rel_stderr;
	double ci_low, ci_high;	/* 95% confidence interval of the mean (Student t) */
};

/*
 * hwp_stats_summarize - summarize @n values, skipping NANs
 *
 * Fields that need more values than there are (stddev with one value) are
 * NAN. Errors: -EINVAL for a NULL @out or a too small out->sz. Thread-safe.
 * Since: 0.1 (as hwp_summarize)
 */
HWP_API int hwp_stats_summarize(const double *values, size_t n,
				struct hwp_stats_summary *out);

/* The two-sample tests of hwp_stats_test(). */
enum hwp_stats_test {
	/* Welch's t-test: a difference of means, variances not assumed equal */
	HWP_TEST_WELCH = 0,
	/* Mann-Whitney U (Wilcoxon rank-sum): a shift of one sample against the
	 * other, from ranks alone; for small or skewed samples and outliers */
	HWP_TEST_MANN_WHITNEY,
};

struct hwp_stats_test_opts {
	size_t sz;
	enum hwp_stats_test test;	/* default Welch */
	double confidence;	/* of the interval of the difference; 0: 0.95 */
	size_t :0;
};

/* The outcome of a two-sample test. */
struct hwp_stats_test_result {
	size_t sz;
	enum hwp_stats_test test;
	size_t na, nb;		/* the values used: NANs are skipped */
	double diff;		/* mean of b - mean of a */
	double ci_low, ci_high;	/* confidence interval of diff (Welch's t) */
	/* Welch: t = diff / its standard error. Mann-Whitney: U of b, the
	 * number of pairs (a[i], b[j]) with b[j] > a[i], ties counting 1/2. */
	double statistic;
	double df;		/* Welch: Welch-Satterthwaite df; else NAN */
	double p_value;		/* two-sided */
	/* Mann-Whitney: true when p_value comes from the exact distribution of U
	 * (both samples under 50 values and no ties); false for the normal
	 * approximation with tie and continuity corrections. Welch: false. */
	bool exact;
};

/*
 * hwp_stats_test - whether two samples differ
 * @a, @na: the first sample (the baseline); NANs are skipped
 * @b, @nb: the second sample
 * @opts: NULL (Welch's t-test, 95% interval) or options
 * @out: filled up to out->sz
 *
 * Two-sided. When both samples have no spread, p_value is 1 when their
 * means are equal and 0 when they differ. Errors: -EINVAL for a NULL
 * argument, an unknown test or a confidence outside (0, 1);
 * -HWP_ERR_MISMATCH when a sample has fewer than 2 defined values (the
 * message says which); -ENOMEM. Thread-safe. Since: 0.1 (as hwp_sample_test)
 */
HWP_API int hwp_stats_test(const double *a, size_t na, const double *b, size_t nb,
			    const struct hwp_stats_test_opts *opts,
			    struct hwp_stats_test_result *out);

/*
 * hwp_stats_holm - Holm's step-down correction of @n p-values
 * @p: the p-values; NANs are left out of the family and stay NAN
 * @adjusted: receives the adjusted p-values, in the order of @p (it may be @p)
 *
 * Rejecting where adjusted < alpha keeps the chance of any false positive
 * among the n tests below alpha (Holm, Scand. J. Statist. 6, 1979). The
 * adjusted values never decrease with p and are at most 1. Errors: -EINVAL
 * for a NULL array, -ENOMEM. Thread-safe. Since: 0.1 (as hwp_holm_adjust)
 */
HWP_API int hwp_stats_holm(const double *p, size_t n, double *adjusted);

/*
 * hwp_stats_outliers_mad - flag the values far from the rest
 * @threshold: the modified z-score above which a value is flagged; 0 for
 *	       3.5, as Iglewicz and Hoaglin recommend
 * @flags: @n entries, set true for an outlier (NULL: count only)
 * @nr: NULL, or set to the number of outliers
 *
 * The modified z-score is 0.6745 (x - median) / MAD, MAD being the median
 * absolute deviation from the median; when half the values or more equal
 * the median (MAD is 0) it is (x - median) / (1.2533 * mean absolute
 * deviation).
 * A value within 1% of the median is never an outlier, so that counts
 * that wobble by a few units in a thousand are not flagged. NANs are never
 * outliers, and fewer than 3 defined values have none. Errors: -EINVAL,
 * -ENOMEM. Thread-safe. Since: 0.1 (as hwp_outliers_mad)
 */
HWP_API int hwp_stats_outliers_mad(const double *values, size_t n, double threshold,
			     bool *flags, size_t *nr);

/*
 * hwp_stats_histogram - count @n values into @nr_bins bins of equal width
 * @bins: @nr_bins counters, overwritten
 * @lo: set to the lower edge of the first bin (the smallest value), NAN
 *	when no value is defined
 * @width: set to the width of a bin; 0 when all values are equal (they are
 *	   all in the first bin)
 *
 * Bin i holds [lo + i * width, lo + (i + 1) * width); the last also holds
 * the largest value. NANs and infinities are skipped. Errors: -EINVAL for a NULL pointer
 * or no bin, -ENOMEM. Thread-safe. Since: 0.1 (as hwp_histogram)
 */
HWP_API int hwp_stats_histogram(const double *values, size_t n, size_t *bins,
				size_t nr_bins, double *lo, double *width);

/*
 * hwp_stats_spearman - Spearman's rank correlation of @x and @y (n pairs)
 * @rho: set to the correlation of the ranks, from -1 to 1 (ties share
 *	 their average rank); NAN when undefined
 * @p_value: set to the two-sided p-value of rho = 0, from Student's t with
 *	     n - 2 degrees of freedom (an approximation; with 10 runs a
 *	     correlation is weak evidence)
 *
 * Pairs where either value is NAN are skipped. Errors: -HWP_ERR_UNDEFINED
 * for fewer than 3 pairs or a side whose values are all equal (the
 * message says which); -EINVAL; -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_stats_spearman(const double *x, const double *y, size_t n, double *rho,
			       double *p_value);

/* How the runs of variants (A, B...) measured together are ordered. */
enum hwp_order {
	/* Blocks of one run of each variant, forward then backward: A B B A
	 * A B B A... (A B C C B A...). A machine whose speed drifts linearly
	 * gives every variant the same mean over each pair of blocks. */
	HWP_ORDER_ABBA = 0,
	/* Blocks of one run of each variant, each block in an order drawn from
	 * the seed (randomized blocks): no pattern of the machine's can line
	 * up with the order. */
	HWP_ORDER_RANDOM,
	/* Every run of A, then every run of B...: what running two commands
	 * one after the other does. A drift between the blocks becomes a
	 * difference; for comparison only. */
	HWP_ORDER_SEQUENTIAL,
};

/*
 * hwp_stats_order - the order of @runs runs of each of @nr_variants variants
 * @seed: HWP_ORDER_RANDOM's (the same seed, the same order, on any machine);
 *	  the others ignore it
 * @out: @nr_variants * @runs entries, each the variant (0, 1...) of that run
 *
 * Errors: -EINVAL for a NULL @out, no variant or run, or an unknown order.
 * Thread-safe. Since: 0.2
 */
HWP_API int hwp_stats_order(enum hwp_order order, size_t nr_variants, size_t runs,
			    uint64_t seed, size_t *out);

/* hwp_order_name - "abba", "random", "sequential"; NULL for no order. Since: 0.2 */
HWP_API const char *hwp_order_name(enum hwp_order order);

/* ------------------------------------------------------------------------
 * Output: the formats, and the options of every writer (hwp_*_write())
 */

enum hwp_format {
	HWP_FORMAT_TEXT = 0,	/* perf stat's layout */
	HWP_FORMAT_CSV,		/* perf stat -x's field order */
	HWP_FORMAT_JSON,	/* the documented schema (hwprof-formats(5)) */
	/* Profiles only: collapsed stacks "main;mid;leaf N", N the samples
	 * or, in an off-CPU profile (hwp_profile_info's off_cpu), the
	 * nanoseconds off the CPU (since 0.2) */
	HWP_FORMAT_FOLDED,
	/* Results and regions: the OpenMetrics text exposition (Prometheus),
	 * families hwprof_event, hwprof_metric, hwprof_region_... (hwprof-stat(1)),
	 * ending in "# EOF". Since: 0.2 */
	HWP_FORMAT_OPENMETRICS,
	/* Results and regions: the same families in the Prometheus text format
	 * (0.0.4), which node_exporter's textfile collector and promtool read:
	 * counters' families named with their _total, no # UNIT, no # EOF.
	 * Since: 0.2 */
	HWP_FORMAT_PROMETHEUS,
	/* Profiles: speedscope's JSON file format, the functions as shared
	 * frames (name, file, line) and one sampled profile of the call
	 * chains weighted by period. Since: 0.2 */
	HWP_FORMAT_SPEEDSCOPE,
	/* Profiles: pprof's profile.proto, gzipped (binary: a file, not a
	 * terminal), which go tool pprof, Parca and Pyroscope read: one
	 * sample a call chain of module addresses, valued by the summed
	 * period of each event of the file, the profile's event the default;
	 * functions with their source file and line. Since: 0.2 */
	HWP_FORMAT_PPROF,
	/* Profiles: one self-contained HTML page, a flame graph of the call
	 * chains of each event of the file (hwprof-report(1)), with zoom, search and
	 * tooltips; frames under 0.1% of an event's period are left out and
	 * counted. Since: 0.2 */
	HWP_FORMAT_HTML,
};

/* How a profile's entries are grouped. */
enum hwp_sort {
	HWP_SORT_SYM = 0,	/* by function (symbol) and module */
	HWP_SORT_RIP,		/* by instruction address */
	HWP_SORT_LINE,		/* by source file and line */
	HWP_SORT_DSO,		/* by module */
	/* By the CPU the samples were taken on (their PERF_SAMPLE_CPU): an
	 * entry's name is the CPU's number, without symbol, module or
	 * callers. Since: 0.2 */
	HWP_SORT_CPU,
	/* By the thread's name when it was sampled (its comm), as perf's
	 * --sort comm. Combines with HWP_SORT_SYM or HWP_SORT_DSO
	 * (hwp_write_opts.sort_keys): a row for each name and function.
	 * Not with off-CPU profiles. Since: 0.2 */
	HWP_SORT_COMM,
	/* By thread (its id, the "pid" of perf's --sort pid, named with its
	 * last comm: "1234:yes"); combines as HWP_SORT_COMM. Since: 0.2 */
	HWP_SORT_PID,
};

/*
 * hwp_sort_name - a sort key's name: "sym", "rip", "line", "dso", "cpu",
 * "comm", "pid"; "?" for a value that is none. Static. Since: 0.2
 */
HWP_API const char *hwp_sort_name(enum hwp_sort sort);

/*
 * hwp_sort_parse - the sort keys of a list of names ("comm,sym")
 * @list: names of hwp_sort_name(), separated by commas
 * @keys: filled with at most @max keys, in the list's order
 * @nr: set to how many
 *
 * Returns 0; -EINVAL for NULL, an unknown or repeated name (the message
 * names it); -E2BIG for more than @max. Whether the keys combine is
 * checked when they are used. Since: 0.2
 */
HWP_API int hwp_sort_parse(const char *list, enum hwp_sort *keys, size_t max, size_t *nr);

/* What every writer takes; each reads the fields that apply to it. */
struct hwp_write_opts {
	size_t sz;
	enum hwp_format format;
	const char *separator;	/* CSV: the field separator (default ",") */
	bool no_big_num;	/* TEXT: no thousands separators */
	/* > 0: write one interval of interval-mode output, each line (JSON:
	 * each object) stamped with this time in seconds since the start */
	double interval;
	bool no_header;		/* interval mode: leave out the column header */
	/* Profiles (hwp_profile_write()) only. Since: 0.2 */
	enum hwp_sort sort;
	size_t top;		/* entries to show; 0: all */
	const char *annotate;	/* TEXT: annotate this function instead of the top list */
	/* Results (hwp_result_write()) only: one line a run with every event,
	 * metric and score, as benchmark tables have them. TEXT: a table
	 * after the report; CSV: that table alone (a header line, then "run",
	 * "seconds" and a field a row); JSON: a "per_run" member beside the
	 * rest ({"columns": [{name, kind, unit}], "runs": [[run, seconds,
	 * values...]]}). The totals only, not each aggregation unit's.
	 * Since: 0.2 */
	bool per_run;
	/* Profiles: several sort keys,
	 * @nr_sort_keys of them, instead of @sort; the array is read during
	 * the write only. TEXT, CSV and JSON show a column (member) for comm
	 * and for pid before the rest; other formats refuse them (-EINVAL).
	 * Since: 0.2 */
	const enum hwp_sort *sort_keys;
	size_t nr_sort_keys;
	size_t :0;
};

/* ------------------------------------------------------------------------
 * Results: what `hwprof stat` measures, run after run
 */

enum hwp_series_kind {
	HWP_SERIES_EVENT = 0,
	HWP_SERIES_METRIC,
	/* The benchmark's own number, one a run ('hwprof stat --score').
	 * Since: 0.2 */
	HWP_SERIES_SCORE,
	/* Seconds of a run: "elapsed", and the CPU time "user" and "system"
	 * ('hwprof stat' measures them). Since: 0.2 */
	HWP_SERIES_TIME,
};

/* One row of a result: an event or a metric, with one value per run. */
struct hwp_series_info {
	size_t sz;
	const char *name;
	/* An event's values are its counts (scaled for multiplexing) times its
	 * hwp_event_info scale, in this unit: a PMU event's unit file even
	 * where the scale is not 1 ("Joules"), as perf stat shows it. Since
	 * 0.2; 0.1 kept counts. */
	const char *unit;
	enum hwp_series_kind kind;
	bool supported;		/* event: opened on this machine; metric: inputs exist */
	const char *reason;	/* why unsupported or undefined, or NULL */
	size_t nr_runs;
	const double *values;	/* nr_runs values; NAN where not counted or undefined */
	const double *percent_running;	/* events: nr_runs values; NULL for metrics */
};

struct hwp_result;

/* hwp_result_free. Since: 0.1 */
HWP_API void hwp_result_free(struct hwp_result *r);

/* hwp_result_aggr - how @r's units split it (HWP_AGGR_GLOBAL: no units).
 * Since: 0.2 */
HWP_API enum hwp_aggr hwp_result_aggr(const struct hwp_result *r);

/* hwp_result_nr_units - its units, in the order they were first counted;
 * 0 for NULL or without units. Since: 0.2 */
HWP_API size_t hwp_result_nr_units(const struct hwp_result *r);

/* hwp_result_unit - describe unit @idx; strings borrowed from @r.
 * Errors: -EINVAL. Since: 0.2 */
HWP_API int hwp_result_unit(const struct hwp_result *r, size_t idx,
			    struct hwp_unit_info *info);

/* hwp_result_unit_series - row @idx of unit @unit, as hwp_result_series()
 * describes the result's rows (the same rows, in the same order).
 * Errors: -EINVAL. Since: 0.2 */
HWP_API int hwp_result_unit_series(const struct hwp_result *r, size_t unit, size_t idx,
				   struct hwp_series_info *info);

struct hwp_regionset;

/*
 * hwp_result_nr_regionsets - how many regionsets @r has: one a run of
 * 'hwprof stat --regions', kept by
 * hwp_result_read() and hwp_sweep_read(); 0 for NULL. Since: 0.2
 */
HWP_API size_t hwp_result_nr_regionsets(const struct hwp_result *r);

/*
 * hwp_result_regionset - regionset @idx of @r, in the order the runs added
 * them (see "Regionsets" below)
 *
 * Returns a pointer borrowed from @r, valid until hwp_result_free(); NULL
 * past the last or for NULL. Since: 0.2
 */
HWP_API const struct hwp_regionset *hwp_result_regionset(const struct hwp_result *r,
							 size_t idx);

/* hwp_result_nr_runs, hwp_result_nr_series. Since: 0.1 */
HWP_API size_t hwp_result_nr_runs(const struct hwp_result *r);
HWP_API size_t hwp_result_nr_series(const struct hwp_result *r);

/*
 * hwp_result_series - describe row @idx: the events in list order, then
 * the metrics, then the scores (since 0.2). Built-in metrics whose inputs
 * were not counted are not rows.
 * Errors: -EINVAL. Since: 0.1
 */
HWP_API int hwp_result_series(const struct hwp_result *r, size_t idx,
			      struct hwp_series_info *info);

/* hwp_result_seconds - the per-run wall times (hwp_result_nr_runs() of them).
 * Since: 0.1 */
HWP_API const double *hwp_result_seconds(const struct hwp_result *r);

/*
 * hwp_result_find - the row named @name
 * @idx: set to its index for hwp_result_series()
 *
 * @name matches an event as written in the list or by its canonical name,
 * or a metric by its name; failing that, ignoring case, '-' and '_'.
 * Errors: -ENOENT, with the rows there are in hwp_errmsg(); -EINVAL.
 * Since: 0.1
 */
HWP_API int hwp_result_find(const struct hwp_result *r, const char *name, size_t *idx);

/*
 * hwp_result_read - load what hwprof stat --json wrote (schema hwprof-stat/1)
 * @path: the file
 * @out: the result with every run's values, the command, the
 *	 environment it was measured in and, from 'hwprof stat --regions', the
 *	 regions of each run (hwp_result_regionset(): since 0.2; 0.1 dropped
 *	 them); free it with hwp_result_free(). It takes no more runs or
 *	 metrics (-EBUSY).
 *
 * The file is treated as untrusted: at most 64 MiB, nesting and sizes
 * capped, every field checked. Errors: the errno of opening or reading it;
 * -EFBIG past 64 MiB; -HWP_ERR_FORMAT, with a message naming the file,
 * the line and the field, for a file that is empty, not JSON, truncated,
 * JSON but not hwprof's, of another schema (a sweep: see
 * hwp_sweep_read()), or with a field of the wrong type (its regions
 * included) or an array of values whose length is not "runs"; -ENOMEM.
 * Thread-safe. Since: 0.1
 */
HWP_API int hwp_result_read(const char *path, struct hwp_result **out);

/*
 * hwp_result_write - write @r to @f
 *
 * Text, CSV and JSON as hwprof stat writes them: perf stat's layout, a
 * metric over several runs its formula on the mean counts with its runs'
 * distribution beside it, perf's own metrics (CPUs utilized, K/sec...)
 * on their event's line (since 0.2).
 *
 * HWP_FORMAT_OPENMETRICS (since 0.2): the OpenMetrics text exposition, one
 * whole exposition ending in "# EOF" (with opts->interval, one each call,
 * with hwprof_elapsed_seconds the interval's time: give it the counts
 * since the start, as counters are totals). Counters hwprof_event_total
 * and hwprof_event_seconds_total (clocks), gauges hwprof_metric,
 * hwprof_event_running_ratio, hwprof_event_supported and
 * hwprof_elapsed_seconds, labelled by event or metric and command (and
 * run with several runs), then the regions' families
 * (hwp_regionset_write()). HWP_FORMAT_PROMETHEUS (since 0.2): the same in
 * Prometheus' text format, for node_exporter's textfile collector.
 * Errors: -EOPNOTSUPP for folded stacks, speedscope or pprof (a profile's
 * formats), -EINVAL for a NULL argument or a value that is no format, the
 * write's errno (-ENOSPC for a full disk, found by flushing @f).
 * Since: 0.1
 */
HWP_API int hwp_result_write(const struct hwp_result *r, FILE *f,
			     const struct hwp_write_opts *opts);

/*
 * hwp_result_explain - which number to trust: every row of @r ranked by how
 * closely it follows score @score across the runs, and the ratios of two
 * events that vary least
 * @score: the name of a score row ('hwprof stat --score')
 *
 * Each event, metric and other score gets Spearman's rank correlation with
 * the score (hwp_stats_spearman()), its p-value and its coefficient of
 * variation, the strongest first; then every ratio of two counted events
 * is tried and the 5 with the least CV across runs are shown. The output
 * says how many candidates were tried and that a correlation over a few
 * runs is weak evidence. HWP_FORMAT_TEXT, or HWP_FORMAT_JSON (schema
 * hwprof-explain/1, hwprof-stat(1)). Errors: -ENOENT for no such score,
 * -HWP_ERR_UNDEFINED for fewer than 3 runs, -EOPNOTSUPP for other formats,
 * -EINVAL, -ENOMEM, or the write's errno. Since: 0.2
 */
HWP_API int hwp_result_explain(const struct hwp_result *r, const char *score, FILE *f,
			       const struct hwp_write_opts *opts);

/* ------------------------------------------------------------------------
 * Sweeps: one result per value of a parameter, as the tables of benchmark
 * results people post have one column per thread or client count
 */

struct hwp_sweep;

/* hwp_sweep_free - free the sweep and its results. Since: 0.1 */
HWP_API void hwp_sweep_free(struct hwp_sweep *sw);

/*
 * hwp_sweep_param - the parameter's name; NULL for a plain result read by
 * hwp_sweep_read(). Since: 0.1
 */
HWP_API const char *hwp_sweep_param(const struct hwp_sweep *sw);

/* hwp_sweep_nr_points - how many values were measured. Since: 0.1 */
HWP_API size_t hwp_sweep_nr_points(const struct hwp_sweep *sw);

/*
 * hwp_sweep_value - value @idx, in the order added; NULL past the end or for
 * a plain result. Since: 0.1
 */
HWP_API const char *hwp_sweep_value(const struct hwp_sweep *sw, size_t idx);

/* hwp_sweep_result - value @idx's result (borrowed), NULL past the end. Since: 0.1 */
HWP_API const struct hwp_result *hwp_sweep_result(const struct hwp_sweep *sw, size_t idx);

/*
 * hwp_sweep_write - write the sweep to @f
 *
 * HWP_FORMAT_TEXT: one row per event and metric, one column per value
 * (with the relative standard error of the mean under each when there were
 * repeated runs). HWP_FORMAT_JSON: schema hwprof-sweep/1 (hwprof-stat(1)), each
 * value's result a complete hwprof-stat/1 object. Errors: -EOPNOTSUPP for
 * CSV or folded stacks, -EINVAL, or the write's errno. Since: 0.1
 */
HWP_API int hwp_sweep_write(const struct hwp_sweep *sw, FILE *f,
			    const struct hwp_write_opts *opts);

/*
 * hwp_sweep_read - load a sweep (hwprof-sweep/1), or a plain result
 * (hwprof-stat/1) as a sweep of one point without parameter or value
 *
 * As hwp_result_read(), with the same checks and errors. Thread-safe.
 * Since: 0.1
 */
HWP_API int hwp_sweep_read(const char *path, struct hwp_sweep **out);

/* ------------------------------------------------------------------------
 * Comparisons: is B different from A, row by row, beyond the noise?
 */

enum hwp_verdict {
	HWP_VERDICT_UNCHANGED = 0,	/* no difference at the significance level */
	HWP_VERDICT_INCREASE,		/* B is larger than A */
	HWP_VERDICT_DECREASE,		/* B is smaller than A */
	HWP_VERDICT_NONE,		/* no test: a side has fewer than 2 values, or
					 * the test's arithmetic overflowed */
};

/* hwp_verdict_name - "unchanged", "increase", "decrease", "n/a". Since: 0.1 */
HWP_API const char *hwp_verdict_name(enum hwp_verdict v);

struct hwp_compare_opts {
	size_t sz;
	double alpha;		/* the significance level; 0: 0.05 */
	enum hwp_stats_test test;	/* default Welch's t-test */
	bool no_correction;	/* do not apply Holm's correction across the tests */
	/* What the output calls A and B (copied); NULL: the files they were
	 * read from, else "A" and "B". Since: 0.2 */
	const char *a_name, *b_name;
	/* How the runs of A and B were ordered, said in the output (copied):
	 * the text's header and the JSON's "order"; NULL: not said (measured
	 * apart, e.g. read from two files). Since: 0.2 */
	const char *order;
	/* Rules that the comparison checks (copied), for CI: each
	 * "ROW:increase" or "ROW:decrease", optionally with a threshold in
	 * percent, "ROW:increase>5" (or ">5%"). A rule is broken when the
	 * verdict of ROW (a row's name as the output shows it: "page-faults",
	 * "CPU0 page-faults"; in any sweep column) is that change and, with a
	 * threshold, B/A - 1 is past it (1 - B/A for a decrease). See
	 * hwp_compare_failed() and hwp_compare_rule(). Since: 0.2 */
	const char *const *fail_on;
	size_t nr_fail_on;
	size_t :0;
};

/* One cell of a comparison: a row (event or metric), in one column (a sweep
 * value; a plain comparison has one column). */
struct hwp_compare_info {
	size_t sz;
	const char *name;
	const char *unit;
	enum hwp_series_kind kind;
	const char *column;	/* the sweep value, or NULL */
	size_t a_n, b_n;	/* defined values on each side */
	double a_mean, b_mean;
	double a_cv, b_cv;	/* coefficients of variation */
	double ratio;		/* b_mean / a_mean; NAN when a_mean is 0 or B/A
				 * is past a double's range */
	double diff;		/* b_mean - a_mean */
	/* 95% confidence interval of diff (Welch's; paired: the paired t's) */
	double ci_low, ci_high;
	/* of the test, as in struct hwp_stats_test_result; paired: t with
	 * pairs - 1 df, or Wilcoxon's W+ (the sum of the ranks of |b - a|
	 * where b > a) with df NAN */
	double statistic, df;
	double p_value;		/* after Holm's correction, when it applies */
	double p_raw;		/* before the correction */
	bool exact;		/* Mann-Whitney: exact p */
	enum hwp_verdict verdict;	/* p_value < alpha: increase or decrease */
	const char *reason;	/* why a value is missing (no test: verdict NONE; no
				 * ratio; a number that overflowed, which is NAN,
				 * never infinite), else NULL */
	size_t a_outliers, b_outliers;	/* runs flagged by hwp_stats_outliers_mad() */
	size_t noise_rank;	/* the row's rank by its CV, 1 = the least noisy */
	/* The aggregation unit of a row of one unit ("CPU0", "S0-D0-C1"; see
	 * hwp_result_unit()), or NULL for the totals. When both results have
	 * the same units, each unit's rows follow the totals; when not, only
	 * the totals are compared and a warning says why. The rows of a
	 * region of 'hwprof stat --regions' that both results entered
	 * follow, one row a region and event or metric, with "region:NAME"
	 * here (each run's value of the region, as the totals have a value
	 * a run). Since: 0.2 */
	const char *aggr_unit;
	/* The interval of diff at the level the verdict was decided at,
	 * ci_adj_level = 1 - alpha * p_raw / p_value: 1 - alpha without a
	 * correction; under Holm's, each row's own step (1 - alpha / m for the
	 * smallest of m p-values). With Welch's test it excludes 0 exactly
	 * when the verdict is increase or decrease, which ci_low and ci_high
	 * (95%, before any correction) need not; with Mann-Whitney it is
	 * Welch's interval at the level of the rank test. NAN without a test.
	 * Since: 0.2 */
	double ci_adj_low, ci_adj_high, ci_adj_level;
	/* The pairs of runs tested, when A's and B's runs were measured in
	 * turn ('hwprof stat' with variants): runs of one block, both defined;
	 * 0 when the runs were not paired. A paired cell's numbers (a_n, b_n,
	 * the means, CVs, ratio, diff and intervals) are of its pairs alone;
	 * its test is the paired t-test (Welch's asked for) or Wilcoxon's
	 * signed-rank test (Mann-Whitney's), on the differences b - a, and diff
	 * is their mean. Since: 0.2 */
	size_t pairs;
	/* Paired: the interval of the ratio B/A at ci_adj_level, 1 + [ci_adj_low,
	 * ci_adj_high] / a_mean (the paired t's interval of the mean
	 * difference, over A's mean); NAN unpaired, or without a ratio.
	 * Since: 0.2 */
	double ratio_ci_adj_low, ratio_ci_adj_high;
};

struct hwp_compare;

/*
 * hwp_compare_results - compare every event and metric that @a and @b have
 * in common (by name, or an event by its canonical name)
 * @a: the baseline; @b: the candidate. Neither is kept.
 * @out: free it with hwp_compare_free()
 *
 * Each common row gets the means, the ratio B/A, the confidence interval
 * of the difference, a two-sided p-value and a verdict at opts.alpha. With
 * more than one test, the p-values are corrected with Holm's method so that
 * the chance of any false "increase" or "decrease" stays below alpha, and
 * the output says so. Rows are ranked by their coefficient of variation
 * (the larger of A's and B's), so the least noisy metric, the best to
 * decide on, comes first. Rows in one result only, results of different
 * commands or machines give warnings (hwp_compare_warning()), not errors.
 * Errors: -HWP_ERR_MISMATCH when a side has fewer than 2 runs or no row is
 * common to both (the message says which and what to do); -EINVAL for a
 * NULL argument, alpha outside (0, 1) or an unknown test; -ENOMEM.
 * Since: 0.1
 */
HWP_API int hwp_compare_results(const struct hwp_result *a, const struct hwp_result *b,
				const struct hwp_compare_opts *opts,
				struct hwp_compare **out);

/*
 * hwp_compare_sweeps - compare two sweeps column by column
 *
 * Columns are the values both sweeps measured (a warning names the others);
 * each cell is compared as hwp_compare_results() does, and Holm's
 * correction runs over every cell. Two sweeps of one point without
 * parameter (plain results read by hwp_sweep_read()) compare as results.
 * Errors: as hwp_compare_results(), and -HWP_ERR_MISMATCH for a sweep
 * against a plain result or sweeps without a value in common. Since: 0.1
 */
HWP_API int hwp_compare_sweeps(const struct hwp_sweep *a, const struct hwp_sweep *b,
			       const struct hwp_compare_opts *opts,
			       struct hwp_compare **out);

/* hwp_compare_free. Since: 0.1 */
HWP_API void hwp_compare_free(struct hwp_compare *c);

/* hwp_compare_nr_rows, hwp_compare_nr_columns, hwp_compare_nr_tests (the
 * cells tested: the family Holm's correction runs over; since 0.2 without
 * the cells whose every value in A and B is one and the same, which cannot
 * differ: p 1, unchanged). Since: 0.1 */
HWP_API size_t hwp_compare_nr_rows(const struct hwp_compare *c);
HWP_API size_t hwp_compare_nr_columns(const struct hwp_compare *c);
HWP_API size_t hwp_compare_nr_tests(const struct hwp_compare *c);

/*
 * hwp_compare_cell - describe the cell of @row and @col
 * @info: filled up to info->sz; its strings are borrowed from @c
 *
 * Errors: -EINVAL for a cell out of range or a too small info->sz.
 * Since: 0.1
 */
HWP_API int hwp_compare_cell(const struct hwp_compare *c, size_t row, size_t col,
			     struct hwp_compare_info *info);

/* hwp_compare_warning - warning @idx (borrowed), or NULL past the last. Since: 0.1 */
HWP_API const char *hwp_compare_warning(const struct hwp_compare *c, size_t idx);

/*
 * hwp_compare_failed - how many of hwp_compare_opts.fail_on's rules the
 * comparison breaks (0 without rules). A rule that names a row the
 * comparison does not have, or that is malformed, is refused by
 * hwp_compare_results() (-EINVAL, with the rows it has) rather than passed
 * in silence. Since: 0.2
 */
HWP_API size_t hwp_compare_failed(const struct hwp_compare *c);

/*
 * hwp_compare_rule - rule @idx of hwp_compare_opts.fail_on, as given
 * @broken: NULL, or set to whether the comparison breaks it
 * @finding: NULL, or set to what was found, for people ("page-faults:
 * increase (B/A 1.099, +9.94%), p <0.001 after Holm's correction, past 5%")
 *
 * Returns the rule (borrowed, as are *@finding), or NULL past the last.
 * Since: 0.2
 */
HWP_API const char *hwp_compare_rule(const struct hwp_compare *c, size_t idx,
				     bool *broken, const char **finding);

/*
 * hwp_compare_write - write the comparison to @f
 *
 * HWP_FORMAT_TEXT: a table of rows (or of ratios with a verdict per sweep
 * column), the test and correction used, the noise ranking and the
 * warnings. HWP_FORMAT_JSON: schema hwprof-compare/1 (hwprof-formats(5)).
 * HWP_FORMAT_CSV (since 0.2): a header line, then a line a cell with the
 * fields of struct hwp_compare_info (hwprof-compare(1)), separated by
 * opts->separator. Errors: -EOPNOTSUPP for folded stacks and the other
 * formats, -EINVAL, or the write's errno. Since: 0.1
 */
HWP_API int hwp_compare_write(const struct hwp_compare *c, FILE *f,
			      const struct hwp_write_opts *opts);

/* ------------------------------------------------------------------------
 * Doctor: what on this machine adds noise to measurements
 */

/* One thing the doctor looked at; the strings are borrowed from the doctor. */
struct hwp_doctor_item {
	size_t sz;
	/* "cpufreq-governor", "turbo-boost", "smt", "c-states", "nmi-watchdog",
	 * "perf_event_paranoid", "kptr_restrict", "transparent-hugepages",
	 * "aslr", "irqbalance", "hardware-pmu", "load" */
	const char *name;
	const char *value;	/* as read now; "unknown (PATH: why)" when unreadable */
	/* whether it adds noise (or limits what can be counted) */
	bool noisy;
	const char *why;	/* why it matters */
	const char *fix;	/* the command that fixes it; NULL when not noisy or
				 * nothing can (a VM without PMU) */
};

struct hwp_doctor;

/*
 * hwp_doctor_new - look at this machine now: the items above, read from
 * /proc and /sys (nothing is changed)
 * @out: free it with hwp_doctor_free()
 *
 * A fact that cannot be read is an item whose value says so, not an error.
 * Errors: -EINVAL, -ENOMEM. Since: 0.2
 */
HWP_API int hwp_doctor_new(struct hwp_doctor **out);

/* hwp_doctor_free. Since: 0.2 */
HWP_API void hwp_doctor_free(struct hwp_doctor *d);

/* hwp_doctor_nr_items, and item @idx (filled up to info->sz). Errors:
 * -EINVAL past the last. Since: 0.2 */
HWP_API size_t hwp_doctor_nr_items(const struct hwp_doctor *d);
HWP_API int hwp_doctor_item(const struct hwp_doctor *d, size_t idx,
			    struct hwp_doctor_item *info);

/*
 * hwp_doctor_write - HWP_FORMAT_TEXT: a line an item ("ok" or "noisy",
 * name, value), why and the fix under each noisy one, and how many are;
 * HWP_FORMAT_JSON: schema hwprof-doctor/1 (hwprof-formats(5)). Errors: -EOPNOTSUPP
 * for other formats, -EINVAL, or the write's errno. Since: 0.2
 */
HWP_API int hwp_doctor_write(const struct hwp_doctor *d, FILE *f,
			     const struct hwp_write_opts *opts);

/* ------------------------------------------------------------------------
 * Regions: counting parts of a program, per thread
 *
 *	hwp_region_begin("solve");
 *	solve();
 *	hwp_region_end("solve");
 *
 * Each thread counts itself: its counters open at its first region and run
 * until it exits; a region reads them at begin and end and adds up the
 * difference, per region name and per thread, with the number of calls.
 * Regions nest (counts are inclusive) up to 64 deep. With no set-up at
 * all, the events come from $HWPROF_EVENTS and the results go, as JSON
 * (schema "hwprof-regions/1", in libhwprof(3)), to $HWPROF_OUTPUT at exit:
 * so a program with regions and no code to pick events can be measured
 * from outside, as 'hwprof stat --regions' does.
 *
 * The hot path (begin, end) takes no lock and allocates nothing but the
 * first time a thread meets a name; passing the same pointer (a string
 * literal) each time skips even the string comparison. A region that is
 * too short to measure (less than 20 reads of the counters; see
 * hwp_region_settings()) is flagged in the results; sample_every measures
 * one call in N and scales, for regions called very often.
 */

struct hwp_region_opts {
	size_t sz;
	/* The events (default: task-clock,page-faults,context-switches,
	 * cpu-migrations,cycles,instructions). $HWPROF_EVENTS wins over both,
	 * so that whoever runs the program can choose. */
	const char *events;
	/* Write the results as JSON there at exit (see hwp_region_save()).
	 * $HWPROF_OUTPUT wins. */
	const char *output;
	/* Measure one call in N of each region and scale (0 or 1: every
	 * call). $HWPROF_SAMPLE_EVERY wins. */
	unsigned int sample_every;
	bool no_rdpmc;		/* read() even where user-space reads would do */
	size_t :0;
};

/*
 * hwp_region_init - configure regions, before the first one
 *
 * Optional: the first hwp_region_begin() configures them from the
 * environment alone. Errors: -EBUSY when regions are configured already,
 * -HWP_ERR_SYNTAX or -HWP_ERR_UNKNOWN_EVENT for the events (which then
 * every region call returns too). Thread-safe. Since: 0.1 (as hwp_regions_init)
 */
HWP_API int hwp_region_init(const struct hwp_region_opts *opts);

/*
 * hwp_region_begin - enter region @name in the calling thread
 *
 * The first region of a thread opens its counters (a few microseconds); a
 * failure there (no event countable, permission) is returned by every
 * later call of that thread. Errors: -EINVAL for a NULL name, -E2BIG past
 * 64 nested regions, -ENOMEM. Thread-safe: each thread has its own regions.
 * Since: 0.1
 */
HWP_API int hwp_region_begin(const char *name);

/*
 * hwp_region_end - leave region @name, the innermost open one of this thread
 *
 * Errors: -EINVAL when @name is not the innermost open region (the message
 * names the one that is) or none is open. Thread-safe. Since: 0.1
 */
HWP_API int hwp_region_end(const char *name);

/*
 * hwp_region_end_ops - hwp_region_end(), and this call did @ops operations
 * (messages, bytes, iterations): the results give per-operation figures.
 * Since: 0.1
 */
HWP_API int hwp_region_end_ops(const char *name, uint64_t ops);

/* One region's results, given to a hwp_region_foreach() callback. */
struct hwp_region_info {
	size_t sz;
	const char *name;
	pid_t tid;		/* 0: the total of all threads; else one thread's part */
	size_t nr_threads;	/* threads that entered the region */
	uint64_t calls;
	/* calls < measured_calls only with sample_every */
	uint64_t measured_calls;
	uint64_t ops;		/* from hwp_region_end_ops() */
	double seconds;		/* wall time inside, over all calls */
	bool too_short;		/* a measured call lasted less than 20 reads */
	size_t nr_events;
	/* Per event, in the list's order, over all calls: scaled for
	 * multiplexing and for sparse measurement. NAN when not counted. */
	const double *values;
	const struct hwp_evlist *evlist;	/* the events; borrowed */
};

typedef int (*hwp_region_fn)(const struct hwp_region_info *info, void *ctx);

/*
 * hwp_region_foreach - walk the results so far
 *
 * For each region name, in the order first met: the total over threads
 * (tid 0), then each thread's part. Regions still open are not counted
 * yet. Returns 0 or what @fn returned to stop. Thread-safe, also while
 * other threads measure; @fn runs under the regions' lock, so it must not
 * call the regions functions itself, nor fork() (which waits for that
 * lock, so that a child never copies the regions half-updated). After
 * fork(), the child starts with no regions of its own.
 * Since: 0.1 (as hwp_regions_foreach)
 */
HWP_API int hwp_region_foreach(hwp_region_fn fn, void *ctx);

/*
 * hwp_region_write - write the results so far as text (a block per region,
 * as 'hwprof stat --regions' shows them; hwp_regionset_write() says what it
 * holds) or JSON ("hwprof-regions/1"): hwp_regionset_write() of
 * hwp_regionset_snapshot(). Errors: -EOPNOTSUPP for CSV or folded stacks,
 * -EINVAL for a NULL stream or a value that is no format, the write's
 * errno, -ENOMEM. Thread-safe. Since: 0.1 (as hwp_regions_write)
 */
HWP_API int hwp_region_write(FILE *f, const struct hwp_write_opts *opts);

/*
 * hwp_region_save - write the results so far as JSON to @path, through
 * a temporary name renamed into place, so the file is never half-written
 * @path: NULL for the configured output ($HWPROF_OUTPUT, or the output of
 *	  hwp_region_init()): then 0 and nothing written when none is
 *
 * With an output configured, the library saves the results at exit too,
 * unless the program saved them there itself. The at-exit writer cannot
 * change the exit status: when it cannot write the output, it writes the
 * results to $TMPDIR/hwprof-regions.PID.TIME.json (or /tmp) and logs an
 * error that names both. A program whose status must show the loss (a
 * benchmark run by a script) calls hwp_region_save(NULL) before it
 * returns and checks the result, as examples/msgbench.c does. A directory
 * of the output that does not exist, or takes no files, is logged as a
 * warning at the first region. Thread-safe. Since: 0.1 (as hwp_regions_save)
 */
HWP_API int hwp_region_save(const char *path);

struct hwp_regionset_info;

/*
 * hwp_region_settings - how this process's regions are set up, so far
 * @info: filled up to info->sz (struct hwp_regionset_info, below): the
 *	  event list (NULL before the first region or hwp_region_init()),
 *	  sample_every, what one read of the counters costs in ns (measured
 *	  once when the first thread opened its counters; NAN before), and the
 *	  regions met so far
 *
 * The cheap part of hwp_regionset_snapshot(), without the counts.
 * Thread-safe. Since: 0.2 (0.1 had hwp_regions_read_cost(),
 * hwp_regions_events() and hwp_regions_sample_every())
 */
HWP_API int hwp_region_settings(struct hwp_regionset_info *info);

/* ------------------------------------------------------------------------
 * Regionsets: the regions of one run of a program, as values
 *
 * What a program's regions came to, typed: the events counted, and per
 * region its calls, ops and time inside, its rows (each event's count,
 * scaled, with the percent of the time it was running, and the metrics
 * on them, as hwprof-stat/1 rows of one run) and each thread's part. A
 * regionset is the hwprof-regions/1 document of libhwprof(3), read from the
 * file a program wrote (hwp_regionset_read()), kept by a result of
 * 'hwprof stat --regions' (hwp_result_regionset()), or taken from this
 * process's own regions (hwp_regionset_snapshot()). It does not change
 * once made: any thread may read it, one at a time frees it.
 */

/* A regionset's totals. Filled by hwp_regionset_info(). */
struct hwp_regionset_info {
	size_t sz;
	const char *event_spec;	/* events the regions counted; NULL: none configured */
	unsigned int sample_every;	/* one call in N measured and scaled (1: all) */
	double read_cost_ns;	/* what one read of the counters cost; NAN: unknown */
	size_t nr_regions;
	/* Regions of the file left out for a field of the wrong type or
	 * value, each named in a warning; the others are read. Since: 0.2 */
	size_t nr_unreadable;
};

/*
 * hwp_regionset_read - load the regions a program wrote (schema
 * hwprof-regions/1, as hwp_region_save() and $HWPROF_OUTPUT write them)
 * @out: free it with hwp_regionset_free()
 *
 * The file is treated as untrusted, as by hwp_result_read(): every field
 * is checked. A region with a bad field is left out with a warning that
 * names it and why, and counted (hwp_regionset_info's nr_unreadable); the
 * others are read. Errors: the errno of opening or reading it (-ENOENT: the
 * program wrote none), -EFBIG past 64 MiB, -HWP_ERR_FORMAT with a message
 * naming the file, the line and the field for a file that is not the
 * regions of a program or has a field of the wrong type outside the
 * regions, -EINVAL, -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_regionset_read(const char *path, struct hwp_regionset **out);

/*
 * hwp_regionset_snapshot - this process's regions so far, as a regionset
 * @out: free it with hwp_regionset_free()
 *
 * What hwp_region_foreach() walks, taken at once under the regions' lock:
 * each region's total, its rows from the sums of its measured calls (a
 * count scaled by the time it was enabled over the time it ran, whose
 * percent the row keeps, then by calls / measured calls), each thread's
 * part, the events, the sampling and the cost of a read, and this
 * machine's environment. Before the first region, or when the events
 * were bad, a regionset without regions (event_spec NULL when none were
 * configured). Errors: -EINVAL, -ENOMEM. Thread-safe, also while other
 * threads measure. Since: 0.2
 */
HWP_API int hwp_regionset_snapshot(struct hwp_regionset **out);

/* hwp_regionset_free - free a regionset read or snapshot; NULL is a no-op. Since: 0.2 */
HWP_API void hwp_regionset_free(struct hwp_regionset *rs);

/*
 * hwp_regionset_write - write @rs to @f
 *
 * HWP_FORMAT_TEXT: a block per region, as 'hwprof stat --regions' shows
 * them: its threads, calls, time and ops, then each event's count, per
 * call and per op (and, when it was multiplexed, the percent it counted),
 * then its metrics. HWP_FORMAT_JSON: schema hwprof-regions/1, which
 * hwp_regionset_read() reads back. HWP_FORMAT_OPENMETRICS (since 0.2):
 * the families hwprof_region_calls, _seconds, _ops, _event, _event_seconds
 * and _metric, labelled by region (and event or metric), then "# EOF".
 * HWP_FORMAT_PROMETHEUS: the same in Prometheus' text format. Errors:
 * -EOPNOTSUPP for CSV, folded stacks, speedscope or pprof, -EINVAL for a NULL
 * argument or a value that is no format, the write's errno (-ENOSPC for a
 * full disk).
 * Since: 0.2
 */
HWP_API int hwp_regionset_write(const struct hwp_regionset *rs, FILE *f,
				const struct hwp_write_opts *opts);

/*
 * hwp_regionset_info - fill @info (up to info->sz) with @rs's totals
 *
 * Its strings are borrowed from @rs. Errors: -EINVAL. Since: 0.2
 */
HWP_API int hwp_regionset_info(const struct hwp_regionset *rs,
			       struct hwp_regionset_info *info);

/*
 * hwp_regionset_region - region @idx of @rs: its total over the threads
 * @info: filled up to info->sz, as hwp_region_foreach() fills it for
 *	  tid 0; @values has info->nr_events counts, in the order of the
 *	  region's rows (hwp_regionset_series()), which name them. evlist is
 *	  NULL: a regionset read from a file has no event list of this
 *	  machine's. Borrowed from @rs.
 *
 * Regions come in the order the program first entered them. Errors:
 * -EINVAL for @idx past the last or a NULL argument. Since: 0.2
 */
HWP_API int hwp_regionset_region(const struct hwp_regionset *rs, size_t idx,
				 struct hwp_region_info *info);

/*
 * hwp_regionset_thread - the part of thread @idx in region @region
 * @info: as hwp_regionset_region() fills it, with the thread's tid and
 *	  counts (nr_threads 1); @idx counts from 0 to the region's
 *	  nr_threads - 1
 *
 * Errors: -EINVAL for a region or thread past the last. Since: 0.2
 */
HWP_API int hwp_regionset_thread(const struct hwp_regionset *rs, size_t region,
				 size_t idx, struct hwp_region_info *info);

/*
 * hwp_regionset_nr_series - how many rows region @region has: its events,
 * then its metrics; 0 past the last region. Since: 0.2
 */
HWP_API size_t hwp_regionset_nr_series(const struct hwp_regionset *rs, size_t region);

/*
 * hwp_regionset_series - row @idx of region @region, as hwp_result_series()
 * describes a result's, with one run: values[0] is the count over all
 * calls (scaled for multiplexing and sparse measurement) or the metric,
 * percent_running[0] the percent of its enabled time an event counted
 * (NAN: never), NAN where not counted or undefined, with the reason.
 * Borrowed from @rs. Errors: -EINVAL. Since: 0.2
 */
HWP_API int hwp_regionset_series(const struct hwp_regionset *rs, size_t region,
				 size_t idx, struct hwp_series_info *info);

/* ------------------------------------------------------------------------
 * Sampling: hwprof record
 *
 * A recording samples events on every CPU for its target, as perf record
 * does, into one kernel ring buffer a CPU, and writes what the kernel
 * reports (samples, and the MMAP2, COMM, FORK, EXIT, LOST and THROTTLE
 * records that make addresses resolvable after the process is gone) to a
 * file in perf's perf.data format, which `perf report -i` reads too. The
 * file is written under a temporary name and renamed into place by
 * hwp_record_finish(); without a path it is kept in memory for
 * hwp_profile_from_record().
 *
 * Typical use:
 *	hwp_record_new(&opts, &r);
 *	hwp_record_open(r);		(opts.enable_on_exec: the command enables it)
 *	hwp_record_enable(r);
 *	while (running)
 *		poll hwp_record_fd(r), then hwp_record_read(r);
 *	hwp_record_finish(r);
 */

enum hwp_callchain {
	HWP_CALLCHAIN_NONE = 0,
	/* Frame pointers, walked by the kernel (perf record -g): the code
	 * must keep them (-fno-omit-frame-pointer). */
	HWP_CALLCHAIN_FP,
	/* DWARF (perf record --call-graph dwarf): each sample keeps the user
	 * registers and a copy of the top of the user stack (stack_size
	 * bytes), which a profile unwinds with the modules' unwind tables
	 * (.eh_frame), so code built without frame pointers gets its
	 * callers. The kernel's part of a chain is walked by the kernel. The
	 * file is perf's format: perf report unwinds it too. Needs an
	 * architecture hwprof knows the registers of (x86-64, arm64).
	 * Since: 0.2 (before, -EOPNOTSUPP) */
	HWP_CALLCHAIN_DWARF,
};

struct hwp_record_opts {
	size_t sz;
	/* The events to sample (an event list, as above). NULL: cycles at
	 * the highest precise_ip the PMU takes, or cpu-clock where the
	 * machine has no PMU (hwp_record_info() says so). */
	const char *events;
	uint64_t freq;		/* samples/s of each event on each CPU; default 4000 */
	uint64_t period;	/* instead of freq: one sample every @period events */
	enum hwp_callchain callchain;
	enum hwp_scope scope;	/* what to sample, as for counting sessions */
	pid_t pid;		/* see enum hwp_scope; 0: the calling thread or process */
	const char *cpus;	/* HWP_SCOPE_CPUS: a CPU list; NULL: all online CPUs */
	bool no_inherit;	/* do not sample threads and children created later */
	bool enable_on_exec;	/* start when the target calls exec() (a new command) */
	size_t mmap_pages;	/* data pages per CPU ring, a power of two; default 128 */
	/* perf.data path; NULL: keep the recording in memory; "-": standard
	 * output, in perf's pipe format (perf record -o -), since 0.2, as is
	 * any path that is not a regular file (a FIFO, /dev/null). A file is
	 * 0600 whatever the umask, and a non-empty one it replaces is kept
	 * as PATH.old (as perf record does), since 0.2 */
	const char *output;
	/* The command line kept in the file (NULL-terminated), or NULL. */
	char *const *argv;
	/* HWP_CALLCHAIN_DWARF: the bytes of user stack copied with each
	 * sample, a multiple of 8 up to 65528; 0: 8192, as perf. A chain
	 * deeper than the copy stops early, and the profile says so
	 * (hwp_profile_info's unwind counts). Since: 0.2 */
	uint32_t stack_size;
	/* Off-CPU time: also sample context-switches at every switch (period
	 * 1, whatever @freq or @period say of the other events), with call
	 * chains (HWP_CALLCHAIN_FP where @callchain is NONE), and record the
	 * switches (PERF_RECORD_SWITCH, perf record --switch-events), which
	 * time each interval until the thread runs again: a profile of the
	 * file weighs each such sample by it (hwp_profile_info's off_cpu).
	 * @events may name events to sample as well (cpu-clock: on-CPU time
	 * in the same file), or be NULL for the switches alone. Needs no PMU
	 * and no tracefs, but the kernel's samples: hwp_record_open() fails
	 * with -EACCES where only user space may be sampled. Since: 0.2 */
	bool off_cpu;
	size_t :0;
};

/* What a recording saw. Filled by hwp_record_info(). */
struct hwp_record_info {
	size_t sz;
	const char *event;	/* the event list sampled (after a fallback) */
	/* Why the default event was replaced, and which events sample user
	 * space only because the kernel refused the rest (sentences joined
	 * by "; "), or NULL when no fallback was taken */
	const char *fallback;
	uint64_t samples;	/* samples written */
	/* Samples the kernel dropped because a ring buffer was full, of all
	 * events: counted as hwp_profile_info() counts them in the file. */
	uint64_t lost;
	/* Times the kernel throttled sampling (THROTTLE records). */
	uint64_t throttled;
	unsigned int max_sample_rate;	/* kernel.perf_event_max_sample_rate now, Hz */
	uint64_t freq;		/* the frequency asked of the kernel, or 0 */
	uint64_t period;	/* the period asked of the kernel, or 0 */
	/* Why sampling stopped before the end: writing the file failed (a
	 * full disk), and hwp_record_finish() ended the file at the last
	 * complete round, whose samples it holds (samples counts those).
	 * NULL when the recording is whole. Since: 0.2 */
	const char *stopped;
};

struct hwp_record;

/*
 * hwp_record_new - a recording that will sample as @opts says
 * @opts: NULL for defaults (the calling thread, cycles or cpu-clock, in memory)
 * @out: free it with hwp_record_free()
 *
 * Opens nothing yet. Errors: -HWP_ERR_SYNTAX or -HWP_ERR_UNKNOWN_EVENT for
 * the event list, -EINVAL for options that exclude each other (freq and
 * period, a CPU list without HWP_SCOPE_CPUS, a ring that is not a power of
 * two, "-" as output, a stack_size that is not a multiple of 8 up to 65528
 * or without HWP_CALLCHAIN_DWARF), -EOPNOTSUPP for HWP_CALLCHAIN_DWARF on
 * an architecture whose registers hwprof does not know, -ENOMEM.
 * Since: 0.1
 */
HWP_API int hwp_record_new(const struct hwp_record_opts *opts, struct hwp_record **out);

/*
 * hwp_record_open - open the events, map the ring buffers, start the file
 *
 * Writes the attributes, an MMAP record of the kernel's text and, for a
 * target that already runs (not enable_on_exec), the COMM and MMAP2
 * records of its threads and executable mappings, read from /proc (for
 * HWP_SCOPE_CPUS, of every process). The events start disabled unless
 * they wait for exec(). They are opened as a counting session opens them,
 * with the same fallbacks: lower precision, user space only where the
 * kernel refuses to be sampled (hwp_record_info() says so), a raised
 * open-file limit. Errors: -EACCES or -EPERM with the
 * perf_event_paranoid explanation, -ESRCH (no such process), the event's
 * error when it cannot be sampled (hwp_errmsg() says why), the output
 * file's error (it is written under a temporary name, renamed into place at
 * the finish), -EINVAL on a second call: a
 * recording is opened once, whether that worked or not; -EACCES for
 * off_cpu where only user space may be sampled (since 0.2). Since: 0.1
 */
HWP_API int hwp_record_open(struct hwp_record *r);

/* hwp_record_enable, hwp_record_disable - start, stop sampling. -EBADF when not
 * open. Since: 0.1 */
HWP_API int hwp_record_enable(struct hwp_record *r);
HWP_API int hwp_record_disable(struct hwp_record *r);

/*
 * hwp_record_fd - a descriptor that polls readable when a ring buffer is
 * half full: call hwp_record_read() then. -1 when not open. Borrowed.
 * Since: 0.1
 */
HWP_API int hwp_record_fd(const struct hwp_record *r);

/*
 * hwp_record_read - move every complete record from the ring buffers to
 * the file, without blocking
 *
 * Call it often enough that the rings do not fill (on hwp_record_fd(),
 * and every few hundred milliseconds); what the kernel could not write is
 * counted as lost. Errors: the write's errno (-ENOSPC, -EFBIG...), or
 * -EIO when a ring buffer holds a record the kernel could not have
 * written whole (a corrupt ring); after either the recording only fails,
 * each call with the same error and message, until hwp_record_finish()
 * keeps what was complete. -EBADF when not open. Since: 0.1
 */
HWP_API int hwp_record_read(struct hwp_record *r);

/*
 * hwp_record_finish - stop, read what is left, close the events, and
 * complete the file: its feature sections and its header, then the
 * rename into place. The file is whole even when the target was stopped
 * by a signal. When writing failed before (hwp_record_read() said so; a
 * full disk), the file ends at the last round that was complete on disk,
 * without feature sections if there is no room for them, and reads:
 * hwp_record_info() gives the reason in stopped, and the samples kept.
 * Errors: a write error that leaves not even that; the file is then
 * removed (an older file under the name is left as it was), and the
 * recording counts as failed: hwp_profile_from_record() refuses it.
 * Since: 0.1
 */
HWP_API int hwp_record_finish(struct hwp_record *r);

/* hwp_record_info - what was recorded so far; strings borrowed from @r.
 * Since: 0.1 (as hwp_record_stats) */
HWP_API int hwp_record_info(const struct hwp_record *r, struct hwp_record_info *st);

/* hwp_record_free - close, and drop an unfinished file. Since: 0.1 */
HWP_API void hwp_record_free(struct hwp_record *r);

/* ------------------------------------------------------------------------
 * Profiles: hwprof report
 *
 * A profile reads a perf.data file (hwprof's or perf's: cpu-clock and
 * hardware events, the IP, TID, TIME, CPU, PERIOD, ID, IDENTIFIER and
 * CALLCHAIN sample fields) and aggregates the samples of one event by
 * instruction address. Addresses are resolved when a report asks, each
 * distinct address once: symbols and source lines through libdw (with
 * separate debug files found by build-id and .gnu_debuglink under
 * /usr/lib/debug), the kernel through /proc/kallsyms. Its memory grows
 * with the distinct addresses and call chains, not with the samples.
 * Percentages are of the summed sample periods, as perf's "Overhead".
 */

struct hwp_profile;


struct hwp_profile_opts {
	size_t sz;
	const char *event;	/* the event to report, by name; NULL: the file's first */
	/* The kernel's symbols: NULL for this machine's /proc/kallsyms when
	 * the recording's kernel is this one (its build-id in the file, as
	 * perf decides; since 0.2), else the copy perf's build-id cache keeps
	 * of that kernel's (~/.debug/[kernel.kallsyms]/ID/kallsyms), else
	 * none, and hwp_module_info.no_symbols says why; the path of a copy
	 * saved where the file was recorded ('cat /proc/kallsyms > FILE' as
	 * root there), always used; "" for none (kernel samples stay
	 * [kernel.kallsyms]+0x...). Either is placed at the recording's
	 * kernel by the reference symbol of its kernel map (another boot,
	 * another KASLR offset; since 0.2). Since: 0.1 */
	const char *kallsyms;
	/* The kernel's code, for the bytes and disassembly of kernel
	 * addresses (HWP_SORT_RIP, annotate): the path of its uncompressed
	 * image (vmlinux, an ELF file), placed at the recording's kernel by
	 * the reference symbol of the file's kernel map; NULL: this
	 * machine's /proc/kcore, when the recording's kernel is this one and
	 * kcore is readable (root). Since: 0.2 */
	const char *vmlinux;
	/* Show symbols as their ELF symbol tables spell them: C++ (Itanium
	 * ABI) and Rust (legacy and v0) names are demangled by default, as
	 * perf report shows them (without C++ parameters or Rust hashes),
	 * where hwprof was built with libiberty. Since: 0.2 */
	bool no_demangle;
	/* Only the samples of these, as perf report's --comms, --pids, --tids
	 * and --dsos: comma-separated lists of command names (a thread's name
	 * when sampled, from COMM records), process ids, thread ids, modules
	 * (by path or file name: "libc.so.6", "[kernel.kallsyms]"); NULL for
	 * all. A sample must match each list given. The others are left out
	 * of every report but counted (hwp_profile_info.filtered_samples),
	 * and percentages stay of all the event's samples, as perf's
	 * default (--percentage absolute). Since: 0.2 */
	const char *comms;
	const char *pids;
	const char *tids;
	const char *dsos;
	/* Only the samples taken on these CPUs (a CPU list, "0-3,6"); NULL:
	 * all. The file's samples must carry their CPU (PERF_SAMPLE_CPU:
	 * hwprof record always asks for it, perf record with -a, -C or
	 * --sample-cpu), else hwp_profile_open() fails with -EINVAL. The
	 * others are counted in hwp_profile_info's other_cpus. Since: 0.2 */
	const char *cpus;
	/* Inlined frames in call chains, as perf report --inline shows them:
	 * where DWARF (libdw) says functions were inlined at a frame's
	 * address, each level is a frame of its own, named "NAME (inlined)",
	 * between the frame's function and its callee, the outermost first
	 * (for code of leaf() inlined into mid() inlined into outer():
	 * "outer", "mid (inlined)", "leaf (inlined)"), as addr2line -i
	 * nests them; in the callers of hwp_entry (a caller is the innermost
	 * function at the call), in hwp_profile_foreach_stack() (and so in
	 * the folded and JSON stacks; without call chains, a sampled
	 * function's chain of one gets its inlined frames too), and in the
	 * speedscope and HTML formats' chains. Each address is looked up
	 * once. Needs debug information (else no change); false: the chains
	 * as the samples' addresses give them. The pprof format always
	 * writes every level, as lines of a location. Since: 0.2 */
	bool inline_frames;
	/* Read this machine's /proc/kallsyms, not the cache of its parsed
	 * symbols. By default the kernel's symbols are kept between profiles
	 * in $XDG_CACHE_HOME/hwprof (else ~/.cache/hwprof), one file a
	 * kernel build, used while its key matches: the kernel's build-id,
	 * the boot (another KASLR offset), _text as this reader sees it
	 * (kptr_restrict), /proc/modules and the BPF programs and links
	 * loaded; anything else (another kernel, a damaged or truncated
	 * file, one not owned by this user) reads /proc/kallsyms and
	 * rewrites the cache; a cache that cannot be written is no error.
	 * The kernel formats /proc/kallsyms anew on each read (tens of
	 * milliseconds); the cache is mapped. Not used without a build-id
	 * in /sys/kernel/notes, where addresses are hidden, or where the BPF
	 * programs cannot be listed (without CAP_SYS_ADMIN). Since: 0.2 */
	bool no_kallsyms_cache;
	/* Read each module's separate debug file itself, not the copy of it
	 * kept with its compressed sections stored decompressed: no copy is
	 * read, none is written. By default, the first profile that reads
	 * DWARF (source lines, inlined frames) from a debug file whose
	 * sections are compressed (as Debian's -dbg packages ship them)
	 * keeps such a copy in $XDG_CACHE_HOME/hwprof (else
	 * ~/.cache/hwprof), named by the module's build-id, and later
	 * profiles read it: libelf maps its sections where it would inflate
	 * the original's anew each time. A copy not of the module's
	 * build-id, cut short, or in a folder not this user's alone is
	 * passed by (and written anew where it can be); a copy that cannot
	 * be written is no error. Since: 0.2 */
	bool no_debug_cache;
	/* The threads that read the file: 1, the caller's alone; 2, one
	 * the library starts reads the records, checks them and puts them
	 * in time order while the caller's aggregates the ones before (a
	 * MB of them in flight at most); 0 (the default), two where the
	 * process may run on two CPUs or more, the load average (1 minute)
	 * leaves one of them idle, the file has 64 MiB of records or more
	 * and its samples carry no stack copies (--call-graph dwarf), else
	 * one: on busy CPUs, for fewer records, or for stack copies (KBs a
	 * sample, copied again), the second thread costs more than it
	 * saves. The profile is the same,
	 * and so is an error in the file, whatever the number; more than 2
	 * is 2 today. A pipe (standard input that is one, a FIFO) is read by
	 * the caller's thread alone, whatever the number: a read that waits
	 * on a quiet writer could not be stopped when the profile fails.
	 * So is a file where the thread cannot be started (no error: the
	 * debug log, HWPROF_LOG_LEVEL=debug, says why). The thread is
	 * joined before hwp_profile_open() returns, whatever it returns; it
	 * blocks every signal. Since: 0.2 */
	unsigned int threads;
	size_t :0;
};

/*
 * hwp_profile_open - read and aggregate a perf.data file
 * @path: the file; "-" reads standard input (since 0.2)
 * @out: free it with hwp_profile_free()
 *
 * Files in perf's pipe format (perf record -o -, to a pipe or saved) are
 * read as a stream, in bounded memory, since 0.2; so are compressed ones
 * (perf record -z), when hwprof was built with libzstd (else
 * -EOPNOTSUPP, and the message says how to build it). Every size and
 * offset in the file is checked: a file that is empty, truncated, not
 * perf.data, or in big-endian format gives -HWP_ERR_FORMAT with the reason
 * in hwp_errmsg(). Records of types hwprof does not use or know, and the
 * AUX area data that follows AUXTRACE records, are skipped and counted
 * (hwp_profile_info.skipped). Errors also: the open's errno, -ENOENT for
 * an event the file does not have (the message lists them), -ENOMEM.
 * Since: 0.1
 */
HWP_API int hwp_profile_open(const char *path, const struct hwp_profile_opts *opts,
			     struct hwp_profile **out);

/*
 * hwp_profile_from_record - aggregate a finished recording (in memory or
 * on disk). Errors as hwp_profile_open(), and -EINVAL when @r is not
 * finished or its hwp_record_finish() failed. @r may be freed afterwards.
 * Since: 0.1
 */
HWP_API int hwp_profile_from_record(const struct hwp_record *r,
				    const struct hwp_profile_opts *opts,
				    struct hwp_profile **out);

/* hwp_profile_free. Since: 0.1 */
HWP_API void hwp_profile_free(struct hwp_profile *p);

/* The totals of a profile. Filled by hwp_profile_info(). */
struct hwp_profile_info {
	size_t sz;
	/* the file's path, "(standard input)" (since 0.2; was "-"), or
	 * "(in memory)" */
	const char *input;
	const char *event;	/* the event reported */
	uint64_t samples;	/* of that event */
	uint64_t period;	/* their summed periods: what percentages are of */
	/* Samples the kernel dropped in the whole file, whatever event they
	 * were of: the LOST records' counts summed, or where larger the
	 * LOST_SAMPLES records' (two counts of the same drops, not added). */
	uint64_t lost;
	uint64_t throttled;	/* THROTTLE records */
	uint64_t skipped;	/* records hwprof does not use, or of unknown events */
	uint64_t other_samples;	/* samples of the file's other events */
	size_t nr_events;	/* events in the file */
	size_t addresses;	/* distinct (module, address) pairs */
	size_t stacks;		/* distinct call chains */
	bool callchains;	/* the samples have call chains */
	/* Where the file was recorded, from its header (HEADER_HOSTNAME,
	 * HEADER_OSRELEASE), or NULL when it does not say */
	const char *hostname;
	const char *osrelease;
	/* When that host or kernel is not this machine's: a sentence saying so,
	 * and that kernel symbols and module paths, which the report reads
	 * here, may not match the recording's; NULL otherwise */
	const char *host_warning;
	/* The samples have DWARF user stacks (perf record --call-graph
	 * dwarf, HWP_CALLCHAIN_DWARF), unwound when the profile was read:
	 * how that went, by sample with a user stack. Since: 0.2 */
	bool dwarf;
	uint64_t unwind_entry;		/* unwound to the outermost frame */
	/* stopped where the stack's copy ended: the chain is deeper */
	uint64_t unwind_stack_short;
	uint64_t unwind_no_info;	/* stopped at a frame without unwind tables */
	uint64_t unwind_failed;		/* stopped for another reason */
	uint64_t stack_size;		/* the stack copy the samples had, bytes */
	/* A copy that would have been enough for 95% of the unwind_stack_short
	 * samples, at least (what they read past the copy, rounded up to a
	 * kilobyte; 65528, the kernel's most, when even that is too small):
	 * record with --call-graph dwarf,SIZE. 0 without such samples. */
	uint64_t stack_size_needed;
	/* The modules of the unwind_no_info stops, "path (N), ...", most
	 * first, or NULL */
	const char *unwind_no_info_modules;
	/* Why no chain could be unwound (hwprof built without libunwind, an
	 * architecture it does not know), or NULL */
	const char *unwind_unavailable;
	/* Samples of the event that hwp_profile_opts' comms, pids, tids or
	 * dsos left out (counted in samples and period), and their summed
	 * period. Since: 0.2 */
	uint64_t filtered_samples;
	uint64_t filtered_period;
	/* The reported event is context-switches in a file with switch
	 * records (hwp_record_opts' off_cpu, perf record -e context-switches
	 * -c 1 -g --switch-events): each sample, taken where a thread left
	 * the CPU, weighs the nanoseconds until that thread ran again, and
	 * every period (entries, stacks, percentages) is time off the CPU.
	 * The idle task's switches are not weighed (its time off the CPU is
	 * the CPU's busy time). off_cpu_unmatched counts the samples whose
	 * thread did not run again before the recording ended (or whose
	 * switch back was lost): they weigh 0. Since: 0.2 */
	bool off_cpu;
	uint64_t off_cpu_unmatched;
	/* Samples of the reported event left out by hwp_profile_opts' cpus.
	 * Since: 0.2 */
	uint64_t other_cpus;
	/* The reported event's frame-pointer chains (-g) with a user part,
	 * and those of them whose walk found no caller of the first user
	 * frame in a module: most are, from code built without frame
	 * pointers, whose callers --call-graph dwarf finds. Since: 0.2 */
	uint64_t fp_chains;
	uint64_t fp_one_frame;
};

/* hwp_profile_info - fill @info; its strings are borrowed from @p. Since: 0.1 */
HWP_API int hwp_profile_info(const struct hwp_profile *p, struct hwp_profile_info *info);

/* One caller of an entry, from the call chains. */
struct hwp_caller {
	const char *name;	/* its symbol, or module+0xoffset */
	const char *dso;
	uint64_t samples;	/* of the entry's samples, those called from here */
	/* of the entry's samples; in an off-CPU profile (hwp_profile_info's
	 * off_cpu), of its time off the CPU, and the callers are ranked by
	 * it (since 0.2) */
	double percent;
};

/* One row of a report. */
struct hwp_entry {
	size_t sz;
	size_t rank;		/* 0 for the hottest */
	/* What the row stands for: "hot", "hot+0x1b", "file.c:12", a module. */
	const char *name;
	const char *symbol;	/* the function; NULL: no symbol covers the address */
	/* The module's path, "[kernel.kallsyms]", "[vdso]" or "[unknown]". */
	const char *dso;
	uint64_t samples;
	uint64_t period;
	double percent;		/* of the profile's period */
	/* RIP: the instruction's address in its module (as objdump shows it);
	 * SYM: the symbol's */
	uint64_t address;
	uint64_t offset;	/* RIP: the address's offset in its symbol */
	const char *file;	/* RIP, LINE: the source file, or NULL */
	unsigned int line;
	/* RIP, LINE: the innermost function inlined there, or NULL */
	const char *inlined;
	const uint8_t *bytes;	/* RIP: the instruction's bytes, or NULL */
	size_t nr_bytes;
	const char *disasm;	/* RIP: its disassembly (AT&T syntax on x86), or NULL */
	/* With call chains, the most frequent first. */
	const struct hwp_caller *callers;
	size_t nr_callers;
	/* HWP_SORT_COMM, HWP_SORT_PID: the thread's name (for pid, its last),
	 * else NULL. Since: 0.2 */
	const char *comm;
	/* HWP_SORT_PID: the thread's id; -1 otherwise. Since: 0.2 */
	int64_t tid;
	/* HWP_SORT_PID: the thread's last name (with HWP_SORT_COMM too, where
	 * @comm is the row's: "sh" before the exec, "yes" here), else NULL.
	 * Since: 0.2 */
	const char *thread_comm;
};

/* A walk callback: return 0 to go on, anything else to stop (it is returned). */
typedef int (*hwp_entry_fn)(const struct hwp_entry *e, void *ctx);

/*
 * hwp_profile_foreach_entry - walk the @n hottest entries (0: all), hottest first
 * @fn, @ctx: called once an entry; @e and what it points to live during
 *	      the call, except symbol, dso, file and inlined, which live as
 *	      long as @p
 *
 * Ties are broken by name, so the order is stable. Returns 0, what @fn
 * returned to stop, or a negative error. Since: 0.1 (as hwp_profile_top)
 */
HWP_API int hwp_profile_foreach_entry(struct hwp_profile *p, enum hwp_sort sort, size_t n,
			    hwp_entry_fn fn, void *ctx);

/* A module that samples landed in, and what hwprof could read of it. */
struct hwp_module_info {
	size_t sz;
	const char *path;
	uint64_t samples;
	bool has_symbols;
	/* Source lines were found. Debug information is looked for only once
	 * a report needed lines (HWP_SORT_RIP, HWP_SORT_LINE, annotate), as
	 * loading it costs more than a report by symbol: false, with
	 * no_debuginfo NULL, until then. */
	bool has_debuginfo;
	const char *no_symbols;		/* why there are no symbols, or NULL */
	const char *no_debuginfo;	/* why there are no source lines, or NULL */
	/* Why the code of a kernel module (the kernel's, a kernel module's)
	 * cannot be read for bytes and disassembly, or NULL. Since: 0.2 */
	const char *no_code;
	/* The file read for this module, where the one at path is another
	 * build than the recording's (its build-id differs: rebuilt or
	 * replaced since): a copy of the recorded build, found by build-id
	 * in perf's build-id cache (~/.debug/.build-id), in
	 * /usr/lib/debug/.build-id (a debug file: symbols and lines, no
	 * code), or fetched from the debuginfod servers DEBUGINFOD_URLS
	 * names into their client's cache ($DEBUGINFOD_CACHE_PATH, else
	 * ~/.cache/debuginfod_client; the module, and its debug file for
	 * lines; a file whose build-id is another is not used). NULL where path
	 * itself was read, and until symbols were looked for. Without a
	 * copy, no_symbols says where hwprof looked. Since: 0.2 */
	const char *read_from;
	bool from_debuginfod;	/* read_from came from debuginfod. Since: 0.2 */
};

typedef int (*hwp_module_fn)(const struct hwp_module_info *m, void *ctx);

/* A call chain, with its samples. */
struct hwp_stack {
	size_t sz;
	const char *const *frames;	/* function names, the outermost first */
	size_t nr_frames;
	uint64_t samples;
	uint64_t period;
	/* A DWARF chain whose unwinding stopped early: its outermost frame
	 * is "[truncated]", not the program's entry. Since: 0.2 */
	bool truncated;
};

typedef int (*hwp_stack_fn)(const struct hwp_stack *st, void *ctx);

/*
 * hwp_profile_foreach_stack - walk the distinct call chains by function, most
 * samples first; chains that differ only in addresses within the same
 * functions are one. Without call chains, each sampled function is a
 * chain of one (with hwp_profile_opts' inline_frames, with the functions
 * inlined where it was sampled). Since: 0.1 (as hwp_profile_stacks)
 */
HWP_API int hwp_profile_foreach_stack(struct hwp_profile *p, hwp_stack_fn fn, void *ctx);

/* One instruction of an annotated function. */
struct hwp_annotate_line {
	size_t sz;
	uint64_t address;
	uint64_t samples;
	double percent;		/* of the function's period */
	const uint8_t *bytes;
	size_t nr_bytes;
	const char *disasm;
	const char *file;	/* its source line, or NULL */
	unsigned int line;
	bool new_line;		/* the first instruction of another line than the last */
	const char *source;	/* that line's text, when the file can be read, or NULL */
	/* with new_line and no source: why the text is not shown (the file is
	 * missing, not a regular file, too large...), or NULL */
	const char *no_source;
	/* The function, the same on every line: */
	const char *dso;	/* its module */
	uint64_t start;		/* its address there (objdump's) */
	uint64_t function_samples;	/* all its samples */
	size_t nr_namesakes;	/* other sampled functions of the same name */
	/* those, the hottest first: "NAME@0xADDRESS (N samples, MODULE), ...",
	 * or NULL when there are none */
	const char *namesakes;
};

typedef int (*hwp_annotate_fn)(const struct hwp_annotate_line *l, void *ctx);

/*
 * hwp_profile_write - write a report of @p to @f
 * @opts: NULL for text, sorted by symbol, every entry; else its format
 *	  (TEXT, CSV, JSON, FOLDED or, since 0.2, SPEEDSCOPE, PPROF and HTML),
 *	  sort, top, separator and annotate
 *
 * The formats are in hwprof-report(1), the JSON schema in hwprof-formats(5).
 * Errors: those of hwp_profile_foreach_entry() and of reading the binary
 * to annotate, and
 * the write's errno (-ENOSPC), found by flushing @f. Since: 0.1; 0.2 takes
 * struct hwp_write_opts, as every writer does (0.1 took struct hwp_report_opts)
 */
HWP_API int hwp_profile_write(struct hwp_profile *p, FILE *f,
			      const struct hwp_write_opts *opts);

/* ------------------------------------------------------------------------
 * Profile differences: which functions (instructions, lines, modules) take
 * a larger or smaller share of the samples in B than in A, beyond the
 * noise of sampling?
 *
 * Each row is a function (or what opts.sort groups by) of either profile,
 * matched by its name and its module's file name (not its directory, so
 * that two builds or installs match). A row's share is its samples over
 * the event's samples: the test needs counts, so shares are of samples,
 * not of summed periods as hwp_profile_write()'s percentages are (the two
 * agree with a fixed period, -c, and nearly with a fixed frequency).
 *
 * The test: a row holds xa of A's na samples and xb of B's nb. Fisher's
 * exact test on the 2x2 table (in the row or not, A or B) asks whether the
 * two proportions differ, taking each sample as an independent draw. It is
 * exact, where the two-proportion z-test and the chi-square test on the
 * same table are approximations that fail for the rows of a few samples
 * that most of a profile is, and it costs about the square root of the
 * row's samples. The interval of the difference is Newcombe's hybrid score
 * interval (from Wilson's intervals of each share), not adjusted for the
 * number of rows. Holm's correction over every row keeps the chance of any
 * false "increase" or "decrease" below alpha.
 *
 * What this does not know: samples are not independent draws when a
 * program runs in phases, and two runs of a program differ by more than
 * sampling (another input, another machine's load). A significant change
 * is beyond sampling noise, not necessarily beyond run-to-run variation:
 * record each side more than once to see that. Shares add up to 100%, so
 * one function that grows makes the others' shares shrink, even when
 * their own cost did not change: opts.absolute compares costs instead.
 *
 * Absolute (opts.absolute): a row's value is its events per recording,
 * its samples times the mean period a sample of its side stands for
 * (with a fixed period, -c, or a clock event, that period), or with
 * opts.per_second per second of recording (from the side's first sample
 * to its last). For one run of a fixed workload each, per recording is
 * the row's cost; per second suits recordings of a steady load for a
 * time. The test is the exact conditional test of two Poisson rates
 * (B's part of the row's samples is binomial when the rates are equal),
 * the interval Clopper and Pearson's of the ratio B / A; Holm's
 * correction as above. With a hardware event at a frequency (-F) the
 * period of a sample varies, and per recording is an estimate.
 *
 * Functions of one name in one module (two static functions) are two
 * rows, as the report keeps them, told apart by their source file, or
 * where no line is known by their address ("work@0x1139", which matches
 * only the same build).
 */

struct hwp_profile_diff;

struct hwp_profile_diff_opts {
	size_t sz;
	/* Rows by symbol (default), instruction, line or module; not by CPU
	 * (-EINVAL). */
	enum hwp_sort sort;
	double alpha;		/* the significance level; 0: 0.05 */
	bool no_correction;	/* do not apply Holm's correction across the rows */
	/* Compare each row's events per recording, not its share (above);
	 * with per_second (which implies it), per second of recording.
	 * Since: 0.2 */
	bool absolute;
	bool per_second;
	/* "OLD=NEW" strings: A's module OLD is B's NEW (file names), as when
	 * a program was built as bench-old and bench-new. None: when the two
	 * sides' most sampled programs differ in name and neither has the
	 * other's, they are one module (hwp_profile_diff_info says so).
	 * Copied. Since: 0.2 */
	const char *const *map_modules;
	size_t nr_map_modules;
	size_t :0;
};

/* The totals of a difference. */
struct hwp_profile_diff_info {
	size_t sz;
	const char *a_input, *b_input;	/* the files, as hwp_profile_info() names them */
	const char *event;		/* the event of both */
	uint64_t a_samples, b_samples;	/* of that event */
	enum hwp_sort sort;
	double alpha;
	size_t nr_rows;
	size_t nr_tests;	/* the rows tested: the family of Holm's correction */
	bool corrected;		/* Holm's correction applied (more than one test) */
	size_t nr_increase, nr_decrease;	/* significant rows */
	/* As the opts: what the rows' values and verdicts are of. Since: 0.2 */
	bool absolute, per_second;
	/* Each side's seconds from its first sample to its last (0 when its
	 * samples carry no time), and the mean period of its samples: what
	 * one sample stands for. Since: 0.2 */
	double a_seconds, b_seconds;
	double a_period, b_period;
	/* Each side's most sampled program (not a library, the kernel or
	 * anonymous code), its file name, or NULL; auto_matched: they differ
	 * in name and were compared as one module (no map_modules given).
	 * Since: 0.2 */
	const char *a_program, *b_program;
	bool auto_matched;
	size_t nr_matched;	/* rows with samples in both. Since: 0.2 */
};

/* One row of a difference. */
struct hwp_profile_diff_row_info {
	size_t sz;
	/* As hwp_entry's: "hot", "hot+0x1b", "file.c:12"; a module's file name. */
	const char *name;
	/* The module's file name: "libc.so.6", "[kernel.kallsyms]". */
	const char *dso;
	uint64_t a_samples, b_samples;
	double a_share, b_share;	/* percent of each side's samples */
	double diff;		/* b_share - a_share, in points */
	double ci_low, ci_high;	/* 95% interval of diff, in points */
	/* b_share / a_share (absolute: b_value / a_value); NAN when the row
	 * has no sample in A. */
	double ratio;
	double p_value;		/* after Holm's correction, when it applies */
	/* Fisher's exact test, two-sided; absolute: the Poisson rates' */
	double p_raw;
	/* p_value < alpha: increase or decrease (of the share, or absolute:
	 * of the value); else unchanged. */
	enum hwp_verdict verdict;
	/* Of one of two functions of this name in the module: its source
	 * file's name, else NULL. Since: 0.2 */
	const char *file;
	/* What is compared: a_share and b_share, or absolute: events per
	 * recording or per second. ratio is b_value / a_value. Since: 0.2 */
	double a_value, b_value;
	/* Absolute: the 95% interval of ratio; NAN by share. Since: 0.2 */
	double ratio_low, ratio_high;
};

/*
 * hwp_profile_diff_new - the difference of @b against @a, row by row
 * @a: the baseline; @b: the candidate. Each reports its event (struct
 *     hwp_profile_opts.event); the two must be the same event. Neither is
 *     kept: they may be freed afterwards.
 * @opts: NULL for rows by symbol, alpha 0.05, Holm's correction
 * @out: free it with hwp_profile_diff_free()
 *
 * Rows come sorted by the size of their change, |diff| (absolute: of
 * their values), the significant ones first, then the others; ties by
 * name. Errors: -HWP_ERR_MISMATCH when the two profiles report different
 * events (the message names both and says how to pick one); -ENODATA
 * when a side has no sample of its event (the message names the file),
 * absolute when its samples have no period, or per_second when they
 * carry no time; -EINVAL for a NULL argument, an unknown sort, alpha
 * outside (0, 1) or a map_modules string that is not OLD=NEW;
 * -EOPNOTSUPP for absolute on an off-CPU profile (its samples weigh
 * times: no count of a cost), or for opts bytes this version does not
 * know; those of hwp_profile_foreach_entry(); -ENOMEM. Since: 0.2
 */
HWP_API int hwp_profile_diff_new(struct hwp_profile *a, struct hwp_profile *b,
				 const struct hwp_profile_diff_opts *opts,
				 struct hwp_profile_diff **out);

/* hwp_profile_diff_free. Since: 0.2 */
HWP_API void hwp_profile_diff_free(struct hwp_profile_diff *d);

/* hwp_profile_diff_info - fill @info; its strings are borrowed from @d.
 * Errors: -EINVAL for a NULL argument or a too small info->sz. Since: 0.2 */
HWP_API int hwp_profile_diff_info(const struct hwp_profile_diff *d,
				  struct hwp_profile_diff_info *info);

/*
 * hwp_profile_diff_write - write the difference to @f
 * @opts: NULL for text, every row; else its format (TEXT, CSV or JSON),
 *	  top (rows to write; 0: all), separator (CSV) and no_big_num (TEXT)
 *
 * TEXT: a header with the files, their samples, the test and the
 * correction, then a table of rows. CSV: a header line, then a line a
 * row. JSON: schema hwprof-diff/1 (hwprof-formats(5)). Errors: -EOPNOTSUPP for folded
 * stacks, -EINVAL, or the write's errno (-ENOSPC), found by flushing @f.
 * Since: 0.2
 */
HWP_API int hwp_profile_diff_write(const struct hwp_profile_diff *d, FILE *f,
				   const struct hwp_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_HWPROF_H */
