/* SPDX-License-Identifier: MIT */
/* hwprof record --rotate SECONDS --output-dir DIR --keep N [--format pprof]:
 * a file an interval, named by host, time and number, the oldest removed
 * past N; with pprof, each finished perf.data becomes a labelled .pb.gz. */
#ifndef HWPROF_CLI_RECORD_ROTATE_H
#define HWPROF_CLI_RECORD_ROTATE_H

#include "cli.h"

#include <pthread.h>

/* --format pprof: the finished perf.data files, converted one after the
 * other by a thread of their own (record-rotate-pprof.c), so that the
 * rings are read meanwhile. Allocated: a thread left behind by a second
 * Ctrl-C keeps it until the process exits. */
struct rotate_worker {
	pthread_t thread;
	pthread_mutex_t lock;
	struct rotate *r;	/* read under the lock, until abandoned */
	pthread_cond_t more;
	char **queue;		/* perf.data paths, oldest first */
	size_t nr_queue;
	char *current;		/* the one being converted (the thread's), or NULL */
	int wake[2];		/* a pipe the thread writes to as it ends */
	bool closing;
	bool abandoned;		/* a second stop: convert nothing more */
	/* The thread's last look under the lock: once abandoned before it,
	 * the thread frees the worker; else the main thread joins and frees. */
	bool ended;
};

struct rotate {
	double every;		/* seconds; 0: one file, no rotation */
	const char *dir;
	long keep;		/* finished files kept; 0: all */
	bool pprof;		/* --format pprof: finished files as pprof */
	bool format_set;	/* --format given */
	double next;		/* cli_now() of the next rotation */
	unsigned int seq;
	unsigned int nr_files;	/* files begun, the one being written too */
	char *path;		/* the file being written (malloc'ed) */
	char **done;		/* the finished files kept, oldest first */
	size_t nr_done;
	struct rotate_worker *w;	/* --format pprof's thread, or NULL */
};

/* --rotate SECONDS, --keep N: 0 or CLI_EXIT_USAGE, said. */
int rotate_parse_every(struct rotate *r, const char *arg);
int rotate_parse_keep(struct rotate *r, const char *arg);
/* --format perf.data|pprof: 0 or CLI_EXIT_USAGE, said. */
int rotate_parse_format(struct rotate *r, const char *arg);
/* The options together, and not with -o (@output_set). */
int rotate_check(const struct rotate *r, bool output_set);
/* The first file's path, in r->path: 0 or an exit status, said. */
int rotate_begin(struct rotate *r);
/* When the next rotation is due (INFINITY: never). */
double rotate_next(const struct rotate *r);
/* Rotate @rec when due: 0, or a negative errno, the message in hwp_errmsg(). */
int rotate_maybe(struct rotate *r, struct hwp_record *rec);
/* After hwp_record_finish(): the last file counts, the oldest go. */
void rotate_end(struct rotate *r);
/* After rotate_end(): the last finished file's path, or NULL. Borrowed. */
const char *rotate_last(const struct rotate *r);
void rotate_release(struct rotate *r);
/* The summary's "N files in DIR (K kept), the last ", before the last
 * file's path; nothing without --rotate. */
void rotate_print_files(const struct rotate *r, FILE *f);
/* Keep @path (taken) among the finished files; remove the oldest past @keep. */
void rotate_keep(struct rotate *r, char *path, long keep);

/* record-rotate-pprof.c: start the thread (0, or CLI_EXIT_FAILURE, said);
 * hand it a finished perf.data (taken), which it converts and passes to
 * rotate_keep() (out of memory: kept as perf.data, said); let it finish
 * what it has and stop (nothing when it does not run). At the end of a
 * recording, pprof_worker_stop() waits for the conversions until a second
 * stop request (Ctrl-C): then the files not converted are kept as
 * perf.data, said and counted among the finished ones, and the thread is
 * left to the process's exit. */
int pprof_worker_start(struct rotate *r);
void pprof_worker_push(struct rotate *r, char *path);
void pprof_worker_stop(struct rotate *r);

#endif
