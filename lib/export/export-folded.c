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

struct folded_ctx {
	FILE *f;
	bool off_cpu;		/* the weight is the time off the CPU, ns */
};

static int folded_line(const struct hwp_stack *st, void *arg)
{
	const struct folded_ctx *c = arg;
	FILE *f = c->f;

	for (size_t i = 0; i < st->nr_frames; i++) {
		if (i)
			fputc(';', f);
		put_frame(f, st->frames[i]);
	}
	fprintf(f, " %llu\n",
		(unsigned long long)(c->off_cpu ? st->period : st->samples));
	return 0;
}

int export_folded(struct hwp_profile *p, FILE *f)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct folded_ctx c = { .f = f };
	int err = hwp_profile_info(p, &in);

	c.off_cpu = !err && in.off_cpu;
	return err ? err : hwp_profile_foreach_stack(p, folded_line, &c);
}
