// SPDX-License-Identifier: MIT
/*
 * Reading the JSON that results, sweeps and regions are written in: a
 * whole file, parsed, and its fields, each checked for its type (and an
 * array of runs for its length) before anything is copied. Each message
 * names the file, the line, the field and what was expected. The readers
 * of every document of the stage use these, and nothing above them.
 */
#include "core/core.h"
#include "rows/rows.h"
#include "util/json-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A regular file is read whole, whatever its size: its arrays of numbers
 * are packed (8 bytes a number, as stat held them), so memory grows with
 * the file by a small factor. A pipe or device has no size to trust, and
 * could go on forever: what is read from one is capped. */
#define MAX_STREAM_SIZE ((size_t)1 << 30)

/* Bytes no JSON has, in a string or out: control characters other than
 * tab, newline and return. Reading stops at one (the parser says where):
 * /dev/zero is not read for a gigabyte. */
static bool not_json(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' &&
		    s[i] != '\r')
			return true;
	return false;
}

static int read_all(int fd, const char *path, char **out, size_t *len)
{
	struct stat st;
	bool regular = !fstat(fd, &st) && S_ISREG(st.st_mode);
	/* One byte more than its size: reading it tells the end of a file
	 * that has not grown since. */
	size_t alloc = regular && st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
	size_t n = 0;
	char *buf = malloc(alloc);

	if (!buf)
		return fail(-ENOMEM, "out of memory for the %zu MiB of '%s'", alloc >> 20,
			    path);
	for (;;) {
		ssize_t got;

		if (n == alloc) {
			char *p;

			if (!regular && alloc >= MAX_STREAM_SIZE) {
				free(buf);
				return fail(-EFBIG,
						"'%s' is not a regular file and goes past the %zu MiB read from a pipe or device: write the result to a file and compare that",
						path, MAX_STREAM_SIZE >> 20);
			}
			alloc *= 2;
			p = realloc(buf, alloc);
			if (!p) {
				free(buf);
				return fail(-ENOMEM,
					    "out of memory reading '%s' (%zu MiB so far)",
					    path, n >> 20);
			}
			buf = p;
		}
		got = read(fd, buf + n, alloc - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			return fail(-e, "reading '%s' failed: %s", path,
				    errno_text(e));
		}
		if (!got)
			break;
		n += (size_t)got;
		if (not_json(buf + n - got, (size_t)got))
			break;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* Parse @len bytes of @path, with messages for people. */
int json_doc_parse(const char *buf, size_t len, const char *path, struct json_value **doc)
{
	/* A value of ours takes 4 bytes at the least (packed numbers do not
	 * count): no file hwprof writes meets the cap, and a file that does
	 * cannot cost more than ~8 times its size. */
	const struct json_limits lim = {
		.max_values = len / 4 + ((size_t)4 << 20),
		.pack_numbers = true,
	};
	struct json_error jerr;
	int err = json_parse(buf, len, &lim, doc, &jerr);

	if (err == -ENOMEM)
		return fail(err, "out of memory reading '%s' (%zu MiB)", path, len >> 20);
	if (err == -E2BIG && jerr.too_deep)
		return fail(-HWP_ERR_FORMAT,
			    "'%s' is %s, at line %u: not the JSON hwprof writes, which nests a few levels",
			    path, jerr.msg, jerr.line);
	if (err == -E2BIG)
		return fail(-HWP_ERR_FORMAT, "'%s' is too large to read: %s", path,
			    jerr.msg);
	if (err && !len)
		return fail(-HWP_ERR_FORMAT,
				"'%s' is empty, not the JSON of hwprof stat --json",
				path);
	if (err && jerr.truncated)
		return fail(-HWP_ERR_FORMAT,
				"'%s' ends early, at line %u: it looks truncated (%s)",
				path, jerr.line, jerr.msg);
	if (err)
		return fail(-HWP_ERR_FORMAT,
				"'%s' is not valid JSON: line %u, column %u: %s%s", path,
				jerr.line, jerr.column, jerr.msg,
				strstr(jerr.msg, "more after") ?
					" (hwprof stat -I writes one object a line; compare needs the output of hwprof stat -r N --json)" :
					"");
	return 0;
}

int json_read_file(const char *path, struct json_value **doc)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, err;

	*doc = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return fail(-e, "cannot open '%s': %s", path, errno_text(e));
	}
	err = read_all(fd, path, &buf, &len);
	close(fd);
	if (err)
		return err;
	err = json_doc_parse(buf, len, path, doc);
	free(buf);
	return err;
}

static const char *const type_wanted[] = {
	[JSON_NULL] = "null", [JSON_BOOL] = "true or false",
	[JSON_NUMBER] = "a number", [JSON_STRING] = "a string",
	[JSON_ARRAY] = "an array", [JSON_OBJECT] = "an object",
};

/* Between the object read and a key of it: "events[0]" "." "unit"; at the top,
 * nothing. */
static const char *dot(const struct field_ctx *c)
{
	return *c->where ? "." : "";
}

static int missing(const struct field_ctx *c, const struct json_value *obj,
		   const char *key, enum json_type type, bool nullable)
{
	if (!*c->where)
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: \"%s\" is missing: it should be %s%s; "
			    FIELD_FIX, c->source, obj->line, key, type_wanted[type],
			    nullable ? " or null" : "");
	return fail(-HWP_ERR_FORMAT,
		    "'%s', line %u: %s has no \"%s\": it should be %s%s; "
		    FIELD_FIX, c->source, obj->line, c->where, key, type_wanted[type],
		    nullable ? " or null" : "");
}

int field_get(const struct field_ctx *c, const struct json_value *obj, const char *key,
	      enum json_type type, bool nullable, const struct json_value **out)
{
	const struct json_value *v = json_get(obj, key);

	*out = NULL;
	if (!v)
		return missing(c, obj, key, type, nullable);
	if (v->type == JSON_NULL && nullable)
		return 0;
	if (v->type != type && !(type == JSON_ARRAY && json_is_array(v)))
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s%s%s should be %s%s, not %s; "
			    FIELD_FIX, c->source, v->line, c->where, dot(c), key,
			    type_wanted[type], nullable ? " or null" : "",
			    json_type_name(v->type));
	*out = v;
	return 0;
}

/* A string member, copied; NULL for null when @nullable. */
int field_string(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 bool nullable, char **out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_STRING, nullable, &v);

	*out = NULL;
	if (err || !v)
		return err;
	*out = strdup(v->u.string);
	return *out ? 0 : fail(-ENOMEM, "out of memory");
}

int field_bool(const struct field_ctx *c, const struct json_value *obj, const char *key,
	       bool *out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_BOOL, false, &v);

	if (!err)
		*out = v->u.boolean;
	return err;
}

/* A number as a message quotes it: whole ones in digits, as the file has
 * them (%g would show 9.0072e+15 beside a limit of 9007199254740992). */
static const char *num_text(double v, char buf[32])
{
	if (v == floor(v) && fabs(v) < 1e21)
		snprintf(buf, 32, "%.0f", v);
	else
		snprintf(buf, 32, "%.17g", v);
	return buf;
}

/* An integer member in [min, max]; -1 for null when @nullable. */
int field_int(const struct field_ctx *c, const struct json_value *obj, const char *key,
	      bool nullable, long min, long max, long *out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_NUMBER, nullable, &v);
	char num[32];

	*out = -1;
	if (err || !v)
		return err;
	if (v->u.number != floor(v->u.number) || v->u.number < (double)min ||
	    v->u.number > (double)max)
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s%s%s should be a whole number from %ld to %ld, not %s; "
			    FIELD_FIX, c->source, v->line, c->where, dot(c), key, min,
			    max, num_text(v->u.number, num));
	*out = (long)v->u.number;
	return 0;
}

int field_count(const struct field_ctx *c, const struct json_value *obj, const char *key,
		uint64_t *out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_NUMBER, false, &v);
	char num[32];

	*out = 0;
	if (err)
		return err;
	/* 0x1p64 is 2^64, the first double past UINT64_MAX. */
	if (v->u.number != floor(v->u.number) || v->u.number < 0 ||
	    v->u.number >= 0x1p64)
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s%s%s should be a whole number from 0 to "
			    "%" PRIu64 ", not %s; " FIELD_FIX,
			    c->source, v->line, c->where, dot(c), key, UINT64_MAX,
			    num_text(v->u.number, num));
	*out = (uint64_t)v->u.number;
	return 0;
}

int field_number(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 bool nullable, double *out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_NUMBER, nullable, &v);

	*out = NAN;
	if (!err && v)
		*out = v->u.number;
	return err;
}

/* An array of exactly @n numbers or nulls (NAN) into a new array. */
int field_values(const struct field_ctx *c, const struct json_value *obj, const char *key,
		 size_t n, double **out)
{
	const struct json_value *v;
	int err = field_get(c, obj, key, JSON_ARRAY, false, &v);
	double *vals;

	*out = NULL;
	if (err)
		return err;
	if (json_array_len(v) != n)
		return fail(-HWP_ERR_FORMAT,
			    "'%s', line %u: %s%s%s has %zu values, but \"runs\" is %zu; "
			    FIELD_FIX, c->source, v->line, c->where, dot(c), key,
			    json_array_len(v), n);
	vals = malloc((n ? n : 1) * sizeof(*vals));
	if (!vals)
		return fail(-ENOMEM, "out of memory");
	if (v->type == JSON_NUMBERS && n)
		memcpy(vals, v->u.numbers.v, n * sizeof(*vals));
	for (size_t i = 0; v->type == JSON_ARRAY && i < n; i++) {
		const struct json_value *x = &v->u.array.items[i];

		if (x->type != JSON_NUMBER && x->type != JSON_NULL) {
			free(vals);
			return fail(-HWP_ERR_FORMAT,
				    "'%s', line %u: %s%s%s[%zu] should be a number or null, not %s; "
				    FIELD_FIX, c->source, x->line, c->where, dot(c), key,
				    i, json_type_name(x->type));
		}
		vals[i] = x->type == JSON_NUMBER ? x->u.number : NAN;
	}
	*out = vals;
	return 0;
}

int field_command(const struct field_ctx *c, const struct json_value *obj, char ***out)
{
	const struct json_value *v;
	int err = field_get(c, obj, "command", JSON_ARRAY, false, &v);
	char **argv;

	*out = NULL;
	if (err)
		return err;
	argv = calloc(json_array_len(v) + 1, sizeof(*argv));
	if (!argv)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < json_array_len(v); i++) {
		struct json_value tmp;
		const struct json_value *x = json_item(v, i, &tmp);

		if (x->type != JSON_STRING) {
			strv_free(argv);
			return fail(-HWP_ERR_FORMAT,
				    "'%s', line %u: %s%scommand[%zu] should be a string, not %s; "
				    FIELD_FIX, c->source, x->line, c->where, dot(c), i,
				    json_type_name(x->type));
		}
		if (!(argv[i] = strdup(x->u.string))) {
			strv_free(argv);
			return fail(-ENOMEM, "out of memory");
		}
	}
	*out = argv;
	return 0;
}

/* A row's values: every run's, as an array, or one run's number. */
static int read_values(struct field_ctx *c, const struct json_value *o, const char *array,
		       const char *one, size_t runs, bool all_runs, double **out)
{
	double v;
	int err;

	if (all_runs)
		return field_values(c, o, array, runs, out);
	*out = NULL;
	err = field_number(c, o, one, true, &v);
	if (err)
		return err;
	*out = malloc(sizeof(**out));
	if (!*out)
		return fail(-ENOMEM, "out of memory");
	**out = v;
	return 0;
}

/* The fields an event and a metric share; @one names the value of one run. */
static int read_series_common(struct field_ctx *c, const struct json_value *o,
			      struct series *sr, size_t runs, bool all_runs,
			      const char *one)
{
	return field_string(c, o, "unit", false, &sr->unit) ?:
	       field_string(c, o, "reason", true, &sr->reason) ?:
	       read_values(c, o, "values", one, runs, all_runs, &sr->values);
}

/* "scale", where a count is worth other than 1 in the unit (older files
 * have none: their formulas read the values as counts). */
static int read_scale(struct field_ctx *c, const struct json_value *o, struct series *sr)
{
	const struct json_value *v = json_get(o, "scale");
	int err;

	sr->scale = 0;
	if (!v)
		return 0;
	err = field_number(c, o, "scale", false, &sr->scale);
	if (!err && !(sr->scale > 0 && isfinite(sr->scale)))
		err = fail(-HWP_ERR_FORMAT,
			   "'%s', line %u: %s%sscale should be a number above 0; "
			   FIELD_FIX, c->source, v->line, c->where, dot(c));
	return err;
}

static int read_event(struct field_ctx *c, const struct json_value *o, struct series *sr,
		      size_t runs, bool all_runs)
{
	sr->kind = HWP_SERIES_EVENT;
	return read_scale(c, o, sr) ?:
	       field_string(c, o, "event", false, &sr->name) ?:
	       field_string(c, o, "canonical", false, &sr->canonical) ?:
	       field_bool(c, o, "supported", &sr->supported) ?:
	       field_bool(c, o, "user_only", &sr->user_only) ?:
	       read_series_common(c, o, sr, runs, all_runs, "count") ?:
	       read_values(c, o, "percent_running_values", "percent_running", runs,
			   all_runs, &sr->pct);
}

static int read_metric(struct field_ctx *c, const struct json_value *o, struct series *sr,
		       size_t runs, bool all_runs)
{
	sr->kind = HWP_SERIES_METRIC;
	/* 0.2 writes whether its events could be counted; before, true. */
	sr->supported = true;
	return field_string(c, o, "metric", false, &sr->name) ?:
	       field_string(c, o, "expr", false, &sr->expr) ?:
	       field_bool(c, o, "builtin", &sr->builtin) ?:
	       (json_get(o, "supported") ?
		field_bool(c, o, "supported", &sr->supported) : 0) ?:
	       read_series_common(c, o, sr, runs, all_runs, "value");
}

/* A score's or a time's row: @key names it. */
static int read_named(struct field_ctx *c, const struct json_value *o, struct series *sr,
		      size_t runs, bool all_runs, const char *key)
{
	sr->kind = !strcmp(key, "score") ? HWP_SERIES_SCORE : HWP_SERIES_TIME;
	sr->supported = true;
	return field_string(c, o, key, false, &sr->name) ?:
	       read_series_common(c, o, sr, runs, all_runs, "value");
}

int field_rows(struct field_ctx *c, const struct json_value *doc, const char *key,
	       size_t nr_runs, bool all_runs, struct series **rows, size_t *nr_rows,
	       size_t *nr_events)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err = field_get(c, doc, key, JSON_ARRAY, false, &arr);
	bool events = !strcmp(key, "events");
	struct series *n;

	if (err)
		return err;
	n = realloc(*rows, (*nr_rows + json_array_len(arr) + 1) * sizeof(*n));
	if (!n)
		return fail(-ENOMEM, "out of memory");
	*rows = n;
	for (size_t i = 0; i < json_array_len(arr); i++) {
		struct json_value tmp;
		const struct json_value *o = json_item(arr, i, &tmp);
		struct series *sr = &n[(*nr_rows)++];

		memset(sr, 0, sizeof(*sr));
		snprintf(c->where + base, sizeof(c->where) - base, "%s%s[%zu]",
			 base ? "." : "", key, i);
		if (o->type != JSON_OBJECT) {
			c->where[base] = '\0';
			return fail(-HWP_ERR_FORMAT,
				    "'%s', line %u: %s%s%s[%zu] should be an object, not %s; "
				    FIELD_FIX, c->source, o->line, c->where,
				    base ? "." : "", key, i, json_type_name(o->type));
		}
		if (events)
			err = read_event(c, o, sr, nr_runs, all_runs);
		else if (!strcmp(key, "scores"))
			err = read_named(c, o, sr, nr_runs, all_runs, "score");
		else if (!strcmp(key, "times"))
			err = read_named(c, o, sr, nr_runs, all_runs, "time");
		else
			err = read_metric(c, o, sr, nr_runs, all_runs);
		if (err)
			return err;
		*nr_events += events;
	}
	c->where[base] = '\0';
	return 0;
}

/* "topology": [{cpu, core, die, socket, node}...], since 0.2. */
static int field_topology(struct field_ctx *c, const struct json_value *env,
			  struct hwp_topology **out)
{
	const struct json_value *arr;
	struct hwp_topology *t;
	size_t base = strlen(c->where);
	int err;

	if (!json_get(env, "topology"))
		return 0;
	err = field_get(c, env, "topology", JSON_ARRAY, false, &arr);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->cpus = calloc(json_array_len(arr) + 1, sizeof(*t->cpus)))) {
		free(t);
		return fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; !err && i < json_array_len(arr); i++) {
		struct json_value tmp;
		const struct json_value *o = json_item(arr, i, &tmp);
		struct cpu_topo *ct = &t->cpus[t->nr++];
		long v[5];

		snprintf(c->where + base, sizeof(c->where) - base, ".topology[%zu]", i);
		if (o->type != JSON_OBJECT) {
			err = fail(-HWP_ERR_FORMAT, "'%s': %s is not an object; %s",
				   c->source, c->where, FIELD_FIX);
			break;
		}
		err = field_int(c, o, "cpu", false, 0, 1 << 20, &v[0]) ?:
		      field_int(c, o, "core", false, -1, 1 << 20, &v[1]) ?:
		      field_int(c, o, "die", false, -1, 1 << 20, &v[2]) ?:
		      field_int(c, o, "socket", false, -1, 1 << 20, &v[3]) ?:
		      field_int(c, o, "node", false, -1, 1 << 20, &v[4]);
		*ct = (struct cpu_topo){ (int)v[0], (int)v[1], (int)v[2], (int)v[3],
					 (int)v[4] };
	}
	c->where[base] = '\0';
	if (err) {
		hwp_topology_free(t);
		return err;
	}
	*out = t;
	return 0;
}

/* "doctor": [{name, value, noisy}...], hwprof doctor's facts, since 0.2. */
static int field_facts(struct field_ctx *c, const struct json_value *env,
		       struct environment *out)
{
	const struct json_value *arr;
	size_t base = strlen(c->where);
	int err;

	if (!json_get(env, "doctor"))
		return 0;
	err = field_get(c, env, "doctor", JSON_ARRAY, false, &arr);
	if (err)
		return err;
	out->facts = calloc(json_array_len(arr) + 1, sizeof(*out->facts));
	if (!out->facts)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; !err && i < json_array_len(arr); i++) {
		struct json_value tmp;
		const struct json_value *o = json_item(arr, i, &tmp);
		struct env_fact *f = &out->facts[out->nr_facts++];

		snprintf(c->where + base, sizeof(c->where) - base, ".doctor[%zu]", i);
		if (o->type != JSON_OBJECT) {
			err = fail(-HWP_ERR_FORMAT, "'%s': %s is not an object; %s",
				   c->source, c->where, FIELD_FIX);
			break;
		}
		err = field_string(c, o, "name", false, &f->name) ?:
		      field_string(c, o, "value", false, &f->value) ?:
		      field_bool(c, o, "noisy", &f->noisy);
	}
	c->where[base] = '\0';
	return err;
}

int field_environment(struct field_ctx *c, const struct json_value *doc,
		      struct environment *env)
{
	const struct json_value *o;
	size_t base = strlen(c->where);
	int err = field_get(c, doc, "environment", JSON_OBJECT, false, &o);

	if (err)
		return err;
	snprintf(c->where + base, sizeof(c->where) - base, "%senvironment",
		 base ? "." : "");
	err = field_string(c, o, "host", false, &env->host) ?:
	      field_string(c, o, "kernel", false, &env->kernel) ?:
	      field_string(c, o, "cpu", false, &env->cpu) ?:
	      field_string(c, o, "date", false, &env->date) ?:
	      field_string(c, o, "hwprof_version", false, &env->version) ?:
	      field_int(c, o, "nr_cpus", false, 0, 1 << 20, &env->nr_cpus) ?:
	      field_topology(c, o, &env->topology) ?:
	      field_facts(c, o, env);
	c->where[base] = '\0';
	return err;
}
