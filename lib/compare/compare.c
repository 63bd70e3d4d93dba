// SPDX-License-Identifier: MIT
/*
 * Comparing two results, or two sweeps column by column: for every event
 * and metric both have, whether B differs from A beyond the noise. The
 * checks of the two inputs against each other are compare-inputs.c's, the
 * verdicts over all tests compare-decide.c's, --fail-on compare-rules.c's.
 */
#include "core/core.h"
#include "compare/compare.h"
#include "result/result.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void row_release(struct cmp_row *row, size_t nr_columns)
{
	for (size_t k = 0; row->cells && k < nr_columns; k++)
		free(row->cells[k].reason);
	free(row->cells);
	free(row->name);
	free(row->unit);
	free(row->aggr_unit);
	free(row->label);
}

HWP_API void hwp_compare_free(struct hwp_compare *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_rows; i++)
		row_release(&c->rows[i], c->nr_columns);
	free(c->rows);
	for (size_t i = 0; i < c->nr_columns; i++)
		free(c->columns[i]);
	free(c->columns);
	free(c->a_runs);
	free(c->b_runs);
	for (size_t i = 0; i < c->nr_warnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	for (size_t i = 0; i < c->nr_rules; i++) {
		free(c->rules[i].spec);
		free(c->rules[i].row);
		free(c->rules[i].finding);
	}
	free(c->rules);
	free(c->param);
	free(c->a_name);
	free(c->b_name);
	free(c->order);
	free(c);
}

/* Which of the rows of @rows that count what rows[@idx] counts it is. */
static size_t canonical_occurrence(const struct series *rows, size_t idx)
{
	size_t nth = 0;

	for (size_t i = 0; i < idx; i++)
		nth += rows[i].kind == HWP_SERIES_EVENT && rows[i].canonical &&
		       !strcmp(rows[i].canonical, rows[idx].canonical);
	return nth;
}

/* The row of @r that matches row @idx of @src, the other side, or NULL: the
 * same name, or for events the same canonical name ("-e cs" and "-e
 * context-switches" count the same thing); an event listed twice matches
 * the other side's second one. */
static const struct series *match(const struct hwp_result *r,
				  const struct hwp_result *src, size_t idx)
{
	const struct series *sr = &src->series[idx];
	long i = series_nth(r->series, r->nr_series, sr->kind, sr->name,
			    series_occurrence(src->series, idx));
	size_t nth;

	if (i >= 0)
		return &r->series[i];
	if (sr->kind != HWP_SERIES_EVENT || !sr->canonical)
		return NULL;
	nth = canonical_occurrence(src->series, idx);
	for (size_t k = 0; k < r->nr_series; k++) {
		const struct series *x = &r->series[k];

		if (x->kind == HWP_SERIES_EVENT && x->canonical &&
		    !strcmp(x->canonical, sr->canonical) && nth-- == 0)
			return x;
	}
	return NULL;
}

/* The row of @sr, the @nth of its kind and name, added if new. */
static struct cmp_row *find_or_add_row(struct hwp_compare *c, const struct series *sr,
				       size_t nth, const char *aggr_unit)
{
	struct cmp_row *rows, *row;

	for (size_t i = 0; i < c->nr_rows; i++)
		if (c->rows[i].kind == sr->kind && c->rows[i].nth == nth &&
		    !strcmp(c->rows[i].name, sr->name) &&
		    !c->rows[i].aggr_unit == !aggr_unit &&
		    (!aggr_unit || !strcmp(c->rows[i].aggr_unit, aggr_unit)))
			return &c->rows[i];
	rows = realloc(c->rows, (c->nr_rows + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	c->rows = rows;
	row = &rows[c->nr_rows];
	memset(row, 0, sizeof(*row));
	row->kind = sr->kind;
	row->nth = nth;
	row->name = strdup(sr->name);
	row->unit = strdup(sr->unit);
	row->cells = calloc(c->nr_columns, sizeof(*row->cells));
	c->nr_rows++;
	if (aggr_unit) {
		row->aggr_unit = strdup(aggr_unit);
		if (!row->aggr_unit ||
		    asprintf(&row->label, "%s %s", aggr_unit, sr->name) < 0)
			row->label = NULL;
	} else {
		row->label = strdup(sr->name);
	}
	if (!row->name || !row->unit || !row->cells || !row->label)
		return NULL;
	for (size_t k = 0; k < c->nr_columns; k++)
		row->cells[k].info.verdict = HWP_VERDICT_NONE;
	return row;
}

/* Why a side cannot be tested, for the cell's reason. */
static char *why_untested(const struct series *sr, size_t n, size_t runs,
			  const char *side)
{
	char *s = NULL;

	if (!sr->supported)
		return asprintf(&s, "not supported in %s%s%s", side,
				sr->reason ? ": " : "",
				sr->reason ? sr->reason : "") < 0 ? NULL : s;
	if (!n)
		return asprintf(&s, "%s in %s", sr->kind == HWP_SERIES_EVENT ?
				"not counted" : "undefined", side) < 0 ? NULL : s;
	return asprintf(&s, "%zu value%s in %s (of %zu runs): a test needs 2", n,
			n == 1 ? "" : "s", side, runs) < 0 ? NULL : s;
}

static void summary_of(const double *v, size_t n, double *mean, double *cv)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };

	hwp_stats_summarize(v, n, &s);
	*mean = s.mean;
	*cv = s.cv;
}

static size_t outliers_of(const double *v, size_t n)
{
	size_t nr = 0;

	hwp_stats_outliers_mad(v, n, 0, NULL, &nr);
	return nr;
}

static void cell_clear(struct hwp_compare_info *i)
{
	i->a_mean = i->b_mean = i->a_cv = i->b_cv = i->ratio = i->diff = NAN;
	i->ci_low = i->ci_high = i->statistic = i->df = i->p_value = i->p_raw = NAN;
	i->ci_adj_low = i->ci_adj_high = i->ci_adj_level = NAN;
	i->ratio_ci_adj_low = i->ratio_ci_adj_high = NAN;
	i->pairs = 0;
}

static double largest(const double *v, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(v[i]));
	return m;
}

/* An infinity, as a number JSON cannot hold, is NAN with the reason; so
 * is a NAN where @defined says there must be a number (inf - inf). */
static void finite_or_missing(double *v, bool defined, const char *what,
			      struct strbuf *lost)
{
	if (isfinite(*v) || (isnan(*v) && !defined))
		return;
	*v = NAN;
	if (!strstr(strbuf_str(lost), what))
		strbuf_addf(lost, "%s%s", lost->len ? ", " : "", what);
}

/*
 * What a tested cell lacks, and why: a p-value (Welch's variance overflows
 * for values 1e154 apart), a ratio (A's mean is 0, or B/A overflows: a
 * denormal mean), or a number that overflowed. Infinities become NAN, so
 * that text and JSON (which has no infinity) show the same missing value;
 * the statistic keeps its infinity, which says the spread is 0.
 */
static int explain_incomplete(const struct hwp_compare *c, struct cmp_cell *cell,
			      double largest_value)
{
	struct hwp_compare_info *i = &cell->info;
	struct strbuf sb = STRBUF_INIT, lost = STRBUF_INIT;
	bool welch = c->opts.test == HWP_TEST_WELCH;
	double ratio = i->b_mean / i->a_mean;

	finite_or_missing(&i->a_mean, true, "the mean of A", &lost);
	finite_or_missing(&i->b_mean, true, "the mean of B", &lost);
	finite_or_missing(&i->diff, true, "B - A", &lost);
	finite_or_missing(&i->ci_low, false, "its interval", &lost);
	finite_or_missing(&i->ci_high, false, "its interval", &lost);
	finite_or_missing(&i->a_cv, false, "the CV of A", &lost);
	finite_or_missing(&i->b_cv, false, "the CV of B", &lost);
	/* Without a p-value, the statistic is an artefact of the overflow. */
	if (isnan(i->p_raw))
		i->statistic = i->df = NAN;
	if (isnan(i->p_raw) && welch)
		strbuf_addf(&sb, "no test: values as large as %.4g overflow Welch's t-test (its variance is past a double's range); --test mann-whitney ranks them",
			    largest_value);
	else if (isnan(i->p_raw))
		strbuf_addf(&sb, "no test: values as large as %.4g overflow the test",
			    largest_value);
	i->ratio = NAN;
	if (i->a_mean == 0)
		strbuf_addf(&sb, "%sno ratio B/A: the mean in %s is 0",
			    sb.len ? "; " : "", c->a_name);
	else if (!isnan(i->a_mean) && !isnan(i->b_mean) && !isfinite(ratio))
		strbuf_addf(&sb, "%sno ratio B/A: %.4g / %.4g (the mean in %s) is past a double's range",
			    sb.len ? "; " : "", i->b_mean, i->a_mean, c->a_name);
	else
		i->ratio = ratio;
	if (lost.len)
		strbuf_addf(&sb, "%spast a double's range: %s", sb.len ? "; " : "",
			    strbuf_str(&lost));
	if (strbuf_failed(&lost))
		sb.failed = true;
	strbuf_release(&lost);
	if (!sb.len && !strbuf_failed(&sb))
		return 0;
	cell->reason = strbuf_detach(&sb);
	return cell->reason ? 0 : -ENOMEM;
}

/* Why a paired cell has no test: too few pairs with both values. */
static char *why_unpaired(size_t n, const struct cmp_values *v)
{
	char *s = NULL;

	return asprintf(&s, "%zu pair%s of runs measured in turn with values on both sides (of %zu and %zu runs): a paired test needs 2",
			n, n == 1 ? "" : "s", v->runs_a, v->runs_b) < 0 ? NULL : s;
}

/* Whether every defined value of A and of B is one and the same: such a
 * row (0 against 0) cannot differ, so it is not a test Holm counts. */
static bool cannot_differ(const struct cmp_values *v)
{
	size_t na = v->paired ? v->na : v->runs_a;
	size_t nb = v->paired ? v->nb : v->runs_b;
	double first = NAN;

	for (size_t i = 0; i < na + nb; i++) {
		double x = i < na ? v->a[i] : v->b[i - na];

		if (isnan(x))
			continue;
		if (isnan(first))
			first = x;
		else if (x != first)
			return false;
	}
	return !isnan(first);
}

static int fill_tested(struct hwp_compare *c, struct cmp_cell *cell,
		       const struct cmp_values *v, const struct series *sa,
		       const struct series *sb)
{
	struct hwp_compare_info *i = &cell->info;
	struct hwp_stats_test_result t = { .sz = sizeof(t) };
	size_t na = v->paired ? v->na : v->runs_a, nb = v->paired ? v->nb : v->runs_b;
	int err;

	i->a_n = v->na;
	i->b_n = v->nb;
	cell_clear(i);
	if (v->paired && v->na < 2 && sa->supported && sb->supported &&
	    cmp_defined(sa->values, v->runs_a) >= 2 &&
	    cmp_defined(sb->values, v->runs_b) >= 2) {
		cell->reason = why_unpaired(v->na, v);
		return cell->reason ? 0 : -ENOMEM;
	}
	if (v->na < 2 || v->nb < 2) {
		cell->reason = v->na < 2 ?
			       why_untested(sa, v->na, v->runs_a, c->a_name) :
			       why_untested(sb, v->nb, v->runs_b, c->b_name);
		return cell->reason ? 0 : -ENOMEM;
	}
	err = cmp_values_test(c, v, &t, cell);
	if (err)
		return err;
	cell->tested = true;
	c->paired |= v->paired;
	i->pairs = v->paired ? v->na : 0;
	/* One whose arithmetic overflowed gives no p-value, and a constant
	 * one cannot differ: neither is a test Holm counts. */
	cell->constant = cannot_differ(v);
	c->nr_constant += cell->constant;
	c->nr_tests += !isnan(t.p_value) && !cell->constant;
	summary_of(v->a, na, &i->a_mean, &i->a_cv);
	summary_of(v->b, nb, &i->b_mean, &i->b_cv);
	if (v->paired)
		cmp_pair_moments(v, i->b_mean / i->a_mean, cell);
	i->diff = t.diff;
	i->ci_low = t.ci_low;
	i->ci_high = t.ci_high;
	i->statistic = t.statistic;
	i->df = t.df;
	i->p_raw = i->p_value = t.p_value;
	i->exact = t.exact;
	i->a_outliers = outliers_of(v->a, na);
	i->b_outliers = outliers_of(v->b, nb);
	return explain_incomplete(c, cell, fmax(largest(v->a, na), largest(v->b, nb)));
}

static int fill_cell(struct hwp_compare *c, struct cmp_cell *cell,
		     const struct hwp_result *ra, const struct series *sa,
		     const struct hwp_result *rb, const struct series *sb)
{
	struct cmp_values v;
	int err = cmp_values_of(ra, sa, rb, sb, &v);

	if (!err)
		err = fill_tested(c, cell, &v, sa, sb);
	cmp_values_release(&v);
	return err;
}

/* Compare the rows of @ra and @rb (or of their units @aggr_unit). */
static int compare_rows(struct hwp_compare *c, size_t col, const struct hwp_result *ra,
			const struct hwp_result *rb, const char *aggr_unit)
{
	for (size_t i = 0; i < ra->nr_series; i++) {
		const struct series *sa = &ra->series[i], *sb = match(rb, ra, i);
		struct cmp_row *row;
		int err;

		if (!sb)
			continue;
		row = find_or_add_row(c, sa, series_occurrence(ra->series, i), aggr_unit);
		if (!row)
			return -ENOMEM;
		/* Filled already: "-e cs,context-switches" against "-e cs". */
		if (row->cells[col].tested || row->cells[col].reason)
			continue;
		err = fill_cell(c, &row->cells[col], ra, sa, rb, sb);
		if (err)
			return err;
	}
	return 0;
}

static const struct result_unit *unit_named(const struct hwp_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_units; i++)
		if (!strcmp(r->units[i].u.name, name))
			return &r->units[i];
	return NULL;
}

/* "per cpu (CPU0, CPU1)", or "as a whole". */
static void describe_units(const struct hwp_result *r, struct strbuf *sb)
{
	if (!r->nr_units) {
		strbuf_adds(sb, "as a whole");
		return;
	}
	strbuf_addf(sb, "per %s (", hwp_enum_name(HWP_ENUM_AGGR, r->aggr));
	for (size_t i = 0; i < r->nr_units; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", r->units[i].u.name);
	strbuf_addch(sb, ')');
}

/* Unit by unit, when both sides have the same units: each unit's rows as
 * a result of their own (a shallow view); else a warning that says why
 * only the totals are compared. */
static int compare_units(struct hwp_compare *c, size_t col, const struct hwp_result *ra,
			 const struct hwp_result *rb)
{
	bool same = ra->aggr == rb->aggr && ra->nr_units == rb->nr_units;
	int err = 0;

	if (!ra->nr_units && !rb->nr_units)
		return 0;
	for (size_t i = 0; same && i < ra->nr_units; i++)
		same = unit_named(rb, ra->units[i].u.name) != NULL;
	if (!same) {
		struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;

		describe_units(ra, &x);
		describe_units(rb, &y);
		err = cmp_warn(c, "%s is counted %s, %s %s: the totals are compared, not unit by unit",
			       c->a_name, strbuf_str(&x), c->b_name, strbuf_str(&y));
		strbuf_release(&x);
		strbuf_release(&y);
		return err;
	}
	for (size_t i = 0; !err && i < ra->nr_units; i++) {
		const struct result_unit *ua = &ra->units[i];
		const struct result_unit *ub = unit_named(rb, ua->u.name);
		struct hwp_result va = *ra, vb = *rb;

		va.series = ua->series;
		va.nr_series = ua->nr_series;
		vb.series = ub->series;
		vb.nr_series = ub->nr_series;
		err = compare_rows(c, col, &va, &vb, ua->u.name);
	}
	return err;
}

/* A view of region @rr as a result of its own, for compare_rows():
 * borrowed from @r and @rr. */
static void region_view(const struct hwp_result *r, const struct region_runs *rr,
			struct hwp_result *view)
{
	*view = *r;
	view->series = rr->rows;
	view->nr_series = rr->nr_rows;
	view->nr_runs = rr->nr_runs;
	view->nr_units = 0;
	view->units = NULL;
	/* A run without regions leaves a gap: the region's runs pair only
	 * when every run has them. */
	if (rr->nr_runs != r->nr_runs)
		memset(&view->order, 0, sizeof(view->order));
}

/* The regions both sides entered (stat --regions -r N), region by region,
 * each row a row of its own: its unit is "region:NAME". */
static int compare_regions(struct hwp_compare *c, size_t col, const struct hwp_result *ra,
			   const struct hwp_result *rb)
{
	struct region_runs *xa = NULL, *xb = NULL;
	size_t na = 0, nb = 0;
	int err;

	if (!ra->nr_regionsets || !rb->nr_regionsets)
		return 0;
	err = region_runs_build(ra->regionsets, ra->nr_regionsets, &xa, &na) ?:
	      region_runs_build(rb->regionsets, rb->nr_regionsets, &xb, &nb);
	for (size_t i = 0; !err && i < na; i++) {
		struct hwp_result va, vb;
		char *label = NULL;

		for (size_t j = 0; j < nb; j++) {
			if (strcmp(xa[i].name, xb[j].name))
				continue;
			region_view(ra, &xa[i], &va);
			region_view(rb, &xb[j], &vb);
			if (asprintf(&label, "region:%s", xa[i].name) < 0)
				return region_runs_free(xa, na), region_runs_free(xb, nb),
				       -ENOMEM;
			err = compare_rows(c, col, &va, &vb, label);
			free(label);
			break;
		}
	}
	region_runs_free(xa, na);
	region_runs_free(xb, nb);
	return err;
}

/* Compare the results of one column, adding the rows they share: the
 * totals, then unit by unit, then region by region. */
static int compare_column(struct hwp_compare *c, size_t col, const struct hwp_result *ra,
			  const struct hwp_result *rb)
{
	char *unpaired = NULL;
	int err = run_order_paired(ra, rb) ?
		  cmp_pairs_warning(ra, rb, c->a_name, c->b_name, &unpaired) : 0;

	if (!err && unpaired)
		err = cmp_warn(c, "%s", unpaired);
	free(unpaired);
	return err ?: compare_rows(c, col, ra, rb, NULL) ?:
	       compare_units(c, col, ra, rb) ?: compare_regions(c, col, ra, rb);
}

/*
 * The cells of rows that a column's results lack on one side: no numbers
 * (not the zeros they were allocated with), and which side lacks the row.
 * A row is named as A has it, where compare_column() added it.
 */
static int explain_absent(struct hwp_compare *c, const struct hwp_sweep *a,
			  const size_t *pair_a)
{
	for (size_t i = 0; i < c->nr_rows; i++) {
		struct cmp_row *row = &c->rows[i];

		for (size_t k = 0; k < c->nr_columns; k++) {
			struct cmp_cell *cell = &row->cells[k];
			const struct hwp_result *ra = a->results[pair_a[k]];
			bool in_a = series_nth(ra->series, ra->nr_series, row->kind,
					       row->name, row->nth) >= 0;

			if (cell->tested || cell->reason)
				continue;
			cell_clear(&cell->info);
			if (asprintf(&cell->reason, "not in %s",
				     in_a ? c->b_name : c->a_name) < 0) {
				cell->reason = NULL;
				return -ENOMEM;
			}
		}
	}
	return 0;
}

/* How many times a result of @sw lists @sr (its kind and name), at most. */
static size_t times_listed(const struct hwp_sweep *sw, const struct series *sr)
{
	size_t most = 0;

	for (size_t q = 0; q < sw->nr; q++) {
		const struct hwp_result *r = sw->results[q];
		size_t n = 0;

		for (size_t i = 0; i < r->nr_series; i++)
			n += r->series[i].kind == sr->kind &&
			     !strcmp(r->series[i].name, sr->name);
		most = n > most ? n : most;
	}
	return most;
}

/* "x, y, z" of the rows of @sw that @other lacks in every column; a row
 * listed more times than @other lists it is named by its place, since the
 * first ones were compared. */
static void only_in(const struct hwp_sweep *sw, const char *name,
		    const struct hwp_sweep *other, const char *other_name,
		    struct strbuf *sb)
{
	for (size_t p = 0; p < sw->nr; p++) {
		const struct hwp_result *r = sw->results[p];

		for (size_t i = 0; i < r->nr_series; i++) {
			const struct series *sr = &r->series[i];
			size_t nth = series_occurrence(r->series, i), there;
			bool anywhere = false, listed = false;

			for (size_t q = 0; q < other->nr && !anywhere; q++)
				anywhere = match(other->results[q], r, i);
			for (size_t q = 0; q < p && !listed; q++)
				listed = match(sw->results[q], r, i) != NULL;
			if (anywhere || listed)
				continue;
			there = nth ? times_listed(other, sr) : 0;
			if (!there) {
				strbuf_addf(sb, "%s%s", sb->len ? ", " : "", sr->name);
				continue;
			}
			strbuf_addf(sb, "%sthe %zu%s %s ", sb->len ? ", " : "", nth + 1,
				    nth == 1 ? "nd" : nth == 2 ? "rd" : "th", sr->name);
			strbuf_addf(sb, "(%s lists it %zu times, %s %zu: the first %zu compared)",
				    name, times_listed(sw, sr), other_name, there, there);
		}
	}
}

static int warn_one_sided(struct hwp_compare *c, const struct hwp_sweep *a,
			  const struct hwp_sweep *b)
{
	struct strbuf sa = STRBUF_INIT, sb = STRBUF_INIT;
	int err = 0;

	only_in(a, c->a_name, b, c->b_name, &sa);
	only_in(b, c->b_name, a, c->a_name, &sb);
	if (sa.len)
		err = cmp_warn(c, "only in %s, not compared: %s", c->a_name,
			       strbuf_str(&sa));
	if (!err && sb.len)
		err = cmp_warn(c, "only in %s, not compared: %s", c->b_name,
			       strbuf_str(&sb));
	strbuf_release(&sa);
	strbuf_release(&sb);
	return err;
}

/* Rows without a single test say nothing: leave them out, and say so. */
static int drop_untested_rows(struct hwp_compare *c)
{
	const char *why = NULL;
	size_t kept = 0;
	int err = 0;

	for (size_t i = 0; i < c->nr_rows; i++) {
		struct cmp_row *row = &c->rows[i];
		bool tested = false;

		for (size_t k = 0; k < c->nr_columns; k++)
			tested |= row->cells[k].tested;
		if (tested) {
			c->rows[kept++] = *row;
			continue;
		}
		for (size_t k = 0; k < c->nr_columns && !why; k++)
			why = row->cells[k].reason;
		if (!err)
			err = cmp_warn(c, "no test for %s: %s", row->label,
				       why ? why : "no values");
		why = NULL;
		row_release(row, c->nr_columns);
	}
	c->nr_rows = kept;
	return err;
}

static int build(struct hwp_compare *c, const struct hwp_sweep *a,
		 const struct hwp_sweep *b)
{
	size_t *pair_a = calloc(a->nr + 1, sizeof(*pair_a));
	size_t *pair_b = calloc(a->nr + 1, sizeof(*pair_b));
	bool any_common;
	int err;

	c->columns = calloc(a->nr + 1, sizeof(*c->columns));
	c->a_runs = calloc(a->nr + 1, sizeof(*c->a_runs));
	c->b_runs = calloc(a->nr + 1, sizeof(*c->b_runs));
	err = pair_a && pair_b && c->columns && c->a_runs && c->b_runs ? 0 : -ENOMEM;
	if (!err)
		err = cmp_pair_columns(c, a, b, pair_a, pair_b);
	if (!err && !c->nr_columns)
		err = fail(-HWP_ERR_MISMATCH,
			   "the sweeps %s and %s have no %s value in common",
			   c->a_name, c->b_name, a->param);
	if (!err)
		err = cmp_check_runs(c);
	for (size_t k = 0; !err && k < c->nr_columns; k++)
		err = compare_column(c, k, a->results[pair_a[k]], b->results[pair_b[k]]);
	if (!err)
		err = explain_absent(c, a, pair_a);
	free(pair_a);
	free(pair_b);
	any_common = c->nr_rows > 0;
	if (!err)
		err = warn_one_sided(c, a, b) ?: drop_untested_rows(c);
	if (!err && !c->nr_rows)
		return cmp_mismatch_no_rows(c, a, b, any_common);
	if (!err)
		err = cmp_correct_and_decide(c) ?: cmp_rank_noise(c) ?:
		      cmp_warn_context(c, a, b) ?: cmp_rules_check(c);
	if (err == -ENOMEM)
		return fail(err, "out of memory");
	return err;
}

/* The caller's order, read as OPTS_COPY would: only within its opts' size. */
static const char *opts_order(const struct hwp_compare_opts *o)
{
	return o && o->sz >= offsetofend(struct hwp_compare_opts, order) ?
	       o->order : NULL;
}

HWP_API int hwp_compare_from_sweeps(const struct hwp_sweep *a, const struct hwp_sweep *b,
			       const struct hwp_compare_opts *opts,
			       struct hwp_compare **out)
{
	struct hwp_compare *c;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_compare_from_sweeps: out is NULL");
	*out = NULL;
	if (!a || !b || !a->nr || !b->nr)
		return fail(-EINVAL, "hwp_compare_from_sweeps: NULL or empty sweep");
	c = calloc(1, sizeof(*c));
	if (!c)
		return fail(-ENOMEM, "out of memory");
	err = OPTS_COPY(&c->opts, opts, hwp_compare_opts);
	if (err)
		goto err;
	if (!c->opts.alpha)
		c->opts.alpha = 0.05;
	c->opts.sz = sizeof(c->opts);
	if (!(c->opts.alpha > 0 && c->opts.alpha < 1)) {
		err = fail(-EINVAL, "alpha %g is not between 0 and 1", c->opts.alpha);
		goto err;
	}
	if (c->opts.test != HWP_TEST_WELCH && c->opts.test != HWP_TEST_MANN_WHITNEY) {
		err = fail(-EINVAL, "hwp_compare_from_sweeps: unknown test %d",
			   (int)c->opts.test);
		goto err;
	}
	/* The caller's strings are copied, never kept. */
	c->a_name = strdup(c->opts.a_name ? c->opts.a_name : cmp_side_name(a, "A"));
	c->b_name = strdup(c->opts.b_name ? c->opts.b_name : cmp_side_name(b, "B"));
	c->order = c->opts.order ? strdup(c->opts.order) : NULL;
	err = cmp_rules_parse(c, c->opts.fail_on, c->opts.nr_fail_on);
	if (err)
		goto err;
	c->opts.a_name = c->opts.b_name = c->opts.order = NULL;
	c->opts.fail_on = NULL;
	c->param = a->param ? strdup(a->param) : NULL;
	if (!c->a_name || !c->b_name || (a->param && !c->param) ||
	    (opts_order(opts) && !c->order)) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	if (!a->param != !b->param) {
		err = fail(-HWP_ERR_MISMATCH,
			       "%s is a sweep over %s and %s a single result: compare a sweep with a sweep",
			       a->param ? c->a_name : c->b_name,
			       a->param ? a->param : b->param,
			       a->param ? c->b_name : c->a_name);
		goto err;
	}
	err = build(c, a, b);
	if (err)
		goto err;
	*out = c;
	return 0;
err:
	hwp_compare_free(c);
	return err;
}

HWP_API int hwp_compare_from_results(const struct hwp_result *a,
				     const struct hwp_result *b,
				     const struct hwp_compare_opts *opts,
				     struct hwp_compare **out)
{
	/* Each result as a sweep of one point, borrowed for the call. */
	char *none = NULL;
	struct hwp_result *ra = (struct hwp_result *)a, *rb = (struct hwp_result *)b;
	struct hwp_sweep sa = { .values = &none, .results = &ra, .nr = 1 };
	struct hwp_sweep sb = { .values = &none, .results = &rb, .nr = 1 };

	if (!a || !b) {
		clear_error();
		if (out)
			*out = NULL;
		return fail(-EINVAL, "hwp_compare_from_results: NULL argument");
	}
	return hwp_compare_from_sweeps(&sa, &sb, opts, out);
}

HWP_API size_t hwp_compare_nr_rows(const struct hwp_compare *c)
{
	return c ? c->nr_rows : 0;
}

HWP_API size_t hwp_compare_nr_columns(const struct hwp_compare *c)
{
	return c ? c->nr_columns : 0;
}

HWP_API size_t hwp_compare_nr_tests(const struct hwp_compare *c)
{
	return c ? c->nr_tests : 0;
}

HWP_API int hwp_compare_cell(const struct hwp_compare *c, size_t row, size_t col,
			     struct hwp_compare_info *info)
{
	struct hwp_compare_info copy;

	if (!c || row >= c->nr_rows || col >= c->nr_columns)
		return fail(-EINVAL, "hwp_compare_cell: no cell (%zu, %zu)", row, col);
	copy = c->rows[row].cells[col].info;
	copy.sz = sizeof(copy);
	return info_fill(info, &copy, sizeof(copy));
}

HWP_API const char *hwp_compare_warning(const struct hwp_compare *c, size_t idx)
{
	return c && idx < c->nr_warnings ? c->warnings[idx] : NULL;
}
