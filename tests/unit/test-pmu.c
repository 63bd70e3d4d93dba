// SPDX-License-Identifier: MIT
/* The kernel's PMUs by perf's syntax, pmu/event/ and pmu/term=value/, on a
 * fabricated sysfs tree (HWPROF_SYSFS_ROOT): the exact perf_event_attr
 * each spec builds from the PMU's type, format fields and event aliases,
 * the scale and unit files, and the errors for what the PMU does not have. */
#include "core/core.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>

static char root[] = "/tmp/hwprof-pmu-XXXXXX";

#define DEV "bus/event_source/devices/"

static void put(const char *rel, const char *text)
{
	t_put_file(root, rel, text);
}

/* A core PMU as Intel's "cpu", an msr PMU, a RAPL-like power PMU and one
 * whose sysfs is broken. */
static void fabricate(void)
{
	put(DEV "cpu/type", "4\n");
	put(DEV "cpu/format/event", "config:0-7\n");
	put(DEV "cpu/format/umask", "config:8-15\n");
	put(DEV "cpu/format/edge", "config:18\n");
	put(DEV "cpu/format/cmask", "config:24-31\n");
	put(DEV "cpu/format/ldlat", "config1:0-15\n");
	put(DEV "cpu/format/split", "config:0-3,32-35\n");
	put(DEV "cpu/format/frontend", "config2:0-23\n");
	put(DEV "cpu/events/cycles-t", "event=0x3c,in_tx=1\n");
	put(DEV "cpu/format/in_tx", "config:32\n");
	put(DEV "cpu/events/ref-cycles", "event=0x3c,umask=0x01\n");
	put(DEV "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n");
	put(DEV "cpu/events/needs-value", "event=0x10,umask=?\n");

	put(DEV "msr/type", "9\n");
	put(DEV "msr/format/event", "config:0-63\n");
	put(DEV "msr/events/tsc", "event=0x00\n");
	put(DEV "msr/events/aperf", "event=0x01\n");
	put(DEV "msr/events/mperf", "event=0x02\n");

	put(DEV "power/type", "23\n");
	put(DEV "power/format/event", "config:0-7\n");
	put(DEV "power/events/energy-pkg", "event=0x02\n");
	put(DEV "power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
	put(DEV "power/events/energy-pkg.unit", "Joules\n");
	put(DEV "power/events/temp", "event=0x07\n");
	put(DEV "power/events/temp.unit", "C\n");

	put(DEV "cstate_core/type", "24\n");
	put(DEV "cstate_core/format/event", "config:0-63\n");
	put(DEV "cstate_pkg/type", "25\n");
	put(DEV "cstate_pkg/format/event", "config:0-63\n");
	for (int c = 1; c <= 7; c++) {
		char rel[128], v[32];

		snprintf(v, sizeof(v), "event=0x%02x\n", c);
		snprintf(rel, sizeof(rel), DEV "cstate_core/events/c%d-residency", c);
		put(rel, v);
		snprintf(rel, sizeof(rel), DEV "cstate_pkg/events/c%d-residency", c);
		put(rel, v);
	}

	put(DEV "broken/type", "not-a-number\n");
	put(DEV "badfmt/type", "30\n");
	put(DEV "badfmt/format/event", "period:0-7\n");
}

struct row {
	int line;
	const char *spec;
	uint32_t type;
	uint64_t config, config1, config2;
	double scale;
	const char *unit;
	int excl_user, excl_kernel;
};

#define OK(spec, type, c, c1, c2) { __LINE__, spec, type, c, c1, c2, 1.0, "", 0, 0 }

static const struct row rows[] = {
	OK("cpu/event=0x3c/", 4, 0x3c, 0, 0),
	OK("cpu/event=0x3c,umask=0x01/", 4, 0x013c, 0, 0),
	OK("cpu/event=60,umask=1,edge,cmask=0xff/", 4, 0xff04013c, 0, 0),
	OK("cpu/umask=0xff,event=0xff/", 4, 0xffff, 0, 0),
	/* A later term overrides an earlier one, as in perf. */
	OK("cpu/event=0x11,event=0x22/", 4, 0x22, 0, 0),
	/* A field in two ranges takes the low bits first. */
	OK("cpu/split=0xab/", 4, 0xa0000000bull, 0, 0),
	OK("cpu/ldlat=0xffff,event=1/", 4, 1, 0xffff, 0),
	OK("cpu/frontend=0x123456/", 4, 0, 0, 0x123456),
	OK("cpu/config=0x1234,config1=5,config2=0x6/", 4, 0x1234, 5, 6),
	/* Aliases: their terms, then the ones written after them. */
	OK("cpu/ref-cycles/", 4, 0x013c, 0, 0),
	OK("cpu/cycles-t/", 4, 0x10000003cull, 0, 0),
	OK("cpu/mem-loads,ldlat=64/", 4, 0x01cd, 64, 0),
	OK("cpu/mem-loads/", 4, 0x01cd, 3, 0),
	OK("cpu/ref-cycles,umask=2/", 4, 0x023c, 0, 0),
	/* An alias that leaves a term to the user ("umask=?"). */
	OK("cpu/needs-value,umask=3/", 4, 0x0310, 0, 0),
	OK("msr/tsc/", 9, 0, 0, 0),
	OK("msr/aperf/", 9, 1, 0, 0),
	OK("msr/mperf/", 9, 2, 0, 0),
	OK("msr/event=0xffffffffffffffff/", 9, ~0ull, 0, 0),
	{ __LINE__, "power/energy-pkg/", 23, 2, 0, 0, 2.3283064365386962890625e-10, "",
	  0, 0 },
	{ __LINE__, "power/temp/", 23, 7, 0, 0, 1.0, "C", 0, 0 },
	{ __LINE__, "msr/tsc/u", 9, 0, 0, 0, 1.0, "", 0, 1 },
	{ __LINE__, "msr/tsc/:k", 9, 0, 0, 0, 1.0, "", 1, 0 },
};

static void test_attrs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		struct hwp_evlist *evl = NULL;
		struct hwp_event_info info = { .sz = sizeof(info) };
		int err = hwp_evlist_parse(r->spec, NULL, &evl);

		CHECK(!err, "line %d: %s: %s", r->line, r->spec, hwp_errmsg());
		if (err)
			continue;
		CHECK(!hwp_evlist_event(evl, 0, &info), "info");
		CHECK(info.source == HWP_SOURCE_PMU, "line %d: source %d", r->line,
		      info.source);
		CHECK(info.attr.type == r->type, "line %d: %s: type %u, want %u", r->line,
		      r->spec, info.attr.type, r->type);
		CHECK(info.attr.config == r->config,
		      "line %d: %s: config %#llx, want %#llx",
		      r->line, r->spec, (unsigned long long)info.attr.config,
		      (unsigned long long)r->config);
		CHECK(info.attr.config1 == r->config1,
		      "line %d: %s: config1 %#llx, want %#llx",
		      r->line, r->spec, (unsigned long long)info.attr.config1,
		      (unsigned long long)r->config1);
		CHECK(info.attr.config2 == r->config2,
		      "line %d: %s: config2 %#llx, want %#llx",
		      r->line, r->spec, (unsigned long long)info.attr.config2,
		      (unsigned long long)r->config2);
		CHECK(info.attr.size == sizeof(info.attr), "line %d: attr.size", r->line);
		CHECK(info.scale == r->scale, "line %d: %s: scale %g, want %g", r->line,
		      r->spec, info.scale, r->scale);
		CHECK(!strcmp(info.unit, r->unit), "line %d: %s: unit '%s', want '%s'",
		      r->line, r->spec, info.unit, r->unit);
		CHECK(info.attr.exclude_user == (unsigned)r->excl_user &&
		      info.attr.exclude_kernel == (unsigned)r->excl_kernel,
		      "line %d: %s: exclude_user %u exclude_kernel %u", r->line, r->spec,
		      info.attr.exclude_user, info.attr.exclude_kernel);
		CHECK(!strcmp(info.canonical, r->spec) || strchr(r->spec, ':') ||
		      r->spec[strlen(r->spec) - 1] != '/',
		      "line %d: canonical '%s'", r->line, info.canonical);
		hwp_evlist_free(evl);
	}
}

static void test_groups(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwp_event_info info = { .sz = sizeof(info) };

	CHECK_ERR(hwp_evlist_parse("{msr/aperf/,msr/mperf/},cpu/event=0x3c,umask=1/,cs",
				   NULL, &evl), 0);
	if (!evl)
		return;
	CHECK(hwp_evlist_nr_events(evl) == 4 && hwp_evlist_nr_groups(evl) == 3,
	      "%zu events, %zu groups", hwp_evlist_nr_events(evl),
	      hwp_evlist_nr_groups(evl));
	CHECK(!hwp_evlist_event(evl, 2, &info) && info.attr.config == 0x013c &&
	      !strcmp(info.name, "cpu/event=0x3c,umask=1/"), "third: %s %#llx", info.name,
	      (unsigned long long)info.attr.config);
	CHECK(!hwp_evlist_event(evl, 1, &info) && info.group == 0 && !info.is_leader,
	      "mperf in aperf's group");
	hwp_evlist_free(evl);
}

struct bad {
	int line;
	const char *spec;
	int err;
	const char *msg;
};

static const struct bad bads[] = {
	{ __LINE__, "nope/tsc/", -HWP_ERR_UNKNOWN_EVENT,
	  "no PMU 'nope'; the kernel's PMUs" },
	{ __LINE__, "nope/tsc/", -HWP_ERR_UNKNOWN_EVENT,
	  "badfmt, broken, cpu, cstate_core, cstate_pkg, msr, power" },
	{ __LINE__, "msr/tcs/", -HWP_ERR_UNKNOWN_EVENT,
	  "PMU 'msr' has no event nor term 'tcs'; its events: aperf, mperf, tsc; its terms: event, config, config1, config2" },
	{ __LINE__, "cpu/evnt=1/", -HWP_ERR_UNKNOWN_EVENT, "no event nor term 'evnt'" },
	{ __LINE__, "cpu/umask=0x100/", -HWP_ERR_SYNTAX,
	  "term 'umask=0x100' is out of range: umask is config:8-15 (8 bits), at most 0xff" },
	{ __LINE__, "cpu/edge=2/", -HWP_ERR_SYNTAX,
	  "edge is config:18 (1 bits), at most 0x1" },
	{ __LINE__, "cpu/split=0x100/", -HWP_ERR_SYNTAX, "(8 bits), at most 0xff" },
	{ __LINE__, "cpu/event=0x3g/", -HWP_ERR_SYNTAX, "'0x3g' is not a number" },
	{ __LINE__, "cpu/event=-1/", -HWP_ERR_SYNTAX, "'-1' is not a number" },
	{ __LINE__, "cpu/event=/", -HWP_ERR_SYNTAX, "'' is not a number" },
	{ __LINE__, "cpu/event=99999999999999999999999/", -HWP_ERR_SYNTAX,
	  "not a number" },
	{ __LINE__, "cpu/config/", -HWP_ERR_SYNTAX, "term 'config' needs a value" },
	{ __LINE__, "cpu/needs-value/", -HWP_ERR_SYNTAX,
	  "term 'umask' has no value; the PMU's event needs one: write cpu/...,umask=VALUE/" },
	/* An alias is not a term of another alias, nor takes a value. */
	{ __LINE__, "cpu/ref-cycles=1/", -HWP_ERR_UNKNOWN_EVENT,
	  "no event nor term 'ref-cycles'" },
	{ __LINE__, "msr//", -HWP_ERR_SYNTAX, "no event between the slashes" },
	{ __LINE__, "msr/,/", -HWP_ERR_SYNTAX,
	  "an empty term (two commas, or one at an end)" },
	{ __LINE__, "msr/tsc,,event=1/", -HWP_ERR_SYNTAX, "an empty term" },
	{ __LINE__, "msr/tsc/x", -HWP_ERR_SYNTAX,
	  "'x' after the last '/' is not a modifier" },
	{ __LINE__, "broken/tsc/", -HWP_ERR_FORMAT, "broken/type is 'not-a-number'" },
	{ __LINE__, "badfmt/event=1/", -HWP_ERR_FORMAT,
	  "the format of term 'event' in " },
	{ __LINE__, "../msr/tsc/", -HWP_ERR_UNKNOWN_EVENT, "'..' is not a PMU's name" },
};

static void test_errors(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		struct hwp_evlist *evl = NULL;
		int err = hwp_evlist_parse(bads[i].spec, NULL, &evl);

		CHECK(err == bads[i].err, "line %d: %s: %d (%s), want %d", bads[i].line,
		      bads[i].spec, err, hwp_errmsg(), bads[i].err);
		CHECK(strstr(hwp_errmsg(), bads[i].msg),
		      "line %d: %s: message '%s' lacks '%s'",
		      bads[i].line, bads[i].spec, hwp_errmsg(), bads[i].msg);
		CHECK(!evl, "line %d: no list on error", bads[i].line);
		hwp_evlist_free(evl);
	}
}

struct seen {
	int msr, power;
};

static int count_listed(const struct hwp_event_desc *d, void *ctx)
{
	struct seen *s = ctx;

	if (d->source != HWP_SOURCE_PMU)
		return 0;
	s->msr += !strcmp(d->pmu, "msr") && (!strcmp(d->name, "msr/tsc/") ||
					     !strcmp(d->name, "msr/aperf/") ||
					     !strcmp(d->name, "msr/mperf/"));
	s->power += !strcmp(d->name, "power/energy-pkg/") ||
		    !strcmp(d->name, "power/temp/");
	return 0;
}

static void test_listed(void)
{
	struct seen s = { 0 };

	CHECK_ERR(hwp_events_foreach("msr/*", count_listed, &s), 0);
	CHECK(s.msr == 3 && s.power == 0, "msr/*: %d msr, %d power", s.msr, s.power);
	memset(&s, 0, sizeof(s));
	CHECK_ERR(hwp_events_foreach(NULL, count_listed, &s), 0);
	CHECK(s.msr == 3 && s.power == 2, "all: %d msr, %d power", s.msr, s.power);
}

/* A formula names msr/aperf/ as msr@aperf@, as perf's metrics do. */
static void test_metric_names(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwp_metric *m = NULL;

	CHECK_ERR(hwp_evlist_parse("msr/aperf/,msr/mperf/,task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_metric_parse("r=msr@aperf@ / msr@mperf@", &m), 0);
	if (evl && m)
		CHECK_ERR(hwp_metric_check(m, evl), 0);
	hwp_metric_free(m);
	m = NULL;
	CHECK_ERR(hwp_metric_parse("r=msr@tsc@ / task-clock", &m), 0);
	if (evl && m)
		CHECK_ERR(hwp_metric_check(m, evl), -HWP_ERR_UNKNOWN_NAME);
	hwp_metric_free(m);
	hwp_evlist_free(evl);
}

/* The built-in metrics of the kernel's PMUs name events that exist, with
 * the values they take: 100 * c6 / tsc is a percentage. */
static double value_of(const char *name)
{
	static const struct {
		const char *name;
		double v;
	} vals[] = {
		{ "msr@tsc@", 3e9 }, { "msr@aperf@", 2.4e9 }, { "msr@mperf@", 2e9 },
		{ "task-clock", 1e9 }, { "cstate_core@c1-residency@", 3e8 },
		{ "cstate_core@c3-residency@", 6e8 },
		{ "cstate_core@c6-residency@", 1.5e9 },
		{ "cstate_core@c7-residency@", 3e7 }, { "cstate_pkg@c2-residency@", 3e6 },
		{ "cstate_pkg@c3-residency@", 0 }, { "cstate_pkg@c6-residency@", 2.7e9 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
		if (!strcmp(vals[i].name, name))
			return vals[i].v;
	return NAN;
}

static int lookup(const char *name, double *value, void *ctx)
{
	(void)ctx;
	*value = value_of(name);
	return isnan(*value) ? -ENOENT : 0;
}

static void test_builtin_metrics(void)
{
	static const struct {
		const char *name;
		double want;
	} want[] = {
		{ "effective-GHz", 2.4 }, { "aperf/mperf", 120 }, { "tsc-GHz", 3 },
		{ "core-C1-residency", 10 }, { "core-C3-residency", 20 },
		{ "core-C6-residency", 50 }, { "core-C7-residency", 1 },
		{ "pkg-C2-residency", 0.1 }, { "pkg-C3-residency", 0 },
		{ "pkg-C6-residency", 90 },
	};
	struct hwp_evlist *evl = NULL;
	size_t found = 0;

	CHECK_ERR(hwp_evlist_parse("msr/tsc/,msr/aperf/,msr/mperf/,task-clock,"
				   "cstate_core/c1-residency/,cstate_core/c3-residency/,"
				   "cstate_core/c6-residency/,cstate_core/c7-residency/,"
				   "cstate_pkg/c2-residency/,cstate_pkg/c3-residency/,"
				   "cstate_pkg/c6-residency/", NULL, &evl), 0);
	if (!evl)
		return;
	for (size_t n = 0; hwp_metric_builtin(n); n++) {
		const struct hwp_metric *m = hwp_metric_builtin(n);
		struct hwp_metric_info info = { .sz = sizeof(info) };
		double v = NAN;

		if (hwp_metric_info(m, &info) || !strchr(info.expr, '@'))
			continue;
		CHECK_ERR(hwp_metric_check(m, evl), 0);
		CHECK_ERR(hwp_metric_eval(m, lookup, NULL, &v), 0);
		for (size_t i = 0; i < ARRAY_SIZE(want); i++)
			if (!strcmp(want[i].name, hwp_metric_name(m))) {
				CHECK_NEAR(v, want[i].want, 1e-9 * (want[i].want + 1));
				found++;
			}
	}
	CHECK(found == ARRAY_SIZE(want), "%zu of %zu built-ins of the kernel's PMUs",
	      found, ARRAY_SIZE(want));
	hwp_evlist_free(evl);
}

int main(void)
{
	t_init();
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_attrs);
	t_run(test_groups);
	t_run(test_errors);
	t_run(test_listed);
	t_run(test_metric_names);
	t_run(test_builtin_metrics);
	t_rm_tree(root);
	return t_done();
}
