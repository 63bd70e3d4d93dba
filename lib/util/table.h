/* SPDX-License-Identifier: MIT */
/* A table of strings for text output: the first column left-aligned, the
 * others right, each as wide as its widest cell. */
#ifndef HWPROF_UTIL_TABLE_H
#define HWPROF_UTIL_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct table {
	size_t nr_cols, nr_rows;
	char **cells;		/* nr_rows * nr_cols, owned */
	bool failed;		/* a cell could not be added (out of memory) */
};

/* Add a row of nr_cols strings (NULL: empty), copied. */
void table_add(struct table *t, const char *const *row);
void table_print(const struct table *t, FILE *f);
void table_release(struct table *t);

#endif
