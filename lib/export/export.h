/* SPDX-License-Identifier: MIT */
/* The formats of hwp_profile_write(), one file each (export-*.c), behind
 * export.c's table. Each depends on the profile queries alone (report.h),
 * never on another format or on the dispatcher. */
#ifndef HWPROF_EXPORT_H
#define HWPROF_EXPORT_H

#include "profile/report.h"

/* The lost samples' share, in percent: of all events' samples, as the
 * losses are (a ring drops any of its events' samples, and its LOST record
 * cannot say whose), never of one event's samples against all losses. */
static inline double export_lost_percent(const struct hwp_profile_info *in)
{
	uint64_t all = in->samples + in->other_samples + in->lost;

	return all ? 100.0 * (double)in->lost / (double)all : 0;
}

int export_text(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o);
int export_annotate(struct hwp_profile *p, FILE *f, const char *symbol);
int export_csv(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o);
int export_json(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o);
int export_folded(struct hwp_profile *p, FILE *f);
int export_speedscope(struct hwp_profile *p, FILE *f);
int export_pprof(struct hwp_profile *p, FILE *f);
int export_html(struct hwp_profile *p, FILE *f);

/* flamegraph-page.c, generated from flamegraph.html, .css and .js
 * (tools/embed-page.py): the page before its data and after it, as lines
 * that end in NULL. */
extern const char *const flamegraph_page_head[];
extern const char *const flamegraph_page_tail[];

#endif
