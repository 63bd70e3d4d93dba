// SPDX-License-Identifier: MIT
/* Comparisons of runs measured in turn: pairs by block, the paired tests,
 * the interval of B/A, and what a result file keeps of the run order. The
 * fixtures are a machine that drifts by 20 a run (1% of 2000), A and B
 * run A B, B A..., B 60 (3%) above A. */
#include "core/core.h"
#include "result/result.h"
#include "stats/stats.h"
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 20
#define ENVIRONMENT "\"environment\": {\"host\": \"h\", \"kernel\": \"k\", " \
	"\"cpu\": \"c\", \"nr_cpus\": 1, \"date\": \"d\", \"hwprof_version\": \"0.1.0\"}"

static char tmpdir[] = "/tmp/hwprof-paired-XXXXXX";

/* Where variant @v (0: A, 1: B) ran in block @b of A B, B A... */
static size_t position(size_t b, int v)
{
	return 2 * b + (size_t)(b % 2 ? 1 - v : v);
}

struct fixture {
	const char *experiment;	/* NULL: no "run_order" */
	int variant;
	double extra;		/* added to each value */
	long skip_block;	/* a run that failed: not in the file; -1: none */
	long null_block;	/* a run kept without its order; -1: none */
	const double *values;	/* each block's value; NULL: the drift's */
};

static void write_list(FILE *f, const struct fixture *x, bool blocks)
{
	bool first = true;

	fputc('[', f);
	for (size_t b = 0; b < BLOCKS; b++) {
		if ((long)b == x->skip_block)
			continue;
		fprintf(f, first ? "" : ", ");
		first = false;
		if ((long)b == x->null_block)
			fprintf(f, "null");
		else
			fprintf(f, "%zu", blocks ? b : position(b, x->variant));
	}
	fputc(']', f);
}

/* A result file in tmpdir, its first members written. */
static FILE *create(const char *name, char *path, size_t size)
{
	FILE *f;

	snprintf(path, size, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f)
		t_skip("cannot write %s", path);
	fprintf(f, "{\"schema\": \"hwprof-stat/1\", \"command\": [\"w\"], "
		   "\"target\": null, ");
	return f;
}

static struct hwp_result *fixture(const char *name, const struct fixture *x)
{
	char path[300];
	size_t runs = BLOCKS - (x->skip_block >= 0);
	struct hwp_result *r = NULL;
	FILE *f;
	bool first = true;

	f = create(name, path, sizeof(path));
	fprintf(f, "\"event_spec\": \"page-faults\", \"runs\": %zu, \"exit_status\": 0, "
		   "\"seconds\": {\"values\": [", runs);
	for (size_t i = 0; i < runs; i++)
		fprintf(f, "%s1", i ? ", " : "");
	fprintf(f, "]}, \"events\": [{\"event\": \"page-faults\", \"canonical\": "
		   "\"page-faults\", \"unit\": \"\", \"reason\": null, \"supported\": true, "
		   "\"user_only\": false, \"percent_running_values\": [");
	for (size_t i = 0; i < runs; i++)
		fprintf(f, "%s100", i ? ", " : "");
	fprintf(f, "], \"values\": [");
	for (size_t b = 0; b < BLOCKS; b++) {
		if ((long)b == x->skip_block)
			continue;
		fprintf(f, "%s%.17g", first ? "" : ", ", x->values ? x->values[b] :
			2000 + 20.0 * (double)position(b, x->variant) + x->extra);
		first = false;
	}
	fprintf(f, "]}], \"metrics\": [], " ENVIRONMENT);
	if (x->experiment) {
		fprintf(f, ", \"run_order\": {\"experiment\": \"%s\", \"position\": ",
			x->experiment);
		write_list(f, x, false);
		fprintf(f, ", \"block\": ");
		write_list(f, x, true);
		fputc('}', f);
	}
	fprintf(f, "}");
	fclose(f);
	CHECK(hwp_result_load(path, &r) == 0, "fixture %s: %s", name, hwp_errmsg());
	return r;
}

static struct hwp_compare_info compare(const struct hwp_result *a,
				       const struct hwp_result *b,
				       enum hwp_stats_test test, struct hwp_compare **out)
{
	HWP_OPTS(hwp_compare_opts, o, .test = test);
	struct hwp_compare_info i = { .sz = sizeof(i) };

	*out = NULL;
	CHECK_ERR(hwp_compare_from_results(a, b, &o, out), 0);
	if (*out)
		CHECK_ERR(hwp_compare_cell(*out, 0, 0, &i), 0);
	return i;
}

static char *written(const struct hwp_compare *c, enum hwp_format format)
{
	HWP_OPTS(hwp_write_opts, o, .format = format);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f && hwp_compare_write(c, f, &o) == 0, "write: %s", hwp_errmsg());
	if (f)
		fclose(f);
	return buf;
}

/* The paired t statistic of b - r a over the BLOCKS pairs. */
static double t_of_ratio(const double *a, const double *b, double r)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < BLOCKS; i++)
		m += (b[i] - r * a[i]) / BLOCKS;
	for (size_t i = 0; i < BLOCKS; i++)
		ss += (b[i] - r * a[i] - m) * (b[i] - r * a[i] - m);
	return m / sqrt(ss / (BLOCKS - 1) / BLOCKS);
}

/* The differences alternate 80 and 40 (B after A, then before it): a mean
 * of 60, a standard deviation of 20 sqrt(20/19); unpaired, the drift's
 * spread (20 x 40 runs) hides it. */
static void check_drift(void)
{
	struct fixture fa = { "e1", 0, 0, -1, -1, NULL };
	struct fixture fb = { "e1", 1, 60, -1, -1, NULL };
	struct hwp_result *a = fixture("a.json", &fa), *b = fixture("b.json", &fb);
	struct hwp_compare *c;
	struct hwp_compare_info i = compare(a, b, HWP_TEST_WELCH, &c);
	double sd = 20 * sqrt(20.0 / 19), va[BLOCKS], vb[BLOCKS];
	double q = t_quantile(0.975, BLOCKS - 1);
	char *json = c ? written(c, HWP_FORMAT_JSON) : NULL;

	CHECK(i.pairs == BLOCKS && i.a_n == BLOCKS && i.b_n == BLOCKS, "pairs %zu",
	      i.pairs);
	CHECK(i.verdict == HWP_VERDICT_INCREASE, "verdict %s p %g",
	      hwp_enum_name(HWP_ENUM_VERDICT, i.verdict), i.p_value);
	CHECK_NEAR(i.diff, 60, 1e-9);
	CHECK_NEAR(i.df, BLOCKS - 1, 0);
	CHECK_NEAR(i.statistic, 60 / (sd / sqrt(BLOCKS)), 1e-9);
	CHECK_NEAR(i.ratio, i.b_mean / i.a_mean, 1e-15);
	CHECK(i.ratio_ci_adj_low > 1 && i.ratio_ci_adj_low < i.ratio &&
	      i.ratio_ci_adj_high > i.ratio, "ratio %g in [%g, %g]", i.ratio,
	      i.ratio_ci_adj_low, i.ratio_ci_adj_high);
	/* Fieller's bounds: the paired t of b - r a is the quantile there */
	for (size_t k = 0; k < BLOCKS; k++) {
		va[k] = 2000 + 20.0 * (double)position(k, 0);
		vb[k] = 2000 + 20.0 * (double)position(k, 1) + 60;
	}
	CHECK_NEAR(t_of_ratio(va, vb, i.ratio_ci_adj_low), q, 1e-9);
	CHECK_NEAR(t_of_ratio(va, vb, i.ratio_ci_adj_high), -q, 1e-9);
	CHECK(json && strstr(json, "\"test\": \"paired-t\"") &&
	      strstr(json, "\"paired\": true") && strstr(json, "\"pairs\": 20"), "%s",
	      json);
	free(json);
	/* CSV: the pairs and the interval of B/A end each line. */
	json = c ? written(c, HWP_FORMAT_CSV) : NULL;
	CHECK(json && strstr(json, ",noise_rank,reason,pairs,ratio_ci_adj_low,") &&
	      strstr(json, ",,20,1.0"), "%s", json);
	free(json);
	hwp_compare_free(c);

	/* Wilcoxon: every difference positive, W+ = 1 + ... + 20; |d| tie. */
	i = compare(a, b, HWP_TEST_MANN_WHITNEY, &c);
	CHECK(i.verdict == HWP_VERDICT_INCREASE && !i.exact, "%s exact %d",
	      hwp_enum_name(HWP_ENUM_VERDICT, i.verdict), i.exact);
	CHECK_NEAR(i.statistic, 210, 0);
	json = c ? written(c, HWP_FORMAT_JSON) : NULL;
	CHECK(json && strstr(json, "\"test\": \"wilcoxon-signed-rank\""), "%s", json);
	free(json);
	hwp_compare_free(c);
	hwp_result_free(b);

	/* A/A on the same drift: +20 and -20 in turn, unchanged. */
	fb.extra = 0;
	b = fixture("aa.json", &fb);
	i = compare(a, b, HWP_TEST_WELCH, &c);
	CHECK(i.pairs == BLOCKS && i.verdict == HWP_VERDICT_UNCHANGED &&
	      fabs(i.diff) < 1e-9,
	      "%zu %s %g", i.pairs, hwp_enum_name(HWP_ENUM_VERDICT, i.verdict), i.diff);
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
}

/* The interval of B/A of @a and @b in pairs: Fieller's, each finite bound
 * a ratio r where the paired t of b - r a is the 95% quantile; the lower
 * one clamped at 0 (@clamped) where the set reaches below. */
static void check_fieller(const char *name, const double *a, const double *b,
			  enum hwp_verdict verdict, bool clamped)
{
	struct fixture fa = { "e1", 0, 0, -1, -1, a };
	struct fixture fb = { "e1", 1, 0, -1, -1, b };
	char na[64], nb[64];
	struct hwp_result *ra, *rb;
	struct hwp_compare *c;
	struct hwp_compare_info i;
	double q = t_quantile(0.975, BLOCKS - 1);

	snprintf(na, sizeof(na), "%s-a.json", name);
	snprintf(nb, sizeof(nb), "%s-b.json", name);
	ra = fixture(na, &fa);
	rb = fixture(nb, &fb);
	i = compare(ra, rb, HWP_TEST_WELCH, &c);
	CHECK(i.pairs == BLOCKS && i.verdict == verdict &&
	      i.ci_adj_level == 0.95, "%s: %zu pairs, %s at %g", name, i.pairs,
	      hwp_enum_name(HWP_ENUM_VERDICT, i.verdict), i.ci_adj_level);
	/* the noisy row: B - A's interval reaches below -A's mean */
	CHECK(1 + i.ci_adj_low / i.a_mean < 0, "%s: B - A from %g, A's mean %g", name,
	      i.ci_adj_low, i.a_mean);
	/* 1 inside exactly when the verdict is unchanged, as before */
	CHECK(i.ratio_ci_adj_low >= 0 && i.ratio_ci_adj_low < i.ratio &&
	      i.ratio < i.ratio_ci_adj_high &&
	      (i.ratio_ci_adj_low < 1 && 1 < i.ratio_ci_adj_high) ==
	      (verdict == HWP_VERDICT_UNCHANGED), "%s: B/A %g in [%g, %g]", name,
	      i.ratio, i.ratio_ci_adj_low, i.ratio_ci_adj_high);
	if (clamped)
		CHECK(i.ratio_ci_adj_low == 0 && fabs(t_of_ratio(a, b, 0)) < q,
		      "%s: clamped at 0, which the test does not reject: %g", name,
		      i.ratio_ci_adj_low);
	else
		CHECK_NEAR(t_of_ratio(a, b, i.ratio_ci_adj_low), q, 1e-9);
	CHECK_NEAR(t_of_ratio(a, b, i.ratio_ci_adj_high), -q, 1e-9);
	hwp_compare_free(c);
	hwp_result_free(ra);
	hwp_result_free(rb);
}

/* A's mean no further from 0 than its noise: every ratio above some r
 * passes, Fieller's set is unbounded, and there is no interval ("-"). */
static void check_unbounded(const double *a, const double *b)
{
	struct fixture fa = { "e1", 0, 0, -1, -1, a };
	struct fixture fb = { "e1", 1, 0, -1, -1, b };
	struct hwp_result *ra = fixture("unbounded-a.json", &fa);
	struct hwp_result *rb = fixture("unbounded-b.json", &fb);
	struct hwp_compare *c;
	struct hwp_compare_info i = compare(ra, rb, HWP_TEST_WELCH, &c);
	char *text = c ? written(c, HWP_FORMAT_TEXT) : NULL;

	CHECK(i.pairs == BLOCKS && !isnan(i.ratio) && isnan(i.ratio_ci_adj_low) &&
	      isnan(i.ratio_ci_adj_high), "B/A %g in [%g, %g]", i.ratio,
	      i.ratio_ci_adj_low, i.ratio_ci_adj_high);
	CHECK(text && strstr(text, "  -  ") && !strstr(text, "n/a"), "%s", text);
	free(text);
	hwp_compare_free(c);
	hwp_result_free(ra);
	hwp_result_free(rb);
}

/* B - A the same in every pair while A varies: the interval of B - A is a
 * point, but B/A's is not (b - r a varies for every r but 1): Fieller's
 * bounds, where the paired t of b - r a is the quantile. It was the point
 * 1 + (B - A) / A's mean. */
static void check_constant_difference(void)
{
	double a[BLOCKS], b[BLOCKS], q = t_quantile(0.975, BLOCKS - 1);
	struct fixture fa = { "e1", 0, 0, -1, -1, a };
	struct fixture fb = { "e1", 1, 0, -1, -1, b };
	struct hwp_result *ra, *rb;
	struct hwp_compare *c;
	struct hwp_compare_info i;

	for (size_t k = 0; k < BLOCKS; k++) {
		a[k] = 100 + 100 * (double)(k % 5);
		b[k] = a[k] + 10;
	}
	ra = fixture("constdiff-a.json", &fa);
	rb = fixture("constdiff-b.json", &fb);
	i = compare(ra, rb, HWP_TEST_WELCH, &c);
	CHECK(i.pairs == BLOCKS && i.verdict == HWP_VERDICT_INCREASE &&
	      i.ci_adj_low == i.ci_adj_high && i.ratio_ci_adj_low < i.ratio &&
	      i.ratio < i.ratio_ci_adj_high && 1 < i.ratio_ci_adj_low,
	      "B - A in [%g, %g], B/A %g in [%g, %g]", i.ci_adj_low, i.ci_adj_high,
	      i.ratio, i.ratio_ci_adj_low, i.ratio_ci_adj_high);
	CHECK_NEAR(t_of_ratio(a, b, i.ratio_ci_adj_low), q, 1e-9);
	CHECK_NEAR(t_of_ratio(a, b, i.ratio_ci_adj_high), -q, 1e-9);
	hwp_compare_free(c);
	hwp_result_free(ra);
	hwp_result_free(rb);
}

/* Rows so noisy that the paired t's interval of B - A reaches below -A's
 * mean, where 1 + it / A's mean went below 0: B/A of counts cannot. */
static void check_noisy_ratio(void)
{
	static const double noisy_a[BLOCKS] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000,
	};
	static const double steady_b[BLOCKS] = {
		100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
		100, 100, 100, 100, 100, 100, 100, 100, 100, 100,
	};
	static const double a[BLOCKS] = {
		1000, 3000, 500, 2000, 800, 1500, 900, 2500, 700, 1200,
		1000, 3000, 500, 2000, 800, 1500, 900, 2500, 700, 1200,
	};
	static const double spiky_b[BLOCKS] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40000,
	};

	/* B steady, A noisy: Fieller's lower bound is B's mean over the
	 * largest mean A may have, above 0 */
	check_fieller("steady", noisy_a, steady_b, HWP_VERDICT_DECREASE, false);
	/* B's mean no further from 0 than its noise: clamped at 0 */
	check_fieller("spiky", a, spiky_b, HWP_VERDICT_UNCHANGED, true);
	check_unbounded(spiky_b, steady_b);
}

/* Files of results measured apart, older ones or other experiments: two
 * independent samples, as before. */
static void check_unpaired(void)
{
	struct fixture fa = { NULL, 0, 0, -1, -1, NULL };
	struct fixture fb = { NULL, 1, 60, -1, -1, NULL };
	struct fixture fc = { "e2", 1, 60, -1, -1, NULL };
	struct fixture fd = { "e1", 0, 0, -1, -1, NULL };
	struct hwp_result *a = fixture("old-a.json", &fa);
	struct hwp_result *b = fixture("old-b.json", &fb);
	struct hwp_result *c2 = fixture("e2.json", &fc), *d1 = fixture("e1.json", &fd);
	struct hwp_compare *c;
	struct hwp_compare_info i = compare(a, b, HWP_TEST_WELCH, &c);

	CHECK(i.pairs == 0 && i.verdict == HWP_VERDICT_UNCHANGED &&
	      isnan(i.ratio_ci_adj_low),
	      "old files: %zu pairs, %s", i.pairs,
	      hwp_enum_name(HWP_ENUM_VERDICT, i.verdict));
	CHECK(i.df > BLOCKS, "Welch's df %g", i.df);
	hwp_compare_free(c);
	i = compare(d1, c2, HWP_TEST_WELCH, &c);
	CHECK(i.pairs == 0 && i.verdict == HWP_VERDICT_UNCHANGED,
	      "other experiments: %zu pairs", i.pairs);
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
	hwp_result_free(c2);
	hwp_result_free(d1);
}

/* A failed run of A (not kept) leaves B's run of its block alone; a run
 * kept without an order pairs with nothing. The warning says so. */
static void check_partners(void)
{
	struct fixture fa = { "e1", 0, 0, 7, -1, NULL };
	struct fixture fb = { "e1", 1, 60, -1, 12, NULL };
	struct hwp_result *a = fixture("fail-a.json", &fa);
	struct hwp_result *b = fixture("fail-b.json", &fb);
	struct hwp_compare *c;
	struct hwp_compare_info i = compare(a, b, HWP_TEST_WELCH, &c);
	const char *w = c ? hwp_compare_warning(c, 0) : NULL;

	CHECK(i.pairs == BLOCKS - 2 && i.a_n == BLOCKS - 2, "pairs %zu", i.pairs);
	CHECK(i.verdict == HWP_VERDICT_INCREASE, "%s",
	      hwp_enum_name(HWP_ENUM_VERDICT, i.verdict));
	CHECK_NEAR(i.diff, 60, 1e-9);
	CHECK(w && strstr(w, "1 of 19 runs of ") && strstr(w, "2 of 20 of ") &&
	      strstr(w, "no partner in their block"), "warning: %s", w ? w : "none");
	hwp_compare_free(c);
	hwp_result_free(a);
	hwp_result_free(b);
}

/* What a result keeps: set on live runs, refused where it makes no sense. */
static void check_set_order(void)
{
	struct hwp_result *r = NULL;

	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwpriv_result_set_run_order(r, "e", 0, 0), -EINVAL);
	CHECK_ERR(hwpriv_result_set_run_order(NULL, "e", 0, 0), -EINVAL);
	/* Runs as hwp_result_add_run() leaves them, without a session: the
	 * order of the last one; a run not given one has none. */
	r->nr_runs = 2;
	CHECK_ERR(hwpriv_result_set_run_order(r, "e1", 3, 1), 0);
	CHECK_ERR(hwpriv_result_set_run_order(r, "e2", 3, 1), -HWP_ERR_MISMATCH);
	CHECK(strstr(hwp_errmsg(), "'e1', not 'e2'"), "%s", hwp_errmsg());
	CHECK(r->order.nr == 2 && r->order.block[0] == -1 && r->order.position[0] == -1 &&
	      r->order.block[1] == 1 && r->order.position[1] == 3, "order of run 2");
	r->nr_runs = 3;
	CHECK_ERR(hwpriv_result_set_run_order(r, "e1", 4, 2), 0);
	CHECK(r->order.nr == 3 && r->order.block[2] == 2, "order of run 3");
	r->nr_runs = 0;
	hwp_result_free(r);
	r = NULL;
	{
		struct fixture fa = { "e1", 0, 0, -1, -1, NULL };

		r = fixture("loaded.json", &fa);
	}
	CHECK_ERR(hwpriv_result_set_run_order(r, "e1", 0, 0), -EBUSY);
	hwp_result_free(r);
}

static void check_bad_files(void)
{
	static const char *const bad[] = {
		"\"block\": [0, -1]", "\"block\": [0, 1.5]", "\"block\": [0]",
		"\"block\": [0, \"x\"]",
	};

	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		char path[300], name[32];
		struct hwp_result *r = NULL;
		FILE *f;

		snprintf(name, sizeof(name), "bad%zu.json", k);
		f = create(name, path, sizeof(path));
		fprintf(f, "\"event_spec\": \"x\", \"runs\": 2, "
			   "\"exit_status\": 0, \"seconds\": {\"values\": [1, 1]}, "
			   "\"events\": [], \"metrics\": [], " ENVIRONMENT ", "
			   "\"run_order\": {\"experiment\": "
			   "\"e\", \"position\": [0, 2], %s}}", bad[k]);
		fclose(f);
		CHECK_ERR(hwp_result_load(path, &r), -HWP_ERR_FORMAT);
		CHECK(r == NULL && strstr(hwp_errmsg(), "block"), "%s: %s", bad[k],
		      hwp_errmsg());
	}
}

int main(void)
{
	t_init();
	if (!mkdtemp(tmpdir))
		t_skip("no temporary directory");
	t_run(check_drift);
	t_run(check_unpaired);
	t_run(check_noisy_ratio);
	t_run(check_constant_difference);
	t_run(check_partners);
	t_run(check_set_order);
	t_run(check_bad_files);
	if (t_case("clean-up")) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		CHECK(system(cmd) == 0, "cleanup");
	}
	return t_done();
}
