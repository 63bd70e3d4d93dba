// SPDX-License-Identifier: MIT
/* hwprof report: the hottest instructions, functions, lines or modules of a
 * perf.data file (hwprof's or perf's). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_TOP 20

static const char report_usage[] =
	"usage: hwprof report [-i FILE] [--sort KEY[,KEY]] [--top N] [--format FMT]\n"
	"                     [--annotate SYMBOL] [OPTIONS]\n"
	"\n"
	"Report where the samples of a perf.data file (from hwprof record or perf record)\n"
	"landed: the hottest instructions, functions, source lines or modules, with the\n"
	"callers of each when the samples have call chains (record -g).\n"
	"\n";

enum {
	OPT_ANNOTATE = CLI_OPT_LONG, OPT_KALLSYMS, OPT_VMLINUX, OPT_NO_KALLSYMS_CACHE,
	OPT_NO_DEBUG_CACHE, OPT_NO_DEMANGLE, OPT_INLINE, OPT_NO_INLINE, OPT_COMMS,
	OPT_PIDS, OPT_TIDS, OPT_DSOS, OPT_THREADS,
};

static const struct cli_option report_options[] = {
	CLI_OPT('i', "input", "FILE",
		"the perf.data file (default perf.data); '-': standard input"),
	CLI_OPT('s', "sort", "KEY",
		"sym: by function (default), rip: by instruction, with its\n"
		"source line, bytes and disassembly, line: by source line,\n"
		"dso: by module, cpu, comm or pid; comm,sym combine"),
	CLI_OPT('n', "top", "N", "the N hottest rows (default 20; 0: all)"),
	CLI_OPT('f', "format", "FMT",
		"text (default), csv, json, folded, speedscope, pprof, html"),
	CLI_OPT('x', "field-separator", "S", "csv with this separator"),
	CLI_OPT(OPT_ANNOTATE, "annotate", "SYMBOL",
		"the instructions of function SYMBOL, with its source lines"),
	CLI_OPT('e', "event", "NAME", "the event to report, in a file of several"),
	CLI_OPT('C', "cpu", "LIST", "only the samples taken on these CPUs, e.g. 0-3,6"),
	/* perf report's names, and the singular that its prefix match takes */
	CLI_OPT(OPT_COMMS, "comm", "NAME[,NAME]",
		"only the samples of threads of these names; also --pid,\n"
		"--tid, --dso"),
	CLI_OPT(OPT_INLINE, "inline", NULL,
		"functions inlined at a frame as frames of their own"),
	CLI_OPT('o', "output", "FILE", "write to FILE instead of standard output"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_ALSO(OPT_COMMS, "comms", "NAME[,NAME]"),
	CLI_OPT_ALSO(OPT_PIDS, "pid", "PID[,PID]"),
	CLI_OPT_ALSO(OPT_PIDS, "pids", "PID[,PID]"),
	CLI_OPT_ALSO(OPT_TIDS, "tid", "TID[,TID]"),
	CLI_OPT_ALSO(OPT_TIDS, "tids", "TID[,TID]"),
	CLI_OPT_ALSO(OPT_DSOS, "dso", "DSO[,DSO]"),
	CLI_OPT_ALSO(OPT_DSOS, "dsos", "DSO[,DSO]"),
	CLI_OPT_ALSO(OPT_KALLSYMS, "kallsyms", "FILE"),
	CLI_OPT_ALSO(OPT_VMLINUX, "vmlinux", "FILE"),
	CLI_OPT_ALSO(OPT_NO_KALLSYMS_CACHE, "no-kallsyms-cache", NULL),
	CLI_OPT_ALSO(OPT_NO_DEBUG_CACHE, "no-debug-cache", NULL),
	CLI_OPT_ALSO(OPT_NO_DEMANGLE, "no-demangle", NULL),
	CLI_OPT_ALSO(OPT_NO_INLINE, "no-inline", NULL),
	CLI_OPT_ALSO(OPT_THREADS, "threads", "N"),
	CLI_OPT_END,
};

static const char report_tail[] =
	"\n"
	"Also: --kallsyms, --vmlinux, --no-demangle, --no-inline, --threads, perf's\n"
	"--comms, --pids, --tids, --dsos, and --no-kallsyms-cache, --no-debug-cache (not\n"
	"the caches kept in $XDG_CACHE_HOME/hwprof).\n"
	"\n"
	"Percentages are of the samples' summed periods, as perf report's Overhead.\n"
	"\n"
	"Exit status: 0, 2 for a usage error, 1 for other failures (a file that is not\n"
	"perf.data, a function that has no samples).\n"
	"\n"
	"Every option, and what each column means: man hwprof-report\n";

struct report_config {
	const char *input;
	const char *output;
	const char *event;
	const char *annotate;
	const char *kallsyms;
	const char *vmlinux;
	bool no_demangle;
	bool no_kallsyms_cache;
	bool no_debug_cache;
	bool inline_frames;
	const char *comms, *pids, *tids, *dsos;
	const char *cpus;
	long threads;
	struct hwp_write_opts o;
	bool help;		/* --help: print it, and nothing else */
};

static int parse_option(void *ctx, int key, char *arg)
{
	struct report_config *c = ctx;
	int ret;

	if (cli_output_option("report", key, arg, &c->o, CLI_ALL_FORMATS, &ret))
		return ret;
	switch (key) {
	case 'i': c->input = arg; return 0;
	case 'o': c->output = arg; return 0;
	case 'e': c->event = arg; return 0;
	case OPT_ANNOTATE: c->annotate = arg; return 0;
	case OPT_KALLSYMS: c->kallsyms = arg; return 0;
	case OPT_VMLINUX: c->vmlinux = arg; return 0;
	case OPT_NO_KALLSYMS_CACHE: c->no_kallsyms_cache = true; return 0;
	case OPT_NO_DEBUG_CACHE: c->no_debug_cache = true; return 0;
	case OPT_NO_DEMANGLE: c->no_demangle = true; return 0;
	case OPT_INLINE: c->inline_frames = true; return 0;
	case OPT_NO_INLINE: c->inline_frames = false; return 0;
	case OPT_COMMS: c->comms = arg; return 0;
	case OPT_PIDS: c->pids = arg; return 0;
	case OPT_TIDS: c->tids = arg; return 0;
	case OPT_DSOS: c->dsos = arg; return 0;
	case 'C': c->cpus = arg; return 0;
	case OPT_THREADS:
		if (cli_parse_long(arg, 0, 1024, &c->threads))
			return 0;
		cli_error("report", "--threads wants a number of threads from 0 to 1024 (0: as many as help), not '%s'",
			  arg);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

static int parse_options(struct report_config *c, int argc, char **argv)
{
	int ret;

	c->input = "perf.data";
	c->output = "-";
	c->o = (struct hwp_write_opts){ .sz = sizeof(c->o), .top = DEFAULT_TOP };
	ret = cli_parse_options(&cli_cmd_report, argc, argv, parse_option, c, &c->help);
	if (ret || c->help)
		return ret;
	if (optind < argc) {
		cli_error("report", "unexpected argument '%s' (the file goes after -i)",
			  argv[optind]);
		return CLI_EXIT_USAGE;
	}
	if (c->annotate && c->o.format != HWP_FORMAT_TEXT) {
		cli_error("report", "--annotate writes text only");
		return CLI_EXIT_USAGE;
	}
	c->o.annotate = c->annotate;
	if (c->o.format == HWP_FORMAT_PPROF && !strcmp(c->output, "-") &&
	    isatty(STDOUT_FILENO)) {
		cli_error("report", "pprof's format is binary (gzip), not for a terminal: write it to a file with -o FILE.pb.gz, or pipe it");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* A file recorded on another host or kernel: said once, before the report. */
static void warn_other_host(const struct hwp_profile *p)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };

	if (!hwp_profile_info(p, &in) && in.host_warning)
		cli_warn("report", "%s", in.host_warning);
}

struct report_out {
	struct hwp_profile *p;
	const struct hwp_write_opts *o;
};

static int write_report(void *ctx, FILE *f)
{
	const struct report_out *out = ctx;

	return hwp_profile_write(out->p, f, out->o);
}

static int report(struct report_config *c)
{
	HWP_OPTS(hwp_profile_opts, po, .event = c->event, .kallsyms = c->kallsyms,
		 .vmlinux = c->vmlinux, .no_demangle = c->no_demangle, .comms = c->comms,
		 .pids = c->pids, .tids = c->tids, .dsos = c->dsos, .cpus = c->cpus,
		 .inline_frames = c->inline_frames,
		 .no_kallsyms_cache = c->no_kallsyms_cache,
		 .no_debug_cache = c->no_debug_cache,
		 .threads = (unsigned int)c->threads);
	struct hwp_profile *p = NULL;
	int err;

	err = hwp_profile_load(c->input, &po, &p);
	if (!err)
		warn_other_host(p);
	if (!err) {
		struct report_out out = { p, &c->o };

		err = cli_write_file(c->output, write_report, &out);
	}
	if (err)
		cli_lib_error("report", err);
	hwp_profile_free(p);
	return err ? cli_exit_for(err) : 0;
}

static int report_run(int argc, char **argv)
{
	struct report_config cfg = { 0 };
	int ret = parse_options(&cfg, argc, argv);

	if (!ret && cfg.help)
		return cli_show_help(&cli_cmd_report);
	return ret ?: report(&cfg);
}

const struct cli_cmd cli_cmd_report = {
	.name = "report",
	.summary = "Report the hottest instructions, functions, lines of perf.data",
	.usage = report_usage,
	.options = report_options,
	.tail = report_tail,
	.help_width = 27,
	.flags = CLI_SAY_MISSING_VALUE,
	.run = report_run,
};
