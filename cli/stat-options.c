// SPDX-License-Identifier: MIT
/* hwprof stat's options (the table is cmd-stat.c's): each one's value,
 * then the combinations that make no sense, refused before any run. */
#include "stat.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
	if (c->interval_ms && c->format == HWP_FORMAT_PROMETHEUS &&
	    !stat_replaced_each_interval(c)) {
		cli_error("stat", "-I writes an exposition an interval, which only openmetrics ends (# EOF): use --format openmetrics, or -o FILE, replaced each interval");
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
				c->format_given = hwp_enum_name(HWP_ENUM_FORMAT, v);
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
			  c->format_given, c->json ? "--json" : "-x");
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

/* An option whose value is a number: 0, or CLI_EXIT_USAGE after why not. */
static int number_option(struct stat_config *c, int key, const char *arg)
{
	char *end;

	switch (key) {
	case 'r':
		if (cli_parse_long(arg, 1, 1000000, &c->repeat))
			return 0;
		cli_error("stat", "-r: '%s' is not a number of runs from 1 to 1000000",
			  arg);
		return CLI_EXIT_USAGE;
	case 'I':
		if (cli_parse_long(arg, 10, 3600000, &c->interval_ms))
			return 0;
		cli_error("stat", "-I: '%s' is not an interval in milliseconds from 10 to 3600000",
			  arg);
		return CLI_EXIT_USAGE;
	case OPT_WARMUP:
		if (cli_parse_long(arg, 0, 1000000, &c->warmup))
			return 0;
		cli_error("stat",
			  "--warmup: '%s' is not a number of runs from 0 to 1000000",
			  arg);
		return CLI_EXIT_USAGE;
	case OPT_ALPHA:
		return cli_alpha_option("stat", arg, &c->alpha);
	}
	/* OPT_SKIP_FIRST */
	errno = 0;
	c->skip_first = strtod(arg, &end);
	if (errno || end == arg || *end || !(c->skip_first > 0) ||
	    c->skip_first > 86400) {
		cli_error("stat",
			  "--skip-first: '%s' is not a number of seconds (more than 0)",
			  arg);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

#define FIELD(key, field) { key, offsetof(struct stat_config, field) }

/* The options that set a flag of the config, and where it is. */
static const struct field {
	int key;
	size_t off;
} flags[] = {
	FIELD(OPT_QUIET, quiet), FIELD(OPT_EXPLAIN, explain),
	FIELD(OPT_PER_RUN, per_run), FIELD(OPT_ALL_USER, all_user),
	FIELD(OPT_ALL_KERNEL, all_kernel), FIELD('i', no_inherit),
	FIELD(OPT_STRICT, strict), FIELD(OPT_KEEP_GOING, keep_going),
	FIELD('a', target.all_cpus), FIELD(OPT_JSON, json),
	FIELD(OPT_NO_BIG_NUM, no_big_num), FIELD(OPT_REGIONS, regions),
	FIELD(OPT_NO_MERGE, no_merge),
}, strings[] = {
	/* Those whose value is kept as given. */
	FIELD(OPT_SCORE_FROM, score_from), FIELD(OPT_ORDER, order), FIELD(OPT_SEED, seed),
	FIELD(OPT_SAVE, save), FIELD('C', target.cpus), FIELD(OPT_PIN, target.pin),
	FIELD('x', sep), FIELD('o', output), FIELD(OPT_HISTOGRAM, histogram),
	FIELD('G', cgroup),
};

/* Set @key's field of @c, when it is in @fields: a flag, or @arg. */
static bool set_field(struct stat_config *c, const struct field *fields, size_t n,
		      int key, const char *arg)
{
	for (size_t i = 0; i < n; i++) {
		char *at = (char *)c + fields[i].off;

		if (fields[i].key != key)
			continue;
		if (fields == flags)
			*(bool *)at = true;
		else
			*(const char **)at = arg;
		return true;
	}
	return false;
}

static int parse_option(void *ctx, int key, char *arg)
{
	/* A -M argument is cut in place at its commas: this one has none. */
	static char topdown[] = "TopdownL1";
	struct stat_config *c = ctx;

	if (set_field(c, flags, sizeof(flags) / sizeof(flags[0]), key, NULL) ||
	    set_field(c, strings, sizeof(strings) / sizeof(strings[0]), key, arg))
		return 0;
	if (key >= OPT_PER && key < OPT_PER + OPT_NR_PER) {
		c->aggr = (enum hwp_aggr)(key - OPT_PER);
		return 0;
	}
	switch (key) {
	case 'e':
		if (!cli_list_add(&c->events, arg))
			return 0;
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	case 'M':
		return metric_args_add(c, arg) ? CLI_EXIT_FAILURE : 0;
	case OPT_TOPDOWN:
		return metric_args_add(c, topdown) ? CLI_EXIT_FAILURE : 0;
	case OPT_TD_LEVEL:
		return metric_td_level(c, arg);
	case OPT_SCORE:
		return push_arg(&c->scores, &c->nr_scores, arg);
	case OPT_VARIANT:
		return spec_once(&c->variant, "--variant", arg) ? CLI_EXIT_USAGE : 0;
	case OPT_SWEEP:
		return spec_once(&c->sweep, "--sweep", arg) ? CLI_EXIT_USAGE : 0;
	case 'p':
		return cli_target_set_pid(&c->target, "stat", arg);
	case OPT_FORMAT:
		return parse_format(c, arg) ? 0 : CLI_EXIT_USAGE;
	case 'A':
		c->aggr = HWP_AGGR_CPU;
		return 0;
	}
	return number_option(c, key, arg);
}

int stat_parse_options(struct stat_config *c, int argc, char **argv)
{
	struct cli_target *t = &c->target;
	int ret;

	c->repeat = 1;
	ret = cli_parse_options(&cli_cmd_stat, argc, argv, parse_option, c, &c->help);
	if (ret || c->help)
		return ret;
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

