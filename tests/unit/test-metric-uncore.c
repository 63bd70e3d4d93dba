// SPDX-License-Identifier: MIT
/* Uncore PMUs of several instances (uncore_imc_0..5, a memory controller
 * each) on a fabricated sysfs tree (HWPROF_SYSFS_ROOT): a formula's
 * uncore_imc@EVENT@ written out as every instance times its scale; each
 * instance's event with its type, config, scale, unit and cpumask; the
 * memory bandwidth metrics on synthetic counts against values worked out
 * by hand; and a session that counts such an event only system-wide, on
 * its cpumask's CPUs (a PMU of the fabricated tree whose type is the
 * software one, so that the kernel opens it without an uncore). */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "count/session.h"
#include "harness.h"
#include "unit/models.h"

#include <math.h>

static char root[] = "/tmp/hwprof-uncore-XXXXXX";

#define DEV "bus/event_source/devices/"
#define NR_IMC 6
#define SCALE "6.103515625e-5"

static void put(const char *rel, const char *text)
{
	t_put_file(root, rel, text);
}

static void put_imc(int i)
{
	char rel[160], type[16];

	snprintf(type, sizeof(type), "%d\n", 20 + i);
#define IMC(f, text) \
	do { \
		snprintf(rel, sizeof(rel), DEV "uncore_imc_%d/%s", i, f); \
		put(rel, text); \
	} while (0)
	IMC("type", type);
	IMC("cpumask", "0,1\n");	/* one CPU a package: two of them */
	IMC("format/event", "config:0-7\n");
	IMC("format/umask", "config:8-15\n");
	IMC("events/cas_count_read", "event=0x04,umask=0x0f\n");
	IMC("events/cas_count_read.scale", SCALE "\n");
	IMC("events/cas_count_read.unit", "MiB\n");
	IMC("events/cas_count_write", "event=0x04,umask=0x30\n");
	IMC("events/cas_count_write.scale", SCALE "\n");
	IMC("events/cas_count_write.unit", "MiB\n");
#undef IMC
}

static void fabricate(void)
{
	for (int i = 0; i < NR_IMC; i++)
		put_imc(i);
	/* not an instance of uncore_imc: its name goes on past the number */
	put(DEV "uncore_imc_free_running_0/type", "40\n");
	put(DEV "uncore_imc_free_running_0/events/cas_count_read", "event=0xff\n");
	/* PERF_TYPE_SOFTWARE, config 0 (cpu-clock): opens on any kernel */
	put(DEV "uncore_fake_0/type", "1\n");
	put(DEV "uncore_fake_0/cpumask", "0\n");
	put(DEV "uncore_fake_0/format/event", "config:0-63\n");
	put(DEV "uncore_fake_0/events/ticks", "event=0\n");
	/* the same, counted on a CPU no machine has */
	put(DEV "uncore_far_0/type", "1\n");
	put(DEV "uncore_far_0/cpumask", "1000\n");
	/* one CPU a core, as cstate_core's: more than a few */
	put(DEV "uncore_wide_0/type", "1\n");
	put(DEV "uncore_wide_0/cpumask", "0-31,64\n");
	put(DEV "uncore_wide_0/format/event", "config:0-63\n");
	put(DEV "uncore_wide_0/events/ticks", "event=0\n");
	put(DEV "uncore_far_0/format/event", "config:0-63\n");
	put(DEV "uncore_far_0/events/ticks", "event=0\n");
}

static void test_expanded_to_every_instance(void)
{
	char *out = NULL;

	CHECK_ERR(metric_expand_instances("uncore_imc@cas_count_read@ * 1.048576 / seconds",
					  &out), 0);
	CHECK(out && !strcmp(out, "(uncore_imc_0@cas_count_read@ * " SCALE
			     " + uncore_imc_1@cas_count_read@ * " SCALE
			     " + uncore_imc_2@cas_count_read@ * " SCALE
			     " + uncore_imc_3@cas_count_read@ * " SCALE
			     " + uncore_imc_4@cas_count_read@ * " SCALE
			     " + uncore_imc_5@cas_count_read@ * " SCALE
			     ") * 1.048576 / seconds"), "expanded: '%s'", out);
	free(out);
	/* a PMU of its own, and one the machine lacks, stay as written;
	 * numbers keep their exponent */
	CHECK_ERR(metric_expand_instances("uncore_fake_0@ticks@ + nope@x@ * 1e-3 - 2E+2",
					  &out), 0);
	CHECK(out && !strcmp(out, "uncore_fake_0@ticks@ + nope@x@ * 1e-3 - 2E+2"),
	      "kept: '%s'", out);
	free(out);
}

static void test_each_instance_resolves(void)
{
	for (int i = 0; i < NR_IMC; i++) {
		struct hwp_evlist *evl = NULL;
		char spec[128];
		const struct event *ev;

		snprintf(spec, sizeof(spec), "uncore_imc_%d/cas_count_write/", i);
		CHECK_ERR(hwp_evlist_parse(spec, NULL, &evl), 0);
		if (!evl)
			continue;
		ev = evlist_get(evl, 0);
		CHECK(ev->attr.type == 20u + (unsigned)i && ev->attr.config == 0x3004,
		      "%s: type %u, config %#llx", spec, ev->attr.type,
		      (unsigned long long)ev->attr.config);
		CHECK(ev->scale == 6.103515625e-5 && !strcmp(event_value_unit(ev), "MiB"),
		      "%s: scale %g, unit '%s'", spec, ev->scale, event_value_unit(ev));
		CHECK(ev->nr_cpumask == 2 && ev->cpumask_first == 0 &&
		      ev->cpumask[0] == 3,
		      "%s: %u CPUs in its cpumask", spec, ev->nr_cpumask);
		CHECK(event_counts_on(ev, 1) && !event_counts_on(ev, 2) &&
		      !event_counts_on(ev, -1), "%s: counts on CPUs 0 and 1 only", spec);
		hwp_evlist_free(evl);
	}
}

/* Counts of the controllers: 1000, 2000 ... 6000 CAS reads; 500 writes each. */
static int lookup(const char *name, double *value, void *ctx)
{
	int i;

	(void)ctx;
	if (!strcmp(name, "seconds")) {
		*value = 2;
		return 0;
	}
	if (sscanf(name, "uncore_imc_%d@", &i) != 1 || i < 0 || i >= NR_IMC)
		return -ENOENT;
	if (strstr(name, "@cas_count_read@"))
		*value = 1000.0 * (i + 1);
	else if (strstr(name, "@cas_count_write@"))
		*value = 500;
	else
		return -ENOENT;
	return 0;
}

static void test_bandwidth_on_synthetic_counts(void)
{
	static const char *const models[] = { "skx", "icx", "spr" };

	for (size_t k = 0; k < ARRAY_SIZE(models); k++) {
		const struct hwp_metric *rd = model_metric(models[k], "Memory_BW_Read");
		const struct hwp_metric *wr = model_metric(models[k], "Memory_BW_Write");
		struct hwp_metric_info mi = { .sz = sizeof(mi) };
		double v = NAN;
		size_t n = 0;

		CHECK(rd && wr, "%s: Memory_BW_Read and _Write", models[k]);
		if (!rd || !wr)
			continue;
		/* 21000 CAS of 64 bytes: 1.344 MB in 2 s */
		CHECK_ERR(hwp_metric_eval(rd, lookup, NULL, &v), 0);
		CHECK(fabs(v - 0.672) < 1e-12, "%s read: %.15g MB/s", models[k], v);
		/* 6 * 500 CAS: 0.192 MB in 2 s */
		CHECK_ERR(hwp_metric_eval(wr, lookup, NULL, &v), 0);
		CHECK(fabs(v - 0.096) < 1e-12, "%s write: %.15g MB/s", models[k], v);
		while (hwpriv_metric_input(rd, n))
			n++;
		CHECK(n == NR_IMC, "%s read: %zu inputs", models[k], n);
		CHECK(!hwp_metric_info(rd, &mi) && !strcmp(mi.unit, "MB/s") &&
		      !strcmp(mi.group, "Memory_BW") && strstr(mi.desc, "-a"),
		      "%s: unit '%s', group '%s'", models[k], mi.unit, mi.group);
	}
}

static struct hwp_session *open_fake(enum hwp_scope scope, const char *cpus, int *err)
{
	struct hwp_session_opts o = { .sz = sizeof(o), .scope = scope, .cpus = cpus };
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;

	*err = hwp_evlist_parse("uncore_fake_0/ticks/,task-clock", NULL, &evl);
	if (!*err)
		*err = hwp_session_new(evl, &o, &s);
	if (!*err)
		*err = hwp_session_open(s);
	hwp_evlist_free(evl);
	return s;
}

static void test_counted_per_thread_says_a(void)
{
	const char *why = NULL;
	int err;
	struct hwp_session *s = open_fake(HWP_SCOPE_THREAD, NULL, &err);

	CHECK_ERR(err, 0);
	CHECK(s && hwp_session_event_status(s, 0, &why) == HWP_EVENT_NOT_SUPPORTED &&
	      why && strstr(why, "system-wide, with -a") && strstr(why, "CPU 0"),
	      "per thread: '%s'", why ? why : "(counting)");
	CHECK(s && hwp_session_event_status(s, 1, NULL) == HWP_EVENT_COUNTING,
	      "task-clock counts");
	hwp_session_free(s);
}

static void test_system_wide_on_its_cpumask(void)
{
	const char *why = NULL;
	size_t open = 0;
	int err;
	struct hwp_session *s = open_fake(HWP_SCOPE_CPUS, NULL, &err);

	if (err == -EACCES || err == -EPERM) {
		hwp_session_free(s);
		t_case_skip("system-wide counting is not allowed here");
		return;
	}
	CHECK_ERR(err, 0);
	if (!s)
		return;
	CHECK(hwp_session_event_status(s, 0, NULL) == HWP_EVENT_COUNTING,
	      "status %d", hwp_session_event_status(s, 0, NULL));
	for (size_t inst = 0; inst < s->nr_inst; inst++) {
		bool on = fds_get(&s->fds, inst, 0) >= 0;

		CHECK(on == (s->t.cpus[inst] == 0), "CPU %d: %s", s->t.cpus[inst],
		      on ? "open" : "not open");
		open += on;
		CHECK(fds_get(&s->fds, inst, 1) >= 0, "task-clock on CPU %d",
		      s->t.cpus[inst]);
	}
	CHECK(open == 1, "open on %zu CPUs", open);
	hwp_session_free(s);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	/* -C 1: not CPU 0 of its cpumask */
	s = open_fake(HWP_SCOPE_CPUS, "1", &err);
	CHECK_ERR(err, 0);
	CHECK(s && hwp_session_event_status(s, 0, &why) == HWP_EVENT_NOT_SUPPORTED &&
	      why && strstr(why, "add one of them to -C"), "-C 1: '%s'",
	      why ? why : "(counting)");
	hwp_session_free(s);
}

/* list --metrics asks whether an event opens: where it counts, system-wide
 * on its cpumask's CPU, not on the calling thread. */
static void test_probed_on_its_cpumask(void)
{
	int err = hwp_event_probe("uncore_fake_0/ticks/");

	if (err == -EACCES || err == -EPERM) {
		t_case_skip("system-wide counting is not allowed here");
		return;
	}
	CHECK_ERR(err, 0);
	CHECK(hwp_event_probe("uncore_far_0/ticks/") < 0,
	      "probed on CPU 1000 of its cpumask, which is not there");
}

/* A cpumask of a CPU a core (cstate_core) or a CCX (amd_l3) names many:
 * all of them, not an error past a fixed few. */
static void test_wide_cpumask(void)
{
	struct hwp_evlist *evl = NULL;
	const struct event *ev;
	char list[64];

	CHECK_ERR(hwp_evlist_parse("uncore_wide_0/ticks/", NULL, &evl), 0);
	if (!evl)
		return;
	ev = evlist_get(evl, 0);
	event_cpumask_format(ev, list, sizeof(list));
	CHECK(ev->nr_cpumask == 33 && event_counts_on(ev, 31) &&
	      event_counts_on(ev, 64) && !event_counts_on(ev, 32) &&
	      !strcmp(list, "0-31,64"),
	      "%u CPUs: %s", ev->nr_cpumask, list);
	hwp_evlist_free(evl);
}

int main(void)
{
	t_init();
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_expanded_to_every_instance);
	t_run(test_each_instance_resolves);
	t_run(test_bandwidth_on_synthetic_counts);
	t_run(test_counted_per_thread_says_a);
	t_run(test_system_wide_on_its_cpumask);
	t_run(test_probed_on_its_cpumask);
	t_run(test_wide_cpumask);
	t_rm_tree(root);
	return t_done();
}
