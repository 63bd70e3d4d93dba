// SPDX-License-Identifier: MIT
#include "json-reader.h"
#include "utf8.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longer numbers are valid JSON, but no file of ours writes them and
 * strtod() should not be handed megabytes of digits. */
#define MAX_NUMBER_LEN 64

struct parser {
	const char *p, *end;
	const char *line_start;
	unsigned int line;
	size_t depth, values;
	size_t max_depth, max_values;
	bool pack;
	int fail;		/* the first error: -EINVAL, -E2BIG or -ENOMEM */
	struct json_error *err;
	/* Where each key of the objects being read starts, a stack that
	 * nested objects share: a duplicate key is reported where it is. */
	const char **keys;
	size_t nr_keys, keys_alloc;
};

static int fail(struct parser *ps, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *ps, int code, const char *fmt, ...)
{
	va_list ap;

	if (ps->fail)
		return ps->fail;
	ps->fail = code;
	ps->err->line = ps->line;
	ps->err->column = (unsigned int)(ps->p - ps->line_start) + 1;
	ps->err->truncated = ps->p >= ps->end;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return code;
}

/* An error where the input may simply have stopped. */
static int fail_at(struct parser *ps, const char *what)
{
	if (ps->p >= ps->end)
		return fail(ps, -EINVAL, "the input ends where %s should be", what);
	if (*ps->p == '\0')
		return fail(ps, -EINVAL, "a NUL byte where %s should be", what);
	if ((unsigned char)*ps->p < 0x20 || (unsigned char)*ps->p >= 0x7f)
		return fail(ps, -EINVAL, "byte 0x%02x where %s should be",
			    (unsigned char)*ps->p, what);
	return fail(ps, -EINVAL, "'%c' where %s should be", *ps->p, what);
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		ps->p++;
	}
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

/* ---- strings ---- */

struct buf {
	char *s;
	size_t len, alloc;
};

static int buf_put(struct buf *b, const char *data, size_t n)
{
	if (b->len + n + 1 > b->alloc) {
		size_t want = b->alloc ? b->alloc : 32;
		char *s;

		while (want < b->len + n + 1)
			want *= 2;
		s = realloc(b->s, want);
		if (!s)
			return -ENOMEM;
		b->s = s;
		b->alloc = want;
	}
	memcpy(b->s + b->len, data, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

static int put_utf8(struct buf *b, uint32_t cp)
{
	char out[4];
	size_t n;

	if (cp < 0x80) {
		out[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		out[0] = (char)(0xf0 | (cp >> 18));
		out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return buf_put(b, out, n);
}

/* Whether @s starts a multi-byte sequence that the end of the input cuts. */
static bool cut_short(const unsigned char *s, size_t avail)
{
	size_t need = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (s[0] > 0xf4 || need <= avail)
		return false;
	for (size_t i = 1; i < avail; i++)
		if ((s[i] & 0xc0) != 0x80)
			return false;
	return true;
}

static int hex4(struct parser *ps, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		char c;

		if (ps->p + i >= ps->end) {
			ps->p = ps->end;
			return fail_at(ps, "four hexadecimal digits");
		}
		c = ps->p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (uint32_t)(c - 'A' + 10);
		else
			return fail(ps, -EINVAL, "\\u needs four hexadecimal digits");
	}
	ps->p += 4;
	*out = v;
	return 0;
}

/* After a backslash. */
static int escape(struct parser *ps, struct buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *hit;
	uint32_t cp, lo;

	if (ps->p >= ps->end)
		return fail_at(ps, "an escape");
	hit = *ps->p ? strchr(from, *ps->p) : NULL;
	if (hit) {
		ps->p++;
		return buf_put(b, &to[hit - from], 1) ?
		       fail(ps, -ENOMEM, "out of memory") : 0;
	}
	if (*ps->p != 'u')
		return fail(ps, -EINVAL, "'\\%c' is not an escape of JSON", *ps->p);
	ps->p++;
	if (hex4(ps, &cp))
		return ps->fail;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, -EINVAL,
			    "\\u%04x is the second half of a surrogate pair alone", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (!literal(ps, "\\u"))
			return fail(ps, -EINVAL,
				    "\\u%04x must be followed by its second half", cp);
		if (hex4(ps, &lo))
			return ps->fail;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, -EINVAL, "\\u%04x\\u%04x is not a surrogate pair",
				    cp, lo);
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(ps, -EINVAL, "\\u0000 is not allowed in a string");
	return put_utf8(b, cp) ? fail(ps, -ENOMEM, "out of memory") : 0;
}

/* At the opening quote; sets *out to a new string. */
static int string(struct parser *ps, char **out)
{
	struct buf b = { 0 };

	ps->p++;
	if (buf_put(&b, "", 0))
		return fail(ps, -ENOMEM, "out of memory");
	for (;;) {
		const unsigned char *c = (const unsigned char *)ps->p;
		size_t n;
		int len;

		if (ps->p >= ps->end) {
			fail_at(ps, "the end of a string");
			break;
		}
		if (*c == '"') {
			ps->p++;
			*out = b.s;
			return 0;
		}
		if (*c == '\\') {
			ps->p++;
			if (escape(ps, &b))
				break;
			continue;
		}
		if (*c < 0x20) {
			fail(ps, -EINVAL,
			     "control character 0x%02x in a string (write it as \\u%04x)",
			     *c, *c);
			break;
		}
		len = utf8_char(c, (size_t)(ps->end - ps->p));
		n = len > 0 ? (size_t)len : 0;
		if (!n && cut_short(c, (size_t)(ps->end - ps->p))) {
			ps->p = ps->end;
			fail_at(ps, "the end of a string");
			break;
		}
		if (!n) {
			fail(ps, -EINVAL, "byte 0x%02x in a string is not valid UTF-8",
			     *c);
			break;
		}
		if (buf_put(&b, ps->p, n)) {
			fail(ps, -ENOMEM, "out of memory");
			break;
		}
		ps->p += n;
	}
	free(b.s);
	return ps->fail;
}

/* ---- numbers ---- */

static size_t digits(struct parser *ps)
{
	const char *s = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return (size_t)(ps->p - s);
}

static int number(struct parser *ps, double *out)
{
	const char *s = ps->p;
	char tmp[MAX_NUMBER_LEN + 1], *end;
	size_t len;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0')
		ps->p++;
	else if (!digits(ps))
		return fail_at(ps, "a digit");
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (!digits(ps))
			return fail_at(ps, "a digit after the decimal point");
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!digits(ps))
			return fail_at(ps, "a digit of the exponent");
	}
	len = (size_t)(ps->p - s);
	if (len > MAX_NUMBER_LEN) {
		ps->p = s;
		return fail(ps, -EINVAL, "a number of %zu characters (at most %d)", len,
			    MAX_NUMBER_LEN);
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*out = strtod(tmp, &end);
	if (end != tmp + len || isinf(*out)) {
		ps->p = s;
		return fail(ps, -EINVAL, "the number %s is out of range", tmp);
	}
	return 0;
}

/* ---- values ---- */

static int value(struct parser *ps, struct json_value *v);

static void value_release(struct json_value *v)
{
	switch (v->type) {
	case JSON_STRING:
		free(v->u.string);
		break;
	case JSON_ARRAY:
		for (size_t i = 0; i < v->u.array.n; i++)
			value_release(&v->u.array.items[i]);
		free(v->u.array.items);
		break;
	case JSON_OBJECT:
		for (size_t i = 0; i < v->u.object.n; i++) {
			free(v->u.object.members[i].key);
			value_release(&v->u.object.members[i].value);
		}
		free(v->u.object.members);
		break;
	case JSON_NUMBERS:
		free(v->u.numbers.v);
		break;
	default:
		break;
	}
	v->type = JSON_NULL;
}

/* Room for one more element of @size bytes in @arr, which holds @n: the
 * array, moved or not, or NULL with the error set. */
static void *grow(struct parser *ps, void *arr, size_t n, size_t *alloc, size_t size)
{
	void *p;
	size_t want;

	if (n < *alloc)
		return arr;
	want = *alloc ? *alloc * 2 : 4;
	if (want > SIZE_MAX / size || !(p = realloc(arr, want * size))) {
		fail(ps, -ENOMEM, "out of memory");
		return NULL;
	}
	*alloc = want;
	return p;
}

/* The items of array @v from here on, @alloc of them allocated. */
static int array_items(struct parser *ps, struct json_value *v, size_t alloc)
{
	for (;;) {
		struct json_value *items;

		items = grow(ps, v->u.array.items, v->u.array.n, &alloc, sizeof(*items));
		if (!items)
			return ps->fail;
		v->u.array.items = items;
		/* Counted before it is parsed, so that a failure frees what it holds. */
		if (value(ps, &items[v->u.array.n++]))
			return ps->fail;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return 0;
		}
		return fail_at(ps, "',' or ']' in an array");
	}
}

/* Whether a number or null comes next (else the generic path reads it). */
static bool number_next(const struct parser *ps)
{
	return ps->p < ps->end && (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'));
}

static bool null_next(const struct parser *ps)
{
	return ps->end - ps->p >= 4 && !memcmp(ps->p, "null", 4);
}

/* The @n numbers read so far as values, to go on with other kinds. */
static int unpack(struct parser *ps, struct json_value *v, double *nums, size_t n,
		  size_t *alloc)
{
	struct json_value *items;

	ps->values += n;
	if (ps->values > ps->max_values)
		return fail(ps, -E2BIG, "more than %zu values", ps->max_values);
	items = calloc(n + 4, sizeof(*items));
	if (!items)
		return fail(ps, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		items[i].type = isnan(nums[i]) ? JSON_NULL : JSON_NUMBER;
		items[i].line = v->line;
		items[i].u.number = nums[i];
	}
	free(nums);
	v->type = JSON_ARRAY;
	v->u.array.items = items;
	v->u.array.n = n;
	*alloc = n + 4;
	return 0;
}

/* Numbers and nulls, 8 bytes each, for as long as the array has only them. */
static int packed_items(struct parser *ps, struct json_value *v)
{
	size_t alloc = 0, n = 0;
	double *nums = NULL, *more;

	v->type = JSON_NUMBERS;
	for (;;) {
		if (!number_next(ps) && !null_next(ps))
			return unpack(ps, v, nums, n, &alloc) ?:
			       array_items(ps, v, alloc);
		more = grow(ps, nums, n, &alloc, sizeof(*nums));
		if (!more)
			break;
		v->u.numbers.v = nums = more;
		if (null_next(ps)) {
			ps->p += 4;
			nums[n] = NAN;
		} else if (number(ps, &nums[n])) {
			break;
		}
		v->u.numbers.n = ++n;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_space(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			/* Doubling left up to half of it unused. */
			more = realloc(nums, n * sizeof(*nums));
			v->u.numbers.v = more ? more : nums;
			return 0;
		}
		fail_at(ps, "',' or ']' in an array");
		break;
	}
	return ps->fail;
}

static int array(struct parser *ps, struct json_value *v)
{
	v->type = JSON_ARRAY;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	if (ps->pack && (number_next(ps) || null_next(ps)))
		return packed_items(ps, v);
	return array_items(ps, v, 0);
}

struct key_ref {
	const char *key;
	size_t i;		/* its place in the object */
};

static int cmp_key_ref(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Sorting the keys finds a duplicate in n log n, whatever the input; the
 * error points at the first key that repeats an earlier one. */
static int check_duplicates(struct parser *ps, const struct json_value *v, size_t base,
			    const char *p, unsigned int line, const char *line_start)
{
	size_t n = v->u.object.n, dup = SIZE_MAX;
	struct key_ref *refs;

	if (n < 2)
		return 0;
	refs = malloc(n * sizeof(*refs));
	if (!refs)
		return fail(ps, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		refs[i] = (struct key_ref){ v->u.object.members[i].key, i };
	qsort(refs, n, sizeof(*refs), cmp_key_ref);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(refs[i - 1].key, refs[i].key) && refs[i].i < dup &&
		    (i < 2 || strcmp(refs[i - 2].key, refs[i].key)))
			dup = refs[i].i;
	free(refs);
	if (dup == SIZE_MAX)
		return 0;
	/* Only now count the lines up to it: errors are rare, keys many. */
	for (const char *at = ps->keys[base + dup]; p < at; p++)
		if (*p == '\n') {
			line++;
			line_start = p + 1;
		}
	ps->p = p;
	ps->line = line;
	ps->line_start = line_start;
	return fail(ps, -EINVAL, "the key \"%.60s\" appears twice in the object",
		    v->u.object.members[dup].key);
}

static int push_key(struct parser *ps)
{
	const char **k = grow(ps, ps->keys, ps->nr_keys, &ps->keys_alloc, sizeof(*k));

	if (!k)
		return ps->fail;
	ps->keys = k;
	ps->keys[ps->nr_keys++] = ps->p;
	return 0;
}

static int object(struct parser *ps, struct json_value *v)
{
	const char *start = ps->p, *line_start = ps->line_start;
	unsigned int line = ps->line;
	size_t alloc = 0, base = ps->nr_keys;
	int err;

	v->type = JSON_OBJECT;
	ps->p++;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct json_member *m;

		m = grow(ps, v->u.object.members, v->u.object.n, &alloc, sizeof(*m));
		if (!m)
			return ps->fail;
		v->u.object.members = m;
		m += v->u.object.n;
		if (ps->p >= ps->end || *ps->p != '"')
			return fail_at(ps, "a key (a string in double quotes)");
		if (push_key(ps) || string(ps, &m->key))
			return ps->fail;
		m->value.type = JSON_NULL;
		v->u.object.n++;
		skip_space(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			return fail_at(ps, "':' after a key");
		ps->p++;
		if (value(ps, &m->value))
			return ps->fail;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			skip_space(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			err = check_duplicates(ps, v, base, start, line, line_start);
			ps->nr_keys = base;
			return err;
		}
		return fail_at(ps, "',' or '}' in an object");
	}
}

static int value(struct parser *ps, struct json_value *v)
{
	int err;

	memset(v, 0, sizeof(*v));
	skip_space(ps);
	v->line = ps->line;
	if (++ps->values > ps->max_values)
		return fail(ps, -E2BIG, "more than %zu values", ps->max_values);
	if (ps->p >= ps->end)
		return fail_at(ps, "a value");
	switch (*ps->p) {
	case '{':
	case '[':
		if (++ps->depth > ps->max_depth) {
			ps->err->too_deep = !ps->fail;
			return fail(ps, -E2BIG, "nested deeper than %zu levels",
				    ps->max_depth);
		}
		err = *ps->p == '{' ? object(ps, v) : array(ps, v);
		ps->depth--;
		return err;
	case '"':
		v->type = JSON_STRING;
		return string(ps, &v->u.string);
	case 't':
	case 'f':
		v->type = JSON_BOOL;
		v->u.boolean = *ps->p == 't';
		if (literal(ps, v->u.boolean ? "true" : "false"))
			return 0;
		break;
	case 'n':
		if (literal(ps, "null"))
			return 0;
		break;
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9')) {
			v->type = JSON_NUMBER;
			return number(ps, &v->u.number);
		}
	}
	/* A literal cut short by the end of the input is a truncation. */
	if (ps->end - ps->p < 5 && ps->end > ps->p &&
	    (!memcmp("true", ps->p, (size_t)(ps->end - ps->p)) ||
	     !memcmp("false", ps->p, (size_t)(ps->end - ps->p)) ||
	     !memcmp("null", ps->p, (size_t)(ps->end - ps->p)))) {
		ps->p = ps->end;
		return fail_at(ps, "the rest of a literal");
	}
	return fail_at(ps, "a value");
}

int json_parse(const char *buf, size_t len, const struct json_limits *lim,
	       struct json_value **out, struct json_error *err)
{
	struct parser ps = {
		.p = buf,
		.end = buf + len,
		.line_start = buf,
		.line = 1,
		.max_depth = lim && lim->max_depth ? lim->max_depth : 64,
		.max_values = lim && lim->max_values ? lim->max_values : (size_t)4 << 20,
		.pack = lim && lim->pack_numbers,
		.err = err,
	};
	struct json_value *v;

	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (!buf && len)
		return fail(&ps, -EINVAL, "no input");
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (!value(&ps, v)) {
		skip_space(&ps);
		if (ps.p < ps.end)
			fail(&ps, -EINVAL, "more after the end of the JSON value");
	}
	free(ps.keys);
	if (ps.fail) {
		json_free(v);
		return ps.fail;
	}
	*out = v;
	return 0;
}

void json_free(struct json_value *v)
{
	if (!v)
		return;
	value_release(v);
	free(v);
}

const struct json_value *json_get(const struct json_value *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->u.object.n; i++)
		if (!strcmp(obj->u.object.members[i].key, key))
			return &obj->u.object.members[i].value;
	return NULL;
}

const char *json_type_name(enum json_type t)
{
	switch (t) {
	case JSON_NULL: return "null";
	case JSON_BOOL: return "a boolean";
	case JSON_NUMBER: return "a number";
	case JSON_STRING: return "a string";
	case JSON_ARRAY: return "an array";
	case JSON_OBJECT: return "an object";
	case JSON_NUMBERS: return "an array";
	}
	return "?";
}

bool json_is_array(const struct json_value *v)
{
	return v && (v->type == JSON_ARRAY || v->type == JSON_NUMBERS);
}

size_t json_array_len(const struct json_value *v)
{
	if (!v)
		return 0;
	if (v->type == JSON_NUMBERS)
		return v->u.numbers.n;
	return v->type == JSON_ARRAY ? v->u.array.n : 0;
}

const struct json_value *json_item(const struct json_value *v, size_t i,
				   struct json_value *tmp)
{
	if (v->type == JSON_ARRAY)
		return &v->u.array.items[i];
	memset(tmp, 0, sizeof(*tmp));
	tmp->line = v->line;
	tmp->u.number = v->u.numbers.v[i];
	tmp->type = isnan(tmp->u.number) ? JSON_NULL : JSON_NUMBER;
	if (tmp->type == JSON_NULL)
		tmp->u.number = 0;
	return tmp;
}
