// SPDX-License-Identifier: MIT
/* Results: the events and metrics of a measurement, one value per run. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "result/result.h"

#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

HWP_API int hwp_result_new(struct hwp_result **out)
{
	struct hwp_result *r;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_result_new: out is NULL");
	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return fail(-ENOMEM, "out of memory");
	r->exit_code = -1;
	*out = r;
	return 0;
}

HWP_API int hwpriv_result_read_environment(struct hwp_result *r)
{
	clear_error();
	if (!r)
		return fail(-EINVAL, "hwpriv_result_read_environment: r is NULL");
	if (r->loaded)
		return fail(-EINVAL, "hwpriv_result_read_environment: the result was read from %s, and keeps the environment it was measured in",
			    r->source ? r->source : "a file");
	environment_release(&r->env);
	return environment_read(&r->env, true) ? fail(-ENOMEM, "out of memory") : 0;
}

/* The units' memory is the result's (result-units.c fills them), so that
 * calls go one way: result-units.c on result.c. */
static void free_units(struct hwp_result *r)
{
	for (size_t i = 0; i < r->nr_units; i++) {
		struct result_unit *u = &r->units[i];

		for (size_t j = 0; j < u->nr_series; j++)
			series_release(&u->series[j]);
		free(u->series);
		unit_release(&u->u);
	}
	free(r->units);
}

HWP_API void hwp_result_free(struct hwp_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_series; i++)
		series_release(&r->series[i]);
	free(r->series);
	for (size_t i = 0; i < r->nr_user; i++)
		hwp_metric_free(r->user[i]);
	free(r->user);
	strv_free(r->scores);
	strv_free(r->argv);
	free(r->source);
	free(r->spec);
	free(r->target);
	free(r->seconds);
	environment_release(&r->env);
	for (size_t i = 0; i < r->nr_regionsets; i++)
		hwp_regionset_free(r->regionsets[i]);
	free(r->regionsets);
	free_units(r);
	run_order_release(&r->order);
	free(r);
}

int argv_set(char ***dst, char *const *argv, const char *fn)
{
	char **copy;

	clear_error();
	if (!dst || !argv)
		return fail(-EINVAL, "%s: NULL argument", fn);
	copy = strv_dup(argv);
	if (!copy)
		return fail(-ENOMEM, "out of memory");
	strv_free(*dst);
	*dst = copy;
	return 0;
}

HWP_API int hwp_result_set_command(struct hwp_result *r, char *const argv[])
{
	return argv_set(r ? &r->argv : NULL, argv, "hwp_result_set_command");
}

HWP_API int hwpriv_result_set_target(struct hwp_result *r, const char *target)
{
	char *copy = NULL;

	clear_error();
	if (!r)
		return fail(-EINVAL, "hwpriv_result_set_target: NULL result");
	if (target && !(copy = strdup(target)))
		return fail(-ENOMEM, "out of memory");
	free(r->target);
	r->target = copy;
	return 0;
}

HWP_API int hwp_result_add_metric(struct hwp_result *r, const struct hwp_metric *m)
{
	struct hwp_metric *copy, **n;
	char *def;
	int err;

	clear_error();
	if (!r || !m)
		return fail(-EINVAL, "hwp_result_add_metric: NULL argument");
	if (r->nr_runs || r->loaded)
		return fail(-EBUSY, "metric '%s': add metrics before the first run",
				hwp_metric_name(m));
	for (size_t i = 0; i < r->nr_user; i++)
		if (!strcmp(hwp_metric_name(r->user[i]), hwp_metric_name(m)))
			return fail(-EEXIST, "metric '%s' is given twice",
				    hwp_metric_name(m));
	for (size_t i = 0; i < r->nr_scores; i++)
		if (names_match_loosely(r->scores[i], hwp_metric_name(m)))
			return fail(-EEXIST, "metric '%s': the name is a score already",
				    hwp_metric_name(m));
	/* A built-in lives as long as the process: asked for by name, it is
	 * a row even when its events do not count, and keeps its place. */
	if (metric_is_builtin(m)) {
		copy = (struct hwp_metric *)m;
	} else {
		if (asprintf(&def, "%s=%s", hwp_metric_name(m), metric_expr(m)) < 0)
			return fail(-ENOMEM, "out of memory");
		err = hwp_metric_parse(def, &copy);
		free(def);
		if (err)
			return err;
	}
	n = realloc(r->user, (r->nr_user + 1) * sizeof(*n));
	if (!n) {
		hwp_metric_free(copy);
		return fail(-ENOMEM, "out of memory");
	}
	r->user = n;
	r->user[r->nr_user++] = copy;
	return 0;
}

/* The rows grow by half again, not one at a time: a row at a time moved
 * the array past the names allocated after it, onto fresh heap pages
 * (a page fault each, tens of microseconds in a VM) every few rows. The
 * allocation's usable size is the capacity: no count to keep beside it,
 * and an array sized elsewhere (field_rows()) is safe here too. */
static struct series *add_series(struct series **rows, size_t *nr)
{
	struct series *n = *rows;

	if (malloc_usable_size(n) < (*nr + 1) * sizeof(*n)) {
		n = realloc(n, (*nr + *nr / 2 + 8) * sizeof(*n));
		if (!n)
			return NULL;
		*rows = n;
	}
	n = &n[(*nr)++];
	memset(n, 0, sizeof(*n));
	return n;
}

struct counted_ctx {
	const struct hwp_session *s;
};

/* A built-in metric is a row only when every input is an event that counts. */
static int input_counted(const char *name, void *arg)
{
	const struct counted_ctx *cc = arg;
	enum hwp_event_status st;
	size_t n;

	if (session_operand(cc->s, name, &n, &st) < 0)
		return 1;
	return st == HWP_EVENT_COUNTING || st == HWP_EVENT_USER_ONLY ? 0 : 1;
}

/* Whether every event @m reads can be counted here: a metric of an event
 * that is not supported is not either (its row says <not supported>). */
static bool metric_supported(const struct hwp_metric *m, const struct counted_ctx *cc)
{
	enum hwp_event_status st;
	const char *name;
	size_t n;

	for (size_t i = 0; (name = hwpriv_metric_input(m, i)); i++)
		if (session_operand(cc->s, name, &n, &st) >= 0 &&
		    st == HWP_EVENT_NOT_SUPPORTED)
			return false;
	return true;
}

/* A metric's row: its name, unit and formula, and which of several events
 * a name reads when it says so. 0 or -ENOMEM. */
static int metric_row_fill(struct series *sr, const struct counted_ctx *cc)
{
	const struct hwp_evlist *evl = hwp_session_evlist(cc->s);
	struct strbuf note = STRBUF_INIT;
	bool noted;

	sr->supported = metric_supported(sr->metric, cc);

	sr->name = strdup(hwp_metric_name(sr->metric));
	sr->unit = strdup(metric_unit(sr->metric));
	sr->expr = strdup(metric_expr(sr->metric));
	noted = metric_operand_note(sr->metric, evl, &note);
	if (noted && !strbuf_failed(&note))
		sr->note = strbuf_detach(&note);
	strbuf_release(&note);
	return !sr->name || !sr->unit || !sr->expr || (noted && !sr->note) ? -ENOMEM : 0;
}

/* The row of event @e of @s, and of the instances merged into it: 0 or
 * -ENOMEM. */
static int event_row_fill(struct series *sr, const struct hwp_session *s, size_t e)
{
	const struct hwp_evlist *evl = hwp_session_evlist(s);
	const struct event *ev = &evl->events[e];
	size_t events = evlist_row_events(evl, e);
	const char *reason;
	enum hwp_event_status st = session_row_status(s, e, events, &reason);

	sr->kind = HWP_SERIES_EVENT;
	sr->name = strdup(ev->name);
	/* The sum of instances is none of them: its name is the PMU's. */
	sr->canonical = events > 1 ?
			strndup(ev->name, modifier_split(ev->name, strlen(ev->name))) :
			strdup(ev->canonical);
	/* The row's values are counts times the scale, in its unit. */
	sr->unit = strdup(event_value_unit(ev));
	sr->scale = event_scale(ev);
	sr->supported = st == HWP_EVENT_COUNTING || st == HWP_EVENT_USER_ONLY;
	sr->user_only = st == HWP_EVENT_USER_ONLY;
	sr->reason = reason ? strdup(reason) : NULL;
	if (!sr->name || !sr->canonical || !sr->unit || (reason && !sr->reason))
		return -ENOMEM;
	return 0;
}

int result_rows_new(const struct hwp_result *r, const struct hwp_session *s,
		    struct series **rows, size_t *nr, size_t *nr_events)
{
	const struct hwp_evlist *evl = hwp_session_evlist(s);
	struct counted_ctx cc = { s };

	for (size_t e = 0; e < evl->nr_events; e += evlist_row_events(evl, e)) {
		struct series *sr = add_series(rows, nr);

		if (!sr || event_row_fill(sr, s, e))
			return -ENOMEM;
		(*nr_events)++;
	}
	for (size_t i = 0; i < r->nr_user; i++) {
		struct series *sr = add_series(rows, nr);

		if (!sr)
			return -ENOMEM;
		sr->kind = HWP_SERIES_METRIC;
		sr->metric = r->user[i];
		sr->supported = true;
		sr->builtin = metric_is_builtin(r->user[i]);
	}
	for (size_t i = 0; i < metric_nr_builtins(); i++) {
		const struct hwp_metric *m;
		struct series *sr;
		bool taken = false;

		/* Parsed only when its inputs count (most do not). */
		if (metric_builtin_foreach_input(i, input_counted, &cc))
			continue;
		m = hwp_metric_builtin(i);
		if (!m)
			return -ENOMEM;
		for (size_t j = 0; j < r->nr_user; j++)
			taken |= !strcmp(hwp_metric_name(r->user[j]), hwp_metric_name(m));
		if (taken)
			continue;
		sr = add_series(rows, nr);
		if (!sr)
			return -ENOMEM;
		sr->kind = HWP_SERIES_METRIC;
		sr->metric = m;
		sr->supported = true;
		sr->builtin = true;
	}
	for (size_t i = *nr_events; i < *nr; i++)
		if (metric_row_fill(&(*rows)[i], &cc))
			return -ENOMEM;
	for (size_t i = 0; i < r->nr_scores; i++) {
		struct series *sr = add_series(rows, nr);

		if (!sr)
			return -ENOMEM;
		sr->kind = HWP_SERIES_SCORE;
		sr->supported = true;
		sr->name = strdup(r->scores[i]);
		sr->unit = strdup("");
		if (!sr->name || !sr->unit)
			return -ENOMEM;
	}
	return 0;
}

/* Whether @name is taken by a score or a metric of @r, or a built-in one. */
static const char *name_taken(const struct hwp_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_scores; i++)
		if (names_match_loosely(r->scores[i], name))
			return "a score";
	for (size_t i = 0; i < r->nr_user; i++)
		if (names_match_loosely(hwp_metric_name(r->user[i]), name))
			return "a metric";
	for (size_t i = 0; hwp_metric_builtin(i); i++)
		if (names_match_loosely(hwp_metric_name(hwp_metric_builtin(i)), name))
			return "a built-in metric";
	return NULL;
}

HWP_API int hwpriv_result_add_score(struct hwp_result *r, const char *name)
{
	const char *taken;
	char **n;

	clear_error();
	if (!r || !name)
		return fail(-EINVAL, "hwpriv_result_add_score: NULL argument");
	if (r->nr_runs || r->loaded)
		return fail(-EBUSY, "score '%s': add scores before the first run", name);
	if (!metric_is_name(name))
		return fail(-HWP_ERR_SYNTAX,
			    "score '%s': not a name a metric formula can use: a letter or '_', then letters, digits, '_', '.', ':' or '-', and not 'seconds'",
			    name);
	taken = name_taken(r, name);
	if (taken)
		return fail(-EEXIST, "score '%s': the name is %s already", name, taken);
	n = realloc(r->scores, (r->nr_scores + 2) * sizeof(*n));
	if (!n)
		return fail(-ENOMEM, "out of memory");
	r->scores = n;
	n[r->nr_scores] = strdup(name);
	if (!n[r->nr_scores])
		return fail(-ENOMEM, "out of memory");
	n[++r->nr_scores] = NULL;
	return 0;
}

static int score_value(const char *name, double *value, void *arg)
{
	const struct score_lookup *sl = arg;

	for (size_t i = 0; i < sl->r->nr_scores; i++)
		if (names_match_loosely(sl->r->scores[i], name)) {
			*value = sl->scores[i];
			return isnan(*value) ? -HWP_ERR_UNDEFINED : 0;
		}
	return -ENOENT;
}

static int first_run(struct hwp_result *r, const struct hwp_session *s)
{
	const struct hwp_evlist *evl = hwp_session_evlist(s);

	r->spec = strdup(evl->spec);
	if (!r->spec)
		return -ENOMEM;
	return result_rows_new(r, s, &r->series, &r->nr_series, &r->nr_events);
}

static int grow(double **a, size_t n)
{
	double *p = realloc(*a, n * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*a = p;
	return 0;
}

int result_rows_add(struct series *rows, size_t nr_rows, const struct hwp_session *s,
		    const struct hwp_count *counts, double seconds, size_t n,
		    const struct score_lookup *sl)
{
	const struct hwp_evlist *evl = hwp_session_evlist(s);

	for (size_t i = 0, k = 0, e = 0; i < nr_rows; i++) {
		struct series *sr = &rows[i];
		struct hwp_count c;
		size_t first;
		int err;

		if (grow(&sr->values, n))
			return -ENOMEM;
		/* hwp_result_set_run_times() gives them, after the run. */
		if (sr->kind == HWP_SERIES_TIME) {
			sr->values[n - 1] = NAN;
			continue;
		}
		if (sr->kind == HWP_SERIES_SCORE) {
			sr->values[n - 1] = counts && sl ? sl->scores[k] : NAN;
			k++;
			continue;
		}
		if (sr->kind == HWP_SERIES_EVENT) {
			/* The row's events, from @first: its instances merged */
			first = e;
			e += evlist_row_events(evl, e);
			if (grow(&sr->pct, n) || grow(&sr->running, n))
				return -ENOMEM;
			if (!counts || !sr->supported) {	/* not in this run */
				sr->values[n - 1] = sr->pct[n - 1] = NAN;
				sr->running[n - 1] = NAN;
				continue;
			}
			c = session_row_count(counts, first, e - first);
			/* In the event's unit: a PMU's NAME.scale applies. */
			sr->values[n - 1] = session_row_scaled(counts, first, e - first) *
					    event_scale(evlist_get(evl, first));
			sr->pct[n - 1] = hwp_count_percent_running(&c);
			sr->running[n - 1] = (double)c.time_running;
			continue;
		}
		if (!counts) {
			sr->values[n - 1] = NAN;
			continue;
		}
		err = session_metric_with(s, counts, seconds, sr->metric,
					  sl ? score_value : NULL, (void *)sl,
					  &sr->values[n - 1]);
		if (err) {
			free(sr->reason);
			sr->reason = strdup(hwp_errmsg());
		}
	}
	return 0;
}

int result_check_run(struct hwp_result *r, const struct hwp_session *s)
{
	const struct hwp_evlist *evl = hwp_session_evlist(s);

	if (r->loaded)
		return fail(-EBUSY, "a result read from %s takes no more runs",
			    r->source);
	if (r->nr_runs &&
	    (strcmp(r->spec, evl->spec) || r->nr_events != evlist_nr_rows(evl)))
		return fail(-HWP_ERR_MISMATCH,
				"run %zu counted '%s', but the first run counted '%s'",
				r->nr_runs + 1, evl->spec, r->spec);
	return 0;
}

int result_add_total(struct hwp_result *r, const struct hwp_session *s,
		     const struct hwp_count *counts, double seconds,
		     const struct score_lookup *sl)
{
	size_t n = r->nr_runs + 1;

	if (!r->nr_runs && first_run(r, s))
		return fail(-ENOMEM, "out of memory");
	if (grow(&r->seconds, n))
		return fail(-ENOMEM, "out of memory");
	r->seconds[n - 1] = seconds;
	if (result_rows_add(r->series, r->nr_series, s, counts, seconds, n, sl))
		return fail(-ENOMEM, "out of memory");
	return 0;
}

HWP_API int hwp_result_add_run(struct hwp_result *r, const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds)
{
	clear_error();
	if (r && r->nr_scores)
		return fail(-EINVAL,
			    "the result has %zu score%s: give each run's with hwpriv_result_add_scored_run()",
			    r->nr_scores, r->nr_scores == 1 ? "" : "s");
	return hwpriv_result_add_scored_run(r, s, counts, seconds, NULL, 0);
}

HWP_API int hwpriv_result_add_scored_run(struct hwp_result *r,
					 const struct hwp_session *s,
				      const struct hwp_count *counts, double seconds,
				      const double *scores, size_t nr_scores)
{
	struct score_lookup sl = { r, scores };
	int err;

	clear_error();
	if (!r || !s || !counts || (!scores && nr_scores))
		return fail(-EINVAL, "hwp_result_add_run: NULL argument");
	if (nr_scores != r->nr_scores)
		return fail(-EINVAL,
			    "hwpriv_result_add_scored_run: %zu score%s given, but the result has %zu",
			    nr_scores, nr_scores == 1 ? "" : "s", r->nr_scores);
	err = result_check_run(r, s) ?:
	      result_add_total(r, s, counts, seconds, &sl);
	if (err)
		return err;
	r->nr_runs++;
	clear_error();
	return 0;
}

static const char *const time_rows[] = { "elapsed", "user", "system" };

/* The time rows, after every other row; NAN in the runs so far. */
static int add_time_rows(struct hwp_result *r)
{
	for (size_t t = 0; t < sizeof(time_rows) / sizeof(time_rows[0]); t++) {
		struct series *sr = add_series(&r->series, &r->nr_series);

		if (!sr)
			return -ENOMEM;
		sr->kind = HWP_SERIES_TIME;
		sr->supported = true;
		sr->name = strdup(time_rows[t]);
		sr->unit = strdup("seconds");
		sr->values = malloc(r->nr_runs * sizeof(*sr->values));
		if (!sr->name || !sr->unit || !sr->values)
			return -ENOMEM;
		for (size_t k = 0; k < r->nr_runs; k++)
			sr->values[k] = NAN;
	}
	return 0;
}

HWP_API int hwp_result_set_run_times(struct hwp_result *r, double user, double system)
{
	long at;

	clear_error();
	if (!r || !r->nr_runs)
		return fail(-EINVAL, "hwp_result_set_run_times: %s",
			    r ? "the result has no run yet" : "NULL result");
	if (r->loaded)
		return fail(-EBUSY, "a result read from %s takes no more runs",
			    r->source);
	at = series_nth(r->series, r->nr_series, HWP_SERIES_TIME, time_rows[0], 0);
	if (at < 0) {
		at = (long)r->nr_series;
		if (add_time_rows(r))
			return fail(-ENOMEM, "out of memory");
	}
	r->series[at].values[r->nr_runs - 1] = r->seconds[r->nr_runs - 1];
	r->series[at + 1].values[r->nr_runs - 1] = user;
	r->series[at + 2].values[r->nr_runs - 1] = system;
	return 0;
}

int result_rows_of_reading(const struct hwp_session *s, const struct hwp_count *counts,
			   double seconds, struct series **rows, size_t *nr_rows,
			   size_t *nr_events)
{
	struct hwp_result *r;
	int err = hwp_result_new(&r) ?: hwp_result_add_run(r, s, counts, seconds);

	if (!err) {
		*rows = r->series;
		*nr_rows = r->nr_series;
		*nr_events = r->nr_events;
		r->series = NULL;
		r->nr_series = 0;
	}
	hwp_result_free(r);
	return err;
}

HWP_API void hwp_result_set_exit_status(struct hwp_result *r, int code)
{
	if (r)
		r->exit_code = code;
}

int result_add_regionset(struct hwp_result *r, struct hwp_regionset *rs)
{
	struct hwp_regionset **n = realloc(r->regionsets,
					   (r->nr_regionsets + 1) * sizeof(*n));

	if (!n)
		return fail(-ENOMEM, "out of memory");
	r->regionsets = n;
	r->regionsets[r->nr_regionsets++] = rs;
	return 0;
}

HWP_API size_t hwp_result_nr_regionsets(const struct hwp_result *r)
{
	return r ? r->nr_regionsets : 0;
}

HWP_API const struct hwp_regionset *hwp_result_regionset(const struct hwp_result *r,
							 size_t idx)
{
	return r && idx < r->nr_regionsets ? r->regionsets[idx] : NULL;
}

HWP_API size_t hwp_result_nr_runs(const struct hwp_result *r)
{
	return r ? r->nr_runs : 0;
}

HWP_API size_t hwp_result_nr_series(const struct hwp_result *r)
{
	return r ? r->nr_series : 0;
}

HWP_API const double *hwp_result_seconds(const struct hwp_result *r)
{
	return r ? r->seconds : NULL;
}

HWP_API int hwp_result_series(const struct hwp_result *r, size_t idx,
			      struct hwp_series_info *info)
{
	struct hwp_series_info i;

	if (!r || idx >= r->nr_series)
		return fail(-EINVAL, "hwp_result_series: no row %zu", idx);
	series_info(r->series, r->nr_series, idx, r->nr_runs, r->seconds, &i);
	return info_fill(info, &i, sizeof(i));
}

static bool row_matches(const struct series *sr, const char *name)
{
	struct event ev = event_of_row(sr->name, sr->canonical);

	if (sr->kind == HWP_SERIES_EVENT && sr->canonical)
		return event_name_matches(&ev, name);
	return names_match_loosely(sr->name, name);
}

HWP_API int hwp_result_find(const struct hwp_result *r, const char *name, size_t *idx)
{
	struct strbuf rows = STRBUF_INIT;

	clear_error();
	if (!r || !name || !idx)
		return fail(-EINVAL, "hwp_result_find: NULL argument");
	/* Exact names first: a loose match never hides the row named. */
	for (size_t i = 0; i < r->nr_series; i++)
		if (!strcmp(r->series[i].name, name)) {
			*idx = i;
			return 0;
		}
	for (size_t i = 0; i < r->nr_series; i++)
		if (row_matches(&r->series[i], name)) {
			*idx = i;
			return 0;
		}
	for (size_t i = 0; i < r->nr_series; i++)
		strbuf_addf(&rows, "%s%s", i ? ", " : "", r->series[i].name);
	fail(-ENOENT, "no event or metric '%s' in the result; its rows are: %s", name,
		 r->nr_series ? strbuf_str(&rows) : "(none)");
	strbuf_release(&rows);
	return -ENOENT;
}
