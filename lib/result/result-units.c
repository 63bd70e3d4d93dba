// SPDX-License-Identifier: MIT
/* A result's aggregation units (perf stat -A, --per-core, --per-thread...):
 * each unit has the result's rows, counted in that CPU, core, socket, node
 * or thread. Units are matched by name from run to run: a unit that is not
 * in a run (a thread of another run) has no value there. */
#include "core/core.h"
#include "count/count.h"
#include "result/result.h"
#include "util/json-reader.h"
#include "util/json-writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct result_unit *find_unit(const struct hwp_result *r, const char *name)
{
	for (size_t i = 0; i < r->nr_units; i++)
		if (!strcmp(r->units[i].u.name, name))
			return &r->units[i];
	return NULL;
}

/* A new unit like @info, its rows with no value in the runs before. */
static int new_unit(struct hwp_result *r, const struct hwp_session *s,
		    const struct hwp_unit_info *info, struct result_unit **out)
{
	struct result_unit *n = realloc(r->units, (r->nr_units + 1) * sizeof(*n));
	struct result_unit *u;

	if (!n)
		return -ENOMEM;
	r->units = n;
	u = &n[r->nr_units++];
	*u = (struct result_unit){ .u = { .id = info->id, .package = info->package,
					  .die = info->die, .tid = info->tid } };
	u->u.name = strdup(info->name);
	if (!u->u.name || (info->comm && !(u->u.comm = strdup(info->comm))))
		return -ENOMEM;
	if (info->nr_cpus) {
		u->u.cpus = malloc(info->nr_cpus * sizeof(*u->u.cpus));
		if (!u->u.cpus)
			return -ENOMEM;
		memcpy(u->u.cpus, info->cpus, info->nr_cpus * sizeof(*u->u.cpus));
		u->u.nr_cpus = info->nr_cpus;
	}
	if (result_rows_new(r, s, &u->series, &u->nr_series, &u->nr_events))
		return -ENOMEM;
	for (size_t run = 1; run <= r->nr_runs; run++)
		if (result_rows_add(u->series, u->nr_series, s, NULL, 0, run, NULL))
			return -ENOMEM;
	*out = u;
	return 0;
}

static enum hwp_aggr session_aggr(const struct hwp_session *s)
{
	struct hwp_unit_info i = { .sz = sizeof(i) };

	return hwp_session_unit(s, 0, &i) ? HWP_AGGR_GLOBAL : i.aggr;
}

HWP_API int hwpriv_result_add_run_units(struct hwp_result *r, const struct hwp_session *s,
				     const struct hwp_count *counts, size_t nr_units,
				     double seconds)
{
	enum hwp_aggr aggr;
	struct hwp_count *total = NULL;
	bool *seen = NULL;
	size_t nr_ev, n;
	int err;

	clear_error();
	if (!r || !s || !counts)
		return fail(-EINVAL, "hwpriv_result_add_run_units: NULL argument");
	if (nr_units > hwp_session_nr_units(s))
		return fail(-EINVAL, "hwpriv_result_add_run_units: %zu units, but the session has %zu",
			    nr_units, hwp_session_nr_units(s));
	/* Scores are the whole run's: units of one have no meaning yet. */
	if (r->nr_scores)
		return fail(-EINVAL,
			    "hwpriv_result_add_run_units: the result has scores, which are not split by unit");
	err = result_check_run(r, s);
	if (err)
		return err;
	nr_ev = hwp_session_nr_events(s);
	aggr = session_aggr(s);
	if (r->nr_runs && r->aggr != aggr)
		return fail(-HWP_ERR_MISMATCH,
			    "run %zu counted per %s, but the first run per %s",
			    r->nr_runs + 1, hwp_enum_name(HWP_ENUM_AGGR, aggr),
			    hwp_enum_name(HWP_ENUM_AGGR, r->aggr));
	total = calloc(nr_ev, sizeof(*total));
	seen = calloc(r->nr_units + nr_units + 1, sizeof(*seen));
	if (!total || !seen) {
		err = fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t u = 0; u < nr_units; u++)
		for (size_t e = 0; e < nr_ev; e++) {
			total[e].value += counts[u * nr_ev + e].value;
			total[e].time_enabled += counts[u * nr_ev + e].time_enabled;
			total[e].time_running += counts[u * nr_ev + e].time_running;
		}
	err = result_add_total(r, s, total, seconds, NULL);
	if (err)
		goto out;
	r->aggr = aggr;
	n = r->nr_runs + 1;
	for (size_t u = 0; u < nr_units && aggr != HWP_AGGR_GLOBAL && !err; u++) {
		struct hwp_unit_info info = { .sz = sizeof(info) };
		struct result_unit *ru;

		err = hwp_session_unit(s, u, &info);
		if (err)
			break;
		ru = find_unit(r, info.name);
		if (!ru && new_unit(r, s, &info, &ru)) {
			err = fail(-ENOMEM, "out of memory");
			break;
		}
		seen[ru - r->units] = true;
		if (result_rows_add(ru->series, ru->nr_series, s, &counts[u * nr_ev],
				    seconds, n, NULL))
			err = fail(-ENOMEM, "out of memory");
	}
	/* A unit of an earlier run that this run does not have. */
	for (size_t u = 0; u < r->nr_units && !err; u++)
		if (!seen[u] && result_rows_add(r->units[u].series, r->units[u].nr_series,
						s, NULL, 0, n, NULL))
			err = fail(-ENOMEM, "out of memory");
	if (!err) {
		r->nr_runs = n;
		clear_error();
	}
out:
	free(total);
	free(seen);
	return err;
}

HWP_API enum hwp_aggr hwp_result_aggr(const struct hwp_result *r)
{
	return r ? r->aggr : HWP_AGGR_GLOBAL;
}

HWP_API size_t hwp_result_nr_units(const struct hwp_result *r)
{
	return r ? r->nr_units : 0;
}

HWP_API int hwp_result_unit(const struct hwp_result *r, size_t idx,
			    struct hwp_unit_info *info)
{
	struct hwp_unit_info i;

	clear_error();
	if (!r || !info || idx >= r->nr_units)
		return fail(-EINVAL, "hwp_result_unit: no unit %zu", idx);
	unit_info(&r->units[idx].u, r->aggr, &i);
	return info_fill(info, &i, sizeof(i));
}

HWP_API int hwp_result_unit_series(const struct hwp_result *r, size_t unit, size_t idx,
				   struct hwp_series_info *info)
{
	struct hwp_series_info i;

	clear_error();
	if (!r || unit >= r->nr_units || idx >= r->units[unit].nr_series)
		return fail(-EINVAL, "hwp_result_unit_series: no row %zu of unit %zu",
			    idx, unit);
	series_info(r->units[unit].series, r->units[unit].nr_series, idx, r->nr_runs,
		    r->seconds, &i);
	return info_fill(info, &i, sizeof(i));
}

/* ---- JSON ---- */

void units_json(struct json_writer *w, const struct hwp_result *r, bool all_runs)
{
	if (r->aggr == HWP_AGGR_GLOBAL)
		return;
	jw_key(w, "aggregation");
	jw_string(w, hwp_enum_name(HWP_ENUM_AGGR, r->aggr));
	jw_key(w, "units");
	jw_array_begin(w, false);
	for (size_t i = 0; i < r->nr_units; i++) {
		const struct result_unit *u = &r->units[i];

		jw_object_begin(w);
		jw_key(w, "unit");
		jw_string(w, u->u.name);
		jw_key(w, "id");
		jw_int(w, u->u.id);
		if (u->u.tid >= 0) {
			jw_key(w, "tid");
			jw_int(w, u->u.tid);
			jw_key(w, "comm");
			jw_string(w, u->u.comm);
		} else {
			jw_key(w, "socket");
			jw_int(w, u->u.package);
			jw_key(w, "die");
			jw_int(w, u->u.die);
			jw_key(w, "cpus");
			jw_array_begin(w, true);
			for (size_t c = 0; c < u->u.nr_cpus; c++)
				jw_int(w, u->u.cpus[c]);
			jw_array_end(w);
		}
		rows_json(w, u->series, u->nr_series, r->nr_runs, r->seconds, all_runs);
		jw_object_end(w);
	}
	jw_array_end(w);
}

static int parse_aggr(struct field_ctx *c, const struct json_value *doc,
		      enum hwp_aggr *out)
{
	char *name;
	int err = field_string(c, doc, "aggregation", false, &name);

	if (err)
		return err;
	for (int a = HWP_AGGR_CPU; a <= HWP_AGGR_THREAD; a++)
		if (!strcmp(name, hwp_enum_name(HWP_ENUM_AGGR, (enum hwp_aggr)a))) {
			*out = (enum hwp_aggr)a;
			free(name);
			return 0;
		}
	err = fail(-HWP_ERR_FORMAT, "'%s'%s%s: \"aggregation\" is '%.40s', not cpu, core, die, socket, node or thread; %s",
		   c->source, *c->where ? ": " : "", c->where, name, FIELD_FIX);
	free(name);
	return err;
}

static int read_unit(struct field_ctx *c, const struct json_value *obj, size_t nr_runs,
		     struct result_unit *u)
{
	const struct json_value *cpus;
	long id, tid = -1, package = -1, die = -1;
	int err;

	u->u.tid = -1;
	err = field_string(c, obj, "unit", false, &u->u.name) ?:
	      field_int(c, obj, "id", false, -1, 0x7fffffff, &id);
	if (!err && json_get(obj, "tid"))
		err = field_int(c, obj, "tid", false, 0, 0x7fffffff, &tid) ?:
		      field_string(c, obj, "comm", false, &u->u.comm);
	if (!err && json_get(obj, "cpus")) {
		err = field_int(c, obj, "socket", false, -1, 0x7fffffff, &package) ?:
		      field_int(c, obj, "die", false, -1, 0x7fffffff, &die) ?:
		      field_get(c, obj, "cpus", JSON_ARRAY, false, &cpus);
		if (!err && json_array_len(cpus)) {
			u->u.cpus = calloc(json_array_len(cpus), sizeof(*u->u.cpus));
			if (!u->u.cpus)
				return fail(-ENOMEM, "out of memory");
		}
		for (size_t i = 0; !err && i < json_array_len(cpus); i++) {
			struct json_value tmp;
			const struct json_value *v = json_item(cpus, i, &tmp);

			if (v->type != JSON_NUMBER ||
			    !(v->u.number >= 0 && v->u.number <= 65535) ||
			    v->u.number != (int)v->u.number)
				return fail(-HWP_ERR_FORMAT,
					    "'%s': %s.cpus[%zu] is not a CPU number; %s",
					    c->source, c->where, i, FIELD_FIX);
			u->u.cpus[u->u.nr_cpus++] = (int)v->u.number;
		}
	}
	if (err)
		return err;
	u->u.id = (int)id;
	u->u.tid = (pid_t)tid;
	u->u.package = (int)package;
	u->u.die = (int)die;
	return field_rows(c, obj, "events", nr_runs, true, &u->series, &u->nr_series,
			  &u->nr_events) ?:
	       field_rows(c, obj, "metrics", nr_runs, true, &u->series, &u->nr_series,
			  &u->nr_events);
}

int field_units(struct field_ctx *c, const struct json_value *doc, struct hwp_result *r)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err;

	if (!json_get(doc, "units"))
		return 0;
	err = parse_aggr(c, doc, &r->aggr) ?:
	      field_get(c, doc, "units", JSON_ARRAY, false, &arr);
	if (err)
		return err;
	r->units = calloc(json_array_len(arr) ? json_array_len(arr) : 1,
			  sizeof(*r->units));
	if (!r->units)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; !err && i < json_array_len(arr); i++) {
		struct json_value tmp;
		const struct json_value *obj = json_item(arr, i, &tmp);

		snprintf(c->where + base, sizeof(c->where) - base, "%sunits[%zu]",
			 base ? "." : "", i);
		r->nr_units++;
		if (obj->type != JSON_OBJECT)
			err = fail(-HWP_ERR_FORMAT, "'%s': %s is not an object; %s",
				   c->source, c->where, FIELD_FIX);
		else
			err = read_unit(c, obj, r->nr_runs, &r->units[i]);
	}
	c->where[base] = '\0';
	return err;
}
