/* SPDX-License-Identifier: MIT */
/* The OpenMetrics and Prometheus text writer's pieces, shared by the
 * writer of results and regionsets (result-openmetrics.c) and the writer
 * of live counts that hwprof serve answers a scrape with
 * (openmetrics-counts.c): one writer of the formats, not two. */
#ifndef HWPROF_RESULT_OPENMETRICS_H
#define HWPROF_RESULT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct om_family {
	const char *name;	/* without _total */
	const char *type;	/* "counter" or "gauge" */
	const char *unit;	/* NULL: none; else the name ends in _<unit> */
	const char *help;
};

#define OM_MAX_LABELS 5
struct om_labels {
	const char *key[OM_MAX_LABELS];
	const char *value[OM_MAX_LABELS];
	size_t n;
};

/* hwprof_event_running_ratio and hwprof_event_supported, which a result
 * and live counts write alike. */
extern const struct om_family om_event_ratio, om_event_supported;

/* Add a label; a NULL @value adds none. */
void om_label_add(struct om_labels *l, const char *key, const char *value);
/* "# TYPE", "# UNIT" (OpenMetrics) and "# HELP" of @fam; @prom: the
 * Prometheus text format (a counter's family named with its _total). */
void om_family_begin(FILE *f, const struct om_family *fam, bool prom);
/* One sample of @fam: name, labels, value. */
void om_sample(FILE *f, const struct om_family *fam, const struct om_labels *l, double v);

#endif
