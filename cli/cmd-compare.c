// SPDX-License-Identifier: MIT
/* hwprof compare: is B different from A beyond the noise? */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char compare_help[] =
	"usage: hwprof compare [OPTIONS] A.json B.json\n"
	"\n"
	"Compare two results of hwprof stat -r N --json (or two sweeps of hwprof stat\n"
	"--sweep), event by event and metric by metric: mean of A, mean of B, the ratio\n"
	"B/A, the interval of B - A, the p-value and a verdict: increase, decrease or\n"
	"unchanged, corrected for multiple comparisons (Holm). Rows are then ranked by\n"
	"their noise: the least noisy metric is the one to decide on.\n"
	"\n"
	"  -a, --alpha X            the significance level (default 0.05)\n"
	"  -t, --test TEST          welch (default) or mann-whitney; runs measured in turn\n"
	"                           are paired (paired t-test, Wilcoxon signed-rank)\n"
	"      --no-correction      no Holm correction across rows\n"
	"      --fail-on ROW:increase[>PCT], --fail-on ROW:decrease[>PCT]\n"
	"                           (repeatable) for CI: exit with status 3 when ROW's\n"
	"                           verdict is that change (page-faults:increase>5);\n"
	"                           ROW as the table names it ('task-clock (msec)')\n"
	"      --json               JSON, schema hwprof-compare/1\n"
	"  -x, --field-separator SEP  CSV with this separator\n"
	"      --csv                CSV with commas, as -x ,\n"
	"  -o, --output FILE        write to FILE instead of standard output\n"
	"      --no-big-num         no thousands separators\n"
	"  -h, --help               this text\n"
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

static const struct option compare_options[] = {
	{ "alpha", required_argument, NULL, 'a' },
	{ "test", required_argument, NULL, 't' },
	{ "no-correction", no_argument, NULL, 'N' },
	{ "json", no_argument, NULL, 'J' },
	{ "fail-on", required_argument, NULL, 'F' },
	{ "field-separator", required_argument, NULL, 'x' },
	{ "csv", no_argument, NULL, 'C' },
	{ "output", required_argument, NULL, 'o' },
	{ "no-big-num", no_argument, NULL, 'B' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_options(struct compare_config *c, int argc, char **argv)
{
	int opt;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "a:t:o:x:h", compare_options,
				  NULL)) != -1) {
		switch (opt) {
		case 'a':
			if (!cli_parse_alpha(optarg, &c->opts.alpha)) {
				cli_error("compare", "--alpha: '%s' is not a level between 0 and 1, such as 0.05",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 't':
			if (!strcmp(optarg, "welch")) {
				c->opts.test = HWP_TEST_WELCH;
			} else if (!strcmp(optarg, "mann-whitney") ||
				   !strcmp(optarg, "mw")) {
				c->opts.test = HWP_TEST_MANN_WHITNEY;
			} else {
				cli_error("compare", "--test: '%s' is not a test: welch or mann-whitney",
					  optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'N': c->opts.no_correction = true; break;
		case 'J': c->json = true; break;
		case 'x': c->sep = optarg; break;
		case 'C': c->sep = ","; break;
		case 'F': {
			const char **f = realloc(c->fail_on,
						 (c->nr_fail_on + 1) * sizeof(*f));

			if (!f) {
				cli_error("compare", "out of memory");
				return CLI_EXIT_FAILURE;
			}
			c->fail_on = f;
			f[c->nr_fail_on++] = optarg;
			break;
		}
		case 'o': c->output = optarg; break;
		case 'B': c->no_big_num = true; break;
		case 'h':
			c->help = true;
			return 0;
		default:
			cli_error("compare", "unknown option '%s'; 'hwprof compare --help' lists them",
				  argv[optind - 1]);
			return CLI_EXIT_USAGE;
		}
	}
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

static int write_out(const struct compare_config *c, const struct hwp_compare *cmp)
{
	HWP_OPTS(hwp_write_opts, wo, .no_big_num = c->no_big_num,
		 .format = c->json ? HWP_FORMAT_JSON :
			   c->sep ? HWP_FORMAT_CSV : HWP_FORMAT_TEXT,
		 .separator = c->sep);
	struct hwpriv_ofile *of;
	int err;

	err = hwpriv_ofile_open(c->output ? c->output : "-", &of);
	if (err) {
		cli_lib_error("compare", err);
		return CLI_EXIT_FAILURE;
	}
	err = hwp_compare_write(cmp, hwpriv_ofile_stream(of), &wo);
	if (err) {
		cli_lib_error("compare", err);
		hwpriv_ofile_abort(of);
		return CLI_EXIT_FAILURE;
	}
	err = hwpriv_ofile_commit(of);
	if (err) {
		cli_lib_error("compare", err);
		return CLI_EXIT_FAILURE;
	}
	return 0;
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
	.help = compare_help,
	.run = compare_run,
};
