// SPDX-License-Identifier: MIT
/* Metric formulas: the parser and the evaluator, table-driven. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "harness.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>

static const struct {
	const char *name;
	double value;
	int err;
} vars[] = {
	{ "cycles", 1000, 0 },
	{ "instructions", 2500, 0 },
	{ "cache-misses", 50, 0 },
	{ "cpu-migrations", 10, 0 },
	{ "zero", 0, 0 },
	{ "seconds", 2, 0 },
	{ "big", 1e300, 0 },
	{ "icl::INST_RETIRED:ANY_P", 7, 0 },
	{ "notcounted", 0, -HWP_ERR_UNDEFINED },
};

static int lookup(const char *name, double *value, void *ctx)
{
	(void)ctx;
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++)
		if (!strcmp(vars[i].name, name)) {
			*value = vars[i].value;
			return vars[i].err;
		}
	return -ENOENT;
}

struct row {
	int line;
	const char *def;
	int parse_err;
	int eval_err;
	double want;
	const char *name;
	const char *msg;
};

#define VAL(def, want, name) { __LINE__, def, 0, 0, want, name, NULL }
#define EVAL_ERR(def, err, msg) { __LINE__, def, 0, err, 0, NULL, msg }
#define PARSE_ERR(def, msg) { __LINE__, def, -HWP_ERR_SYNTAX, 0, 0, NULL, msg }

static const struct row rows[] = {
	VAL("ipc=instructions / cycles", 2.5, "ipc"),
	VAL("instructions/cycles", 2.5, "instructions/cycles"),
	VAL("mpm = cache-misses / cpu-migrations", 5, "mpm"),
	VAL("1 + 2 * 3", 7, NULL),
	VAL("(1 + 2) * 3", 9, NULL),
	VAL("10 - 4 - 3", 3, NULL),
	VAL("64 / 4 / 2", 8, NULL),
	VAL("-cycles + 2000", 1000, NULL),
	VAL("--3", 3, NULL),
	VAL("+4", 4, NULL),
	VAL("cycles - instructions", -1500, NULL),
	VAL("cache-misses * 1000 / instructions", 20, NULL),
	VAL("cycles / seconds", 500, NULL),
	VAL("1e3 * 2.5e-1", 250, NULL),
	VAL(".5 * 4", 2, NULL),
	VAL("icl::INST_RETIRED:ANY_P * 2", 14, NULL),
	VAL("  ipc  =  instructions/cycles  ", 2.5, "ipc"),
	VAL("((((((((((1))))))))))", 1, NULL),
	/* max() and min(), as the vendors' formulas clamp (TMA's max(0, a - b)) */
	VAL("max(0, cycles - instructions)", 0, NULL),
	VAL("max(instructions - cycles, 0) + min(cycles, instructions)", 2500, NULL),
	VAL("100 * min( 1 , cycles / instructions )", 40, NULL),
	VAL("max(max(1, 2), min(3, 4)) * -2", -6, NULL),
	VAL("min(-1, -2)", -2, NULL),
	EVAL_ERR("max(cycles, nosuch)", -HWP_ERR_UNKNOWN_NAME, "'nosuch'"),
	EVAL_ERR("max * 2", -HWP_ERR_UNKNOWN_NAME, "'max'"),
	PARSE_ERR("max(1)", "expected ','"),
	PARSE_ERR("max(1, 2", "expected ')' after the two"),
	PARSE_ERR("min(1, 2, 3)", "expected ')' after the two"),
	PARSE_ERR("max(, 2)", "expected a number"),
	EVAL_ERR("cycles / zero", -HWP_ERR_UNDEFINED, "division by zero"),
	EVAL_ERR("x=cycles / (cycles - 1000)", -HWP_ERR_UNDEFINED, "division by zero"),
	EVAL_ERR("big * big", -HWP_ERR_UNDEFINED, "overflows"),
	EVAL_ERR("cycles / notcounted", -HWP_ERR_UNDEFINED,
		 "'notcounted' was not counted"),
	EVAL_ERR("cycles / nosuch", -HWP_ERR_UNKNOWN_NAME, "'nosuch'"),
	EVAL_ERR("cycles-instructions", -HWP_ERR_UNKNOWN_NAME,
		 "with spaces, to subtract"),
	PARSE_ERR("", "before the end"),
	PARSE_ERR("x=", "before the end"),
	PARSE_ERR("=cycles", "name before '=' is empty"),
	PARSE_ERR("cycles /", "position 8"),
	PARSE_ERR("(cycles", "expected ')'"),
	PARSE_ERR("cycles)", "unbalanced ')'"),
	PARSE_ERR("cycles instructions", "expected an operator"),
	PARSE_ERR("cycles $ 2", "expected an operator"),
	PARSE_ERR("3cycles", "cannot start with a digit"),
	PARSE_ERR("1e999", "out of range"),
	PARSE_ERR("* 2", "expected a number"),
};

static void check_row(const struct row *r)
{
	struct hwp_metric *m = NULL;
	double v = 0;
	int err = hwp_metric_parse(r->def, &m);

	if (r->parse_err) {
		CHECK(err == r->parse_err, "line %d '%s': parse returned %d", r->line,
		      r->def, err);
		CHECK(!m, "line %d: no metric on failure", r->line);
		CHECK(strstr(hwp_errmsg(), r->msg), "line %d: '%s' lacks '%s'", r->line,
		      hwp_errmsg(), r->msg);
		return;
	}
	CHECK(err == 0, "line %d '%s': %s", r->line, r->def, hwp_errmsg());
	if (err)
		return;
	err = hwp_metric_eval(m, lookup, NULL, &v);
	if (r->eval_err) {
		CHECK(err == r->eval_err, "line %d '%s': eval returned %d", r->line,
		      r->def, err);
		CHECK(isnan(v), "line %d: an undefined value is NAN, never 0: %g",
		      r->line, v);
		CHECK(strstr(hwp_errmsg(), r->msg), "line %d: '%s' lacks '%s'", r->line,
		      hwp_errmsg(), r->msg);
	} else {
		CHECK(err == 0, "line %d '%s': %s", r->line, r->def, hwp_errmsg());
		CHECK_NEAR(v, r->want, 1e-9 * (1 + fabs(r->want)));
	}
	if (r->name)
		CHECK(!strcmp(hwp_metric_name(m), r->name), "line %d: name '%s'", r->line,
		      hwp_metric_name(m));
	hwp_metric_free(m);
}

static void check_depth(void)
{
	char deep[300];
	struct hwp_metric *m = NULL;
	size_t n = 0;

	for (int i = 0; i < 70; i++)
		deep[n++] = '(';
	deep[n++] = '1';
	for (int i = 0; i < 70; i++)
		deep[n++] = ')';
	deep[n] = '\0';
	CHECK_ERR(hwp_metric_parse(deep, &m), -HWP_ERR_SYNTAX);
	CHECK(strstr(hwp_errmsg(), "64 deep"), "%s", hwp_errmsg());
	memset(deep, '-', 200);
	deep[200] = '1';
	deep[201] = '\0';
	CHECK_ERR(hwp_metric_parse(deep, &m), -HWP_ERR_SYNTAX);
	{
		char *huge = malloc(5000);

		memset(huge, '1', 4999);
		huge[4999] = '\0';
		CHECK_ERR(hwp_metric_parse(huge, &m), -HWP_ERR_SYNTAX);
		free(huge);
	}
}

static void check_builtins(void)
{
	struct hwp_evlist *evl;
	size_t n = 0;

	CHECK_ERR(hwp_evlist_parse("cache-misses,cpu-migrations,instructions,cycles,task-clock,"
				   "context-switches,page-faults,cache-references,branches,branch-misses",
				   NULL, &evl), 0);
	for (; hwp_metric_builtin(n); n++) {
		const struct hwp_metric *m = hwp_metric_builtin(n);
		struct hwp_metric_info info = { .sz = sizeof(info) };

		CHECK_ERR(hwp_metric_info(m, &info), 0);
		CHECK(info.desc && *info.desc, "built-in %s has a description",
		      hwp_metric_name(m));
		CHECK(info.builtin && !strcmp(info.name, hwp_metric_name(m)), "%s",
		      info.name);
		/* Those of the kernel's PMUs (msr@tsc@): test-pmu.c, on a
		 * fabricated sysfs that has them. */
		if (!strchr(info.expr, '@'))
			CHECK_ERR(hwp_metric_check(m, evl), 0);
		/* a no-op for built-ins */
		hwp_metric_free((struct hwp_metric *)m);
	}
	CHECK(n >= 9, "%zu built-in metrics", n);
	CHECK(!strcmp(hwp_metric_name(hwp_metric_builtin(0)), "LLC-misses/migration"),
	      "the first built-in is LLC misses per migration");
	hwp_evlist_free(evl);
}

static void check_check(void)
{
	struct hwp_evlist *evl;
	struct hwp_metric *m;

	CHECK_ERR(hwp_evlist_parse("cache-misses,cpu-migrations:u", NULL, &evl), 0);
	hwp_metric_parse("cachemisses/migrations", &m);
	CHECK_ERR(hwp_metric_check(m, evl), 0);
	hwp_metric_free(m);
	hwp_metric_parse("x=cache-misses / seconds", &m);
	CHECK_ERR(hwp_metric_check(m, evl), 0);
	hwp_metric_free(m);
	hwp_metric_parse("x=cache-mises / cycles", &m);
	CHECK_ERR(hwp_metric_check(m, evl), -HWP_ERR_UNKNOWN_NAME);
	CHECK(strstr(hwp_errmsg(), "did you mean: cache-misses"), "%s", hwp_errmsg());
	hwp_metric_free(m);
	hwp_evlist_free(evl);
}

/* Synthetic counts of an event list, looked up as a session's reading is:
 * by event_find_operand(), the choice session-read.c makes. */
struct synthetic {
	const struct hwp_evlist *evl;
	const double *counts;
};

static int synthetic_value(const char *name, double *value, void *ctx)
{
	const struct synthetic *sy = ctx;
	long e = event_find_operand(sy->evl->events, sy->evl->nr_events, name, NULL);

	if (e < 0)
		return -ENOENT;
	*value = sy->counts[e];
	return 0;
}

static const struct hwp_metric *builtin_named(const char *name)
{
	for (size_t i = 0; hwp_metric_builtin(i); i++)
		if (!strcmp(hwp_metric_name(hwp_metric_builtin(i)), name))
			return hwp_metric_builtin(i);
	return NULL;
}

/* IPC over an event listed with several modifiers: the unmodified one when
 * listed, wherever it is; else the first, and the note says so. */
static void check_modified_operands(void)
{
	static const struct {
		const char *spec;
		double counts[4];
		double ipc;
		const char *note;	/* NULL: none */
	} cases[] = {
		{ "{instructions:k,instructions,cycles}", { 1e3, 2e9, 1e9 }, 2.0, NULL },
		{ "{instructions:k,instructions:u,cycles,instructions}",
		  { 1e3, 5e8, 1e9, 2e9 }, 2.0, NULL },
		{ "{instructions:k,instructions:u,cycles}", { 1e3, 2e9, 1e9 }, 1e-6,
		  "'instructions' is instructions:k, the first of instructions:k, instructions:u" },
		{ "cycles:u,instructions:u", { 1e9, 3e9 }, 3.0, NULL },
	};
	static const struct {
		const char *name;
		bool modified;
	} names[] = {
		{ "instructions", false }, { "instructions:k", true },
		{ "cycles:ppp", true },
		{ "cpu/cycles/u", true }, { "msr/tsc/:u", true }, { "r08:u", true },
		{ "icl::INST_RETIRED:ANY_P", false }, { "sched:sched_switch", false },
	};
	const struct hwp_metric *ipc = builtin_named("IPC");

	for (size_t k = 0; k < ARRAY_SIZE(names); k++)
		CHECK(event_name_has_modifiers(names[k].name) == names[k].modified,
		      "%s: modified %d", names[k].name, names[k].modified);
	CHECK(ipc != NULL, "IPC is built in");
	for (size_t k = 0; ipc && k < ARRAY_SIZE(cases); k++) {
		struct hwp_evlist *evl = NULL;
		struct strbuf note = STRBUF_INIT;
		struct synthetic sy;
		double v = NAN;
		bool noted;

		CHECK_ERR(hwp_evlist_parse(cases[k].spec, NULL, &evl), 0);
		if (!evl)
			continue;
		sy = (struct synthetic){ evl, cases[k].counts };
		CHECK_ERR(hwp_metric_eval(ipc, synthetic_value, &sy, &v), 0);
		CHECK(fabs(v - cases[k].ipc) <= 1e-12 * cases[k].ipc,
		      "%s: IPC %g, want %g", cases[k].spec, v, cases[k].ipc);
		noted = metric_operand_note(ipc, evl, &note);
		CHECK(noted == (cases[k].note != NULL) &&
		      (!cases[k].note || !strcmp(strbuf_str(&note), cases[k].note)),
		      "%s: note '%s'", cases[k].spec, strbuf_str(&note));
		strbuf_release(&note);
		hwp_evlist_free(evl);
	}
}

/* hwpriv_metric_input() of a built-in from several threads at once, as the
 * header says it may be called. */
static void *inputs_in_a_thread(void *arg)
{
	const struct hwp_metric *ipc = arg;
	uintptr_t bad = 0;

	for (int i = 0; i < 20000; i++)
		bad += strcmp(hwpriv_metric_input(ipc, (size_t)i % 2),
			      i % 2 ? "cycles" : "instructions") != 0;
	return (void *)bad;
}

static void check_inputs_threads(void)
{
	const struct hwp_metric *ipc = builtin_named("IPC");
	pthread_t t[4];
	size_t n = 0;
	void *bad;

	while (n < ARRAY_SIZE(t) &&
	       !pthread_create(&t[n], NULL, inputs_in_a_thread, (void *)ipc))
		n++;
	CHECK(n == ARRAY_SIZE(t), "%zu threads started", n);
	for (size_t k = 0; k < n; k++)
		CHECK(!pthread_join(t[k], &bad) && !bad, "thread %zu: %p wrong", k, bad);
}

/* The events a formula reads, each once, in order; not "seconds". */
static void check_inputs(void)
{
	const struct hwp_metric *ipc = builtin_named("IPC");
	struct hwp_metric *m = NULL;

	CHECK(ipc && !strcmp(hwpriv_metric_input(ipc, 0), "instructions") &&
	      !strcmp(hwpriv_metric_input(ipc, 1), "cycles") &&
	      !hwpriv_metric_input(ipc, 2),
	      "IPC reads instructions, cycles");
	CHECK_ERR(hwp_metric_parse("x=(a + b) / seconds - a * 2 / c:u", &m), 0);
	CHECK(m && !strcmp(hwpriv_metric_input(m, 0), "a") &&
	      !strcmp(hwpriv_metric_input(m, 1), "b") &&
	      !strcmp(hwpriv_metric_input(m, 2), "c:u") && !hwpriv_metric_input(m, 3),
	      "a, b, c:u, each once");
	CHECK(!hwpriv_metric_input(NULL, 0), "NULL metric");
	hwp_metric_free(m);
}

/* Built-ins are parsed at their first use, one at a time: a stat whose
 * events feed four of them parses four, not every one. Runs first. */
static void check_builtins_lazy(void)
{
	const struct hwp_metric *m;

	CHECK(metric_builtins_parsed() == 0, "%zu built-ins parsed before any use",
	      metric_builtins_parsed());
	m = hwp_metric_builtin(3);
	CHECK(m && metric_builtins_parsed() == 1, "%zu parsed after one was asked for",
	      metric_builtins_parsed());
	CHECK(hwp_metric_builtin(3) == m && metric_builtins_parsed() == 1, "parsed once");
	CHECK(!hwp_metric_builtin(metric_nr_builtins()), "none past the last");
}

/* Every built-in from four threads at once, each parsed once. */
static void *builtins_in_a_thread(void *arg)
{
	const struct hwp_metric **got = arg;

	for (size_t i = 0; i < metric_nr_builtins(); i++)
		got[i] = hwp_metric_builtin(i);
	return NULL;
}

static void check_builtins_threads(void)
{
	const struct hwp_metric *got[4][64] = { { NULL } };
	pthread_t t[4];
	size_t n = 0, nr = metric_nr_builtins();

	CHECK(nr > 9 && nr <= 64, "%zu built-ins", nr);
	while (n < ARRAY_SIZE(t) &&
	       !pthread_create(&t[n], NULL, builtins_in_a_thread, (void *)got[n]))
		n++;
	CHECK(n == ARRAY_SIZE(t), "%zu threads started", n);
	for (size_t k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < nr; i++)
			CHECK(got[k][i] && got[k][i] == got[0][i],
			      "thread %zu, built-in %zu: %p, not %p", k, i,
			      (void *)got[k][i], (void *)got[0][i]);
	CHECK(metric_builtins_parsed() == nr, "%zu of %zu parsed",
	      metric_builtins_parsed(), nr);
}

static int append_input(const char *name, void *arg)
{
	char *list = arg;
	size_t len = strlen(list);

	snprintf(list + len, 256 - len, "%s;", name);
	return 0;
}

/* A built-in's inputs read from its text, without a parse (to decide
 * whether it is a row before parsing it), are those of its parse. */
static void check_builtin_inputs(void)
{
	for (size_t i = 0; i < metric_nr_builtins(); i++) {
		const struct hwp_metric *m = hwp_metric_builtin(i);
		char text[256] = "", parsed[256] = "";

		CHECK_ERR(metric_builtin_foreach_input(i, append_input, text), 0);
		CHECK_ERR(metric_foreach_input(m, append_input, parsed), 0);
		CHECK(*text && !strcmp(text, parsed), "built-in %s: '%s', parsed '%s'",
		      hwp_metric_name(m), text, parsed);
	}
}

int main(void)
{
	t_init();
	t_run(check_builtins_lazy);
	t_run(check_builtins_threads);
	t_run(check_builtin_inputs);
	/* Each row a case, named after its line and its definition. */
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (t_case("line %d: '%s'", rows[i].line, rows[i].def))
			check_row(&rows[i]);
	t_run(check_depth);
	t_run(check_builtins);
	t_run(check_check);
	t_run(check_modified_operands);
	t_run(check_inputs);
	t_run(check_inputs_threads);
	return t_done();
}
