// SPDX-License-Identifier: MIT
/* hwprof stat: count events while a command runs, as perf stat does. */
#include "stat.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* In two halves, so that --help can show the default on two lines. */
#define DEFAULT_EVENTS_HEAD "task-clock,context-switches,cpu-migrations"
#define DEFAULT_EVENTS_TAIL "page-faults,cycles,instructions,branches,branch-misses"
#define DEFAULT_EVENTS DEFAULT_EVENTS_HEAD "," DEFAULT_EVENTS_TAIL

static const char stat_help[] =
	"usage: hwprof stat [OPTIONS] [--] COMMAND [ARGS]\n"
	"       hwprof stat [OPTIONS] -p PID | -a | -C CPUS [-- COMMAND]\n"
	"       hwprof stat [OPTIONS] -r N -- A [ARGS] ::: B [ARGS] [::: C ...]\n"
	"\n"
	"Count events while COMMAND runs, as perf stat does, and derive metrics from\n"
	"them. With -p, -a or -C, count until COMMAND ends, the process exits, or Ctrl-C.\n"
	"\n"
	"  -e, --event LIST         events to count (repeatable), e.g.\n"
	"                           cycles,{instructions,LLC-load-misses},cpu-migrations:u\n"
	"                           Default: " DEFAULT_EVENTS_HEAD ",\n"
	"                           " DEFAULT_EVENTS_TAIL "\n"
	"  -M, --metric NAME=EXPR   derive a metric (repeatable), e.g.\n"
	"                           'mpm=cache-misses / cpu-migrations'\n"
	"  -M, --metric NAME[,NAME] built-in metrics, as perf's -M: IPC, CPUs-utilized...\n"
	"  -r, --repeat N           run COMMAND N times: means and perf's +- x%\n"
	"      --warmup W           run COMMAND W more times first, and discard those runs\n"
	"  -p, --pid PID            count an existing process and all its threads\n"
	"  -a, --all-cpus           count every task on every CPU\n"
	"  -C, --cpu LIST           count every task on these CPUs, e.g. 0-3,6\n"
	"  -A, --no-aggr            per CPU (with -a or -C); --per-core, --per-die,\n"
	"                           --per-socket, --per-node, --per-thread likewise\n"
	"  -I, --interval-print MS  print the counts of every MS milliseconds\n"
	"      --score NAME=REGEX   the benchmark's own number, read from its output\n"
	"      --sweep NAME=V1,V2,...  run COMMAND once per value of {NAME}\n"
	"  -x, --field-separator S  CSV, in perf stat's layout\n"
	"      --json               JSON, schema hwprof-stat/1\n"
	"      --format FMT         text, csv, json, openmetrics or prometheus\n"
	"  -o, --output FILE        write the report to FILE instead of standard error\n"
	"  -h, --help               this text\n"
	"\n"
	"Also: --all-user, --all-kernel, --no-inherit, --strict, --pin, --cgroup,\n"
	"--keep-going, --histogram, --per-run, --explain, --quiet, --score-from,\n"
	"--regions, --skip-first, --variant, --order, --seed, --save, --alpha,\n"
	"--no-big-num.\n"
	"\n"
	"Exit status: COMMAND's (128+N when a signal N killed it), 127 when COMMAND is\n"
	"not found, 126 when it cannot be run, 2 for a usage error, 1 for other failures.\n"
	"\n"
	"Every option, and what each number means: man hwprof-stat\n";


/* Long options without a letter: past 256 + the aggregation modes. */
enum { OPT_SCORE = 512, OPT_SCORE_FROM, OPT_PER_RUN };

static const struct option stat_options[] = {
	{ "event", required_argument, NULL, 'e' },
	{ "metric", required_argument, NULL, 'M' },
	{ "all-user", no_argument, NULL, 'U' },
	{ "all-kernel", no_argument, NULL, 'K' },
	{ "no-inherit", no_argument, NULL, 'i' },
	{ "pid", required_argument, NULL, 'p' },
	{ "all-cpus", no_argument, NULL, 'a' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "pin", required_argument, NULL, 'P' },
	{ "repeat", required_argument, NULL, 'r' },
	{ "interval-print", required_argument, NULL, 'I' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "json", no_argument, NULL, 'J' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "no-big-num", no_argument, NULL, 'B' },
	{ "warmup", required_argument, NULL, 'W' },
	{ "sweep", required_argument, NULL, 'S' },
	{ "histogram", required_argument, NULL, 'H' },
	{ "regions", no_argument, NULL, 'R' },
	{ "no-aggr", no_argument, NULL, 'A' },
	{ "per-core", no_argument, NULL, 256 + HWP_AGGR_CORE },
	{ "per-die", no_argument, NULL, 256 + HWP_AGGR_DIE },
	{ "per-socket", no_argument, NULL, 256 + HWP_AGGR_SOCKET },
	{ "per-node", no_argument, NULL, 256 + HWP_AGGR_NODE },
	{ "per-thread", no_argument, NULL, 256 + HWP_AGGR_THREAD },
	{ "cgroup", required_argument, NULL, 'G' },
	{ "skip-first", required_argument, NULL, 'F' },
	{ "strict", no_argument, NULL, 'T' },
	{ "keep-going", no_argument, NULL, 'k' },
	{ "score", required_argument, NULL, OPT_SCORE },
	{ "score-from", required_argument, NULL, OPT_SCORE_FROM },
	{ "quiet", no_argument, NULL, 'Q' },
	{ "explain", no_argument, NULL, 'X' },
	{ "per-run", no_argument, NULL, OPT_PER_RUN },
	{ "variant", required_argument, NULL, 'V' },
	{ "order", required_argument, NULL, 'O' },
	{ "seed", required_argument, NULL, 'D' },
	{ "save", required_argument, NULL, 'E' },
	{ "alpha", required_argument, NULL, 'L' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A format Prometheus reads, whose counters are totals. */
static bool exposition(enum hwp_format format)
{
	return format == HWP_FORMAT_OPENMETRICS || format == HWP_FORMAT_PROMETHEUS;
}

/* Aggregation and cgroups against the targets, as perf has them. */
static int check_aggr(const struct stat_config *c)
{
	const struct cli_target *t = &c->target;
	bool cpus = t->all_cpus || t->cpus;

	if (c->aggr != HWP_AGGR_GLOBAL && c->aggr != HWP_AGGR_THREAD && !cpus) {
		cli_error("stat", "%s counts CPUs: add -a or -C (a command's or process's counters follow its threads from CPU to CPU)",
			  c->aggr == HWP_AGGR_CPU ? "-A" : c->aggr == HWP_AGGR_CORE ?
			  "--per-core" : c->aggr == HWP_AGGR_DIE ? "--per-die" :
			  c->aggr == HWP_AGGR_SOCKET ? "--per-socket" : "--per-node");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr == HWP_AGGR_THREAD && cpus) {
		cli_error("stat", "--per-thread counts the threads of -p's process or of a command, not -a or -C");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr == HWP_AGGR_THREAD && !t->pid && c->repeat > 1) {
		cli_error("stat", "--per-thread of a command with -r: its threads are new in every run, there is nothing to average");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr == HWP_AGGR_THREAD && c->no_inherit && !t->pid) {
		cli_error("stat", "--per-thread of a command follows the threads it creates: not with --no-inherit");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr != HWP_AGGR_GLOBAL && exposition(c->format)) {
		cli_error("stat", "--format openmetrics and prometheus write the totals: not per unit");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr != HWP_AGGR_GLOBAL && c->sweep) {
		cli_error("stat", "--sweep compares totals: not per unit");
		return CLI_EXIT_USAGE;
	}
	if (c->cgroup && !cpus) {
		cli_error("stat", "-G %s: a cgroup is counted on CPUs, as with perf: add -a or -C",
			  c->cgroup);
		return CLI_EXIT_USAGE;
	}
	if (c->cgroup && strchr(c->cgroup, ',')) {
		cli_error("stat", "-G %s: one cgroup for every event (perf's list of one cgroup an event is not supported)",
			  c->cgroup);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* The newer options, against the rest. */
static int check_combinations(const struct stat_config *c)
{
	bool openmetrics = exposition(c->format);

	if (c->interval_ms && c->warmup) {
		cli_error("stat",
			  "--warmup discards whole runs; with -I, use --skip-first");
		return CLI_EXIT_USAGE;
	}
	if (c->histogram &&
	    (c->format != HWP_FORMAT_TEXT || c->interval_ms || c->sweep)) {
		cli_error("stat",
			  "--histogram draws the runs of one measurement in the text report: not with %s",
			  c->json ? "--json" : c->sep ? "-x" :
			  c->format != HWP_FORMAT_TEXT ? "--format" :
			  c->interval_ms ? "-I" : "--sweep");
		return CLI_EXIT_USAGE;
	}
	if (c->per_run && (c->interval_ms || c->sweep || openmetrics ||
			   (c->variants && c->format != HWP_FORMAT_TEXT))) {
		cli_error("stat", "--per-run writes a line a run of one measurement (or of each variant, in the text report): not with %s",
			  c->interval_ms ? "-I" : c->sweep ? "--sweep" :
			  openmetrics ? "--format openmetrics or prometheus" :
			  "--json with variants (--save DIR keeps each run's values)");
		return CLI_EXIT_USAGE;
	}
	if (c->interval_ms && c->format == HWP_FORMAT_PROMETHEUS) {
		cli_error("stat", "-I writes an exposition an interval, which only openmetrics ends (# EOF): use --format openmetrics");
		return CLI_EXIT_USAGE;
	}
	if (c->sweep && (c->interval_ms || c->format == HWP_FORMAT_CSV || openmetrics)) {
		cli_error("stat", "--sweep writes a table or JSON: not with %s",
			  c->interval_ms ? "-I" : c->sep ? "-x" :
			  "--format csv, openmetrics or prometheus");
		return CLI_EXIT_USAGE;
	}
	if (c->aggr != HWP_AGGR_GLOBAL &&
	    (c->nr_scores || c->variants || c->variant)) {
		cli_error("stat", "%s: not with -A or --per-* (not yet)",
			  c->nr_scores ? "--score is the whole run's" :
			  "variants (:::, --variant) compare whole runs");
		return CLI_EXIT_USAGE;
	}
	return score_check(c) ?: ab_check(c) ?: check_aggr(c) ?:
	       (c->sweep ? sweep_check(c) : 0);
}

static bool parse_format(struct stat_config *c, const char *name)
{
	/* stat's formats; their names are the library's (hwp_enum_name()). */
	static const enum hwp_format formats[] = {
		HWP_FORMAT_TEXT, HWP_FORMAT_CSV, HWP_FORMAT_JSON, HWP_FORMAT_OPENMETRICS,
		HWP_FORMAT_PROMETHEUS,
	};
	int v;

	if (!hwp_enum_parse(HWP_ENUM_FORMAT, name, &v))
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (formats[i] == (enum hwp_format)v) {
				c->format = formats[i];
				c->format_given = true;
				return true;
			}
	cli_error("stat",
		  "--format: '%s' is not text, csv, json, openmetrics or prometheus",
		  name);
	return false;
}

/* --json and -x are --format json and csv, and agree with a --format. */
static int resolve_format(struct stat_config *c)
{
	enum hwp_format implied = c->json ? HWP_FORMAT_JSON :
				  c->sep ? HWP_FORMAT_CSV : HWP_FORMAT_TEXT;

	if (c->format_given && (c->json || c->sep) && c->format != implied) {
		cli_error("stat", "--format %s and %s cannot be combined",
			  hwp_enum_name(HWP_ENUM_FORMAT, c->format),
			  c->json ? "--json" : "-x");
		return CLI_EXIT_USAGE;
	}
	if (!c->format_given)
		c->format = implied;
	c->json = c->format == HWP_FORMAT_JSON;
	return 0;
}

/* A repeated option's argument, kept: 0, or 1 after saying why not. */
static int push_arg(const char ***list, size_t *n, const char *arg)
{
	const char **l = realloc(*list, (*n + 1) * sizeof(*l));

	if (!l) {
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	*list = l;
	l[(*n)++] = arg;
	return 0;
}

static int parse_options(struct stat_config *c, int argc, char **argv)
{
	struct cli_target *t = &c->target;
	int opt, ret;

	c->repeat = 1;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+e:M:ip:aC:r:I:x:o:hAG:", stat_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (cli_list_add(&c->events, optarg)) {
				cli_error("stat", "out of memory");
				return CLI_EXIT_FAILURE;
			}
			break;
		case 'M':
			if (metric_args_add(c, optarg))
				return CLI_EXIT_FAILURE;
			break;
		case OPT_SCORE:
			if (push_arg(&c->scores, &c->nr_scores, optarg))
				return CLI_EXIT_FAILURE;
			break;
		case OPT_SCORE_FROM: c->score_from = optarg; break;
		case 'Q': c->quiet = true; break;
		case 'X': c->explain = true; break;
		case OPT_PER_RUN: c->per_run = true; break;
		case 'V':
			if (spec_once(&c->variant, "--variant", optarg))
				return CLI_EXIT_USAGE;
			break;
		case 'O': c->order = optarg; break;
		case 'D': c->seed = optarg; break;
		case 'E': c->save = optarg; break;
		case 'L':
			if (!cli_parse_alpha(optarg, &c->alpha)) {
				cli_error("stat", "--alpha: '%s' is not a level between 0 and 1, such as 0.05",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'U': c->all_user = true; break;
		case 'K': c->all_kernel = true; break;
		case 'i': c->no_inherit = true; break;
		case 'T': c->strict = true; break;
		case 'k': c->keep_going = true; break;
		case 'p':
			ret = cli_target_set_pid(t, "stat", optarg);
			if (ret)
				return ret;
			break;
		case 'a': t->all_cpus = true; break;
		case 'C': t->cpus = optarg; break;
		case 'P': t->pin = optarg; break;
		case 'r':
			if (!cli_parse_long(optarg, 1, 1000000, &c->repeat)) {
				cli_error("stat", "-r: '%s' is not a number of runs from 1 to 1000000",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'I':
			if (!cli_parse_long(optarg, 10, 3600000, &c->interval_ms)) {
				cli_error("stat", "-I: '%s' is not an interval in milliseconds from 10 to 3600000",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'x': c->sep = optarg; break;
		case 'J': c->json = true; break;
		case 'f':
			if (!parse_format(c, optarg))
				return CLI_EXIT_USAGE;
			break;
		case 'o': c->output = optarg; break;
		case 'B': c->no_big_num = true; break;
		case 'W':
			if (!cli_parse_long(optarg, 0, 1000000, &c->warmup)) {
				cli_error("stat", "--warmup: '%s' is not a number of runs from 0 to 1000000",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'S':
			if (spec_once(&c->sweep, "--sweep", optarg))
				return CLI_EXIT_USAGE;
			break;
		case 'H': c->histogram = optarg; break;
		case 'R': c->regions = true; break;
		case 'A': c->aggr = HWP_AGGR_CPU; break;
		case 256 + HWP_AGGR_CORE:
		case 256 + HWP_AGGR_DIE:
		case 256 + HWP_AGGR_SOCKET:
		case 256 + HWP_AGGR_NODE:
		case 256 + HWP_AGGR_THREAD:
			c->aggr = (enum hwp_aggr)(opt - 256);
			break;
		case 'G': c->cgroup = optarg; break;
		case 'F': {
			char *end;

			errno = 0;
			c->skip_first = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(c->skip_first > 0) ||
			    c->skip_first > 86400) {
				cli_error("stat", "--skip-first: '%s' is not a number of seconds (more than 0)",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		}
		case 'h':
			c->help = true;
			return 0;
		default:
			cli_error("stat",
				  "unknown option '%s'; 'hwprof stat --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc)
		t->argv = argv + optind;
	ret = ab_parse(c);
	if (ret)
		return ret;
	ret = cli_target_check(t, "stat",
			       "no command to measure: hwprof stat [OPTIONS] -- COMMAND [ARGS]",
			       "-p counts one process; -a and -C count CPUs: choose one");
	if (ret)
		return ret;
	if (c->interval_ms && c->repeat > 1) {
		cli_error("stat", "-I and -r cannot be combined");
		return CLI_EXIT_USAGE;
	}
	if (c->json && c->sep) {
		cli_error("stat", "--json and -x cannot be combined");
		return CLI_EXIT_USAGE;
	}
	if (resolve_format(c))
		return CLI_EXIT_USAGE;
	if (c->sep && !*c->sep) {
		cli_error("stat", "-x: the separator is empty");
		return CLI_EXIT_USAGE;
	}
	if (t->pin && !t->argv) {
		cli_error("stat", "--pin needs a command to pin");
		return CLI_EXIT_USAGE;
	}
	if (c->regions && (!t->argv || c->interval_ms)) {
		cli_error("stat", "--regions needs a command%s",
			  t->argv ? ", and no -I" : "");
		return CLI_EXIT_USAGE;
	}
	if ((c->repeat > 1 || c->warmup) && !t->argv) {
		cli_error("stat", "%s repeats a command; give one after --",
			  c->warmup ? "--warmup" : "-r");
		return CLI_EXIT_USAGE;
	}
	/* The cheapest start (issue 12 item 11): counters on us that the
	 * command inherits; a unit per thread needs them on the command. */
	t->spawn_at_start = !c->no_inherit && c->aggr != HWP_AGGR_THREAD;
	return check_combinations(c);
}

/* Everything one run holds; released by run_release(). */
struct run {
	struct stat_ctx *sc;
	struct cli_watch watch;	/* the command, or the process of -p */
	struct hwp_session *s;	/* closed when nothing could be counted */
	bool uncounted;		/* no event opened: the command runs all the same */
	struct hwp_count *counts;	/* nr_units * the events */
	struct hwp_count *prev;	/* what counts start from: 0, or --skip-first's */
	size_t nr_units;	/* in counts and prev: they grow with the units */
	struct hwp_count *total;	/* -I of OpenMetrics: the sum of the intervals */
	double t_start;
	double t_last;		/* the end of the last interval printed */
	double t_next;		/* the next interval's end; INFINITY without -I */
	double t_skip;		/* --skip-first's end; 0 once passed */
};

static void run_release(struct run *r)
{
	hwp_session_free(r->s);
	cli_watch_release(&r->watch);
	free(r->counts);
	free(r->prev);
	free(r->total);
}

bool stat_stopped(void)
{
	return cli_stop_count != 0;
}

/* What @r measured: the command @argv, or the target of -p, -a or -C. */
static int result_label(struct stat_ctx *sc, char **argv, struct hwp_result *r)
{
	const struct cli_target *t = &sc->cfg->target;
	char target[256];
	int err = 0;

	if (argv)
		err = hwpriv_result_set_command(r, argv);
	if (err || cli_target_command_only(t))
		return err;
	if (t->pid)
		snprintf(target, sizeof(target), "process id %d", (int)t->pid);
	else if (t->cpus)
		snprintf(target, sizeof(target), "CPUs %s", t->cpus);
	else
		snprintf(target, sizeof(target), "system wide");
	return hwpriv_result_set_target(r, target);
}

/* Room for @nr units in counts and prev; the new ones start from 0. */
static int grow_units(struct run *r, size_t nr, size_t n)
{
	struct hwp_count *c, *p;

	if (nr <= r->nr_units)
		return 0;
	c = realloc(r->counts, nr * n * sizeof(*c));
	if (c)
		r->counts = c;
	p = c ? realloc(r->prev, nr * n * sizeof(*p)) : NULL;
	if (!p)
		return -ENOMEM;
	r->prev = p;
	memset(&p[r->nr_units * n], 0, (nr - r->nr_units) * n * sizeof(*p));
	r->nr_units = nr;
	return 0;
}

/* Read every event of every unit, and what it counted since r->prev,
 * which moves on: *@delta (malloc'ed) of *@nr_units units. */
static int read_delta(struct run *r, struct hwp_count **delta, size_t *nr_units)
{
	size_t n = hwp_session_nr_events(r->s), units = 1;
	int err;

	*delta = NULL;
	*nr_units = 0;
	if (r->uncounted) {
		*delta = calloc(n, sizeof(**delta));
		*nr_units = 1;
		return *delta ? 0 : -ENOMEM;
	}
	/* Threads that exited since add units: room for them, and again. */
	do {
		units = hwp_session_nr_units(r->s);
		err = grow_units(r, units, n) ?:
		      hwp_session_read_units(r->s, r->counts, r->nr_units * n);
	} while (err == -ENOSPC);
	if (err)
		return err;
	units = hwp_session_nr_units(r->s);
	*delta = calloc(units * n, sizeof(**delta));
	if (!*delta)
		return -ENOMEM;
	for (size_t i = 0; i < units * n; i++) {
		const struct hwp_count *c = &r->counts[i], *p = &r->prev[i];

		(*delta)[i].value = c->value - p->value;
		(*delta)[i].time_enabled = c->time_enabled - p->time_enabled;
		(*delta)[i].time_running = c->time_running - p->time_running;
	}
	memcpy(r->prev, r->counts, units * n * sizeof(**delta));
	*nr_units = units;
	return 0;
}

/* The run's counts into @res: unit by unit when the session has units. */
static int add_run(struct hwp_result *res, const struct run *r,
		   const struct hwp_count *delta, size_t nr_units, double seconds)
{
	if (r->uncounted)
		return hwpriv_result_add_run(res, r->s, delta, seconds);
	return hwpriv_result_add_run_units(res, r->s, delta, nr_units, seconds);
}

static int print_interval(struct stat_ctx *sc, struct run *r, double t, double dt)
{
	size_t n = hwp_session_nr_events(r->s), nr_units;
	struct hwp_count *delta;
	struct hwp_result *res = NULL;
	struct hwp_write_opts o = sc->wopts;
	int err;

	err = read_delta(r, &delta, &nr_units);
	if (err)
		goto out;
	/* OpenMetrics counters are totals, which a scrape takes the rate of. */
	if (r->total) {
		for (size_t i = 0; i < n; i++) {
			r->total[i].value += delta[i].value;
			r->total[i].time_enabled += delta[i].time_enabled;
			r->total[i].time_running += delta[i].time_running;
		}
		memcpy(delta, r->total, n * sizeof(*delta));
		dt = t;
	}
	err = hwpriv_result_new(&res);
	for (size_t i = 0; !err && i < sc->cfg->nr_metrics; i++)
		err = hwpriv_result_add_metric(res, sc->metrics[i]);
	if (!err)
		err = result_label(sc, sc->run_argv, res);
	if (!err)
		err = add_run(res, r, delta, nr_units, dt);
	o.interval = t;
	o.no_header = sc->interval_header_done;
	if (!err)
		err = interval_write(sc, res, &o);
	sc->interval_header_done = true;
	sc->wrote |= !err;
out:
	hwp_result_free(res);
	free(delta);
	return err;
}

/* When the wait must wake at the latest: an interval's end, or --skip-first's. */
static double next_timer(void *arg)
{
	const struct run *r = arg;

	return r->t_skip && r->t_skip < r->t_next ? r->t_skip : r->t_next;
}

/* At each wake of the wait: print an interval that has ended, or start
 * counting over after --skip-first. An interval that ends within the
 * skipped seconds is not printed; counting starts over when they end. */
static int on_wake(void *arg)
{
	struct run *r = arg;
	struct stat_ctx *sc = r->sc;
	double t = cli_now();
	int err = 0;

	if (hwp_workload_output_fd(r->watch.wl) >= 0)
		err = score_drain(sc, hwp_workload_output_fd(r->watch.wl));
	if (!err && sc->cfg->interval_ms && t >= r->t_next) {
		if (!r->t_skip)
			err = print_interval(sc, r, t - r->t_start, t - r->t_last);
		r->t_last = t;
		r->t_next += sc->cfg->interval_ms / 1000.0;
	}
	if (!err && r->t_skip && t >= r->t_skip) {
		struct hwp_count *skipped;
		size_t nr_units;

		err = read_delta(r, &skipped, &nr_units);
		free(skipped);
		r->t_last = t;
		r->t_skip = 0;
	}
	if (!err)
		return 0;
	cli_lib_error("stat", err);
	return CLI_EXIT_FAILURE;
}

static int open_session(struct stat_ctx *sc, struct run *r)
{
	struct cli_scope t = cli_watch_scope(&r->watch);
	HWP_OPTS(hwp_session_opts, so, .scope = t.scope, .pid = t.pid, .cpus = t.cpus,
		 .enable_on_exec = t.enable_on_exec, .no_inherit = sc->cfg->no_inherit,
		 .aggr = sc->cfg->aggr, .cgroup = sc->cfg->cgroup);

	return hwp_session_new(sc->evl, &so, &r->s) ?: hwp_session_open(r->s);
}

/* Start the command (if any) and the counters of one run. */
static int start_run(struct stat_ctx *sc, struct run *r)
{
	struct stat_config *c = sc->cfg;
	size_t n;
	int ret, err;

	ret = score_begin_run(sc) ?:
	      cli_watch_prepare(&r->watch, &c->target, sc->run_argv, "stat");
	if (ret)
		return ret;
	err = open_session(sc, r);
	if (err == -HWP_ERR_NOTHING_COUNTED && !c->strict) {
		/* As perf does: the work a wrapper wraps is never skipped. */
		if (!sc->warned_uncounted)
			cli_warn("stat", "none of the events can be counted here: the command runs all the same, and each event says why (--strict: fail instead)");
		sc->warned_uncounted = true;
		r->uncounted = true;
	} else if (err) {
		cli_lib_error("stat", err);
		return cli_exit_for(err);
	}
	n = hwp_session_nr_events(r->s);
	if (c->interval_ms && exposition(c->format))
		r->total = calloc(n, sizeof(*r->total));
	if (grow_units(r, 1, n) ||
	    (c->interval_ms && exposition(c->format) && !r->total))
		return cli_lib_error("stat", -ENOMEM);
	/* A command counted from its exec enables itself; the rest we enable. */
	if (!r->uncounted && !cli_watch_self_enabled(&r->watch) &&
	    (err = hwp_session_enable(r->s)))
		return cli_lib_error("stat", err);
	r->t_start = r->t_last = cli_now();
	r->t_next = c->interval_ms ? r->t_start + c->interval_ms / 1000.0 : INFINITY;
	r->t_skip = c->skip_first ? r->t_start + c->skip_first : 0;
	return cli_watch_start(&r->watch);
}

/* What the run counted, after its end: the last partial interval with -I
 * (what it counted is not dropped), else the run added to the result. */
static int finish_run(struct stat_ctx *sc, struct run *r, double seconds, bool keep)
{
	struct hwp_count *delta;
	double t = cli_now(), *scores;
	size_t nr_units;
	int err, ret;

	if (r->t_skip) {
		cli_error("stat", "the run ended after %.3f s, within --skip-first %g s: nothing was counted",
			  t - r->t_start, sc->cfg->skip_first);
		return CLI_EXIT_FAILURE;
	}
	if (sc->cfg->interval_ms) {
		err = print_interval(sc, r, t - r->t_start, t - r->t_last);
		return err ? cli_lib_error("stat", err) : 0;
	}
	scores = calloc(sc->nr_scores + 1, sizeof(*scores));
	if (!scores)
		return cli_lib_error("stat", -ENOMEM);
	err = read_delta(r, &delta, &nr_units);
	/* Against the command's whole CPU time: not with part left out. */
	if (!err && !r->uncounted && !sc->cfg->no_inherit && !sc->cfg->skip_first)
		cli_watch_detached(&r->watch, delta, hwp_session_nr_events(r->s),
				   nr_units);
	/* A warm-up run's output is shown, not scored. */
	ret = keep && !err ? score_end_run(sc, scores) : 0;
	/* The rates divide by the time counted, without the skipped seconds;
	 * scores are the whole run's (-A, --per-* are refused with them). */
	if (!err && !ret && keep && sc->nr_scores)
		err = hwpriv_result_add_scored_run(sc->result, r->s, delta,
						seconds - sc->cfg->skip_first, scores,
						sc->nr_scores);
	else if (!err && !ret && keep)
		err = add_run(sc->result, r, delta, nr_units,
			      seconds - sc->cfg->skip_first);
	free(delta);
	free(scores);
	return err ? cli_lib_error("stat", err) : ret;
}

/* Say that run @name failed, and why; count it in @k. */
static void note_failed(struct stat_ctx *sc, struct run_check *k, const char *name,
			const char *why, int code)
{
	size_t len = strlen(k->failed);
	bool stops = !sc->cfg->keep_going;

	cli_error("stat", "%s: %s: the run is not counted%s", name, why,
		  stops ? "; -r stops here (--keep-going runs the rest)" : "");
	if (!k->nr_failed++)
		k->failed_code = code ? code : CLI_EXIT_FAILURE;
	if (len + strlen(name) + 8 < sizeof(k->failed))
		snprintf(k->failed + len, sizeof(k->failed) - len, "%s%s",
			 len ? ", " : "", name);
	else if (!strstr(k->failed, "..."))
		snprintf(k->failed + len, sizeof(k->failed) - len, ", ...");
}

/* A run that exited 0 after a first run that did not, and that no run has
 * confirmed: the first run is the failed one (a command that fails once,
 * on a state it makes), and this run's 0 is the status to keep to. */
static void first_failed(struct stat_ctx *sc, struct run_check *k)
{
	char why[512];

	snprintf(why, sizeof(why), "the command exited with %d; %s exited with 0",
		 k->first, sc->run_name);
	note_failed(sc, k, k->first_name, why, k->first);
	k->drop_first = k->first_kept;
	k->unconfirmed = false;
	k->first = 0;
	snprintf(k->first_name, sizeof(k->first_name), "%s", sc->run_name);
}

/* Whether the run that ended with wait status @status failed: killed by
 * a signal, or with an exit status other than the first run's, unless the
 * first run's was not 0 and this one's is (then the first failed). One run
 * alone is never failed: its counts are shown, and its status passes
 * through, as perf does. @keep: the run goes into the result. */
static bool run_failed(struct stat_ctx *sc, int status, bool keep)
{
	const struct stat_config *c = sc->cfg;
	struct run_check *k = sc->check;
	int code = hwp_workload_exit_code(status);
	char why[256];

	if (c->repeat < 2 && !c->warmup && !c->variants)
		return false;
	k->nr_runs++;
	if (WIFSIGNALED(status)) {
		const char *name = sigabbrev_np(WTERMSIG(status));

		snprintf(why, sizeof(why), "the command was killed by signal %d (SIG%s)",
			 WTERMSIG(status), name ? name : "?");
	} else if (!k->seen) {
		k->seen = true;
		k->first = code;
		k->unconfirmed = code != 0;
		k->first_kept = keep;
		snprintf(k->first_name, sizeof(k->first_name), "%s", sc->run_name);
		return false;
	} else if (code == k->first) {
		k->unconfirmed = false;
		return false;
	} else if (k->unconfirmed && code == 0) {
		first_failed(sc, k);
		return false;
	} else {
		snprintf(why, sizeof(why),
			 "the command exited with %d; %s exited with %d", code,
			 k->first_name, k->first);
	}
	note_failed(sc, k, sc->run_name, why, code);
	return true;
}

/* The first run failed after all (first_failed()): the result, which holds
 * it alone, starts over for this run. */
static int drop_first_run(struct stat_ctx *sc)
{
	struct hwp_result *fresh;
	int ret;

	sc->check->drop_first = false;
	ret = stat_new_result(sc, sc->run_argv, &fresh);
	if (ret)
		return ret;
	hwp_result_free(sc->result);
	sc->result = fresh;
	return 0;
}

bool stat_runs_failed(struct stat_ctx *sc, const struct run_check *k, int *code)
{
	if (!k->nr_failed)
		return false;
	if (sc->cfg->keep_going)
		cli_error("stat", "%ld of %ld runs failed and are not in the result: %s",
			  k->nr_failed, k->nr_runs, k->failed);
	*code = k->failed_code;
	return true;
}

/* One run; a warm-up run is not kept, nor a failed one. *code gets the
 * command's exit status (0 without a command). */
int stat_one_run(struct stat_ctx *sc, bool keep, int *code)
{
	struct run r = { .sc = sc, .watch = { .pidfd = -1 } };
	struct cli_wait_ops intervals = {
		.next = next_timer,
		.work = on_wake,
		.ctx = &r,
	};
	double seconds, user, system;
	size_t runs;
	int ret, command_code, err;

	ret = start_run(sc, &r);
	if (ret)
		goto out;
	/* The output --score reads wakes the wait: a full pipe would stop the
	 * command. */
	intervals.fd = hwp_workload_output_fd(r.watch.wl);
	ret = cli_watch_wait(&r.watch, &intervals);
	if (!r.uncounted && !cli_watch_self_enabled(&r.watch))
		hwp_session_disable(r.s);
	seconds = cli_now() - r.t_start;
	cli_watch_reap(&r.watch, &command_code);
	/* What the command wrote before it ended; not what a child it left
	 * behind writes later. */
	if (!ret && hwp_workload_output_fd(r.watch.wl) >= 0 &&
	    (err = score_drain(sc, hwp_workload_output_fd(r.watch.wl))))
		ret = cli_lib_error("stat", err);
	if (r.watch.wl && !sc->cfg->target.pid)
		seconds = hwp_workload_elapsed(r.watch.wl);
	if (ret)
		goto out;
	if (r.watch.wl && run_failed(sc, r.watch.status, keep))
		keep = false;
	if (sc->check && sc->check->drop_first && (ret = drop_first_run(sc)))
		goto out;
	runs = keep && sc->result ? hwp_result_nr_runs(sc->result) : 0;
	ret = finish_run(sc, &r, seconds, keep);
	/* The command's CPU time, when the run was kept: rows compare tests. */
	if (!ret && keep && sc->result && hwp_result_nr_runs(sc->result) > runs &&
	    !cli_watch_cpu_times(&r.watch, &user, &system) &&
	    (err = hwpriv_result_set_run_times(sc->result, user, system)))
		ret = cli_lib_error("stat", err);
	regions_collect(sc, keep && !ret);
	if (!ret)
		*code = command_code;
out:
	run_release(&r);
	return ret;
}

int stat_measure(struct stat_ctx *sc, const char *label, int *code)
{
	const struct stat_config *c = sc->cfg;
	struct run_check check = { 0 };

	sc->check = &check;
	for (long i = 0; i < c->warmup + c->repeat && !cli_stop_count &&
	     (!check.nr_failed || c->keep_going); i++) {
		bool warm = i < c->warmup;
		char name[64];
		int ret;

		snprintf(name, sizeof(name), "%srun %ld of %ld", warm ? "warm-up " : "",
			 (warm ? i : i - c->warmup) + 1, warm ? c->warmup : c->repeat);
		sc->run_name = name;
		progress_show(&sc->progress, label, warm, warm ? i : i - c->warmup,
			      warm ? c->warmup : c->repeat);
		ret = stat_one_run(sc, !warm, code);
		if (ret)
			return ret;
	}
	cli_progress_clear();
	sc->failed_stop = stat_runs_failed(sc, &check, code) && !c->keep_going;
	sc->check = NULL;
	return 0;
}

int stat_new_result(struct stat_ctx *sc, char **argv, struct hwp_result **out)
{
	struct stat_config *c = sc->cfg;
	struct hwp_result *r;
	int err = hwpriv_result_new(&r);

	*out = NULL;
	for (size_t i = 0; !err && i < c->nr_metrics; i++)
		err = hwpriv_result_add_metric(r, sc->metrics[i]);
	for (size_t i = 0; !err && i < sc->nr_scores; i++)
		err = hwpriv_result_add_score(r, hwpriv_score_name(sc->scores[i]));
	/* What the JSON keeps of the machine, hwprof doctor's facts with it,
	 * read before the runs; text has no place for it, and does not pay. */
	if (!err && (c->format == HWP_FORMAT_JSON || c->save))
		err = hwpriv_result_read_environment(r);
	if (!err)
		err = result_label(sc, argv, r);
	if (err) {
		cli_lib_error("stat", err);
		hwp_result_free(r);
		return err == -EEXIST ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
	}
	*out = r;
	return 0;
}

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

static int prepare(struct stat_ctx *sc)
{
	struct stat_config *c = sc->cfg;
	HWP_OPTS(hwp_evlist_opts, eo, .all_user = c->all_user,
		 .all_kernel = c->all_kernel);
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
	/* One write for the whole report, not one a line: stderr is unbuffered. */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	if (c->output) {
		err = hwpriv_ofile_open(c->output, &sc->out);
		if (err)
			return cli_lib_error("stat", err);
		sc->stream = hwpriv_ofile_stream(sc->out);
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
	hwpriv_result_set_exit_status(sc->result, ret ? -1 : *code);
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
		int err = 0;

		if ((sc->wrote || !ret) && !sc->write_failed)
			err = hwpriv_ofile_commit(sc->out);
		else
			hwpriv_ofile_abort(sc->out);
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

	ret = parse_options(&cfg, argc, argv);
	if (!ret && cfg.help)
		ret = cli_show_help(&cli_cmd_stat);
	else if (!ret)
		ret = count_and_report(&sc, &code);
	hwpriv_ofile_abort(sc.out);
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
	.help = stat_help,
	.run = stat_run,
};
