// SPDX-License-Identifier: MIT
/*
 * Reading sweeps back: hwprof-sweep/1 documents, each point a result read
 * by result/result-read.c, into struct hwp_sweep; a plain result reads as
 * a sweep of one point.
 */
#include "core/core.h"
#include "result/result.h"
#include "sweep/sweep.h"
#include "util/json-reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_points(const struct json_value *doc, const char *path,
		       struct hwp_sweep *sw)
{
	struct field_ctx c = { .source = path };
	const struct json_value *points;
	int err = field_get(&c, doc, "points", JSON_ARRAY, false, &points);

	if (err)
		return err;
	if (!json_array_len(points))
		return fail(-HWP_ERR_FORMAT, "'%s', line %u: the sweep has no points; "
				FIELD_FIX, path, points->line);
	for (size_t i = 0; i < json_array_len(points); i++) {
		struct json_value tmp;
		const struct json_value *pt = json_item(points, i, &tmp), *res;
		struct hwp_result *r;
		char *value;

		snprintf(c.where, sizeof(c.where), "points[%zu]", i);
		if (pt->type != JSON_OBJECT)
			return fail(-HWP_ERR_FORMAT,
				    "'%s', line %u: points[%zu] should be an object, not %s; "
				    FIELD_FIX, path, pt->line, i,
				    json_type_name(pt->type));
		err = field_string(&c, pt, "value", false, &value);
		if (err)
			return err;
		if (!*value) {
			free(value);
			return fail(-HWP_ERR_FORMAT,
				    "'%s', line %u: points[%zu] has an empty value; "
				    FIELD_FIX, path, pt->line, i);
		}
		err = field_get(&c, pt, "result", JSON_OBJECT, false, &res);
		if (err) {
			free(value);
			return err;
		}
		strcat(c.where, ".result");
		err = result_from_json(res, path, c.where, &r);
		if (!err) {
			err = hwpriv_sweep_add(sw, value, r);
			if (err)
				hwp_result_free(r);
			if (err == -EEXIST)
				err = fail(-HWP_ERR_FORMAT,
					   "'%s', line %u: %s=%s appears twice; "
					   FIELD_FIX, path, pt->line, sw->param, value);
		}
		free(value);
		if (err)
			return err;
	}
	return 0;
}

static int sweep_from_json(const struct json_value *doc, const char *path,
			   struct hwp_sweep **out)
{
	struct field_ctx c = { .source = path };
	const struct json_value *param;
	struct hwp_sweep *sw = NULL;
	char **argv = NULL;
	int err;

	err = field_get(&c, doc, "parameter", JSON_STRING, false, &param) ?:
	      field_command(&c, doc, &argv);
	if (err)
		return err;
	err = hwpriv_sweep_new(param->u.string, &sw);
	if (err) {
		strv_free(argv);
		return fail_prefix(-HWP_ERR_FORMAT, "'%s', line %u", path, param->line);
	}
	sw->argv = argv;
	err = read_points(doc, path, sw);
	if (err) {
		hwp_sweep_free(sw);
		return err;
	}
	*out = sw;
	return 0;
}

/* A plain result as a sweep of one point; @r is the sweep's or freed. */
static int sweep_of_one(struct hwp_result *r, struct hwp_sweep **out)
{
	int err = sweep_alloc(NULL, out);

	if (!err && (err = sweep_push(*out, NULL, r))) {
		hwp_sweep_free(*out);
		*out = NULL;
	}
	if (err)
		hwp_result_free(r);
	return err;
}

/* A sweep, or a plain result as a sweep of one; frees @doc. */
static int sweep_from_doc(struct json_value *doc, const char *path,
			  struct hwp_sweep **out)
{
	struct hwp_result *r;
	int err;

	if (doc_is_sweep(doc)) {
		err = sweep_from_json(doc, path, out);
	} else {
		err = result_from_json(doc, path, "", &r);
		if (!err)
			err = sweep_of_one(r, out);
	}
	json_free(doc);
	return err;
}

int sweep_parse(const char *buf, size_t len, const char *source,
		    struct hwp_sweep **out)
{
	struct json_value *doc;
	int err;

	clear_error();
	*out = NULL;
	err = json_doc_parse(buf, len, source, &doc);
	return err ? err : sweep_from_doc(doc, source, out);
}

HWP_API int hwp_sweep_load(const char *path, struct hwp_sweep **out)
{
	struct json_value *doc;
	int err;

	clear_error();
	if (!path || !out)
		return fail(-EINVAL, "hwp_sweep_load: NULL argument");
	*out = NULL;
	err = json_read_file(path, &doc);
	return err ? err : sweep_from_doc(doc, path, out);
}
