/* SPDX-License-Identifier: MIT */
/* The inside of results, shared by their files. A result holds rows
 * (rows/) and its program's regionsets, one a run (regionset/); sweeps
 * (sweep/) and comparisons (compare/) hold results; the live regions
 * (region.c) take a result's rows for their regionset. */
#ifndef HWPROF_RESULT_H
#define HWPROF_RESULT_H

#include "core/core.h"
#include "count/count.h"
#include "regionset/regionset.h"
#include "rows/rows.h"
#include "util/json-reader.h"

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

/* result-units.c: aggregation units; result.c frees them */
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
/* "command": [argv...] */
void json_command(struct json_writer *w, char *const *argv);

/* result-openmetrics.c: the OpenMetrics text exposition, or with
 * HWP_FORMAT_PROMETHEUS the Prometheus text format, of a result and its
 * regions. */
int result_openmetrics(const void *obj, FILE *f, const void *opts);

/* result-read.c: build a result from a parsed hwprof-stat/1 object; the
 * messages name @source and @where (the path of the object in its file). */
int result_from_json(const struct json_value *obj, const char *source,
			 const char *where, struct hwp_result **out);
/* Whether a parsed document says it is a sweep (hwprof-sweep/1). */
bool doc_is_sweep(const struct json_value *doc);

/* result.c: replace *@dst with a copy of @argv; @fn names the caller in
 * messages. */
int argv_set(char ***dst, char *const *argv, const char *fn);

#endif
