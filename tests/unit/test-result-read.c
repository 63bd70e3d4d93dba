// SPDX-License-Identifier: MIT
/* Reading results and sweeps back: the fields land where they belong, a
 * written result reads back the same, and every kind of bad file gets a
 * message that names the file and what is wrong with it. */
#include "core/core.h"
#include "harness.h"

#include <stdint.h>

/* In the shape hwprof stat --json -r 3 writes (schema hwprof-stat/1). */
static const char stat_doc[] =
	"{\n"
	"  \"schema\": \"hwprof-stat/1\",\n"
	"  \"command\": [\"./bench\", \"--threads\", \"4\"],\n"
	"  \"target\": null,\n"
	"  \"event_spec\": \"page-faults,cycles\",\n"
	"  \"runs\": 3,\n"
	"  \"exit_status\": 0,\n"
	"  \"seconds\": { \"mean\": 0.2, \"values\": [0.1, 0.2, 0.3] },\n"
	"  \"events\": [ {\n"
	"      \"event\": \"faults\", \"canonical\": \"page-faults\", \"count\": 110, \"unit\": \"\",\n"
	"      \"supported\": true, \"counted\": true, \"user_only\": false,\n"
	"      \"percent_running\": 100, \"reason\": null, \"mean\": 110,\n"
	"      \"values\": [100, 110, 120], \"outliers\": [],\n"
	"      \"percent_running_values\": [100, 100, 100]\n"
	"    }, {\n"
	"      \"event\": \"cycles\", \"canonical\": \"cycles\", \"count\": null, \"unit\": \"\",\n"
	"      \"supported\": false, \"counted\": false, \"user_only\": false,\n"
	"      \"percent_running\": null, \"reason\": \"no PMU\",\n"
	"      \"values\": [null, null, null], \"percent_running_values\": [null, null, null]\n"
	"  } ],\n"
	"  \"metrics\": [ {\n"
	"      \"metric\": \"faults/s\", \"value\": 550, \"unit\": \"/s\",\n"
	"      \"expr\": \"page-faults / seconds\", \"builtin\": true, \"reason\": null,\n"
	"      \"values\": [1000, 550, 400]\n"
	"  } ],\n"
	"  \"environment\": { \"host\": \"box\", \"kernel\": \"6.1.0\", \"cpu\": \"Some CPU\",\n"
	"      \"nr_cpus\": 2, \"date\": \"2024-01-01T00:00:00Z\", \"hwprof_version\": \"0.1.0\" }\n"
	"}\n";

/* The regions of a program's run (schema hwprof-regions/1), as a program
 * writes them to $HWPROF_OUTPUT: context-switches counted half the time. */
static const char regions_doc[] =
	"{\n"
	"  \"schema\": \"hwprof-regions/1\",\n"
	"  \"event_spec\": \"{context-switches,task-clock}\",\n"
	"  \"sample_every\": 1,\n"
	"  \"read_cost_ns\": 1845.25,\n"
	"  \"regions\": [ {\n"
	"      \"region\": \"send\", \"threads\": 2, \"calls\": 2, \"measured_calls\": 2,\n"
	"      \"seconds\": 0.004, \"ops\": 400, \"too_short\": false,\n"
	"      \"events\": [ {\n"
	"          \"event\": \"context-switches\", \"canonical\": \"context-switches\",\n"
	"          \"count\": 60, \"unit\": \"\", \"supported\": true, \"counted\": true,\n"
	"          \"user_only\": false, \"percent_running\": 50, \"reason\": null\n"
	"        }, {\n"
	"          \"event\": \"task-clock\", \"canonical\": \"task-clock\",\n"
	"          \"count\": 3000000, \"unit\": \"ns\", \"supported\": true, \"counted\": true,\n"
	"          \"user_only\": false, \"percent_running\": 100, \"reason\": null\n"
	"      } ],\n"
	"      \"metrics\": [ {\n"
	"          \"metric\": \"cs/s\", \"value\": 15000, \"unit\": \"/s\",\n"
	"          \"expr\": \"context-switches / seconds\", \"builtin\": true, \"reason\": null\n"
	"      } ],\n"
	"      \"per_call\": { \"context-switches\": 30, \"task-clock\": 1500000 },\n"
	"      \"per_op\": { \"context-switches\": 0.15, \"task-clock\": 7500 },\n"
	"      \"per_thread\": [\n"
	"        { \"tid\": 101, \"calls\": 1, \"measured_calls\": 1, \"seconds\": 0.002, \"ops\": 200,\n"
	"          \"too_short\": false, \"counts\": { \"context-switches\": 25, \"task-clock\": 1000000 } },\n"
	"        { \"tid\": 102, \"calls\": 1, \"measured_calls\": 1, \"seconds\": 0.002, \"ops\": 200,\n"
	"          \"too_short\": false, \"counts\": { \"context-switches\": 35, \"task-clock\": null } }\n"
	"      ]\n"
	"  } ],\n"
	"  \"environment\": { \"host\": \"box\", \"kernel\": \"6.1.0\", \"cpu\": \"Some CPU\",\n"
	"      \"nr_cpus\": 2, \"date\": \"2024-01-01T00:00:00Z\", \"hwprof_version\": \"0.1.0\" }\n"
	"}\n";

static char tmpdir[] = "/tmp/hwprof-read-XXXXXX";

static const char *write_file(const char *name, const char *data, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		t_skip("cannot write %s", path);
	return path;
}

static const char *write_str(const char *name, const char *data)
{
	return write_file(name, data, strlen(data));
}

static void check_read(void)
{
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct hwp_result *r = NULL;
	const char *path = write_str("a.json", stat_doc);
	size_t idx;

	CHECK_ERR(hwp_result_load(path, &r), 0);
	if (!r)
		return;
	CHECK(hwp_result_nr_runs(r) == 3 && hwp_result_nr_series(r) == 3,
	      "3 runs, 3 rows");
	CHECK(hwp_result_seconds(r)[2] == 0.3, "seconds");
	CHECK_ERR(hwp_result_series(r, 0, &si), 0);
	CHECK(!strcmp(si.name, "faults") && si.kind == HWP_SERIES_EVENT && si.supported &&
	      si.values[1] == 110 && si.percent_running[2] == 100, "event row");
	CHECK_ERR(hwp_result_series(r, 1, &si), 0);
	CHECK(!si.supported && isnan(si.values[0]) && !strcmp(si.reason, "no PMU"),
	      "null is NAN, not 0");
	CHECK_ERR(hwp_result_series(r, 2, &si), 0);
	CHECK(si.kind == HWP_SERIES_METRIC && !strcmp(si.unit, "/s") &&
	      si.values[0] == 1000, "metric row");
	/* Rows by name: as written, canonical, loosely, metrics. */
	CHECK_ERR(hwp_result_find(r, "faults", &idx), 0);
	CHECK(idx == 0, "as written");
	CHECK_ERR(hwp_result_find(r, "page-faults", &idx), 0);
	CHECK(idx == 0, "canonical");
	CHECK_ERR(hwp_result_find(r, "PageFaults", &idx), 0);
	CHECK(idx == 0, "loosely");
	CHECK_ERR(hwp_result_find(r, "faults/s", &idx), 0);
	CHECK(idx == 2, "metric");
	CHECK_ERR(hwp_result_find(r, "instructions", &idx), -ENOENT);
	CHECK(strstr(hwp_errmsg(), "its rows are: faults, cycles, faults/s"), "%s",
	      hwp_errmsg());
	/* What was read is a record: no more runs, no more metrics. */
	CHECK_ERR(hwp_result_add_run(r, (const struct hwp_session *)r,
				     (const struct hwp_count *)r, 1),
		  -EBUSY);
	hwp_result_free(r);
}

/* Time rows (0.2): read as rows of their kind, written back the same; a
 * result read from a file takes no more. */
static void check_times(void)
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct hwp_result *r = NULL, *back = NULL;
	char *buf = NULL;
	size_t len = 0, idx;
	FILE *f;
	static const char times[] =
		"  \"times\": [ { \"time\": \"elapsed\", \"value\": 0.2, \"unit\": \"seconds\",\n"
		"      \"reason\": null, \"values\": [0.1, 0.2, 0.3] },\n"
		"    { \"time\": \"user\", \"value\": 0.05, \"unit\": \"seconds\",\n"
		"      \"reason\": null, \"values\": [0.04, null, 0.06] } ],\n";
	char doc[sizeof(stat_doc) + sizeof(times)];
	const char *at = strstr(stat_doc, "  \"environment\"");

	snprintf(doc, sizeof(doc), "%.*s%s%s", (int)(at - stat_doc), stat_doc, times, at);
	CHECK_ERR(hwp_result_load(write_str("times.json", doc), &r), 0);
	if (!r)
		return;
	CHECK(hwp_result_nr_series(r) == 5, "3 rows and 2 times: %zu",
	      hwp_result_nr_series(r));
	CHECK_ERR(hwp_result_find(r, "user", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(si.kind == HWP_SERIES_TIME && !strcmp(si.unit, "seconds") &&
	      si.values[0] == 0.04 && isnan(si.values[1]) && si.values[2] == 0.06,
	      "the user row");
	CHECK_ERR(hwp_result_set_run_times(r, 1, 1), -EBUSY);
	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_result_write(r, f, &json), 0);
	fclose(f);
	CHECK(buf && strstr(buf, "\"times\": [") && strstr(buf, "\"time\": \"elapsed\""),
	      "written back: %s", buf ? buf : "");
	CHECK_ERR(hwp_result_load(write_file("times2.json", buf, len), &back), 0);
	CHECK(back && hwp_result_nr_series(back) == 5, "and read again");
	free(buf);
	hwp_result_free(back);
	hwp_result_free(r);
	/* A result without runs has no run to give times to. */
	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_result_set_run_times(r, 1, 1), -EINVAL);
	CHECK_ERR(hwp_result_set_run_times(NULL, 1, 1), -EINVAL);
	hwp_result_free(r);
}

/* A PMU event's scale (what a count is worth in its unit) is kept, so that
 * a formula over a result read back reads counts, and each row's value is
 * what hwprof stat shows: a metric's formula on the mean counts. */
static void check_scale_and_value(void)
{
	static const char doc[] =
		"{ \"schema\": \"hwprof-stat/1\", \"command\": [\"x\"], \"target\": null,\n"
		"  \"event_spec\": \"fake/x/,page-faults\", \"runs\": 3, \"exit_status\": 0,\n"
		"  \"seconds\": { \"values\": [0.1, 0.2, 0.3] },\n"
		"  \"events\": [ { \"event\": \"fake/x/\", \"canonical\": \"fake/x/\", \"count\": 2.5,\n"
		"      \"unit\": \"Halves\", \"scale\": 0.5, \"supported\": true, \"user_only\": false,\n"
		"      \"reason\": null, \"values\": [1, 2, 4.5],\n"
		"      \"percent_running_values\": [100, 100, 100] },\n"
		"    { \"event\": \"page-faults\", \"canonical\": \"page-faults\", \"count\": 5,\n"
		"      \"unit\": \"\", \"supported\": true, \"user_only\": false, \"reason\": null,\n"
		"      \"values\": [2, 4, 9], \"percent_running_values\": [100, 100, 100] } ],\n"
		"  \"metrics\": [ { \"metric\": \"y\", \"value\": 1, \"unit\": \"\",\n"
		"      \"expr\": \"fake@x@ / page-faults\", \"builtin\": false, \"reason\": null,\n"
		"      \"values\": [1, 1, 1] },\n"
		"    { \"metric\": \"r\", \"value\": 25, \"unit\": \"/s\",\n"
		"      \"expr\": \"page-faults / seconds\", \"builtin\": false, \"reason\": null,\n"
		"      \"values\": [20, 20, 30] } ],\n"
		"  \"environment\": { \"host\": \"box\", \"kernel\": \"6.1.0\", \"cpu\": \"Some CPU\",\n"
		"      \"nr_cpus\": 2, \"date\": \"2024-01-01T00:00:00Z\", \"hwprof_version\": \"0.2.0\" } }\n";
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct hwp_result *r = NULL;
	char bad[sizeof(doc) + 8];
	size_t idx;

	CHECK_ERR(hwp_result_load(write_str("scale.json", doc), &r), 0);
	if (!r)
		return;
	CHECK_ERR(hwp_result_find(r, "y", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	/* counts: 2.5 / 0.5 = 5 faults on average, over 5 */
	CHECK(fabs(si.value - 1) < 1e-12, "y on the mean counts: %g (0.5: the halves)",
	      si.value);
	CHECK_ERR(hwp_result_find(r, "r", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(fabs(si.value - 25) < 1e-9, "r = 5 / 0.2, not the runs' mean 23.3: %g",
	      si.value);
	CHECK_ERR(hwp_result_find(r, "fake/x/", &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(fabs(si.value - 2.5) < 1e-12, "an event's value is its mean: %g", si.value);
	hwp_result_free(r);
	r = NULL;
	snprintf(bad, sizeof(bad), "%s", doc);
	memcpy(strstr(bad, "0.5,"), "-1 ,", 4);
	CHECK_ERR(hwp_result_load(write_str("scale-bad.json", bad), &r),
		  -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(), "scale should be a number above 0"), "%s",
	      hwp_errmsg());
	hwp_result_free(r);
}

/* Written back and read again: the same numbers, the same environment. */
static void check_round_trip(void)
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_result *a = NULL, *b = NULL;
	char path[300], *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_ERR(hwp_result_load(write_str("a.json", stat_doc), &a), 0);
	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_result_write(a, f, &json), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s", write_file("b.json", buf, len));
	CHECK(strstr(buf, "\"host\": \"box\"") && strstr(buf, "\"date\": \"2024-01-01T00:00:00Z\""),
	      "the environment it was measured in, not this machine's");
	CHECK_ERR(hwp_result_load(path, &b), 0);
	for (size_t i = 0; a && b && i < hwp_result_nr_series(a); i++) {
		struct hwp_series_info x = { .sz = sizeof(x) }, y = { .sz = sizeof(y) };

		hwp_result_series(a, i, &x);
		hwp_result_series(b, i, &y);
		CHECK(!strcmp(x.name, y.name) && x.nr_runs == y.nr_runs, "row %zu", i);
		for (size_t k = 0; k < x.nr_runs; k++) {
			double u = x.values[k], v = y.values[k];

			CHECK(u == v || (isnan(u) && isnan(v)),
			      "row %zu run %zu: %g vs %g", i, k, u, v);
		}
	}
	free(buf);
	hwp_result_free(a);
	hwp_result_free(b);
}

/* The document with its first @from replaced by @to (16 live at once). */
static const char *variant(const char *from, const char *to)
{
	static char bufs[16][sizeof(stat_doc) + 256];
	static size_t next;
	char *buf = bufs[next++ % ARRAY_SIZE(bufs)];
	const char *at = strstr(stat_doc, from);

	CHECK(at, "the fixture has '%s' to replace", from);
	if (!at)
		return stat_doc;
	snprintf(buf, sizeof(bufs[0]), "%.*s%s%s", (int)(at - stat_doc), stat_doc, to,
		 at + strlen(from));
	return buf;
}

static void check_refused(void)
{
	const struct {
		const char *doc;
		const char *msg;
		int err;
		bool rewrite;	/* a field wrong: the message says to write it again */
	} table[] = {
		{ "", "is empty", -HWP_ERR_FORMAT, false },
		{ "hello", "is not valid JSON: line 1, column 1",
		  -HWP_ERR_FORMAT, false },
		{ "{\"a\": 1,}", "is not valid JSON", -HWP_ERR_FORMAT, false },
		{ "[1, 2]", "is JSON but not hwprof's: an array",
		  -HWP_ERR_FORMAT, false },
		{ "{\"runs\": 3}", "is JSON but not hwprof's: it has no \"schema\"",
		  -HWP_ERR_FORMAT, false },
		{ "{\"schema\": \"perf-stat\"}",
		  "has schema 'perf-stat', not hwprof-stat/1", -HWP_ERR_FORMAT, false },
		{ "{\"schema\": \"hwprof-stat/2\"}", "which this hwprof (",
		  -HWP_ERR_FORMAT, false },
		{ "{\"schema\": \"hwprof-sweep/1\"}", "is a sweep",
		  -HWP_ERR_FORMAT, false },
		{ "{\"interval\": 0.1, \"events\": []}\n{\"interval\": 0.2, \"events\": []}\n",
		  "hwprof stat -I writes one object a line", -HWP_ERR_FORMAT, false },
		{ variant("\"runs\": 3", "\"runs\": 0"),
		  "runs should be a whole number from 1", -HWP_ERR_FORMAT, true },
		{ variant("\"runs\": 3", "\"runs\": 2.5"),
		  "runs should be a whole number", -HWP_ERR_FORMAT, true },
		{ variant("\"runs\": 3", "\"runs\": \"3\""),
		  "runs should be a number, not a string", -HWP_ERR_FORMAT, true },
		{ variant("\"runs\": 3", "\"runs\": 4"),
		  "seconds.values has 3 values, but \"runs\" is 4",
		  -HWP_ERR_FORMAT, true },
		{ variant("[100, 110, 120]", "[100, 110]"),
		  "line 13: events[0].values has 2 values", -HWP_ERR_FORMAT, true },
		{ variant("[100, 110, 120]", "[100, \"110\", 120]"),
		  "events[0].values[1] should be a number or null, not a string",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"supported\": true", "\"supported\": 1"),
		  "events[0].supported should be true or false, not a number",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"event\": \"cycles\", ", ""), "events[1] has no \"event\"",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"./bench\"", "7"), "command[0] should be a string",
		  -HWP_ERR_FORMAT, true },
		{ variant("[\"./bench\", \"--threads\", \"4\"]", "[7, 8]"),
		  "line 3: command[0] should be a string, not a number",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"metrics\": [", "\"metrics\": [ 3, null, "),
		  "line 21: metrics[0] should be an object, not a number",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"metrics\": [", "\"metrics\": [ 3, "),
		  "metrics[0] should be an object", -HWP_ERR_FORMAT, true },
		{ variant("\"target\": null,", ""),
		  "line 1: \"target\" is missing: it should be a string or null; ",
		  -HWP_ERR_FORMAT, true },
		{ variant("\"nr_cpus\": 2", "\"nr_cpus\": -2"),
		  "environment.nr_cpus should be a whole number", -HWP_ERR_FORMAT, true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		struct hwp_result *r = (struct hwp_result *)&r;
		const char *path = write_str("bad.json", table[i].doc);

		CHECK_ERR(hwp_result_load(path, &r), table[i].err);
		CHECK(!r, "row %zu: no result on failure", i);
		CHECK(strstr(hwp_errmsg(), table[i].msg) &&
		      strstr(hwp_errmsg(), "bad.json"),
		      "row %zu: message '%s', want '%s'", i, hwp_errmsg(), table[i].msg);
		CHECK(!table[i].rewrite ||
		      strstr(hwp_errmsg(), "write it again with hwprof"),
		      "row %zu: what to do: '%s'", i, hwp_errmsg());
	}
	{
		struct hwp_result *r;
		char path[300];

		snprintf(path, sizeof(path), "%s/missing.json", tmpdir);
		CHECK_ERR(hwp_result_load(path, &r), -ENOENT);
		CHECK(strstr(hwp_errmsg(), "missing.json"), "%s", hwp_errmsg());
		CHECK_ERR(hwp_result_load(tmpdir, &r), -EISDIR);
	}
}

/* Every prefix of a good file is refused as truncated (or empty). */
static void check_truncated(void)
{
	size_t bad = 0, last = strlen(stat_doc) - 2;	/* "}\n" ends it */

	for (size_t len = 0; len <= last; len++) {
		struct hwp_result *r = NULL;
		const char *path = write_file("cut.json", stat_doc, len);
		int err = hwp_result_load(path, &r);

		if (err != -HWP_ERR_FORMAT ||
		    (!strstr(hwp_errmsg(), "ends early") &&
		     !strstr(hwp_errmsg(), "is empty"))) {
			if (bad++ < 3)
				t_note("%zu bytes: %d: %s", len, err, hwp_errmsg());
		}
		hwp_result_free(r);
	}
	CHECK(bad == 0, "%zu prefixes not refused as truncated", bad);
}

static void check_sweeps(void)
{
	HWP_OPTS(hwp_write_opts, text, .format = HWP_FORMAT_TEXT);
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	HWP_OPTS(hwp_write_opts, csv, .format = HWP_FORMAT_CSV);
	struct hwp_sweep *sw = NULL, *back = NULL;
	struct hwp_result *r1 = NULL, *r2 = NULL;
	char *const argv[] = { "./bench", "--threads", "{T}", NULL };
	char *buf = NULL, path[300];
	size_t len = 0;
	FILE *f;

	CHECK_ERR(hwpriv_sweep_new("bad name", &sw), -EINVAL);
	CHECK_ERR(hwpriv_sweep_new("T", &sw), 0);
	CHECK_ERR(hwpriv_sweep_set_command(sw, argv), 0);
	CHECK_ERR(hwp_result_load(write_str("a.json", stat_doc), &r1), 0);
	CHECK_ERR(hwp_result_load(write_str("a.json", stat_doc), &r2), 0);
	CHECK_ERR(hwpriv_sweep_add(sw, "1", r1), 0);
	CHECK_ERR(hwpriv_sweep_add(sw, "1", r2), -EEXIST);
	CHECK_ERR(hwpriv_sweep_add(sw, "2", r2), 0);
	CHECK(hwp_sweep_nr_points(sw) == 2 && !strcmp(hwp_sweep_value(sw, 1), "2") &&
	      hwp_sweep_result(sw, 0) == r1 && !hwp_sweep_value(sw, 2), "points");
	CHECK(!strcmp(hwp_sweep_param(sw), "T"), "param");

	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_sweep_write(sw, f, &text), 0);
	fclose(f);
	CHECK(strstr(buf, "for './bench --threads {T}' over T (3 runs each):"),
	      "title: %s", buf);
	CHECK(strstr(buf, "T=1") && strstr(buf, "T=2"), "a column per value: %s", buf);
	CHECK(strstr(buf, "faults   ") && strstr(buf, "<not supported>"), "rows: %s",
	      buf);
	CHECK(strstr(buf, "+- 5.25%"),
	      "the noise under each value (10 / 110 / sqrt 3): %s", buf);
	free(buf);
	CHECK_ERR(hwp_sweep_write(sw, stdout, &csv), -EOPNOTSUPP);

	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_sweep_write(sw, f, &json), 0);
	fclose(f);
	snprintf(path, sizeof(path), "%s", write_file("sweep.json", buf, len));
	CHECK_ERR(hwp_sweep_load(path, &back), 0);
	CHECK(back && hwp_sweep_nr_points(back) == 2 &&
	      !strcmp(hwp_sweep_param(back), "T") &&
	      !strcmp(hwp_sweep_value(back, 0), "1") &&
	      hwp_result_nr_runs(hwp_sweep_result(back, 1)) == 3, "sweep read back");
	{
		struct hwp_result *r;

		CHECK_ERR(hwp_result_load(path, &r), -HWP_ERR_FORMAT);
		CHECK(strstr(hwp_errmsg(), "hwp_sweep_load"), "%s", hwp_errmsg());
	}
	hwp_sweep_free(back);
	/* A duplicate value in a file, and a bad point. */
	{
		char *dup = strdup(buf), *second = strstr(dup, "\"value\": \"2\"");

		if (second)
			second[10] = '1';
		CHECK_ERR(hwp_sweep_load(write_str("dup.json", dup), &back),
			  -HWP_ERR_FORMAT);
		CHECK(strstr(hwp_errmsg(), "T=1 appears twice"), "%s", hwp_errmsg());
		free(dup);
	}
	CHECK_ERR(hwp_sweep_load(write_str("p.json", "{\"schema\": \"hwprof-sweep/1\", "
					   "\"parameter\": \"T\", \"command\": [], \"points\": [{\"value\": \"1\", "
					   "\"result\": {\"schema\": \"hwprof-stat/1\"}}]}"),
				 &back),
		  -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(), "points[0].result has no \"runs\""), "%s",
	      hwp_errmsg());
	CHECK_ERR(hwp_sweep_load(write_str("p.json", "{\"schema\": \"hwprof-sweep/1\", "
					   "\"parameter\": \"T\", \"command\": [], \"points\": []}"),
				 &back),
		  -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(), "has no points"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_sweep_load(write_str("p.json", "{\"schema\": \"hwprof-sweep/1\", "
					   "\"parameter\": \"T\", \"command\": [], \"points\": [1]}"),
				 &back),
		  -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(), "points[0] should be an object, not a number"), "%s",
	      hwp_errmsg());
	CHECK_ERR(hwp_sweep_load(write_str("p.json", "{\"schema\": \"hwprof-sweep/1\", "
					   "\"command\": [], \"points\": []}"),
				 &back),
		  -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(),
		     "p.json', line 1: \"parameter\" is missing: it should be a string; ") &&
	      strstr(hwp_errmsg(), "write it again with hwprof"), "%s", hwp_errmsg());
	free(buf);
	hwp_sweep_free(sw);

	/* A plain result is a sweep of one point without parameter. */
	CHECK_ERR(hwp_sweep_load(write_str("a.json", stat_doc), &sw), 0);
	CHECK(sw && hwp_sweep_nr_points(sw) == 1 && !hwp_sweep_param(sw) &&
	      !hwp_sweep_value(sw, 0) && hwp_result_nr_runs(hwp_sweep_result(sw, 0)) == 3,
	      "plain result as a sweep");
	hwp_sweep_free(sw);
}

/* stat_doc with one run's regions, @regions; free it. */
static char *with_regions(const char *regions)
{
	const char *env = strstr(stat_doc, "  \"environment\"");
	char *doc;

	if (asprintf(&doc, "%.*s  \"regions\": [%s],\n%s", (int)(env - stat_doc),
		     stat_doc, regions, env) < 0)
		t_skip("out of memory");
	return doc;
}

/* What @rs's writer, or @r's, writes in @fmt, in a new string. */
static char *written(const struct hwp_regionset *rs, const struct hwp_result *r,
		     enum hwp_format fmt)
{
	HWP_OPTS(hwp_write_opts, o, .format = fmt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (rs)
		CHECK_ERR(hwp_regionset_write(rs, f, &o), 0);
	else
		CHECK_ERR(hwp_result_write(r, f, &o), 0);
	fclose(f);
	return buf;
}

static void check_regionset(const struct hwp_regionset *rs)
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };
	struct hwp_region_info ri = { .sz = sizeof(ri) };
	struct hwp_series_info si = { .sz = sizeof(si) };

	CHECK_ERR(hwp_regionset_info(rs, &in), 0);
	CHECK(!strcmp(in.event_spec, "{context-switches,task-clock}") &&
	      in.sample_every == 1 &&
	      in.read_cost_ns == 1845.25 && in.nr_regions == 1, "the document's fields");
	CHECK_ERR(hwp_regionset_region(rs, 0, &ri), 0);
	CHECK(!strcmp(ri.name, "send") && ri.tid == 0 && ri.nr_threads == 2 &&
	      ri.calls == 2 && ri.measured_calls == 2 && ri.ops == 400 &&
	      ri.seconds == 0.004 && !ri.too_short, "the region's totals");
	CHECK(ri.nr_events == 2 && ri.values[0] == 60 && ri.values[1] == 3e6 &&
	      !ri.evlist, "the region's counts");
	CHECK_ERR(hwp_regionset_region(rs, 1, &ri), -EINVAL);
	CHECK_ERR(hwp_regionset_thread(rs, 0, 1, &ri), 0);
	CHECK(ri.tid == 102 && ri.calls == 1 && ri.ops == 200 && ri.values[0] == 35 &&
	      isnan(ri.values[1]), "a thread's part, null not counted");
	CHECK_ERR(hwp_regionset_thread(rs, 0, 2, &ri), -EINVAL);
	CHECK(hwp_regionset_nr_series(rs, 0) == 3 && hwp_regionset_nr_series(rs, 1) == 0,
	      "two events and a metric");
	CHECK_ERR(hwp_regionset_series(rs, 0, 0, &si), 0);
	CHECK(!strcmp(si.name, "context-switches") && si.kind == HWP_SERIES_EVENT &&
	      si.nr_runs == 1 && si.values[0] == 60 && si.percent_running[0] == 50,
	      "the percent running, as the file has it");
	CHECK_ERR(hwp_regionset_series(rs, 0, 2, &si), 0);
	CHECK(!strcmp(si.name, "cs/s") && si.kind == HWP_SERIES_METRIC &&
	      si.values[0] == 15000, "the metric");
}

/* The regions a program wrote: kept by hwp_result_load(), reachable, and
 * written by the one renderer of regions with their real percent running. */
static void check_regions(void)
{
	char *doc = with_regions(regions_doc), *text, *alone, *json;
	struct hwp_result *r = NULL, *back = NULL;
	struct hwp_regionset *rs = NULL;
	char path[300];

	CHECK_ERR(hwp_result_load(write_str("regions.json", doc), &r), 0);
	free(doc);
	if (!r)
		return;
	CHECK(hwp_result_nr_regionsets(r) == 1 && hwp_result_regionset(r, 0) &&
	      !hwp_result_regionset(r, 1), "the regions are kept, one regionset a run");
	check_regionset(hwp_result_regionset(r, 0));

	CHECK_ERR(hwp_regionset_load(write_str("alone.json", regions_doc), &rs), 0);
	if (rs)
		check_regionset(rs);
	text = written(NULL, r, HWP_FORMAT_TEXT);
	alone = written(rs, NULL, HWP_FORMAT_TEXT);
	CHECK(strstr(text, alone),
	      "one renderer: the result shows what the regionset does:\n%s\n%s",
	      text, alone);
	CHECK(strstr(alone, " Regions, events {context-switches,task-clock}, a read costs 1845 ns:\n") &&
	      strstr(alone, " Region 'send': 2 threads, 2 calls, 0.004000 s, 400 ops\n"),
	      "the region: %s", alone);
	CHECK(strstr(alone, "60  context-switches                   30 /call         0.15 /op (50.00% counted, scaled)\n"),
	      "multiplexed: the percent it counted, as the file says: %s", alone);
	CHECK(strstr(alone, "3.00 msec  task-clock                        1.5 msec/call       0.0075 msec/op\n"),
	      "a clock in msec, counted all the time: %s", alone);
	CHECK(strstr(alone, "   metrics: cs/s 15000.0\n"), "%s", alone);
	free(text);
	free(alone);

	/* Written back, read again: the same regions. */
	json = written(NULL, r, HWP_FORMAT_JSON);
	snprintf(path, sizeof(path), "%s", write_str("back.json", json));
	CHECK_ERR(hwp_result_load(path, &back), 0);
	CHECK(hwp_result_nr_regionsets(back) == 1, "kept through a round trip");
	if (back)
		check_regionset(hwp_result_regionset(back, 0));
	free(json);
	json = written(rs, NULL, HWP_FORMAT_JSON);
	hwp_regionset_free(rs);
	rs = NULL;
	CHECK_ERR(hwp_regionset_load(write_str("alone.json", json), &rs), 0);
	if (rs)
		check_regionset(rs);
	free(json);
	{
		HWP_OPTS(hwp_write_opts, csv, .format = HWP_FORMAT_CSV);

		CHECK_ERR(hwp_regionset_write(rs, stdout, &csv), -EOPNOTSUPP);
		CHECK(strstr(hwp_errmsg(),
			     "regions are written as text, JSON, OpenMetrics or Prometheus text, not CSV"),
		      "%s", hwp_errmsg());
	}
	hwp_regionset_free(rs);
	hwp_result_free(back);
	hwp_result_free(r);
}

/* @regions_doc with its first @from replaced by @to; free it. */
static char *regions_variant(const char *from, const char *to)
{
	const char *at = strstr(regions_doc, from);
	char *doc;

	if (!at)
		t_skip("fixture lacks %s", from);
	if (asprintf(&doc, "%.*s%s%s", (int)(at - regions_doc), regions_doc, to,
		     at + strlen(from)) < 0)
		t_skip("out of memory");
	return doc;
}

/* The last warning the library logged. */
static char warned[1024];

static void keep_warning(enum hwp_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == HWP_LOG_WARN)
		snprintf(warned, sizeof(warned), "%s", msg);
}

/* A region with a bad field is left out, with a warning that says which
 * and why, and counted; the rest of the file is read. */
static bool left_out(const char *path, const char *msg)
{
	struct hwp_regionset_info info = { .sz = sizeof(info) };
	struct hwp_regionset *rs = NULL;
	int err;

	warned[0] = '\0';
	hwp_log_set(keep_warning, NULL);
	err = hwp_regionset_load(path, &rs);
	hwp_log_set(NULL, NULL);
	err = err ?: hwp_regionset_info(rs, &info);
	hwp_regionset_free(rs);
	return !err && info.nr_regions == 0 && info.nr_unreadable == 1 &&
	       strstr(warned, msg) && strstr(warned, "the region is left out");
}

/* Counts are uint64_t where the library keeps them, and what it writes, it
 * reads: ops past 2^53 (a double holds them to a part in 1e16), up to
 * 2^64 - 1; past that, the message says the limit as a whole number. */
static void check_region_counts(void)
{
	char *big = regions_variant("\"ops\": 400", "\"ops\": 9007199254740994");
	char *over = regions_variant("\"ops\": 400", "\"ops\": 18446744073709551616");
	struct hwp_region_info ri = { .sz = sizeof(ri) };
	struct hwp_regionset *rs = NULL;

	CHECK_ERR(hwp_regionset_load(write_str("big.json", big), &rs), 0);
	CHECK(rs && !hwp_regionset_region(rs, 0, &ri) && ri.ops == 9007199254740994ULL,
	      "ops past 2^53: %llu", (unsigned long long)ri.ops);
	hwp_regionset_free(rs);
	rs = NULL;
	CHECK(left_out(write_str("over.json", over),
		       "from 0 to 18446744073709551615, not 18446744073709551616"),
	      "%s", warned);
	free(big);
	free(over);
}

static void check_regions_refused(void)
{
	const struct {
		const char *from, *to, *msg;
		bool region;	/* in the one region: it is left out, not the file */
	} table[] = {
		{ "hwprof-regions/1", "hwprof-stat/1",
		  "is not the regions of a program (schema 'hwprof-stat/1', not 'hwprof-regions/1')",
		  false },
		{ "\"threads\": 2", "\"threads\": 3",
		  "regions[0] has 3 threads, but 2 in \"per_thread\"", true },
		{ "\"calls\": 2, ", "", "regions[0] has no \"calls\"", true },
		{ "\"count\": 60", "\"count\": \"60\"",
		  "regions[0].events[0].count should be a number or null, not a string",
		  true },
		{ "\"task-clock\": null", "\"cycles\": null",
		  "regions[0].per_thread[1].counts has no \"task-clock\"", true },
		{ "\"tid\": 101", "\"tid\": -1",
		  "regions[0].per_thread[0].tid should be a whole number", true },
		{ "\"sample_every\": 1", "\"sample_every\": 0",
		  "sample_every should be a whole number", false },
		{ "\"per_thread\": [\n", "\"per_thread\": [1, 2], \"was\": [\n",
		  "regions[0].per_thread[0] should be an object, not a number", true },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		char *bad = regions_variant(table[i].from, table[i].to), *doc;
		struct hwp_regionset *rs = (struct hwp_regionset *)&rs;
		struct hwp_result *r = (struct hwp_result *)&r;

		if (table[i].region) {
			CHECK(left_out(write_str("bad.json", bad), table[i].msg) &&
			      strstr(warned, "bad.json"),
			      "row %zu: '%s', want '%s'", i, warned, table[i].msg);
			/* Inside a result: read, the run's region left out. */
			doc = with_regions(bad);
			hwp_log_set(keep_warning, NULL);
			CHECK_ERR(hwp_result_load(write_str("bad.json", doc), &r), 0);
			hwp_log_set(NULL, NULL);
			CHECK(strstr(warned, "regions[0].regions[0]"),
			      "row %zu in a result: '%s'", i, warned);
			hwp_result_free(r);
			free(doc);
			free(bad);
			continue;
		}
		CHECK_ERR(hwp_regionset_load(write_str("bad.json", bad), &rs),
			  -HWP_ERR_FORMAT);
		CHECK(!rs && strstr(hwp_errmsg(), table[i].msg) &&
		      strstr(hwp_errmsg(), "bad.json"),
		      "row %zu: '%s', want '%s'", i, hwp_errmsg(), table[i].msg);
		/* Inside a result, the message says which run's regions. */
		doc = with_regions(bad);
		CHECK_ERR(hwp_result_load(write_str("bad.json", doc), &r),
			  -HWP_ERR_FORMAT);
		CHECK(!r && strstr(hwp_errmsg(), "regions[0]"),
		      "row %zu in a result: '%s'", i, hwp_errmsg());
		free(doc);
		free(bad);
	}
}

/* Every writer goes through one dispatcher: a format it is not written in
 * is refused with the formats it has, a value that is no format is an
 * error, and a full disk is found by the stream check. */
/* The fixture with units per CPU (and the environment's topology) put in
 * before its environment, with @from replaced by @to there. */
static char *units_doc(const char *from, const char *to)
{
	static const char units[] =
		"  \"aggregation\": \"cpu\",\n"
		"  \"units\": [ { \"unit\": \"CPU0\", \"id\": 0, \"socket\": 0, \"die\": 0,\n"
		"      \"cpus\": [0],\n"
		"      \"events\": [ { \"event\": \"faults\", \"canonical\": \"page-faults\",\n"
		"          \"unit\": \"\", \"supported\": true, \"user_only\": false,\n"
		"          \"reason\": null, \"values\": [40, 50, 60],\n"
		"          \"percent_running_values\": [100, 100, 100] } ],\n"
		"      \"metrics\": [] },\n"
		"    { \"unit\": \"CPU1\", \"id\": 1, \"socket\": 0, \"die\": 0,\n"
		"      \"cpus\": [1],\n"
		"      \"events\": [ { \"event\": \"faults\", \"canonical\": \"page-faults\",\n"
		"          \"unit\": \"\", \"supported\": true, \"user_only\": false,\n"
		"          \"reason\": null, \"values\": [60, 60, 60],\n"
		"          \"percent_running_values\": [100, 100, 100] } ],\n"
		"      \"metrics\": [] } ],\n"
		"  \"environment\": { \"topology\": [{\"cpu\": 0, \"core\": 0, \"die\": 0,\n"
		"      \"socket\": 0, \"node\": 0}, {\"cpu\": 1, \"core\": 1, \"die\": 0,\n"
		"      \"socket\": 0, \"node\": 0}],";
	const char *env = strstr(stat_doc, "  \"environment\": {");
	char *doc, *whole, *at;

	if (asprintf(&whole, "%.*s%s%s", (int)(env - stat_doc), stat_doc, units,
		     env + strlen("  \"environment\": {")) < 0)
		t_skip("out of memory");
	at = from ? strstr(whole, from) : NULL;
	if (!at)
		return whole;
	if (asprintf(&doc, "%.*s%s%s", (int)(at - whole), whole, to,
		     at + strlen(from)) < 0)
		t_skip("out of memory");
	free(whole);
	return doc;
}

/* A result counted per CPU: its units, their rows, written and read back;
 * and the units' fields checked as the rest are. */
static void check_units(void)
{
	struct hwp_unit_info ui = { .sz = sizeof(ui) };
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct hwp_result *r = NULL, *back = NULL;
	char *doc = units_doc(NULL, NULL);
	const char *path = write_str("units.json", doc);
	HWP_OPTS(hwp_write_opts, wo, .format = HWP_FORMAT_JSON);
	char again[300];
	FILE *f;

	free(doc);
	CHECK_ERR(hwp_result_load(path, &r), 0);
	if (!r)
		return;
	CHECK(hwp_result_aggr(r) == HWP_AGGR_CPU && hwp_result_nr_units(r) == 2, "units");
	CHECK_ERR(hwp_result_unit(r, 1, &ui), 0);
	CHECK(!strcmp(ui.name, "CPU1") && ui.id == 1 && ui.nr_cpus == 1 &&
	      ui.cpus[0] == 1 && ui.tid == -1 && !ui.comm, "CPU1: %s", ui.name);
	CHECK_ERR(hwp_result_unit_series(r, 0, 0, &si), 0);
	CHECK(!strcmp(si.name, "faults") && si.values[2] == 60, "CPU0's faults");
	CHECK_ERR(hwp_result_unit(r, 2, &ui), -EINVAL);
	CHECK_ERR(hwp_result_unit_series(r, 0, 1, &si), -EINVAL);
	snprintf(again, sizeof(again), "%s/units2.json", tmpdir);
	f = fopen(again, "w");
	CHECK_ERR(f ? hwp_result_write(r, f, &wo) : -errno, 0);
	if (f)
		fclose(f);
	CHECK_ERR(hwp_result_load(again, &back), 0);
	CHECK(back && hwp_result_nr_units(back) == 2 &&
	      !hwp_result_unit_series(back, 1, 0, &si) && si.values[0] == 60,
	      "written and read back");
	hwp_result_free(back);
	hwp_result_free(r);
}

static void check_units_refused(void)
{
	const struct {
		const char *from, *to, *msg;
	} table[] = {
		{ "\"aggregation\": \"cpu\"", "\"aggregation\": \"rack\"",
		  "\"aggregation\" is 'rack', not cpu" },
		{ "\"cpus\": [1]", "\"cpus\": [\"one\"]",
		  "units[1].cpus[0] is not a CPU" },
		{ "\"cpus\": [1]", "\"cpus\": [-1]", "units[1].cpus[0] is not a CPU" },
		{ "[60, 60, 60]", "[60, 60]", "units[1]" },
		{ "\"unit\": \"CPU1\"", "\"unit\": 1", "units[1]" },
		{ "{\"cpu\": 1, \"core\": 1", "{\"cpu\": \"1\", \"core\": 1",
		  "environment.topology[1]" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		char *doc = units_doc(table[i].from, table[i].to);
		struct hwp_result *r = NULL;

		CHECK(strstr(doc, table[i].to), "the fixture has '%s'", table[i].from);
		CHECK_ERR(hwp_result_load(write_str("bad-units.json", doc), &r),
			  -HWP_ERR_FORMAT);
		CHECK(!r && strstr(hwp_errmsg(), table[i].msg), "%s: %s", table[i].to,
		      hwp_errmsg());
		free(doc);
	}
}

static void check_writers(void)
{
	static const struct {
		int fmt;
		int err[3];	/* result, sweep, comparison */
		const char *msg[3];
	} table[] = {
		{ HWP_FORMAT_TEXT, { 0, 0, 0 }, { NULL } },
		{ HWP_FORMAT_JSON, { 0, 0, 0 }, { NULL } },
		{ HWP_FORMAT_CSV, { 0, -EOPNOTSUPP, 0 },
		  { NULL, "a sweep is written as text or JSON, not CSV", NULL } },
		{ HWP_FORMAT_FOLDED, { -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP },
		  { "a result is written as text, CSV, JSON, OpenMetrics or Prometheus text, not folded stacks",
		    "a sweep is written as text or JSON, not folded stacks",
		    "a comparison is written as text, CSV or JSON, not folded stacks" } },
		{ HWP_FORMAT_OPENMETRICS, { 0, -EOPNOTSUPP, -EOPNOTSUPP },
		  { NULL, "a sweep is written as text or JSON, not OpenMetrics",
		    "a comparison is written as text, CSV or JSON, not OpenMetrics" } },
		{ HWP_FORMAT_PROMETHEUS, { 0, -EOPNOTSUPP, -EOPNOTSUPP },
		  { NULL, "a sweep is written as text or JSON, not Prometheus text" } },
		{ HWP_FORMAT_SPEEDSCOPE, { -EOPNOTSUPP, -EOPNOTSUPP, -EOPNOTSUPP },
		  { "a result is written as text, CSV, JSON, OpenMetrics or Prometheus text, not speedscope" } },
		{ 99, { -EINVAL, -EINVAL, -EINVAL },
		  { "hwp_result_write: unknown format 99",
		    "hwp_sweep_write: unknown format 99",
		    "hwp_compare_write: unknown format 99" } },
	};
	struct hwp_result *r = NULL, *r2 = NULL;
	struct hwp_sweep *sw = NULL;
	struct hwp_compare *c = NULL;
	FILE *null = fopen("/dev/null", "w"), *full = fopen("/dev/full", "w");

	CHECK_ERR(hwp_result_load(write_str("a.json", stat_doc), &r), 0);
	CHECK_ERR(hwp_result_load(write_str("a.json", stat_doc), &r2), 0);
	CHECK_ERR(hwpriv_sweep_new("T", &sw), 0);
	CHECK_ERR(hwpriv_sweep_add(sw, "1", r2), 0);
	CHECK_ERR(hwp_compare_from_results(r, r, NULL, &c), 0);
	if (!r || !sw || !c || !null || !full)
		t_skip("no result, sweep, comparison or device to write to");
	for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
		HWP_OPTS(hwp_write_opts, o, .format = (enum hwp_format)table[i].fmt);
		int got[3] = { hwp_result_write(r, null, &o), 0, 0 };
		char msgs[3][256];

		snprintf(msgs[0], sizeof(msgs[0]), "%s", hwp_errmsg());
		got[1] = hwp_sweep_write(sw, null, &o);
		snprintf(msgs[1], sizeof(msgs[1]), "%s", hwp_errmsg());
		got[2] = hwp_compare_write(c, null, &o);
		snprintf(msgs[2], sizeof(msgs[2]), "%s", hwp_errmsg());
		for (int k = 0; k < 3; k++) {
			CHECK(got[k] == table[i].err[k],
			      "format %d, writer %d: %d, want %d (%s)",
			      table[i].fmt, k, got[k], table[i].err[k], msgs[k]);
			CHECK(!table[i].msg[k] || !strcmp(msgs[k], table[i].msg[k]),
			      "format %d, writer %d: '%s', want '%s'", table[i].fmt, k,
			      msgs[k], table[i].msg[k]);
		}
	}
	CHECK_ERR(hwp_result_write(r, NULL, NULL), -EINVAL);
	CHECK(!strcmp(hwp_errmsg(), "hwp_result_write: NULL argument"), "%s",
	      hwp_errmsg());
	CHECK_ERR(hwp_sweep_write(NULL, null, NULL), -EINVAL);
	CHECK_ERR(hwp_result_write(r, full, NULL), -ENOSPC);
	CHECK(strstr(hwp_errmsg(), "writing the result failed: No space left on device; the file system is full"),
	      "%s", hwp_errmsg());
	CHECK_ERR(hwp_sweep_write(sw, full, NULL), -ENOSPC);
	CHECK(strstr(hwp_errmsg(), "writing the sweep failed"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_compare_write(c, full, NULL), -ENOSPC);
	CHECK(strstr(hwp_errmsg(), "writing the comparison failed"), "%s", hwp_errmsg());
	fclose(null);
	fclose(full);
	hwp_compare_free(c);
	hwp_sweep_free(sw);
	hwp_result_free(r);
}

int main(void)
{
	t_init();
	if (!mkdtemp(tmpdir))
		t_skip("no temporary directory");
	t_run(check_read);
	t_run(check_round_trip);
	t_run(check_times);
	t_run(check_scale_and_value);
	t_run(check_refused);
	t_run(check_truncated);
	t_run(check_sweeps);
	t_run(check_writers);
	t_run(check_units);
	t_run(check_units_refused);
	t_run(check_regions);
	t_run(check_region_counts);
	t_run(check_regions_refused);
	if (t_case("clean-up")) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		CHECK(system(cmd) == 0, "cleanup");
	}
	return t_done();
}
