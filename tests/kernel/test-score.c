// SPDX-License-Identifier: MIT
/* Scores: the scanner of a run's output (lines, the last match, numbers,
 * long lines), and score rows in results: statistics, metrics that read
 * them, JSON written and read back. The result cases count page faults on
 * ourselves, a software event every kernel has. */
#include "core/core.h"
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TPUT "tput=Throughput ([-+0-9.eE]+) MB/sec"

static struct hwpriv_score *score_of(const char *def)
{
	struct hwpriv_score *sc = NULL;

	CHECK_ERR(hwpriv_score_new(def, &sc), 0);
	return sc;
}

/* Feed @text in pieces of @step bytes, as a pipe may cut it. */
static int value_of(struct hwpriv_score *sc, const char *text, size_t step, double *v)
{
	size_t n = strlen(text);

	hwpriv_score_reset(sc);
	for (size_t i = 0; i < n; i += step) {
		size_t len = i + step > n ? n - i : step;

		CHECK_ERR(hwpriv_score_feed(sc, text + i, len), 0);
	}
	return hwpriv_score_value(sc, v);
}

static void test_last_line_wins(void)
{
	struct hwpriv_score *sc = score_of(TPUT);
	const char *out = "warm-up\nThroughput 10 MB/sec\nnoise\n"
			  "Throughput 12.5 MB/sec and Throughput 99 MB/sec\ntail";
	double v;

	if (!sc)
		return;
	CHECK(!strcmp(hwpriv_score_name(sc), "tput"), "%s", hwpriv_score_name(sc));
	CHECK(!strcmp(hwpriv_score_regex(sc), "Throughput ([-+0-9.eE]+) MB/sec"), "%s",
	      hwpriv_score_regex(sc));
	/* Whole, a byte at a time, and in pieces that cut lines anywhere. */
	for (size_t step = 1; step <= 64; step = step * 3 + 1) {
		CHECK_ERR(value_of(sc, out, step, &v), 0);
		CHECK(v == 12.5, "step %zu: %g, not the last line's first match", step,
		      v);
	}
	/* The last line needs no newline; reset forgets the last run. */
	CHECK_ERR(value_of(sc, "Throughput 7 MB/sec", 5, &v), 0);
	CHECK(v == 7, "%g", v);
	CHECK_ERR(value_of(sc, "nothing here\n", 5, &v), -ENOENT);
	CHECK(isnan(v), "no match is NAN, never 0: %g", v);
	CHECK(strstr(hwp_errmsg(), "tput") &&
	      strstr(hwp_errmsg(), "Throughput ([-+0-9.eE]+) MB/sec") &&
	      strstr(hwp_errmsg(), "1 line scanned"), "%s", hwp_errmsg());
	hwpriv_score_free(sc);
}

static void test_numbers(void)
{
	static const struct {
		int line;
		const char *text;
		double want;	/* NAN: not a number */
	} rows[] = {
		{ __LINE__, "1", 1 },
		{ __LINE__, "-2.5", -2.5 },
		{ __LINE__, "+4E-2", 0.04 },
		{ __LINE__, "1e3", 1000 },
		{ __LINE__, ".5", 0.5 },
		{ __LINE__, "3.", 3 },
		{ __LINE__, "6.02e+23", 6.02e23 },
		{ __LINE__, "1,000", NAN },
		{ __LINE__, "nan", NAN },
		{ __LINE__, "inf", NAN },
		{ __LINE__, "0x10", NAN },
		{ __LINE__, "1e", NAN },
		{ __LINE__, "e5", NAN },
		{ __LINE__, ".", NAN },
		{ __LINE__, "1e999", NAN },
		{ __LINE__, "", NAN },
	};
	struct hwpriv_score *sc = score_of("x=value=(.*)$");
	char buf[128];
	double v;

	if (!sc)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		int err;

		snprintf(buf, sizeof(buf), "value=%s\n", rows[i].text);
		err = value_of(sc, buf, 4, &v);
		if (isnan(rows[i].want)) {
			CHECK(err == -HWP_ERR_UNDEFINED && isnan(v),
			      "line %d: '%s' gave %d, %g", rows[i].line, rows[i].text,
			      err, v);
			CHECK(strstr(hwp_errmsg(), "not a number"), "%s", hwp_errmsg());
		} else {
			CHECK(!err && v == rows[i].want,
			      "line %d: '%s' gave %d, %.17g: %s", rows[i].line,
			      rows[i].text, err, v, hwp_errmsg());
		}
	}
	hwpriv_score_free(sc);
}

static void test_long_lines(void)
{
	struct hwpriv_score *sc = score_of(TPUT);
	size_t n = 3 * HWP_SCORE_LINE_MAX;
	char *out = malloc(n + 64);
	double v;

	if (!sc || !out)
		goto out;
	/* A long line before the match does not hide it. */
	memset(out, 'x', n);
	strcpy(out + n, "\nThroughput 3 MB/sec\n");
	CHECK_ERR(value_of(sc, out, 1000, &v), 0);
	CHECK(v == 3, "%g", v);
	/* A match past the bytes kept of its line is not seen, and the
	 * message says why. */
	strcpy(out + n, " Throughput 4 MB/sec\n");
	CHECK_ERR(value_of(sc, out, 1000, &v), -ENOENT);
	CHECK(strstr(hwp_errmsg(), "1 of them longer than 4096 bytes"), "%s",
	      hwp_errmsg());
	/* Within the bytes kept, it is. */
	memset(out, 'x', HWP_SCORE_LINE_MAX - 20);
	strcpy(out + HWP_SCORE_LINE_MAX - 20, "Throughput 5 MB/sec");
	memset(out + strlen(out), 'y', 2 * HWP_SCORE_LINE_MAX);
	out[3 * HWP_SCORE_LINE_MAX] = '\0';
	CHECK_ERR(value_of(sc, out, 777, &v), 0);
	CHECK(v == 5, "%g", v);
out:
	free(out);
	hwpriv_score_free(sc);
}

static void test_bad_definitions(void)
{
	static const char *const bad[] = {
		"tput", "=x(1)", "tput=", "tput=abc", "tput=a(", "1x=(1)", "seconds=(1)",
		"a b=(1)",
	};
	struct hwpriv_score *sc = (struct hwpriv_score *)1;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		CHECK_ERR(hwpriv_score_new(bad[i], &sc), -HWP_ERR_SYNTAX);
		CHECK(sc == NULL, "'%s': out is NULL on failure", bad[i]);
	}
	CHECK_ERR(hwpriv_score_new(NULL, &sc), -EINVAL);
}

static struct hwp_session *self_session(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	int err = hwp_evlist_parse("page-faults", NULL, &evl) ?:
		  hwp_session_new(evl, NULL, &s) ?: hwp_session_open(s);

	CHECK(err == 0, "page-faults on ourselves: %s", hwp_errmsg());
	hwp_evlist_free(evl);
	if (err) {
		hwp_session_free(s);
		return NULL;
	}
	return s;
}

/* Three runs of made-up counts and scores: rows, metrics, JSON. */
static void test_result_rows(void)
{
	static const double faults[] = { 100, 200, 300 }, tput[] = { 10, 40, 25 };
	struct hwp_session *s = self_session();
	struct hwp_result *r = NULL, *back = NULL;
	struct hwp_metric *m = NULL;
	struct hwp_series_info si = { .sz = sizeof(si) };
	char path[] = "/tmp/hwprof-score-XXXXXX";
	size_t idx;
	FILE *f;
	int fd;

	if (!s)
		return;
	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_metric_parse("f/MB=page-faults / tput", &m), 0);
	CHECK_ERR(hwp_result_add_metric(r, m), 0);
	CHECK_ERR(hwpriv_result_add_score(r, "tput"), 0);
	CHECK_ERR(hwpriv_result_add_score(r, "tput"), -EEXIST);
	CHECK_ERR(hwpriv_result_add_score(r, "f/MB"), -HWP_ERR_SYNTAX);
	CHECK_ERR(hwpriv_result_add_score(r, "IPC"), -EEXIST);
	for (size_t i = 0; i < 3; i++) {
		struct hwp_count c = { (uint64_t)faults[i], 1000, 1000 };

		CHECK_ERR(hwp_result_add_run(r, s, &c, 1.0), -EINVAL);
		CHECK_ERR(hwpriv_result_add_scored_run(r, s, &c, 1.0, tput, 0), -EINVAL);
		CHECK_ERR(hwpriv_result_add_scored_run(r, s, &c, 1.0, &tput[i], 1), 0);
	}
	CHECK_ERR(hwpriv_result_add_score(r, "late"), -EBUSY);
	CHECK_ERR(hwp_result_find(r, "tput", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(si.kind == HWP_SERIES_SCORE && idx + 1 == hwp_result_nr_series(r),
	      "kind %d, row %zu of %zu: scores come last", si.kind, idx,
	      hwp_result_nr_series(r));
	CHECK(si.nr_runs == 3 && si.values[0] == 10 && si.values[1] == 40 &&
	      si.values[2] == 25 && !si.percent_running, "the scores as given");
	CHECK_ERR(hwp_result_find(r, "f/MB", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(si.values[0] == 10 && si.values[1] == 5 && si.values[2] == 12,
	      "a metric reads each run's score: %g %g %g", si.values[0], si.values[1],
	      si.values[2]);
	/* Written and read back: the rows, their kind and values. */
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	CHECK(f, "a temporary file");
	if (f) {
		HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_JSON);

		CHECK_ERR(hwp_result_write(r, f, &o), 0);
		fclose(f);
		CHECK_ERR(hwp_result_load(path, &back), 0);
		unlink(path);
	}
	if (back) {
		CHECK_ERR(hwp_result_find(back, "tput", &idx), 0);
		CHECK_ERR(hwp_result_series(back, idx, &si), 0);
		CHECK(si.kind == HWP_SERIES_SCORE && si.nr_runs == 3 &&
		      si.values[1] == 40, "read back: kind %d", si.kind);
	}
	hwp_result_free(back);
	hwp_metric_free(m);
	hwp_result_free(r);
	hwp_session_free(s);
}

int main(void)
{
	t_init();
	t_run(test_last_line_wins);
	t_run(test_numbers);
	t_run(test_long_lines);
	t_run(test_bad_definitions);
	t_run(test_result_rows);
	return t_done();
}
