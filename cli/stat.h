/* SPDX-License-Identifier: MIT */
/* What the files of hwprof stat share. Their calls go one way, down the
 * order of the sections below: cmd-stat.c (the command: its option table,
 * the report) calls stat-options.c (the options), stat-ab.c (variants) and
 * stat-sweep.c (--sweep); they call stat-run.c (the runs), which calls
 * stat-failed.c (failed runs); under them all, the files of one part each:
 * stat-spec.c (NAME=V1,V2...), stat-score.c, stat-regions.c,
 * stat-metrics.c and stat-show.c (progress line, histogram, intervals). */
#ifndef HWPROF_CLI_STAT_H
#define HWPROF_CLI_STAT_H

#include "target.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The keys of stat's options without a letter (cmd-stat.c's table). */
enum {
	/* --per-core, --per-die...: OPT_PER + their HWP_AGGR_* */
	OPT_PER = CLI_OPT_LONG,
	OPT_NR_PER = 16,
	OPT_ALL_USER = OPT_PER + OPT_NR_PER, OPT_ALL_KERNEL, OPT_PIN, OPT_JSON,
	OPT_FORMAT, OPT_NO_BIG_NUM, OPT_WARMUP, OPT_SWEEP, OPT_HISTOGRAM, OPT_REGIONS,
	OPT_SKIP_FIRST, OPT_STRICT, OPT_KEEP_GOING, OPT_SCORE, OPT_SCORE_FROM,
	OPT_QUIET, OPT_EXPLAIN, OPT_PER_RUN, OPT_VARIANT, OPT_ORDER, OPT_SEED,
	OPT_SAVE, OPT_ALPHA, OPT_TOPDOWN, OPT_TD_LEVEL, OPT_NO_MERGE,
};

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
	const char *format_given;	/* --format's name, or NULL */
	const char *output;
	struct cli_target target;	/* -p, -a, -C, --pin and the command */
	bool no_big_num;
	bool all_user;
	bool all_kernel;
	bool no_merge;		/* a row an instance of an uncore PMU */
	bool no_inherit;
	const char *histogram;	/* the event or metric to draw */
	const char *sweep;	/* NAME=v1,v2,... as given */
	bool regions;		/* show the regions the program writes */
	bool strict;		/* nothing countable: fail, rather than run uncounted */
	bool keep_going;	/* -r goes on after a failed run (not kept) */
	const char **scores;	/* --score NAME=REGEX, as given */
	size_t nr_scores;
	const char *score_from;	/* --score-from: "stdout", "stderr" or a file */
	bool quiet;		/* the command's scanned output is not shown */
	bool explain;		/* rank the rows by how they follow the score */
	bool per_run;		/* --per-run: one line a run */
	/* Variants run in turn (stat-ab.c): -- A ::: B, or --variant */
	char ***variants;	/* NULL-terminated commands; NULL: none */
	size_t nr_variants;
	char **variant_labels;	/* --variant's "NAME=V"; NULL: A, B... */
	bool owns_variants;	/* the commands are ours (--variant's copies) */
	const char *variant;	/* --variant NAME=V1,V2,... as given */
	const char *order;	/* --order, --seed, --save DIR, --alpha */
	const char *seed;
	const char *save;
	double alpha;
	enum hwp_aggr aggr;	/* -A, --per-core... --per-thread */
	const char *cgroup;	/* -G */
	bool help;		/* --help: print it, and nothing else */
};

/* The progress line on a terminal's stderr, during repeated runs. */
struct progress {
	bool on;		/* stderr is a terminal and there is more than one run */
	double t_start;		/* when run 0 of the current series started */
};

/* The runs of one command that failed: killed by a signal, or an exit
 * status other than its first run's. They are not kept. */
struct run_check {
	bool seen;		/* the first run's status is known */
	int first;		/* its exit status... */
	char first_name[160];	/* ...and which run it was */
	/* The first status is not 0, and no run has had it again yet: a later
	 * run that exits 0 makes the first the failed one. */
	bool unconfirmed;
	bool first_kept;	/* that run is the result's only one */
	bool drop_first;	/* it failed: the result starts over */
	long nr_runs, nr_failed;
	int failed_code;	/* the exit status of the first that failed, or 1 */
	char failed[200];	/* "run 2 of 5, run 4 of 5": for the summary */
};

struct stat_ctx {
	struct stat_config *cfg;
	struct hwp_evlist *evl;
	/* with more than one run: see hwpriv_hold_new() */
	struct hwpriv_hold *hold;
	struct hwp_metric **metrics;
	struct hwp_result *result;	/* the measurement runs are added to */
	char **run_argv;	/* the command as run now: --sweep substitutes a value */
	struct hwpriv_ofile *out;
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
	bool regions_lost;	/* a run's regions could not be read */
	struct hwpriv_score **scores;	/* --score, compiled */
	size_t nr_scores;
	const char *run_name;	/* "run 3 of 10", for messages about a run */
	struct run_check *check;	/* the command's failed runs so far */
	bool failed_stop;	/* a run failed, without --keep-going: stop */
	bool tee_failed;	/* showing the command's output failed, and said so */
	bool reader_gone;	/* ...because its reader went away (EPIPE) */
	struct stat score_file;	/* --score-from FILE before the run, to tell */
	bool score_file_existed;	/* a file the run did not write */
};

/* A format Prometheus reads, whose counters are totals. */
static inline bool exposition(enum hwp_format format)
{
	return format == HWP_FORMAT_OPENMETRICS || format == HWP_FORMAT_PROMETHEUS;
}

/* stat-options.c */
/* @argv's options into @c, checked against each other: 0, or the exit
 * status after the message. */
int stat_parse_options(struct stat_config *c, int argc, char **argv);

/* cmd-stat.c */
/* A result for @argv with the -M metrics, the command and the target. */
int stat_new_result(struct stat_ctx *sc, char **argv, struct hwp_result **out);
/* The warm-up runs, then the counted ones into sc->result. Returns 0 or,
 * after printing why, the exit status of a fatal error. *code gets the
 * command's last exit status. @label names the sweep value, or is NULL. */
int stat_measure(struct stat_ctx *sc, const char *label, int *code);
/* One run of sc->run_argv, into sc->result when @keep (a warm-up run is
 * not kept); sc->run_name names it in messages. 0 or an exit status. */
int stat_one_run(struct stat_ctx *sc, bool keep, int *code);
/* After the runs of @k's command: the summary of those that failed (with
 * --keep-going), and *@code set to say so. Whether a run failed. */
bool stat_runs_failed(struct stat_ctx *sc, const struct run_check *k, int *code);
/* Whether Ctrl-C or SIGTERM asked to stop. */
bool stat_stopped(void);

/* stat-ab.c */
/* Variants from the command line (-- A ::: B, --variant): usage errors
 * printed and returned as CLI_EXIT_USAGE. */
int ab_parse(struct stat_config *c);
int ab_check(const struct stat_config *c);
/* Run the variants in turn, write each result and the comparisons. */
int ab_run(struct stat_ctx *sc, int *code);
void ab_release(struct stat_config *c);

/* stat-sweep.c */
/* Check --sweep against the command: a usage error is printed, and
 * returned as CLI_EXIT_USAGE. */
int sweep_check(const struct stat_config *c);
/* Measure every value and write the sweep; the exit status. */
int sweep_run(struct stat_ctx *sc, int *code);

/* stat-run.c */
/* A result for @argv with the -M metrics, the command and the target. */
int stat_new_result(struct stat_ctx *sc, char **argv, struct hwp_result **out);
/* The warm-up runs, then the counted ones into sc->result. Returns 0 or,
 * after printing why, the exit status of a fatal error. *code gets the
 * command's last exit status. @label names the sweep value, or is NULL. */
int stat_measure(struct stat_ctx *sc, const char *label, int *code);
/* One run of sc->run_argv, into sc->result when @keep (a warm-up run is
 * not kept); sc->run_name names it in messages. 0 or an exit status. */
int stat_one_run(struct stat_ctx *sc, bool keep, int *code);
/* Whether Ctrl-C or SIGTERM asked to stop. */
bool stat_stopped(void);

/* stat-failed.c */
/* Whether the run sc->run_name, which ended with wait status @status,
 * failed; said, and counted in sc->check, if so. @keep: the run goes into
 * the result. */
bool stat_run_failed(struct stat_ctx *sc, int status, bool keep);
/* After the runs of @k's command: the summary of those that failed (with
 * --keep-going), and *@code set to say so. Whether a run failed. */
bool stat_runs_failed(struct stat_ctx *sc, const struct run_check *k, int *code);

/* stat-spec.c */
/* NAME=V1,V2,...: --sweep's, and --variant's. */
struct sweep_spec {
	char *buf;		/* the spec, cut into the name and the values */
	const char *name;
	char **values;
	size_t nr;
	char placeholder[80];	/* "{NAME}" */
};
/* Parse @spec of @option ("--sweep"); a usage error is printed. */
int parse_spec(const char *spec, const char *option, struct sweep_spec *s);
void spec_release(struct sweep_spec *s);
/* Check @spec against the command @argv: a usage error is printed. */
int spec_check(const char *spec, const char *option, char **argv);
/* A copy of @argv with {NAME} replaced by @value; NULL when out of memory. */
char **substitute(char **argv, const struct sweep_spec *s, const char *value);
void argv_free(char **argv);
/* Keep @spec of @option in *@slot, unless one is there already: then a
 * usage error, printed and returned as CLI_EXIT_USAGE. */
int spec_once(const char **slot, const char *option, const char *spec);

/* stat-score.c */
/* Check --score, --score-from and --quiet against the rest: a usage error
 * is printed, and returned as CLI_EXIT_USAGE. */
int score_check(const struct stat_config *c);
/* Compile the scores, and say which output the command's runs capture. */
int score_prepare(struct stat_ctx *sc);
/* Before a run: forget the last run's output, and note a file's state. */
int score_begin_run(struct stat_ctx *sc);
/* What the command printed, when @fd polls readable: shown (unless
 * --quiet) and scanned. 0 or a negative errno. */
int score_drain(struct stat_ctx *sc, int fd);
/* After a run: its scores into @values (sc->nr_scores of them), or the
 * exit status after saying which run and score failed. */
int score_end_run(struct stat_ctx *sc, double *values);
void score_cleanup(struct stat_ctx *sc);

/* stat-regions.c */
int regions_prepare(struct stat_ctx *sc);
/* After a run: attach the regions it wrote (when @keep), then remove them. */
void regions_collect(struct stat_ctx *sc, bool keep);
void regions_cleanup(struct stat_ctx *sc);

/* stat-metrics.c: -M NAME */
/* Whether a -M argument names built-in metrics (no '='), not a formula. */
bool metric_arg_is_name(const char *arg);
/* Add -M's @arg to c->metrics: a formula, or each name of NAME,NAME (cut
 * in place). 0, or CLI_EXIT_FAILURE after the message. */
int metric_args_add(struct stat_config *c, char *arg);
/* --td-level @arg, as perf's: -M TopdownL1 to TopdownL<N> of the model
 * (0: every level it has). 0, or an exit status after the message. */
int metric_td_level(struct stat_config *c, const char *arg);
/* The built-in metric @name, or NULL after saying which there are. */
const struct hwp_metric *metric_named(const char *name);
/* The event list to count into *@spec (malloc'ed): -e's, else @dflt
 * unless every -M names built-in metrics (then, as perf, theirs alone),
 * with the events of the built-in metrics -M names added. 0, or an exit
 * status after the message. */
int stat_event_spec(const struct stat_config *c, const char *dflt, char **spec);

/* stat-show.c */
void progress_init(struct progress *p, const struct stat_config *c);
/* The line of run @i of @n: cli_progress_clear() or the next message erases it. */
void progress_show(struct progress *p, const char *label, bool warmup, long i, long n);
/* Whether --histogram names an event of the list or a metric; prints why not. */
int histogram_check(const struct stat_ctx *sc);
/* Draw the runs of --histogram's row of @r on @f. */
int histogram_print(const struct hwp_result *r, const char *name, FILE *f);
/* Whether -I's -o FILE holds the latest exposition alone, replaced whole
 * each interval (openmetrics or prometheus to a regular file). */
bool stat_replaced_each_interval(const struct stat_config *c);
/* Write interval @res of -I: after the others, or (an exposition to a
 * file) in place of the last one. */
int interval_write(struct stat_ctx *sc, const struct hwp_result *res,
		   struct hwp_write_opts *o);

#endif
