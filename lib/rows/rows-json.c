// SPDX-License-Identifier: MIT
/* Rows in JSON, as hwprof-stat/1 has them: above the rows (rows.c)
 * and the metrics' values over runs (rows-metrics.c), both of which it
 * reads. */
#include "rows/rows.h"
#include "util/json-writer.h"

#include <math.h>
#include <stdlib.h>

/* A metric over runs: its value (the formula on the mean counts) and the
 * mean of its per-run values, each under a name that says which. */
static void metric_json(struct json_writer *w, const struct row *row, bool all_runs)
{
	if (all_runs) {
		jw_key(w, "value_of_mean_counts");
		jw_number(w, row->value);
		jw_key(w, "mean_of_runs");
		jw_number(w, row->sum.n ? row->sum.mean : NAN);
	}
	if (row->sr->note) {
		jw_key(w, "note");
		jw_string(w, row->sr->note);
	}
}

/* An event's fields before its reason. */
static void event_fields(struct json_writer *w, const struct series *sr,
			 const struct row *row)
{
	jw_key(w, "event");
	jw_string(w, sr->name);
	jw_key(w, "canonical");
	jw_string(w, sr->canonical);
	jw_key(w, "count");
	jw_number(w, row->sum.n ? row->sum.mean : NAN);
	jw_key(w, "unit");
	jw_string(w, sr->unit);
	/* what a count is worth in unit (a PMU's NAME.scale):
	 * formulas read counts, values / scale */
	if (sr->scale > 0 && sr->scale != 1) {
		jw_key(w, "scale");
		jw_number(w, sr->scale);
	}
	jw_key(w, "supported");
	jw_bool(w, sr->supported);
	jw_key(w, "counted");
	jw_bool(w, row->sum.n > 0);
	jw_key(w, "user_only");
	jw_bool(w, sr->user_only);
	jw_key(w, "percent_running");
	jw_number(w, row->sum.n ? row->pct : NAN);
}

static void rows_of_kind(struct json_writer *w, const struct series *rows, size_t nr_rows,
			 size_t nr_runs, const double *seconds, enum hwp_series_kind kind,
			 bool all_runs)
{
	struct row row;

	jw_key(w, kind == HWP_SERIES_EVENT ? "events" :
		  kind == HWP_SERIES_METRIC ? "metrics" :
		  kind == HWP_SERIES_SCORE ? "scores" : "times");
	jw_array_begin(w, false);
	for (size_t i = 0; i < nr_rows; i++) {
		const struct series *sr = &rows[i];

		if (sr->kind != kind)
			continue;
		row_init_in(rows, nr_rows, i, nr_runs, seconds, &row);
		jw_object_begin(w);
		if (kind == HWP_SERIES_EVENT) {
			event_fields(w, sr, &row);
		} else {
			jw_key(w, kind_name(kind));
			jw_string(w, sr->name);
			jw_key(w, "value");
			jw_number(w, row.sum.n ? row.value : NAN);
			jw_key(w, "unit");
			jw_string(w, sr->unit);
		}
		if (kind == HWP_SERIES_METRIC) {
			jw_key(w, "expr");
			jw_string(w, sr->expr);
			jw_key(w, "builtin");
			jw_bool(w, sr->builtin);
			jw_key(w, "supported");
			jw_bool(w, sr->supported);
			metric_json(w, &row, all_runs);
		}
		jw_key(w, "reason");
		jw_string(w, !row.sum.n || !sr->supported || sr->user_only ?
			     sr->reason : NULL);
		if (all_runs) {
			size_t nr_outliers;
			bool *outliers = series_outliers(sr, nr_runs, &nr_outliers);

			summary_json(w, &row.sum);
			jw_key(w, "values");
			values_json(w, sr->values, nr_runs);
			jw_key(w, "outliers");
			jw_array_begin(w, true);
			for (size_t k = 0; outliers && k < nr_runs; k++)
				if (outliers[k])
					jw_int(w, (long long)k);
			jw_array_end(w);
			free(outliers);
			if (kind == HWP_SERIES_EVENT) {
				jw_key(w, "percent_running_values");
				values_json(w, sr->pct, nr_runs);
			}
		}
		jw_object_end(w);
	}
	jw_array_end(w);
}

void rows_json(struct json_writer *w, const struct series *rows, size_t nr_rows,
	       size_t nr_runs, const double *seconds, bool all_runs)
{
	rows_of_kind(w, rows, nr_rows, nr_runs, seconds, HWP_SERIES_EVENT, all_runs);
	rows_of_kind(w, rows, nr_rows, nr_runs, seconds, HWP_SERIES_METRIC, all_runs);
	/* Scores and times came in 0.2: a document without them has no
	 * "scores" or "times". */
	for (enum hwp_series_kind k = HWP_SERIES_SCORE; k <= HWP_SERIES_TIME; k++)
		for (size_t i = 0; i < nr_rows; i++)
			if (rows[i].kind == k) {
				rows_of_kind(w, rows, nr_rows, nr_runs, seconds, k,
					     all_runs);
				break;
			}
}
