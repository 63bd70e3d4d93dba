// SPDX-License-Identifier: MIT
/* Events of PMUs with a cpumask, and of PMUs of several instances
 * (uncore_sw_0..2), on a fabricated sysfs tree (HWPROF_SYSFS_ROOT) whose
 * PMUs have the software type, so that the kernel opens them without an
 * uncore: a recording opens them on their cpumask's CPUs only, and only
 * system-wide; a hold leaves them alone, as no session opens them on a
 * thread; uncore_sw/EVENT/ is one event an instance, counted as one row
 * of their sum (perf stat's merge), or a row each with no_merge. */
#include "core/core.h"
#include "event/event.h"
#include "event/fds.h"
#include "count/count.h"
#include "count/session.h"
#include "sample/record.h"
#include "harness.h"

static char root[] = "/tmp/hwprof-uncore-open-XXXXXX";

#define DEV "bus/event_source/devices/"
#define NR_SW 3

static void put(const char *rel, const char *text)
{
	t_put_file(root, rel, text);
}

/* PERF_TYPE_SOFTWARE: ticks is cpu-clock (config 0), faults page-faults
 * (config 2), which turns a switch of the kernel's on. */
static void put_pmu(const char *pmu, const char *cpumask)
{
	char rel[160];

#define PMU(f, text) \
	do { \
		snprintf(rel, sizeof(rel), DEV "%s/%s", pmu, f); \
		put(rel, text); \
	} while (0)
	PMU("type", "1\n");
	PMU("cpumask", cpumask);
	PMU("format/event", "config:0-63\n");
	PMU("events/ticks", "event=0\n");
	PMU("events/faults", "event=2\n");
	PMU("events/half", "event=0\n");
	PMU("events/half.scale", "0.5\n");
	PMU("events/half.unit", "MiB\n");
#undef PMU
}

static void fabricate(void)
{
	char pmu[32];

	for (int i = 0; i < NR_SW; i++) {
		snprintf(pmu, sizeof(pmu), "uncore_sw_%d", i);
		put_pmu(pmu, "0\n");
	}
}

static struct hwp_record *record_open(const char *spec, enum hwp_scope scope, int *err)
{
	HWP_OPTS(hwp_record_opts, o, .freq = 100, .scope = scope);
	struct hwp_evlist *evl = NULL;
	struct hwp_record *r = NULL;

	*err = hwp_evlist_parse(spec, NULL, &evl);
	if (!*err)
		*err = hwp_record_new(evl, &o, &r);
	if (!*err)
		*err = hwp_record_open(r);
	hwp_evlist_free(evl);
	return r;
}

/* record -a opens an event of a PMU with a cpumask where it counts, as
 * stat does: on CPU 0 alone, not once a CPU (each sample as many times). */
static void test_record_on_its_cpumask(void)
{
	size_t open = 0;
	int err;
	struct hwp_record *r = record_open("uncore_sw_1/ticks/,cpu-clock", HWP_SCOPE_CPUS,
					   &err);

	if (err == -EACCES || err == -EPERM) {
		hwp_record_free(r);
		t_case_skip("system-wide sampling is not allowed here");
		return;
	}
	CHECK_ERR(err, 0);
	for (size_t c = 0; r && !err && c < r->t.nr_cpus; c++) {
		size_t inst = fds_inst(&r->fds, c, 0);
		bool on = fds_get(&r->fds, inst, 0) >= 0;

		CHECK(on == (r->t.cpus[c] == 0), "CPU %d: %s", r->t.cpus[c],
		      on ? "open" : "not open");
		open += on;
		CHECK(fds_get(&r->fds, inst, 1) >= 0, "cpu-clock on CPU %d",
		      r->t.cpus[c]);
	}
	CHECK(open == 1, "open on %zu CPUs", open);
	hwp_record_free(r);
}

/* record of a thread: such a PMU counts no thread; the error says -a. */
static void test_record_per_thread_says_a(void)
{
	int err;
	struct hwp_record *r = record_open("uncore_sw_1/ticks/", HWP_SCOPE_THREAD, &err);

	CHECK(err < 0 && strstr(hwp_errmsg(), "uncore_sw_1/ticks/") &&
	      strstr(hwp_errmsg(), "system-wide, with -a"), "%d: %s", err,
	      err ? hwp_errmsg() : "(opened)");
	hwp_record_free(r);
}

/* A hold opens on the calling thread, where no session opens such an
 * event: it holds context-switches, not the PMU's page-faults. */
static void test_hold_leaves_cpumask_events(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwpriv_hold *h = NULL;

	CHECK_ERR(hwp_evlist_parse("uncore_sw_0/faults/,context-switches", NULL, &evl),
		  0);
	if (!evl)
		return;
	CHECK_ERR(hwpriv_hold_new(evl, &h), 0);
	CHECK(h && hwpriv_hold_nr_events(h) == 1, "%zu events held",
	      hwpriv_hold_nr_events(h));
	hwpriv_hold_free(h);
	hwp_evlist_free(evl);
}

static struct hwp_evlist *parse(const char *spec, bool no_merge)
{
	HWP_OPTS(hwp_evlist_opts, o, .no_merge = no_merge);
	struct hwp_evlist *evl = NULL;

	CHECK_ERR(hwp_evlist_parse(spec, &o, &evl), 0);
	return evl;
}

/* One event an instance, each a group of its own (no group holds two
 * PMUs), named as written, or as perf --no-merge names them. */
static void test_expanded_to_each_instance(void)
{
	static const bool no_merge[] = { false, true };

	for (size_t k = 0; k < ARRAY_SIZE(no_merge); k++) {
		struct hwp_evlist *evl;
		const struct event *ev;
		char want[64];

		evl = parse("uncore_sw/ticks/u,task-clock", no_merge[k]);

		CHECK(evl && evl->nr_events == NR_SW + 1 && evl->nr_groups == NR_SW + 1,
		      "%zu events", evl ? evl->nr_events : 0);
		for (size_t i = 0; evl && i < NR_SW && i < evl->nr_events; i++) {
			ev = evlist_get(evl, i);
			snprintf(want, sizeof(want), "uncore_sw_%zu/ticks/", i);
			CHECK(!strcmp(ev->canonical, want), "canonical '%s'",
			      ev->canonical);
			if (no_merge[k])
				strcat(want, "u");
			CHECK(!strcmp(ev->name, no_merge[k] ? want : "uncore_sw/ticks/u"),
			      "event %zu: '%s'", i, ev->name);
			CHECK(ev->merged == (!no_merge[k] && i > 0) && ev->group == i &&
			      ev->attr.type == 1 && ev->attr.exclude_kernel &&
			      ev->nr_cpumask == 1, "event %zu: merged %d, group %zu", i,
			      ev->merged, ev->group);
		}
		ev = evl && evl->nr_events == NR_SW + 1 ? evlist_get(evl, NR_SW) : NULL;
		CHECK(ev && !ev->merged && ev->group == NR_SW, "task-clock");
		hwp_evlist_free(evl);
	}
}

/* A group cannot hold several PMUs: the error says what to write. */
static void test_group_names_one_instance(void)
{
	struct hwp_evlist *evl = NULL;

	CHECK_ERR(hwp_evlist_parse("{uncore_sw/ticks/,task-clock}", NULL, &evl),
		  -HWP_ERR_SYNTAX);
	CHECK(strstr(hwp_errmsg(), "uncore_sw_0 to uncore_sw_2") &&
	      strstr(hwp_errmsg(), "uncore_sw_0/ticks/"), "%s", hwp_errmsg());
	hwp_evlist_free(evl);
}

/* @evl opened on every CPU, or NULL: @evl NULL, system-wide counting not
 * allowed here (the case skipped), or a failure (checked). */
static struct hwp_session *open_cpus(const struct hwp_evlist *evl)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_CPUS);
	struct hwp_session *s = NULL;
	int err;

	if (!evl)
		return NULL;
	err = hwp_session_new(evl, &o, &s) ?: hwp_session_open(s);
	if (err == -EACCES || err == -EPERM)
		t_case_skip("system-wide counting is not allowed here");
	else
		CHECK_ERR(err, 0);
	if (err) {
		hwp_session_free(s);
		return NULL;
	}
	return s;
}

/* The rows of one run of counts 100, 200, 300 of the instances (task-clock
 * 1000), each counted all the time it was enabled. */
static struct hwp_result *result_of(const struct hwp_session *s, const char *metric)
{
	struct hwp_count counts[NR_SW + 1];
	struct hwp_result *r = NULL;
	struct hwp_metric *m = NULL;

	for (size_t i = 0; i <= NR_SW; i++)
		counts[i] = (struct hwp_count){ i < NR_SW ? 100 * (i + 1) : 1000,
						50, 50 };
	CHECK_ERR(hwp_result_new(&r), 0);
	if (metric) {
		CHECK_ERR(hwp_metric_parse(metric, &m), 0);
		CHECK_ERR(hwp_result_add_metric(r, m), 0);
		hwp_metric_free(m);
	}
	CHECK_ERR(hwp_result_add_run(r, s, counts, 1.0), 0);
	return r;
}

static void check_row(const struct hwp_result *r, size_t idx, const char *name,
		      double value)
{
	struct hwp_series_info si = { .sz = sizeof(si) };

	CHECK_ERR(hwp_result_series(r, idx, &si), 0);
	CHECK(si.name && !strcmp(si.name, name) && si.supported && si.nr_runs == 1 &&
	      si.values[0] == value, "row %zu: %s = %g", idx, si.name,
	      si.nr_runs ? si.values[0] : -1);
}

/* Opened on CPU 0 of each instance's cpumask; one row of their sum, times
 * the scale, which a formula reads too; with no_merge, a row each. */
static void test_merged_row(void)
{
	struct hwp_evlist *evl = parse("uncore_sw/half/,task-clock", false);
	struct hwp_result *r = NULL;
	size_t idx = 0;
	struct hwp_session *s = open_cpus(evl);

	if (!s)
		goto out;
	for (size_t e = 0; e < NR_SW; e++)
		for (size_t inst = 0; inst < s->nr_inst; inst++)
			CHECK((fds_get(&s->fds, inst, e) >= 0) == (s->t.cpus[inst] == 0),
			      "event %zu on CPU %d", e, s->t.cpus[inst]);
	r = result_of(s, "sum = uncore_sw@half@ / 2");
	CHECK(r && hwp_result_nr_series(r) >= 3, "%zu rows", hwp_result_nr_series(r));
	check_row(r, 0, "uncore_sw/half/", 300);
	check_row(r, 1, "task-clock", 1000);
	CHECK_ERR(hwp_result_find(r, "sum", &idx), 0);
	check_row(r, idx, "sum", 300);
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	evl = parse("uncore_sw/half/,task-clock", true);
	s = open_cpus(evl);
	r = s ? result_of(s, NULL) : NULL;
	for (size_t i = 0; r && i < NR_SW; i++) {
		char name[32];

		snprintf(name, sizeof(name), "uncore_sw_%zu/half/", i);
		check_row(r, i, name, 50.0 * (double)(i + 1));
	}
	if (r)
		check_row(r, NR_SW, "task-clock", 1000);
out:
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* The merged row of instances that ran unequal shares of the time they
 * were enabled is the sum of each one's scaled count, as perf's: 250 in a
 * quarter of its second is 1000, 200 in all of it 200, and one that never
 * ran adds nothing (not its extrapolation): 1200, where scaling the summed
 * values and times would say 450 * 3 / 1.25 = 1080. The percent running is
 * of the summed times: 1.25 s of 3 s. A formula reads the same sum. */
static void test_merged_scaled_each(void)
{
	static const struct hwp_count counts[NR_SW + 1] = {
		{ 250, 1000000000, 250000000 }, { 200, 1000000000, 1000000000 },
		{ 0, 1000000000, 0 }, { 1000, 1000000000, 1000000000 },
	};
	struct hwp_evlist *evl = parse("uncore_sw/ticks/,task-clock", false);
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct hwp_metric *m = NULL;
	struct hwp_result *r = NULL;
	size_t idx = 0;
	struct hwp_session *s = open_cpus(evl);

	if (!s)
		goto out;
	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_metric_parse("m = uncore_sw@ticks@", &m), 0);
	CHECK_ERR(hwp_result_add_metric(r, m), 0);
	CHECK_ERR(hwp_result_add_run(r, s, counts, 1.0), 0);
	CHECK_ERR(hwp_result_series(r, 0, &si), 0);
	CHECK(si.nr_runs == 1 && si.values[0] == 1200 &&
	      fabs(si.percent_running[0] - 100.0 * 1.25 / 3) < 1e-9,
	      "%s = %g, %g%% running", si.name, si.nr_runs ? si.values[0] : -1,
	      si.nr_runs ? si.percent_running[0] : -1);
	CHECK_ERR(hwp_result_find(r, "m", &idx), 0);
	check_row(r, idx, "m", 1200);
out:
	hwp_metric_free(m);
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

int main(void)
{
	t_init();
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_record_on_its_cpumask);
	t_run(test_record_per_thread_says_a);
	t_run(test_hold_leaves_cpumask_events);
	t_run(test_expanded_to_each_instance);
	t_run(test_group_names_one_instance);
	t_run(test_merged_row);
	t_run(test_merged_scaled_each);
	t_rm_tree(root);
	return t_done();
}
