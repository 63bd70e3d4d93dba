/* SPDX-License-Identifier: MIT */
#ifndef HWPROF_UTIL_CPULIST_H
#define HWPROF_UTIL_CPULIST_H

#include <stddef.h>

/* Parse "0-3,6,8-9" into an ascending array without duplicates. Returns 0,
 * -EINVAL with *bad_pos set to the offending offset, -ERANGE likewise for a
 * CPU number past CPULIST_MAX, or -ENOMEM. */
#define CPULIST_MAX 65535
int cpulist_parse(const char *list, int **cpus, size_t *nr, size_t *bad_pos);
/* Format an ascending array back into "0-3,6". Returns the length written. */
size_t cpulist_format(const int *cpus, size_t nr, char *buf, size_t size);

#endif
