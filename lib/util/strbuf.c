// SPDX-License-Identifier: MIT
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;
	char *p;

	if (sb->failed)
		return false;
	if (extra >= (size_t)-1 / 2 - sb->len)
		goto fail;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return true;
	if (want < 2 * sb->alloc)
		want = 2 * sb->alloc;
	if (want < 64)
		want = 64;
	p = realloc(sb->buf, want);
	if (!p)
		goto fail;
	sb->buf = p;
	sb->alloc = want;
	return true;
fail:
	sb->failed = true;
	return false;
}

void strbuf_add(struct strbuf *sb, const char *data, size_t len)
{
	if (!strbuf_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (!strbuf_grow(sb, 64))
		return;
	va_copy(cp, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if ((size_t)n >= sb->alloc - sb->len) {
		if (!strbuf_grow(sb, (size_t)n))
			return;
		vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	sb->failed = false;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	*sb = (struct strbuf)STRBUF_INIT;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->failed ? NULL : sb->buf;

	if (!s && !sb->failed)
		s = calloc(1, 1);
	if (sb->failed)
		free(sb->buf);
	*sb = (struct strbuf)STRBUF_INIT;
	return s;
}

char **strv_dup(char *const *v)
{
	size_t n = 0;
	char **copy;

	while (v[n])
		n++;
	copy = calloc(n + 1, sizeof(*copy));
	if (!copy)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!(copy[i] = strdup(v[i]))) {
			strv_free(copy);
			return NULL;
		}
	return copy;
}

void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}
