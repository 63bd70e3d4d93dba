// SPDX-License-Identifier: MIT
/*
 * Reading results back: hwprof-stat/1 documents into struct hwp_result.
 * The file may come from anywhere, so every field is checked for its type
 * and every array of runs for its length before anything is copied, and
 * each message names the file, the field and what was expected.
 */
#include "hwprof-internal.h"
#include "result.h"
#include "util/json-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A result of a million runs of 8 events is ~200 MB of JSON: far past any
 * real use, and the reader's memory grows with the file. */
#define MAX_FILE_SIZE ((size_t)64 << 20)

#define STAT_SCHEMA "hwprof-stat/1"
#define SWEEP_SCHEMA "hwprof-sweep/1"

static int read_all(int fd, const char *path, char **out, size_t *len)
{
	size_t alloc = 1 << 16, n = 0;
	char *buf = malloc(alloc);

	if (!buf)
		return hwp_fail(-ENOMEM, "out of memory");
	for (;;) {
		ssize_t got;

		if (n == alloc) {
			char *p;

			if (alloc >= MAX_FILE_SIZE) {
				free(buf);
				return hwp_fail(-EFBIG,
						"'%s' is larger than the %zu MiB a result file may be",
						path, MAX_FILE_SIZE >> 20);
			}
			alloc *= 2;
			p = realloc(buf, alloc);
			if (!p) {
				free(buf);
				return hwp_fail(-ENOMEM, "out of memory");
			}
			buf = p;
		}
		got = read(fd, buf + n, alloc - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return hwp_fail(-e, "reading '%s' failed: %s", path, strerrordesc_np(e));
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int parse_json(const char *buf, size_t len, const char *path,
		      struct json_value **doc);

int hwp_json_read_file(const char *path, struct json_value **doc)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, err;

	*doc = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return hwp_fail(-e, "cannot open '%s': %s", path, strerrordesc_np(e));
	}
	err = read_all(fd, path, &buf, &len);
	close(fd);
	if (err)
		return err;
	err = parse_json(buf, len, path, doc);
	free(buf);
	return err;
}

/* Parse @len bytes of @path, with messages for people. */
static int parse_json(const char *buf, size_t len, const char *path,
		      struct json_value **doc)
{
	struct json_error jerr;
	int err = json_parse(buf, len, NULL, doc, &jerr);

	if (err == -ENOMEM)
		return hwp_fail(err, "out of memory");
	if (err == -E2BIG)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s' is too large to read: %s", path, jerr.msg);
	if (err && !len)
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s' is empty, not the JSON of hwprof stat --json", path);
	if (err && jerr.truncated)
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s' ends early, at line %u: it looks truncated (%s)", path,
				jerr.line, jerr.msg);
	if (err)
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s' is not valid JSON: line %u, column %u: %s%s", path, jerr.line,
				jerr.column, jerr.msg,
				strstr(jerr.msg, "more after") ?
					" (hwprof stat -I writes one object a line; compare needs the output of hwprof stat -r N --json)" :
					"");
	return 0;
}

/* Where a field is, for messages: "events[2].values". */
struct field_ctx {
	const char *source;
	char where[128];
};

static int bad(const struct field_ctx *c, const struct json_value *obj, const char *key,
	       const char *want, const struct json_value *got)
{
	if (!got)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s\"%s\" is missing: it should be %s",
				c->source, obj->line, c->where, *c->where ? " has no " : "no ", key,
				want);
	return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s%s should be %s, not %s", c->source,
			got->line, c->where, *c->where ? "." : "", key, want,
			json_type_name(got->type));
}

static int get(const struct field_ctx *c, const struct json_value *obj, const char *key,
	       enum json_type type, bool nullable, const struct json_value **out)
{
	const struct json_value *v = json_get(obj, key);
	static const char *const want[] = {
		[JSON_NULL] = "null", [JSON_BOOL] = "true or false", [JSON_NUMBER] = "a number",
		[JSON_STRING] = "a string", [JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
	};

	*out = NULL;
	if (v && v->type == JSON_NULL && nullable)
		return 0;
	if (!v || v->type != type) {
		if (!nullable || !v)
			return bad(c, obj, key, want[type], v);
		return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s%s should be %s or null, not %s",
				c->source, v->line, c->where, *c->where ? "." : "", key, want[type],
				json_type_name(v->type));
	}
	*out = v;
	return 0;
}

/* A string member, copied; NULL for null when @nullable. */
static int get_string(const struct field_ctx *c, const struct json_value *obj,
		      const char *key, bool nullable, char **out)
{
	const struct json_value *v;
	int err = get(c, obj, key, JSON_STRING, nullable, &v);

	*out = NULL;
	if (err || !v)
		return err;
	*out = strdup(v->u.string);
	return *out ? 0 : hwp_fail(-ENOMEM, "out of memory");
}

static int get_bool(const struct field_ctx *c, const struct json_value *obj,
		    const char *key, bool *out)
{
	const struct json_value *v;
	int err = get(c, obj, key, JSON_BOOL, false, &v);

	if (!err)
		*out = v->u.boolean;
	return err;
}

/* An integer member in [min, max]; -1 for null when @nullable. */
static int get_int(const struct field_ctx *c, const struct json_value *obj,
		   const char *key, bool nullable, long min, long max, long *out)
{
	const struct json_value *v;
	int err = get(c, obj, key, JSON_NUMBER, nullable, &v);

	*out = -1;
	if (err || !v)
		return err;
	if (v->u.number != floor(v->u.number) || v->u.number < (double)min ||
	    v->u.number > (double)max)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s%s should be a whole number from %ld to %ld, not %g",
				c->source, v->line, c->where, *c->where ? "." : "", key, min, max,
				v->u.number);
	*out = (long)v->u.number;
	return 0;
}

/* An array of exactly @n numbers or nulls (NAN) into a new array. */
static int get_values(const struct field_ctx *c, const struct json_value *obj,
		      const char *key, size_t n, double **out)
{
	const struct json_value *v;
	int err = get(c, obj, key, JSON_ARRAY, false, &v);
	double *vals;

	*out = NULL;
	if (err)
		return err;
	if (v->u.array.n != n)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s%s has %zu values, but \"runs\" is %zu",
				c->source, v->line, c->where, *c->where ? "." : "", key,
				v->u.array.n, n);
	vals = malloc((n ? n : 1) * sizeof(*vals));
	if (!vals)
		return hwp_fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct json_value *x = &v->u.array.items[i];

		if (x->type != JSON_NUMBER && x->type != JSON_NULL) {
			free(vals);
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%s%s[%zu] should be a number or null, not %s",
					c->source, x->line, c->where, *c->where ? "." : "", key, i,
					json_type_name(x->type));
		}
		vals[i] = x->type == JSON_NUMBER ? x->u.number : NAN;
	}
	*out = vals;
	return 0;
}

static int read_command(const struct field_ctx *c, const struct json_value *obj,
			char ***out)
{
	const struct json_value *v;
	int err = get(c, obj, "command", JSON_ARRAY, false, &v);
	char **argv;

	*out = NULL;
	if (err)
		return err;
	argv = calloc(v->u.array.n + 1, sizeof(*argv));
	if (!argv)
		return hwp_fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < v->u.array.n; i++) {
		const struct json_value *x = &v->u.array.items[i];

		if (x->type != JSON_STRING) {
			strv_free(argv);
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s%scommand[%zu] should be a string, not %s",
					c->source, x->line, c->where, *c->where ? "." : "", i,
					json_type_name(x->type));
		}
		if (!(argv[i] = strdup(x->u.string))) {
			strv_free(argv);
			return hwp_fail(-ENOMEM, "out of memory");
		}
	}
	*out = argv;
	return 0;
}

/* The fields an event and a metric share. */
static int read_series_common(struct field_ctx *c, const struct json_value *o,
			      struct series *sr, size_t runs)
{
	return get_string(c, o, "unit", false, &sr->unit) ?:
	       get_string(c, o, "reason", true, &sr->reason) ?:
	       get_values(c, o, "values", runs, &sr->values);
}

static int read_event(struct field_ctx *c, const struct json_value *o, struct series *sr,
		      size_t runs)
{
	sr->kind = HWP_SERIES_EVENT;
	return get_string(c, o, "event", false, &sr->name) ?:
	       get_string(c, o, "canonical", false, &sr->canonical) ?:
	       get_bool(c, o, "supported", &sr->supported) ?:
	       get_bool(c, o, "user_only", &sr->user_only) ?:
	       read_series_common(c, o, sr, runs) ?:
	       get_values(c, o, "percent_running_values", runs, &sr->pct);
}

static int read_metric(struct field_ctx *c, const struct json_value *o, struct series *sr,
		       size_t runs)
{
	sr->kind = HWP_SERIES_METRIC;
	sr->supported = true;
	return get_string(c, o, "metric", false, &sr->name) ?:
	       get_string(c, o, "expr", false, &sr->expr) ?:
	       get_bool(c, o, "builtin", &sr->builtin) ?:
	       read_series_common(c, o, sr, runs);
}

static int read_rows(struct field_ctx *c, const struct json_value *doc, const char *key,
		     struct hwp_result *r)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err = get(c, doc, key, JSON_ARRAY, false, &arr);
	bool events = !strcmp(key, "events");
	struct series *n;

	if (err)
		return err;
	n = realloc(r->series, (r->nr_series + arr->u.array.n + 1) * sizeof(*n));
	if (!n)
		return hwp_fail(-ENOMEM, "out of memory");
	r->series = n;
	for (size_t i = 0; i < arr->u.array.n; i++) {
		const struct json_value *o = &arr->u.array.items[i];
		struct series *sr = &r->series[r->nr_series++];

		memset(sr, 0, sizeof(*sr));
		snprintf(c->where + base, sizeof(c->where) - base, "%s%s[%zu]", base ? "." : "",
			 key, i);
		if (o->type != JSON_OBJECT) {
			c->where[base] = '\0';
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s[%zu] should be an object, not %s",
					c->source, o->line, key, i,
					json_type_name(o->type));
		}
		if (events)
			err = read_event(c, o, sr, r->nr_runs);
		else
			err = read_metric(c, o, sr, r->nr_runs);
		if (err)
			return err;
		r->nr_events += events;
	}
	c->where[base] = '\0';
	return 0;
}

static int read_environment(struct field_ctx *c, const struct json_value *doc,
			    struct hwp_environment *env)
{
	const struct json_value *o;
	size_t base = strlen(c->where);
	int err = get(c, doc, "environment", JSON_OBJECT, false, &o);

	if (err)
		return err;
	snprintf(c->where + base, sizeof(c->where) - base, "%senvironment", base ? "." : "");
	err = get_string(c, o, "host", false, &env->host) ?:
	      get_string(c, o, "kernel", false, &env->kernel) ?:
	      get_string(c, o, "cpu", false, &env->cpu) ?:
	      get_string(c, o, "date", false, &env->date) ?:
	      get_string(c, o, "hwprof_version", false, &env->version) ?:
	      get_int(c, o, "nr_cpus", false, 0, 1 << 20, &env->nr_cpus);
	c->where[base] = '\0';
	return err;
}

/* Whether the document says it is ours, and which kind; a message if not. */
static int check_schema(const struct json_value *doc, const char *source,
			const char *where, const char *want)
{
	const struct json_value *s = json_get(doc, "schema");

	if (doc->type != JSON_OBJECT)
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s'%s%s is JSON but not hwprof's: %s, not an object; write it with hwprof stat --json -o FILE",
				source, *where ? ": " : "", where, json_type_name(doc->type));
	if (!s || s->type != JSON_STRING)
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s'%s%s is JSON but not hwprof's: it has no \"schema\"; write it with hwprof stat --json -o FILE",
				source, *where ? ": " : "", where);
	if (!strcmp(s->u.string, want))
		return 0;
	if (!strncmp(s->u.string, want, strcspn(want, "/") + 1))
		return hwp_fail(-HWP_ERR_FORMAT,
				"'%s' has schema '%.40s', which this hwprof (%s) does not read: it reads %s",
				source, s->u.string, HWPROF_VERSION, want);
	return hwp_fail(-HWP_ERR_FORMAT, "'%s'%s%s has schema '%.40s', not %s", source,
			*where ? ": " : "", where, s->u.string, want);
}

int hwp_result_from_json(const struct json_value *doc, const char *source,
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
		err = hwp_fail(-ENOMEM, "out of memory");
		goto err;
	}
	/* runs first: every array of values must have that many. */
	err = get_int(&c, doc, "runs", false, 1, 1 << 30, &runs) ?:
	      get_int(&c, doc, "exit_status", true, 0, 0x7fffffff, &code) ?:
	      read_command(&c, doc, &r->argv) ?:
	      get_string(&c, doc, "target", true, &r->target) ?:
	      get_string(&c, doc, "event_spec", false, &r->spec);
	if (err)
		goto err;
	r->nr_runs = (size_t)runs;
	r->exit_code = (int)code;
	{
		const struct json_value *secs;
		size_t base = strlen(c.where);

		err = get(&c, doc, "seconds", JSON_OBJECT, false, &secs);
		if (err)
			goto err;
		snprintf(c.where + base, sizeof(c.where) - base, "%sseconds", base ? "." : "");
		err = get_values(&c, secs, "values", r->nr_runs, &r->seconds);
		c.where[base] = '\0';
	}
	err = err ?: read_rows(&c, doc, "events", r) ?: read_rows(&c, doc, "metrics", r) ?:
	      read_environment(&c, doc, &r->env);
	if (err)
		goto err;
	*out = r;
	return 0;
err:
	hwp_result_free(r);
	return err;
}

static bool is_sweep(const struct json_value *doc)
{
	const struct json_value *schema = json_get(doc, "schema");

	return schema && schema->type == JSON_STRING &&
	       !strcmp(schema->u.string, SWEEP_SCHEMA);
}

HWP_API int hwp_result_read(const char *path, struct hwp_result **out)
{
	struct json_value *doc;
	int err;

	hwp_clear_error();
	if (!path || !out)
		return hwp_fail(-EINVAL, "hwp_result_read: NULL argument");
	*out = NULL;
	err = hwp_json_read_file(path, &doc);
	if (err)
		return err;
	if (is_sweep(doc))
		err = hwp_fail(-HWP_ERR_FORMAT,
			       "'%s' is a sweep (hwprof stat --sweep): read it with hwp_sweep_read()",
			       path);
	else
		err = hwp_result_from_json(doc, path, "", out);
	json_free(doc);
	return err;
}

static int read_points(const struct json_value *doc, const char *path,
		       struct hwp_sweep *sw)
{
	struct field_ctx c = { .source = path };
	const struct json_value *points;
	int err = get(&c, doc, "points", JSON_ARRAY, false, &points);

	if (err)
		return err;
	if (!points->u.array.n)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: the sweep has no points", path,
				points->line);
	for (size_t i = 0; i < points->u.array.n; i++) {
		const struct json_value *pt = &points->u.array.items[i], *res;
		struct hwp_result *r;
		char *value;

		snprintf(c.where, sizeof(c.where), "points[%zu]", i);
		if (pt->type != JSON_OBJECT)
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: points[%zu] should be an object, not %s",
					path, pt->line, i, json_type_name(pt->type));
		err = get_string(&c, pt, "value", false, &value);
		if (err)
			return err;
		if (!*value) {
			free(value);
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: points[%zu] has an empty value",
					path, pt->line, i);
		}
		err = get(&c, pt, "result", JSON_OBJECT, false, &res);
		if (err) {
			free(value);
			return err;
		}
		strcat(c.where, ".result");
		err = hwp_result_from_json(res, path, c.where, &r);
		if (!err) {
			err = hwp_sweep_add(sw, value, r);
			if (err)
				hwp_result_free(r);
			if (err == -EEXIST)
				err = hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: %s=%s appears twice",
					       path, pt->line, sw->param, value);
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

	err = get(&c, doc, "parameter", JSON_STRING, false, &param) ?:
	      read_command(&c, doc, &argv);
	if (err)
		return err;
	err = hwp_sweep_new(param->u.string, &sw);
	if (err) {
		strv_free(argv);
		return hwp_fail_prefix(-HWP_ERR_FORMAT, "'%s', line %u", path, param->line);
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
	int err = hwp_sweep_alloc(NULL, out);

	if (!err && (err = hwp_sweep_push(*out, NULL, r))) {
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

	if (is_sweep(doc)) {
		err = sweep_from_json(doc, path, out);
	} else {
		err = hwp_result_from_json(doc, path, "", &r);
		if (!err)
			err = sweep_of_one(r, out);
	}
	json_free(doc);
	return err;
}

int hwp_sweep_parse(const char *buf, size_t len, const char *source,
		    struct hwp_sweep **out)
{
	struct json_value *doc;
	int err;

	hwp_clear_error();
	*out = NULL;
	err = parse_json(buf, len, source, &doc);
	return err ? err : sweep_from_doc(doc, source, out);
}

HWP_API int hwp_sweep_read(const char *path, struct hwp_sweep **out)
{
	struct json_value *doc;
	int err;

	hwp_clear_error();
	if (!path || !out)
		return hwp_fail(-EINVAL, "hwp_sweep_read: NULL argument");
	*out = NULL;
	err = hwp_json_read_file(path, &doc);
	return err ? err : sweep_from_doc(doc, path, out);
}
