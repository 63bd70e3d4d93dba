// SPDX-License-Identifier: MIT
/* Collapsed stacks for flame graph tools (Brendan Gregg's flamegraph.pl,
 * speedscope, inferno): "outer;inner;leaf SAMPLES", one line a stack. */
#include "export/export.h"

/* A frame's name comes from the file and may hold any byte but NUL: a
 * ';' would split it in two frames, a newline the line in two stacks.
 * Those and the other control characters are written as '?'. */
static void put_frame(FILE *f, const char *name)
{
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		fputc(*c == ';' || *c < 0x20 || *c == 0x7f ? '?' : *c, f);
}

static int folded_line(const struct hwp_stack *st, void *arg)
{
	FILE *f = arg;

	for (size_t i = 0; i < st->nr_frames; i++) {
		if (i)
			fputc(';', f);
		put_frame(f, st->frames[i]);
	}
	fprintf(f, " %llu\n", (unsigned long long)st->samples);
	return 0;
}

int export_folded(struct hwp_profile *p, FILE *f)
{
	return hwp_profile_foreach_stack(p, folded_line, f);
}
