// SPDX-License-Identifier: MIT
/* Which instances a merged uncore row adds up, on a fabricated sysfs tree
 * (HWPROF_SYSFS_ROOT) of PMUs with the software type, so that the kernel
 * opens them without an uncore: a formula over the row is supported exactly
 * when the row is; -C leaves out the instances whose cpumask it misses and
 * counts the rest, as perf stat does; an embedder tells a row's instances
 * by hwp_event_info.merged. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "count/session.h"
#include "harness.h"

static char root[] = "/tmp/hwprof-uncore-merge-XXXXXX";

#define DEV "bus/event_source/devices/"

/* event=0 is cpu-clock; event=999 no software event (the kernel says
 * ENOENT: not supported). */
static void put_pmu(const char *pmu, const char *cpumask, const char *odd)
{
	char rel[160];

#define PMU(f, text) \
	do { \
		snprintf(rel, sizeof(rel), DEV "%s/%s", pmu, f); \
		t_put_file(root, rel, text); \
	} while (0)
	PMU("type", "1\n");
	PMU("cpumask", cpumask);
	PMU("format/event", "config:0-63\n");
	PMU("events/ticks", "event=0\n");
	PMU("events/odd", odd);
#undef PMU
}

static void fabricate(void)
{
	/* uncore_mx/odd/: counts on its first instance only */
	put_pmu("uncore_mx_0", "0\n", "event=0\n");
	put_pmu("uncore_mx_1", "0\n", "event=999\n");
	/* uncore_cm: an instance on CPU 0, one on CPU 1 (a socket each) */
	put_pmu("uncore_cm_0", "0\n", "event=0\n");
	put_pmu("uncore_cm_1", "1\n", "event=0\n");
	/* uncore_far: both on CPU 1 */
	put_pmu("uncore_far_0", "1\n", "event=0\n");
	put_pmu("uncore_far_1", "1\n", "event=0\n");
}

static struct hwp_session *open_on(const char *spec, const char *cpus,
				   struct hwp_evlist **evl, int *err)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_CPUS, .cpus = cpus);
	struct hwp_session *s = NULL;

	*evl = NULL;
	*err = hwp_evlist_parse(spec, NULL, evl);
	if (*err)
		return NULL;
	*err = hwp_session_new(*evl, &o, &s) ?: hwp_session_open(s);
	if (*err == -EACCES || *err == -EPERM)
		t_case_skip("system-wide counting is not allowed here");
	return s;
}

/* One run of @counts, with formula @metric. */
static struct hwp_result *result_of(const struct hwp_session *s,
				    const struct hwp_count *counts, const char *metric)
{
	struct hwp_result *r = NULL;
	struct hwp_metric *m = NULL;

	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_metric_parse(metric, &m), 0);
	CHECK_ERR(hwp_result_add_metric(r, m), 0);
	hwp_metric_free(m);
	CHECK_ERR(hwp_result_add_run(r, s, counts, 1.0), 0);
	return r;
}

static void series(const struct hwp_result *r, const char *name,
		   struct hwp_series_info *si)
{
	size_t idx = 0;

	si->sz = sizeof(*si);
	CHECK_ERR(hwp_result_find(r, name, &idx), 0);
	CHECK_ERR(hwp_result_series(r, idx, si), 0);
}

/* uncore_mx/odd/ counts on uncore_mx_0 and not on uncore_mx_1: the row is
 * <not supported>, and so is a formula that reads it, as its value is. */
static void test_formula_supported_as_row(void)
{
	static const struct hwp_count counts[3] = {
		{ 100, 50, 50 }, { 0, 0, 0 }, { 1000, 50, 50 },
	};
	struct hwp_series_info si;
	struct hwp_evlist *evl;
	struct hwp_result *r = NULL;
	int err;
	struct hwp_session *s = open_on("uncore_mx/odd/,task-clock", NULL, &evl, &err);

	CHECK_ERR(err, 0);
	if (!s || err)
		goto out;
	CHECK(hwp_session_event_status(s, 0, NULL) == HWP_EVENT_COUNTING &&
	      hwp_session_event_status(s, 1, NULL) == HWP_EVENT_NOT_SUPPORTED,
	      "instances: %d %d", hwp_session_event_status(s, 0, NULL),
	      hwp_session_event_status(s, 1, NULL));
	r = result_of(s, counts, "m = uncore_mx@odd@ * 2");
	series(r, "uncore_mx/odd/", &si);
	CHECK(!si.supported, "the row is %ssupported", si.supported ? "" : "not ");
	series(r, "m", &si);
	CHECK(!si.supported, "m is %ssupported", si.supported ? "" : "not ");
out:
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* -C 0: uncore_cm_1 (cpumask 1) is left out and uncore_cm/ticks/ is what
 * uncore_cm_0 counts, as perf drops the instances -C misses; uncore_far's
 * instances are all on CPU 1, so its row is <not supported>, saying why. */
static void test_cpu_list_leaves_out(void)
{
	static const struct hwp_count counts[5] = {
		{ 100, 50, 50 }, { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }, { 1000, 50, 50 },
	};
	struct hwp_series_info si;
	struct hwp_evlist *evl;
	struct hwp_result *r = NULL;
	const char *why = NULL;
	int err;
	struct hwp_session *s = open_on("uncore_cm/ticks/,uncore_far/ticks/,task-clock",
					"0", &evl, &err);

	CHECK_ERR(err, 0);
	if (!s || err)
		goto out;
	CHECK(hwp_session_event_status(s, 0, NULL) == HWP_EVENT_COUNTING &&
	      hwp_session_event_status(s, 1, &why) == HWP_EVENT_NOT_SUPPORTED &&
	      why && strstr(why, "-C"), "uncore_cm_1: %s", why ? why : "counting");
	r = result_of(s, counts, "m = uncore_cm@ticks@");
	series(r, "uncore_cm/ticks/", &si);
	CHECK(si.supported && si.nr_runs == 1 && si.values[0] == 100,
	      "uncore_cm/ticks/: %ssupported, %g", si.supported ? "" : "not ",
	      si.nr_runs ? si.values[0] : -1);
	series(r, "m", &si);
	CHECK(si.supported && si.nr_runs == 1 && si.values[0] == 100,
	      "m: %ssupported, %g", si.supported ? "" : "not ",
	      si.nr_runs ? si.values[0] : -1);
	series(r, "uncore_far/ticks/", &si);
	CHECK(!si.supported && si.reason && strstr(si.reason, "leaves out"),
	      "uncore_far/ticks/: %s", si.reason ? si.reason : "supported");
	hwp_result_free(r);
	/* A formula of the left-out instance alone: not supported, saying
	 * why (it read as supported, with no value) */
	r = result_of(s, counts, "m1 = uncore_cm_1@ticks@");
	series(r, "m1", &si);
	CHECK(!si.supported && si.reason && strstr(si.reason, "-C"),
	      "m1: %ssupported: %s", si.supported ? "" : "not ",
	      si.reason ? si.reason : "(no reason)");
out:
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* hwp_event_info.merged marks the instances after the first of a merged
 * row: an embedder adds each to the row of the event before it. */
static void test_info_merged(void)
{
	static const bool no_merge[] = { false, true };

	for (size_t k = 0; k < ARRAY_SIZE(no_merge); k++) {
		HWP_OPTS(hwp_evlist_opts, o, .no_merge = no_merge[k]);
		struct hwp_event_info info = { .sz = sizeof(info) };
		struct hwp_evlist *evl = NULL;
		bool want[] = { false, !no_merge[k], false };

		CHECK_ERR(hwp_evlist_parse("uncore_cm/ticks/,task-clock", &o, &evl), 0);
		CHECK(evl && hwp_evlist_nr_events(evl) == ARRAY_SIZE(want), "%zu events",
		      evl ? hwp_evlist_nr_events(evl) : 0);
		for (size_t i = 0; evl && i < ARRAY_SIZE(want); i++) {
			CHECK_ERR(hwp_evlist_event(evl, i, &info), 0);
			CHECK(info.merged == want[i],
			      "no_merge %d, event %zu (%s): merged %d", no_merge[k], i,
			      info.name, info.merged);
		}
		hwp_evlist_free(evl);
	}
}

int main(void)
{
	t_init();
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_formula_supported_as_row);
	t_run(test_cpu_list_leaves_out);
	t_run(test_info_merged);
	t_rm_tree(root);
	return t_done();
}
