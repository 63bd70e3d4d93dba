/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/core.h>: what every other header builds on: the conventions,
 * HWP_API and HWP_OPTS, errors, logging, and the formats and options of
 * every writer. One of the headers <hwprof/hwprof.h> includes; it
 * compiles alone.
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
#ifndef HWPROF_API_CORE_H
#define HWPROF_API_CORE_H

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
 * hwp_sort_parse - the sort keys of a list of names ("comm,sym")
 * @list: sort keys' names (hwp_enum_name() of HWP_ENUM_SORT), separated by
 *	  commas
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
 * Names of the enums: one pair for every public enum
 */

/* Which enum hwp_enum_name() and hwp_enum_parse() name. Since: 0.2 */
enum hwp_enum {
	HWP_ENUM_LOG_LEVEL = 0,	/* enum hwp_log_level: error, warn, info, debug */
	HWP_ENUM_EVENT_SOURCE,	/* enum hwp_event_source: generic, pfm, raw... */
	HWP_ENUM_SCOPE,		/* enum hwp_scope: thread, process, cpus */
	HWP_ENUM_AGGR,		/* enum hwp_aggr: global, cpu, core, die... */
	HWP_ENUM_EVENT_STATUS,	/* enum hwp_event_status: counting, not-supported... */
	HWP_ENUM_CAPTURE,	/* enum hwp_capture: none, stdout, stderr */
	HWP_ENUM_STATS_TEST,	/* enum hwp_stats_test: welch, mann-whitney */
	HWP_ENUM_ORDER,		/* enum hwp_order: abba, random, sequential */
	HWP_ENUM_FORMAT,	/* enum hwp_format: text, csv, json, folded... */
	HWP_ENUM_SORT,		/* enum hwp_sort: sym, rip, line, dso, cpu... */
	HWP_ENUM_SERIES_KIND,	/* enum hwp_series_kind: event, metric, score, time */
	HWP_ENUM_VERDICT,	/* enum hwp_verdict: unchanged, increase... n/a */
	HWP_ENUM_CALLCHAIN,	/* enum hwp_callchain: none, fp, dwarf */
};

/*
 * hwp_enum_name - the name of @value of enum @e, as the CLI's options take
 * it and the outputs write it ("csv", "socket", "mann-whitney")
 *
 * Returns a static string, or NULL when @value is not one of @e's (or @e
 * is no enum). Thread-safe. Since: 0.2 (it replaces 0.1's hwp_verdict_name
 * and 0.2's hwp_sort_name, hwp_aggr_name and hwp_order_name)
 */
HWP_API const char *hwp_enum_name(enum hwp_enum e, int value);

/*
 * hwp_enum_parse - the value of enum @e that hwp_enum_name() names @name
 * @value: set on success
 *
 * Errors: -EINVAL for a name that is none of @e's (the message lists
 * them), a NULL argument or an unknown @e. Thread-safe. Since: 0.2
 */
HWP_API int hwp_enum_parse(enum hwp_enum e, const char *name, int *value);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_CORE_H */
