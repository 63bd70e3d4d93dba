// SPDX-License-Identifier: MIT
/* Where each run of a result ran among variants measured in turn, so that a
 * comparison pairs the runs that saw the same machine; kept in the JSON as
 * "run_order", so that results read back pair as they did. */
#include "core/core.h"
#include "result/result.h"
#include "util/json-reader.h"
#include "util/json-writer.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void run_order_release(struct run_order *o)
{
	free(o->experiment);
	free(o->position);
	free(o->block);
	memset(o, 0, sizeof(*o));
}

/* Make room for @n runs; those not given an order get -1. */
static int run_order_grow(struct run_order *o, size_t n)
{
	long *p, *b;

	if (n <= o->nr)
		return 0;
	p = realloc(o->position, n * sizeof(*p));
	if (p)
		o->position = p;
	b = realloc(o->block, n * sizeof(*b));
	if (b)
		o->block = b;
	if (!p || !b)
		return -ENOMEM;
	for (size_t i = o->nr; i < n; i++)
		p[i] = b[i] = -1;
	o->nr = n;
	return 0;
}

HWP_API int hwpriv_result_set_run_order(struct hwp_result *r, const char *experiment,
				     size_t position, size_t block)
{
	struct run_order *o;

	clear_error();
	if (!r || !experiment || !r->nr_runs)
		return fail(-EINVAL, "hwpriv_result_set_run_order: %s",
			    r && experiment ? "the result has no run yet" :
					      "NULL argument");
	if (r->loaded)
		return fail(-EBUSY, "a result read from %s takes no more runs",
			    r->source);
	if (position > LONG_MAX || block > LONG_MAX)
		return fail(-EINVAL, "hwpriv_result_set_run_order: position %zu, block %zu: too large",
			    position, block);
	o = &r->order;
	if (o->experiment && strcmp(o->experiment, experiment))
		return fail(-HWP_ERR_MISMATCH,
			    "hwpriv_result_set_run_order: the result's runs are of experiment '%s', not '%s': one result, one experiment",
			    o->experiment, experiment);
	if (!o->experiment && !(o->experiment = strdup(experiment)))
		return fail(-ENOMEM, "out of memory");
	if (run_order_grow(o, r->nr_runs))
		return fail(-ENOMEM, "out of memory");
	o->position[r->nr_runs - 1] = (long)position;
	o->block[r->nr_runs - 1] = (long)block;
	return 0;
}

static void longs_json(struct json_writer *w, const char *key, const long *v, size_t nr,
		       size_t n)
{
	jw_key(w, key);
	jw_array_begin(w, true);
	for (size_t i = 0; i < n; i++)
		if (i < nr && v[i] >= 0)
			jw_int(w, v[i]);
		else
			jw_null(w);
	jw_array_end(w);
}

void run_order_json(struct json_writer *w, const struct hwp_result *r)
{
	const struct run_order *o = &r->order;

	if (!o->experiment)
		return;
	jw_key(w, "run_order");
	jw_object_begin(w);
	jw_key(w, "experiment");
	jw_string(w, o->experiment);
	longs_json(w, "position", o->position, o->nr, r->nr_runs);
	longs_json(w, "block", o->block, o->nr, r->nr_runs);
	jw_object_end(w);
}

/* An array of r->nr_runs whole numbers from 0, or nulls (-1). */
static int field_longs(struct field_ctx *c, const struct json_value *obj, const char *key,
		       size_t n, long *out)
{
	double *v;
	int err = field_values(c, obj, key, n, &v);

	for (size_t i = 0; !err && i < n; i++) {
		if (isnan(v[i])) {
			out[i] = -1;
			continue;
		}
		if (!(v[i] >= 0 && v[i] <= 1e15 && v[i] == floor(v[i])))
			err = fail(-HWP_ERR_FORMAT,
				   "'%s': %s.%s[%zu] is %g, not a whole number from 0; "
				   FIELD_FIX, c->source, c->where, key, i, v[i]);
		else
			out[i] = (long)v[i];
	}
	free(v);
	return err;
}

int field_run_order(struct field_ctx *c, const struct json_value *doc,
		    struct hwp_result *r)
{
	const struct json_value *obj;
	size_t base = strlen(c->where);
	int err;

	/* Files of results measured alone, and older ones, have none: unpaired. */
	if (!json_get(doc, "run_order"))
		return 0;
	err = field_get(c, doc, "run_order", JSON_OBJECT, false, &obj);
	if (err)
		return err;
	snprintf(c->where + base, sizeof(c->where) - base, "%srun_order",
		 base ? "." : "");
	err = field_string(c, obj, "experiment", false, &r->order.experiment);
	if (!err && run_order_grow(&r->order, r->nr_runs))
		err = fail(-ENOMEM, "out of memory");
	if (!err)
		err = field_longs(c, obj, "position", r->nr_runs, r->order.position) ?:
		      field_longs(c, obj, "block", r->nr_runs, r->order.block);
	c->where[base] = '\0';
	return err;
}

/* Whether the runs of @r stand in order, one entry a run. */
static bool ordered(const struct hwp_result *r)
{
	return r->order.experiment && r->order.nr >= r->nr_runs;
}

bool run_order_paired(const struct hwp_result *a, const struct hwp_result *b)
{
	return ordered(a) && ordered(b) &&
	       !strcmp(a->order.experiment, b->order.experiment);
}

size_t run_order_pairs(const struct hwp_result *a, const struct hwp_result *b, size_t *ia,
		       size_t *ib)
{
	const long *ba = a->order.block, *bb = b->order.block;
	bool *used = calloc(b->nr_runs + 1, sizeof(*used));
	size_t n = 0;

	if (!used)
		return SIZE_MAX;
	for (size_t i = 0; i < a->nr_runs; i++) {
		size_t j = i < b->nr_runs && bb[i] == ba[i] ? i : 0;

		if (ba[i] < 0)
			continue;
		/* Without a failed run, run i of each side is block i's. */
		while (j < b->nr_runs && (used[j] || bb[j] != ba[i]))
			j++;
		if (j == b->nr_runs)
			continue;
		used[j] = true;
		ia[n] = i;
		ib[n++] = j;
	}
	free(used);
	return n;
}
