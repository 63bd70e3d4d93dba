/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/result.h>: results: what `hwprof stat` measures, run after run, and sweeps.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_RESULT_H
#define HWPROF_API_RESULT_H

#include <hwprof/core.h>
#include <hwprof/count.h>

#ifdef __cplusplus
extern "C" {
#endif

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
	/* What 'hwprof stat' shows for the row: the mean of an event's (in
	 * unit), a score's or a time's values; a metric's formula on the
	 * events' mean counts over the runs (perf stat's value, not the mean
	 * of the runs' values); NAN where there is none. Since: 0.2 */
	double value;
};

struct hwp_result;

/* hwp_result_free. Since: 0.1 */
HWP_API void hwp_result_free(struct hwp_result *r);

/*
 * Building a result: what an embedder counted, run after run, kept as
 * 'hwprof stat' keeps it, so that hwp_result_write() saves the same file
 * ('hwprof stat --json -o', 'hwprof compare' reads it) and
 * hwp_compare_from_results() compares it. Add the metrics, then, for each
 * run: count it with a session, hwp_result_add_run() what it read, and
 * hwp_result_set_run_times() its CPU time; at the end
 * hwp_result_set_exit_status(). A result read from a file
 * (hwp_result_load()) takes none of these (-EBUSY).
 */

/*
 * hwp_result_new - an empty result
 * @out: set to it; free it with hwp_result_free(). NULL on failure.
 *
 * Errors: -EINVAL for NULL @out, -ENOMEM. Since: 0.1
 */
HWP_API int hwp_result_new(struct hwp_result **out);

/*
 * hwp_result_set_command - the command that was measured (copied), for the
 * text report's title and the JSON's "command"
 * @argv: NULL-terminated, as hwp_workload_new() takes it
 *
 * Errors: -EINVAL for a NULL argument, -ENOMEM. Since: 0.1
 */
HWP_API int hwp_result_set_command(struct hwp_result *r, char *const argv[]);

/*
 * hwp_result_add_metric - a user metric to evaluate on every run (copied)
 *
 * Add metrics before the first run. Built-in metrics are added by the
 * result itself, and shown when their inputs were counted; one given here
 * (hwp_metric_builtin(), as hwprof stat -M NAME) is shown even when they
 * were not (undefined, with the reason), and is kept as itself, not
 * copied (since 0.2). Over several runs, a metric's value is its formula
 * on the mean counts (hwp_result_write(), and hwp_result_series()'s
 * value since 0.2); hwp_result_series() gives each run's too. Errors:
 * -EINVAL for a NULL argument; -EBUSY after the first run or for a result
 * read from a file, -EEXIST for a name already used; -ENOMEM. Since: 0.1
 */
HWP_API int hwp_result_add_metric(struct hwp_result *r, const struct hwp_metric *m);

/*
 * hwp_result_add_run - record one run
 * @s: the session that counted it (its events, their status and why one
 *     did not count); every run must use the same event list. Only read:
 *     it may be freed after the call.
 * @counts: the run's reading, hwp_session_read()'s, unscaled: the result
 *	    scales each count for multiplexing as 'hwprof stat' does
 * @seconds: its wall time (hwp_workload_elapsed())
 *
 * Errors: -EINVAL for a NULL argument; -HWP_ERR_MISMATCH when @s's events
 * differ from the first run's; -EBUSY for a result read from a file;
 * -ENOMEM. Since: 0.1
 */
HWP_API int hwp_result_add_run(struct hwp_result *r, const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds);

/*
 * hwp_result_set_run_times - the time rows of the last run added
 * @user, @system: the CPU seconds the command took (hwp_workload_cpu_times())
 *
 * The first call adds three rows of kind HWP_SERIES_TIME, unit "seconds",
 * after every other row: "elapsed" (the run's seconds, as added), "user"
 * and "system"; runs before it, and runs not given times, have NAN there.
 * 'hwprof compare' tests them like any other row. Errors: -EINVAL for a
 * NULL @r or a result without runs; -EBUSY for a result read from a file;
 * -ENOMEM. Since: 0.2
 */
HWP_API int hwp_result_set_run_times(struct hwp_result *r, double user, double system);

/*
 * hwp_result_set_exit_status - the command's shell exit code
 * (hwp_workload_exit_code()) for the JSON's "exit_status"; a negative
 * @code, as a new result has, writes null (unknown). NULL @r: nothing.
 * Since: 0.1
 */
HWP_API void hwp_result_set_exit_status(struct hwp_result *r, int code);

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
 * hwp_result_load() and hwp_sweep_load(); 0 for NULL. Since: 0.2
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
 * hwp_result_load - load what hwprof stat --json wrote (schema hwprof-stat/1)
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
 * hwp_sweep_load()), or with a field of the wrong type (its regions
 * included) or an array of values whose length is not "runs"; -ENOMEM.
 * Thread-safe. Since: 0.1 (as hwp_result_read)
 */
HWP_API int hwp_result_load(const char *path, struct hwp_result **out);

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
 * hwp_sweep_load(). Since: 0.1
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
 * hwp_sweep_load - load a sweep (hwprof-sweep/1), or a plain result
 * (hwprof-stat/1) as a sweep of one point without parameter or value
 *
 * As hwp_result_load(), with the same checks and errors. Thread-safe.
 * Since: 0.1 (as hwp_sweep_read)
 */
HWP_API int hwp_sweep_load(const char *path, struct hwp_sweep **out);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_RESULT_H */
