/* SPDX-License-Identifier: MIT */
/* The profile queries, as the formats of export-*.c see them: the public
 * walks (hwp_profile_foreach_entry, hwp_profile_foreach_stack,
 * hwp_profile_foreach_module, hwp_profile_annotate, hwp_profile_info) and
 * the few names and layouts below, which the queries use too. Nothing of a
 * profile's inside. */
#ifndef HWPROF_REPORT_H
#define HWPROF_REPORT_H

#include "core/core.h"

/* report.c: the call chains as sampled, for formats that keep frames
 * apart (speedscope). @fn gets each distinct chain once, its frames as
 * function numbers, the outermost first (without call chains, each
 * sampled function alone), with its samples and period; a non-zero return
 * stops the walk and is returned. Functions are numbered from 0 in the
 * order first seen, one a (name, source file), so that two static
 * functions of one name stay two: *@funcs gets them (free() it, also
 * after an error), each with the source file and line of its first
 * instruction (NULL and 0 without debug information). */
struct profile_function {
	const char *name;
	const char *file;
	unsigned int line;
};
typedef int (*profile_chain_fn)(const uint32_t *funcs, size_t nr, uint64_t samples,
				uint64_t period, void *ctx);
int profile_foreach_chain(struct hwp_profile *p, profile_chain_fn fn, void *ctx,
			  struct profile_function **funcs, size_t *nr_funcs);

/* report.c: "sym", "rip", "line", "dso" */
const char *sort_name(enum hwp_sort sort);
/* "a0 b1 c2" */
void format_bytes(const uint8_t *b, size_t n, char *buf, size_t size);
/* "file.c:12" (the last path component), or "" */
void format_source(const char *file, unsigned int line, char *buf, size_t size);

#endif
