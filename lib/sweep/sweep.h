/* SPDX-License-Identifier: MIT */
/* Private to sweeps: results over a parameter's values (sweep.c), read
 * back by sweep-read.c; compared by compare/. */
#ifndef HWPROF_SWEEP_H
#define HWPROF_SWEEP_H

#include <hwprof/hwprof.h>

#include <stddef.h>

struct hwp_sweep {
	char *param;		/* NULL: a plain result read as a sweep of one */
	char **argv;		/* the command with {PARAM}, or NULL */
	char **values;		/* nr of them; values[0] NULL for a plain result */
	struct hwp_result **results;
	size_t nr;
};

/* sweep.c: a sweep without parameter, to hold one plain result. */
int sweep_alloc(const char *param, struct hwp_sweep **out);
int sweep_push(struct hwp_sweep *sw, const char *value, struct hwp_result *r);

/* A sweep (or a plain result as a sweep of one) from @len bytes of JSON,
 * as hwp_sweep_load() reads a file; @source names it in messages. */
int sweep_parse(const char *buf, size_t len, const char *source,
		    struct hwp_sweep **out);

#endif
