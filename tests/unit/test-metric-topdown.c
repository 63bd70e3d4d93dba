// SPDX-License-Identifier: MIT
/* TopdownL1 from the kernel's slots and topdown-* events
 * (metrics/intel-topdown-kernel.def) on a fabricated sysfs tree
 * (HWPROF_SYSFS_ROOT) of an Ice Lake "cpu" PMU: the metrics of icl and spr
 * read them where the tree has them, in perf's group (slots leading, then
 * retiring, bad-spec, fe-bound, be-bound, with the kernel's encodings), and
 * give perf's shares (each over the sum of the four) on synthetic counts,
 * as do spr's level 2 from its four more where a Sapphire Rapids tree has
 * them;
 * without them, or with an Atom's topdown-* and no slots, the model's
 * generic-counter formulas stay. These events cannot open here: no test
 * counts them on hardware. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "count/session.h"
#include "harness.h"

#include <math.h>

static char with[] = "/tmp/hwprof-td-XXXXXX";
static char without[] = "/tmp/hwprof-td-none-XXXXXX";
static char atom[] = "/tmp/hwprof-td-atom-XXXXXX";
static char spr[] = "/tmp/hwprof-td-spr-XXXXXX";

#define CPU "bus/event_source/devices/cpu/"

static const char *const group[] = {
	"cpu@slots@", "cpu@topdown-retiring@", "cpu@topdown-bad-spec@",
	"cpu@topdown-fe-bound@", "cpu@topdown-be-bound@",
};

static const char *const spr_events[] = {
	"retiring", "bad-spec", "fe-bound", "be-bound",
	"heavy-ops", "br-mispredict", "fetch-lat", "mem-bound",
};

static void core_pmu(const char *root)
{
	t_put_file(root, CPU "type", "4\n");
	t_put_file(root, CPU "format/event", "config:0-7\n");
	t_put_file(root, CPU "format/umask", "config:8-15\n");
}

/* As the kernel's arch/x86/events/intel/core.c writes them for Ice Lake. */
static void fabricate(void)
{
	core_pmu(with);
	t_put_file(with, CPU "events/slots", "event=0x00,umask=0x4\n");
	t_put_file(with, CPU "events/topdown-retiring", "event=0x00,umask=0x80\n");
	t_put_file(with, CPU "events/topdown-bad-spec", "event=0x00,umask=0x81\n");
	t_put_file(with, CPU "events/topdown-fe-bound", "event=0x00,umask=0x82\n");
	t_put_file(with, CPU "events/topdown-be-bound", "event=0x00,umask=0x83\n");
	/* Sapphire Rapids: level 1's, and level 2's four (umask 0x84-0x87) */
	core_pmu(spr);
	t_put_file(spr, CPU "events/slots", "event=0x00,umask=0x4\n");
	for (size_t i = 0; i < ARRAY_SIZE(spr_events); i++) {
		char rel[128], text[64];

		snprintf(rel, sizeof(rel), CPU "events/topdown-%s", spr_events[i]);
		snprintf(text, sizeof(text), "event=0x00,umask=0x%zx\n", 0x80 + i);
		t_put_file(spr, rel, text);
	}
	core_pmu(without);
	/* an Atom's: generic events of those names, and no slots */
	core_pmu(atom);
	t_put_file(atom, CPU "events/topdown-retiring", "event=0xc2,umask=0x0\n");
	t_put_file(atom, CPU "events/topdown-bad-spec", "event=0x73,umask=0x6\n");
	t_put_file(atom, CPU "events/topdown-fe-bound", "event=0x71,umask=0x0\n");
	t_put_file(atom, CPU "events/topdown-be-bound", "event=0x74,umask=0x0\n");
}

/* The model's TopdownL1 members, as -M TopdownL1 takes them. */
static size_t topdown_of_model(const struct hwp_metric **out, size_t max)
{
	const struct hwp_metric *m;
	size_t n = 0;

	for (size_t i = 0; (m = hwp_metric_model(i)) && n < max; i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		if (!hwp_metric_info(m, &mi) && !strcmp(mi.group, "TopdownL1"))
			out[n++] = m;
	}
	return n;
}

static void test_kernel_events_used(void)
{
	const struct hwp_metric *td[8];
	size_t n;

	setenv("HWPROF_SYSFS_ROOT", with, 1);
	CHECK(metric_topdown_for("icl", "Retiring"), "the tree has slots and topdown-*");
	/* level 2 needs its own four, which this tree (an Ice Lake) lacks */
	CHECK(!metric_topdown_for("spr", "Heavy_Operations"), "no level 2 here");
	n = topdown_of_model(td, ARRAY_SIZE(td));
	CHECK(n == 4, "%zu TopdownL1 metrics", n);
	for (size_t i = 0; i < n; i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		CHECK_ERR(hwp_metric_info(td[i], &mi), 0);
		CHECK(!strcmp(mi.model, "icl") && strstr(mi.expr, "cpu@topdown-") &&
		      strstr(mi.desc, "the kernel's topdown-") &&
		      strstr(mi.source, "PERF_METRICS"), "%s: %s", mi.name, mi.expr);
		/* the events in perf's group order, slots leading */
		for (size_t k = 0; k < ARRAY_SIZE(group); k++) {
			const char *in = hwpriv_metric_input(td[i], k);

			CHECK(in && !strcmp(in, group[k]), "%s input %zu: %s, not %s",
			      mi.name, k, in ? in : "(none)", group[k]);
		}
		CHECK(!hwpriv_metric_input(td[i], ARRAY_SIZE(group)), "%s: five inputs",
		      mi.name);
	}
	/* spr has them too */
	CHECK(metric_topdown_for("spr", "Bad_Speculation"), "spr Bad_Speculation");
	CHECK(!metric_topdown_for("amd64_fam19h_zen4", "Retiring"), "zen4: none");
}

static void test_group_attrs(void)
{
	static const uint64_t configs[] = { 0x0400, 0x8000, 0x8100, 0x8200, 0x8300 };
	struct hwp_evlist *evl = NULL;

	setenv("HWPROF_SYSFS_ROOT", with, 1);
	CHECK_ERR(hwp_evlist_parse("{cpu/slots/,cpu/topdown-retiring/,cpu/topdown-bad-spec/,cpu/topdown-fe-bound/,cpu/topdown-be-bound/}",
				   NULL, &evl), 0);
	if (!evl)
		return;
	CHECK(evl->nr_events == 5 && evl->nr_groups == 1, "%zu events, %zu groups",
	      evl->nr_events, evl->nr_groups);
	for (size_t i = 0; i < evl->nr_events && i < ARRAY_SIZE(configs); i++) {
		const struct event *ev = evlist_get(evl, i);

		CHECK(ev->attr.type == 4 && ev->attr.config == configs[i] &&
		      ev->is_leader == (i == 0) && ev->group == 0 && ev->is_hardware,
		      "%s: type %u, config %#llx, leader %d", ev->name, ev->attr.type,
		      (unsigned long long)ev->attr.config, ev->is_leader);
	}
	hwp_evlist_free(evl);
}

/* Whether the session of @list on the calling thread, not inherited,
 * would read its counters in user space. */
static bool user_read(const char *list)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_THREAD, .no_inherit = true);
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	bool want = false;

	CHECK_ERR(hwp_evlist_parse(list, NULL, &evl), 0);
	if (evl && !hwp_session_new(evl, &o, &s))
		want = session_want_user_read(s);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	return want;
}

/* The library knows the kernel's topdown events by their encodings, once,
 * for all who ask (hwp_event_info.is_topdown): the slots group of the
 * CLI's metrics, and rdpmc, which reads PERF_METRICS raw for topdown-*
 * (its read() gives slots times the share). An Atom's topdown-* are
 * generic events; umask 0x3 (ref-cycles' fixed counter) is no topdown. */
static void test_topdown_flag(void)
{
	static const struct {
		char *root;
		const char *event;
		bool topdown;
	} cases[] = {
		{ with, "cpu/slots/", true },
		{ with, "cpu/topdown-retiring/", true },
		{ spr, "cpu/topdown-mem-bound/", true },
		{ with, "cpu/event=0x00,umask=0x81/", true },
		{ with, "cpu/event=0x00,umask=0x3/", false },
		{ with, "cpu/event=0xc0/", false },
		{ atom, "cpu/topdown-retiring/", false },
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct hwp_event_info info = { .sz = sizeof(info) };
		struct hwp_evlist *evl = NULL;

		setenv("HWPROF_SYSFS_ROOT", cases[k].root, 1);
		CHECK_ERR(hwp_evlist_parse(cases[k].event, NULL, &evl), 0);
		CHECK(evl && !hwp_evlist_event(evl, 0, &info) &&
		      info.is_topdown == cases[k].topdown, "%s on %s: is_topdown %d",
		      cases[k].event, cases[k].root, info.is_topdown);
		hwp_evlist_free(evl);
	}
	setenv("HWPROF_SYSFS_ROOT", with, 1);
#if defined(__x86_64__)
	CHECK(user_read("cpu/event=0xc0/"), "cpu/event=0xc0/ is not read in user space");
#endif
	CHECK(!user_read("cpu/event=0xc0/,cpu/slots/,cpu/topdown-retiring/"),
	      "the kernel's topdown events read in user space");
}

/* The kernel's counts: slots times each fraction, rounded (9990, not
 * 10000, over the four). */
static int lookup(const char *name, double *value, void *ctx)
{
	static const struct {
		const char *name;
		double count;
	} counts[] = {
		{ "cpu@slots@", 10000 }, { "cpu@topdown-retiring@", 3990 },
		{ "cpu@topdown-bad-spec@", 1000 }, { "cpu@topdown-fe-bound@", 2000 },
		{ "cpu@topdown-be-bound@", 3000 }, { "cpu@topdown-heavy-ops@", 1000 },
		{ "cpu@topdown-br-mispredict@", 600 }, { "cpu@topdown-fetch-lat@", 1200 },
		{ "cpu@topdown-mem-bound@", 1800 },
	};

	(void)ctx;
	for (size_t k = 0; k < ARRAY_SIZE(counts); k++)
		if (!strcmp(name, counts[k].name)) {
			*value = counts[k].count;
			return 0;
		}
	return -ENOENT;
}

static void test_shares_on_synthetic_counts(void)
{
	static const struct {
		const char *name;
		double want;
	} shares[] = {
		/* each over 3990 + 1000 + 2000 + 3000 = 9990, as perf */
		{ "Retiring", 100.0 * 3990 / 9990 },		/* 39.939939... */
		{ "Bad_Speculation", 100.0 * 1000 / 9990 },	/* 10.010010... */
		{ "Frontend_Bound", 100.0 * 2000 / 9990 },	/* 20.020020... */
		{ "Backend_Bound", 100.0 * 3000 / 9990 },	/* 30.030030... */
	};
	static const char *const models[] = { "icl", "icx", "spr" };
	double sum = 0;

	setenv("HWPROF_SYSFS_ROOT", with, 1);
	for (size_t k = 0; k < ARRAY_SIZE(models); k++)
		for (size_t i = 0; i < ARRAY_SIZE(shares); i++) {
			const char *name = shares[i].name;
			double want = shares[i].want;
			const struct hwp_metric *m = metric_topdown_for(models[k], name);
			double v = NAN;

			CHECK(m, "%s %s", models[k], name);
			if (!m)
				continue;
			CHECK_ERR(hwp_metric_eval(m, lookup, NULL, &v), 0);
			CHECK(fabs(v - want) < 1e-9, "%s %s = %.12g, want %.12g",
			      models[k], name, v, want);
			sum += k == 0 ? v : 0;
		}
	CHECK(fabs(sum - 100) < 1e-9, "the four add up to %.12g%%", sum);
	/* 39.94 by slots would be 39.90: the sum, not slots, as perf */
	CHECK(fabs(shares[0].want - 39.93993994) < 1e-8, "%.10g", shares[0].want);
}

/* Level 2 of Sapphire Rapids: perf's group, and perf's shares (each over
 * level 1's sum, the siblings by difference). */
static void test_level2_on_synthetic_counts(void)
{
	static const struct {
		const char *name;
		double slots;	/* of the 9990 that level 1's four add up to */
	} shares[] = {
		{ "Heavy_Operations", 1000 }, { "Light_Operations", 3990 - 1000 },
		{ "Branch_Mispredicts", 600 }, { "Machine_Clears", 1000 - 600 },
		{ "Fetch_Latency", 1200 }, { "Fetch_Bandwidth", 2000 - 1200 },
		{ "Memory_Bound", 1800 }, { "Core_Bound", 3000 - 1800 },
	};
	static const char *const l2[] = {
		"cpu@topdown-heavy-ops@", "cpu@topdown-br-mispredict@",
		"cpu@topdown-fetch-lat@", "cpu@topdown-mem-bound@",
	};

	setenv("HWPROF_SYSFS_ROOT", spr, 1);
	for (size_t i = 0; i < ARRAY_SIZE(shares); i++) {
		const struct hwp_metric *m = metric_topdown_for("spr", shares[i].name);
		double v = NAN, want = 100 * shares[i].slots / 9990;

		CHECK(m, "spr %s", shares[i].name);
		if (!m)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(group) + ARRAY_SIZE(l2); k++) {
			const char *in = hwpriv_metric_input(m, k);
			const char *exp = k < ARRAY_SIZE(group) ? group[k] :
					  l2[k - ARRAY_SIZE(group)];

			CHECK(in && !strcmp(in, exp), "%s input %zu: %s, not %s",
			      shares[i].name, k, in ? in : "(none)", exp);
		}
		CHECK_ERR(hwp_metric_eval(m, lookup, NULL, &v), 0);
		CHECK(fabs(v - want) < 1e-9, "spr %s = %.12g, want %.12g",
		      shares[i].name, v, want);
	}
}

static void fallback_in(const char *root, const char *what)
{
	const struct hwp_metric *td[8];
	size_t n;

	setenv("HWPROF_SYSFS_ROOT", root, 1);
	CHECK(!metric_topdown_for("icl", "Retiring"), "%s: no kernel Retiring", what);
	n = topdown_of_model(td, ARRAY_SIZE(td));
	CHECK(n == 4, "%s: %zu TopdownL1 metrics", what, n);
	for (size_t i = 0; i < n; i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		CHECK(!hwp_metric_info(td[i], &mi) &&
		      strstr(mi.expr, "TOPDOWN:SLOTS_P") && !strchr(mi.expr, '@'),
		      "%s: %s = %s", what, mi.name, mi.expr);
	}
}

static void test_fallback_without_them(void)
{
	fallback_in(without, "no topdown events");
	fallback_in(atom, "an Atom's topdown-*, no slots");
}

int main(void)
{
	t_init();
	/* icl's tables, wherever this runs (libpfm4 reads it once) */
	setenv("LIBPFM_FORCE_PMU", "icl", 1);
	t_mkdtemp(with);
	t_mkdtemp(without);
	t_mkdtemp(atom);
	t_mkdtemp(spr);
	fabricate();
	if (!libpfm_pmu_present("icl")) {
		t_rm_tree(with);
		t_rm_tree(without);
		t_rm_tree(atom);
		t_rm_tree(spr);
		t_skip("this libpfm4 has no PMU 'icl' (its tables are per architecture)");
	}
	t_run(test_kernel_events_used);
	t_run(test_group_attrs);
	t_run(test_topdown_flag);
	t_run(test_shares_on_synthetic_counts);
	t_run(test_level2_on_synthetic_counts);
	t_run(test_fallback_without_them);
	t_rm_tree(with);
	t_rm_tree(without);
	t_rm_tree(atom);
	t_rm_tree(spr);
	return t_done();
}
