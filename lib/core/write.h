/* SPDX-License-Identifier: MIT */
/* write.c: the one dispatcher behind every hwp_*_write(). */
#ifndef HWPROF_CORE_WRITE_H
#define HWPROF_CORE_WRITE_H

#include <hwprof/hwprof.h>

#include <stdio.h>

/* A writer is a
 * table of its formats; write_dispatch() checks the arguments, copies the
 * opts, calls the format's function and checks the stream. */
#define NR_FORMATS (HWP_FORMAT_HTML + 1)
/* @obj: the object written; @opts: the writer's opts type, copied. */
typedef int (*write_fn)(const void *obj, FILE *f, const void *opts);
struct writer {
	const char *fn;		/* the public function, for messages */
	const char *what;	/* "the sweep": what a failed write names */
	const char *subject;	/* "a sweep is": what a refused format names */
	/* The options as a whole, before any format is looked at; may be NULL. */
	int (*check)(const void *opts);
	/* NULL: a format this object is not written in (-EOPNOTSUPP). */
	write_fn format[NR_FORMATS];
};
int write_dispatch(const struct writer *w, const void *obj, FILE *f, const void *opts);

#endif
