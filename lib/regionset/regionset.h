/* SPDX-License-Identifier: MIT */
/* Regionsets: the regions of one run of a program (hwprof-regions/1), as
 * the live regions (region/) save them and a result keeps them, one a run;
 * their model, JSON read and written, text and OpenMetrics; and a region
 * across the runs of a result. */
#ifndef HWPROF_REGIONSET_H
#define HWPROF_REGIONSET_H

#include "rows/rows.h"

#include <stdio.h>

/* One thread's part of a region. */
struct regionset_thread {
	pid_t tid;
	uint64_t calls, measured_calls, ops;
	double seconds;
	bool too_short;
	bool exceeds_time;	/* estimated from too few calls: see region.c */
	double *values;		/* by event, in the region's order; NAN: not counted */
};

/* One region: its totals over the threads, and each thread's part. */
struct regionset_region {
	char *name;
	uint64_t calls, measured_calls, ops;
	double seconds;		/* inside, all threads, all calls */
	bool too_short;
	/* measured one call in N, its estimate is more than its threads ran */
	bool exceeds_time;
	/* Events, then metrics, one run each, as hwprof-stat/1 rows: the count,
	 * its percent running (the real one, never made up), the reason. */
	struct series *rows;
	size_t nr_rows, nr_events;
	double *values;		/* the events' counts (rows[e].values[0]), for the API */
	struct regionset_thread *threads;
	size_t nr_threads, cap_threads;
};

/* The regions of one run of a program: a hwprof-regions/1 document. */
struct hwp_regionset {
	char *spec;		/* the events counted; NULL: none configured */
	unsigned int sample_every;
	double read_cost_ns;	/* NAN: never measured */
	struct regionset_region *regions;
	size_t nr_regions, cap_regions;
	size_t nr_unreadable;	/* regions of the file left out: a bad field */
	struct environment env;
};

/* regionset.c: the model. A regionset is built by adding regions, and
 * threads to a region, each zeroed; NULL when out of memory. */
int regionset_new(struct hwp_regionset **out);
struct regionset_region *regionset_add_region(struct hwp_regionset *rs);
/* Drop the region added last: one that could not be read. */
void regionset_drop_last(struct hwp_regionset *rs);
struct regionset_thread *regionset_add_thread(struct regionset_region *rg);
/* Once a region's rows are set: its values for hwp_region_info. */
int regionset_region_done(struct regionset_region *rg);

/* regionset-read.c: a regionset from a parsed hwprof-regions/1 object; the
 * messages name @source and @where (the path of the object in its file). */
int regionset_from_json(const struct json_value *doc, const char *source,
			const char *where, struct hwp_regionset **out);

/* regionset-write.c: the regionset as a hwprof-regions/1 object, inside a
 * larger document; and as text, the one renderer of regions, with the
 * note that it is the last of @of_runs when there were more. */
void regionset_json(const struct hwp_regionset *rs, struct json_writer *w);
void regionset_text(const struct hwp_regionset *rs, FILE *f, bool big, size_t of_runs);
/* The regions of every run of @sets (one a run, @nr_sets of them), region
 * by region: the mean of each row over the runs, with perf's "+- x%". */
void regionset_runs_text(struct hwp_regionset *const *sets, size_t nr_sets, FILE *f,
			 bool big);

/* regionset-runs.c: one region across the runs of a result (its
 * regionsets, one a run) */
struct region_runs {
	const char *name;	/* borrowed from the regionsets */
	/* Its events, then metrics, as the first run that entered it has them:
	 * values[k] from run k, NAN where run k did not enter it. */
	struct series *rows;
	size_t nr_rows, nr_events;
	size_t nr_runs, nr_entered;
	size_t nr_exceeding;	/* runs whose estimate exceeds_time */
	double *calls, *seconds, *ops;	/* a run each; NAN: not entered, no ops */
	const struct regionset_region *last;	/* of the last run that entered it */
};
/* Every region any run of @sets (one a run, @nr_sets of them) entered, in
 * the order they first appear: *@out of *@nr, freed with region_runs_free().
 * Errors: -ENOMEM. */
int region_runs_build(struct hwp_regionset *const *sets, size_t nr_sets,
		      struct region_runs **out, size_t *nr);
void region_runs_free(struct region_runs *rr, size_t nr);

/* regionset-openmetrics.c: the families of the regions of @sets (one a
 * run), inside a larger exposition, with label command=@command unless
 * NULL; with @prom, in the Prometheus text format. And the regionset's
 * writer of both formats (core/write.h). */
void regionset_openmetrics_families(struct hwp_regionset *const *sets, size_t nr_sets,
				    const char *command, bool prom, FILE *f);
int regionset_openmetrics(const void *obj, FILE *f, const void *opts);

#endif
