// SPDX-License-Identifier: MIT
/* hwprof stat: count events while a command runs, as perf stat does.
 * Here: its options' table and --help, the set-up and the report; stat.h
 * says which file does the rest. */
#include "stat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* In two halves, so that --help can show the default on two lines. */
#define DEFAULT_EVENTS_HEAD "task-clock,context-switches,cpu-migrations"
#define DEFAULT_EVENTS_TAIL "page-faults,cycles,instructions,branches,branch-misses"
#define DEFAULT_EVENTS DEFAULT_EVENTS_HEAD "," DEFAULT_EVENTS_TAIL

static const char stat_usage[] =
	"usage: hwprof stat [OPTIONS] [--] COMMAND [ARGS]\n"
	"       hwprof stat [OPTIONS] -p PID | -a | -C CPUS [-- COMMAND]\n"
	"       hwprof stat [OPTIONS] -r N -- A [ARGS] ::: B [ARGS] [::: C ...]\n"
	"\n"
	"Count events while COMMAND runs, as perf stat does, and derive metrics from\n"
	"them. With -p, -a or -C, count until COMMAND ends, the process exits, or Ctrl-C.\n"
	"\n";

static const struct cli_option stat_options[] = {
	CLI_OPT('e', "event", "LIST",
		"events to count (repeatable), e.g.\n"
		"cycles,{instructions,LLC-load-misses},cpu-migrations:u\n"
		"Default: " DEFAULT_EVENTS_HEAD ",\n"
		DEFAULT_EVENTS_TAIL),
	CLI_OPT('M', "metric", "NAME=EXPR",
		"derive a metric (repeatable), e.g.\n"
		"'mpm=cache-misses / cpu-migrations'"),
	CLI_OPT_FORM('M', "metric", "NAME[,NAME]",
		"named metrics, as perf's -M: IPC, TopdownL1 (list --metrics)"),
	CLI_OPT('r', "repeat", "N", "run COMMAND N times: means and perf's +- x%"),
	CLI_OPT(OPT_WARMUP, "warmup", "W",
		"run COMMAND W more times first, and discard those runs"),
	CLI_OPT('p', "pid", "PID", "count an existing process and all its threads"),
	CLI_OPT('a', "all-cpus", NULL, "count every task on every CPU"),
	CLI_OPT('C', "cpu", "LIST", "count every task on these CPUs, e.g. 0-3,6"),
	CLI_OPT('A', "no-aggr", NULL,
		"per CPU (with -a or -C); --per-core, --per-die,\n"
		"--per-socket, --per-node, --per-thread likewise"),
	CLI_OPT('I', "interval-print", "MS", "print the counts of every MS milliseconds"),
	CLI_OPT(OPT_SCORE, "score", "NAME=REGEX",
		"the benchmark's own number, read from its output"),
	CLI_OPT(OPT_SWEEP, "sweep", "NAME=V1,V2,...",
		"run COMMAND once per value of {NAME}"),
	CLI_OPT('x', "field-separator", "S", "CSV, in perf stat's layout"),
	CLI_OPT(OPT_JSON, "json", NULL, "JSON, schema hwprof-stat/1"),
	CLI_OPT(OPT_FORMAT, "format", "FMT",
		"text, csv, json, openmetrics or prometheus"),
	CLI_OPT('o', "output", "FILE",
		"write the report to FILE instead of standard error"),
	CLI_OPT('h', "help", NULL, "this text"),
	/* In the "Also:" of stat_tail */
	CLI_OPT_ALSO(OPT_ALL_USER, "all-user", NULL),
	CLI_OPT_ALSO(OPT_TOPDOWN, "topdown", NULL),
	CLI_OPT_ALSO(OPT_TD_LEVEL, "td-level", "N"),
	CLI_OPT_ALSO(OPT_ALL_KERNEL, "all-kernel", NULL),
	CLI_OPT_ALSO('i', "no-inherit", NULL),
	CLI_OPT_ALSO(OPT_STRICT, "strict", NULL),
	CLI_OPT_ALSO(OPT_PIN, "pin", "CPUS"),
	CLI_OPT_ALSO('G', "cgroup", "NAME"),
	CLI_OPT_ALSO(OPT_KEEP_GOING, "keep-going", NULL),
	CLI_OPT_ALSO(OPT_HISTOGRAM, "histogram", "ROW"),
	CLI_OPT_ALSO(OPT_PER_RUN, "per-run", NULL),
	CLI_OPT_ALSO(OPT_EXPLAIN, "explain", NULL),
	CLI_OPT_ALSO(OPT_QUIET, "quiet", NULL),
	CLI_OPT_ALSO(OPT_SCORE_FROM, "score-from", "WHERE"),
	CLI_OPT_ALSO(OPT_REGIONS, "regions", NULL),
	CLI_OPT_ALSO(OPT_SKIP_FIRST, "skip-first", "SECONDS"),
	CLI_OPT_ALSO(OPT_VARIANT, "variant", "NAME=V1,V2,..."),
	CLI_OPT_ALSO(OPT_ORDER, "order", "ORDER"),
	CLI_OPT_ALSO(OPT_SEED, "seed", "N"),
	CLI_OPT_ALSO(OPT_SAVE, "save", "DIR"),
	CLI_OPT_ALSO(OPT_ALPHA, "alpha", "X"),
	CLI_OPT_ALSO(OPT_NO_BIG_NUM, "no-big-num", NULL),
	CLI_OPT_ALSO(OPT_NO_MERGE, "no-merge", NULL),
	CLI_OPT_ALSO(OPT_PER + HWP_AGGR_CORE, "per-core", NULL),
	CLI_OPT_ALSO(OPT_PER + HWP_AGGR_DIE, "per-die", NULL),
	CLI_OPT_ALSO(OPT_PER + HWP_AGGR_SOCKET, "per-socket", NULL),
	CLI_OPT_ALSO(OPT_PER + HWP_AGGR_NODE, "per-node", NULL),
	CLI_OPT_ALSO(OPT_PER + HWP_AGGR_THREAD, "per-thread", NULL),
	CLI_OPT_END,
};

static const char stat_tail[] =
	"\n"
	"Also: --all-user, --all-kernel, --no-inherit, --strict, --pin, --cgroup,\n"
	"--keep-going, --histogram, --per-run, --explain, --quiet, --score-from,\n"
	"--regions, --skip-first, --variant, --order, --seed, --save, --alpha,\n"
	"--no-big-num, --no-merge, --topdown, --td-level.\n"
	"\n"
	"Exit status: COMMAND's (128+N when a signal N killed it), 127 when COMMAND is\n"
	"not found, 126 when it cannot be run, 2 for a usage error, 1 for other failures.\n"
	"\n"
	"Every option, and what each number means: man hwprof-stat\n";

/* --pin with several CPUs: whether they share a core or a package, the
 * first question about a benchmark pinned to two CPUs. */
static void pin_note(const char *pin)
{
	static const char *const where[] = {
		[HWP_AGGR_GLOBAL] = "are on different packages",
		[HWP_AGGR_CPU] = "are one CPU",
		[HWP_AGGR_CORE] = "share a core (SMT siblings)",
		[HWP_AGGR_DIE] = "share a package (and die), on different cores",
		[HWP_AGGR_SOCKET] = "share a package, on different dies",
	};
	struct hwp_topology *t;
	enum hwp_aggr level;

	if (!strpbrk(pin, ",-") || hwp_topology_load(NULL, &t))
		return;
	if (!hwp_topology_shared(t, pin, &level) && level != HWP_AGGR_CPU &&
	    level <= HWP_AGGR_SOCKET)
		cli_note("stat", "--pin %s: the CPUs %s ('hwprof list --topology')", pin,
			 where[level]);
	hwp_topology_free(t);
}

/* One write for the whole report, not one a line: stderr is unbuffered.
 * Given no buffer, glibc would take 4 KiB of heap (its fstat() and a
 * terminal's TCGETS choose the size), whatever the size asked: a static
 * one costs no call, and only the pages the report fills. */
static void buffer_stderr(void)
{
	static char report_buf[1 << 16];

	setvbuf(stderr, report_buf, _IOFBF, sizeof(report_buf));
}

static int prepare(struct stat_ctx *sc)
{
	struct stat_config *c = sc->cfg;
	HWP_OPTS(hwp_evlist_opts, eo, .all_user = c->all_user,
		 .all_kernel = c->all_kernel, .no_merge = c->no_merge);
	const char **names;
	char *spec;
	int ret, err;

	ret = stat_event_spec(c, DEFAULT_EVENTS, &spec);
	if (ret)
		return ret;
	err = hwp_evlist_parse(spec, &eo, &sc->evl);
	free(spec);
	if (err) {
		cli_lib_error("stat", err);
		return cli_exit_for(err);
	}
	ret = score_prepare(sc);
	if (ret)
		return ret;
	sc->metrics = calloc(c->nr_metrics + 1, sizeof(*sc->metrics));
	names = calloc(sc->nr_scores + 1, sizeof(*names));
	if (!sc->metrics || !names) {
		free(names);
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < sc->nr_scores; i++)
		names[i] = hwpriv_score_name(sc->scores[i]);
	for (size_t i = 0; i < c->nr_metrics; i++) {
		/* A built-in is borrowed: hwp_metric_free() leaves it be. */
		if (metric_arg_is_name(c->metrics[i]))
			sc->metrics[i] = (struct hwp_metric *)metric_named(c->metrics[i]);
		else
			err = hwp_metric_parse(c->metrics[i], &sc->metrics[i]);
		if (!err)
			err = hwp_metric_check_names(sc->metrics[i], sc->evl, names,
						     sc->nr_scores);
		if (err) {
			free(names);
			cli_lib_error("stat", err);
			return cli_exit_for(err);
		}
	}
	free(names);
	/* Checked here, so that a typo is reported before a long run. */
	if (c->histogram && (ret = histogram_check(sc)))
		return ret;
	if (c->target.pin)
		pin_note(c->target.pin);
	sc->run_argv = c->target.argv;
	/* A sweep makes one a value; this one checks the metrics now. */
	ret = stat_new_result(sc, c->target.argv, &sc->result);
	if (ret)
		return ret;
	sc->wopts = (struct hwp_write_opts){
		.sz = sizeof(sc->wopts),
		.format = c->format,
		.separator = c->sep,
		.no_big_num = c->no_big_num,
		.per_run = c->per_run,
	};
	progress_init(&sc->progress, c);
	ret = regions_prepare(sc);
	if (ret)
		return ret;
	/* Open the output before running, so a bad path fails before a long run. */
	sc->stream = stderr;
	buffer_stderr();
	if (c->output) {
		err = cli_ofile_open(c->output, &sc->out, &sc->stream);
		if (err)
			return cli_lib_error("stat", err);
	}
	return 0;
}

/* The runs of a plain measurement, and its report. */
static int measure_and_write(struct stat_ctx *sc, int *code)
{
	int ret = stat_measure(sc, NULL, code), err;

	/* What was measured is written, even after a failed later run. */
	if (sc->cfg->interval_ms || !hwp_result_nr_runs(sc->result))
		return ret;
	hwp_result_set_exit_status(sc->result, ret ? -1 : *code);
	err = hwp_result_write(sc->result, sc->stream, &sc->wopts);
	if (!err && sc->cfg->histogram)
		err = histogram_print(sc->result, sc->cfg->histogram, sc->stream);
	if (!err && sc->cfg->explain)
		err = hwp_result_explain(sc->result, hwpriv_score_name(sc->scores[0]),
					 sc->stream, &sc->wopts);
	if (err) {
		cli_lib_error("stat", err);
		ret = ret ? ret : CLI_EXIT_FAILURE;
	}
	/* A failed write is dropped, not committed: one message, and no
	 * half-written file under the final name. */
	sc->wrote = !err;
	return ret;
}

/* Commit or drop the output file, or flush the report on stderr. */
static int finish_output(struct stat_ctx *sc, int ret)
{
	if (sc->out) {
		bool keep = (sc->wrote || !ret) && !sc->write_failed;
		int err = cli_ofile_end(sc->out, keep);

		sc->out = NULL;
		if (err) {
			cli_lib_error("stat", err);
			return ret ? ret : CLI_EXIT_FAILURE;
		}
	} else if (fflush(sc->stream) || ferror(sc->stream)) {
		cli_error("stat", "writing the report failed: %s", strerror(errno));
		return ret ? ret : CLI_EXIT_FAILURE;
	}
	return ret;
}

static int count_and_report(struct stat_ctx *sc, int *code)
{
	const struct stat_config *c = sc->cfg;
	int ret = prepare(sc), err;

	if (ret)
		return ret;
	/* Runs after the first would each switch the kernel's software
	 * events and tracepoints on and off again (0.1-50 ms a run). */
	if ((c->repeat + c->warmup > 1 || c->variants || c->sweep) &&
	    (err = hwpriv_hold_new(sc->evl, &sc->hold)))
		return cli_lib_error("stat", err);
	cli_install_stop_signals();
	ret = c->sweep ? sweep_run(sc, code) :
	      c->variants ? ab_run(sc, code) : measure_and_write(sc, code);
	return finish_output(sc, ret);
}

static int stat_run(int argc, char **argv)
{
	struct stat_config cfg = { 0 };
	struct stat_ctx sc = { .cfg = &cfg };
	int ret, code = 0;

	ret = stat_parse_options(&cfg, argc, argv);
	if (!ret && cfg.help)
		ret = cli_show_help(&cli_cmd_stat);
	else if (!ret)
		ret = count_and_report(&sc, &code);
	cli_ofile_end(sc.out, false);
	regions_cleanup(&sc);
	score_cleanup(&sc);
	for (size_t i = 0; sc.metrics && i < cfg.nr_metrics; i++)
		hwp_metric_free(sc.metrics[i]);
	free(sc.metrics);
	hwp_result_free(sc.result);
	hwpriv_hold_free(sc.hold);
	hwp_evlist_free(sc.evl);
	free(cfg.events.buf);
	free(cfg.metrics);
	free(cfg.scores);
	ab_release(&cfg);
	/* Lost regions fail a run that otherwise succeeded; the command's
	 * own failure says more and passes through. */
	return ret ?: code ?: (sc.regions_lost ? CLI_EXIT_FAILURE : 0);
}

const struct cli_cmd cli_cmd_stat = {
	.name = "stat",
	.summary = "Count events while a command runs (perf stat), with metrics",
	.usage = stat_usage,
	.options = stat_options,
	.tail = stat_tail,
	.help_width = 27,
	.flags = CLI_STOP_AT_COMMAND,
	.run = stat_run,
};
