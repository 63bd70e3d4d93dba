/* SPDX-License-Identifier: MIT */
/* A small streaming JSON writer: NAN and infinities become null. */
#ifndef HWPROF_UTIL_JSON_WRITER_H
#define HWPROF_UTIL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	int depth;
	bool pretty;
	bool first[JW_MAX_DEPTH];
	bool inline_[JW_MAX_DEPTH];	/* this container on one line */
	bool after_key;
	/* '<', '>' and '&' as \u003c, \u003e, \u0026, so that the text
	 * can sit inside an HTML <script> element: no "</script>" or "<!--"
	 * in it can end the element. Set it after jw_init(). */
	bool html;
};

void jw_init(struct json_writer *w, FILE *f, bool pretty);
void jw_object_begin(struct json_writer *w);
void jw_object_end(struct json_writer *w);
/* @one_line: keep the array on one line (for arrays of numbers). */
void jw_array_begin(struct json_writer *w, bool one_line);
void jw_array_end(struct json_writer *w);
void jw_key(struct json_writer *w, const char *key);
void jw_string(struct json_writer *w, const char *s);	/* NULL writes null */
void jw_number(struct json_writer *w, double v);
void jw_int(struct json_writer *w, long long v);
/* Counts of 2^63 and more, which jw_int() would write negative. */
void jw_uint(struct json_writer *w, uint64_t v);
void jw_bool(struct json_writer *w, bool v);
/* A key and its value. */
void jw_kv_string(struct json_writer *w, const char *key, const char *s);
void jw_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void jw_null(struct json_writer *w);
/* End the document with a newline. */
void jw_finish(struct json_writer *w);

#endif
