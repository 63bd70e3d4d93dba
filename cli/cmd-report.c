// SPDX-License-Identifier: MIT
/* hwprof report: the hottest instructions, functions, lines or modules of a
 * perf.data file (hwprof's or perf's). */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_TOP 20

static const char report_help[] =
	"usage: hwprof report [-i FILE] [--sort KEY[,KEY]] [--top N] [--format FMT]\n"
	"                     [--annotate SYMBOL] [OPTIONS]\n"
	"\n"
	"Report where the samples of a perf.data file (from hwprof record or perf record)\n"
	"landed: the hottest instructions, functions, source lines or modules, with the\n"
	"callers of each when the samples have call chains (record -g).\n"
	"\n"
	"  -i, --input FILE         the perf.data file (default perf.data); '-': standard input\n"
	"  -s, --sort KEY           sym: by function (default), rip: by instruction, with its\n"
	"                           source line, bytes and disassembly, line: by source line,\n"
	"                           dso: by module, cpu, comm or pid; comm,sym combine\n"
	"  -n, --top N              the N hottest rows (default 20; 0: all)\n"
	"  -f, --format FMT         text (default), csv, json, folded, speedscope, pprof, html\n"
	"  -x, --field-separator S  csv with this separator\n"
	"      --annotate SYMBOL    the instructions of function SYMBOL, with its source lines\n"
	"  -e, --event NAME         the event to report, in a file of several\n"
	"  -C, --cpu LIST           only the samples taken on these CPUs, e.g. 0-3,6\n"
	"      --comm NAME[,NAME]   only the samples of threads of these names; also --pid,\n"
	"                           --tid, --dso\n"
	"      --inline             functions inlined at a frame as frames of their own\n"
	"  -o, --output FILE        write to FILE instead of standard output\n"
	"  -h, --help               this text\n"
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

static const struct option report_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "sort", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "annotate", required_argument, NULL, 'A' },
	{ "event", required_argument, NULL, 'e' },
	{ "kallsyms", required_argument, NULL, 'K' },
	{ "vmlinux", required_argument, NULL, 'V' },
	{ "no-kallsyms-cache", no_argument, NULL, 'k' },
	{ "no-debug-cache", no_argument, NULL, 'G' },
	{ "no-demangle", no_argument, NULL, 'D' },
	{ "inline", no_argument, NULL, 'I' },
	{ "no-inline", no_argument, NULL, 'N' },
	/* perf report's names, and the singular that its prefix match takes */
	{ "comms", required_argument, NULL, 'c' },
	{ "comm", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, 'P' },
	{ "pids", required_argument, NULL, 'P' },
	{ "tid", required_argument, NULL, 'T' },
	{ "tids", required_argument, NULL, 'T' },
	{ "dsos", required_argument, NULL, 'd' },
	{ "dso", required_argument, NULL, 'd' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "threads", required_argument, NULL, 'j' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_option(struct report_config *c, int opt)
{
	int ret;

	if (cli_output_option("report", opt, optarg, &c->o, CLI_ALL_FORMATS, &ret))
		return ret;
	switch (opt) {
	case 'i': c->input = optarg; return 0;
	case 'o': c->output = optarg; return 0;
	case 'e': c->event = optarg; return 0;
	case 'A': c->annotate = optarg; return 0;
	case 'K': c->kallsyms = optarg; return 0;
	case 'V': c->vmlinux = optarg; return 0;
	case 'k': c->no_kallsyms_cache = true; return 0;
	case 'G': c->no_debug_cache = true; return 0;
	case 'D': c->no_demangle = true; return 0;
	case 'I': c->inline_frames = true; return 0;
	case 'N': c->inline_frames = false; return 0;
	case 'c': c->comms = optarg; return 0;
	case 'P': c->pids = optarg; return 0;
	case 'T': c->tids = optarg; return 0;
	case 'd': c->dsos = optarg; return 0;
	case 'C': c->cpus = optarg; return 0;
	case 'j':
		if (cli_parse_long(optarg, 0, 1024, &c->threads))
			return 0;
		cli_error("report", "--threads wants a number of threads from 0 to 1024 (0: as many as help), not '%s'",
			  optarg);
		return CLI_EXIT_USAGE;
	case 'h':
		c->help = true;
		return 0;
	default:
		return CLI_EXIT_USAGE;
	}
}

static int parse_options(struct report_config *c, int argc, char **argv)
{
	int opt, ret;

	c->input = "perf.data";
	c->output = "-";
	c->o = (struct hwp_write_opts){ .sz = sizeof(c->o), .top = DEFAULT_TOP };
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "i:s:n:f:x:e:o:C:h", report_options,
				  NULL)) != -1) {
		if (opt == '?') {
			cli_error("report", "unknown option or missing value '%s'; 'hwprof report --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
		ret = parse_option(c, opt);
		if (ret || c->help)
			return ret;
	}
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
	struct hwpriv_ofile *of = NULL;
	int err;

	err = hwp_profile_load(c->input, &po, &p);
	if (!err)
		warn_other_host(p);
	if (!err)
		err = hwpriv_ofile_open(c->output, &of);
	if (!err)
		err = hwp_profile_write(p, hwpriv_ofile_stream(of), &c->o);
	if (!err) {
		err = hwpriv_ofile_commit(of);
		of = NULL;
	}
	if (err)
		cli_lib_error("report", err);
	hwpriv_ofile_abort(of);
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
	.help = report_help,
	.run = report_run,
};
