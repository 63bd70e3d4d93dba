// SPDX-License-Identifier: MIT
/* The event-list parser, table-driven; each row carries its source line.
 * libpfm4 is forced to encode the events of one PMU of this architecture
 * (LIBPFM_FORCE_PMU: Ice Lake on x86, Cortex-A57 on arm64, whose libpfm4
 * knows no x86 PMU), so the PMU rows hold on any host. Forcing one PMU
 * hides the others, so the rows marked UNFORCED run in a second process
 * without it, and those marked WIDE in a third, forced to a PMU whose event
 * codes do not fit a byte (the Cortex-A57's all do): an encoding cut to
 * its event byte would pass every other row there. */
#include "core/core.h"
#include "event/event.h"
#include "harness.h"

#define ANY -1

struct row {
	int line;
	const char *spec;
	int err;		/* 0, or the negative error expected */
	const char *msg;	/* a fragment of hwp_errmsg() when err */
	size_t nr_events, nr_groups;
	int type;		/* of the first event; ANY to skip */
	long long config;
	int excl_user, excl_kernel;	/* ANY to skip */
	int precise;
	const char *canonical;	/* of the first event, or NULL */
	int process;		/* FORCED, UNFORCED (no LIBPFM_FORCE_PMU) or WIDE */
};

enum { FORCED, UNFORCED, WIDE };

#define OK(spec, ne, ng, type, config, eu, ek, canon) \
	{ __LINE__, spec, 0, NULL, ne, ng, type, config, eu, ek, ANY, canon, FORCED }
#define BAD(spec, err, msg) \
	{ __LINE__, spec, err, msg, 0, 0, ANY, 0, ANY, ANY, ANY, NULL, FORCED }
#define OK_WIDE(spec, config) \
	{ __LINE__, spec, 0, NULL, 1, 1, RAW, config, 0, 0, ANY, spec, WIDE }

#define HW PERF_TYPE_HARDWARE
#define SW PERF_TYPE_SOFTWARE
#define CACHE PERF_TYPE_HW_CACHE
#define RAW PERF_TYPE_RAW
#define CACHE_CFG(c, op, res) ((c) | ((op) << 8) | ((res) << 16))

#if defined(__aarch64__)
#define FORCED_PMU "arm_ac57"
#define OTHER_PMU "arm_n1"	/* Neoverse N1 */
#define OTHER_EVENT "INST_RETIRED"
#define WIDE_PMU "arm_n1"	/* Neoverse N1: its SPE events are 0x4000... */
#else
#define FORCED_PMU "icl"
#define OTHER_PMU "knl"		/* Knights Landing */
#define OTHER_EVENT "UOPS_RETIRED:ALL"
#define WIDE_PMU "skl"		/* Skylake: umasks, as Ice Lake's */
#endif

static const struct row rows[] = {
	OK("cycles", 1, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, "cycles"),
	OK("cpu-cycles", 1, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, "cycles"),
	OK("CYCLES", 1, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, "cycles"),
	OK("instructions,cycles", 2, 2, HW, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, NULL),
	OK("{instructions,cycles}", 2, 1, HW, PERF_COUNT_HW_INSTRUCTIONS, 0, 0, NULL),
	OK(" cycles , instructions ", 2, 2, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, NULL),
	OK("cycles,{instructions,LLC-load-misses},cpu-migrations:u", 4, 3, HW, 0, 0, 0,
	   NULL),
	OK("cache-references", 1, 1, HW, PERF_COUNT_HW_CACHE_REFERENCES, 0, 0, NULL),
	OK("cache-misses", 1, 1, HW, PERF_COUNT_HW_CACHE_MISSES, 0, 0, NULL),
	OK("branches", 1, 1, HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0, NULL),
	OK("branch-instructions", 1, 1, HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0, 0,
	   "branches"),
	OK("branch-misses", 1, 1, HW, PERF_COUNT_HW_BRANCH_MISSES, 0, 0, NULL),
	OK("ref-cycles", 1, 1, HW, PERF_COUNT_HW_REF_CPU_CYCLES, 0, 0, NULL),
	OK("LLC-load-misses", 1, 1, CACHE, CACHE_CFG(2, 0, 1), 0, 0, NULL),
	OK("LLC-loads", 1, 1, CACHE, CACHE_CFG(2, 0, 0), 0, 0, NULL),
	OK("LLC-store-misses", 1, 1, CACHE, CACHE_CFG(2, 1, 1), 0, 0, NULL),
	OK("L1-dcache-load-misses", 1, 1, CACHE, CACHE_CFG(0, 0, 1), 0, 0, NULL),
	OK("L1-icache-load-misses", 1, 1, CACHE, CACHE_CFG(1, 0, 1), 0, 0, NULL),
	OK("dTLB-load-misses", 1, 1, CACHE, CACHE_CFG(3, 0, 1), 0, 0, NULL),
	OK("iTLB-load-misses", 1, 1, CACHE, CACHE_CFG(4, 0, 1), 0, 0, NULL),
	OK("branch-load-misses", 1, 1, CACHE, CACHE_CFG(5, 0, 1), 0, 0, NULL),
	OK("node-loads", 1, 1, CACHE, CACHE_CFG(6, 0, 0), 0, 0, NULL),
	/* Any case, whichever case the first letter has in the table: the
	 * lookup skips names by their first letter before comparing. */
	OK("llc-load-misses", 1, 1, CACHE, CACHE_CFG(2, 0, 1), 0, 0, "LLC-load-misses"),
	OK("DTLB-LOADS", 1, 1, CACHE, CACHE_CFG(3, 0, 0), 0, 0, "dTLB-loads"),
	OK("l1-ICACHE-loads", 1, 1, CACHE, CACHE_CFG(1, 0, 0), 0, 0, "L1-icache-loads"),
	OK("Cpu-Cycles", 1, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, "cycles"),
	OK("CS", 1, 1, SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, "context-switches"),
	/* perf's plural of prefetch */
	OK("L1-dcache-prefetches", 1, 1, CACHE, CACHE_CFG(0, 2, 0), 0, 0,
	   "L1-dcache-prefetches"),
	OK("L1-dcache-prefetch-misses", 1, 1, CACHE, CACHE_CFG(0, 2, 1), 0, 0, NULL),
	OK("task-clock", 1, 1, SW, PERF_COUNT_SW_TASK_CLOCK, 0, 0, NULL),
	OK("cpu-clock", 1, 1, SW, PERF_COUNT_SW_CPU_CLOCK, 0, 0, NULL),
	OK("page-faults", 1, 1, SW, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, NULL),
	OK("faults", 1, 1, SW, PERF_COUNT_SW_PAGE_FAULTS, 0, 0, "page-faults"),
	OK("minor-faults", 1, 1, SW, PERF_COUNT_SW_PAGE_FAULTS_MIN, 0, 0, NULL),
	OK("major-faults", 1, 1, SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 0, 0, NULL),
	OK("context-switches", 1, 1, SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, NULL),
	OK("cs", 1, 1, SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, 0, "context-switches"),
	OK("cpu-migrations", 1, 1, SW, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, NULL),
	OK("migrations", 1, 1, SW, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 0, "cpu-migrations"),
	OK("alignment-faults", 1, 1, SW, PERF_COUNT_SW_ALIGNMENT_FAULTS, 0, 0, NULL),
	OK("emulation-faults", 1, 1, SW, PERF_COUNT_SW_EMULATION_FAULTS, 0, 0, NULL),
	/* modifiers */
	OK("cpu-migrations:u", 1, 1, SW, PERF_COUNT_SW_CPU_MIGRATIONS, 0, 1, NULL),
	OK("page-faults:k", 1, 1, SW, PERF_COUNT_SW_PAGE_FAULTS, 1, 0, NULL),
	OK("cycles:uk", 1, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, NULL),
	OK("{cycles,instructions}:u", 2, 1, HW, PERF_COUNT_HW_CPU_CYCLES, 0, 1, NULL),
	/* raw codes */
	OK("r1a8", 1, 1, RAW, 0x1a8, 0, 0, "r1a8"),
	OK("r00c0:u", 1, 1, RAW, 0xc0, 0, 1, NULL),
	/* libpfm4 (the forced PMU) and its perf:: names */
#if defined(__aarch64__)
	OK("INST_RETIRED", 1, 1, RAW, 0x08, 0, 0, "arm_ac57::INST_RETIRED"),
	OK("arm_ac57::INST_RETIRED", 1, 1, RAW, 0x08, 0, 0, "arm_ac57::INST_RETIRED"),
	OK("arm_ac57::INST_RETIRED:u", 1, 1, RAW, 0x08, 0, 1, NULL),
	OK("CPU_CYCLES", 1, 1, RAW, 0x11, 0, 0, "arm_ac57::CPU_CYCLES"),
	OK("{CPU_CYCLES,cpu-migrations}", 2, 1, RAW, 0x11, 0, 0, NULL),
#else
	OK("INST_RETIRED:ANY_P", 1, 1, RAW, 0xc0, 0, 0, "icl::INST_RETIRED:ANY_P"),
	OK("icl::INST_RETIRED:ANY_P", 1, 1, RAW, 0xc0, 0, 0, "icl::INST_RETIRED:ANY_P"),
	OK("icl::INST_RETIRED:ANY_P:u", 1, 1, RAW, 0xc0, 0, 1, NULL),
	OK("MEM_LOAD_RETIRED:L3_MISS", 1, 1, RAW, 0x20d1, 0, 0, NULL),
	OK("{MEM_LOAD_RETIRED:L3_MISS,cpu-migrations}", 2, 1, RAW, 0x20d1, 0, 0, NULL),
	/* an event whose umask is missing */
	BAD("MEM_LOAD_RETIRED", -HWP_ERR_SYNTAX, "L3_MISS"),
#endif
	{ __LINE__, "perf::PERF_COUNT_SW_PAGE_FAULTS", 0, NULL, 1, 1, SW,
	  PERF_COUNT_SW_PAGE_FAULTS, 0, 0, ANY, "perf::PERF_COUNT_SW_PAGE_FAULTS",
	  UNFORCED },
	/* a PMU libpfm4 knows, but not on this machine */
	{ __LINE__, OTHER_PMU "::" OTHER_EVENT, -HWP_ERR_NO_PMU,
	  "LIBPFM_FORCE_PMU=" OTHER_PMU, 0, 0, ANY, 0, ANY, ANY, ANY, NULL, UNFORCED },
	/* event codes wider than a byte, whole */
#if defined(__aarch64__)
	OK_WIDE("arm_n1::SAMPLE_POP", 0x4000),
	OK_WIDE("arm_n1::SAMPLE_COLLISION", 0x4003),
#else
	OK_WIDE("skl::MEM_LOAD_RETIRED:L1_MISS", 0x08d1),
	OK_WIDE("skl::MEM_LOAD_RETIRED:L3_MISS", 0x20d1),
#endif
	/* errors, with the message a person needs */
	BAD("", -HWP_ERR_SYNTAX, "empty"),
	BAD("   ", -HWP_ERR_SYNTAX, "empty"),
	BAD("cache-mises", -HWP_ERR_UNKNOWN_EVENT, "did you mean: cache-misses"),
	BAD("instrucions", -HWP_ERR_UNKNOWN_EVENT, "instructions"),
	BAD("pagefaults", -HWP_ERR_UNKNOWN_EVENT, "page-faults"),
	BAD("cpu-migration", -HWP_ERR_UNKNOWN_EVENT, "cpu-migrations"),
	BAD("xyzzy-frobnicate", -HWP_ERR_UNKNOWN_EVENT, "hwprof list"),
	BAD("{page-faults,", -HWP_ERR_SYNTAX, "position 13"),
	BAD("{page-faults", -HWP_ERR_SYNTAX, "missing '}'"),
	BAD("page-faults}", -HWP_ERR_SYNTAX, "'}' without '{'"),
	BAD("cs,,cs", -HWP_ERR_SYNTAX, "position 3"),
	BAD(",cycles", -HWP_ERR_SYNTAX, "position 0"),
	BAD("cycles,", -HWP_ERR_SYNTAX, "the list ends"),
	BAD("{{cycles}}", -HWP_ERR_SYNTAX, "do not nest"),
	BAD("{cycles,{instructions}}", -HWP_ERR_SYNTAX, "do not nest"),
	BAD("{}", -HWP_ERR_SYNTAX, "expected an event name"),
	BAD("{cycles}:q", -HWP_ERR_SYNTAX, "bad group modifiers"),
	BAD("cycles:x", -HWP_ERR_SYNTAX, "not a modifier"),
	BAD("cycles:pppp", -HWP_ERR_SYNTAX, "not a modifier"),
	BAD("cycles instructions", -HWP_ERR_SYNTAX, "space"),
	/* The kernel's PMUs by perf's syntax: test-pmu.c. */
	BAD("nosuchpmu/event=0x3c/", -HWP_ERR_UNKNOWN_EVENT, "no PMU 'nosuchpmu'"),
	BAD("rxyz", -HWP_ERR_UNKNOWN_EVENT, "unknown event"),
};

static void check_row(const struct row *r)
{
	struct hwp_evlist *evl = (struct hwp_evlist *)0x1;
	struct hwp_event_info info = { .sz = sizeof(info) };
	int err = hwp_evlist_parse(r->spec, NULL, &evl);

	if (r->err) {
		CHECK(err == r->err, "line %d '%s': got %d (%s), want %d; message: %s",
		      r->line, r->spec, err, hwp_strerror(err), r->err, hwp_errmsg());
		CHECK(evl == NULL, "line %d: out not NULL after failure", r->line);
		CHECK(strstr(hwp_errmsg(), r->msg),
		      "line %d '%s': message '%s' lacks '%s'", r->line,
		      r->spec, hwp_errmsg(), r->msg);
		return;
	}
	CHECK(err == 0, "line %d '%s': %s", r->line, r->spec, hwp_errmsg());
	if (err)
		return;
	CHECK(hwp_evlist_nr_events(evl) == r->nr_events, "line %d: %zu events, want %zu",
	      r->line, hwp_evlist_nr_events(evl), r->nr_events);
	CHECK(hwp_evlist_nr_groups(evl) == r->nr_groups, "line %d: %zu groups, want %zu",
	      r->line, hwp_evlist_nr_groups(evl), r->nr_groups);
	CHECK(hwp_evlist_event(evl, 0, &info) == 0, "line %d", r->line);
	if (r->type != ANY) {
		CHECK(info.attr.type == (unsigned)r->type, "line %d: type %u, want %d",
		      r->line, info.attr.type, r->type);
		CHECK(info.attr.config == (unsigned long long)r->config,
		      "line %d: config %#llx, want %#llx", r->line,
		      (unsigned long long)info.attr.config, r->config);
	}
	if (r->excl_user != ANY)
		CHECK(info.attr.exclude_user == (unsigned)r->excl_user,
		      "line %d: exclude_user %u", r->line, info.attr.exclude_user);
	if (r->excl_kernel != ANY)
		CHECK(info.attr.exclude_kernel == (unsigned)r->excl_kernel,
		      "line %d: exclude_kernel %u", r->line, info.attr.exclude_kernel);
	if (r->canonical)
		CHECK(!strcmp(info.canonical, r->canonical),
		      "line %d: canonical '%s', want '%s'",
		      r->line, info.canonical, r->canonical);
	CHECK(!strcmp(hwp_evlist_spec(evl), r->spec), "line %d: spec not kept", r->line);
	hwp_evlist_free(evl);
}

/* Each row a case, named after its line and its spec. */
static void check_rows(int process)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (rows[i].process == process &&
		    t_case("line %d: '%s'", rows[i].line, rows[i].spec))
			check_row(&rows[i]);
	t_case_end();
}

static void check_groups(void)
{
	struct hwp_evlist *evl;
	struct hwp_event_info info = { .sz = sizeof(info) };
	const size_t want_group[] = { 0, 1, 1, 2 };
	const bool want_leader[] = { true, true, false, true };

	CHECK_ERR(hwp_evlist_parse("cycles,{instructions,LLC-load-misses},cpu-migrations:u",
				   NULL, &evl), 0);
	for (size_t i = 0; i < 4; i++) {
		CHECK_ERR(hwp_evlist_event(evl, i, &info), 0);
		CHECK(info.group == want_group[i], "event %zu in group %zu", i,
		      info.group);
		CHECK(info.is_leader == want_leader[i], "event %zu leader %d", i,
		      info.is_leader);
	}
	CHECK(!strcmp(info.name, "cpu-migrations:u"), "name as written: %s", info.name);
	CHECK(!strcmp(info.canonical, "cpu-migrations"), "canonical: %s", info.canonical);
	CHECK(info.attr.exclude_hv == 1 && info.attr.exclude_kernel == 1 &&
		      info.attr.exclude_user == 0, ":u excludes kernel and hypervisor");
	CHECK(!info.is_hardware, "cpu-migrations is software");
	CHECK_ERR(hwp_evlist_event(evl, 0, &info), 0);
	CHECK(info.is_hardware, "cycles is hardware");
	CHECK_ERR(hwp_evlist_event(evl, 4, &info), -EINVAL);
	hwp_evlist_free(evl);

	CHECK_ERR(hwp_evlist_parse("task-clock,cycles:pp,cycles:P,{faults:u,cs}:k", NULL,
				   &evl), 0);
	hwp_evlist_event(evl, 0, &info);
	CHECK(!strcmp(info.unit, "ns"), "task-clock counts ns: '%s'", info.unit);
	hwp_evlist_event(evl, 1, &info);
	CHECK(info.attr.precise_ip == 2, "precise_ip %u", info.attr.precise_ip);
	hwp_evlist_event(evl, 2, &info);
	CHECK(info.attr.precise_ip == 3, ":P asks for the most: %u",
	      info.attr.precise_ip);
	hwp_evlist_event(evl, 3, &info);
	CHECK(!info.attr.exclude_user && !info.attr.exclude_kernel, "member u + group k");
	hwp_evlist_event(evl, 4, &info);
	CHECK(info.attr.exclude_user && !info.attr.exclude_kernel, "group :k on cs");
	hwp_evlist_free(evl);

	/* A group's :D pins its leader, as perf's does: the kernel refuses a
	 * pinned member (EINVAL), and the leader keeps the group on the PMU. */
	CHECK_ERR(hwp_evlist_parse("{task-clock,page-faults}:D", NULL, &evl), 0);
	hwp_evlist_event(evl, 0, &info);
	CHECK(info.attr.pinned, "group :D: the leader is not pinned");
	hwp_evlist_event(evl, 1, &info);
	CHECK(!info.attr.pinned, "group :D: a member is pinned");
	hwp_evlist_free(evl);
}

static void check_opts(void)
{
	HWP_OPTS(hwp_evlist_opts, user, .all_user = true);
	HWP_OPTS(hwp_evlist_opts, kern, .all_kernel = true);
	struct hwp_event_info info = { .sz = sizeof(info) };
	struct hwp_evlist *evl;

	CHECK_ERR(hwp_evlist_parse("cycles,page-faults:k", &user, &evl), 0);
	hwp_evlist_event(evl, 0, &info);
	CHECK(info.attr.exclude_kernel && !info.attr.exclude_user, "--all-user");
	hwp_evlist_event(evl, 1, &info);
	CHECK(!info.attr.exclude_kernel && info.attr.exclude_user, "explicit :k wins");
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_evlist_parse("cycles", &kern, &evl), 0);
	hwp_evlist_event(evl, 0, &info);
	CHECK(!info.attr.exclude_kernel && info.attr.exclude_user, "--all-kernel");
	hwp_evlist_free(evl);
}

static void check_limits(void)
{
	char *big = malloc(70000), *many = malloc(5000 * 3 + 1);
	struct hwp_evlist *evl = NULL;

	memset(big, 'a', 69999);
	big[69999] = '\0';
	CHECK_ERR(hwp_evlist_parse(big, NULL, &evl), -HWP_ERR_SYNTAX);
	big[2000] = '\0';
	CHECK_ERR(hwp_evlist_parse(big, NULL, &evl), -HWP_ERR_SYNTAX);
	CHECK(strstr(hwp_errmsg(), "longer than"), "%s", hwp_errmsg());
	many[0] = '\0';
	for (int i = 0; i < 5000; i++)
		strcat(many, i ? ",cs" : "cs");
	CHECK_ERR(hwp_evlist_parse(many, NULL, &evl), -HWP_ERR_SYNTAX);
	CHECK(strstr(hwp_errmsg(), "more than"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_evlist_parse(NULL, NULL, &evl), -EINVAL);
	CHECK_ERR(hwp_evlist_parse("cs", NULL, NULL), -EINVAL);
	free(big);
	free(many);
}

static void check_matching(void)
{
	struct hwp_evlist *evl;
	const struct event *cm, *mig, *u;

	CHECK_ERR(hwp_evlist_parse("cache-misses,cpu-migrations,cycles:u", NULL, &evl),
		  0);
	cm = evlist_get(evl, 0);
	mig = evlist_get(evl, 1);
	u = evlist_get(evl, 2);
	CHECK(event_name_matches(cm, "cache-misses"), "exact");
	CHECK(event_name_matches(cm, "cachemisses"), "no dash");
	CHECK(event_name_matches(cm, "CACHE_MISSES"), "case and underscore");
	CHECK(!event_name_matches(cm, "cache-references"), "other event");
	CHECK(event_name_matches(mig, "migrations"), "alias");
	CHECK(event_name_matches(mig, "cpu_migrations"), "underscore");
	CHECK(event_name_matches(u, "cycles:u"), "as written");
	CHECK(event_name_matches(u, "cycles"), "canonical");
	CHECK(event_name_matches(u, "cpu-cycles"), "alias of canonical");
	CHECK(!event_name_matches(u, "instructions"), "other");
	/* The list's first match, as the metrics look their inputs up. */
	CHECK(event_find_name(evl->events, evl->nr_events, "cpu-cycles") == 2,
	      "found third");
	CHECK(event_find_name(evl->events, evl->nr_events, "MIGRATIONS") == 1,
	      "found second by alias");
	CHECK(event_find_name(evl->events, evl->nr_events, "cache-references") == -1,
	      "not found");
	CHECK(event_find_name(evl->events, 0, "cache-misses") == -1, "empty list");
	hwp_evlist_free(evl);
}

static int count_one(const struct hwp_event_desc *ev, void *ctx)
{
	size_t *n = ctx;

	(*n)++;
	return strcmp(ev->name, "stop-here") ? 0 : 42;
}

static int stop_at_third(const struct hwp_event_desc *ev, void *ctx)
{
	size_t *n = ctx;

	(void)ev;
	return ++(*n) == 3 ? 7 : 0;
}

static void check_listing(void)
{
	size_t all = 0, pages = 0, forced = 0, n = 0;

	CHECK_ERR(hwp_events_foreach(NULL, count_one, &all), 0);
	CHECK_ERR(hwp_events_foreach("page", count_one, &pages), 0);
	CHECK_ERR(hwp_events_foreach(FORCED_PMU "::*", count_one, &forced), 0);
	/* page-faults, minor-faults? no: page-faults, and the perf:: names */
	CHECK(pages >= 1, "'page' matches page-faults: %zu", pages);
	CHECK(forced > 50, "the forced PMU %s lists its events: %zu", FORCED_PMU, forced);
	CHECK(all >= generic_nr() + forced, "everything: %zu", all);
	CHECK_ERR(hwp_events_foreach(NULL, stop_at_third, &n), 7);
	CHECK(n == 3, "stopped at the third: %zu", n);
	CHECK_ERR(hwp_events_foreach(NULL, NULL, NULL), -EINVAL);
}

static void check_probe(void)
{
	CHECK_ERR(hwp_event_probe("page-faults"), 0);
	CHECK_ERR(hwp_event_probe("cs,page-faults"), -EINVAL);
	CHECK_ERR(hwp_event_probe("nonsense-event"), -HWP_ERR_UNKNOWN_EVENT);
	if (!have_hw_pmu()) {
		CHECK_ERR(hwp_event_probe("cycles"), -HWP_ERR_NO_PMU);
		CHECK(strstr(hwp_errmsg(), "no hardware PMU"), "%s", hwp_errmsg());
	} else {
		CHECK_ERR(hwp_event_probe("cycles"), 0);
	}
}

/* The rows of @process (UNFORCED, WIDE) in a process of their own: the
 * forcing of libpfm4 is read once, at its initialization. */
static void check_rows_elsewhere(const char *argv0, const char *process)
{
	if (t_case("rows %s, in a process of their own", process)) {
		char cmd[4200];
		int rc;

		snprintf(cmd, sizeof(cmd), "'%s' %s", argv0, process);
		rc = system(cmd);
		CHECK(rc == 0, "the rows %s: status %d", process, rc);
	}
}

int main(int argc, char **argv)
{
	const char *process = argc > 1 ? argv[1] : "";

	t_init();
	if (!strcmp(process, "unforced")) {
		unsetenv("LIBPFM_FORCE_PMU");
		check_rows(UNFORCED);
		return t_done();
	}
	if (!strcmp(process, "wide")) {
		setenv("LIBPFM_FORCE_PMU", WIDE_PMU, 1);
		check_rows(WIDE);
		return t_done();
	}
	setenv("LIBPFM_FORCE_PMU", FORCED_PMU, 1);
	check_rows(FORCED);
	check_rows_elsewhere(argv[0], "unforced");
	check_rows_elsewhere(argv[0], "wide");
	t_run(check_groups);
	t_run(check_opts);
	t_run(check_limits);
	t_run(check_matching);
	t_run(check_listing);
	t_run(check_probe);
	return t_done();
}
