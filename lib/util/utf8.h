/* SPDX-License-Identifier: MIT */
/* UTF-8 as RFC 3629 has it: no overlong forms, no surrogates, nothing past
 * U+10FFFF. For the JSON reader, which refuses anything else, and the
 * writer, which writes U+FFFD for it. */
#ifndef HWPROF_UTIL_UTF8_H
#define HWPROF_UTIL_UTF8_H

#include <stddef.h>

/* The character at @s, of @avail bytes at most: its length (1 to 4), or,
 * negated, the length of the invalid bytes there that one U+FFFD stands
 * for (the "maximal subpart" of Unicode's chapter 3: at least 1). The
 * bytes allowed after each lead byte are narrowed as the standard's table
 * says, so that an invalid sequence is found at its first wrong byte. */
static inline int utf8_char(const unsigned char *s, size_t avail)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2 || s[0] > 0xf4)
		return -1;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (s[0] == 0xe0)
		lo = 0xa0;	/* overlong below U+0800 */
	else if (s[0] == 0xed)
		hi = 0x9f;	/* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90;	/* overlong below U+10000 */
	else if (s[0] == 0xf4)
		hi = 0x8f;	/* past U+10FFFF */
	for (int i = 1; i < n; i++) {
		if ((size_t)i >= avail || s[i] < lo || s[i] > hi)
			return -i;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

#endif
