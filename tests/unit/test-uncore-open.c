// SPDX-License-Identifier: MIT
/* Events of PMUs with a cpumask, and of PMUs of several instances
 * (uncore_sw_0..2), on a fabricated sysfs tree (HWPROF_SYSFS_ROOT) whose
 * PMUs have the software type, so that the kernel opens them without an
 * uncore: a recording opens them on their cpumask's CPUs only, and only
 * system-wide; a hold leaves them alone, as no session opens them on a
 * thread. */
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

int main(void)
{
	t_init();
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_record_on_its_cpumask);
	t_run(test_record_per_thread_says_a);
	t_run(test_hold_leaves_cpumask_events);
	t_rm_tree(root);
	return t_done();
}
