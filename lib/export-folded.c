// SPDX-License-Identifier: MIT
/* Collapsed stacks for flame graph tools (Brendan Gregg's flamegraph.pl,
 * speedscope, inferno): "outer;inner;leaf SAMPLES", one line a stack. */
#include "profile.h"

static int folded_line(const struct hwp_stack *st, void *arg)
{
	FILE *f = arg;

	for (size_t i = 0; i < st->nr_frames; i++)
		fprintf(f, "%s%s", i ? ";" : "", st->frames[i]);
	fprintf(f, " %llu\n", (unsigned long long)st->samples);
	return 0;
}

int export_folded(struct hwp_profile *p, FILE *f)
{
	return hwp_profile_stacks(p, folded_line, f);
}
