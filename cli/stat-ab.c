// SPDX-License-Identifier: MIT
/* hwprof stat -- A ARGS ::: B ARGS, or --variant NAME=V1,V2: variants run
 * in turn (A B B A..., or shuffled blocks), so that a machine that drifts
 * while they run moves them all alike; then each result, and how each
 * variant compares with the first. */
#include "stat.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SEPARATOR ":::"

/* The commands between ":::"s, into c->variants; t->argv becomes the first. */
static int split_commands(struct stat_config *c)
{
	char **argv = c->target.argv;
	size_t n = 0, k = 0;

	for (size_t i = 0; argv[i]; i++)
		k += !strcmp(argv[i], SEPARATOR);
	c->variants = calloc(k + 2, sizeof(*c->variants));
	if (!c->variants)
		return cli_lib_error("stat", -ENOMEM);
	for (size_t i = 0, start = 0;; i++) {
		if (argv[i] && strcmp(argv[i], SEPARATOR))
			continue;
		if (i == start) {
			cli_error("stat",
				  "variant %zu is empty: write -- A ARGS ::: B ARGS",
				  n + 1);
			return CLI_EXIT_USAGE;
		}
		c->variants[n] = calloc(i - start + 1, sizeof(char *));
		if (!c->variants[n])
			return cli_lib_error("stat", -ENOMEM);
		memcpy(c->variants[n++], argv + start, (i - start) * sizeof(char *));
		c->nr_variants = n;
		if (!argv[i])
			break;
		start = i + 1;
	}
	return 0;
}

/* --variant NAME=V1,V2,...: the command once per value, {NAME} replaced. */
static int substitute_values(struct stat_config *c)
{
	struct sweep_spec s;
	int ret = spec_check(c->variant, "--variant", c->target.argv) ?:
		  parse_spec(c->variant, "--variant", &s);

	if (ret)
		return ret;
	c->variants = calloc(s.nr + 1, sizeof(*c->variants));
	c->variant_labels = calloc(s.nr + 1, sizeof(*c->variant_labels));
	for (size_t i = 0; c->variants && c->variant_labels && i < s.nr; i++) {
		c->variants[i] = substitute(c->target.argv, &s, s.values[i]);
		if (!c->variants[i] || asprintf(&c->variant_labels[i], "%s=%s", s.name,
						 s.values[i]) < 0) {
			c->variant_labels[i] = NULL;
			break;
		}
		c->nr_variants = i + 1;
	}
	c->owns_variants = true;
	if (c->nr_variants != s.nr)
		ret = cli_lib_error("stat", -ENOMEM);
	spec_release(&s);
	return ret;
}

int ab_parse(struct stat_config *c)
{
	bool separated = false;

	for (size_t i = 0; c->target.argv && c->target.argv[i]; i++)
		separated |= !strcmp(c->target.argv[i], SEPARATOR);
	if (separated && c->variant) {
		cli_error("stat", "--variant substitutes values in one command: not with -- A ::: B");
		return CLI_EXIT_USAGE;
	}
	if (!separated && !c->variant) {
		if (c->order || c->seed || c->save) {
			cli_error("stat", "%s orders the runs of variants: give them as -- A ARGS ::: B ARGS, or with --variant NAME=V1,V2",
				  c->order ? "--order" : c->seed ? "--seed" : "--save");
			return CLI_EXIT_USAGE;
		}
		return 0;
	}
	if (separated && split_commands(c))
		return CLI_EXIT_USAGE;
	if (c->variant) {
		int ret = substitute_values(c);

		if (ret)
			return ret;
	}
	c->target.argv = c->variants[0];
	return 0;
}

int ab_check(const struct stat_config *c)
{
	if (!c->variants)
		return 0;
	if (c->nr_variants < 2) {
		cli_error("stat", "one variant: give two or more, -- A ARGS ::: B ARGS");
		return CLI_EXIT_USAGE;
	}
	if (!cli_target_command_only(&c->target) || c->interval_ms || c->sweep ||
	    c->histogram) {
		cli_error("stat", "variants run commands in turn: not with %s",
			  !cli_target_command_only(&c->target) ? "-p, -a or -C" :
			  c->interval_ms ? "-I" : c->sweep ? "--sweep" : "--histogram");
		return CLI_EXIT_USAGE;
	}
	if (c->format != HWP_FORMAT_TEXT && c->format != HWP_FORMAT_JSON) {
		cli_error("stat", "variants write their comparison as text or JSON, as hwprof compare does: not CSV or OpenMetrics");
		return CLI_EXIT_USAGE;
	}
	if (c->json && c->nr_variants > 2) {
		cli_error("stat", "--json writes one comparison, of two variants; with %zu, save each result with --save DIR and compare them with hwprof compare",
			  c->nr_variants);
		return CLI_EXIT_USAGE;
	}
	if (c->repeat < 2) {
		cli_error("stat", "variants are compared over their runs: give -r N, N at least 2 (10 or more to see 5%% differences)");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

void ab_release(struct stat_config *c)
{
	for (size_t i = 0; c->variants && i < c->nr_variants; i++) {
		if (c->owns_variants)
			argv_free(c->variants[i]);
		else
			free(c->variants[i]);
		free(c->variant_labels ? c->variant_labels[i] : NULL);
	}
	free(c->variants);
	free(c->variant_labels);
	c->variants = NULL;
	c->variant_labels = NULL;
}

/* What the experiment is: which order, from which seed. */
struct plan {
	enum hwp_order order;
	uint64_t seed;
	size_t *warm, *runs;	/* the variant of each warm-up and counted run */
	struct run_check *checks;	/* each variant's failed runs */
	char labels[26][2];	/* "A", "B"... for commands */
	char order_line[512];	/* "abba: A B B A ... (20 runs)" */
	char experiment[64];	/* names this measurement in the results' runs */
};

static const char *label_of(const struct stat_ctx *sc, const struct plan *p, size_t v)
{
	return sc->cfg->variant_labels ? sc->cfg->variant_labels[v] : p->labels[v];
}

static int plan_order(struct stat_ctx *sc, struct plan *p)
{
	const struct stat_config *c = sc->cfg;
	size_t k = c->nr_variants, n = (size_t)c->repeat, w = (size_t)c->warmup;
	int len, err;

	p->order = HWP_ORDER_ABBA;
	for (int o = HWP_ORDER_ABBA; c->order && hwp_enum_name(HWP_ENUM_ORDER, o); o++)
		if (!strcmp(hwp_enum_name(HWP_ENUM_ORDER, o), c->order))
			p->order = o;
	if (c->order && strcmp(hwp_enum_name(HWP_ENUM_ORDER, p->order), c->order)) {
		cli_error("stat", "--order: '%s' is not abba, random or sequential",
			  c->order);
		return CLI_EXIT_USAGE;
	}
	snprintf(p->experiment, sizeof(p->experiment), "%s-%lld-%d",
		 hwp_enum_name(HWP_ENUM_ORDER, p->order), (long long)time(NULL),
		 (int)getpid());
	if (c->seed) {
		char *end;

		errno = 0;
		p->seed = strtoull(c->seed, &end, 10);
		if (errno || end == c->seed || *end || *c->seed == '-') {
			cli_error("stat", "--seed: '%s' is not a whole number from 0",
				  c->seed);
			return CLI_EXIT_USAGE;
		}
	} else {
		p->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	}
	for (size_t v = 0; v < k && v < 26; v++)
		p->labels[v][0] = (char)('A' + v);
	if (k > 26 && !c->variant_labels) {
		cli_error("stat", "%zu variants: at most 26 (A to Z)", k);
		return CLI_EXIT_USAGE;
	}
	p->warm = calloc(k * w + 1, sizeof(*p->warm));
	p->runs = calloc(k * n, sizeof(*p->runs));
	if (!p->warm || !p->runs)
		return cli_lib_error("stat", -ENOMEM);
	err = (w ? hwp_stats_order(p->order, k, w, p->seed + 1, p->warm) : 0) ?:
	      hwp_stats_order(p->order, k, n, p->seed, p->runs);
	if (err)
		return cli_lib_error("stat", err);
	len = snprintf(p->order_line, sizeof(p->order_line), "%s",
		       hwp_enum_name(HWP_ENUM_ORDER, p->order));
	if (p->order == HWP_ORDER_RANDOM)
		len += snprintf(p->order_line + len, sizeof(p->order_line) - (size_t)len,
				" (--seed %llu)", (unsigned long long)p->seed);
	len += snprintf(p->order_line + len, sizeof(p->order_line) - (size_t)len, ":");
	for (size_t i = 0; i < k * n && len < 400; i++)
		len += snprintf(p->order_line + len, sizeof(p->order_line) - (size_t)len,
				" %s", label_of(sc, p, p->runs[i]));
	snprintf(p->order_line + len, sizeof(p->order_line) - (size_t)len,
		 "%s (%zu runs%s)", len >= 400 ? " ..." : "", k * n,
		 w ? ", after warm-up runs in the same order" : "");
	return 0;
}

/* Run @v once: into its result when @keep. */
static int run_variant(struct stat_ctx *sc, struct hwp_result **results,
		       const struct plan *p, size_t v, bool keep, long i, long n,
		       int *code)
{
	char name[160];
	int ret;

	snprintf(name, sizeof(name), "%srun %ld of %ld (variant %s)",
		 keep ? "" : "warm-up ", i + 1, n, label_of(sc, p, v));
	sc->run_name = name;
	sc->run_argv = sc->cfg->variants[v];
	sc->result = results[v];
	sc->check = &p->checks[v];
	size_t runs = hwp_result_nr_runs(results[v]);

	progress_show(&sc->progress, label_of(sc, p, v), !keep, i, n);
	ret = stat_one_run(sc, keep, code);
	/* A first run that failed after all leaves a new result, which holds
	 * this run alone: it is tagged below like any other. */
	if (results[v] != sc->result)
		runs = 0;
	results[v] = sc->result;
	if (!ret && keep)
		hwp_result_set_exit_status(results[v], *code);
	/* Blocks of one run each pair up in the comparison; two sequences of
	 * runs (sequential) have no pairs to speak of. */
	if (!ret && keep && p->order != HWP_ORDER_SEQUENTIAL &&
	    hwp_result_nr_runs(results[v]) > runs &&
	    (ret = hwpriv_result_set_run_order(results[v], p->experiment, (size_t)i,
					    (size_t)i / sc->cfg->nr_variants)))
		ret = cli_lib_error("stat", ret);
	return ret;
}

static int measure_all(struct stat_ctx *sc, struct hwp_result **results,
		       const struct plan *p, int *code)
{
	const struct stat_config *c = sc->cfg;
	long k = (long)c->nr_variants, w = c->warmup * k, n = c->repeat * k;
	int ret = 0;

	bool failed = false;

	for (long i = 0; !ret && i < w && !stat_stopped() && !failed; i++) {
		ret = run_variant(sc, results, p, p->warm[i], false, i, w, code);
		failed = sc->check->nr_failed && !c->keep_going;
	}
	for (long i = 0; !ret && i < n && !stat_stopped() && !failed; i++) {
		ret = run_variant(sc, results, p, p->runs[i], true, i, n, code);
		failed = sc->check->nr_failed && !c->keep_going;
	}
	cli_progress_clear();
	/* Each variant's failed runs, against its own first run. */
	for (size_t v = 0; !ret && v < c->nr_variants; v++)
		stat_runs_failed(sc, &p->checks[v], code);
	sc->check = NULL;
	sc->result = NULL;
	sc->run_argv = c->target.argv;
	return ret;
}

/* Where --save DIR puts variant @v: DIR/NAME=VALUE.json for --variant, the
 * value's bytes other than letters, digits and "._=+-" written %XX (a '/'
 * would make a directory of it); DIR/A.json, B.json... for ::: variants,
 * and for a value whose name would be too long for a file name. */
static void save_path(const struct stat_ctx *sc, size_t v, char *path, size_t size)
{
	const char *label = sc->cfg->variant_labels ? sc->cfg->variant_labels[v] : NULL;
	const char *dir = sc->cfg->save;
	size_t len = (size_t)snprintf(path, size, "%s/", dir), start = len;

	for (; label && *label && len + 4 < size && len - start < NAME_MAX - 8; label++) {
		unsigned char ch = (unsigned char)*label;

		if (isalnum(ch) || strchr("._=+-", ch))
			path[len++] = (char)ch;
		else
			len += (size_t)snprintf(path + len, size - len, "%%%02X", ch);
	}
	if (label && !*label && len + 6 <= size) {
		snprintf(path + len, size - len, ".json");
		return;
	}
	if (v < 26)
		snprintf(path, size, "%s/%c.json", dir, (int)('A' + v));
	else
		snprintf(path, size, "%s/%zu.json", dir, v + 1);
}

struct saved {
	const struct hwp_result *r;
	const struct hwp_write_opts *o;
	bool write_failed;	/* not the open or the commit */
};

static int write_saved(void *ctx, FILE *f)
{
	struct saved *out = ctx;
	int err = hwp_result_write(out->r, f, out->o);

	out->write_failed = err != 0;
	return err;
}

/* --save DIR: each variant's result, hwprof-stat/1, as save_path() names it. */
static int save_results(struct stat_ctx *sc, struct hwp_result **results)
{
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_JSON);
	const char *dir = sc->cfg->save;
	int err = 0;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		cli_error("stat", "--save: cannot make the directory '%s': %s", dir,
			  strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	for (size_t v = 0; !err && v < sc->cfg->nr_variants; v++) {
		struct saved out = { .r = results[v], .o = &o };
		char path[4096];

		save_path(sc, v, path, sizeof(path));
		err = cli_write_file(path, write_saved, &out);
		if (err && out.write_failed) {
			/* The writer knows a stream, not its file: name it. */
			cli_error("stat", "--save: '%s': %s", path, hwp_errmsg());
			return CLI_EXIT_FAILURE;
		}
	}
	return err ? cli_lib_error("stat", err) : 0;
}

/* Each variant after the first, against the first. */
static int write_comparisons(struct stat_ctx *sc, struct hwp_result **results,
			     const struct plan *p)
{
	const struct stat_config *c = sc->cfg;
	int err = 0;

	for (size_t v = 1; !err && v < c->nr_variants; v++) {
		HWP_OPTS(hwp_compare_opts, co, .alpha = c->alpha,
			 .a_name = label_of(sc, p, 0), .b_name = label_of(sc, p, v),
			 .order = p->order_line);
		struct hwp_compare *cmp = NULL;

		err = hwp_compare_from_results(results[0], results[v], &co, &cmp);
		if (!err)
			err = hwp_compare_write(cmp, sc->stream, &sc->wopts);
		hwp_compare_free(cmp);
	}
	return err ? cli_lib_error("stat", err) : 0;
}

/* The text report: which command each variant is, each result, and the
 * comparisons. JSON: the comparison, as hwprof compare writes it. */
static int write_report(struct stat_ctx *sc, struct hwp_result **results,
			const struct plan *p)
{
	const struct stat_config *c = sc->cfg;
	int err = 0;

	if (!c->json) {
		fprintf(sc->stream, "\n Variants, run in turn (%s):\n", p->order_line);
		for (size_t v = 0; v < c->nr_variants; v++) {
			fprintf(sc->stream, "   %s:", label_of(sc, p, v));
			for (char **a = c->variants[v]; *a; a++)
				fprintf(sc->stream, " %s", *a);
			fputc('\n', sc->stream);
		}
		for (size_t v = 0; !err && v < c->nr_variants; v++) {
			if (!hwp_result_nr_runs(results[v]))
				continue;
			fprintf(sc->stream, "\n Variant %s:\n", label_of(sc, p, v));
			err = hwp_result_write(results[v], sc->stream, &sc->wopts);
		}
		if (err)
			return cli_lib_error("stat", err);
	}
	return write_comparisons(sc, results, p);
}

int ab_run(struct stat_ctx *sc, int *code)
{
	const struct stat_config *c = sc->cfg;
	struct hwp_result **results = calloc(c->nr_variants, sizeof(*results));
	struct plan p = { 0 };
	int ret = results ? plan_order(sc, &p) : cli_lib_error("stat", -ENOMEM);

	p.checks = calloc(c->nr_variants, sizeof(*p.checks));
	if (!ret && !p.checks)
		ret = cli_lib_error("stat", -ENOMEM);
	/* prepare() made a result to check the metrics; each variant gets its own. */
	hwp_result_free(sc->result);
	sc->result = NULL;
	for (size_t v = 0; !ret && v < c->nr_variants; v++)
		ret = stat_new_result(sc, c->variants[v], &results[v]);
	if (!ret)
		ret = measure_all(sc, results, &p, code);
	/* What was measured is written, even after a failed run. */
	if (results && results[0] && hwp_result_nr_runs(results[0])) {
		int err = (c->save ? save_results(sc, results) : 0) ?:
			  write_report(sc, results, &p);

		bool failed = false;

		for (size_t v = 0; v < c->nr_variants; v++)
			failed |= p.checks[v].nr_failed != 0;
		/* After a failed run (said already), its status says so, not a
		 * comparison that lacks the runs the failure cost. */
		ret = ret ? ret : failed ? 0 : err;
		sc->wrote = !err;
	}
	for (size_t v = 0; results && v < c->nr_variants; v++)
		hwp_result_free(results[v]);
	free(results);
	free(p.warm);
	free(p.runs);
	free(p.checks);
	return ret;
}
