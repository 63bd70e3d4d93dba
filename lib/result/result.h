/* SPDX-License-Identifier: MIT */
/* The inside of results, sweeps and regionsets (the regions of a program's
 * run), shared by their files. The dependencies go one way: rows and
 * fields (result-rows.c, result-fields.c) <- the regionset model
 * (regionset.c) <- its reader and writer <- results (result.c, -read.c,
 * -output.c) <- sweeps; the live regions (region.c) take their regionset
 * with a result's rows and write it with the regionset's writer. */
#ifndef HWPROF_RESULT_H
#define HWPROF_RESULT_H

#include "core/core.h"
#include "count/count.h"
#include "util/json-reader.h"

/* One of hwprof doctor's facts, as a measurement keeps it. */
struct env_fact {
	char *name;
	char *value;
	bool noisy;
};

struct environment {
	char *host;
	char *kernel;
	char *cpu;
	char *date;
	char *version;
	long nr_cpus;
	/* Each CPU's core, die, package and node; NULL when sysfs had none
	 * (or the file was written before 0.2) */
	struct hwp_topology *topology;
	/* What hwprof doctor found when the measurement began (doctor.c);
	 * none for a file written before 0.2, or a regionset's */
	struct env_fact *facts;
	size_t nr_facts;
};

struct series {
	enum hwp_series_kind kind;
	char *name;
	char *unit;
	char *canonical;	/* events */
	char *expr;		/* metrics */
	char *reason;
	/* metrics: which of several events a name reads, when none of them is
	 * without modifiers (metric_operand_note()); NULL: none */
	char *note;
	double scale;		/* events: the PMU's scale of a count; 0: 1 */
	bool supported;
	bool user_only;
	bool builtin;
	/* borrowed: a built-in or one of result->user */
	const struct hwp_metric *metric;
	double *values;		/* nr_runs */
	double *pct;		/* events: percent running, nr_runs */
	double *running;	/* events: ns running, nr_runs */
};

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

/* One aggregation unit of a result: a CPU, core, die, socket, node or
 * thread, with the result's rows, counted there. */
struct result_unit {
	struct unit u;		/* its name, CPUs or thread (count/count.h) */
	struct series *series;	/* as the result's: events, then metrics */
	size_t nr_series, nr_events;
};

/* run-order.c: where each run ran among variants measured in turn. */
struct run_order {
	char *experiment;	/* NULL: measured alone */
	long *position, *block;	/* nr entries, -1 where not given */
	size_t nr;
};

struct hwp_result {
	char **argv;		/* NULL-terminated, or NULL */
	char *spec;
	char *target;		/* NULL: the command */
	/* events first, in list order, then metrics, then scores */
	struct series *series;
	size_t nr_series;
	size_t nr_events;
	size_t nr_runs;
	double *seconds;
	struct hwp_metric **user;
	size_t nr_user;
	char **scores;		/* the names of the score rows to come, in order */
	size_t nr_scores;
	int exit_code;		/* -1: not set */
	struct environment env;
	char *source;		/* the file it was read from, or NULL */
	struct hwp_regionset **regionsets;	/* the program's regions, one a run */
	size_t nr_regionsets;
	bool loaded;		/* read from a file: it takes no more runs */
	enum hwp_aggr aggr;	/* HWP_AGGR_GLOBAL: no units */
	struct result_unit *units;
	size_t nr_units;
	struct run_order order;
};

struct hwp_sweep {
	char *param;		/* NULL: a plain result read as a sweep of one */
	char **argv;		/* the command with {PARAM}, or NULL */
	char **values;		/* nr of them; values[0] NULL for a plain result */
	struct hwp_result **results;
	size_t nr;
};

/* sweep.c: a sweep without parameter, to hold one plain result. */
int sweep_alloc(const char *param, struct hwp_sweep **out);
int sweep_push(struct hwp_sweep *sw, const char *value, struct hwp_result *r);

/* What one row shows, worked out once for every format. */
struct row {
	const struct series *sr;
	struct hwp_stats_summary sum;
	/* What the row shows: an event's mean; a metric's formula on the mean
	 * counts (row_init_in()), else the mean of its values; NAN: none */
	double value;
	double pct;		/* mean percent running; NAN for metrics */
	double running;		/* mean ns running */
	bool clock;		/* counts ns, shown as msec */
	/* an event in a unit of its own (a PMU's NAME.unit: "Joules"), its
	 * counts times NAME.scale: shown with 2 decimals, as perf does */
	bool measure;
};

struct json_writer;
struct json_value;

/* result-metrics.c: a metric over runs, and perf's metrics beside events */
/* @sr's formula on the mean counts of @rows over @nr_runs runs of
 * @seconds: a ratio of means, as perf stat has it; NAN when undefined. */
double metric_of_means(const struct series *rows, size_t nr_rows, const struct series *sr,
		       size_t nr_runs, const double *seconds);
/* row_init() of rows[@idx], whose value is metric_of_means() for a metric
 * over several runs (@seconds NULL: the mean of its values). */
void row_init_in(const struct series *rows, size_t nr_rows, size_t idx, size_t nr_runs,
		 const double *seconds, struct row *row);
/* The row of the built-in metric perf prints after '#' on rows[@event]'s
 * line ("CPUs utilized", "K/sec"), or -1. */
long beside_metric(const struct series *rows, size_t nr_rows, size_t event);
/* Whether rows[@idx] is such a metric, with its event among @rows. */
bool metric_is_beside(const struct series *rows, size_t nr_rows, size_t idx);
/* Its value and unit as perf prints them: "1.510" "K/sec". */
void beside_format(const struct row *row, char *value, size_t size, char *unit,
		   size_t unit_size);

/* result-rows.c: rows and environments, below everything that holds them
 * (results, sweeps, comparisons, regions). */
void series_release(struct series *sr);
/* Describe @sr, a row of @nr_runs values, for the public API. */
void series_info(const struct series *sr, size_t nr_runs, struct hwp_series_info *info);
void row_init(const struct series *sr, size_t nr_runs, struct row *row);
/* The mean of the values of @v that are not NAN; NAN when none is. */
double mean_defined(const double *v, size_t n);
/* An event may be listed twice: rows are told apart by kind, name and which
 * of that name they are.  The occurrence of rows[@idx] among rows[0..idx]... */
size_t series_occurrence(const struct series *rows, size_t idx);
/* ...and the index of the @nth row of @kind and @name, or -1. */
long series_nth(const struct series *rows, size_t nr, enum hwp_series_kind kind,
		const char *name, size_t nth);
/* The heading of a kind's rows in the text reports ("Metrics"), or NULL
 * (events, first, have none); and its name in JSON ("event", "score"). */
const char *kind_heading(enum hwp_series_kind kind);
const char *kind_name(enum hwp_series_kind kind);
/* "<not supported>", "<not counted>", "<undefined>", or NULL for a value. */
const char *row_placeholder(const struct row *row);
/* The row's mean as the text report shows it (msec for clocks). */
void row_format(const struct row *row, bool big, char *buf, size_t size);
/* The unit a row's formatted value is in: "msec", "Joules", or "". */
const char *row_unit(const struct row *row);
/* A metric's value: grouped when large, else 1 or 3 decimals. */
void fmt_metric(double v, bool big, char *buf, size_t size);
/* Which runs of a row are outliers (hwp_stats_outliers_mad()); NULL when none
 * or out of memory, which only costs the annotation. */
bool *series_outliers(const struct series *sr, size_t nr_runs, size_t *nr);
/* The "events" and "metrics" members of a JSON object, as hwprof-stat/1
 * has them: with @all_runs, each row's summary and values too; @seconds,
 * each run's (NULL: none), for the metrics' values over the runs. */
void rows_json(struct json_writer *w, const struct series *rows, size_t nr_rows,
	       size_t nr_runs, const double *seconds, bool all_runs);
/* A summary's members (mean, median... ci95), and an array of values. */
void summary_json(struct json_writer *w, const struct hwp_stats_summary *s);
void values_json(struct json_writer *w, const double *v, size_t n);
/* This machine's environment now; with @doctor, hwprof doctor's facts too
 * (a scan of /proc: a result's, read once, not a regionset's). */
int environment_read(struct environment *env, bool doctor);
void environment_release(struct environment *env);
/* An "environment" member: @saved's, or this machine's now when NULL. */
void json_environment(struct json_writer *w, const struct environment *saved);

/* result-fields.c: reading the stage's JSON. Each field is checked before
 * it is used; messages name @source, the line and where the field is. */
struct field_ctx {
	const char *source;
	char where[128];	/* the path of the object read: "events[2]" */
};
/* What a message about a field that is missing or wrong ends with. */
#define FIELD_FIX "the file was edited, cut short or written by another program: write it again with hwprof"
/* Read and parse a whole JSON file, with messages for people. */
int json_read_file(const char *path, struct json_value **doc);
/* Parse @len bytes of @source, with messages for people. */
int json_doc_parse(const char *buf, size_t len, const char *source,
		   struct json_value **doc);
/* Member @key of @obj, of @type (or null when @nullable: *@out is NULL). */
int field_get(const struct field_ctx *c, const struct json_value *obj, const char *key,
	      enum json_type type, bool nullable, const struct json_value **out);
/* A string member, copied; NULL for null when @nullable. */
int field_string(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 bool nullable, char **out);
int field_bool(const struct field_ctx *c, const struct json_value *obj, const char *key,
	       bool *out);
/* A count, as the library keeps it (uint64_t): a whole number from 0 to
 * 2^64 - 1 (past 2^53, a double holds it to a part in 1e16). */
int field_count(const struct field_ctx *c, const struct json_value *obj, const char *key,
		uint64_t *out);
/* An integer member in [min, max]; -1 for null when @nullable. */
int field_int(const struct field_ctx *c, const struct json_value *obj, const char *key,
	      bool nullable, long min, long max, long *out);
/* An array of exactly @n numbers or nulls (NAN) into a new array. */
int field_values(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 size_t n, double **out);
/* "command": [argv...], into a new NULL-terminated array. */
int field_command(const struct field_ctx *c, const struct json_value *obj, char ***out);
/* A number member; NAN for null when @nullable. */
int field_number(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 bool nullable, double *out);
/* The rows of array @key ("events", "metrics" or "scores") appended to *@rows, each
 * with @nr_runs values; *@nr_events counts the events. With @all_runs, as
 * rows_json() writes them with it (arrays of values); without, one run's
 * ("count" or "value", and "percent_running"). */
int field_rows(struct field_ctx *c, const struct json_value *doc, const char *key,
	       size_t nr_runs, bool all_runs, struct series **rows, size_t *nr_rows,
	       size_t *nr_events);
int field_environment(struct field_ctx *c, const struct json_value *doc,
		      struct environment *env);

/* run-order.c */
void run_order_release(struct run_order *o);
/* "run_order": {"experiment", "position": [...], "block": [...]}, when set. */
void run_order_json(struct json_writer *w, const struct hwp_result *r);
int field_run_order(struct field_ctx *c, const struct json_value *doc,
		    struct hwp_result *r);
/* Whether the runs of @a and @b were measured in turn, in one experiment. */
bool run_order_paired(const struct hwp_result *a, const struct hwp_result *b);
/* The runs of @a and @b in the same block: a's ia[k] with b's ib[k], each
 * array of min(a->nr_runs, b->nr_runs); the number of pairs, SIZE_MAX
 * when out of memory. */
size_t run_order_pairs(const struct hwp_result *a, const struct hwp_result *b,
		       size_t *ia, size_t *ib);

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
/* The regions of every run of @r, region by region: the mean of each row
 * over the runs, with perf's "+- x%". */
void regionset_runs_text(const struct hwp_result *r, FILE *f, bool big);

/* regionset-runs.c: one region across the runs of a result */
struct region_runs {
	const char *name;	/* borrowed from the result */
	/* Its events, then metrics, as the first run that entered it has them:
	 * values[k] from run k, NAN where run k did not enter it. */
	struct series *rows;
	size_t nr_rows, nr_events;
	size_t nr_runs, nr_entered;
	size_t nr_exceeding;	/* runs whose estimate exceeds_time */
	double *calls, *seconds, *ops;	/* a run each; NAN: not entered, no ops */
	const struct regionset_region *last;	/* of the last run that entered it */
};
/* Every region any run of @r entered, in the order they first appear:
 * *@out of *@nr, freed with region_runs_free(). Errors: -ENOMEM. */
int region_runs_build(const struct hwp_result *r, struct region_runs **out, size_t *nr);
void region_runs_free(struct region_runs *rr, size_t nr);
/* @r with @rr's rows (and runs) in place of its own, for what reads a
 * result's rows: borrowed from both. */
void region_runs_view(const struct hwp_result *r, const struct region_runs *rr,
		      struct hwp_result *view);

/* result.c: attach @rs (taken on success) to @r. */
int result_add_regionset(struct hwp_result *r, struct hwp_regionset *rs);
/* The rows one reading of @s makes, as a result's first run has them:
 * the events, then the built-in metrics whose inputs were counted, each
 * with one value; the caller takes them (series_release()). */
int result_rows_of_reading(const struct hwp_session *s, const struct hwp_count *counts,
			   double seconds, struct series **rows, size_t *nr_rows,
			   size_t *nr_events);

/* result.c: the rows of a run of @s, for the result or a unit of it
 * (events, user metrics, the built-in metrics whose inputs count)... */
int result_rows_new(const struct hwp_result *r, const struct hwp_session *s,
		    struct series **rows, size_t *nr, size_t *nr_events);
/* A run's scores, for its score rows and the metrics that read them. */
struct score_lookup {
	const struct hwp_result *r;
	const double *scores;
};

/* ...and their values of run @n - 1 from @counts (NULL: not in that run)
 * and @sl (NULL: no scores). */
int result_rows_add(struct series *rows, size_t nr_rows, const struct hwp_session *s,
		    const struct hwp_count *counts, double seconds, size_t n,
		    const struct score_lookup *sl);
/* Whether @s's run may be added to @r, with the message if not. */
int result_check_run(struct hwp_result *r, const struct hwp_session *s);
/* Add the run's totals (not counting it yet: r->nr_runs stays). */
int result_add_total(struct hwp_result *r, const struct hwp_session *s,
		     const struct hwp_count *counts, double seconds,
		     const struct score_lookup *sl);

/* result-units.c: aggregation units */
void result_units_release(struct hwp_result *r);
/* "aggregation" and "units" (each with its rows) of a JSON object, when
 * @r has units; @all_runs as rows_json(). */
void units_json(struct json_writer *w, const struct hwp_result *r, bool all_runs);
/* Read them back; none when the document has no "units". */
int field_units(struct field_ctx *c, const struct json_value *doc, struct hwp_result *r);

/* result-output.c, for the writers of sweeps and comparisons too */
/* The result as a hwprof-stat/1 object, inside a larger document. */
void result_json(const struct hwp_result *r, struct json_writer *w);
/* ...with members of @more's after the rest, when not NULL. */
void result_json_more(const struct hwp_result *r,
		      void (*more)(const struct hwp_result *, struct json_writer *),
		      struct json_writer *w);
/* The command line, its arguments separated by spaces. */
void command_line(char *const *argv, struct strbuf *sb);
/* "command": [argv...] */
void json_command(struct json_writer *w, char *const *argv);

/* result-openmetrics.c: the OpenMetrics text exposition, or with
 * HWP_FORMAT_PROMETHEUS the Prometheus text format (of a result, and of
 * regions); the families of the regions of @sets (one a run), inside a
 * larger exposition, with label command=@command unless NULL. */
int result_openmetrics(const void *obj, FILE *f, const void *opts);
int regionset_openmetrics(const void *obj, FILE *f, const void *opts);
void regionset_openmetrics_families(struct hwp_regionset *const *sets, size_t nr_sets,
				    const char *command, bool prom, FILE *f);
/* A label value in double quotes, with backslash, quote and newline escaped. */
void om_label_value(FILE *f, const char *s);

/* doctor.c: hwprof doctor's facts into @env (the one place they are
 * found, for hwprof doctor and the results' environment). */
int doctor_facts(struct environment *env);

/* result-read.c: build a result from a parsed hwprof-stat/1 object; the
 * messages name @source and @where (the path of the object in its file). */
int result_from_json(const struct json_value *obj, const char *source,
			 const char *where, struct hwp_result **out);
/* A sweep (or a plain result as a sweep of one) from @len bytes of JSON,
 * as hwp_sweep_load() reads a file; @source names it in messages. */
int sweep_parse(const char *buf, size_t len, const char *source,
		    struct hwp_sweep **out);

/* result.c: replace *@dst with a copy of @argv; @fn names the caller in
 * messages. */
int argv_set(char ***dst, char *const *argv, const char *fn);

#endif
