// SPDX-License-Identifier: MIT
/* hwprof compare: is B different from A beyond the noise? */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
	"usage: hwprof compare [OPTIONS] A.json B.json\n"
	"\n"
	"Compare two results of hwprof stat -r N --json (or two sweeps of hwprof stat\n"
	"--sweep), event by event and metric by metric: mean of A, mean of B, the ratio\n"
	"B/A, the interval of B - A, the p-value and a verdict: increase, decrease or\n"
	"unchanged, corrected for multiple comparisons (Holm). Rows are then ranked by\n"
	"their noise: the least noisy metric is the one to decide on.\n"
	"\n";

enum { OPT_NO_CORRECTION = CLI_OPT_LONG, OPT_JSON, OPT_FAIL_ON, OPT_CSV, OPT_NO_BIG_NUM };

static const struct cli_option compare_options[] = {
	CLI_OPT('a', "alpha", "X", "the significance level (default 0.05)"),
	CLI_OPT('t', "test", "TEST",
		"welch (default) or mann-whitney; runs measured in turn\n"
		"are paired (paired t-test, Wilcoxon signed-rank)"),
	CLI_OPT(OPT_NO_CORRECTION, "no-correction", NULL,
		"no Holm correction across rows"),
	CLI_OPT(OPT_FAIL_ON, "fail-on",
		"ROW:increase[>PCT], --fail-on ROW:decrease[>PCT]",
		"\n"
		"(repeatable) for CI: exit with status 3 when ROW's\n"
		"verdict is that change (page-faults:increase>5);\n"
		"ROW as the table names it ('task-clock (msec)')"),
	CLI_OPT(OPT_JSON, "json", NULL, "JSON, schema hwprof-compare/1"),
	CLI_OPT('x', "field-separator", "SEP", "CSV with this separator"),
	CLI_OPT(OPT_CSV, "csv", NULL, "CSV with commas, as -x ,"),
	CLI_OPT('o', "output", "FILE", "write to FILE instead of standard output"),
	CLI_OPT(OPT_NO_BIG_NUM, "no-big-num", NULL, "no thousands separators"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_END,
};

static const char compare_tail[] =
	"\n"
	"Each side needs at least 2 runs (5 or more are better).\n"
	"\n"
	"Exit status: 0 when the comparison was made, whatever its verdicts; 3 when a\n"
	"--fail-on rule is broken; 2 for a usage error (a malformed rule, a file that is\n"
	"not a result of hwprof stat --json); 1 for results that cannot be compared and\n"
	"other failures.\n"
	"\n"
	"Every option, and how to read the verdicts: man hwprof-compare\n";

/* --fail-on: a rule was broken; distinct from a failure to compare. */
#define COMPARE_EXIT_FAIL_ON 3

struct compare_config {
	struct hwp_compare_opts opts;
	const char **fail_on;	/* --fail-on rules, as given */
	size_t nr_fail_on;
	const char *sep;	/* -x, --csv */
	bool json;
	bool no_big_num;
	const char *output;
	const char *a, *b;
	bool help;		/* --help: print it, and nothing else */
};

static int push_fail_on(struct compare_config *c, const char *rule)
{
	const char **f = realloc(c->fail_on, (c->nr_fail_on + 1) * sizeof(*f));

	if (!f) {
		cli_error("compare", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	c->fail_on = f;
	f[c->nr_fail_on++] = rule;
	return 0;
}

static int parse_option(void *ctx, int key, char *arg)
{
	struct compare_config *c = ctx;

	switch (key) {
	case 'a':
		return cli_alpha_option("compare", arg, &c->opts.alpha);
	case 't':
		if (!strcmp(arg, "welch")) {
			c->opts.test = HWP_TEST_WELCH;
		} else if (!strcmp(arg, "mann-whitney") || !strcmp(arg, "mw")) {
			c->opts.test = HWP_TEST_MANN_WHITNEY;
		} else {
			cli_error("compare",
				  "--test: '%s' is not a test: welch or mann-whitney",
				  arg);
			return CLI_EXIT_USAGE;
		}
		return 0;
	case OPT_NO_CORRECTION: c->opts.no_correction = true; return 0;
	case OPT_JSON: c->json = true; return 0;
	case 'x': c->sep = arg; return 0;
	case OPT_CSV: c->sep = ","; return 0;
	case OPT_FAIL_ON: return push_fail_on(c, arg);
	case 'o': c->output = arg; return 0;
	case OPT_NO_BIG_NUM: c->no_big_num = true; return 0;
	}
	return 0;
}

static int parse_options(struct compare_config *c, int argc, char **argv)
{
	int ret = cli_parse_options(&cli_cmd_compare, argc, argv, parse_option, c,
				    &c->help);

	if (ret || c->help)
		return ret;
	if (c->json && c->sep) {
		cli_error("compare", "--json and -x (or --csv) cannot be combined");
		return CLI_EXIT_USAGE;
	}
	if (c->sep && !*c->sep) {
		cli_error("compare",
			  "-x: the separator is empty; give one, such as -x ,");
		return CLI_EXIT_USAGE;
	}
	c->opts.fail_on = c->fail_on;
	c->opts.nr_fail_on = c->nr_fail_on;
	if (argc - optind != 2) {
		cli_error("compare", "%s: hwprof compare [OPTIONS] A.json B.json",
			  argc - optind < 2 ? "two result files are needed" :
					      "too many files");
		return CLI_EXIT_USAGE;
	}
	c->a = argv[optind];
	c->b = argv[optind + 1];
	return 0;
}

/* A file that is not a result at all is a usage error, as a bad option
 * (or --fail-on rule: -EINVAL) is; one that is fine but cannot be
 * compared is a failure. */
static int exit_for(int err)
{
	return err == -HWP_ERR_FORMAT || err == -EINVAL ? CLI_EXIT_USAGE :
							  CLI_EXIT_FAILURE;
}

/* Each broken --fail-on rule on stderr, whatever the output's format. */
static int rules_status(const struct hwp_compare *cmp)
{
	bool broken;
	const char *rule, *finding;

	for (size_t i = 0; (rule = hwp_compare_rule(cmp, i, &broken, &finding)); i++)
		if (broken)
			cli_error("compare", "--fail-on %s: %s", rule, finding);
	return hwp_compare_failed(cmp) ? COMPARE_EXIT_FAIL_ON : 0;
}

struct compare_out {
	const struct hwp_compare *cmp;
	struct hwp_write_opts wo;
};

static int write_compare(void *ctx, FILE *f)
{
	const struct compare_out *out = ctx;

	return hwp_compare_write(out->cmp, f, &out->wo);
}

static int write_out(const struct compare_config *c, const struct hwp_compare *cmp)
{
	struct compare_out out = {
		.cmp = cmp,
		.wo = {
			.sz = sizeof(out.wo),
			.no_big_num = c->no_big_num,
			.format = c->json ? HWP_FORMAT_JSON :
				  c->sep ? HWP_FORMAT_CSV : HWP_FORMAT_TEXT,
			.separator = c->sep,
		},
	};
	int err = cli_write_file(c->output ? c->output : "-", write_compare, &out);

	return err ? cli_lib_error("compare", err) : 0;
}

static int compare_run(int argc, char **argv)
{
	struct compare_config cfg = { .opts = { .sz = sizeof(cfg.opts) } };
	struct hwp_sweep *a = NULL, *b = NULL;
	struct hwp_compare *cmp = NULL;
	int ret, err;

	ret = parse_options(&cfg, argc, argv);
	if (ret || cfg.help) {
		free(cfg.fail_on);
		return ret ? ret : cli_show_help(&cli_cmd_compare);
	}
	err = hwp_sweep_load(cfg.a, &a);
	if (!err)
		err = hwp_sweep_load(cfg.b, &b);
	if (!err)
		err = hwp_compare_from_sweeps(a, b, &cfg.opts, &cmp);
	if (err) {
		cli_lib_error("compare", err);
		ret = exit_for(err);
	} else {
		ret = write_out(&cfg, cmp);
	}
	if (!ret)
		ret = cli_flush_stdout("compare") ?: rules_status(cmp);
	hwp_compare_free(cmp);
	hwp_sweep_free(a);
	hwp_sweep_free(b);
	free(cfg.fail_on);
	return ret;
}

const struct cli_cmd cli_cmd_compare = {
	.name = "compare",
	.summary = "Compare two results (or sweeps) of hwprof stat, with significance",
	.usage = compare_usage,
	.options = compare_options,
	.tail = compare_tail,
	.help_width = 27,
	.run = compare_run,
};
