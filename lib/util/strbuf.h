/* SPDX-License-Identifier: MIT */
/* A growable string, after git's strbuf. Allocation failure is sticky:
 * later additions are dropped and strbuf_failed() says so. */
#ifndef HWPROF_UTIL_STRBUF_H
#define HWPROF_UTIL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
	bool failed;
};

#define STRBUF_INIT { 0 }

void strbuf_add(struct strbuf *sb, const char *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf_reset(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);
/* The string; "" for an empty buffer. */
const char *strbuf_str(const struct strbuf *sb);
/* Hand the string to the caller (NULL if allocation failed); resets @sb. */
char *strbuf_detach(struct strbuf *sb);
/* A copy of a NULL-terminated string array, or NULL when out of memory. */
char **strv_dup(char *const *v);
/* Free such a copy; NULL is fine. */
void strv_free(char **v);

static inline bool strbuf_failed(const struct strbuf *sb)
{
	return sb->failed;
}

#endif
