// SPDX-License-Identifier: MIT
/* Sweeps: one result per value of a parameter, written as one column each. */
#include "core/core.h"
#include "result/result.h"
#include "sweep/sweep.h"
#include "util/json-writer.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool valid_param(const char *p)
{
	if (!p || !*p)
		return false;
	for (; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return false;
	return true;
}

int sweep_alloc(const char *param, struct hwp_sweep **out)
{
	struct hwp_sweep *sw = calloc(1, sizeof(*sw));

	*out = NULL;
	if (!sw || (param && !(sw->param = strdup(param)))) {
		free(sw);
		return fail(-ENOMEM, "out of memory");
	}
	*out = sw;
	return 0;
}

HWP_API int hwpriv_sweep_new(const char *param, struct hwp_sweep **out)
{
	clear_error();
	if (!out)
		return fail(-EINVAL, "hwpriv_sweep_new: out is NULL");
	*out = NULL;
	if (!valid_param(param))
		return fail(-EINVAL,
				"sweep parameter '%s': a name is letters, digits, '_' and '-'",
				param ? param : "(null)");
	return sweep_alloc(param, out);
}

HWP_API void hwp_sweep_free(struct hwp_sweep *sw)
{
	if (!sw)
		return;
	for (size_t i = 0; i < sw->nr; i++) {
		free(sw->values[i]);
		hwp_result_free(sw->results[i]);
	}
	free(sw->values);
	free(sw->results);
	strv_free(sw->argv);
	free(sw->param);
	free(sw);
}

HWP_API int hwpriv_sweep_set_command(struct hwp_sweep *sw, char *const argv[])
{
	return argv_set(sw ? &sw->argv : NULL, argv, "hwpriv_sweep_set_command");
}

int sweep_push(struct hwp_sweep *sw, const char *value, struct hwp_result *r)
{
	char **values, *copy = NULL;
	struct hwp_result **results;

	if (value && !(copy = strdup(value)))
		return fail(-ENOMEM, "out of memory");
	values = realloc(sw->values, (sw->nr + 1) * sizeof(*values));
	if (values)
		sw->values = values;
	results = values ? realloc(sw->results, (sw->nr + 1) * sizeof(*results)) : NULL;
	if (!results) {
		free(copy);
		return fail(-ENOMEM, "out of memory");
	}
	sw->results = results;
	sw->values[sw->nr] = copy;
	sw->results[sw->nr++] = r;
	return 0;
}

HWP_API int hwpriv_sweep_add(struct hwp_sweep *sw, const char *value,
			     struct hwp_result *r)
{
	clear_error();
	if (!sw || !value || !r || !*value)
		return fail(-EINVAL, "hwpriv_sweep_add: NULL argument or empty value");
	for (size_t i = 0; i < sw->nr; i++)
		if (sw->values[i] && !strcmp(sw->values[i], value))
			return fail(-EEXIST, "%s=%s is in the sweep already", sw->param,
				    value);
	return sweep_push(sw, value, r);
}

HWP_API const char *hwp_sweep_param(const struct hwp_sweep *sw)
{
	return sw ? sw->param : NULL;
}

HWP_API size_t hwp_sweep_nr_points(const struct hwp_sweep *sw)
{
	return sw ? sw->nr : 0;
}

HWP_API const char *hwp_sweep_value(const struct hwp_sweep *sw, size_t idx)
{
	return sw && idx < sw->nr ? sw->values[idx] : NULL;
}

HWP_API const struct hwp_result *hwp_sweep_result(const struct hwp_sweep *sw, size_t idx)
{
	return sw && idx < sw->nr ? sw->results[idx] : NULL;
}

/* ---- text ---- */

/* A row of the table: a series of some point, and which of its name it is. */
struct sweep_row {
	const struct series *sr;
	size_t nth;
};

/* Every row of every point, in the order first seen: an event listed twice
 * is two rows, as in a plain result. */
static size_t sweep_rows(const struct hwp_sweep *sw, struct sweep_row **out)
{
	struct sweep_row *rows = NULL;
	size_t n = 0;

	for (size_t p = 0; p < sw->nr; p++) {
		const struct hwp_result *r = sw->results[p];

		for (size_t i = 0; i < r->nr_series; i++) {
			const struct series *sr = &r->series[i];
			size_t nth = series_occurrence(r->series, i);
			struct sweep_row *grown;
			bool seen = false;

			for (size_t k = 0; k < n && !seen; k++)
				seen = rows[k].sr->kind == sr->kind &&
				       rows[k].nth == nth &&
				       !strcmp(rows[k].sr->name, sr->name);
			if (seen)
				continue;
			grown = realloc(rows, (n + 1) * sizeof(*rows));
			if (!grown) {
				free(rows);
				*out = NULL;
				return 0;
			}
			rows = grown;
			rows[n++] = (struct sweep_row){ .sr = sr, .nth = nth };
		}
	}
	*out = rows;
	return n;
}

struct cell {
	char value[64];
	char noise[32];
};

static void fill_cell(const struct hwp_result *r, const struct sweep_row *sr, bool big,
		      struct cell *c)
{
	long idx = series_nth(r->series, r->nr_series, sr->sr->kind, sr->sr->name,
			      sr->nth);
	struct row row;

	c->noise[0] = '\0';
	if (idx < 0) {
		snprintf(c->value, sizeof(c->value), "-");
		return;
	}
	row_init_in(r->series, r->nr_series, (size_t)idx, r->nr_runs, r->seconds, &row);
	row_format(&row, big, c->value, sizeof(c->value));
	if (r->nr_runs > 1 && row.sum.n > 1 && !isnan(row.sum.rel_stderr))
		snprintf(c->noise, sizeof(c->noise), "+- %.2f%%",
			 100.0 * row.sum.rel_stderr);
}

static void text_title(const struct hwp_sweep *sw, FILE *f)
{
	struct strbuf cmd = STRBUF_INIT;
	bool same_runs = true;

	command_line(sw->argv, &cmd);
	fprintf(f, "\n Performance counter stats for '%s' over %s", strbuf_str(&cmd),
		sw->param ? sw->param : "(no parameter)");
	for (size_t p = 1; p < sw->nr; p++)
		same_runs &= sw->results[p]->nr_runs == sw->results[0]->nr_runs;
	if (same_runs && sw->nr && sw->results[0]->nr_runs > 1)
		fprintf(f, " (%zu runs each)", sw->results[0]->nr_runs);
	else if (!same_runs)
		for (size_t p = 0; p < sw->nr; p++)
			fprintf(f, "%s%zu%s", p ? ", " : " (runs: ",
				sw->results[p]->nr_runs, p + 1 == sw->nr ? ")" : "");
	fprintf(f, ":\n\n");
	strbuf_release(&cmd);
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_sweep *sw = obj;
	const struct hwp_write_opts *o = opts;
	struct sweep_row *rows;
	size_t nr_rows = sweep_rows(sw, &rows), name_w = 20, col_w = 10;
	struct cell *cells;
	enum hwp_series_kind kind = HWP_SERIES_EVENT;

	if (!rows && sw->nr && sw->results[0]->nr_series)
		return fail(-ENOMEM, "out of memory");
	cells = calloc(nr_rows * sw->nr + 1, sizeof(*cells));
	if (!cells) {
		free(rows);
		return fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nr_rows; i++) {
		const struct series *sr = rows[i].sr;
		size_t len = strlen(sr->name) + (!strcmp(sr->unit, "ns") ? 7 : 0);

		name_w = len > name_w ? len : name_w;
		for (size_t p = 0; p < sw->nr; p++) {
			struct cell *c = &cells[i * sw->nr + p];

			fill_cell(sw->results[p], &rows[i], !o->no_big_num, c);
			col_w = strlen(c->value) > col_w ? strlen(c->value) : col_w;
			col_w = strlen(c->noise) > col_w ? strlen(c->noise) : col_w;
		}
	}
	for (size_t p = 0; p < sw->nr; p++) {
		size_t len = strlen(sw->param) + 1 + strlen(sw->values[p]);

		col_w = len > col_w ? len : col_w;
	}
	text_title(sw, f);
	fprintf(f, " %-*s", (int)name_w, "");
	for (size_t p = 0; p < sw->nr; p++) {
		char head[256];

		snprintf(head, sizeof(head), "%s=%s", sw->param, sw->values[p]);
		fprintf(f, "  %*s", (int)col_w, head);
	}
	fputc('\n', f);
	for (size_t i = 0; i < nr_rows; i++) {
		char name[300];
		bool noisy = false;

		if (rows[i].sr->kind != kind && kind_heading(rows[i].sr->kind))
			fprintf(f, "\n %s:\n", kind_heading(rows[i].sr->kind));
		kind = rows[i].sr->kind;
		snprintf(name, sizeof(name), "%s%s", rows[i].sr->name,
			 rows[i].sr->kind == HWP_SERIES_EVENT &&
			 !strcmp(rows[i].sr->unit, "ns") ? " (msec)" : "");
		fprintf(f, " %-*s", (int)name_w, name);
		for (size_t p = 0; p < sw->nr; p++) {
			fprintf(f, "  %*s", (int)col_w, cells[i * sw->nr + p].value);
			noisy |= cells[i * sw->nr + p].noise[0] != '\0';
		}
		fputc('\n', f);
		if (!noisy)
			continue;
		fprintf(f, " %-*s", (int)name_w, "");
		for (size_t p = 0; p < sw->nr; p++)
			fprintf(f, "  %*s", (int)col_w, cells[i * sw->nr + p].noise);
		fputc('\n', f);
	}
	fprintf(f, "\n %-*s", (int)name_w, "seconds time elapsed");
	for (size_t p = 0; p < sw->nr; p++) {
		struct hwp_stats_summary s = { .sz = sizeof(s) };

		hwp_stats_summarize(sw->results[p]->seconds, sw->results[p]->nr_runs, &s);
		fprintf(f, "  %*.6f", (int)col_w, s.n ? s.mean : 0.0);
	}
	fprintf(f, "\n\n");
	free(cells);
	free(rows);
	return 0;
}

/* ---- JSON ---- */

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_sweep *sw = obj;
	struct json_writer w;

	(void)opts;

	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "schema");
	jw_string(&w, "hwprof-sweep/1");
	jw_key(&w, "parameter");
	jw_string(&w, sw->param);
	json_command(&w, sw->argv);
	jw_key(&w, "points");
	jw_array_begin(&w, false);
	for (size_t p = 0; p < sw->nr; p++) {
		jw_object_begin(&w);
		jw_key(&w, "value");
		jw_string(&w, sw->values[p]);
		jw_key(&w, "result");
		result_json(sw->results[p], &w);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
	return 0;
}

static const struct writer sweep_writer = {
	.fn = "hwp_sweep_write",
	.what = "the sweep",
	.subject = "a sweep is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_sweep_write(const struct hwp_sweep *sw, FILE *f,
			    const struct hwp_write_opts *opts)
{
	/* A plain result read as a sweep of one is written as that result. */
	if (sw && f && !sw->param)
		return hwp_result_write(sw->nr ? sw->results[0] : NULL, f, opts);
	return write_dispatch(&sweep_writer, sw, f, opts);
}
