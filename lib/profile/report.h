/* SPDX-License-Identifier: MIT */
/* The profile queries, as the formats of export-*.c see them: the public
 * walks (hwp_profile_foreach_entry, hwp_profile_foreach_stack,
 * hwp_profile_foreach_module, hwp_profile_annotate, hwp_profile_info) and
 * the few names and layouts below, which the queries use too. Nothing of a
 * profile's inside. */
#ifndef HWPROF_REPORT_H
#define HWPROF_REPORT_H

#include "core/core.h"

/* report.c: "sym", "rip", "line", "dso" */
const char *sort_name(enum hwp_sort sort);
/* "a0 b1 c2" */
void format_bytes(const uint8_t *b, size_t n, char *buf, size_t size);
/* "file.c:12" (the last path component), or "" */
void format_source(const char *file, unsigned int line, char *buf, size_t size);

#endif
