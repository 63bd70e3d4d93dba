/* SPDX-License-Identifier: MIT */
/* Text: matching names, for listing and suggestions; escaping it. */
#ifndef HWPROF_UTIL_TEXT_H
#define HWPROF_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Glob or substring match, case-insensitive. */
bool pattern_match(const char *pattern, const char *name);
/* Damerau-Levenshtein distance, case-insensitive, capped at @cap + 1. */
size_t edit_distance(const char *a, const char *b, size_t cap);

/*
 * Text for a terminal, with its control characters escaped: argv, file
 * names and perf.data strings reach text output and messages, and an ESC
 * there would drive the user's terminal. C0 and DEL as \xNN, C1 (U+0080 to
 * U+009F, which terminals may obey too) as \u00NN.
 *
 * escape_put() is for a stream: newlines and tabs, which text uses, pass as
 * they are, and the state carries a UTF-8 lead byte across calls, for a
 * stream written in pieces; escape_end() writes what it holds.
 */
struct escaper {
	bool lead;	/* a 0xc2 held back */
};
void escape_put(struct escaper *e, FILE *f, const char *s, size_t n);
void escape_end(struct escaper *e, FILE *f);

struct strbuf;
/* For a name in a column: every control character escaped, newlines too;
 * tabs too unless @tabs_ok. Returns whether any was. */
bool strbuf_add_escaped(struct strbuf *sb, const char *s, bool tabs_ok);

#endif
