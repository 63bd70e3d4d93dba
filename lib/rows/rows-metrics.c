// SPDX-License-Identifier: MIT
/* A metric over runs: its headline is its formula on the mean counts (a
 * ratio of means), as perf stat computes a metric over -r; the per-run
 * values keep their distribution, which is what comparisons test. And the
 * built-in metrics perf stat prints after '#' on their event's line. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "rows/rows.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct means {
	const struct series *rows;
	size_t nr_rows, nr_runs;
	const double *seconds;
};

/* The row a formula's @name reads, as a run's reading is looked up: a
 * score, the event of that name, else the first without modifiers of
 * those it matches, else the first (event_find_operand()). */
static long operand_row(const struct series *rows, size_t nr, const char *name)
{
	long first = -1, plain = -1;

	for (size_t i = 0; i < nr; i++)
		if (rows[i].kind == HWP_SERIES_SCORE &&
		    names_match_loosely(rows[i].name, name))
			return (long)i;
	for (size_t i = 0; i < nr; i++)
		if (rows[i].kind == HWP_SERIES_EVENT && !strcmp(rows[i].name, name))
			return (long)i;
	for (size_t i = 0; i < nr; i++) {
		struct event ev = event_of_row(rows[i].name, rows[i].canonical);

		if (rows[i].kind != HWP_SERIES_EVENT || !event_name_matches(&ev, name))
			continue;
		if (first < 0)
			first = (long)i;
		if (plain < 0 && !event_name_has_modifiers(rows[i].name))
			plain = (long)i;
	}
	return plain >= 0 ? plain : first;
}

static int mean_value(const char *name, double *value, void *arg)
{
	const struct means *mc = arg;
	const struct series *sr;
	long i;

	if (!strcmp(name, "seconds")) {
		*value = mean_defined(mc->seconds, mc->nr_runs);
		return *value > 0 ? 0 : -HWP_ERR_UNDEFINED;
	}
	i = operand_row(mc->rows, mc->nr_rows, name);
	if (i < 0)
		return -ENOENT;
	sr = &mc->rows[i];
	if (!sr->supported)
		return -HWP_ERR_UNDEFINED;
	/* Formulas read counts; an event's row is in its unit (times the
	 * PMU's scale). */
	*value = mean_defined(sr->values, mc->nr_runs) /
		 (sr->kind == HWP_SERIES_EVENT && sr->scale > 0 ? sr->scale : 1.0);
	return isnan(*value) ? -HWP_ERR_UNDEFINED : 0;
}

double metric_of_means(const struct series *rows, size_t nr_rows, const struct series *sr,
		       size_t nr_runs, const double *seconds)
{
	struct means mc = { rows, nr_rows, nr_runs, seconds };
	struct hwp_metric *parsed = NULL;
	const struct hwp_metric *m = sr->metric;
	double v = NAN;

	/* A result read from a file has the formula, not the metric. */
	if (!m && sr->expr && !hwp_metric_parse(sr->expr, &parsed))
		m = parsed;
	if (m && hwp_metric_eval(m, mean_value, &mc, &v))
		v = NAN;
	hwp_metric_free(parsed);
	clear_error();
	return v;
}

void row_init_in(const struct series *rows, size_t nr_rows, size_t idx, size_t nr_runs,
		 const double *seconds, struct row *row)
{
	const struct series *sr = &rows[idx];

	row_init(sr, nr_runs, row);
	/* One run: its value is the formula on its counts already. */
	if (sr->kind == HWP_SERIES_METRIC && nr_runs > 1 && seconds && row->sum.n)
		row->value = metric_of_means(rows, nr_rows, sr, nr_runs, seconds);
}

void series_info(const struct series *rows, size_t nr_rows, size_t idx, size_t nr_runs,
		 const double *seconds, struct hwp_series_info *info)
{
	const struct series *sr = &rows[idx];
	struct row row;

	row_init_in(rows, nr_rows, idx, nr_runs, seconds, &row);
	*info = (struct hwp_series_info){
		.sz = sizeof(*info),
		.name = sr->name,
		.unit = sr->unit,
		.kind = sr->kind,
		.supported = sr->supported,
		.reason = sr->reason,
		.nr_runs = nr_runs,
		.values = sr->values,
		.percent_running = sr->pct,
		.value = row.value,
	};
}

/* ---- what perf stat prints after '#' ---- */

long beside_metric(const struct series *rows, size_t nr_rows, size_t event)
{
	const struct series *ev = &rows[event];

	if (ev->kind != HWP_SERIES_EVENT)
		return -1;
	for (size_t i = 0; i < nr_rows; i++) {
		const struct metric_beside *b = rows[i].builtin ?
						metric_beside(rows[i].metric) : NULL;

		if (b && operand_row(rows, nr_rows, b->event) == (long)event)
			return (long)i;
	}
	return -1;
}

bool metric_is_beside(const struct series *rows, size_t nr_rows, size_t idx)
{
	const struct metric_beside *b = rows[idx].builtin ?
					metric_beside(rows[idx].metric) : NULL;
	long ev = b ? operand_row(rows, nr_rows, b->event) : -1;

	/* Its event not counted (-M IPC without a PMU): a row of its own,
	 * <undefined> with the reason. */
	return ev >= 0 && rows[ev].supported;
}

void beside_format(const struct row *row, char *value, size_t size, char *unit,
		   size_t unit_size)
{
	const struct metric_beside *b = metric_beside(row->sr->metric);
	double v = row->value;
	const char *prefix = "";

	if (!b || isnan(v)) {
		snprintf(value, size, "%s", "");
		snprintf(unit, unit_size, "%s", "");
		return;
	}
	/* perf's convert_unit_double(): K, M, G past each thousand */
	if (b->scaled) {
		static const char *const k[] = { "K", "M", "G" };

		for (size_t i = 0; i < 3 && v > 1000.0; i++) {
			v /= 1000.0;
			prefix = k[i];
		}
	}
	snprintf(value, size, "%.*f", b->decimals, v);
	snprintf(unit, unit_size, "%s%s", prefix, b->unit);
}
