// SPDX-License-Identifier: MIT
/* hwp_metric_event_spec(): the event list of hwprof stat -M NAME..., built
 * by the library. On a fabricated sysfs tree (HWPROF_SYSFS_ROOT) with a
 * core PMU "cpu" that has the kernel's slots and Sapphire Rapids' eight
 * topdown-* events, and three uncore_imc_N; the metrics are the tables' own
 * (metric_model_all(), metric_topdown_all()), whatever CPU this runs on.
 * The strings are those hwprof stat printed in its JSON event_spec before
 * the library built them (tests/cli/test_model_metrics.py checks more). */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "harness.h"

#include <pthread.h>

static char root[] = "/tmp/hwprof-mspec-XXXXXX";

#define DEV "bus/event_source/devices/"

static const char *const topdown[] = {
	"retiring", "bad-spec", "fe-bound", "be-bound",
	"heavy-ops", "br-mispredict", "fetch-lat", "mem-bound",
};

static void fabricate(void)
{
	t_put_file(root, DEV "cpu/type", "4\n");
	t_put_file(root, DEV "cpu/format/event", "config:0-7\n");
	t_put_file(root, DEV "cpu/format/umask", "config:8-15\n");
	t_put_file(root, DEV "cpu/events/slots", "event=0x00,umask=0x4\n");
	for (size_t i = 0; i < ARRAY_SIZE(topdown); i++) {
		char rel[128], text[64];

		snprintf(rel, sizeof(rel), DEV "cpu/events/topdown-%s", topdown[i]);
		snprintf(text, sizeof(text), "event=0x00,umask=0x%zx\n", 0x80 + i);
		t_put_file(root, rel, text);
	}
	for (int i = 0; i < 3; i++) {
		static const char *const files[][2] = {
			{ "cpumask", "0\n" },
			{ "format/event", "config:0-7\n" },
			{ "format/umask", "config:8-15\n" },
			{ "events/cas_count_read", "event=0x04,umask=0x0f\n" },
			{ "events/cas_count_read.scale", "6.103515625e-5\n" },
			{ "events/cas_count_write", "event=0x04,umask=0x30\n" },
			{ "events/cas_count_write.scale", "6.103515625e-5\n" },
		};
		char rel[128], text[16];

		snprintf(rel, sizeof(rel), DEV "uncore_imc_%d/type", i);
		snprintf(text, sizeof(text), "%d\n", 30 + i);
		t_put_file(root, rel, text);
		for (size_t k = 0; k < ARRAY_SIZE(files); k++) {
			snprintf(rel, sizeof(rel), DEV "uncore_imc_%d/%s", i,
				 files[k][0]);
			t_put_file(root, rel, files[k][1]);
		}
	}
}

/* The metrics of @model's tables (@from: metric_model_all or
 * metric_topdown_all) of @group, or the one named @name, in table order,
 * appended to @out (room for @max) from *@n on. */
static void pick(const struct hwp_metric *(*from)(size_t), const char *model,
		 const char *group, const char *name, const struct hwp_metric **out,
		 size_t max, size_t *n)
{
	const struct hwp_metric *m;

	for (size_t i = 0; (m = from(i)) && *n < max; i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		if (hwp_metric_info(m, &mi) || strcmp(mi.model, model))
			continue;
		if ((group && !strcmp(mi.group, group)) ||
		    (name && !strcmp(mi.name, name)))
			out[(*n)++] = m;
	}
}

/* Whether hwp_metric_event_spec(@base, @ms, @nr) is @want. */
static void check_spec(const char *what, const char *base, const struct hwp_metric **ms,
		       size_t nr, const char *want)
{
	char *spec = NULL;
	int err = hwp_metric_event_spec(base, ms, nr, &spec);

	CHECK(!err && spec && !strcmp(spec, want), "%s: %d %s\n  want %s", what, err,
	      spec ? spec : "(null)", want);
	free(spec);
}

static void test_model_group_fits(void)
{
	const struct hwp_metric *ms[8];
	size_t n = 0;

	pick(metric_model_all, "icx", "TopdownL1", NULL, ms, ARRAY_SIZE(ms), &n);
	CHECK(n == 4, "icx's TopdownL1: %zu metrics", n);
	/* six events of four formulas, each once, in one group */
	check_spec("TopdownL1", NULL, ms, n,
		   "{IDQ_UOPS_NOT_DELIVERED:CORE,INT_MISC:UOP_DROPPING,TOPDOWN:SLOTS_P,r02a4,INT_MISC:CLEARS_COUNT,UOPS_RETIRED:SLOTS}");
	check_spec("TopdownL1 after -e cycles", "cycles", ms, n,
		   "cycles,{IDQ_UOPS_NOT_DELIVERED:CORE,INT_MISC:UOP_DROPPING,TOPDOWN:SLOTS_P,r02a4,INT_MISC:CLEARS_COUNT,UOPS_RETIRED:SLOTS}");
	/* a built-in between two members: each member its own group */
	n = 0;
	pick(metric_model_all, "icx", NULL, "Retiring", ms, ARRAY_SIZE(ms), &n);
	ms[n++] = hwp_metric_builtin(1);
	pick(metric_model_all, "icx", NULL, "Frontend_Bound", ms, ARRAY_SIZE(ms), &n);
	CHECK(n == 3 && !strcmp(hwp_metric_name(ms[1]), "IPC"), "%zu metrics", n);
	check_spec("Retiring,IPC,Frontend_Bound", NULL, ms, n,
		   "{UOPS_RETIRED:SLOTS,TOPDOWN:SLOTS_P},instructions,cycles,{IDQ_UOPS_NOT_DELIVERED:CORE,INT_MISC:UOP_DROPPING}");
}

static void test_model_group_too_big(void)
{
	const struct hwp_metric *ms[16];
	size_t n = 0;

	pick(metric_model_all, "icx", "TopdownL2", NULL, ms, ARRAY_SIZE(ms), &n);
	CHECK(n == 8, "icx's TopdownL2: %zu metrics", n);
	/* 19 events: more than 7, so not one group: they multiplex */
	check_spec("TopdownL2", NULL, ms, n,
		   "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE,INT_MISC:UOP_DROPPING,TOPDOWN:SLOTS_P,IDQ_UOPS_NOT_DELIVERED:CORE,BR_MISP_RETIRED:ALL_BRANCHES,MACHINE_CLEARS:COUNT,r02a4,INT_MISC:CLEARS_COUNT,UOPS_RETIRED:SLOTS,CYCLE_ACTIVITY:STALLS_MEM_ANY,EXE_ACTIVITY:BOUND_ON_STORES,CYCLE_ACTIVITY:STALLS_TOTAL,EXE_ACTIVITY:1_PORTS_UTIL,EXE_ACTIVITY:2_PORTS_UTIL,UOPS_ISSUED:ANY,IDQ:MS_UOPS,UOPS_DECODED:DEC0,r1000156,IDQ:MITE_UOPS");
}

static void test_uncore_several_pmus(void)
{
	const struct hwp_metric *ms[4];
	size_t n = 0;

	pick(metric_model_all, "icx", NULL, "Memory_BW_Read", ms, ARRAY_SIZE(ms), &n);
	pick(metric_model_all, "icx", NULL, "Memory_BW_Write", ms, ARRAY_SIZE(ms), &n);
	CHECK(n == 2, "icx's Memory_BW: %zu metrics", n);
	/* one event an instance of uncore_imc: no group across PMUs */
	check_spec("Memory_BW_Read,Memory_BW_Write", NULL, ms, n,
		   "uncore_imc_0/cas_count_read/,uncore_imc_1/cas_count_read/,uncore_imc_2/cas_count_read/,uncore_imc_0/cas_count_write/,uncore_imc_1/cas_count_write/,uncore_imc_2/cas_count_write/");
	check_spec("Memory_BW_Write after one instance", "uncore_imc_1/cas_count_write/",
		   ms + 1, 1,
		   "uncore_imc_1/cas_count_write/,uncore_imc_0/cas_count_write/,uncore_imc_2/cas_count_write/");
}

#define TD1 "cpu/slots/,cpu/topdown-retiring/,cpu/topdown-bad-spec/," \
	    "cpu/topdown-fe-bound/,cpu/topdown-be-bound/"
#define TD2 "cpu/topdown-heavy-ops/,cpu/topdown-br-mispredict/," \
	    "cpu/topdown-fetch-lat/,cpu/topdown-mem-bound/"

static void test_kernel_topdown(void)
{
	const struct hwp_metric *ms[16];
	size_t n1 = 0, n = 0;

	pick(metric_topdown_all, "spr", "TopdownL1", NULL, ms, ARRAY_SIZE(ms), &n1);
	CHECK(n1 == 4, "spr's kernel TopdownL1: %zu metrics", n1);
	check_spec("TopdownL1", NULL, ms, n1, "{" TD1 "}");
	/* slots counted already: the four topdown-* alone, still one group */
	check_spec("TopdownL1 after -e cpu/slots/", "cpu/slots/", ms, n1,
		   "cpu/slots/,{cpu/topdown-retiring/,cpu/topdown-bad-spec/,cpu/topdown-fe-bound/,cpu/topdown-be-bound/}");
	n = n1;
	pick(metric_topdown_all, "spr", "TopdownL2", NULL, ms, ARRAY_SIZE(ms), &n);
	CHECK(n > n1, "spr's kernel TopdownL2: %zu metrics", n - n1);
	/* nine, more than 7, but the kernel counts them at once: level 2's
	 * four join level 1's group, led by slots */
	check_spec("TopdownL1,TopdownL2", NULL, ms, n, "{" TD1 "," TD2 "}");
	check_spec("TopdownL2", NULL, ms + n1, n - n1, "{" TD1 "," TD2 "}");
}

static void test_base_dedupe(void)
{
	const struct hwp_metric *ms[4];
	size_t n = 0;

	ms[0] = hwp_metric_builtin(1);
	/* IPC's instructions and cycles: in the list already, by an alias */
	check_spec("IPC after cycles,instructions", "cycles,instructions", ms, 1,
		   "cycles,instructions");
	check_spec("IPC after instructions", "instructions", ms, 1,
		   "instructions,cycles");
	check_spec("IPC twice", NULL, (const struct hwp_metric *[]){ ms[0], ms[0] }, 2,
		   "instructions,cycles");
	pick(metric_model_all, "icx", NULL, "Retiring", ms, ARRAY_SIZE(ms), &n);
	/* one event left of two: no group of one */
	check_spec("Retiring after TOPDOWN:SLOTS_P", "TOPDOWN:SLOTS_P", ms, n,
		   "TOPDOWN:SLOTS_P,UOPS_RETIRED:SLOTS");
	check_spec("no metric", "cycles", ms, 0, "cycles");
	check_spec("nothing", NULL, ms, 0, "");
}

static void test_formula(void)
{
	struct hwp_metric *m = NULL;

	CHECK_ERR(hwp_metric_parse("pf=page-faults / task-clock + cpu@slots@", &m), 0);
	if (!m)
		return;
	/* a formula of its own: its inputs, '@' written '/', not grouped */
	check_spec("pf", "task-clock", (const struct hwp_metric *[]){ m }, 1,
		   "task-clock,page-faults,cpu/slots/");
	check_spec("pf alone", NULL, (const struct hwp_metric *[]){ m }, 1,
		   "page-faults,task-clock,cpu/slots/");
	hwp_metric_free(m);
}

/* From several threads at once, as the header says it may be called: the
 * kernel's topdown levels (sysfs read at each parse) and a model group. */
static const struct hwp_metric *td_both[16], *l1[8];
static size_t nr_td_both, nr_l1;

static void *specs_in_a_thread(void *arg)
{
	uintptr_t bad = 0;

	(void)arg;
	for (int i = 0; i < 50; i++) {
		char *a = NULL, *b = NULL;

		bad += hwp_metric_event_spec(NULL, td_both, nr_td_both, &a) ||
		       strcmp(a, "{" TD1 "," TD2 "}");
		bad += hwp_metric_event_spec("cycles", l1, nr_l1, &b) ||
		       strcmp(b, "cycles,{IDQ_UOPS_NOT_DELIVERED:CORE,INT_MISC:UOP_DROPPING,TOPDOWN:SLOTS_P,r02a4,INT_MISC:CLEARS_COUNT,UOPS_RETIRED:SLOTS}");
		free(a);
		free(b);
	}
	return (void *)bad;
}

static void test_threads(void)
{
	pthread_t t[4];
	size_t n = 0;
	void *bad;

	pick(metric_topdown_all, "spr", "TopdownL1", NULL, td_both, 8, &nr_td_both);
	pick(metric_topdown_all, "spr", "TopdownL2", NULL, td_both, 16, &nr_td_both);
	pick(metric_model_all, "icx", "TopdownL1", NULL, l1, 8, &nr_l1);
	CHECK(nr_td_both > 4 && nr_l1 == 4, "%zu, %zu metrics", nr_td_both, nr_l1);
	while (n < ARRAY_SIZE(t) && !pthread_create(&t[n], NULL, specs_in_a_thread, NULL))
		n++;
	CHECK(n == ARRAY_SIZE(t), "%zu threads started", n);
	for (size_t k = 0; k < n; k++)
		CHECK(!pthread_join(t[k], &bad) && !bad, "thread %zu: %p wrong", k, bad);
}

static void test_invalid(void)
{
	const struct hwp_metric *none[1] = { NULL };
	char *spec = (char *)"untouched";

	CHECK_ERR(hwp_metric_event_spec("cycles", NULL, 1, &spec), -EINVAL);
	CHECK_ERR(hwp_metric_event_spec("cycles", none, 1, &spec), -EINVAL);
	CHECK(spec == NULL, "*spec NULL after an error");
	CHECK_ERR(hwp_metric_event_spec("cycles", none, 0, NULL), -EINVAL);
}

int main(void)
{
	t_init();
	/* the tables' events encode as Ice Lake-X's, wherever this runs */
	setenv("LIBPFM_FORCE_PMU", "icx", 1);
	t_mkdtemp(root);
	fabricate();
	/* before the first metric parses: uncore_imc_N's sums read this tree */
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	if (!libpfm_pmu_present("icx")) {
		t_rm_tree(root);
		t_skip("this libpfm4 has no PMU 'icx' (its tables are per architecture)");
	}
	t_run(test_model_group_fits);
	t_run(test_model_group_too_big);
	t_run(test_uncore_several_pmus);
	t_run(test_kernel_topdown);
	t_run(test_base_dedupe);
	t_run(test_formula);
	t_run(test_threads);
	t_run(test_invalid);
	t_rm_tree(root);
	return t_done();
}
