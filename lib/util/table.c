// SPDX-License-Identifier: MIT
/* A text table whose columns are as wide as their widest cell. */
#include "util/table.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* Columns past this many take the first one's width. */
#define TABLE_MAX_COLS 16

void table_add(struct table *t, const char *const *row)
{
	char **cells = realloc(t->cells, (t->nr_rows + 1) * t->nr_cols * sizeof(*cells));

	if (!cells) {
		t->failed = true;
		return;
	}
	t->cells = cells;
	for (size_t k = 0; k < t->nr_cols; k++) {
		cells[t->nr_rows * t->nr_cols + k] = strdup(row[k] ? row[k] : "");
		t->failed |= !cells[t->nr_rows * t->nr_cols + k];
	}
	t->nr_rows++;
}

void table_print(const struct table *t, FILE *f)
{
	size_t width[TABLE_MAX_COLS] = { 0 };

	for (size_t r = 0; r < t->nr_rows; r++)
		for (size_t k = 0; k < t->nr_cols && k < TABLE_MAX_COLS; k++) {
			const char *s = t->cells[r * t->nr_cols + k];
			size_t len = s ? strlen(s) : 0;

			width[k] = len > width[k] ? len : width[k];
		}
	for (size_t r = 0; r < t->nr_rows; r++) {
		struct strbuf line = STRBUF_INIT;

		for (size_t k = 0; k < t->nr_cols; k++) {
			const char *s = t->cells[r * t->nr_cols + k];
			int w = (int)width[k < TABLE_MAX_COLS ? k : 0];

			strbuf_addf(&line, k ? "  %*s" : " %-*s", w, s ? s : "");
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		fprintf(f, "%s\n", strbuf_str(&line));
		strbuf_release(&line);
	}
}

void table_release(struct table *t)
{
	for (size_t i = 0; i < t->nr_rows * t->nr_cols; i++)
		free(t->cells[i]);
	free(t->cells);
}
