// SPDX-License-Identifier: MIT
/* hwprof record --rotate: the finished files kept, the oldest removed past
 * --keep; called for perf.data files by the rotation (record-rotate.c) and
 * for pprof ones by the worker that converts them (record-rotate-pprof.c). */
#include "record-rotate.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rotate_keep(struct rotate *r, char *path, long keep)
{
	char **p = realloc(r->done, (r->nr_done + 1) * sizeof(*p));

	if (!p) {
		free(path);
		return;
	}
	r->done = p;
	r->done[r->nr_done++] = path;
	while (keep && r->nr_done > (size_t)keep) {
		if (unlink(r->done[0]) && errno != ENOENT)
			cli_warn("record", "cannot remove %s: %s", r->done[0],
				 strerror(errno));
		free(r->done[0]);
		memmove(r->done, r->done + 1, --r->nr_done * sizeof(*r->done));
	}
}
