// SPDX-License-Identifier: MIT
/* hwprof record: sample a command, a process or CPUs into perf.data. */
#include "record-rotate.h"
#include "target.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* How often the rings are read even when none is half full. */
#define READ_INTERVAL_MS 250

static const char record_usage[] =
	"usage: hwprof record [OPTIONS] [--] COMMAND [ARGS]\n"
	"       hwprof record [OPTIONS] -p PID | -a | -C CPUS [-- COMMAND]\n"
	"\n"
	"Sample where COMMAND spends its time (or its cache misses...) into a file in\n"
	"perf's perf.data format, for 'hwprof report' or 'perf report'. With -p, -a or -C,\n"
	"sample until COMMAND ends, the process exits, or Ctrl-C.\n"
	"\n";

enum {
	OPT_CALL_GRAPH = CLI_OPT_LONG, OPT_OFF_CPU, OPT_ROTATE, OPT_OUTPUT_DIR, OPT_KEEP,
	OPT_FORMAT, OPT_ALL_CGROUPS,
};

static const struct cli_option record_options[] = {
	CLI_OPT('e', "event", "LIST",
		"events to sample (repeatable). Default: cycles, or\n"
		"cpu-clock on a machine without a hardware PMU"),
	CLI_OPT('F', "freq", "HZ",
		"samples a second, of each event on each CPU (default 4000)"),
	CLI_OPT('c', "count", "PERIOD", "one sample every PERIOD events instead"),
	CLI_OPT('g', NULL, NULL, "record call chains (frame pointers)"),
	CLI_OPT(OPT_CALL_GRAPH, "call-graph", "MODE",
		"fp (as -g), or dwarf[,SIZE]: callers of code built\n"
		"without frame pointers, from SIZE bytes of stack"),
	CLI_OPT('m', "mmap-pages", "N",
		"ring buffer pages a CPU, a power of two (default 128)"),
	CLI_OPT('i', "no-inherit", NULL,
		"do not sample the threads and children COMMAND creates"),
	CLI_OPT(OPT_OFF_CPU, "off-cpu", NULL, "where threads wait, and how long"),
	CLI_OPT(OPT_ALL_CGROUPS, "all-cgroups", NULL,
		"each sample's cgroup, and the cgroups' paths (perf's)"),
	CLI_OPT('p', "pid", "PID", "sample an existing process and all its threads"),
	CLI_OPT('a', "all-cpus", NULL, "sample every task on every CPU"),
	CLI_OPT('C', "cpu", "LIST", "sample every task on these CPUs, e.g. 0-3,6"),
	CLI_OPT('o', "output", "FILE",
		"the perf.data file (default perf.data); '-': standard\n"
		"output, in perf's pipe format"),
	CLI_OPT(OPT_ROTATE, "rotate", "SECONDS",
		"a new file every SECONDS, in --output-dir (no sample\n"
		"lost between two)"),
	CLI_OPT(OPT_OUTPUT_DIR, "output-dir", "DIR", "where --rotate writes its files"),
	CLI_OPT(OPT_KEEP, "keep", "N", "with --rotate: keep the N newest finished files"),
	CLI_OPT(OPT_FORMAT, "format", "FMT",
		"with --rotate: perf.data (default), or pprof: each\n"
		"finished file as a .pb.gz, labelled comm, pid, tid,\n"
		"host (and cgroup)"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_END,
};

static const char record_tail[] =
	"\n"
	"Exit status: COMMAND's (128+N when a signal N killed it), 127 when COMMAND is\n"
	"not found, 126 when it cannot be run, 2 for a usage error, 1 for other failures.\n"
	"\n"
	"Every option, and what the file holds: man hwprof-record\n";

struct record_config {
	struct cli_list events;
	long freq, period, mmap_pages;
	enum hwp_callchain callchain;
	long stack_size;	/* --call-graph dwarf,SIZE */
	const char *output;
	struct rotate rotate;	/* --rotate, --output-dir, --keep */
	struct cli_target target;	/* -p, -a, -C and the command */
	bool no_inherit;
	bool off_cpu;
	bool all_cgroups;
	bool output_set;	/* -o given */
	char **cmdline;		/* everything after 'hwprof', for the file */
	bool help;		/* --help: print it, and nothing else */
};

static int usage_error(const char *fmt, const char *arg)
{
	char msg[256];

	snprintf(msg, sizeof(msg), fmt, arg);
	cli_error("record", "%s", msg);
	return CLI_EXIT_USAGE;
}

static int parse_option(void *ctx, int key, char *arg)
{
	struct record_config *c = ctx;

	switch (key) {
	case 'e':
		if (cli_list_add(&c->events, arg)) {
			cli_error("record", "out of memory");
			return CLI_EXIT_FAILURE;
		}
		return 0;
	case 'F':
		if (!cli_parse_long(arg, 1, 10000000, &c->freq))
			return usage_error("-F: '%s' is not a frequency in Hz (1 or more)",
					   arg);
		return 0;
	case 'c':
		if (!cli_parse_long(arg, 1, 0x7fffffffffffffffL, &c->period))
			return usage_error("-c: '%s' is not a period (1 or more)",
					   arg);
		return 0;
	case 'g':
		c->callchain = HWP_CALLCHAIN_FP;
		c->stack_size = 0;
		return 0;
	case OPT_CALL_GRAPH:
		c->stack_size = 0;
		if (!strcmp(arg, "fp"))
			c->callchain = HWP_CALLCHAIN_FP;
		else if (!strcmp(arg, "dwarf"))
			c->callchain = HWP_CALLCHAIN_DWARF;
		else if (!strncmp(arg, "dwarf,", 6)) {
			c->callchain = HWP_CALLCHAIN_DWARF;
			if (!cli_parse_long(arg + 6, 8, 65528, &c->stack_size) ||
			    c->stack_size % 8)
				return usage_error("--call-graph: '%s' is not dwarf,SIZE with SIZE a multiple of 8 bytes up to 65528",
						   arg);
		} else
			return usage_error("--call-graph: '%s' is not fp or dwarf",
					   arg);
		return 0;
	case 'm':
		if (!cli_parse_long(arg, 1, 1L << 20, &c->mmap_pages) ||
		    (c->mmap_pages & (c->mmap_pages - 1)))
			return usage_error("-m: '%s' is not a power of two pages (1, 2, 4 ... 1048576)",
					   arg);
		return 0;
	case 'i': c->no_inherit = true; return 0;
	case OPT_OFF_CPU: c->off_cpu = true; return 0;
	case OPT_ALL_CGROUPS: c->all_cgroups = true; return 0;
	case 'p': return cli_target_set_pid(&c->target, "record", arg);
	case 'a': c->target.all_cpus = true; return 0;
	case 'C': c->target.cpus = arg; return 0;
	case 'o': c->output = arg; c->output_set = true; return 0;
	case OPT_OUTPUT_DIR: c->rotate.dir = arg; return 0;
	case OPT_ROTATE: return rotate_parse_every(&c->rotate, arg);
	case OPT_KEEP: return rotate_parse_keep(&c->rotate, arg);
	case OPT_FORMAT: return rotate_parse_format(&c->rotate, arg);
	}
	return 0;
}

static int parse_options(struct record_config *c, int argc, char **argv)
{
	int ret;

	c->output = "perf.data";
	c->cmdline = argv;
	ret = cli_parse_options(&cli_cmd_record, argc, argv, parse_option, c, &c->help);
	if (ret || c->help)
		return ret;
	if (optind < argc)
		c->target.argv = argv + optind;
	ret = cli_target_check(&c->target, "record",
			       "no command to sample: hwprof record [OPTIONS] -- COMMAND [ARGS]",
			       "-p samples one process; -a and -C sample CPUs: choose one");
	if (ret)
		return ret;
	if (c->freq && c->period) {
		cli_error("record",
			  "-F and -c exclude each other: give a frequency or a period");
		return CLI_EXIT_USAGE;
	}
	return rotate_check(&c->rotate, c->output_set);
}

/* What one recording holds; released by session_release(). */
struct session {
	struct cli_watch watch;	/* the command, or the process of -p */
	struct hwp_record *rec;
	struct rotate *rotate;	/* --rotate's files */
	bool read_failed;	/* writing the file failed: sampling stopped */
};

static void session_release(struct session *s)
{
	hwp_record_free(s->rec);
	cli_watch_release(&s->watch);
}

static int new_record(struct record_config *c, struct session *s)
{
	struct cli_scope t = cli_watch_scope(&s->watch);
	struct hwp_evlist *evl = NULL;
	/* An uncore PMU's instances apart, each named by it: samples are no
	 * row to merge, and report -e picks one by its name. */
	HWP_OPTS(hwp_evlist_opts, eo, .no_merge = true);
	int err = c->events.buf ? hwp_evlist_parse(c->events.buf, &eo, &evl) : 0;
	HWP_OPTS(hwp_record_opts, o, .freq = (uint64_t)c->freq,
		 .period = (uint64_t)c->period, .callchain = c->callchain,
		 .stack_size = (uint32_t)c->stack_size,
		 .scope = t.scope, .pid = t.pid, .cpus = t.cpus,
		 .enable_on_exec = t.enable_on_exec, .no_inherit = c->no_inherit,
		 .mmap_pages = (size_t)c->mmap_pages, .output = c->output,
		 .argv = c->cmdline, .off_cpu = c->off_cpu,
		 .all_cgroups = c->all_cgroups);

	if (!err)
		err = hwp_record_new(evl, &o, &s->rec) ?: hwp_record_open(s->rec);
	hwp_evlist_free(evl);
	return err;
}

/* The rings are read every READ_INTERVAL_MS at least, half full or not. */
static double next_read(void *arg)
{
	const struct session *s = arg;
	double read = cli_now() + READ_INTERVAL_MS / 1000.0;
	double rotate = rotate_next(s->rotate);

	return rotate < read ? rotate : read;
}

static int read_rings(void *arg)
{
	struct session *s = arg;
	int err = hwp_record_read(s->rec) ?: rotate_maybe(s->rotate, s->rec);

	if (!err)
		return 0;
	s->read_failed = true;
	return cli_lib_error("record", err);
}

/* Read the rings until the command or the process ends, or a stop. */
static int wait_and_read(struct session *s)
{
	const struct cli_wait_ops reads = {
		.fd = hwp_record_fd(s->rec),
		.next = next_read,
		.work = read_rings,
		.ctx = s,
	};

	return cli_watch_wait(&s->watch, &reads);
}

static bool stopped_early(const struct session *s)
{
	struct hwp_record_info st = { .sz = sizeof(st) };

	return !hwp_record_info(s->rec, &st) && st.stopped;
}

static void print_summary(const struct record_config *c, struct session *s)
{
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct stat sb;
	uint64_t all;

	hwp_record_info(s->rec, &st);
	/* --rotate: every file's, not the last one's alone */
	all = st.run_samples + st.run_lost;
	fprintf(stderr, "[ hwprof record: %llu samples of ",
		(unsigned long long)st.run_samples);
	hwpriv_fputs_escaped(st.event, stderr);
	fputs(" written to ", stderr);
	rotate_print_files(&c->rotate, stderr);
	if (!strcmp(c->output, "-")) {
		fputs("standard output (perf's pipe format) ]\n", stderr);
		goto told;
	}
	hwpriv_fputs_escaped(c->output, stderr);
	/* not a regular file (a FIFO, /dev/null): the library wrote a stream */
	if (!stat(c->output, &sb) && S_ISREG(sb.st_mode))
		fprintf(stderr, " (%.3f MB)", (double)sb.st_size / 1e6);
	else
		fputs(" (perf's pipe format)", stderr);
	fprintf(stderr, " ]\n");
told:
	if (st.run_lost)
		fprintf(stderr, "hwprof record: lost %llu samples (%.2f%%): the ring buffers were full; enlarge them with -m or sample less often with -F\n",
			(unsigned long long)st.run_lost,
			all ? 100.0 * (double)st.run_lost / (double)all : 0);
	if (st.run_throttled)
		fprintf(stderr, "hwprof record: sample rate throttled %llu times: the kernel caps it at %u Hz (kernel.perf_event_max_sample_rate)\n",
			(unsigned long long)st.run_throttled, st.max_sample_rate);
	if (st.stopped) {
		if (!s->read_failed)	/* it failed at the end: not said yet */
			cli_error("record", "%s", st.stopped);
		cli_warn("record", "sampling stopped early, when writing failed; the file holds the %llu samples written before, and reads",
			 (unsigned long long)st.samples);
	}
}

static int start(struct record_config *c, struct session *s)
{
	struct hwp_record_info st = { .sz = sizeof(st) };
	int err;

	err = new_record(c, s);
	if (err) {
		cli_lib_error("record", err);
		return cli_exit_for(err);
	}
	hwp_record_info(s->rec, &st);
	if (st.fallback) {
		fputs("hwprof record: ", stderr);
		hwpriv_fputs_escaped(st.fallback, stderr);
		fputc('\n', stderr);
	}
	/* A command sampled from its exec enables itself; the rest we enable. */
	if (!cli_watch_self_enabled(&s->watch) && (err = hwp_record_enable(s->rec)))
		return cli_lib_error("record", err);
	return cli_watch_start(&s->watch);
}

/* *code gets the command's exit status (0 without a command). */
static int record(struct record_config *c, int *code)
{
	struct session s = { .watch = { .pidfd = -1 } };
	int ret, err;

	s.rotate = &c->rotate;
	ret = cli_watch_prepare(&s.watch, &c->target, c->target.argv, "record");
	if (!ret && c->rotate.every > 0 && !(ret = rotate_begin(&c->rotate)))
		c->output = c->rotate.path;
	if (ret)
		goto out;
	cli_install_stop_signals();
	ret = start(c, &s);
	if (ret)
		goto out;
	ret = wait_and_read(&s);
	if (ret && s.read_failed) {
		/* Writing failed (a full disk): sampling stops, but the command
		 * is the user's work and finishes it. */
		const struct cli_wait_ops nothing = { .fd = -1 };

		hwp_record_disable(s.rec);
		cli_watch_wait(&s.watch, &nothing);
	} else if (ret && s.watch.wl) {
		hwp_workload_kill(s.watch.wl, SIGTERM);
	}
	cli_watch_reap(&s.watch, code);
	if (ret && !s.read_failed)
		goto out;
	/* The file is completed whatever stopped us, so that it can be read;
	 * after a failed write, with what was complete. */
	err = hwp_record_finish(s.rec);
	if (err) {
		ret = cli_lib_error("record", err);
		goto out;
	}
	rotate_end(&c->rotate);
	if (c->rotate.every > 0)
		c->output = rotate_last(&c->rotate) ?: "(out of memory)";
	print_summary(c, &s);
	if (ret || stopped_early(&s))
		ret = CLI_EXIT_FAILURE;
out:
	session_release(&s);
	return ret;
}

static int record_run(int argc, char **argv)
{
	struct record_config cfg = { 0 };
	int ret, code = 0;

	ret = parse_options(&cfg, argc, argv);
	if (!ret && cfg.help)
		ret = cli_show_help(&cli_cmd_record);
	else if (!ret)
		ret = record(&cfg, &code);
	free(cfg.events.buf);
	rotate_release(&cfg.rotate);
	return ret ?: code;
}

const struct cli_cmd cli_cmd_record = {
	.name = "record",
	.summary = "Sample a command into perf.data (perf record), for hwprof report",
	.usage = record_usage,
	.options = record_options,
	.tail = record_tail,
	.help_width = 27,
	.flags = CLI_STOP_AT_COMMAND,
	.run = record_run,
};
