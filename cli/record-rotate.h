/* SPDX-License-Identifier: MIT */
/* hwprof record --rotate SECONDS --output-dir DIR --keep N: a file an
 * interval, named by host, time and number, the oldest removed past N. */
#ifndef HWPROF_CLI_RECORD_ROTATE_H
#define HWPROF_CLI_RECORD_ROTATE_H

#include "cli.h"

struct rotate {
	double every;		/* seconds; 0: one file, no rotation */
	const char *dir;
	long keep;		/* finished files kept; 0: all */
	double next;		/* cli_now() of the next rotation */
	unsigned int seq;
	char *path;		/* the file being written (malloc'ed) */
	char **done;		/* the finished files kept, oldest first */
	size_t nr_done;
};

/* --rotate SECONDS, --keep N: 0 or CLI_EXIT_USAGE, said. */
int rotate_parse_every(struct rotate *r, const char *arg);
int rotate_parse_keep(struct rotate *r, const char *arg);
/* The three options together, and not with -o (@output_set). */
int rotate_check(const struct rotate *r, bool output_set);
/* The first file's path, in r->path: 0 or an exit status, said. */
int rotate_begin(struct rotate *r);
/* When the next rotation is due (INFINITY: never). */
double rotate_next(const struct rotate *r);
/* Rotate @rec when due: 0, or a negative errno, the message in hwp_errmsg(). */
int rotate_maybe(struct rotate *r, struct hwp_record *rec);
/* After hwp_record_finish(): the last file counts, the oldest go. */
void rotate_end(struct rotate *r);
void rotate_release(struct rotate *r);

#endif
