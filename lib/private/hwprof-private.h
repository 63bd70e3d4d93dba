/* SPDX-License-Identifier: MIT */
/*
 * The CLI's plumbing: what the hwprof command needs from the library that
 * is not API (docs/api.md says where the line runs and why). Output files
 * written under a temporary name, escaping for terminals, the builders of
 * a result and a sweep from the CLI's runs, scores scanned from a
 * command's output, and the hold of the kernel's switches between runs.
 *
 * These functions are exported in the version node HWPROF_PRIVATE, as
 * glibc exports what its own tools need in GLIBC_PRIVATE: for the hwprof
 * command built from the same tree and for the suite, and for nothing
 * else. The header is not installed, the names (hwpriv_) say it, and they
 * may change in any release without a word in NEWS.md. An embedder reads
 * and writes results through <hwprof/hwprof.h> alone.
 */
#ifndef HWPROF_PRIVATE_H
#define HWPROF_PRIVATE_H

#include <hwprof/hwprof.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Scores: the benchmark's own number (throughput, transactions a second),
 * taken from what it prints on each run, as a row of the result
 */

/* The longest line a score scans whole; see hwpriv_score_feed(). */
#define HWP_SCORE_LINE_MAX 4096

struct hwpriv_score;

/*
 * hwpriv_score_new - a score, from "NAME=REGEX"
 * @def: NAME, a word a metric formula can name (a letter or '_', then
 *	 letters, digits, '_', '.', ':' and '-' between two of them; not
 *	 "seconds"), '=', and a POSIX extended regular expression (regcomp()
 *	 with REG_EXTENDED) with at least one capture group, e.g.
 *	 "tput=Throughput ([0-9.]+) MB/sec". The text the first group captures
 *	 is the score: a decimal number with an optional sign, fraction and
 *	 exponent ("1.5e3"); anything else is an error, never a guess.
 * @out: free it with hwpriv_score_free()
 *
 * Errors: -HWP_ERR_SYNTAX for a bad name, a regular expression regcomp()
 * rejects (its message) or one without a group; -EINVAL for NULL; -ENOMEM.
 * Since: 0.2
 */
HWP_API int hwpriv_score_new(const char *def, struct hwpriv_score **out);

/* hwpriv_score_free. Since: 0.2 */
HWP_API void hwpriv_score_free(struct hwpriv_score *sc);

/* hwpriv_score_name, hwpriv_score_regex: borrowed from @sc. Since: 0.2 */
HWP_API const char *hwpriv_score_name(const struct hwpriv_score *sc);
HWP_API const char *hwpriv_score_regex(const struct hwpriv_score *sc);

/* hwpriv_score_reset - forget what was fed, before the next run. Since: 0.2 */
HWP_API void hwpriv_score_reset(struct hwpriv_score *sc);

/*
 * hwpriv_score_feed - scan @len bytes of the command's output, as it comes
 *
 * The output is cut into lines at '\n', and each line is matched on its
 * own: the score is the first group of the first match in the LAST line
 * that matches (a benchmark that prints progress and then its result, or
 * appends a line a run to a file, is scored by its latest line). Memory is
 * bounded: one line of at most HWP_SCORE_LINE_MAX bytes is kept; of a
 * longer line only the first HWP_SCORE_LINE_MAX bytes are matched (the
 * rest is skipped, and hwpriv_score_value() says so when nothing matched).
 * A NUL byte ends what is matched of its line. Errors: -EINVAL. Since: 0.2
 */
HWP_API int hwpriv_score_feed(struct hwpriv_score *sc, const void *buf, size_t len);

/*
 * hwpriv_score_value - the score of what was fed since the last reset
 *
 * The last line, when it has no '\n', is matched too. Errors: -ENOENT
 * when no line matched (the message names the score and its regular
 * expression, how many lines were scanned and how many were cut),
 * -HWP_ERR_UNDEFINED when the group captured no number (the message shows
 * the text and its line), -EINVAL. Since: 0.2
 */
HWP_API int hwpriv_score_value(struct hwpriv_score *sc, double *value);

/* ------------------------------------------------------------------------
 * Output files that never end up half-written
 */

struct hwpriv_ofile;

/*
 * hwpriv_ofile_open - start writing @path
 * @path: a file path, or "-" for stdout
 *
 * A regular file is written under a new temporary name in the same
 * directory (created with O_EXCL, mode 0666 less the umask) and renamed
 * into place by hwpriv_ofile_commit(), so an interrupted writer never leaves
 * a half-written file under the real name. A path that exists and is not
 * a regular file (a pipe, /dev/null, /dev/full) is written directly; a
 * FIFO that no one reads yet is -ENXIO, not a wait (since 0.2).
 * Errors: the errno of creating the file, with the path and the fix in
 * hwp_errmsg(). Since: 0.1
 */
HWP_API int hwpriv_ofile_open(const char *path, struct hwpriv_ofile **out);

/* hwpriv_ofile_stream - the stream to write to. Borrowed. Since: 0.1 */
HWP_API FILE *hwpriv_ofile_stream(struct hwpriv_ofile *of);

/*
 * hwpriv_ofile_commit - flush, check and rename into place; frees @of
 *
 * Errors: the errno of the first failed write, flush, fsync or rename
 * (-ENOSPC for a full disk); the temporary file is removed and the real
 * name is left as it was. Since: 0.1
 */
HWP_API int hwpriv_ofile_commit(struct hwpriv_ofile *of);

/* hwpriv_ofile_abort - drop what was written; frees @of. Since: 0.1 */
HWP_API void hwpriv_ofile_abort(struct hwpriv_ofile *of);

/*
 * hwpriv_fputs_escaped - write a string for a terminal, control characters escaped
 * @s: a message, a name from argv, a file or a profile
 * @f: the stream
 *
 * An ESC or another control character in what a message quotes would drive
 * the terminal that shows it: they are written as \xNN (C0 and DEL) and
 * \u00NN (C1, U+0080 to U+009F); newlines and tabs as they are. The text
 * format of every hwp_*_write() does the same. For hwp_errmsg(), which
 * quotes what it was given; a call that succeeds leaves that message as
 * it is. Returns 0, or -EINVAL or -EIO (the stream has an error). Since: 0.2
 */
HWP_API int hwpriv_fputs_escaped(const char *s, FILE *f);

/* ------------------------------------------------------------------------
 * Holds: the kernel's switches for an event list's events, kept on
 * between the sessions of repeated runs
 */

struct hwpriv_hold;

/*
 * hwpriv_hold_new - keep the kernel's switches for @evl's events on between
 * sessions
 * @evl: the events of the sessions to come
 * @out: the hold; free it with hwpriv_hold_free() after the last session
 *
 * Sessions of the same events opened and closed one after another (repeated
 * runs) pay, each, for what the kernel does at the first open and the last
 * close of an event: a software event other than cpu-clock and task-clock
 * turns a static key on and off (the kernel's text patched, with an
 * interrupt to every CPU), a tracepoint registers its probe and
 * unregisters it, waiting for an RCU grace period. A hold opens one
 * disabled instance of each such event on the calling thread, not
 * inherited and never enabled, so that those switches stay on until
 * hwpriv_hold_free(): it counts nothing, takes no hardware counter, and the
 * sessions' counts are what they would be without it. Hardware events are
 * not held. An event that cannot be held is left to the sessions (a debug
 * message says why): a hold never fails for an event. Errors: -EINVAL,
 * -ENOMEM. Since: 0.2
 */
HWP_API int hwpriv_hold_new(const struct hwp_evlist *evl, struct hwpriv_hold **out);

/* hwpriv_hold_nr_events - how many events @h holds open. Since: 0.2 */
HWP_API size_t hwpriv_hold_nr_events(const struct hwpriv_hold *h);

/* hwpriv_hold_free - close what @h holds (NULL: nothing). Since: 0.2 */
HWP_API void hwpriv_hold_free(struct hwpriv_hold *h);

/*
 * hwpriv_metric_input - the @idx-th event name @m's formula reads, as the
 * formula writes it (msr@aperf@), for 'hwprof list --metrics' to probe
 * each (hwp_metric_event_spec() gives the list that counts them)
 * @idx: from 0; each name once, in the order the formula first has it
 *
 * "seconds" and numbers are not inputs. Returns NULL past the last, or for
 * a NULL @m; the name is borrowed from @m. Thread-safe for a built-in @m.
 * Since: 0.2
 */
HWP_API const char *hwpriv_metric_input(const struct hwp_metric *m, size_t idx);

/* ------------------------------------------------------------------------
 * What only 'hwprof stat' adds to a result (<hwprof/result.h> builds one), and
 * sweeps of results
 */

/*
 * hwpriv_result_set_target - what was counted, when it was not the command:
 * "process id 1234", "system wide", "CPUs 0-3" (copied; NULL: the command).
 * The text report's title and the JSON's "target" show it. Since: 0.1
 */
HWP_API int hwpriv_result_set_target(struct hwp_result *r, const char *target);

/*
 * hwpriv_result_add_score - a score row: the benchmark's own number, one a run
 * @name: as hwpriv_score_new() takes it (copied); metrics may read it
 *	  (hwp_metric_check_names())
 *
 * Add scores before the first run; their rows come after the metrics, in
 * the order added, and every run then gives their values with
 * hwpriv_result_add_scored_run(). Errors: -EBUSY after the first run or for a
 * result read from a file; -EEXIST for a name that is a score, a metric or
 * a built-in metric already; -HWP_ERR_SYNTAX for a bad name; -EINVAL;
 * -ENOMEM. Since: 0.2
 */
HWP_API int hwpriv_result_add_score(struct hwp_result *r, const char *name);

/*
 * hwpriv_result_set_run_order - where the last run added ran among the runs
 * of variants measured in turn (hwp_stats_order())
 * @experiment: names the measurement the variants' results share (copied):
 *		every call on one result gives the same one
 * @position: the run's place in the whole sequence, from 0
 * @block: the block of runs, one of each variant, that it ran in
 *	   (position / nr_variants in hwp_stats_order()'s orders)
 *
 * hwp_compare_from_results() pairs the runs of two results of one experiment
 * that share a block, and tests the differences of the pairs; the JSON
 * keeps the order ("run_order"), so that the results pair again when read
 * back. A run not given an order is in no pair. Errors: -EINVAL for a
 * NULL argument or a result without runs; -HWP_ERR_MISMATCH for an
 * experiment other than the result's; -EBUSY for a result read from a
 * file; -ENOMEM. Since: 0.2
 */
HWP_API int hwpriv_result_set_run_order(struct hwp_result *r, const char *experiment,
				     size_t position, size_t block);

/*
 * hwpriv_result_add_scored_run - hwp_result_add_run(), with the run's scores
 * @scores: @nr_scores values, one per hwpriv_result_add_score(), in that order;
 *	    NAN for a score the run did not give (a row shows it as
 *	    undefined, never as 0)
 *
 * Metrics that read a score get this run's value. A result with scores
 * takes its runs here only: hwp_result_add_run() fails on it with -EINVAL.
 * Errors: as hwp_result_add_run(), and -EINVAL when @nr_scores is not the
 * number of scores. Since: 0.2
 */
HWP_API int hwpriv_result_add_scored_run(struct hwp_result *r,
					 const struct hwp_session *s,
				      const struct hwp_count *counts, double seconds,
				      const double *scores, size_t nr_scores);

/*
 * hwpriv_result_add_run_units - record one run, unit by unit
 * @s: the session that counted it, open: its units (hwp_session_unit())
 *     name the rows
 * @counts: @nr_units * nr_events counts from hwp_session_read_units()
 * @nr_units: the units the read gave (at most hwp_session_nr_units())
 * @seconds: the run's wall time
 *
 * The result's rows get the sum of the units, as hwp_result_add_run()
 * would; each unit gets the same rows (events and metrics, computed on
 * the unit's counts) in hwp_result_unit_series(). Units are matched by
 * name from run to run: a unit that a run does not have (a thread of
 * another run) has NAN there. Every writer then shows each unit: text and
 * CSV prefix each row with the unit's name (and, per core, die, socket or
 * node, its number of CPUs), as perf stat does; JSON has "aggregation"
 * and "units", each with its own "events" and "metrics". With
 * HWP_AGGR_GLOBAL this is hwp_result_add_run(). Errors: as
 * hwp_result_add_run(); -HWP_ERR_MISMATCH when the aggregation differs
 * from the first run's; -EINVAL for more units than @s has, or for a result
 * with scores (hwpriv_result_add_score(): a score is the whole run's). Since: 0.2
 */
HWP_API int hwpriv_result_add_run_units(struct hwp_result *r, const struct hwp_session *s,
				     const struct hwp_count *counts, size_t nr_units,
				     double seconds);

/*
 * hwpriv_result_read_environment - record where @r is measured, now: host,
 * kernel, CPU, topology, date, and what hwprof doctor finds
 * (hwp_doctor_new(): governor, SMT, C-states, ASLR, load...), which the JSON
 * keeps under "environment" ("doctor") and hwp_compare_from_results() compares
 * (a warning when A's and B's differ). Call it before the runs, so that the
 * load is the machine's and not the benchmark's own; it costs a scan of
 * /proc (milliseconds). Without it the JSON records the environment when it
 * is written, without the doctor's facts.
 *
 * Errors: -EINVAL for NULL or a result read from a file (it keeps its
 * own), -ENOMEM. Since: 0.2
 */
HWP_API int hwpriv_result_read_environment(struct hwp_result *r);

/*
 * hwpriv_result_add_regions - attach the regions the measured program wrote
 * @path: a hwprof-regions/1 file, as a program linked with libhwprof
 *	  writes to $HWPROF_OUTPUT at exit (see hwp_region_begin())
 *
 * One file a run, read as hwp_regionset_load() reads it. The text report
 * then shows the regions region by region after the whole program's
 * counts: with one run, that run's; with several (since 0.2), each row's
 * mean over the runs that entered the region, with perf's "+- x%"; the
 * JSON keeps every run's under "regions";
 * hwp_result_regionset() gives each. This is 'hwprof stat --regions'.
 * Errors: the open's errno (-ENOENT: the program wrote none),
 * -HWP_ERR_FORMAT for a file that is not the regions of a program or has
 * a field of the wrong type. Since: 0.1
 */
HWP_API int hwpriv_result_add_regions(struct hwp_result *r, const char *path);

/*
 * hwpriv_sweep_new - an empty sweep over parameter @param
 * @param: a name of letters, digits, '_' and '-' (copied)
 *
 * Errors: -EINVAL for a NULL or malformed name, -ENOMEM. Since: 0.1
 */
HWP_API int hwpriv_sweep_new(const char *param, struct hwp_sweep **out);

/*
 * hwpriv_sweep_set_command - the command as given, with {PARAM} where each
 * value goes (copied), for the report's title and the JSON. Since: 0.1
 */
HWP_API int hwpriv_sweep_set_command(struct hwp_sweep *sw, char *const argv[]);

/*
 * hwpriv_sweep_add - add the result measured for @value (copied)
 * @r: taken by the sweep on success (it frees it); left to the caller on
 *     failure
 *
 * Errors: -EINVAL for a NULL argument or an empty value, -EEXIST for a
 * value already in the sweep, -ENOMEM. Since: 0.1
 */
HWP_API int hwpriv_sweep_add(struct hwp_sweep *sw, const char *value,
			     struct hwp_result *r);

/* ------------------------------------------------------------------------
 * hwprof serve: live counts for Prometheus, and the cgroups it discovers
 */

/* One reading hwpriv_openmetrics_counts() writes: an event's count on a
 * CPU, of the tasks of a cgroup. Since: 0.2 */
struct hwpriv_om_count {
	const char *event;	/* its name, as in the event list */
	bool clock;		/* a clock (unit "ns"): written in seconds */
	bool supported;		/* false: only hwprof_event_supported 0 is written */
	int cpu;		/* the CPU; -1: not split by CPU */
	const char *cgroup;	/* the cgroup (perf's -G path); NULL: every task */
	struct hwp_count count;
};

/*
 * hwpriv_openmetrics_counts - live counts as a scrape's answer
 * @format: HWP_FORMAT_OPENMETRICS or HWP_FORMAT_PROMETHEUS (text 0.0.4)
 * @host: the label host of every sample, or NULL for none
 *
 * Writes hwprof_event_total (hwprof_event_seconds_total for clocks),
 * scaled for multiplexing as perf stat scales, with the labels event,
 * cpu, cgroup and host; hwprof_event_running_ratio beside it; and
 * hwprof_event_supported once an event and cgroup. A count enabled but
 * never running has no sample. Errors: -EINVAL, -EOPNOTSUPP for another
 * format, -EIO when @f has an error. Since: 0.2
 */
HWP_API int hwpriv_openmetrics_counts(FILE *f, const struct hwpriv_om_count *counts,
				      size_t nr, const char *host,
				      enum hwp_format format);

/*
 * hwpriv_cgroup_foreach_child - the cgroups directly under @parent
 * @parent: a path under the cgroup v2 mount ("system.slice"); "" or "/"
 *	    for the mount's root
 * @fn: called with "PARENT/CHILD" (without a leading '/'), in no set
 *	order; a non-zero return stops the walk and is returned
 *
 * Errors: -ENOENT when no cgroup v2 hierarchy is mounted, the errno of
 * opening @parent's directory (the message names it), -EINVAL for a path
 * with "..". Since: 0.2
 */
typedef int (*hwpriv_cgroup_fn)(const char *cgroup, void *ctx);
HWP_API int hwpriv_cgroup_foreach_child(const char *parent, hwpriv_cgroup_fn fn,
					void *ctx);

/* ------------------------------------------------------------------------
 * hwprof record --rotate --format pprof
 */

/*
 * hwpriv_profile_set_source - what hwp_profile_info()'s input, and so each
 * writer, names as the profile's source, in place of the path it was read
 * from (copied): for a perf.data removed once converted (record --rotate
 * --format pprof), so that no output names a file that is not there.
 * Errors: -EINVAL for a NULL argument, -ENOMEM. Since: 0.2
 */
HWP_API int hwpriv_profile_set_source(struct hwp_profile *p, const char *source);

#ifdef __cplusplus
}
#endif

#endif
