// SPDX-License-Identifier: MIT
/* The strict JSON reader: what it accepts, what it refuses and why, every
 * truncation of a document, and seeded byte mutations (no crash, no leak:
 * the ASan build runs this too), with arrays of numbers packed or not: the
 * same outcome and message either way. The writer's strings: valid UTF-8
 * and JSON whatever bytes they are given. */
#include "core/core.h"
#include "util/json-reader.h"
#include "util/json-writer.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>

static const struct json_limits packed = { .pack_numbers = true };

static struct json_value *parse(const char *s, struct json_error *err)
{
	struct json_value *v = NULL;

	json_parse(s, strlen(s), NULL, &v, err);
	return v;
}

static void check_accepted(void)
{
	struct json_error err;
	struct json_value *v;
	const struct json_value *x;

	v = parse(" {\"a\": [1, -2.5e3, 0, true, false, null], \"b\": {\"c\": \"d\\n\\u00e9\\ud83d\\ude00\"},"
		  "\n \"e\": [], \"f\": {}, \"g\": \"\xc3\xa9\"}\n",
		  &err);
	CHECK(v && v->type == JSON_OBJECT && v->u.object.n == 5, "object: %s", err.msg);
	if (!v)
		return;
	x = json_get(v, "a");
	CHECK(x && x->type == JSON_ARRAY && x->u.array.n == 6, "array of 6");
	CHECK(x->u.array.items[0].u.number == 1 && x->u.array.items[1].u.number == -2500,
	      "numbers");
	CHECK(x->u.array.items[3].type == JSON_BOOL && x->u.array.items[3].u.boolean,
	      "true");
	CHECK(x->u.array.items[4].type == JSON_BOOL && !x->u.array.items[4].u.boolean,
	      "false");
	CHECK(x->u.array.items[5].type == JSON_NULL, "null");
	x = json_get(json_get(v, "b"), "c");
	CHECK(x && !strcmp(x->u.string, "d\n\xc3\xa9\xf0\x9f\x98\x80"),
	      "escapes and a surrogate pair");
	CHECK(json_get(v, "e")->u.array.n == 0 && json_get(v, "f")->u.object.n == 0,
	      "empty");
	CHECK(!strcmp(json_get(v, "g")->u.string, "\xc3\xa9"), "raw UTF-8");
	CHECK(json_get(v, "e")->line == 2, "line of a value: %u", json_get(v, "e")->line);
	CHECK(!json_get(v, "zz") && !json_get(json_get(v, "a"), "a"),
	      "missing key, not an object");
	json_free(v);
	v = parse("123", &err);
	CHECK(v && v->type == JSON_NUMBER && v->u.number == 123, "a bare number");
	json_free(v);
	v = parse("\"\"", &err);
	CHECK(v && v->type == JSON_STRING && !*v->u.string, "empty string");
	json_free(v);
}

static void check_refused(void)
{
	static const struct {
		const char *in;
		const char *msg;
		bool truncated;
	} table[] = {
		{ "", "ends where a value should be", true },
		{ "   ", "ends where a value should be", true },
		{ "{", "ends where a key", true },
		{ "{\"a\"", "ends where ':'", true },
		{ "{\"a\":", "ends where a value", true },
		{ "{\"a\":1", "ends where ',' or '}'", true },
		{ "[1,2", "ends where ',' or ']'", true },
		{ "\"abc", "ends where the end of a string", true },
		{ "[tru", "rest of a literal", true },
		{ "-", "ends where a digit", true },
		{ "1.", "ends where a digit after the decimal point", true },
		{ "[1,]", "']' where a value should be", false },
		{ "{\"a\":1,}", "'}' where a key", false },
		{ "{a:1}", "'a' where a key", false },
		{ "[1 2]", "'2' where ',' or ']'", false },
		{ "01", "more after the end", false },
		{ "1 2", "more after the end", false },
		{ "{}\n{}", "more after the end", false },
		{ "+1", "'+' where a value", false },
		{ ".5", "'.' where a value", false },
		{ "1e999", "out of range", false },
		{ "NaN", "'N' where a value", false },
		{ "[Infinity]", "'I' where a value", false },
		{ "// x\n1", "'/' where a value", false },
		{ "\"a\tb\"", "control character 0x09", false },
		{ "\"\\x\"", "'\\x' is not an escape", false },
		{ "\"\\u12g4\"", "four hexadecimal digits", false },
		{ "\"\\u0000\"", "\\u0000 is not allowed", false },
		{ "\"\\udc00\"", "second half of a surrogate pair alone", false },
		{ "\"\\ud800x\"", "must be followed by its second half", false },
		{ "\"\\ud800\\u0041\"", "not a surrogate pair", false },
		{ "\"\xff\"", "0xff in a string is not valid UTF-8", false },
		{ "\"\xc0\xaf\"", "not valid UTF-8", false },		/* overlong '/' */
		{ "\"\xed\xa0\x80\"", "not valid UTF-8", false },	/* a surrogate */
		{ "\"\xf4\x90\x80\x80\"", "not valid UTF-8", false },	/* > U+10FFFF */
		{ "\"\xe2\x82\"", "not valid UTF-8", false },		/* cut short */
		{ "\"\xe2\x82", "ends where the end of a string", true },
		{ "{\"a\":1,\"b\":2,\"a\":3}", "\"a\" appears twice", false },
		{ "\xef\xbb\xbf{}", "byte 0xef where a value", false },	/* a BOM */
		{ "[1234567890123456789012345678901234567890123456789012345678901234567890]",
		  "a number of 70 characters", false },
	};

	for (int pack = 0; pack < 2; pack++)
		for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
			struct json_error err;
			struct json_value *v = NULL;
			int ret = json_parse(table[i].in, strlen(table[i].in),
					     pack ? &packed : NULL, &v, &err);

			CHECK(ret == -EINVAL && !v, "row %zu, packed %d: %s: returned %d",
			      i, pack, table[i].in, ret);
			CHECK(strstr(err.msg, table[i].msg),
			      "row %zu, packed %d: message '%s', want '%s'", i, pack,
			      err.msg, table[i].msg);
			CHECK(err.truncated == table[i].truncated,
			      "row %zu, packed %d: truncated %d", i, pack, err.truncated);
			json_free(v);
		}
}

/* Arrays of numbers and nulls, packed: 8 bytes a number, the same items
 * through json_item(); an array with anything else is as it always was. */
static void check_packed(void)
{
	struct json_limits few = { .max_values = 5, .pack_numbers = true };
	const char *in = "{\"a\": [1, -2.5e3,\n null], \"b\": [1, 2, \"x\", null, 3],\n"
			 " \"c\": [], \"d\": [null, [1]], \"e\": [[1, 2], 3]}";
	struct json_value *v = NULL, tmp;
	const struct json_value *a, *b, *x;
	struct json_error err;

	CHECK_ERR(json_parse(in, strlen(in), &packed, &v, &err), 0);
	if (!v)
		return;
	a = json_get(v, "a");
	b = json_get(v, "b");
	CHECK(a->type == JSON_NUMBERS && json_is_array(a) && json_array_len(a) == 3 &&
	      a->u.numbers.v[1] == -2500 && isnan(a->u.numbers.v[2]), "packed");
	x = json_item(a, 2, &tmp);
	CHECK(x->type == JSON_NULL && x->line == 1, "a packed null, on the array's line");
	x = json_item(a, 0, &tmp);
	CHECK(x->type == JSON_NUMBER && x->u.number == 1, "a packed number");
	CHECK(b->type == JSON_ARRAY && json_array_len(b) == 5 &&
	      json_item(b, 1, &tmp)->u.number == 2 &&
	      json_item(b, 2, &tmp)->type == JSON_STRING &&
	      json_item(b, 3, &tmp)->type == JSON_NULL &&
	      json_item(b, 4, &tmp)->u.number == 3,
	      "a string among numbers: items as ever");
	CHECK(json_get(v, "c")->type == JSON_ARRAY && !json_array_len(json_get(v, "c")),
	      "[]");
	CHECK(json_get(v, "d")->type == JSON_ARRAY &&
	      json_get(v, "e")->type == JSON_ARRAY &&
	      json_item(json_get(v, "e"), 0, &tmp)->type == JSON_NUMBERS, "nested");
	CHECK(!strcmp(json_type_name(JSON_NUMBERS), "an array") && !json_array_len(v),
	      "names and lengths");
	json_free(v);
	/* Packed numbers cost 8 bytes and count for nothing; unpacked, each counts. */
	CHECK_ERR(json_parse("[1, 2, 3, 4, 5, 6, 7]", 21, &few, &v, &err), 0);
	json_free(v);
	CHECK_ERR(json_parse("[1, 2, 3, 4, 5, \"x\"]", 20, &few, &v, &err), -E2BIG);
	CHECK(!v && strstr(err.msg, "more than 5 values"), "%s", err.msg);
}

static void check_positions_and_limits(void)
{
	struct json_limits lim = { .max_depth = 3, .max_values = 5 };
	struct json_error err;
	struct json_value *v = NULL;
	const char nul[] = "[1,\0 2]";
	const char *dup = "{\"a\": {\"x\": 1, \"y\": [{\"x\": 0}]},\n \"b\": {\"x\": 2, \"y\": 3,\n   "
			  "\"x\": 4}, \"x\": 5}";
	const char *three = "{\"a\":1,\"b\":2,\"a\":3,\"a\":4}";
	char deep[200];

	CHECK_ERR(json_parse("{\n  \"a\": [1,\n  x]}", 17, NULL, &v, &err), -EINVAL);
	CHECK(err.line == 3 && err.column == 3, "line %u column %u", err.line,
	      err.column);
	/* A duplicate key is shown where it repeats, not where its object
	 * starts (line 1 of a whole file), also among nested objects. */
	CHECK_ERR(json_parse("{\"k\": 1,\n\"k\": 2}", 16, NULL, &v, &err), -EINVAL);
	CHECK(err.line == 2 && err.column == 1, "a duplicate: %u:%u", err.line,
	      err.column);
	CHECK_ERR(json_parse(dup, strlen(dup), NULL, &v, &err), -EINVAL);
	CHECK(err.line == 3 && err.column == 4 && strstr(err.msg, "\"x\" appears twice"),
	      "nested: %u:%u %s", err.line, err.column, err.msg);
	CHECK_ERR(json_parse(three, strlen(three), NULL, &v, &err), -EINVAL);
	CHECK(err.line == 1 && err.column == 14, "three times: %u:%u", err.line,
	      err.column);
	CHECK_ERR(json_parse(nul, sizeof(nul) - 1, NULL, &v, &err), -EINVAL);
	CHECK(strstr(err.msg, "NUL byte"), "%s", err.msg);
	CHECK_ERR(json_parse("[[[1]]]", 7, &lim, &v, &err), 0);
	json_free(v);
	CHECK_ERR(json_parse("[[[[1]]]]", 9, &lim, &v, &err), -E2BIG);
	CHECK(strstr(err.msg, "deeper than 3"), "%s", err.msg);
	CHECK_ERR(json_parse("[1,2,3,4,5]", 11, &lim, &v, &err), -E2BIG);
	CHECK(strstr(err.msg, "more than 5 values"), "%s", err.msg);
	/* The default depth: 64 levels parse, 65 do not. */
	memset(deep, '[', 65);
	memset(deep + 65, ']', 65);
	CHECK_ERR(json_parse(deep + 1, 128, NULL, &v, &err), 0);
	json_free(v);
	CHECK_ERR(json_parse(deep, 130, NULL, &v, &err), -E2BIG);
	CHECK(!v, "nothing on failure");
}

/* A document in the shape of hwprof's own output. */
static const char doc[] =
	"{\n"
	"  \"schema\": \"hwprof-stat/1\",\n"
	"  \"command\": [\"./bench\", \"a b\"],\n"
	"  \"runs\": 3,\n"
	"  \"events\": [ { \"event\": \"page-faults\", \"values\": [10, 11.5, null], \"ok\": true } ],\n"
	"  \"environment\": { \"host\": \"h\\u00e9\xe2\x82\xac\", \"nr_cpus\": 2 }\n"
	"}";

static void check_truncations(void)
{
	size_t bad = 0;

	for (size_t len = 0; len < 2 * (sizeof(doc) - 1); len++) {
		struct json_error err;
		struct json_value *v = NULL;
		bool pack = len >= sizeof(doc) - 1;
		size_t n = len % (sizeof(doc) - 1);
		int ret = json_parse(doc, n, pack ? &packed : NULL, &v, &err);

		if (ret != -EINVAL || !err.truncated) {
			t_note("prefix of %zu bytes, packed %d: returned %d, truncated %d: %s",
			       n, pack, ret, err.truncated, err.msg);
			bad++;
		}
		json_free(v);
	}
	CHECK(bad == 0, "%zu prefixes not seen as truncated", bad);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Mutated documents: each either parses or fails with a message. */
static void check_mutations(void)
{
	static const char bytes[] = "{}[]\":,\\u0123456789eE.-+ \ntrufalsn\x80\xc3\xff";
	char buf[sizeof(doc)];
	size_t parsed = 0, refused = 0;

	for (int i = 0; i < 20000; i++) {
		struct json_error err;
		struct json_value *v = NULL;
		size_t len = sizeof(doc) - 1;
		int ret;

		memcpy(buf, doc, len);
		for (int k = 0, n = 1 + (int)(xorshift() % 4); k < n; k++)
			buf[xorshift() % len] = bytes[xorshift() % (sizeof(bytes) - 1)];
		if (xorshift() % 4 == 0)
			len = xorshift() % len;
		ret = json_parse(buf, len, NULL, &v, &err);
		json_free(v);
		v = NULL;
		{
			struct json_error perr;
			int pret = json_parse(buf, len, &packed, &v, &perr);

			if (pret != ret || (ret && (strcmp(perr.msg, err.msg) ||
						    perr.line != err.line ||
						    perr.column != err.column))) {
				CHECK(0, "mutation %d: %d '%s', packed %d '%s'", i, ret,
				      err.msg, pret, perr.msg);
				break;
			}
		}
		if (ret == 0) {
			parsed++;
		} else if (ret == -EINVAL && err.msg[0] && err.line >= 1) {
			refused++;
		} else {
			CHECK(0, "mutation %d: returned %d, message '%s'", i, ret,
			      err.msg);
			break;
		}
		json_free(v);
	}
	t_note("mutations: %zu parsed, %zu refused with a message", parsed, refused);
	CHECK(refused > 10000 && parsed > 0, "both outcomes seen");
}

/* Strings from a perf.data file are bytes: invalid UTF-8 becomes U+FFFD,
 * one for each maximal invalid subsequence (Unicode's "best practice"),
 * control characters are escaped, valid characters pass unchanged. For a
 * page's <script> element (html: report --format html), no '<', '>' or '&'
 * is left, so that no "</script>" can end the element. */
static void check_writer_strings(void)
{
	static const struct {
		const char *in, *out;
		bool html;
	} cases[] = {
		{ "plain", "\"plain\"", false },
		{ "caf\xc3\xa9 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"",
		  false },
		{ "a\xff" "b", "\"a\\ufffdb\"", false },
		{ "cut \xc3", "\"cut \\ufffd\"", false },
		{ "\xe2\x82x", "\"\\ufffdx\"", false },	/* a 3-byte character cut short */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", false },	/* a surrogate */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"", false },	/* an overlong '/' */
		/* > U+10FFFF */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", false },
		{ "\x1b[31mred\x7f\x01", "\"\\u001b[31mred\\u007f\\u0001\"", false },
		{ "q\"b\\n\n\t", "\"q\\\"b\\\\n\\n\\t\"", false },
		{ "</script>&", "\"</script>&\"", false },
		{ "</script><script>alert(1)</script><!-- & -->",
		  "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"
		  "\\u003c!-- \\u0026 --\\u003e\"", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_writer w;
		struct json_value *v = NULL;
		struct json_error err;
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		jw_init(&w, f, false);
		w.html = cases[i].html;
		jw_string(&w, cases[i].in);
		fclose(f);
		CHECK(!strcmp(out, cases[i].out), "case %zu: wrote %s, want %s", i, out,
		      cases[i].out);
		CHECK(json_parse(out, len, NULL, &v, &err) == 0 && v->type == JSON_STRING,
		      "case %zu: %s reads back: %s", i, out, err.msg);
		CHECK(!cases[i].html || (v && !strcmp(v->u.string, cases[i].in)),
		      "case %zu: %s reads back as what was written", i, out);
		json_free(v);
		free(out);
	}
}

/* Counts are unsigned 64-bit: 2^63 and more are not negative. */
static void check_writer_uint(void)
{
	struct json_writer w;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	jw_init(&w, f, false);
	jw_array_begin(&w, true);
	jw_uint(&w, 0);
	jw_uint(&w, (1ULL << 63) + 5);
	jw_uint(&w, UINT64_MAX);
	jw_array_end(&w);
	fclose(f);
	CHECK(!strcmp(out, "[0, 9223372036854775813, 18446744073709551615]"), "wrote %s",
	      out);
	free(out);
}

int main(void)
{
	t_init();
	t_run(check_writer_strings);
	t_run(check_writer_uint);
	t_run(check_accepted);
	t_run(check_refused);
	t_run(check_packed);
	t_run(check_positions_and_limits);
	t_run(check_truncations);
	t_run(check_mutations);
	return t_done();
}
