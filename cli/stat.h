/* SPDX-License-Identifier: MIT */
/* What the files of hwprof stat share: cmd-stat.c (options, runs),
 * stat-sweep.c (--sweep) and stat-show.c (progress line, histogram). */
#ifndef HWPROF_CLI_STAT_H
#define HWPROF_CLI_STAT_H

#include "target.h"

#include <signal.h>
#include <sys/types.h>

struct stat_config {
	struct cli_list events;
	const char **metrics;
	size_t nr_metrics;
	long repeat;
	long warmup;		/* runs before the counted ones, discarded */
	long interval_ms;
	double skip_first;	/* seconds of each run not counted; 0: none */
	const char *sep;
	bool json;		/* --json, or --format json */
	enum hwp_format format;	/* --format, or what --json or -x imply */
	bool format_given;
	const char *output;
	struct cli_target target;	/* -p, -a, -C, --pin and the command */
	bool no_big_num;
	bool all_user;
	bool all_kernel;
	bool no_inherit;
	const char *histogram;	/* the event or metric to draw */
	const char *sweep;	/* NAME=v1,v2,... as given */
	bool regions;		/* show the regions the program writes */
	bool strict;		/* nothing countable: fail, rather than run uncounted */
	enum hwp_aggr aggr;	/* -A, --per-core... --per-thread */
	const char *cgroup;	/* -G */
	bool help;		/* --help: print it, and nothing else */
};

/* The progress line on a terminal's stderr, during repeated runs. */
struct progress {
	bool on;		/* stderr is a terminal and there is more than one run */
	double t_start;		/* when run 0 of the current series started */
};

struct stat_ctx {
	struct stat_config *cfg;
	struct hwp_evlist *evl;
	struct hwp_metric **metrics;
	struct hwp_result *result;	/* the measurement runs are added to */
	char **run_argv;	/* the command as run now: --sweep substitutes a value */
	struct hwp_ofile *out;
	struct hwp_write_opts wopts;
	FILE *stream;		/* where the report goes: -o's file, or stderr */
	bool interval_header_done;
	bool warned_uncounted;	/* said once that nothing could be counted */
	bool wrote;		/* something is in the stream */
	bool write_failed;	/* a write failed and said so: drop the output */
	struct progress progress;
	char *regions_dir;	/* --regions: a directory of ours, and the */
	char *regions_file;	/* file the program writes its regions to */
	bool regions_warned;	/* "the command wrote no regions" was said */
};

/* cmd-stat.c */
/* A result for @argv with the -M metrics, the command and the target. */
int stat_new_result(struct stat_ctx *sc, char **argv, struct hwp_result **out);
/* The warm-up runs, then the counted ones into sc->result. Returns 0 or,
 * after printing why, the exit status of a fatal error. *code gets the
 * command's last exit status. @label names the sweep value, or is NULL. */
int stat_measure(struct stat_ctx *sc, const char *label, int *code);
/* Whether Ctrl-C or SIGTERM asked to stop. */
bool stat_stopped(void);

/* stat-sweep.c */
/* Check --sweep against the command: a usage error is printed, and
 * returned as CLI_EXIT_USAGE. */
int sweep_check(const struct stat_config *c);
/* Measure every value and write the sweep; the exit status. */
int sweep_run(struct stat_ctx *sc, int *code);

/* stat-regions.c */
int regions_prepare(struct stat_ctx *sc);
/* After a run: attach the regions it wrote (when @keep), then remove them. */
void regions_collect(struct stat_ctx *sc, bool keep);
void regions_cleanup(struct stat_ctx *sc);

/* stat-show.c */
void progress_init(struct progress *p, const struct stat_config *c);
/* The line of run @i of @n: cli_progress_clear() or the next message erases it. */
void progress_show(struct progress *p, const char *label, bool warmup, long i, long n);
/* Whether --histogram names an event of the list or a metric; prints why not. */
int histogram_check(const struct stat_ctx *sc);
/* Draw the runs of --histogram's row of @r on @f. */
int histogram_print(const struct hwp_result *r, const char *name, FILE *f);

#endif
