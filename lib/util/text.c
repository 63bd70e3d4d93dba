// SPDX-License-Identifier: MIT
/* Matching names: globs, substrings, edit distance. */
#include "core/core.h"
#include "util/text.h"

#include <ctype.h>
#include <fnmatch.h>
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
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
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
