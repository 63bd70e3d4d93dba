// SPDX-License-Identifier: MIT
/* The named metrics of the CPU models (lib/count/metrics/<vendor>.def): every
 * formula on synthetic counts against values worked out by hand, and every
 * event they read encoded by libpfm4 with the model forced. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "harness.h"
#include "unit/models.h"

#include <math.h>
#include <pthread.h>

struct count_row {
	const char *model;	/* NULL: the rows of every model */
	const char *event;
	double value;
};

#define INTEL(ev, v) { "icl", ev, v }, { "icx", ev, v }, { "spr", ev, v }
/* Ice Lake client and server: the same TMA formulas (intel.def) */
#define ICE(ev, v) { "icl", ev, v }, { "icx", ev, v }
#define ZEN(ev, v) { "amd64_fam19h_zen3", ev, v }, { "amd64_fam19h_zen4", ev, v }
#define ARM(ev, v) { "arm_n1", ev, v }, { "arm_v1", ev, v }

static const struct count_row counts[] = {
	INTEL("TOPDOWN:SLOTS_P", 10000),
	INTEL("IDQ_UOPS_NOT_DELIVERED:CORE", 2200),
	INTEL("INT_MISC:UOP_DROPPING", 200),
	INTEL("r02a4", 2500),
	INTEL("INT_MISC:CLEARS_COUNT", 100),
	INTEL("UOPS_RETIRED:SLOTS", 4000),
	INTEL("IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", 300),
	INTEL("CPU_CLK_UNHALTED:THREAD_P", 3000),
	INTEL("INST_RETIRED:ANY_P", 6000),
	INTEL("BR_MISP_RETIRED:ALL_BRANCHES", 30),
	INTEL("BR_INST_RETIRED:ALL_BRANCHES", 1200),
	INTEL("MEM_LOAD_RETIRED:L1_MISS", 120),
	INTEL("MEM_LOAD_RETIRED:L2_MISS", 60),
	INTEL("MEM_LOAD_RETIRED:L3_MISS", 9),
	ICE("MACHINE_CLEARS:COUNT", 20),
	ICE("CYCLE_ACTIVITY:STALLS_MEM_ANY", 900),
	ICE("EXE_ACTIVITY:BOUND_ON_STORES", 100),
	ICE("CYCLE_ACTIVITY:STALLS_TOTAL", 1200),
	ICE("EXE_ACTIVITY:1_PORTS_UTIL", 500),
	ICE("EXE_ACTIVITY:2_PORTS_UTIL", 500),
	ICE("UOPS_ISSUED:ANY", 5000),
	ICE("IDQ:MS_UOPS", 500),
	ICE("UOPS_DECODED:DEC0", 700),
	ICE("r1000156", 400),
	ICE("IDQ:MITE_UOPS", 1500),
	{ "spr", "r08a4", 1000 },
	{ "spr", "r10a4", 1000 },
	{ "spr", "UOPS_RETIRED:HEAVY", 1000 },
	ZEN("CYCLES_NOT_IN_HALT", 5000),
	ZEN("RETIRED_INSTRUCTIONS", 4000),
	ZEN("RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 40),
	ZEN("RETIRED_BRANCH_INSTRUCTIONS", 800),
	{ "amd64_fam19h_zen3",
	  "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT",
	  100 },
	{ "amd64_fam19h_zen4",
	  "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX:NEAR_CACHE_NEAR_FAR:DRAM_IO_NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR:ALT_MEM_NEAR_FAR",
	  100 },
	ZEN("CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C:IC_FILL_MISS", 20),
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:FE_NO_OPS", 6000 },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:BE_STALLS", 9000 },
	{ "amd64_fam19h_zen4", "DISPATCH_STALLS_1:SMT_CONTENTION", 1500 },
	{ "amd64_fam19h_zen4", "RETIRED_OPS", 12000 },
	{ "amd64_fam19h_zen4",
	  "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER", 13500 },
	{ "amd64_fam19h_zen4", "r1060001a0", 600 },
	{ "amd64_fam19h_zen4", "RESYNCS", 10 },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD", 300 },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU", 500 },
	{ "amd64_fam19h_zen4", "RETIRED_UCODE_OPS", 3000 },
	ARM("CPU_CYCLES", 1000),
	ARM("INST_RETIRED", 2000),
	ARM("BR_MIS_PRED_RETIRED", 10),
	ARM("BR_RETIRED", 400),
	ARM("L1D_CACHE_REFILL", 40),
	ARM("L2D_CACHE_REFILL", 10),
	ARM("LL_CACHE_MISS_RD", 3),
	{ "arm_n1", "STALL_FRONTEND", 200 },
	{ "arm_n1", "STALL_BACKEND", 300 },
	{ "arm_v1", "OP_RETIRED", 800 },
	{ "arm_v1", "OP_SPEC", 1000 },
	{ "arm_v1", "STALL_SLOT_FRONTEND", 2000 },
	{ "arm_v1", "STALL_SLOT_BACKEND", 2640 },
	{ "arm_v1", "STALL_SLOT", 4640 },
	{ "arm_v1", "BR_MIS_PRED", 10 },
	/* uncore.def, unexpanded (no uncore_imc_N here: test-metric-uncore.c
	 * has them): MiB, as the kernel's scale makes the counts */
	{ "skx", "uncore_imc@cas_count_read@", 20000 },
	{ "skx", "uncore_imc@cas_count_write@", 10000 },
	{ "icx", "uncore_imc@cas_count_read@", 20000 },
	{ "icx", "uncore_imc@cas_count_write@", 10000 },
	{ "spr", "uncore_imc@cas_count_read@", 20000 },
	{ "spr", "uncore_imc@cas_count_write@", 10000 },
	/* amd_df's beats of 64 bytes, a channel each: test-amd-df.c encodes them */
#define Z3_CH(n) \
	{ "amd64_fam19h_zen3", "amd_df@dram_channel_data_controller_" #n "@", 2500 }
	Z3_CH(0), Z3_CH(1), Z3_CH(2), Z3_CH(3), Z3_CH(4), Z3_CH(5), Z3_CH(6), Z3_CH(7),
#define Z4(who, rw, n, v) \
	{ "amd64_fam19h_zen4", "amd_df@" who "_processor_" rw "_data_beats_cs" #n "@", v }
#define Z4_CS(n) \
	Z4("local", "read", n, 1000), Z4("remote", "read", n, 250), \
	Z4("local", "write", n, 500), Z4("remote", "write", n, 125)
	Z4_CS(0), Z4_CS(1), Z4_CS(2), Z4_CS(3), Z4_CS(4), Z4_CS(5),
	Z4_CS(6), Z4_CS(7), Z4_CS(8), Z4_CS(9), Z4_CS(10), Z4_CS(11),
#undef Z3_CH
#undef Z4
#undef Z4_CS
};

#define SECONDS 2.0	/* the wall time of the per-second forms */

static const struct {
	const char *model, *name;
	double want;
} expected[] = {
#define ICE_WANT(name, v) { "icl", name, v }, { "icx", name, v }
	/* of 10000 slots: (2200 - 200); 2500 + 5 * 100 on Ice Lake, 2500 on
	 * Sapphire Rapids; 4000; what the three leave */
	ICE_WANT("Frontend_Bound", 20),
	ICE_WANT("Backend_Bound", 30),
	ICE_WANT("Retiring", 40),
	ICE_WANT("Bad_Speculation", 10),
	{ "spr", "Frontend_Bound", 20 },
	{ "spr", "Backend_Bound", 25 },
	{ "spr", "Retiring", 40 },
	{ "spr", "Bad_Speculation", 15 },
	/* Ice Lake's level 2: 5 * 300 - 200; 20 - 13; 30 / (30 + 20) of 10;
	 * (900 + 100) / (1200 + 500 + 0.4 * 500 + 100) of 30; 4000 / 5000 *
	 * 500 + 0.4 * (700 - 400) / 1500 * 10000 */
	ICE_WANT("Fetch_Latency", 13),
	ICE_WANT("Fetch_Bandwidth", 7),
	ICE_WANT("Branch_Mispredicts", 6),
	ICE_WANT("Machine_Clears", 4),
	ICE_WANT("Memory_Bound", 15),
	ICE_WANT("Core_Bound", 15),
	ICE_WANT("Heavy_Operations", 12),
	ICE_WANT("Light_Operations", 28),
	/* Sapphire Rapids': 6 * 300 - 200; r08a4, r10a4, UOPS_RETIRED:HEAVY
	 * 1000 each */
	{ "spr", "Fetch_Latency", 16 },
	{ "spr", "Fetch_Bandwidth", 4 },
	{ "spr", "Branch_Mispredicts", 10 },
	{ "spr", "Machine_Clears", 5 },
	{ "spr", "Memory_Bound", 10 },
	{ "spr", "Core_Bound", 15 },
	{ "spr", "Heavy_Operations", 10 },
	{ "spr", "Light_Operations", 30 },
	/* 3000 / 6000; 30 / 1200; 120, 60, 9 per 6 kinsn */
	ICE_WANT("CPI", 0.5), { "spr", "CPI", 0.5 },
	ICE_WANT("Branch_Miss_Rate", 2.5), { "spr", "Branch_Miss_Rate", 2.5 },
	ICE_WANT("L1_MPKI", 20), { "spr", "L1_MPKI", 20 },
	ICE_WANT("L2_MPKI", 10), { "spr", "L2_MPKI", 10 },
	ICE_WANT("LLC_MPKI", 1.5), { "spr", "LLC_MPKI", 1.5 },
	/* 5000 / 4000; 40 / 800; 100 and 20 per 4 kinsn */
	{ "amd64_fam19h_zen3", "CPI", 1.25 }, { "amd64_fam19h_zen4", "CPI", 1.25 },
	{ "amd64_fam19h_zen3", "Branch_Miss_Rate", 5 },
	{ "amd64_fam19h_zen4", "Branch_Miss_Rate", 5 },
	{ "amd64_fam19h_zen3", "L1_MPKI", 25 }, { "amd64_fam19h_zen4", "L1_MPKI", 25 },
	{ "amd64_fam19h_zen3", "L2_MPKI", 5 }, { "amd64_fam19h_zen4", "L2_MPKI", 5 },
	/* of 6 * 5000 = 30000 slots: 6000, 9000, 12000, 13500 - 12000, 1500 */
	{ "amd64_fam19h_zen4", "Frontend_Bound", 20 },
	{ "amd64_fam19h_zen4", "Backend_Bound", 30 },
	{ "amd64_fam19h_zen4", "Retiring", 40 },
	{ "amd64_fam19h_zen4", "Bad_Speculation", 5 },
	{ "amd64_fam19h_zen4", "SMT_Contention", 5 },
	/* level 2: 6 * 600 and 6000 - 3600; 5 in 40 : 10; 30 in 300 : 200;
	 * 40 in 9000 : 3000 */
	{ "amd64_fam19h_zen4", "Frontend_Bound_Latency", 12 },
	{ "amd64_fam19h_zen4", "Frontend_Bound_Bandwidth", 8 },
	{ "amd64_fam19h_zen4", "Bad_Speculation_Mispredicts", 4 },
	{ "amd64_fam19h_zen4", "Bad_Speculation_Pipeline_Restarts", 1 },
	{ "amd64_fam19h_zen4", "Backend_Bound_Memory", 18 },
	{ "amd64_fam19h_zen4", "Backend_Bound_CPU", 12 },
	{ "amd64_fam19h_zen4", "Retiring_Fastpath", 30 },
	{ "amd64_fam19h_zen4", "Retiring_Microcode", 10 },
	/* N1: 200 / 1000, 300 / 1000 */
	{ "arm_n1", "Frontend_Stalled_Cycles", 20 },
	{ "arm_n1", "Backend_Stalled_Cycles", 30 },
	/* V1, 8000 slots: 2000 / 8000 - 4 * 10 / 1000; 2640 / 8000; busy
	 * 1 - 4640 / 8000 = 0.42: 0.8 * 0.42; 0.2 * 0.42 + 40 / 1000 */
	{ "arm_v1", "Frontend_Bound", 21 },
	{ "arm_v1", "Backend_Bound", 33 },
	{ "arm_v1", "Retiring", 33.6 },
	{ "arm_v1", "Bad_Speculation", 12.4 },
	/* 1000 / 2000; 10 / 400; 40, 10, 3 per 2 kinsn */
	{ "arm_n1", "CPI", 0.5 }, { "arm_v1", "CPI", 0.5 },
	{ "arm_n1", "Branch_Miss_Rate", 2.5 }, { "arm_v1", "Branch_Miss_Rate", 2.5 },
	{ "arm_n1", "L1_MPKI", 20 }, { "arm_v1", "L1_MPKI", 20 },
	{ "arm_n1", "L2_MPKI", 5 }, { "arm_v1", "L2_MPKI", 5 },
	{ "arm_n1", "LLC_MPKI", 1.5 }, { "arm_v1", "LLC_MPKI", 1.5 },
	/* 20000 and 10000 MiB of 1.048576 MB in 2 s */
	{ "skx", "Memory_BW_Read", 10485.76 }, { "skx", "Memory_BW_Write", 5242.88 },
	{ "icx", "Memory_BW_Read", 10485.76 }, { "icx", "Memory_BW_Write", 5242.88 },
	{ "spr", "Memory_BW_Read", 10485.76 }, { "spr", "Memory_BW_Write", 5242.88 },
	/* 8 * 2500 beats of 64 bytes, 1.28 MB in 2 s; 12 * (1000 + 250) reads,
	 * 0.96 MB, and 12 * (500 + 125) writes, 0.48 MB */
	{ "amd64_fam19h_zen3", "Memory_BW_Total", 0.64 },
	{ "amd64_fam19h_zen4", "Memory_BW_Read", 0.48 },
	{ "amd64_fam19h_zen4", "Memory_BW_Write", 0.24 },
	/* persec.def: 30, 60, 9; 40, 20; 10, 10, 3 in 2 s */
	ICE_WANT("Branch_Misses_per_sec", 15), { "spr", "Branch_Misses_per_sec", 15 },
	ICE_WANT("L2_Misses_per_sec", 30), { "spr", "L2_Misses_per_sec", 30 },
	ICE_WANT("LLC_Misses_per_sec", 4.5), { "spr", "LLC_Misses_per_sec", 4.5 },
	{ "amd64_fam19h_zen3", "Branch_Misses_per_sec", 20 },
	{ "amd64_fam19h_zen4", "Branch_Misses_per_sec", 20 },
	{ "amd64_fam19h_zen3", "L2_Misses_per_sec", 10 },
	{ "amd64_fam19h_zen4", "L2_Misses_per_sec", 10 },
	{ "arm_n1", "Branch_Misses_per_sec", 5 },
	{ "arm_v1", "Branch_Misses_per_sec", 5 },
	{ "arm_n1", "L2_Misses_per_sec", 5 }, { "arm_v1", "L2_Misses_per_sec", 5 },
	{ "arm_n1", "LLC_Misses_per_sec", 1.5 }, { "arm_v1", "LLC_Misses_per_sec", 1.5 },
#undef ICE_WANT
};

static int lookup(const char *name, double *value, void *ctx)
{
	const char *model = ctx;

	if (!strcmp(name, "seconds")) {
		*value = SECONDS;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(counts); i++)
		if (!strcmp(counts[i].model, model) && !strcmp(counts[i].event, name)) {
			*value = counts[i].value;
			return 0;
		}
	return -ENOENT;
}

static bool find_expected(const struct hwp_metric_info *mi, double *want)
{
	for (size_t i = 0; i < ARRAY_SIZE(expected); i++)
		if (!strcmp(expected[i].model, mi->model) &&
		    !strcmp(expected[i].name, mi->name)) {
			*want = expected[i].want;
			return true;
		}
	return false;
}

static void test_every_formula_on_synthetic_counts(void)
{
	size_t n = metric_model_nr_all();

	CHECK(n == ARRAY_SIZE(expected), "%zu metrics in the tables, %zu expected values",
	      n, ARRAY_SIZE(expected));
	for (size_t i = 0; i < n; i++) {
		const struct hwp_metric *m = metric_model_all(i);
		struct hwp_metric_info mi = { .sz = sizeof(mi) };
		double v = NAN, want = NAN;

		CHECK(m, "metric %zu of the tables does not parse", i);
		if (!m)
			continue;
		CHECK_ERR(hwp_metric_info(m, &mi), 0);
		CHECK(find_expected(&mi, &want), "%s %s: no value worked out by hand",
		      mi.model, mi.name);
		CHECK_ERR(hwp_metric_eval(m, lookup, (void *)mi.model, &v), 0);
		CHECK(fabs(v - want) < 1e-9 * fmax(1, fabs(want)),
		      "%s %s = %.12g, want %g", mi.model, mi.name, v, want);
		CHECK(mi.builtin && mi.unit[0] && mi.desc[0] && strlen(mi.source) > 20,
		      "%s %s: unit '%s', description '%s', source '%s'", mi.model,
		      mi.name, mi.unit, mi.desc, mi.source);
	}
}

/* The groups' sizes; names are unique within a model. */
static void test_groups_and_names(void)
{
	size_t n = metric_model_nr_all(), topdown = 0, level2 = 0, cycles = 0;

	for (size_t i = 0; i < n; i++) {
		struct hwp_metric_info a = { .sz = sizeof(a) };

		hwp_metric_info(metric_model_all(i), &a);
		topdown += !strcmp(a.group, "TopdownL1");
		level2 += !strcmp(a.group, "TopdownL2");
		cycles += !strcmp(a.group, "Cycle_Accounting");
		for (size_t j = 0; j < i; j++) {
			struct hwp_metric_info b = { .sz = sizeof(b) };

			hwp_metric_info(metric_model_all(j), &b);
			CHECK(strcmp(a.model, b.model) || strcmp(a.name, b.name),
			      "%s %s twice", a.model, a.name);
		}
	}
	/* icl, icx, spr, zen4, v1 four each, and zen4's SMT_Contention (N1
	 * has none: its Cycle_Accounting's two); icl, icx, spr and zen4 eight
	 * each */
	CHECK(topdown == 5 * 4 + 1, "%zu metrics in TopdownL1", topdown);
	CHECK(level2 == 4 * 8, "%zu metrics in TopdownL2", level2);
	CHECK(cycles == 2, "%zu metrics in Cycle_Accounting", cycles);
}

/* The level-2 nodes that split a level-1 one, as the documents define them
 * (TMA's Fetch_Bandwidth = Frontend_Bound - Fetch_Latency...; AMD's
 * frontend_bound_latency + frontend_bound_bandwidth = frontend_bound...). */
static const struct {
	const char *model, *parent, *child[2];
} splits[] = {
#define TMA_SPLITS(m) \
	{ m, "Frontend_Bound", { "Fetch_Latency", "Fetch_Bandwidth" } }, \
	{ m, "Bad_Speculation", { "Branch_Mispredicts", "Machine_Clears" } }, \
	{ m, "Backend_Bound", { "Memory_Bound", "Core_Bound" } }, \
	{ m, "Retiring", { "Heavy_Operations", "Light_Operations" } }
	TMA_SPLITS("icl"),
	TMA_SPLITS("icx"),
	TMA_SPLITS("spr"),
#undef TMA_SPLITS
	{ "amd64_fam19h_zen4", "Frontend_Bound",
	  { "Frontend_Bound_Latency", "Frontend_Bound_Bandwidth" } },
	{ "amd64_fam19h_zen4", "Bad_Speculation",
	  { "Bad_Speculation_Mispredicts", "Bad_Speculation_Pipeline_Restarts" } },
	{ "amd64_fam19h_zen4", "Backend_Bound",
	  { "Backend_Bound_Memory", "Backend_Bound_CPU" } },
	{ "amd64_fam19h_zen4", "Retiring",
	  { "Retiring_Fastpath", "Retiring_Microcode" } },
};

/* The counts of the table, each off by -5% to +5% as its name hashes: the
 * splits are identities, not the hand-picked values' luck. */
static int lookup_skewed(const char *name, double *value, void *ctx)
{
	unsigned long h = 5381;
	int err = lookup(name, value, ctx);

	for (const char *c = name; *c; c++)
		h = h * 33 + (unsigned char)*c;
	*value *= 1 + ((double)(h % 11) - 5) / 100;
	return err;
}

static double eval_named(const char *model, const char *name, hwp_value_fn fn)
{
	for (size_t i = 0; i < metric_model_nr_all(); i++) {
		const struct hwp_metric *m = metric_model_all(i);
		struct hwp_metric_info mi = { .sz = sizeof(mi) };
		double v = NAN;

		if (!m || hwp_metric_info(m, &mi) || strcmp(mi.model, model) ||
		    strcmp(mi.name, name))
			continue;
		CHECK_ERR(hwp_metric_eval(m, fn, (void *)model, &v), 0);
		return v;
	}
	CHECK(0, "%s has no metric %s", model, name);
	return NAN;
}

/* The table's counts, but Ice Lake retiring 6000 of the 10000 slots. */
static int lookup_overfull(const char *name, double *value, void *ctx)
{
	if (!strcmp(name, "UOPS_RETIRED:SLOTS")) {
		*value = 6000;
		return 0;
	}
	return lookup(name, value, ctx);
}

/* Frontend_Bound, Backend_Bound and Retiring of 20 + 30 + 60%: the TMA's
 * Bad_Speculation is max(1 - (...), 0), not -10%, and its split 0 too. */
static void test_clamps_at_zero(void)
{
	CHECK(eval_named("icl", "Retiring", lookup_overfull) == 60, "Retiring");
	CHECK(eval_named("icl", "Bad_Speculation", lookup_overfull) == 0, "clamped");
	CHECK(eval_named("icl", "Branch_Mispredicts", lookup_overfull) == 0, "of 0");
	CHECK(eval_named("icl", "Machine_Clears", lookup_overfull) == 0, "of 0");
}

static void test_level2_sums_to_its_parent(void)
{
	static const hwp_value_fn fns[] = { lookup, lookup_skewed };

	for (size_t f = 0; f < ARRAY_SIZE(fns); f++) {
		for (size_t i = 0; i < ARRAY_SIZE(splits); i++) {
			const char *model = splits[i].model;
			double parent = eval_named(model, splits[i].parent, fns[f]);
			double a = eval_named(model, splits[i].child[0], fns[f]);
			double b = eval_named(model, splits[i].child[1], fns[f]);

			CHECK(fabs(a + b - parent) < 1e-9 && a > 0 && b > 0,
			      "%s, counts %s: %s %g + %s %g, %s %g", model,
			      f ? "skewed" : "as worked out", splits[i].child[0], a,
			      splits[i].child[1], b, splits[i].parent, parent);
		}
	}
}

struct resolve_ctx {
	const char *model;
	int failures;
};

/* An x86 core event selects an event (bits 0-7 of its config, and 32-35
 * on AMD): libpfm4 4.13 leaves it 0 for Intel's TOPDOWN.*_SLOTS but
 * SLOTS_P, which would count something else. */
static bool selects_nothing(const char *model, const struct hwp_event_info *ei)
{
	return strncmp(model, "arm_", 4) && ei->source == HWP_SOURCE_PFM &&
	       (ei->attr.config & 0xf000000ffULL) == 0;
}

static int resolve_one(const char *name, void *arg)
{
	struct resolve_ctx *rc = arg;
	struct hwp_event_info ei = { .sz = sizeof(ei) };
	struct hwp_evlist *evl = NULL;
	int err;

	if (strchr(name, '@'))	/* a sysfs PMU's: test-metric-uncore.c */
		return 0;
	err = hwp_evlist_parse(name, NULL, &evl);

	if (!err)
		err = hwp_evlist_event(evl, 0, &ei);
	if (err) {
		fprintf(stderr, "# %s: '%s': %s\n", rc->model, name, hwp_errmsg());
		rc->failures++;
	} else if (selects_nothing(rc->model, &ei)) {
		fprintf(stderr, "# %s: '%s' encodes as config %#llx: event code 0\n",
			rc->model, name, (unsigned long long)ei.attr.config);
		rc->failures++;
	}
	hwp_evlist_free(evl);
	return 0;
}

/* In a child forced to @model: 0 when every event of @model's metrics
 * encodes and the model is detected, 1 otherwise. */
static int resolve_model(const char *model, const void *arg)
{
	struct resolve_ctx rc = { model, 0 };
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	const struct hwp_metric *m;

	(void)arg;
	m = hwp_metric_model(0);
	if (!m || hwp_metric_info(m, &mi) || strcmp(mi.model, model)) {
		fprintf(stderr, "# forced %s, hwp_metric_model(0) is of '%s'\n", model,
			m ? mi.model : "(none)");
		return 1;
	}
	for (size_t i = 0; (m = hwp_metric_model(i)); i++)
		metric_foreach_input(m, resolve_one, &rc);
	return rc.failures ? 1 : 0;
}

static void check_resolves(const char *model)
{
	int status;

	if (!t_case("events of %s resolve", model))
		return;
	status = in_forced_child(model, resolve_model, NULL);
	if (status != 77)
		CHECK(status == 0,
		      "%s: an event does not resolve, or the model is not detected (status %d)",
		      model, status);
}

static void *model_in_a_thread(void *arg)
{
	const struct hwp_metric **got = arg;

	for (size_t i = 0; i < 64; i++)
		got[i] = hwp_metric_model(i);
	return NULL;
}

/* Last: libpfm4 reads LIBPFM_FORCE_PMU once a process, and the children of
 * check_resolves() each force their own. */
static void test_model_from_threads(void)
{
	const struct hwp_metric *got[4][64] = { { NULL } };
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	pthread_t t[4];
	size_t n = 0, nr = 0;

	/* a model of this libpfm4's architecture, of 12 or 21 metrics */
#if defined(__aarch64__)
	const char *model = "arm_v1";
	size_t want = 12;
#else
	const char *model = "amd64_fam19h_zen4";
	size_t want = 21;
#endif

	setenv("LIBPFM_FORCE_PMU", model, 1);
	while (n < ARRAY_SIZE(t) &&
	       !pthread_create(&t[n], NULL, model_in_a_thread, (void *)got[n]))
		n++;
	CHECK(n == ARRAY_SIZE(t), "%zu threads started", n);
	for (size_t k = 0; k < n; k++)
		pthread_join(t[k], NULL);
	while (nr < 64 && got[0][nr])
		nr++;
	/* zen4: five TopdownL1, eight TopdownL2, CPI, Branch_Miss_Rate,
	 * L1_MPKI, L2_MPKI, Memory_BW_Read and _Write and two _per_sec;
	 * arm_v1: four TopdownL1, CPI, Branch_Miss_Rate, three MPKI and three
	 * _per_sec */
	CHECK(nr == want, "%zu metrics of %s", nr, model);
	CHECK(nr && !hwp_metric_info(got[0][0], &mi) && !strcmp(mi.model, model),
	      "model '%s'", mi.model);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < 64; i++)
			CHECK(got[k][i] == got[0][i],
			      "thread %zu, metric %zu: %p, not %p", k, i,
			      (void *)got[k][i], (void *)got[0][i]);
}

int main(void)
{
	static const char *const models[] = {
		"icl", "spr", "amd64_fam19h_zen3", "amd64_fam19h_zen4",
		"arm_n1", "arm_v1", "skx", "icx",
	};
	static char empty[] = "/tmp/hwprof-models-XXXXXX";

	t_init();
	/* no uncore PMU, whatever the machine has: formulas as written */
	if (mkdtemp(empty))
		setenv("HWPROF_SYSFS_ROOT", empty, 1);
	t_run(test_every_formula_on_synthetic_counts);
	t_run(test_groups_and_names);
	t_run(test_level2_sums_to_its_parent);
	t_run(test_clamps_at_zero);
	for (size_t i = 0; i < ARRAY_SIZE(models); i++)
		check_resolves(models[i]);
	t_run(test_model_from_threads);
	rmdir(empty);
	return t_done();
}
