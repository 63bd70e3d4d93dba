// SPDX-License-Identifier: MIT
/* Reading regionsets: a hwprof-regions/1 document, as a program linked
 * with libhwprof writes to $HWPROF_OUTPUT, or as each run's regions inside
 * a hwprof-stat/1 result, into the typed model. The file comes from
 * another program: every field is checked (rows/rows-fields.c) before it is
 * used, and the messages name the file, the line and the field. */
#include "core/core.h"
#include "regionset/regionset.h"
#include "util/json-reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REGIONS_SCHEMA "hwprof-regions/1"

static int check_schema(const struct field_ctx *c, const struct json_value *doc)
{
	const struct json_value *s = json_get(doc, "schema");
	const char *schema = s && s->type == JSON_STRING ? s->u.string : NULL;

	if (doc->type == JSON_OBJECT && schema && !strcmp(schema, REGIONS_SCHEMA))
		return 0;
	return fail(-HWP_ERR_FORMAT,
			"'%s'%s%s is not the regions of a program (schema '%.40s', not '%s')",
			c->source, *c->where ? ": " : "", c->where,
			schema ? schema : "none", REGIONS_SCHEMA);
}

/* The members a region and a thread's part share. */
static int read_counts(const struct field_ctx *c, const struct json_value *o,
		       uint64_t *calls, uint64_t *measured, uint64_t *ops,
		       double *seconds, bool *too_short, bool *exceeds_time)
{
	*exceeds_time = false;
	return field_count(c, o, "calls", calls) ?:
	       field_count(c, o, "measured_calls", measured) ?:
	       field_count(c, o, "ops", ops) ?:
	       field_number(c, o, "seconds", false, seconds) ?:
	       field_bool(c, o, "too_short", too_short) ?:
	       /* written since 0.2: an older file has none */
	       (json_get(o, "exceeds_time") ?
		field_bool(c, o, "exceeds_time", exceeds_time) : 0);
}

/* A thread's "counts": the region's events by name, number or null. */
static int read_thread(const struct field_ctx *c, const struct json_value *o,
		       const struct regionset_region *rg, struct regionset_thread *t)
{
	const struct json_value *counts;
	long tid;
	int err = field_int(c, o, "tid", false, 1, 0x7fffffff, &tid) ?:
		  read_counts(c, o, &t->calls, &t->measured_calls, &t->ops, &t->seconds,
			      &t->too_short, &t->exceeds_time) ?:
		  field_get(c, o, "counts", JSON_OBJECT, false, &counts);

	if (err)
		return err;
	t->tid = (pid_t)tid;
	t->values = calloc(rg->nr_events ? rg->nr_events : 1, sizeof(*t->values));
	if (!t->values)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < rg->nr_events && !err; e++) {
		struct field_ctx cc = *c;
		size_t base = strlen(cc.where);

		snprintf(cc.where + base, sizeof(cc.where) - base, ".counts");
		err = field_number(&cc, counts, rg->rows[e].name, true, &t->values[e]);
	}
	return err;
}

static int read_threads(struct field_ctx *c, const struct json_value *o,
			struct regionset_region *rg)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	long nr;
	int err = field_int(c, o, "threads", false, 0, 1 << 30, &nr) ?:
		  field_get(c, o, "per_thread", JSON_ARRAY, false, &arr);

	if (err)
		return err;
	if ((size_t)nr != json_array_len(arr))
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s has %ld threads, but %zu in \"per_thread\"; "
			    FIELD_FIX, c->source, o->line, c->where, nr,
			    json_array_len(arr));
	for (size_t i = 0; i < json_array_len(arr) && !err; i++) {
		struct json_value tmp;
		const struct json_value *t = json_item(arr, i, &tmp);
		struct regionset_thread *part = regionset_add_thread(rg);

		if (!part)
			return fail(-ENOMEM, "out of memory");
		snprintf(c->where + base, sizeof(c->where) - base, ".per_thread[%zu]", i);
		if (t->type != JSON_OBJECT)
			err = fail(-HWP_ERR_FORMAT,
				   "'%s', line %u: %s should be an object, not %s; "
				   FIELD_FIX, c->source, t->line, c->where,
				   json_type_name(t->type));
		else
			err = read_thread(c, t, rg, part);
	}
	c->where[base] = '\0';
	return err;
}

static int read_region(struct field_ctx *c, const struct json_value *o,
		       struct regionset_region *rg)
{
	int err;

	if (o->type != JSON_OBJECT)
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s should be an object, not %s; "
			    FIELD_FIX, c->source, o->line, c->where,
			    json_type_name(o->type));
	err = field_string(c, o, "region", false, &rg->name) ?:
	      read_counts(c, o, &rg->calls, &rg->measured_calls, &rg->ops, &rg->seconds,
			  &rg->too_short, &rg->exceeds_time) ?:
	      field_rows(c, o, "events", 1, false, &rg->rows, &rg->nr_rows,
			 &rg->nr_events) ?:
	      field_rows(c, o, "metrics", 1, false, &rg->rows, &rg->nr_rows,
			 &rg->nr_events) ?:
	      regionset_region_done(rg);
	/* per_call and per_op follow from the counts: written, never read. */
	return err ?: read_threads(c, o, rg);
}

/* A region with a bad field is left out, said, and counted: the others
 * are the program's measurements all the same. */
static int read_regions(struct field_ctx *c, const struct json_value *doc,
			struct hwp_regionset *rs)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err = field_get(c, doc, "regions", JSON_ARRAY, false, &arr);

	for (size_t i = 0; !err && i < json_array_len(arr); i++) {
		struct json_value tmp;
		struct regionset_region *rg = regionset_add_region(rs);

		if (!rg)
			return fail(-ENOMEM, "out of memory");
		snprintf(c->where + base, sizeof(c->where) - base, "%sregions[%zu]",
			 base ? "." : "", i);
		err = read_region(c, json_item(arr, i, &tmp), rg);
		if (err && err != -ENOMEM) {
			pr_warn("%s; the region is left out, the others are kept",
				hwp_errmsg());
			regionset_drop_last(rs);
			rs->nr_unreadable++;
			err = 0;
		}
	}
	c->where[base] = '\0';
	return err;
}

int regionset_from_json(const struct json_value *doc, const char *source,
			const char *where, struct hwp_regionset **out)
{
	struct field_ctx c = { .source = source };
	struct hwp_regionset *rs;
	long every;
	int err;

	*out = NULL;
	snprintf(c.where, sizeof(c.where), "%s", where);
	err = check_schema(&c, doc) ?: regionset_new(&rs);
	if (err)
		return err;
	err = field_string(&c, doc, "event_spec", true, &rs->spec) ?:
	      field_int(&c, doc, "sample_every", false, 1, 1000000000L, &every) ?:
	      field_number(&c, doc, "read_cost_ns", true, &rs->read_cost_ns) ?:
	      read_regions(&c, doc, rs) ?:
	      field_environment(&c, doc, &rs->env);
	if (err) {
		hwp_regionset_free(rs);
		return err;
	}
	rs->sample_every = (unsigned int)every;
	*out = rs;
	return 0;
}

HWP_API int hwp_regionset_load(const char *path, struct hwp_regionset **out)
{
	struct json_value *doc;
	int err;

	clear_error();
	if (!path || !out)
		return fail(-EINVAL, "hwp_regionset_load: NULL argument");
	*out = NULL;
	err = json_read_file(path, &doc);
	if (err)
		return err;
	err = regionset_from_json(doc, path, "", out);
	json_free(doc);
	return err;
}
