// SPDX-License-Identifier: MIT
/* Text: globs, substrings, edit distance; control characters escaped. */
#include "util/strbuf.h"
#include "util/text.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

bool pattern_match(const char *pattern, const char *name)
{
	if (!pattern || !*pattern)
		return true;
	if (strpbrk(pattern, "*?["))
		return fnmatch(pattern, name, FNM_CASEFOLD) == 0;
	return strcasestr(name, pattern) != NULL;
}

size_t edit_distance(const char *a, const char *b, size_t cap)
{
	/* Three rows of Damerau-Levenshtein (optimal string alignment). */
	enum { MAXLEN = 128 };
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][MAXLEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > MAXLEN || lb > MAXLEN)
		return cap + 1;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t row_min;

		cur[0] = i;
		row_min = cur[0];
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			size_t v = prev[j] + 1;

			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < row_min)
				row_min = v;
		}
		if (row_min > cap)
			return cap + 1;
		{
			size_t *t = prev2;

			prev2 = prev;
			prev = cur;
			cur = t;
		}
	}
	return prev[lb] > cap ? cap + 1 : prev[lb];
}

/* How many bytes at @p make a control character: 1 for C0 and DEL, 2 for
 * C1 in UTF-8 (0xc2 0x80-0x9f); 0 for anything else. */
static size_t control_len(const unsigned char *p, size_t n)
{
	if (p[0] < 0x20 || p[0] == 0x7f)
		return 1;
	return p[0] == 0xc2 && n > 1 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

/* The escape of a control character of @len bytes at @p. */
static void escape_of(const unsigned char *p, size_t len, char buf[8])
{
	snprintf(buf, 8, len == 2 ? "\\u%04x" : "\\x%02x", len == 2 ? p[1] : p[0]);
}

void escape_put(struct escaper *e, FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char pair[2] = { 0xc2, 0 };
	char buf[8];

	if (e->lead && n) {
		e->lead = false;
		pair[1] = p[0];
		if (control_len(pair, 2) == 2) {
			escape_of(pair, 2, buf);
			fputs(buf, f);
			p++, n--;
		} else {
			fputc(0xc2, f);
		}
	}
	/* Plain bytes go out a run at a time: a report is ~1,000 of them. */
	size_t run = 0;

	for (size_t i = 0; i < n; i++) {
		size_t len = control_len(p + i, n - i);

		if (p[i] == 0xc2 && i + 1 == n) {
			fwrite(p + run, 1, i - run, f);
			run = n;
			e->lead = true;
		} else if (len && p[i] != '\n' && p[i] != '\t') {
			fwrite(p + run, 1, i - run, f);
			escape_of(p + i, len, buf);
			fputs(buf, f);
			i += len - 1;
			run = i + 1;
		}
	}
	if (run < n)
		fwrite(p + run, 1, n - run, f);
}

void escape_end(struct escaper *e, FILE *f)
{
	if (e->lead)
		fputc(0xc2, f);
	e->lead = false;
}

bool strbuf_add_escaped(struct strbuf *sb, const char *s, bool tabs_ok)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	bool any = false;
	char buf[8];

	for (size_t i = 0; i < n; i++) {
		size_t len = control_len(p + i, n - i);

		if (!len || (tabs_ok && p[i] == '\t')) {
			strbuf_addch(sb, (char)p[i]);
			continue;
		}
		escape_of(p + i, len, buf);
		strbuf_adds(sb, buf);
		i += len - 1;
		any = true;
	}
	return any;
}
