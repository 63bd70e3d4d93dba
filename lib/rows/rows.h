/* SPDX-License-Identifier: MIT */
/* The rows of a measurement, below everything that holds them (regionsets,
 * results, sweeps, comparisons, regions): events, metrics and scores as
 * series of values over runs, what a row shows, their JSON written and
 * read back field by field, and the environment they were measured in. */
#ifndef HWPROF_ROWS_H
#define HWPROF_ROWS_H

#include "core/core.h"
#include "count/count.h"
#include "doctor/doctor.h"
#include "util/json-reader.h"

#include <string.h>

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

/* rows-metrics.c: a metric over runs, and perf's metrics beside events */
/* @sr's formula on the mean counts of @rows over @nr_runs runs of
 * @seconds: a ratio of means, as perf stat has it; NAN when undefined. */
double metric_of_means(const struct series *rows, size_t nr_rows, const struct series *sr,
		       size_t nr_runs, const double *seconds);
/* row_init() of rows[@idx], whose value is metric_of_means() for a metric
 * over several runs (@seconds NULL: the mean of its values). */
void row_init_in(const struct series *rows, size_t nr_rows, size_t idx, size_t nr_runs,
		 const double *seconds, struct row *row);
/* Describe rows[@idx], a row of @nr_runs values, for the public API; its
 * value as row_init_in() has it. */
void series_info(const struct series *rows, size_t nr_rows, size_t idx, size_t nr_runs,
		 const double *seconds, struct hwp_series_info *info);
/* The row of the built-in metric perf prints after '#' on rows[@event]'s
 * line ("CPUs utilized", "K/sec"), or -1. */
long beside_metric(const struct series *rows, size_t nr_rows, size_t event);
/* Whether rows[@idx] is such a metric, with its event among @rows. */
bool metric_is_beside(const struct series *rows, size_t nr_rows, size_t idx);
/* Its value and unit as perf prints them: "1.510" "K/sec". */
void beside_format(const struct row *row, char *value, size_t size, char *unit,
		   size_t unit_size);

/* rows.c: rows and environments */
void series_release(struct series *sr);
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
/* Whether @sr is a clock event (task-clock, cpu-clock: counted in ns),
 * which the writers show in msec or seconds. */
static inline bool series_is_clock(const struct series *sr)
{
	return sr->kind == HWP_SERIES_EVENT && !strcmp(sr->unit, "ns");
}
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
/* The command line, its arguments separated by spaces. */
void command_line(char *const *argv, struct strbuf *sb);
/* A summary's members (mean, median... ci95), and an array of values. */
void summary_json(struct json_writer *w, const struct hwp_stats_summary *s);
void values_json(struct json_writer *w, const double *v, size_t n);
/* This machine's environment now; with @doctor, hwprof doctor's facts too
 * (a scan of /proc: a result's, read once, not a regionset's). */
int environment_read(struct environment *env, bool doctor);
void environment_release(struct environment *env);
/* An "environment" member: @saved's, or this machine's now when NULL. */
void json_environment(struct json_writer *w, const struct environment *saved);

/* rows-json.c: the "events" and "metrics" members of a JSON object, as
 * hwprof-stat/1 has them: with @all_runs, each row's summary and values
 * too; @seconds, each run's (NULL: none), for the metrics' values over the
 * runs. */
void rows_json(struct json_writer *w, const struct series *rows, size_t nr_rows,
	       size_t nr_runs, const double *seconds, bool all_runs);

/* rows-fields.c: reading the JSON of results, regionsets and sweeps. Each
 * field is checked before it is used; messages name @source, the line and
 * where the field is. */
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


#endif
