/* SPDX-License-Identifier: MIT */
/* opts and info structs across sizes (error.c): what a caller built against
 * another version of the header passes. */
#ifndef HWPROF_CORE_OPTS_H
#define HWPROF_CORE_OPTS_H

#include <hwprof/hwprof.h>

#include <stddef.h>

/*
 * Copy a caller's opts struct of any size into ours, zero-filling. The bytes
 * past our last field (newer fields, or padding before them) must be zero:
 * a caller built against a newer header may have set them, and we cannot
 * honour what we do not know. OPTS_COPY names the last field from the list
 * below; a field added to an opts struct moves its line here too (test-util
 * checks that the named field is the last).
 */
int opts_copy(void *dst, size_t dst_sz, size_t known_end, const void *src,
	      const char *what);
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#define OPTS_COPY(dst, src, TYPE) \
	opts_copy(dst, sizeof(*(dst)), offsetofend(struct TYPE, TYPE##__last_field), \
		  src, #TYPE)
#define hwp_evlist_opts__last_field no_merge
#define hwp_session_opts__last_field cgroup
#define hwp_workload_opts__last_field spawn_at_start
#define hwp_stats_test_opts__last_field confidence
#define hwp_write_opts__last_field nr_sort_keys
#define hwp_compare_opts__last_field nr_fail_on
#define hwp_region_opts__last_field no_rdpmc
#define hwp_record_opts__last_field all_cgroups
#define hwp_profile_opts__last_field threads
#define hwp_profile_diff_opts__last_field nr_map_modules
/* Fill an info struct of the caller's size from ours. */
int info_fill(void *dst, const void *src, size_t src_sz);

#endif
