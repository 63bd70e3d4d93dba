/* SPDX-License-Identifier: MIT */
/* The profile queries, as the formats of export-*.c see them: the public
 * walks (hwp_profile_foreach_entry, hwp_profile_foreach_stack,
 * profile_foreach_module, profile_annotate, hwp_profile_info) and
 * the few names and layouts below, which the queries use too. Nothing of a
 * profile's inside. */
#ifndef HWPROF_REPORT_H
#define HWPROF_REPORT_H

#include "core/core.h"
#include "sample/sample.h"

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

/* profile-labels.c: the call chains as sampled, for formats that keep
 * addresses and threads apart (pprof): @fn gets each distinct chain of
 * each thread once, as site numbers (one a distinct module address, below
 * profile_nr_sites()), the sampled one first (without call chains, each
 * sampled site alone), with the summed period of each event of the file
 * there (hwp_profile_info's nr_events of them, in the file's order: the
 * reported event's and, in a file of several, the others', taken in the
 * shape of the reported event's), and the thread's labels; a non-zero
 * return stops the walk and is returned. */
struct profile_labels {
	uint32_t pid, tid;
	const char *comm;	/* the thread's name at the samples, or NULL */
	/* the path of the samples' cgroup (a recording with cgroup ids:
	 * record --all-cgroups), or NULL */
	const char *cgroup;
};
typedef int (*profile_labelled_chain_fn)(const uint32_t *sites, size_t nr,
					 const uint64_t *periods,
					 const struct profile_labels *l, void *ctx);
int profile_foreach_labelled_chain(struct hwp_profile *p, profile_labelled_chain_fn fn,
				   void *ctx);
size_t profile_nr_sites(const struct hwp_profile *p);
size_t profile_nr_modules(const struct hwp_profile *p);

/* One frame of a site, the innermost first: a function DWARF says was
 * inlined there, or, last, the site's own function. */
struct profile_frame {
	/* as call chains name it: an inlined function "NAME (inlined)", as
	 * perf report --inline marks it; the site's own, its symbol or
	 * module+0xaddress */
	const char *name;
	const char *function;	/* the function's name, unmarked */
	/* the source line in the function: the site's, or where it calls
	 * the function of the frame before; NULL and 0 where unknown */
	const char *file;
	unsigned int line;
};

/* What a site is, its strings interned (they live as long as the profile). */
struct profile_site {
	uint32_t module;	/* below profile_nr_modules() */
	const char *module_path;
	uint64_t address;	/* in the module, as objdump shows it */
	const char *function;	/* its symbol, or module+0xaddress */
	bool has_symbol;
	/* the source of the function's first instruction, or NULL and 0 */
	const char *function_file;
	unsigned int function_line;
	/* the site's source line, or NULL and 0 */
	const char *file;
	unsigned int line;
	/* its frames (profile_frame), the innermost first: nr_frames - 1
	 * functions inlined there, then its own; valid until the next call of
	 * profile_site_get() */
	const struct profile_frame *frames;
	size_t nr_frames;
	/* the module's build-id as the recording names it (size 0: none) */
	const struct pd_build_id *build_id;
};
/* Site @site (below profile_nr_sites()), resolved with its source line:
 * 0, or -ENOMEM (with the message). */
int profile_site_get(struct hwp_profile *p, uint32_t site, struct profile_site *out);

/* report.c: what the recording says of itself, where it says it. */
struct profile_recording {
	const char *cmdline, *hostname, *osrelease;	/* or NULL */
	uint64_t duration_ns;	/* from the first sample to the last, or 0 */
	uint64_t sample_period;	/* the fixed period (-c), or 0 for a frequency */
	size_t event;		/* the reported event's number in the file */
};
void profile_recording(const struct hwp_profile *p, struct profile_recording *out);

/* report-formats.c: whether the periods of @event, one of @p's file, are
 * nanoseconds: cpu-clock, task-clock, and an off-CPU event (offcpu.c). */
bool event_in_ns(const struct hwp_profile *p, const char *event);

/* profile.c: the profile of event @idx of @p's file, read again from the
 * file with @p's options (formats that show every event: html). Errors:
 * those of hwp_profile_load(), -EOPNOTSUPP for a profile of a recording
 * in memory, which is read once. */
int profile_open_event(const struct hwp_profile *p, size_t idx, struct hwp_profile **out);

/* report-formats.c: a writer's sort keys (hwp_write_opts' sort_keys, else
 * its sort): @site the key of sites or CPUs (sym, rip, line, dso, cpu), or
 * the last thread key (comm, pid) when there is none; whether comm and pid
 * are keys; @name the keys as given ("comm,sym"). 0, or -EINVAL (with the
 * message). */
struct sort_keys {
	const enum hwp_sort *keys;
	size_t nr;
	enum hwp_sort site;
	bool comm, pid;
	char name[64];
};

int sort_keys_of(const struct hwp_write_opts *o, struct sort_keys *k);
/* report.c: walk @p's entries sorted by @k, as profile_foreach_entry_by(). */
int sort_keys_foreach(struct hwp_profile *p, const struct sort_keys *k, size_t n,
		      hwp_entry_fn fn, void *ctx);
/* report-formats.c: "a0 b1 c2" */
void format_bytes(const uint8_t *b, size_t n, char *buf, size_t size);
/* "file.c:12" (the last path component), or "" */
void format_source(const char *file, unsigned int line, char *buf, size_t size);

/* profile_event_name - the name of event @idx of the file, or NULL past
 * the last. Since: 0.1 */
const char *profile_event_name(const struct hwp_profile *p, size_t idx);

/*
 * profile_foreach_entry_by - hwp_profile_foreach_entry() by several keys
 * @keys, @nr_keys: one key, or HWP_SORT_COMM and/or HWP_SORT_PID with at
 *		    most one of HWP_SORT_SYM and HWP_SORT_DSO, in any order
 *
 * A row for each distinct value of all the keys, hottest first, its
 * share of the profile's period as perf report --sort comm,sym shows it.
 * Rows with a thread key carry no callers. Returns as
 * hwp_profile_foreach_entry(); -EINVAL for keys that do not combine,
 * -EOPNOTSUPP for thread keys of an off-CPU profile. Since: 0.2
 */
int profile_foreach_entry_by(struct hwp_profile *p, const enum hwp_sort *keys,
				 size_t nr_keys, size_t n, hwp_entry_fn fn,
				 void *ctx);

/* profile_foreach_module - walk the modules with samples, most samples
 * first. Since: 0.1 (as hwp_profile_modules) */
int profile_foreach_module(struct hwp_profile *p, hwp_module_fn fn,
			       void *ctx);

/*
 * profile_annotate - walk the instructions of function @symbol, with
 * their samples and source lines
 *
 * @symbol is a function's name, or "NAME@0xADDRESS" with the function's
 * address in its module (as --sort sym reports it). Static functions of
 * one name may be several: a name alone picks the one with the most
 * samples, and each line names the others (nr_namesakes, namesakes).
 * Errors: -ENOENT when no sample landed in a function of that name (the
 * message names the hottest ones) or none of them starts at ADDRESS (the
 * message lists those that do), -EOPNOTSUPP without capstone or for the
 * kernel, whose code hwprof does not read. Since: 0.1
 */
int profile_annotate(struct hwp_profile *p, const char *symbol,
			 hwp_annotate_fn fn, void *ctx);

#endif
