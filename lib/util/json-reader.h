/* SPDX-License-Identifier: MIT */
/*
 * A small, strict JSON reader (RFC 8259) for files that may come from
 * anywhere: every read is bounds-checked, nesting, number length and the
 * count of values are capped, and nothing is allocated from a size the
 * input claims, only from what was actually parsed. Strict: no comments, no
 * trailing commas, no duplicate keys, valid UTF-8 only, no \u0000 (keys and
 * strings are C strings), nothing after the value.
 *
 * Files of many numbers (a result of a million runs) can have their arrays
 * of numbers packed, 8 bytes a number rather than a value of ~32: read
 * every array with json_array_len() and json_item() then.
 */
#ifndef HWPROF_UTIL_JSON_READER_H
#define HWPROF_UTIL_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_BOOL,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
	JSON_NUMBERS,	/* an array of numbers and nulls, packed (json_limits) */
};

struct json_member;

struct json_value {
	enum json_type type;
	unsigned int line;	/* where the value starts, for messages */
	union {
		bool boolean;
		double number;
		char *string;	/* NUL-terminated, valid UTF-8 */
		struct {
			struct json_value *items;
			size_t n;
		} array;
		struct {
			struct json_member *members;
			size_t n;
		} object;
		struct {
			double *v;	/* NAN for null */
			size_t n;
		} numbers;
	} u;
};

struct json_member {
	char *key;
	struct json_value value;
};

struct json_limits {
	size_t max_depth;	/* 0: 64 */
	size_t max_values;	/* 0: 4M (each value costs ~32 bytes); packed
				 * numbers do not count */
	bool pack_numbers;	/* a non-empty array of only numbers and nulls
				 * is a JSON_NUMBERS */
};

struct json_error {
	unsigned int line, column;
	bool truncated;		/* the input ended inside a value */
	bool too_deep;		/* -E2BIG for nesting past max_depth, not size */
	char msg[160];
};

/*
 * Parse @len bytes (no NUL needed; an embedded NUL is an error). Returns 0
 * and *out (free it with json_free()), -EINVAL with @err filled for bad
 * JSON, -E2BIG for input past @lim, or -ENOMEM.
 */
int json_parse(const char *buf, size_t len, const struct json_limits *lim,
	       struct json_value **out, struct json_error *err);
void json_free(struct json_value *v);

/* The member @key of an object, or NULL (not an object, or no such key). */
const struct json_value *json_get(const struct json_value *obj, const char *key);
/* The type's name for messages: "an object", "a number"... (JSON_NUMBERS:
 * "an array"). */
const char *json_type_name(enum json_type t);
/* Whether @v is an array, packed or not. */
bool json_is_array(const struct json_value *v);
/* The number of items of array @v (0 for another value). */
size_t json_array_len(const struct json_value *v);
/* Item @i of array @v (i < json_array_len()): a packed one is made in
 * @tmp, with the line of the array. */
const struct json_value *json_item(const struct json_value *v, size_t i,
				   struct json_value *tmp);

#endif
