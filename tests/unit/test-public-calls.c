// SPDX-License-Identifier: MIT
/*
 * Public functions that neither the other tests nor the examples call,
 * each with what it promises (tests/abi/exports.py wants every export
 * called): the names of every public enum, the sort keys' list, a metric
 * checked with names, the
 * doctor's writer, and a workload watched, killed and reaped.
 */
#include "core/core.h"
#include "harness.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Each public enum: how many names, and one of them, as the CLI's options
 * take them and the outputs write them. */
static const struct {
	enum hwp_enum e;
	int nr;
	int value;
	const char *name;
} enums[] = {
	{ HWP_ENUM_LOG_LEVEL, 4, HWP_LOG_DEBUG, "debug" },
	{ HWP_ENUM_EVENT_SOURCE, 5, HWP_SOURCE_TRACEPOINT, "tracepoint" },
	{ HWP_ENUM_SCOPE, 3, HWP_SCOPE_CPUS, "cpus" },
	{ HWP_ENUM_AGGR, 7, HWP_AGGR_SOCKET, "socket" },
	{ HWP_ENUM_EVENT_STATUS, 4, HWP_EVENT_NOT_SUPPORTED, "not-supported" },
	{ HWP_ENUM_CAPTURE, 3, HWP_CAPTURE_STDERR, "stderr" },
	{ HWP_ENUM_STATS_TEST, 2, HWP_TEST_MANN_WHITNEY, "mann-whitney" },
	{ HWP_ENUM_ORDER, 3, HWP_ORDER_ABBA, "abba" },
	{ HWP_ENUM_FORMAT, 9, HWP_FORMAT_OPENMETRICS, "openmetrics" },
	{ HWP_ENUM_SORT, 7, HWP_SORT_COMM, "comm" },
	{ HWP_ENUM_SERIES_KIND, 4, HWP_SERIES_SCORE, "score" },
	{ HWP_ENUM_VERDICT, 4, HWP_VERDICT_NONE, "n/a" },
	{ HWP_ENUM_CALLCHAIN, 3, HWP_CALLCHAIN_DWARF, "dwarf" },
};

static void test_enum_names(void)
{
	size_t nr = sizeof(enums) / sizeof(enums[0]);
	int v = -1;

	CHECK(nr == HWP_ENUM_CALLCHAIN + 1, "%zu enums in the table", nr);
	for (size_t i = 0; i < nr; i++) {
		const char *name;
		int n;

		for (n = 0; (name = hwp_enum_name(enums[i].e, n)); n++) {
			CHECK_ERR(hwp_enum_parse(enums[i].e, name, &v), 0);
			CHECK(v == n, "enum %d: '%s' parses back to %d, not %d",
			      (int)enums[i].e, name, v, n);
		}
		CHECK(n == enums[i].nr, "enum %d: %d names, want %d", (int)enums[i].e, n,
		      enums[i].nr);
		name = hwp_enum_name(enums[i].e, enums[i].value);
		CHECK(name && !strcmp(name, enums[i].name), "enum %d value %d: '%s'",
		      (int)enums[i].e, enums[i].value, name ? name : "(null)");
	}
	CHECK(!hwp_enum_name(HWP_ENUM_FORMAT, -1) && !hwp_enum_name((enum hwp_enum)99, 0),
	      "no name for what is no value");
	CHECK_ERR(hwp_enum_parse(HWP_ENUM_FORMAT, "yaml", &v), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "'yaml' is not a format") &&
	      strstr(hwp_errmsg(), "csv") && strstr(hwp_errmsg(), " or html"),
	      "the message lists the formats: %s", hwp_errmsg());
	CHECK_ERR(hwp_enum_parse((enum hwp_enum)99, "csv", &v), -EINVAL);
}

static void test_sort_names(void)
{
	enum hwp_sort keys[4];
	size_t nr = 0;

	CHECK_ERR(hwp_sort_parse("comm,sym", keys, 4, &nr), 0);
	CHECK(nr == 2 && keys[0] == HWP_SORT_COMM && keys[1] == HWP_SORT_SYM, "%zu keys",
	      nr);
	CHECK_ERR(hwp_sort_parse("sym,bogus", keys, 4, &nr), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "bogus"), "the message names it: %s", hwp_errmsg());
	CHECK_ERR(hwp_sort_parse("sym,dso", keys, 1, &nr), -E2BIG);
	for (int k = 0; k <= HWP_SORT_PID; k++) {
		const char *name = hwp_enum_name(HWP_ENUM_SORT, (enum hwp_sort)k);
		enum hwp_sort back = (enum hwp_sort)-1;

		CHECK_ERR(hwp_sort_parse(name, &back, 1, &nr), 0);
		CHECK(back == (enum hwp_sort)k, "%s parses back", name);
	}
}

static void test_metric_check_names(void)
{
	static const char *const names[] = { "tput" }, *const other[] = { "rate" };
	struct hwp_evlist *evl = NULL;
	struct hwp_metric *m = NULL;

	CHECK_ERR(hwp_evlist_parse("task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_metric_parse("ns_per_op=task-clock / tput", &m), 0);
	CHECK_ERR(hwp_metric_check(m, evl), -HWP_ERR_UNKNOWN_NAME);
	CHECK_ERR(hwp_metric_check_names(m, evl, names, 1), 0);
	CHECK_ERR(hwp_metric_check_names(m, evl, other, 1), -HWP_ERR_UNKNOWN_NAME);
	CHECK(strstr(hwp_errmsg(), "tput"), "the message names it: %s", hwp_errmsg());
	hwp_metric_free(m);
	hwp_evlist_free(evl);
}

static char *written(const struct hwp_doctor *d, enum hwp_format format, int *err)
{
	HWP_OPTS(hwp_write_opts, o, .format = format);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	*err = hwp_doctor_write(d, mem, &o);
	fclose(mem);
	return text;
}

static void test_doctor_write(void)
{
	struct hwp_doctor *d = NULL;
	char *text;
	int err;

	CHECK_ERR(hwp_doctor_new(&d), 0);
	if (!d)
		return;
	text = written(d, HWP_FORMAT_TEXT, &err);
	CHECK(!err && text && strstr(text, "hardware-pmu"), "text: %.300s", text);
	free(text);
	text = written(d, HWP_FORMAT_JSON, &err);
	CHECK(!err && text && strstr(text, "\"hardware-pmu\"") && strstr(text, "hwprof-doctor/1"),
	      "JSON: %.300s", text);
	free(text);
	text = written(d, HWP_FORMAT_CSV, &err);
	CHECK(err == -EOPNOTSUPP, "CSV: %d", err);
	free(text);
	hwp_doctor_free(d);
}

/* A command that would run for ever: seen running, killed, reaped. */
static void test_workload_kill(void)
{
	char *argv[] = { "sleep", "100000", NULL };
	struct hwp_workload *w = NULL;
	double user = -1, sys = -1;
	int fd, status = 0;

	CHECK_ERR(hwp_workload_new(argv, NULL, &w), 0);
	if (!w)
		return;
	CHECK_ERR(hwp_workload_start(w), 0);
	CHECK_ERR(hwp_workload_poll(w), 0);
	CHECK_ERR(hwp_workload_cpu_times(w, &user, &sys), -EBUSY);
	fd = hwp_workload_fd(w);
	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		CHECK(poll(&p, 1, 0) == 0, "not readable while it runs");
	}
	CHECK_ERR(hwp_workload_kill(w, SIGKILL), 0);
	if (fd >= 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		CHECK(poll(&p, 1, -1) == 1, "its descriptor is readable once it exits");
		CHECK_ERR(hwp_workload_poll(w), 1);
	} else {
		CHECK_ERR(hwp_workload_wait(w, &status), 0);
		CHECK(hwp_workload_exit_code(status) == 128 + SIGKILL, "status %#x",
		      status);
	}
	CHECK_ERR(hwp_workload_cpu_times(w, &user, &sys), 0);
	CHECK(user >= 0 && sys >= 0 && user < 10 && sys < 10, "user %g s, system %g s",
	      user, sys);
	hwp_workload_free(w);
}

int main(void)
{
	t_init();
	t_run(test_enum_names);
	t_run(test_sort_names);
	t_run(test_metric_check_names);
	t_run(test_doctor_write);
	t_run(test_workload_kill);
	return t_done();
}
