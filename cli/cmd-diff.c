// SPDX-License-Identifier: MIT
/* hwprof diff: which functions take a larger or smaller share of the
 * samples in B than in A, beyond sampling noise? */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#define DEFAULT_TOP 20
#define MAX_MAPS 16

static const char diff_usage[] =
	"usage: hwprof diff [--sort sym|rip|line|dso] [--mode share|count|rate] [--top N]\n"
	"                   [--format text|csv|json] [-e EVENT] [--alpha X] [--no-correction]\n"
	"                   [--map-module OLD=NEW] A.data B.data\n"
	"\n"
	"Compare two perf.data files (from hwprof record or perf record) row by row:\n"
	"each function's share of the samples in A and in B, the difference with its 95%\n"
	"interval, the ratio B/A, and whether the change is beyond sampling noise\n"
	"(Fisher's exact test, Holm's correction over the rows).\n"
	"\n";

enum {
	OPT_NO_CORRECTION = CLI_OPT_LONG, OPT_MAP_MODULE, OPT_KALLSYMS,
	OPT_NO_KALLSYMS_CACHE, OPT_NO_DEBUG_CACHE, OPT_NO_BIG_NUM,
};

static const struct cli_option diff_options[] = {
	CLI_OPT('s', "sort", "KEY",
		"sym: by function (default), rip: by instruction,\n"
		"line: by source line, dso: by module"),
	CLI_OPT('m', "mode", "MODE",
		"share (default), as perf diff's; count: its events\n"
		"per recording, the cost of one run; rate: a second"),
	CLI_OPT('n', "top", "N", "the first N rows (default 20; 0: all)"),
	CLI_OPT('f', "format", "FMT", "text (default), csv, or json"),
	CLI_OPT('x', "field-separator", "S", "csv with this separator"),
	CLI_OPT('e', "event", "NAME", "the event to compare, in files of several"),
	CLI_OPT('a', "alpha", "X", "the significance level (default 0.05)"),
	CLI_OPT(OPT_NO_CORRECTION, "no-correction", NULL,
		"no Holm correction across rows"),
	CLI_OPT(OPT_MAP_MODULE, "map-module", "OLD=NEW",
		"A's module OLD is B's NEW (repeatable)"),
	CLI_OPT('o', "output", "FILE", "write to FILE instead of standard output"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_ALSO(OPT_KALLSYMS, "kallsyms", "FILE"),
	CLI_OPT_ALSO(OPT_NO_KALLSYMS_CACHE, "no-kallsyms-cache", NULL),
	CLI_OPT_ALSO(OPT_NO_DEBUG_CACHE, "no-debug-cache", NULL),
	CLI_OPT_ALSO(OPT_NO_BIG_NUM, "no-big-num", NULL),
	CLI_OPT_END,
};

static const char diff_tail[] =
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

static int parse_option(void *ctx, int key, char *arg)
{
	struct diff_config *c = ctx;
	int ret;

	if (cli_output_option("diff", key, arg, &c->o, 3, &ret))
		return ret;
	switch (key) {
	case 'o': c->output = arg; return 0;
	case 'e': c->event = arg; return 0;
	case OPT_KALLSYMS: c->kallsyms = arg; return 0;
	case OPT_NO_KALLSYMS_CACHE: c->no_kallsyms_cache = true; return 0;
	case OPT_NO_DEBUG_CACHE: c->no_debug_cache = true; return 0;
	case OPT_NO_CORRECTION: c->opts.no_correction = true; return 0;
	case OPT_NO_BIG_NUM: c->o.no_big_num = true; return 0;
	case 'm': return parse_mode(c, arg);
	case OPT_MAP_MODULE: return parse_map(c, arg);
	case 'a':
		return cli_alpha_option("diff", arg, &c->opts.alpha);
	}
	return 0;
}

static int parse_options(struct diff_config *c, int argc, char **argv)
{
	int ret;

	c->output = "-";
	c->opts = (struct hwp_profile_diff_opts){ .sz = sizeof(c->opts) };
	c->o = (struct hwp_write_opts){ .sz = sizeof(c->o), .top = DEFAULT_TOP };
	ret = cli_parse_options(&cli_cmd_diff, argc, argv, parse_option, c, &c->help);
	if (ret || c->help)
		return ret;
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

struct diff_out {
	const struct hwp_profile_diff *d;
	const struct hwp_write_opts *o;
};

static int write_diff(void *ctx, FILE *f)
{
	const struct diff_out *out = ctx;

	return hwp_profile_diff_write(out->d, f, out->o);
}

static int diff(const struct diff_config *c)
{
	struct hwp_profile *a = NULL, *b = NULL;
	struct hwp_profile_diff *d = NULL;
	int err;

	err = open_side(c, c->a, &a) ?: open_side(c, c->b, &b);
	if (!err)
		err = hwp_profile_diff_new(a, b, &c->opts, &d);
	if (!err)
		warn_unmatched(d);
	if (!err) {
		struct diff_out out = { d, &c->o };

		err = cli_write_file(c->output, write_diff, &out);
	}
	if (err)
		cli_lib_error("diff", err);
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
	.usage = diff_usage,
	.options = diff_options,
	.tail = diff_tail,
	.help_width = 27,
	.flags = CLI_SAY_MISSING_VALUE,
	.run = diff_run,
};
