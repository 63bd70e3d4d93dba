// SPDX-License-Identifier: MIT
/* Comparisons of results and sweeps written as hwprof stat would write
 * them: the numbers of each row, Holm's correction, verdicts, the noise
 * ranking, the warnings and the refusals, and both output formats. */
#include "core/core.h"
#include "util/json-reader.h"
#include "harness.h"

/* Student's sleep data again (see test-stats.c): Welch p = 0.07939. */
static const double sleep1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
static const double sleep2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
/* Quiet counts 10% apart: no doubt. */
static const double pf_a[] = { 1000, 1001, 999, 1000, 1002, 998, 1000, 1001, 999, 1000 };
static const double pf_b[] = { 1100, 1101, 1099, 1100, 1102,
			       1098, 1100, 1101, 1099, 1100 };
static const double flat[] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 };
/* At the edges of a double: sums and variances overflow; B/A does too. */
static const double huge_a[] = { 1.797e308, 1.796e308, 1.797e308, 1.796e308, 1.797e308,
				 1.796e308, 1.797e308, 1.796e308, 1.797e308, 1.796e308 };
static const double huge_b[] = { 1.79e308, 1.795e308, 1.79e308, 1.795e308, 1.79e308,
				 1.795e308, 1.79e308, 1.795e308, 1.79e308, 1.795e308 };
static const double denormal[] = { 5e-324, 1e-323, 5e-324, 1e-323, 5e-324,
				   1e-323, 5e-324, 1e-323, 5e-324, 1e-323 };
static const double zeros[10];
static const double ones[] = { 1, 1.1, 0.9, 1, 1.1, 0.9, 1, 1.1, 0.9, 1 };
/* 0..9 and 3..12: Welch t = 2.216, df = 18, p = 0.0398, below 0.05 alone
 * but not after Holm's correction over three tests (2 p = 0.0796). The
 * third is ones against ones: the same values, but not one constant. */
static const double ramp[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
static const double ramp3[] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

struct fx_row {
	const char *name;
	bool metric;
	const double *v;	/* NULL: not supported */
};

static char tmpdir[] = "/tmp/hwprof-compare-XXXXXX";

static void write_values(FILE *f, const double *v, size_t runs)
{
	fputc('[', f);
	for (size_t r = 0; r < runs; r++)
		if (v)
			fprintf(f, "%s%.17g", r ? ", " : "", v[r]);
		else
			fprintf(f, "%snull", r ? ", " : "");
	fputc(']', f);
}

static void write_row(FILE *f, const struct fx_row *row, size_t runs)
{
	static const double hundred[64] = { [0 ... 63] = 100 };

	if (row->metric) {
		fprintf(f, "{\"metric\": \"%s\", \"unit\": \"\", \"reason\": null, "
			   "\"expr\": \"x\", \"builtin\": false, \"values\": ",
			row->name);
	} else {
		fprintf(f, "{\"event\": \"%s\", \"canonical\": \"%s\", \"unit\": \"\", "
			   "\"reason\": %s, \"supported\": %s, \"user_only\": false, "
			   "\"percent_running_values\": ",
			row->name, row->name, row->v ? "null" : "\"no PMU\"",
			row->v ? "true" : "false");
		write_values(f, row->v ? hundred : NULL, runs);
		fprintf(f, ", \"values\": ");
	}
	write_values(f, row->v, runs);
	fputc('}', f);
}

/* hwprof doctor's facts in the environment of the next fixtures, or NULL. */
static const char *doctor_facts_json;

/* A hwprof-stat/1 document: every run took 1 s. */
static void write_result(FILE *f, const char *cmd, size_t runs, const struct fx_row *rows,
			 size_t nr)
{
	static const double one[64] = { [0 ... 63] = 1 };

	fprintf(f, "{\"schema\": \"hwprof-stat/1\", \"command\": [\"%s\"], \"target\": null,\n"
		   "\"event_spec\": \"x\", \"runs\": %zu, \"exit_status\": 0,\n"
		   "\"seconds\": {\"values\": ", cmd, runs);
	write_values(f, one, runs);
	for (int metric = 0; metric < 2; metric++) {
		bool first = true;

		fprintf(f, "%s, \"%s\": [", metric ? "]" : "}",
			metric ? "metrics" : "events");
		for (size_t i = 0; i < nr; i++) {
			if (rows[i].metric != (metric == 1))
				continue;
			fprintf(f, "%s", first ? "" : ", ");
			write_row(f, &rows[i], runs);
			first = false;
		}
	}
	fprintf(f, "], \"environment\": {\"host\": \"h\", \"kernel\": \"k\", \"cpu\": \"c\", "
		   "\"nr_cpus\": 1, \"date\": \"d\", \"hwprof_version\": \"0.1.0\"%s}}",
		doctor_facts_json ? doctor_facts_json : "");
}

static const char *path_of(const char *name)
{
	static char path[8][256];
	static size_t next;
	char *p = path[next++ % 8];

	snprintf(p, sizeof(path[0]), "%s/%s", tmpdir, name);
	return p;
}

static struct hwp_result *result(const char *name, const char *cmd, size_t runs,
				 const struct fx_row *rows, size_t nr)
{
	const char *path = path_of(name);
	FILE *f = fopen(path, "w");
	struct hwp_result *r = NULL;

	if (!f)
		t_skip("cannot write %s", path);
	write_result(f, cmd, runs, rows, nr);
	fclose(f);
	CHECK(hwp_result_load(path, &r) == 0, "fixture %s: %s", name, hwp_errmsg());
	return r;
}

/* A sweep file of @n points named by @values, point k from rows[k]. */
static struct hwp_sweep *sweep(const char *name, const char *param,
			       const char *const *values, size_t n,
			       const struct fx_row (*rows)[2])
{
	const char *path = path_of(name);
	FILE *f = fopen(path, "w");
	struct hwp_sweep *sw = NULL;

	if (!f)
		t_skip("cannot write %s", path);
	fprintf(f, "{\"schema\": \"hwprof-sweep/1\", \"parameter\": \"%s\", "
		   "\"command\": [\"bench\", \"{%s}\"], \"points\": [", param, param);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "%s{\"value\": \"%s\", \"result\": ", k ? ", " : "",
			values[k]);
		write_result(f, "bench", 10, rows[k], 2);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
	fclose(f);
	CHECK(hwp_sweep_load(path, &sw) == 0, "fixture %s: %s", name, hwp_errmsg());
	return sw;
}

static struct hwp_compare_info cell(const struct hwp_compare *c, size_t row, size_t col)
{
	struct hwp_compare_info i = { .sz = sizeof(i) };

	CHECK_ERR(hwp_compare_cell(c, row, col, &i), 0);
	return i;
}

static char *written(const struct hwp_compare *c, enum hwp_format fmt)
{
	HWP_OPTS(hwp_write_opts, o, .format = fmt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_ERR(hwp_compare_write(c, f, &o), 0);
	fclose(f);
	return buf;
}

/* Whether the numbers of a cell are numbers or missing, never infinite:
 * JSON has no infinity, and text shows what JSON does. */
static bool no_infinity(const struct hwp_compare_info *i)
{
	const double v[] = { i->a_mean, i->b_mean, i->a_cv, i->b_cv, i->ratio, i->diff,
			     i->ci_low, i->ci_high, i->p_value, i->p_raw };

	for (size_t k = 0; k < ARRAY_SIZE(v); k++)
		if (isinf(v[k]))
			return false;
	return true;
}

/* A over B has no ratio, a verdict, and @why in the cell, the text and
 * the JSON (null). */
static void no_ratio(const struct hwp_result *a, const struct hwp_result *b,
		     const char *why)
{
	struct hwp_compare *c = NULL;
	struct hwp_compare_info i;
	char *text, *json;

	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (!c)
		return;
	i = cell(c, 0, 0);
	CHECK(isnan(i.ratio) && i.verdict == HWP_VERDICT_INCREASE && i.reason &&
	      strstr(i.reason, why), "ratio %g, %s", i.ratio, i.reason);
	CHECK(no_infinity(&i), "no infinity");
	json = written(c, HWP_FORMAT_JSON);
	CHECK(strstr(json, "\"ratio\": null") && !strstr(json, "inf"), "%s", json);
	text = written(c, HWP_FORMAT_TEXT);
	CHECK(strstr(text, " n/a ") && !strstr(text, "inf") && strstr(text, i.reason),
	      "%s", text);
	free(json);
	free(text);
	hwp_compare_free(c);
}

static void check_extremes(void)
{
	const struct fx_row ha[] = { { "e", false, huge_a } };
	const struct fx_row hb[] = { { "e", false, huge_b } };
	const struct fx_row tiny[] = { { "e", false, denormal } };
	const struct fx_row one[] = { { "e", false, ones } };
	const struct fx_row zero[] = { { "e", false, zeros } };
	struct hwp_result *a = result("ha.json", "x", 10, ha, 1);
	struct hwp_result *b = result("hb.json", "x", 10, hb, 1);
	struct hwp_result *t = result("tiny.json", "x", 10, tiny, 1);
	struct hwp_result *o = result("one.json", "x", 10, one, 1);
	struct hwp_result *z = result("zero.json", "x", 10, zero, 1);
	struct hwp_compare *c = NULL;
	struct hwp_compare_info i;
	char *text;

	/* Welch's variance overflows: no test, and the reason says what to do. */
	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (c) {
		i = cell(c, 0, 0);
		CHECK(i.verdict == HWP_VERDICT_NONE && i.reason &&
		      strstr(i.reason, "--test mann-whitney"), "huge: %s", i.reason);
		CHECK(no_infinity(&i), "huge: no infinity");
		CHECK_NEAR(i.a_mean, 1.7965e308, 1e295);
		text = written(c, HWP_FORMAT_TEXT);
		CHECK(strstr(text, "1.797e+308") && strstr(text, "1.792e+308"),
		      "means as numbers: %s", text);
		CHECK(strstr(text, " note: e: ") && strstr(text, i.reason),
		      "the reason: %s", text);
		free(text);
		hwp_compare_free(c);
	}
	/* Mann-Whitney ranks them. */
	{
		HWP_OPTS(hwp_compare_opts, mw, .test = HWP_TEST_MANN_WHITNEY);

		CHECK_ERR(hwp_compare_from_results(a, b, &mw, &c), 0);
		i = cell(c, 0, 0);
		CHECK(i.verdict == HWP_VERDICT_DECREASE && i.reason &&
		      !strstr(i.reason, "no test") &&
		      strstr(i.reason, "past a double's range: the CV of A, the CV of B"),
		      "ranks: %s", i.reason);
		hwp_compare_free(c);
	}
	/* B / a denormal is beyond a double: no ratio, as for a mean of 0; in
	 * text as in JSON, with the reason. */
	no_ratio(t, o, "no ratio B/A: 1 / 4.941e-324 (the mean in ");
	no_ratio(z, o, "zero.json is 0");
	/* The other way round, both are numbers. */
	CHECK_ERR(hwp_compare_from_results(o, t, NULL, &c), 0);
	if (c) {
		i = cell(c, 0, 0);
		CHECK(i.ratio >= 0 && i.ratio < 1e-300 && !i.reason, "ratio %g", i.ratio);
		hwp_compare_free(c);
	}
	hwp_result_free(a);
	hwp_result_free(b);
	hwp_result_free(t);
	hwp_result_free(o);
	hwp_result_free(z);
}

static void check_results(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a },
				     { "sleep", true, sleep1 },
				     { "flat", false, flat }, { "cycles", false, NULL },
				     { "only-a", false, flat } };
	const struct fx_row rb[] = { { "page-faults", false, pf_b },
				     { "sleep", true, sleep2 },
				     { "flat", false, flat }, { "cycles", false, NULL },
				     { "only-b", true, flat } };
	struct hwp_result *a = result("a.json", "./old", 10, ra, 5);
	struct hwp_result *b = result("b.json", "./new", 10, rb, 5);
	HWP_OPTS(hwp_compare_opts, raw, .no_correction = true);
	HWP_OPTS(hwp_compare_opts, mw, .test = HWP_TEST_MANN_WHITNEY);
	struct hwp_compare *c = NULL;
	struct hwp_compare_info i;
	bool w_only = false, w_cmd = false, w_cycles = false;

	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (!c)
		return;
	/* cycles has no values: no row; only-a and only-b: no row either. */
	CHECK(hwp_compare_nr_rows(c) == 3 && hwp_compare_nr_columns(c) == 1, "rows %zu",
	      hwp_compare_nr_rows(c));
	/* flat against flat (5 in every run of both) cannot differ: not a test. */
	CHECK(hwp_compare_nr_tests(c) == 2, "2 tests, not 3: %zu",
	      hwp_compare_nr_tests(c));
	i = cell(c, 0, 0);
	CHECK(!strcmp(i.name, "page-faults") && i.kind == HWP_SERIES_EVENT && !i.column,
	      "row 0");
	CHECK_NEAR(i.a_mean, 1000, 1e-9);
	CHECK_NEAR(i.b_mean, 1100, 1e-9);
	CHECK_NEAR(i.ratio, 1.1, 1e-12);
	CHECK_NEAR(i.diff, 100, 1e-9);
	CHECK(i.ci_low < 100 && i.ci_high > 100 && i.ci_low > 98, "CI [%g, %g]", i.ci_low,
	      i.ci_high);
	CHECK(i.p_value < 1e-10 && i.verdict == HWP_VERDICT_INCREASE, "increase: p %g",
	      i.p_value);
	CHECK(i.a_n == 10 && i.b_n == 10 && i.a_outliers == 0, "counts");
	/* Events first, then metrics, as in the results. */
	i = cell(c, 2, 0);
	CHECK(!strcmp(i.name, "sleep") && i.kind == HWP_SERIES_METRIC, "metric row");
	CHECK_NEAR(i.p_raw, 0.07939, 5e-6);
	/* Holm over 2: the smallest p (page-faults) times 2, then 0.07939 alone. */
	CHECK_NEAR(i.p_value, i.p_raw, 1e-12);
	CHECK(i.verdict == HWP_VERDICT_UNCHANGED, "not significant");
	i = cell(c, 1, 0);
	CHECK(!strcmp(i.name, "flat") && i.p_value == 1 &&
	      i.verdict == HWP_VERDICT_UNCHANGED && isnan(i.a_cv) == false &&
	      i.a_cv == 0, "flat: p %g", i.p_value);
	/* Noise ranking: flat (CV 0), page-faults (0.1%), sleep (huge). */
	CHECK(cell(c, 1, 0).noise_rank == 1 && cell(c, 0, 0).noise_rank == 2 &&
	      cell(c, 2, 0).noise_rank == 3, "ranks %zu %zu %zu",
	      cell(c, 0, 0).noise_rank, cell(c, 1, 0).noise_rank,
	      cell(c, 2, 0).noise_rank);
	for (size_t k = 0; hwp_compare_warning(c, k); k++) {
		const char *w = hwp_compare_warning(c, k);

		w_only |= strstr(w, "a.json, not compared: only-a") != NULL;
		w_cmd |= strstr(w, "the commands differ: ") && strstr(w, "ran './old'");
		w_cycles |= strstr(w, "no test for cycles: not supported in ") &&
			    strstr(w, "no PMU");
	}
	CHECK(w_only && w_cmd && w_cycles, "warnings: %d %d %d", w_only, w_cmd, w_cycles);
	hwp_compare_free(c);

	CHECK_ERR(hwp_compare_from_results(a, b, &raw, &c), 0);
	i = cell(c, 2, 0);
	CHECK(i.p_value == i.p_raw, "no correction");
	hwp_compare_free(c);

	CHECK_ERR(hwp_compare_from_results(a, b, &mw, &c), 0);
	i = cell(c, 2, 0);
	CHECK(!i.exact && isnan(i.df), "Mann-Whitney on tied data: approximate");
	CHECK_NEAR(i.p_raw, 0.06933, 5e-6);
	i = cell(c, 0, 0);
	CHECK(i.verdict == HWP_VERDICT_INCREASE, "ranks agree on page-faults");
	hwp_compare_free(c);

	mw.alpha = 2;
	CHECK_ERR(hwp_compare_from_results(a, b, &mw, &c), -EINVAL);
	CHECK(!c, "nothing on failure");
	hwp_result_free(a);
	hwp_result_free(b);
}

static void check_refusals(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a } };
	const struct fx_row rb[] = { { "cycles", false, pf_b } };
	const struct fx_row rc[] = { { "page-faults", false, NULL } };
	struct hwp_result *a = result("a.json", "x", 10, ra, 1);
	struct hwp_result *one = result("one.json", "x", 1, ra, 1);
	struct hwp_result *other = result("other.json", "x", 10, rb, 1);
	struct hwp_result *none = result("none.json", "x", 10, rc, 1);
	struct hwp_compare *c = NULL;

	CHECK_ERR(hwp_compare_from_results(a, one, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(),
		     "one.json has one run: a comparison needs at least 2 runs") &&
	      strstr(hwp_errmsg(), "-r 5"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_compare_from_results(one, a, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "one.json has one run"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_compare_from_results(a, other, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "no event or metric in common") &&
	      strstr(hwp_errmsg(), "a.json counted page-faults") &&
	      strstr(hwp_errmsg(), "other.json counted cycles"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_compare_from_results(a, none, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "no event or metric with values on both sides") &&
	      strstr(hwp_errmsg(), "not supported in "), "%s", hwp_errmsg());
	CHECK_ERR(hwp_compare_from_results(a, NULL, NULL, &c), -EINVAL);
	CHECK(!c, "nothing on failure");
	hwp_result_free(a);
	hwp_result_free(one);
	hwp_result_free(other);
	hwp_result_free(none);
}

static void check_sweeps(void)
{
	const char *const va[] = { "1", "2", "4" }, *const vb[] = { "2", "4", "8" };
	/* A: 1, 2, 4; B: 2, 4, 8. At 2, B is 10% up; at 4, the same. */
	const struct fx_row pa[3][2] = {
		{ { "page-faults", false, pf_a }, { "m", true, sleep1 } },
		{ { "page-faults", false, pf_a }, { "m", true, sleep1 } },
		{ { "page-faults", false, pf_b }, { "m", true, sleep1 } },
	};
	const struct fx_row pb[3][2] = {
		{ { "page-faults", false, pf_b }, { "m", true, sleep1 } },
		{ { "page-faults", false, pf_b }, { "m", true, sleep1 } },
		{ { "page-faults", false, pf_a }, { "m", true, sleep1 } },
	};
	struct hwp_sweep *a = sweep("sa.json", "T", va, 3, pa);
	struct hwp_sweep *b = sweep("sb.json", "T", vb, 3, pb);
	struct hwp_sweep *plain = NULL;
	struct hwp_sweep *disjoint = sweep("sc.json", "T", (const char *[]){ "16" },
					   1, pa);
	struct hwp_compare *c = NULL;
	struct hwp_compare_info i;
	bool w1 = false, w8 = false;

	CHECK_ERR(hwp_compare_from_sweeps(a, b, NULL, &c), 0);
	if (!c)
		return;
	CHECK(hwp_compare_nr_columns(c) == 2 && hwp_compare_nr_rows(c) == 2, "2 x 2");
	CHECK(hwp_compare_nr_tests(c) == 4, "Holm over the 4 cells");
	i = cell(c, 0, 0);
	CHECK(!strcmp(i.column, "2") && i.verdict == HWP_VERDICT_INCREASE,
	      "T=2: increase");
	CHECK_NEAR(i.ratio, 1.1, 1e-12);
	i = cell(c, 0, 1);
	CHECK(!strcmp(i.column, "4") && i.verdict == HWP_VERDICT_UNCHANGED,
	      "T=4: same values");
	CHECK_NEAR(i.ratio, 1, 1e-12);
	i = cell(c, 1, 1);
	CHECK(i.verdict == HWP_VERDICT_UNCHANGED && i.p_value == 1,
	      "m: identical samples");
	for (size_t k = 0; hwp_compare_warning(c, k); k++) {
		w1 |= strstr(hwp_compare_warning(c, k), "T=1 measured in ") != NULL;
		w8 |= strstr(hwp_compare_warning(c, k), "T=8 measured in ") != NULL;
	}
	CHECK(w1 && w8, "values on one side only are named");
	hwp_compare_free(c);

	/* A row one side lacks at one value: no made-up zeros, and why. */
	{
		const struct fx_row pm[3][2] = {
			{ { "page-faults", false, pf_a }, { "m", true, sleep1 } },
			{ { "page-faults", false, pf_a }, { "other", true, sleep1 } },
			{ { "page-faults", false, pf_b }, { "m", true, sleep1 } },
		};
		struct hwp_sweep *m = sweep("sm.json", "T", vb, 3, pm);

		CHECK_ERR(hwp_compare_from_sweeps(m, b, NULL, &c), 0);
		CHECK(c && hwp_compare_nr_columns(c) == 3 && hwp_compare_nr_rows(c) == 2,
		      "3 x 2");
		i = c ? cell(c, 1, 1) : (struct hwp_compare_info){ 0 };
		CHECK(c && !strcmp(i.name, "m") && !strcmp(i.column, "4") &&
		      i.verdict == HWP_VERDICT_NONE && isnan(i.a_mean) &&
		      isnan(i.b_mean) && isnan(i.ratio) && i.reason &&
		      strstr(i.reason, "not in ") && strstr(i.reason, "sm.json"),
		      "m at T=4: %g %g, %s", i.a_mean, i.b_mean, i.reason);
		if (c) {
			char *text = written(c, HWP_FORMAT_TEXT);

			CHECK(strstr(text, " n/a") && strstr(text, " note: m at T=4: "),
			      "%s", text);
			free(text);
		}
		hwp_compare_free(c);
		hwp_sweep_free(m);
	}

	CHECK_ERR(hwp_compare_from_sweeps(a, disjoint, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "no T value in common"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_sweep_load(path_of("a.json"), &plain), 0);
	CHECK_ERR(hwp_compare_from_sweeps(a, plain, NULL, &c), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "is a sweep over T and ") &&
	      strstr(hwp_errmsg(), "a single result"), "%s", hwp_errmsg());
	hwp_sweep_free(plain);
	hwp_sweep_free(a);
	hwp_sweep_free(b);
	hwp_sweep_free(disjoint);
}


static void check_output(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a },
				     { "sleep", true, sleep1 } };
	const struct fx_row rb[] = { { "page-faults", false, pf_b },
				     { "sleep", true, sleep2 } };
	struct hwp_result *a = result("a.json", "x", 10, ra, 2);
	struct hwp_result *b = result("b.json", "x", 10, rb, 2);
	HWP_OPTS(hwp_write_opts, csv, .format = HWP_FORMAT_CSV);
	struct hwp_compare *c = NULL;
	struct json_value *doc = NULL;
	struct json_error jerr;
	char *text, *json;

	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (!c)
		return;
	text = written(c, HWP_FORMAT_TEXT);
	CHECK(strstr(text, "Welch's t-test, alpha 0.05; Holm's correction over 2 tests"),
	      "test and correction named: %s", text);
	CHECK(strstr(text, " page-faults ") && strstr(text, "1.100") &&
	      strstr(text, "increase") && strstr(text, "unchanged"), "rows: %s", text);
	/* Holm: the largest of two p-values is its own adjusted value. */
	CHECK(strstr(text, "  0.079  unchanged"), "sleep's p: %s", text);
	CHECK(strstr(text, "Noise ranking") && strstr(text, "1. page-faults"),
	      "ranking: %s", text);
	json = written(c, HWP_FORMAT_JSON);
	CHECK_ERR(json_parse(json, strlen(json), NULL, &doc, &jerr), 0);
	if (doc) {
		const struct json_value *rows = json_get(doc, "rows"), *r0;

		CHECK(!strcmp(json_get(doc, "schema")->u.string, "hwprof-compare/1"),
		      "schema");
		CHECK(!strcmp(json_get(doc, "correction")->u.string, "holm") &&
		      json_get(doc, "tests")->u.number == 2, "correction");
		CHECK(rows && rows->u.array.n == 2, "2 rows");
		r0 = rows ? &rows->u.array.items[0] : NULL;
		CHECK(r0 && !strcmp(json_get(r0, "name")->u.string, "page-faults") &&
		      json_get(r0, "a_mean")->u.number == 1000 &&
		      json_get(r0, "ratio")->u.number == 1.1 &&
		      !strcmp(json_get(r0, "verdict")->u.string, "increase") &&
		      json_get(r0, "ci_low")->type == JSON_NUMBER &&
		      json_get(r0, "p_value")->type == JSON_NUMBER, "row fields");
	}
	json_free(doc);
	free(text);
	free(json);
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
}

/* The line of the text table that starts with row @name. */
static const char *text_line(const char *text, const char *name, char *buf, size_t size)
{
	char key[64];
	const char *at;

	snprintf(key, sizeof(key), "\n %s ", name);
	at = strstr(text, key);
	if (!at)
		return NULL;
	at += 2;
	snprintf(buf, size, "%.*s", (int)strcspn(at, "\n"), at);
	return buf;
}

/* The interval "[lo, hi]" of a line of the table. */
static bool interval_of(const char *line, double *lo, double *hi)
{
	const char *at = strchr(line, '[');

	return at && sscanf(at, "[%lf, %lf]", lo, hi) == 2;
}

/*
 * Beside a verdict Holm's correction made, the interval is the one tested
 * at the same level: a row whose own 95% interval excludes 0 but whose
 * corrected p-value is above alpha is unchanged, and its interval shown
 * holds 0 (it did not: [+0.16, +5.8] beside "unchanged").
 */
static void check_corrected_interval(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a },
				     { "shift", true, ramp }, { "flat", false, ones } };
	const struct fx_row rb[] = { { "page-faults", false, pf_b },
				     { "shift", true, ramp3 }, { "flat", false, ones } };
	struct hwp_result *a = result("ia.json", "x", 10, ra, 3);
	struct hwp_result *b = result("ib.json", "x", 10, rb, 3);
	HWP_OPTS(hwp_compare_opts, raw, .no_correction = true);
	struct hwp_compare *c = NULL;
	struct hwp_compare_info i;
	char line[400], *text;
	double lo, hi;

	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (!c)
		return;
	/* Events first, then metrics: page-faults, flat, shift. */
	i = cell(c, 2, 0);
	CHECK(!strcmp(i.name, "shift") && i.verdict == HWP_VERDICT_UNCHANGED, "%s: %s",
	      i.name, hwp_enum_name(HWP_ENUM_VERDICT, i.verdict));
	CHECK_NEAR(i.p_raw, 0.0398, 5e-4);
	CHECK_NEAR(i.p_value, 2 * i.p_raw, 1e-12);
	/* Its own 95% interval excludes 0... */
	CHECK(i.ci_low > 0 && i.ci_high > i.ci_low, "95%% CI [%g, %g]", i.ci_low,
	      i.ci_high);
	text = written(c, HWP_FORMAT_TEXT);
	/* ...and the text shows the one of Holm's level, which does not. */
	CHECK(text_line(text, "shift", line, sizeof(line)) &&
	      interval_of(line, &lo, &hi) && lo < 0 && hi > 0 &&
	      strstr(line, "unchanged"), "shift: %s", text);
	CHECK(strstr(text, "Holm CI of B - A"), "the column says which interval: %s",
	      text);
	free(text);
	hwp_compare_free(c);

	/* Without the correction, alpha's own interval: it excludes 0. */
	CHECK_ERR(hwp_compare_from_results(a, b, &raw, &c), 0);
	text = c ? written(c, HWP_FORMAT_TEXT) : NULL;
	CHECK(text && text_line(text, "shift", line, sizeof(line)) &&
	      interval_of(line, &lo, &hi) && lo > 0 && strstr(line, "increase") &&
	      strstr(text, "95% CI of B - A"),
	      "uncorrected: %s", text ? text : "");
	free(text);
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
}

/* --fail-on: a rule is broken exactly when its row changed that way past
 * the threshold; a rule that cannot be checked is refused, not passed. */
static void check_fail_on(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a },
				     { "sleep", true, sleep1 },
				     { "cycles", false, NULL } };
	const struct fx_row rb[] = { { "page-faults", false, pf_b },
				     { "sleep", true, sleep2 },
				     { "cycles", false, NULL } };
	static const struct {
		const char *rule;
		bool broken;
	} cases[] = {
		{ "page-faults:increase", true },	/* B/A 1.100, p < 1e-10 */
		{ "page-faults:increase>5", true },
		{ "page-faults:increase>9.9%", true },
		{ "page-faults:increase>10.1", false },	/* a change, not that large */
		{ "page-faults:decrease", false },
		{ "sleep:increase", false },		/* unchanged: p 0.079 */
		{ "sleep:decrease", false },
	};
	static const struct {
		const char *rule, *says;
	} refused[] = {
		{ "nosuch:increase",
		  "has no row 'nosuch'; its rows: page-faults, sleep" },
		{ "page-faults:up", "'up' is not increase or decrease" },
		{ "page-faults:increase>x", "'x' is not a threshold" },
		{ "page-faults:increase>-1", "'-1' is not a threshold" },
		{ "increase", "no ':'" },
		{ ":increase", "no row before" },
		{ "cycles:increase", "no test for cycles: not supported" },
	};
	struct hwp_result *a = result("fa.json", "x", 10, ra, 3);
	struct hwp_result *b = result("fb.json", "x", 10, rb, 3);
	struct hwp_compare *c = NULL;
	const char *finding = NULL;
	bool broken = false;

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		HWP_OPTS(hwp_compare_opts, o, .fail_on = &cases[k].rule, .nr_fail_on = 1);

		CHECK_ERR(hwp_compare_from_results(a, b, &o, &c), 0);
		if (!c)
			continue;
		CHECK(hwp_compare_failed(c) == cases[k].broken &&
		      !strcmp(hwp_compare_rule(c, 0, &broken, &finding), cases[k].rule) &&
		      broken == cases[k].broken && finding &&
		      !hwp_compare_rule(c, 1, NULL, NULL),
		      "%s: broken %d, %s", cases[k].rule, broken, finding ? finding : "");
		hwp_compare_free(c);
	}
	for (size_t k = 0; k < ARRAY_SIZE(refused); k++) {
		HWP_OPTS(hwp_compare_opts, o, .fail_on = &refused[k].rule,
			 .nr_fail_on = 1);

		CHECK_ERR(hwp_compare_from_results(a, b, &o, &c), -EINVAL);
		CHECK(!c && strstr(hwp_errmsg(), refused[k].says), "%s: %s",
		      refused[k].rule, hwp_errmsg());
	}
	{
		const char *both[] = { "sleep:increase", "page-faults:increase>5" };
		HWP_OPTS(hwp_compare_opts, o, .fail_on = both, .nr_fail_on = 2);
		char *text, *json;

		CHECK_ERR(hwp_compare_from_results(a, b, &o, &c), 0);
		if (c) {
			CHECK(hwp_compare_failed(c) == 1, "one of two broken");
			hwp_compare_rule(c, 1, &broken, &finding);
			CHECK(broken && strstr(finding, "page-faults: increase (B/A 1.1, +10%), p <0.001 after Holm's correction, past 5%"),
			      "finding: %s", finding);
			text = written(c, HWP_FORMAT_TEXT);
			CHECK(strstr(text, " pass: sleep:increase: sleep: unchanged") &&
			      strstr(text, " FAIL: page-faults:increase>5: "), "%s",
			      text);
			json = written(c, HWP_FORMAT_JSON);
			CHECK(strstr(json, "\"rule\": \"page-faults:increase>5\",") &&
			      strstr(json, "\"broken\": true"), "%s", json);
			free(text);
			free(json);
			hwp_compare_free(c);
		}
	}
	hwp_result_free(a);
	hwp_result_free(b);
}

/* A row a line in CSV, with a header, every number raw and none lost. */
static void check_csv(void)
{
	const struct fx_row ra[] = { { "page-faults", false, pf_a },
				     { "sleep", true, sleep1 } };
	const struct fx_row rb[] = { { "page-faults", false, pf_b },
				     { "sleep", true, sleep2 } };
	struct hwp_result *a = result("ca.json", "x", 10, ra, 2);
	struct hwp_result *b = result("cb.json", "x", 10, rb, 2);
	struct hwp_compare *c = NULL;
	char *csv, *line;
	size_t lines = 0;

	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	if (!c)
		return;
	csv = written(c, HWP_FORMAT_CSV);
	static const char head[] =
		"row,aggregation_unit,kind,unit,column,a_mean,b_mean,ratio,diff,"
		"ci_low,ci_high,ci_adj_low,ci_adj_high,ci_adj_level,p_raw,p_value,"
		"verdict,a_n,b_n,a_cv,b_cv,a_outliers,b_outliers,noise_rank,reason,"
		"pairs,ratio_ci_adj_low,ratio_ci_adj_high\n";

	CHECK(!strncmp(csv, head, strlen(head)), "header: %s", csv);
	CHECK(strstr(csv, "\npage-faults,,event,,,1000,1100,1.1,100,") &&
	      strstr(csv, ",0.975,") && strstr(csv, ",increase,10,10,") &&
	      strstr(csv, "\nsleep,,metric,,,0.75,2.33,") &&
	      strstr(csv, ",unchanged,10,10,"),
	      "%s", csv);
	for (line = csv; (line = strchr(line, '\n')); line++)
		lines++;
	CHECK(lines == 3, "a header and 2 rows: %zu lines", lines);
	free(csv);
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
}

#define ASLR_2 ", \"doctor\": [{\"name\": \"aslr\", \"value\": \"2\", \"noisy\": true}, "
#define ASLR_0 \
	", \"doctor\": [{\"name\": \"aslr\", \"value\": \"0\", \"noisy\": false}, "
#define LOAD(v) \
	"{\"name\": \"load\", \"value\": \"load average " v "\", \"noisy\": false}]"

/* hwprof doctor's facts, kept by stat in each result: a difference is a
 * warning; the load's value moves all the time, only its verdict counts. */
static void check_facts(void)
{
	const struct fx_row rows[] = { { "page-faults", false, pf_a } };
	struct hwp_result *a, *b, *b2;
	struct hwp_compare *c = NULL;
	bool warned = false;

	doctor_facts_json = ASLR_2 LOAD("0.10");
	a = result("ea.json", "x", 10, rows, 1);
	doctor_facts_json = ASLR_0 LOAD("0.20");
	b = result("eb.json", "x", 10, rows, 1);
	doctor_facts_json = ASLR_2 LOAD("0.30");
	b2 = result("eb2.json", "x", 10, rows, 1);
	doctor_facts_json = NULL;
	CHECK_ERR(hwp_compare_from_results(a, b, NULL, &c), 0);
	for (size_t k = 0; c && hwp_compare_warning(c, k); k++) {
		const char *w = hwp_compare_warning(c, k);

		if (strstr(w, "measured in different conditions (hwprof doctor)")) {
			warned = true;
			CHECK(strstr(w, "aslr '2' in ") && strstr(w, "'0' in ") &&
			      !strstr(w, "load"), "%s", w);
		}
	}
	CHECK(warned, "the facts differ: a warning");
	hwp_compare_free(c);
	CHECK_ERR(hwp_compare_from_results(a, b2, NULL, &c), 0);
	for (size_t k = 0; c && hwp_compare_warning(c, k); k++)
		CHECK(!strstr(hwp_compare_warning(c, k), "hwprof doctor"), "%s",
		      hwp_compare_warning(c, k));
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
	hwp_result_free(b2);
}

int main(void)
{
	t_init();
	if (!mkdtemp(tmpdir))
		t_skip("no temporary directory");
	t_run(check_results);
	t_run(check_refusals);
	t_run(check_sweeps);
	t_run(check_output);
	t_run(check_extremes);
	t_run(check_corrected_interval);
	t_run(check_fail_on);
	t_run(check_csv);
	t_run(check_facts);
	if (t_case("clean-up")) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		CHECK(system(cmd) == 0, "cleanup");
	}
	return t_done();
}
