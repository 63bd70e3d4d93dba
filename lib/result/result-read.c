// SPDX-License-Identifier: MIT
/*
 * Reading results back: hwprof-stat/1 documents into struct hwp_result
 * (and for sweep/sweep-read.c, the points of a sweep). The file may come from anywhere:
 * every field is read through rows/rows-fields.c, which checks its type (and
 * an array of runs its length) before anything is copied, and names the
 * file, the field and what was expected.
 */
#include "core/core.h"
#include "result/result.h"
#include "util/json-reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STAT_SCHEMA "hwprof-stat/1"
#define SWEEP_SCHEMA "hwprof-sweep/1"

/* Whether the document says it is ours, and which kind; a message if not. */
static int check_schema(const struct json_value *doc, const char *source,
			const char *where, const char *want)
{
	const struct json_value *s = json_get(doc, "schema");

	if (doc->type != JSON_OBJECT)
		return fail(-HWP_ERR_FORMAT,
				"'%s'%s%s is JSON but not hwprof's: %s, not an object; write it with hwprof stat --json -o FILE",
				source, *where ? ": " : "", where,
				json_type_name(doc->type));
	if (!s || s->type != JSON_STRING)
		return fail(-HWP_ERR_FORMAT,
				"'%s'%s%s is JSON but not hwprof's: it has no \"schema\"; write it with hwprof stat --json -o FILE",
				source, *where ? ": " : "", where);
	if (!strcmp(s->u.string, want))
		return 0;
	if (!strncmp(s->u.string, want, strcspn(want, "/") + 1))
		return fail(-HWP_ERR_FORMAT,
				"'%s' has schema '%.40s', which this hwprof (%s) does not read: it reads %s",
				source, s->u.string, HWPROF_VERSION, want);
	return fail(-HWP_ERR_FORMAT, "'%s'%s%s has schema '%.40s', not %s", source,
			*where ? ": " : "", where, s->u.string, want);
}

static int read_rows(struct field_ctx *c, const struct json_value *doc,
		     struct hwp_result *r)
{
	return field_rows(c, doc, "events", r->nr_runs, true, &r->series, &r->nr_series,
			  &r->nr_events) ?:
	       field_rows(c, doc, "metrics", r->nr_runs, true, &r->series, &r->nr_series,
			  &r->nr_events) ?:
	       /* Since 0.2, and only when there are scores. */
	       (json_get(doc, "scores") ?
		field_rows(c, doc, "scores", r->nr_runs, true, &r->series,
			   &r->nr_series, &r->nr_events) : 0) ?:
	       (json_get(doc, "times") ?
		field_rows(c, doc, "times", r->nr_runs, true, &r->series,
			   &r->nr_series, &r->nr_events) : 0);
}

/* "regions": each run's regionset, when the program wrote them. */
static int read_regionsets(struct field_ctx *c, const struct json_value *doc,
			   struct hwp_result *r)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err;

	if (!json_get(doc, "regions"))
		return 0;
	err = field_get(c, doc, "regions", JSON_ARRAY, false, &arr);
	for (size_t i = 0; !err && i < json_array_len(arr); i++) {
		struct json_value tmp;
		struct hwp_regionset *rs;

		snprintf(c->where + base, sizeof(c->where) - base, "%sregions[%zu]",
			 base ? "." : "", i);
		err = regionset_from_json(json_item(arr, i, &tmp), c->source, c->where,
					  &rs);
		if (!err && (err = result_add_regionset(r, rs)))
			hwp_regionset_free(rs);
	}
	c->where[base] = '\0';
	return err;
}

int result_from_json(const struct json_value *doc, const char *source,
			 const char *where, struct hwp_result **out)
{
	struct field_ctx c = { .source = source };
	struct hwp_result *r = NULL;
	long runs, code;
	int err;

	*out = NULL;
	snprintf(c.where, sizeof(c.where), "%s", where);
	err = check_schema(doc, source, where, STAT_SCHEMA) ?: hwp_result_new(&r);
	if (err)
		return err;
	r->loaded = true;
	r->source = strdup(source);
	if (!r->source) {
		err = fail(-ENOMEM, "out of memory");
		goto err;
	}
	/* runs first: every array of values must have that many. */
	err = field_int(&c, doc, "runs", false, 1, 1 << 30, &runs) ?:
	      field_int(&c, doc, "exit_status", true, 0, 0x7fffffff, &code) ?:
	      field_command(&c, doc, &r->argv) ?:
	      field_string(&c, doc, "target", true, &r->target) ?:
	      field_string(&c, doc, "event_spec", false, &r->spec);
	if (err)
		goto err;
	r->nr_runs = (size_t)runs;
	r->exit_code = (int)code;
	{
		const struct json_value *secs;
		size_t base = strlen(c.where);

		err = field_get(&c, doc, "seconds", JSON_OBJECT, false, &secs);
		if (err)
			goto err;
		snprintf(c.where + base, sizeof(c.where) - base, "%sseconds",
			 base ? "." : "");
		err = field_values(&c, secs, "values", r->nr_runs, &r->seconds);
		c.where[base] = '\0';
	}
	err = err ?: read_rows(&c, doc, r) ?: field_units(&c, doc, r) ?:
	      read_regionsets(&c, doc, r) ?: field_run_order(&c, doc, r) ?:
	      field_environment(&c, doc, &r->env);
	if (err)
		goto err;
	*out = r;
	return 0;
err:
	hwp_result_free(r);
	return err;
}

HWP_API int hwpriv_result_add_regions(struct hwp_result *r, const char *path)
{
	struct hwp_regionset *rs;
	int err;

	clear_error();
	if (!r || !path)
		return fail(-EINVAL, "hwpriv_result_add_regions: NULL argument");
	err = hwp_regionset_load(path, &rs);
	if (!err && (err = result_add_regionset(r, rs)))
		hwp_regionset_free(rs);
	return err;
}

bool doc_is_sweep(const struct json_value *doc)
{
	const struct json_value *schema = json_get(doc, "schema");

	return schema && schema->type == JSON_STRING &&
	       !strcmp(schema->u.string, SWEEP_SCHEMA);
}

HWP_API int hwp_result_load(const char *path, struct hwp_result **out)
{
	struct json_value *doc;
	int err;

	clear_error();
	if (!path || !out)
		return fail(-EINVAL, "hwp_result_load: NULL argument");
	*out = NULL;
	err = json_read_file(path, &doc);
	if (err)
		return err;
	if (doc_is_sweep(doc))
		err = fail(-HWP_ERR_FORMAT,
			       "'%s' is a sweep (hwprof stat --sweep): read it with hwp_sweep_load()",
			       path);
	else
		err = result_from_json(doc, path, "", out);
	json_free(doc);
	return err;
}
