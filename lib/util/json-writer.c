// SPDX-License-Identifier: MIT
#include "json-writer.h"
#include "utf8.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void jw_init(struct json_writer *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->first[0] = true;
}

static void newline(struct json_writer *w)
{
	if (!w->pretty || w->inline_[w->depth])
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Before a value or a key: the comma and the indentation. */
static void before_item(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->f);
	if (w->inline_[w->depth] && !w->first[w->depth])
		fputc(' ', w->f);
	w->first[w->depth] = false;
	if (w->depth > 0)
		newline(w);
}

static void open_container(struct json_writer *w, char c, bool one_line)
{
	before_item(w);
	fputc(c, w->f);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
	w->inline_[w->depth] = one_line || w->inline_[w->depth - 1];
}

static void close_container(struct json_writer *w, char c)
{
	bool empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty && !w->inline_[w->depth + 1])
		newline(w);
	fputc(c, w->f);
}

void jw_object_begin(struct json_writer *w)
{
	open_container(w, '{', false);
}

void jw_object_end(struct json_writer *w)
{
	close_container(w, '}');
}

void jw_array_begin(struct json_writer *w, bool one_line)
{
	open_container(w, '[', one_line);
}

void jw_array_end(struct json_writer *w)
{
	close_container(w, ']');
}

/* Strings come from perf.data files and debug information, as bytes: the
 * output is valid UTF-8 all the same, invalid bytes written as U+FFFD. */
static void put_string(FILE *f, const char *s, bool html)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);

	fputc('"', f);
	while (*p) {
		int n = utf8_char(p, (size_t)(end - p));

		if (n < 0) {
			fputs("\\ufffd", f);
			p += -n;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f || (html && strchr("<>&", *p)))
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
		p++;
	}
	fputc('"', f);
}

void jw_key(struct json_writer *w, const char *key)
{
	before_item(w);
	put_string(w->f, key, w->html);
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void jw_string(struct json_writer *w, const char *s)
{
	if (!s) {
		jw_null(w);
		return;
	}
	before_item(w);
	put_string(w->f, s, w->html);
}

void jw_kv_string(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_uint(w, v);
}

void jw_number(struct json_writer *w, double v)
{
	char buf[64];

	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	before_item(w);
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(w->f, "%.0f", v);
		return;
	}
	/* The shortest of %.15g and %.17g that reads back the same value. */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, w->f);
}

void jw_int(struct json_writer *w, long long v)
{
	before_item(w);
	fprintf(w->f, "%lld", v);
}

void jw_uint(struct json_writer *w, uint64_t v)
{
	before_item(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_bool(struct json_writer *w, bool v)
{
	before_item(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct json_writer *w)
{
	before_item(w);
	fputs("null", w->f);
}

void jw_finish(struct json_writer *w)
{
	fputc('\n', w->f);
}
