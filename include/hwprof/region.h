/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/region.h>: regions: counting parts of a program per thread, and
 * their values (regionsets).
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_REGION_H
#define HWPROF_API_REGION_H

#include <hwprof/core.h>
#include <hwprof/event.h>
#include <hwprof/result.h>

#ifdef __cplusplus
extern "C" {
#endif

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
 * hwp_regionset_from_regions(). Errors: -EOPNOTSUPP for CSV or folded stacks,
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
 * The cheap part of hwp_regionset_from_regions(), without the counts.
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
 * file a program wrote (hwp_regionset_load()), kept by a result of
 * 'hwprof stat --regions' (hwp_result_regionset()), or taken from this
 * process's own regions (hwp_regionset_from_regions()). It does not change
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
 * hwp_regionset_load - load the regions a program wrote (schema
 * hwprof-regions/1, as hwp_region_save() and $HWPROF_OUTPUT write them)
 * @out: free it with hwp_regionset_free()
 *
 * The file is treated as untrusted, as by hwp_result_load(): every field
 * is checked. A region with a bad field is left out with a warning that
 * names it and why, and counted (hwp_regionset_info's nr_unreadable); the
 * others are read. Errors: the errno of opening or reading it (-ENOENT: the
 * program wrote none), -EFBIG past 64 MiB, -HWP_ERR_FORMAT with a message
 * naming the file, the line and the field for a file that is not the
 * regions of a program or has a field of the wrong type outside the
 * regions, -EINVAL, -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_regionset_load(const char *path, struct hwp_regionset **out);

/*
 * hwp_regionset_from_regions - this process's regions so far, as a regionset
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
HWP_API int hwp_regionset_from_regions(struct hwp_regionset **out);

/* hwp_regionset_free - free a regionset read or snapshot; NULL is a no-op. Since: 0.2 */
HWP_API void hwp_regionset_free(struct hwp_regionset *rs);

/*
 * hwp_regionset_write - write @rs to @f
 *
 * HWP_FORMAT_TEXT: a block per region, as 'hwprof stat --regions' shows
 * them: its threads, calls, time and ops, then each event's count, per
 * call and per op (and, when it was multiplexed, the percent it counted),
 * then its metrics. HWP_FORMAT_JSON: schema hwprof-regions/1, which
 * hwp_regionset_load() reads back. HWP_FORMAT_OPENMETRICS (since 0.2):
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

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_REGION_H */
