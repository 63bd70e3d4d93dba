// SPDX-License-Identifier: MIT
/* hwprof stat: count events while a command runs, as perf stat does. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_EVENTS \
	"task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

static const char stat_help[] =
	"usage: hwprof stat [OPTIONS] [--] COMMAND [ARGS]\n"
	"       hwprof stat [OPTIONS] -p PID [-- COMMAND]\n"
	"       hwprof stat [OPTIONS] -a | -C CPUS [-- COMMAND]\n"
	"\n"
	"Count events while COMMAND runs, as perf stat does, and derive metrics from them.\n"
	"With -p, -a or -C, count until COMMAND ends, the process exits, or Ctrl-C.\n"
	"\n"
	"Events:\n"
	"  -e, --event LIST         events to count (repeatable), e.g.\n"
	"                           cycles,{instructions,LLC-load-misses},cpu-migrations:u\n"
	"                           braces group events; :u :k :h :p :P :H :G :I :D modify them.\n"
	"                           Default: " DEFAULT_EVENTS "\n"
	"  -M, --metric NAME=EXPR   derive a metric (repeatable): + - * / ( ), numbers, event\n"
	"                           names and 'seconds', e.g. 'mpm=cache-misses / cpu-migrations'\n"
	"      --all-user           count user space only, as if every event had :u\n"
	"      --all-kernel         count the kernel only, as if every event had :k\n"
	"  -i, --no-inherit         do not count the threads and children COMMAND creates\n"
	"\n"
	"Targets:\n"
	"  -p, --pid PID            count an existing process and all its threads\n"
	"  -a, --all-cpus           count every task on every CPU (needs root, CAP_PERFMON\n"
	"                           or kernel.perf_event_paranoid <= 0)\n"
	"  -C, --cpu LIST           count every task on these CPUs, e.g. 0-3,6\n"
	"      --pin CPUS           run COMMAND pinned to these CPUs, as taskset does\n"
	"\n"
	"Runs and output:\n"
	"  -r, --repeat N           run COMMAND N times; show means and, as perf does, the\n"
	"                           relative standard error of the mean ( +- x% )\n"
	"  -I, --interval-print MS  print the counts of every MS milliseconds (at least 10)\n"
	"  -x, --field-separator S  CSV, in perf stat's field order: value, unit, event,\n"
	"                           [+- %,] run time, % running, metric value, metric name\n"
	"      --json               JSON; the schema is in README.md\n"
	"  -o, --output FILE        write the report to FILE (never half-written) instead of\n"
	"                           standard error; '-' is standard output\n"
	"      --no-big-num         no thousands separators\n"
	"  -h, --help               this text\n"
	"\n"
	"Built-in metrics appear when their events were counted: LLC-misses/migration, IPC,\n"
	"LLC-MPKI, CPUs-utilized, migrations/s, cs/s, faults/s, cache- and branch-miss-rate.\n"
	"An event this machine cannot count shows as <not supported> with the reason, and\n"
	"a metric without value as <undefined>, never as 0.\n"
	"\n"
	"Exit status: COMMAND's (128+N when a signal N killed it), 127 when COMMAND is\n"
	"not found, 126 when it cannot be run, 2 for a usage error, 1 for other failures.\n";

struct stat_config {
	struct cli_list events;
	const char **metrics;
	size_t nr_metrics;
	long repeat;
	long interval_ms;
	const char *sep;
	bool json;
	const char *output;
	pid_t pid;
	bool all_cpus;
	const char *cpus;
	const char *pin;
	bool no_big_num;
	bool all_user;
	bool all_kernel;
	bool no_inherit;
	char **argv;
};

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
	{ "output", required_argument, NULL, 'o' },
	{ "no-big-num", no_argument, NULL, 'B' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_options(struct stat_config *c, int argc, char **argv)
{
	int opt;
	long v;

	c->repeat = 1;
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+e:M:ip:aC:r:I:x:o:h", stat_options, NULL)) != -1) {
		switch (opt) {
		case 'e':
			if (cli_list_add(&c->events, optarg))
				return CLI_EXIT_FAILURE;
			break;
		case 'M': {
			const char **m = realloc(c->metrics, (c->nr_metrics + 1) * sizeof(*m));

			if (!m)
				return CLI_EXIT_FAILURE;
			c->metrics = m;
			m[c->nr_metrics++] = optarg;
			break;
		}
		case 'U': c->all_user = true; break;
		case 'K': c->all_kernel = true; break;
		case 'i': c->no_inherit = true; break;
		case 'p':
			if (!cli_parse_long(optarg, 1, 0x7fffffff, &v)) {
				cli_error("stat", "-p: '%s' is not a process id", optarg);
				return CLI_EXIT_USAGE;
			}
			c->pid = (pid_t)v;
			break;
		case 'a': c->all_cpus = true; break;
		case 'C': c->cpus = optarg; break;
		case 'P': c->pin = optarg; break;
		case 'r':
			if (!cli_parse_long(optarg, 1, 1000000, &c->repeat)) {
				cli_error("stat", "-r: '%s' is not a number of runs (1 or more)", optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'I':
			if (!cli_parse_long(optarg, 10, 3600000, &c->interval_ms)) {
				cli_error("stat", "-I: '%s' is not an interval in milliseconds (10 or more)",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'x': c->sep = optarg; break;
		case 'J': c->json = true; break;
		case 'o': c->output = optarg; break;
		case 'B': c->no_big_num = true; break;
		case 'h':
			cli_help(&cli_cmd_stat, stdout);
			return -1;
		default:
			cli_error("stat", "unknown option '%s'; 'hwprof stat --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc)
		c->argv = argv + optind;
	if (!c->argv && !c->pid && !c->all_cpus && !c->cpus) {
		cli_error("stat", "no command to measure: hwprof stat [OPTIONS] -- COMMAND [ARGS]");
		return CLI_EXIT_USAGE;
	}
	if (c->pid && (c->all_cpus || c->cpus)) {
		cli_error("stat", "-p counts one process; -a and -C count CPUs: choose one");
		return CLI_EXIT_USAGE;
	}
	if (c->interval_ms && c->repeat > 1) {
		cli_error("stat", "-I and -r cannot be combined");
		return CLI_EXIT_USAGE;
	}
	if (c->json && c->sep) {
		cli_error("stat", "--json and -x cannot be combined");
		return CLI_EXIT_USAGE;
	}
	if (c->sep && !*c->sep) {
		cli_error("stat", "-x: the separator is empty");
		return CLI_EXIT_USAGE;
	}
	if (c->pin && !c->argv) {
		cli_error("stat", "--pin needs a command to pin");
		return CLI_EXIT_USAGE;
	}
	if (c->repeat > 1 && !c->argv) {
		cli_error("stat", "-r repeats a command; give one after --");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* Everything one run holds; released by run_release(). */
struct run {
	struct hwp_workload *wl;
	struct hwp_session *s;
	int target_pidfd;	/* -p without a command: the process to outlive */
	struct hwp_count *counts;
	struct hwp_count *prev;
	double t_start;
	double t_last;		/* the end of the last interval printed */
};

static void run_release(struct run *r)
{
	hwp_session_free(r->s);
	hwp_workload_free(r->wl);
	if (r->target_pidfd >= 0)
		close(r->target_pidfd);
	free(r->counts);
	free(r->prev);
	memset(r, 0, sizeof(*r));
	r->target_pidfd = -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct stat_ctx {
	struct stat_config *cfg;
	struct hwp_evlist *evl;
	struct hwp_metric **metrics;
	struct hwp_result *result;
	struct hwp_ofile *out;
	struct hwp_write_opts wopts;
	FILE *stream;		/* where the report goes: -o's file, or stderr */
	bool interval_header_done;
	bool wrote;		/* something is in the stream */
};

static int print_interval(struct stat_ctx *sc, struct run *r, double t, double dt)
{
	size_t n = hwp_session_nr_events(r->s);
	struct hwp_count *delta = calloc(n, sizeof(*delta));
	struct hwp_result *res = NULL;
	struct hwp_write_opts o = sc->wopts;
	int err;

	if (!delta)
		return -ENOMEM;
	err = hwp_session_read(r->s, r->counts, n);
	if (err)
		goto out;
	for (size_t i = 0; i < n; i++) {
		delta[i].value = r->counts[i].value - r->prev[i].value;
		delta[i].time_enabled = r->counts[i].time_enabled - r->prev[i].time_enabled;
		delta[i].time_running = r->counts[i].time_running - r->prev[i].time_running;
	}
	memcpy(r->prev, r->counts, n * sizeof(*delta));
	err = hwp_result_new(&res);
	for (size_t i = 0; !err && i < sc->cfg->nr_metrics; i++)
		err = hwp_result_add_metric(res, sc->metrics[i]);
	if (!err)
		err = hwp_result_add_run(res, r->s, delta, dt);
	o.interval = t;
	o.no_header = sc->interval_header_done;
	if (!err)
		err = hwp_result_write(res, sc->stream, &o);
	sc->interval_header_done = true;
	sc->wrote = true;
out:
	hwp_result_free(res);
	free(delta);
	return err;
}

/* Wait for the end of the run, printing intervals on the way. */
static int wait_run(struct stat_ctx *sc, struct run *r)
{
	int fd = r->wl && !sc->cfg->pid ? hwp_workload_fd(r->wl) : r->target_pidfd;
	struct pollfd pfd[2];
	nfds_t nfds = 0;
	double next = r->t_start + sc->cfg->interval_ms / 1000.0;
	sigset_t none;

	sigemptyset(&none);
	if (fd >= 0)
		pfd[nfds++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	if (r->wl && sc->cfg->pid)
		pfd[nfds++] = (struct pollfd){ .fd = hwp_workload_fd(r->wl), .events = POLLIN };
	for (;;) {
		struct timespec ts, *tsp = NULL;
		int ret;

		if (sc->cfg->interval_ms) {
			double left = next - now();

			if (left < 0)
				left = 0;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
			tsp = &ts;
		}
		ret = ppoll(nfds ? pfd : NULL, nfds, tsp, &none);
		if (ret > 0)
			return 0;
		if (ret == 0) {
			double t = now();
			int err = print_interval(sc, r, t - r->t_start, t - r->t_last);

			if (err)
				return err;
			r->t_last = t;
			next += sc->cfg->interval_ms / 1000.0;
			continue;
		}
		if (errno != EINTR)
			return -errno;
		if (cli_stop_count) {
			if (!r->wl || sc->cfg->pid)
				return 0;	/* counting a pid or CPUs: Ctrl-C ends it */
			cli_forward_stop(r->wl);
		}
	}
}

static int open_session(struct stat_ctx *sc, struct run *r)
{
	struct stat_config *c = sc->cfg;
	HWP_OPTS(hwp_session_opts, so, .no_inherit = c->no_inherit);

	if (c->all_cpus || c->cpus) {
		so.scope = HWP_SCOPE_CPUS;
		so.cpus = c->cpus;
	} else if (c->pid) {
		so.scope = HWP_SCOPE_PROCESS;
		so.pid = c->pid;
	} else {
		so.scope = HWP_SCOPE_THREAD;
		so.pid = hwp_workload_pid(r->wl);
		so.enable_on_exec = true;
	}
	return hwp_session_new(sc->evl, &so, &r->s) ?: hwp_session_open(r->s);
}

/* One run. Returns the command's exit status (or 0), or -1 after printing
 * a fatal error, with *fatal_exit set to the exit status to use. */
static int one_run(struct stat_ctx *sc, int *fatal_exit)
{
	struct stat_config *c = sc->cfg;
	HWP_OPTS(hwp_workload_opts, wo, .cpus = c->pin);
	struct run r = { .target_pidfd = -1 };
	bool self_enabled;
	double seconds;
	int status = 0, err, code = 0;
	size_t n;

	if (c->argv) {
		err = hwp_workload_new(c->argv, &wo, &r.wl);
		if (err) {
			cli_lib_error("stat", err);
			*fatal_exit = cli_exit_for_start(err);
			goto fatal;
		}
	}
	if (c->pid && !c->argv) {
		r.target_pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
		if (r.target_pidfd < 0) {
			cli_error("stat", "-p %d: %s", (int)c->pid,
				  errno == ESRCH ? "no such process" : strerror(errno));
			*fatal_exit = CLI_EXIT_FAILURE;
			goto fatal;
		}
	}
	err = open_session(sc, &r);
	if (err) {
		cli_lib_error("stat", err);
		*fatal_exit = cli_exit_for(err);
		goto fatal;
	}
	n = hwp_session_nr_events(r.s);
	r.counts = calloc(n, sizeof(*r.counts));
	r.prev = calloc(n, sizeof(*r.prev));
	if (!r.counts || !r.prev) {
		cli_error("stat", "out of memory");
		*fatal_exit = CLI_EXIT_FAILURE;
		goto fatal;
	}
	/* A command counted from its exec enables itself; the rest we enable. */
	self_enabled = r.wl && !c->pid && !c->all_cpus && !c->cpus;
	if (!self_enabled && (err = hwp_session_enable(r.s))) {
		cli_lib_error("stat", err);
		*fatal_exit = CLI_EXIT_FAILURE;
		goto fatal;
	}
	r.t_start = r.t_last = now();
	if (r.wl) {
		err = hwp_workload_start(r.wl);
		if (err) {
			cli_lib_error("stat", err);
			hwp_workload_wait(r.wl, &status, NULL);
			*fatal_exit = hwp_workload_exit_code(status);
			goto fatal;
		}
	}
	err = wait_run(sc, &r);
	if (!self_enabled)
		hwp_session_disable(r.s);
	seconds = now() - r.t_start;
	if (r.wl) {
		/* Ctrl-C while counting a pid or CPUs: the command goes too. */
		if (cli_stop_count && (c->pid || c->all_cpus || c->cpus))
			hwp_workload_kill(r.wl, SIGTERM);
		hwp_workload_wait(r.wl, &status, NULL);
		code = hwp_workload_exit_code(status);
		if (!c->pid)
			seconds = hwp_workload_elapsed(r.wl);
	}
	if (err) {
		cli_error("stat", "waiting for the command failed: %s", strerror(-err));
		*fatal_exit = CLI_EXIT_FAILURE;
		goto fatal;
	}
	if (c->interval_ms) {
		/* The last, partial interval: what it counted is not dropped. */
		double t = now();

		err = print_interval(sc, &r, t - r.t_start, t - r.t_last);
	} else {
		err = hwp_session_read(r.s, r.counts, n);
		if (!err)
			err = hwp_result_add_run(sc->result, r.s, r.counts, seconds);
	}
	if (err) {
		cli_lib_error("stat", err);
		*fatal_exit = CLI_EXIT_FAILURE;
		goto fatal;
	}
	run_release(&r);
	return code;
fatal:
	run_release(&r);
	return -1;
}

static int prepare(struct stat_ctx *sc)
{
	struct stat_config *c = sc->cfg;
	HWP_OPTS(hwp_evlist_opts, eo, .all_user = c->all_user, .all_kernel = c->all_kernel);
	int err;

	err = hwp_evlist_parse(c->events.buf ? c->events.buf : DEFAULT_EVENTS, &eo, &sc->evl);
	if (err) {
		cli_lib_error("stat", err);
		return cli_exit_for(err);
	}
	sc->metrics = calloc(c->nr_metrics + 1, sizeof(*sc->metrics));
	err = hwp_result_new(&sc->result);
	if (!sc->metrics || err) {
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < c->nr_metrics; i++) {
		err = hwp_metric_parse(c->metrics[i], &sc->metrics[i]);
		if (!err)
			err = hwp_metric_check(sc->metrics[i], sc->evl);
		if (!err)
			err = hwp_result_add_metric(sc->result, sc->metrics[i]);
		if (err) {
			cli_lib_error("stat", err);
			return err == -EEXIST ? CLI_EXIT_USAGE : cli_exit_for(err);
		}
	}
	if (c->argv && (err = hwp_result_set_command(sc->result, c->argv))) {
		cli_lib_error("stat", err);
		return CLI_EXIT_FAILURE;
	}
	if (c->pid || c->all_cpus || c->cpus) {
		char target[256];

		if (c->pid)
			snprintf(target, sizeof(target), "process id %d", (int)c->pid);
		else if (c->cpus)
			snprintf(target, sizeof(target), "CPUs %s", c->cpus);
		else
			snprintf(target, sizeof(target), "system wide");
		if ((err = hwp_result_set_target(sc->result, target))) {
			cli_lib_error("stat", err);
			return CLI_EXIT_FAILURE;
		}
	}
	sc->wopts = (struct hwp_write_opts){
		.sz = sizeof(sc->wopts),
		.format = c->json ? HWP_FORMAT_JSON : c->sep ? HWP_FORMAT_CSV : HWP_FORMAT_TEXT,
		.separator = c->sep,
		.no_big_num = c->no_big_num,
	};
	/* Open the output before running, so a bad path fails before a long run. */
	sc->stream = stderr;
	/* One write for the whole report, not one a line: stderr is unbuffered. */
	setvbuf(stderr, NULL, _IOFBF, 1 << 16);
	if (c->output) {
		err = hwp_ofile_open(c->output, &sc->out);
		if (err) {
			cli_lib_error("stat", err);
			return CLI_EXIT_FAILURE;
		}
		sc->stream = hwp_ofile_stream(sc->out);
	}
	return 0;
}

static int stat_run(int argc, char **argv)
{
	struct stat_config cfg = { 0 };
	struct stat_ctx sc = { .cfg = &cfg };
	int ret, code = 0, fatal = 0;

	ret = parse_options(&cfg, argc, argv);
	if (ret)
		goto out;
	ret = prepare(&sc);
	if (ret)
		goto out;
	cli_install_stop_signals();
	for (long i = 0; i < cfg.repeat && !cli_stop_count; i++) {
		code = one_run(&sc, &fatal);
		if (code < 0) {
			ret = fatal;
			break;
		}
	}
	/* What was measured is written, even after a failed later run. */
	if (!cfg.interval_ms && hwp_result_nr_runs(sc.result)) {
		int err;

		hwp_result_set_exit_status(sc.result, code >= 0 ? code : -1);
		err = hwp_result_write(sc.result, sc.stream, &sc.wopts);
		if (err) {
			cli_lib_error("stat", err);
			ret = ret ? ret : CLI_EXIT_FAILURE;
		}
		sc.wrote = true;
	}
	if (sc.out) {
		int err = 0;

		if (sc.wrote || !ret)
			err = hwp_ofile_commit(sc.out);
		else
			hwp_ofile_abort(sc.out);
		if (err) {
			cli_lib_error("stat", err);
			ret = ret ? ret : CLI_EXIT_FAILURE;
		}
		sc.out = NULL;
	} else if (fflush(sc.stream) || ferror(sc.stream)) {
		cli_error("stat", "writing the report failed: %s", strerror(errno));
		ret = ret ? ret : CLI_EXIT_FAILURE;
	}
	if (!ret)
		ret = code;
out:
	if (ret == -1)	/* --help */
		ret = cli_flush_stdout("stat");
	hwp_ofile_abort(sc.out);
	for (size_t i = 0; sc.metrics && i < cfg.nr_metrics; i++)
		hwp_metric_free(sc.metrics[i]);
	free(sc.metrics);
	hwp_result_free(sc.result);
	hwp_evlist_free(sc.evl);
	free(cfg.events.buf);
	free(cfg.metrics);
	return ret;
}

const struct cli_cmd cli_cmd_stat = {
	.name = "stat",
	.summary = "Count events while a command runs (perf stat), with metrics",
	.help = stat_help,
	.run = stat_run,
};
