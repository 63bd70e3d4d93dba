// SPDX-License-Identifier: MIT
/* hwprof diff: which functions take a larger or smaller share of the
 * samples in B than in A, beyond sampling noise? */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#define DEFAULT_TOP 20
#define MAX_MAPS 16

static const char diff_help[] =
	"usage: hwprof diff [--sort sym|rip|line|dso] [--mode share|count|rate] [--top N]\n"
	"                   [--format text|csv|json] [-e EVENT] [--alpha X] [--no-correction]\n"
	"                   [--map-module OLD=NEW] A.data B.data\n"
	"\n"
	"Compare two perf.data files (from hwprof record or perf record) row by row:\n"
	"each function's share of the samples in A and in B, the difference with its 95%\n"
	"interval, the ratio B/A, and whether the change is beyond sampling noise\n"
	"(Fisher's exact test, Holm's correction over the rows).\n"
	"\n"
	"  -s, --sort KEY           sym: by function (default), rip: by instruction,\n"
	"                           line: by source line, dso: by module\n"
	"  -m, --mode MODE          share (default), as perf diff's; count: its events\n"
	"                           per recording, the cost of one run; rate: a second\n"
	"  -n, --top N              the first N rows (default 20; 0: all)\n"
	"  -f, --format FMT         text (default), csv, or json\n"
	"  -x, --field-separator S  csv with this separator\n"
	"  -e, --event NAME         the event to compare, in files of several\n"
	"  -a, --alpha X            the significance level (default 0.05)\n"
	"      --no-correction      no Holm correction across rows\n"
	"      --map-module OLD=NEW A's module OLD is B's NEW (repeatable)\n"
	"  -o, --output FILE        write to FILE instead of standard output\n"
	"  -h, --help               this text\n"
	"\n"
	"Also: --kallsyms, --no-kallsyms-cache, --no-debug-cache (as for report),\n"
	"--no-big-num.\n"
	"\n"
	"Shares add up to 100%: 'share up' is not a cost that grew (--mode count says that).\n"
	"\n"
	"Exit status: 0 when the difference was made, whatever it found; 2 for a usage\n"
	"error; 1 for other failures.\n"
	"\n"
	"Every option, and the test behind the verdicts: man hwprof-diff\n";

struct diff_config {
	const char *a, *b;
	const char *output;
	const char *event;
	const char *kallsyms;
	bool no_kallsyms_cache;
	bool no_debug_cache;
	const char *maps[MAX_MAPS];	/* --map-module */
	struct hwp_profile_diff_opts opts;
	struct hwp_write_opts o;
	bool help;		/* --help: print it, and nothing else */
};

static const struct option diff_options[] = {
	{ "sort", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "event", required_argument, NULL, 'e' },
	{ "alpha", required_argument, NULL, 'a' },
	{ "no-correction", no_argument, NULL, 'N' },
	{ "mode", required_argument, NULL, 'm' },
	{ "map-module", required_argument, NULL, 'M' },
	{ "kallsyms", required_argument, NULL, 'K' },
	{ "no-kallsyms-cache", no_argument, NULL, 'k' },
	{ "no-debug-cache", no_argument, NULL, 'G' },
	{ "output", required_argument, NULL, 'o' },
	{ "no-big-num", no_argument, NULL, 'B' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_mode(struct diff_config *c, const char *mode)
{
	c->opts.absolute = !strcmp(mode, "count") || !strcmp(mode, "rate");
	c->opts.per_second = !strcmp(mode, "rate");
	if (c->opts.absolute || !strcmp(mode, "share"))
		return 0;
	cli_error("diff", "--mode: '%s' is not share, count or rate", mode);
	return CLI_EXIT_USAGE;
}

static int parse_map(struct diff_config *c, const char *map)
{
	const char *eq = strchr(map, '=');

	if (!eq || eq == map || !eq[1]) {
		cli_error("diff", "--map-module: '%s' is not OLD=NEW (A's module file name, then B's)",
			  map);
		return CLI_EXIT_USAGE;
	}
	if (c->opts.nr_map_modules == MAX_MAPS) {
		cli_error("diff", "--map-module: more than %d maps", MAX_MAPS);
		return CLI_EXIT_USAGE;
	}
	c->maps[c->opts.nr_map_modules++] = map;
	return 0;
}

static int parse_option(struct diff_config *c, int opt)
{
	int ret;

	if (cli_output_option("diff", opt, optarg, &c->o, 3, &ret))
		return ret;
	switch (opt) {
	case 'o': c->output = optarg; return 0;
	case 'e': c->event = optarg; return 0;
	case 'K': c->kallsyms = optarg; return 0;
	case 'k': c->no_kallsyms_cache = true; return 0;
	case 'G': c->no_debug_cache = true; return 0;
	case 'N': c->opts.no_correction = true; return 0;
	case 'B': c->o.no_big_num = true; return 0;
	case 'h': c->help = true; return 0;
	case 'm': return parse_mode(c, optarg);
	case 'M': return parse_map(c, optarg);
	case 'a':
		if (!cli_parse_alpha(optarg, &c->opts.alpha)) {
			cli_error("diff", "--alpha: '%s' is not a level between 0 and 1, such as 0.05",
				  optarg);
			return CLI_EXIT_USAGE;
		}
		return 0;
	default:
		return CLI_EXIT_USAGE;
	}
}

static int parse_options(struct diff_config *c, int argc, char **argv)
{
	int opt, ret;

	c->output = "-";
	c->opts = (struct hwp_profile_diff_opts){ .sz = sizeof(c->opts) };
	c->o = (struct hwp_write_opts){ .sz = sizeof(c->o), .top = DEFAULT_TOP };
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "s:n:f:x:e:a:m:o:h", diff_options,
				  NULL)) != -1) {
		if (opt == '?') {
			cli_error("diff", "unknown option or missing value '%s'; 'hwprof diff --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
		ret = parse_option(c, opt);
		if (ret || c->help)
			return ret;
	}
	if (argc - optind != 2) {
		cli_error("diff", "%s: hwprof diff [OPTIONS] A.data B.data",
			  argc - optind < 2 ? "two perf.data files are needed" :
					      "too many files");
		return CLI_EXIT_USAGE;
	}
	if (c->o.nr_sort_keys) {
		cli_error("diff", "--sort: a diff is by one key: sym, rip, line or dso");
		return CLI_EXIT_USAGE;
	}
	c->opts.sort = c->o.sort;
	c->opts.map_modules = c->maps;
	c->a = argv[optind];
	c->b = argv[optind + 1];
	return 0;
}

/* A file recorded on another host or kernel: said once, before the table. */
static void warn_other_host(const struct hwp_profile *p)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };

	if (!hwp_profile_info(p, &in) && in.host_warning)
		cli_warn("diff", "%s: %s", in.input, in.host_warning);
}

/* Nothing compared: each row is in one file only, most likely because the
 * programs' names differ. */
static void warn_unmatched(const struct hwp_profile_diff *d)
{
	struct hwp_profile_diff_info in = { .sz = sizeof(in) };

	if (hwp_profile_diff_info(d, &in) || in.nr_matched)
		return;
	if (in.a_program && in.b_program && strcmp(in.a_program, in.b_program))
		cli_warn("diff", "no row of %s matches a row of %s: their programs are %s and %s; --map-module %s=%s compares them as one module",
			 in.a_input, in.b_input, in.a_program, in.b_program, in.a_program,
			 in.b_program);
	else
		cli_warn("diff", "no row of %s matches a row of %s: their modules or functions differ by name; --map-module OLD=NEW compares two modules as one",
			 in.a_input, in.b_input);
}

static int open_side(const struct diff_config *c, const char *path,
		     struct hwp_profile **p)
{
	HWP_OPTS(hwp_profile_opts, po, .event = c->event, .kallsyms = c->kallsyms,
		 .no_kallsyms_cache = c->no_kallsyms_cache,
		 .no_debug_cache = c->no_debug_cache);
	int err = hwp_profile_load(path, &po, p);

	if (!err)
		warn_other_host(*p);
	return err;
}

static int diff(const struct diff_config *c)
{
	struct hwp_profile *a = NULL, *b = NULL;
	struct hwp_profile_diff *d = NULL;
	struct hwpriv_ofile *of = NULL;
	int err;

	err = open_side(c, c->a, &a) ?: open_side(c, c->b, &b);
	if (!err)
		err = hwp_profile_diff_new(a, b, &c->opts, &d);
	if (!err)
		warn_unmatched(d);
	if (!err)
		err = hwpriv_ofile_open(c->output, &of);
	if (!err)
		err = hwp_profile_diff_write(d, hwpriv_ofile_stream(of), &c->o);
	if (!err) {
		err = hwpriv_ofile_commit(of);
		of = NULL;
	}
	if (err)
		cli_lib_error("diff", err);
	hwpriv_ofile_abort(of);
	hwp_profile_diff_free(d);
	hwp_profile_free(a);
	hwp_profile_free(b);
	return err ? cli_exit_for(err) : 0;
}

static int diff_run(int argc, char **argv)
{
	struct diff_config cfg = { 0 };
	int ret = parse_options(&cfg, argc, argv);

	if (!ret && cfg.help)
		return cli_show_help(&cli_cmd_diff);
	return ret ?: diff(&cfg) ?: cli_flush_stdout("diff");
}

const struct cli_cmd cli_cmd_diff = {
	.name = "diff",
	.summary =
		"Which functions changed their share of two perf.data, with significance",
	.help = diff_help,
	.run = diff_run,
};
