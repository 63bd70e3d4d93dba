/* SPDX-License-Identifier: MIT */
/* Matching names, for listing and suggestions. */
#ifndef HWPROF_UTIL_TEXT_H
#define HWPROF_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Glob or substring match, case-insensitive. */
bool pattern_match(const char *pattern, const char *name);
/* Damerau-Levenshtein distance, case-insensitive, capped at @cap + 1. */
size_t edit_distance(const char *a, const char *b, size_t cap);

#endif
