/* SPDX-License-Identifier: MIT */
/* The OpenMetrics text exposition, which Prometheus scrapes, and the
 * Prometheus text format (0.0.4) that node_exporter's textfile collector
 * and promtool read, which differs in three points: a counter's family is
 * named with its _total, there are no units and no "# EOF" (the caller's
 * to write). Text is UTF-8: an invalid sequence is written as U+FFFD. */
#ifndef HWPROF_UTIL_OPENMETRICS_H
#define HWPROF_UTIL_OPENMETRICS_H

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

/* Add label @key=@value to @l: none when @value is NULL or @l is full. */
void om_label_add(struct om_labels *l, const char *key, const char *value);
/* A label value in double quotes, with backslash, quote and newline escaped. */
void om_label_value(FILE *f, const char *s);
/* A family's TYPE, UNIT (not with @prom) and HELP lines. */
void om_family_begin(FILE *f, const struct om_family *fam, bool prom);
/* One sample of @fam: its name (with _total for a counter), labels, value. */
void om_sample(FILE *f, const struct om_family *fam, const struct om_labels *l, double v);

#endif
