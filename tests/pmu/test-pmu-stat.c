// SPDX-License-Identifier: MIT
/* hwprof stat on hardware events, asserted to the instruction: exact
 * counts, repeated runs without variance, groups, multiplexing scaled and
 * shown, unsupported events beside supported ones, libpfm4 and raw names,
 * metrics. The expected counts come from pmu-work's loops (two
 * instructions an iteration) and one measured run of its start-up. */
#include "pmu.h"

#include <glob.h>

#define N1 1000000ULL

/* Instructions pmu-work retires besides its loop: start-up and exit,
 * measured once with a loop of zero iterations. */
static double base;

static double truth(uint64_t iters)
{
	return base + (double)(INSNS_PER_ITER * iters);
}

static void test_exact(void)
{
	static const uint64_t iters[] = { N1, 2 * N1, 4 * N1, 1 };
	struct hwp_result *r = stat_work("instructions:u", 1, "loop", 0, 0);

	base = value(r, "instructions:u", 0);
	hwp_result_free(r);
	CHECK(base > 100 && base < 1e6,
	      "start-up and exit of pmu-work: %.0f instructions", base);
	t_note("pmu-work's start-up and exit: %.0f instructions (:u), the same every run",
	       base);
	for (size_t i = 0; i < ARRAY_SIZE(iters); i++) {
		double v;

		r = stat_work("instructions:u", 1, "loop", iters[i], 0);
		v = value(r, "instructions:u", 0);
		CHECK(v == truth(iters[i]),
		      "loop %" PRIu64 ": %.0f instructions, want %.0f",
		      iters[i], v, truth(iters[i]));
		hwp_result_free(r);
	}
}

/* -r 5: five runs, five identical counts: no variance at all. */
static void test_repeat(void)
{
	struct hwp_result *r = stat_work("{instructions:u,cycles:u}", 5, "loop", N1, 0);
	struct hwp_series_info insns, cycles;

	if (!series(r, "instructions:u", &insns) || !series(r, "cycles:u", &cycles)) {
		hwp_result_free(r);
		return;
	}
	CHECK(insns.nr_runs == 5, "%zu runs", insns.nr_runs);
	for (size_t i = 0; i < insns.nr_runs; i++) {
		CHECK(insns.values[i] == truth(N1),
		      "run %zu: %.0f instructions, want %.0f", i,
		      insns.values[i], truth(N1));
		/* Under -icount shift=0 a cycle is an instruction: the group's
		 * two members, read together, agree to the unit. */
		CHECK(cycles.values[i] == insns.values[i],
		      "run %zu: %.0f cycles, %.0f instructions",
		      i, cycles.values[i], insns.values[i]);
		CHECK(insns.percent_running[i] == 100 && cycles.percent_running[i] == 100,
		      "a group of two on six counters is never multiplexed: %.2f%%, %.2f%%",
		      insns.percent_running[i], cycles.percent_running[i]);
	}
	hwp_result_free(r);
}

/* Each member of a group has its own count, led or leading: the user
 * instructions are the loop's, exactly; the kernel's cycles, of the exec
 * and the exit, are not (a member given its leader's value would be). */
static void test_group_members(void)
{
	static const char *const specs[] = {
		"{cycles:k,instructions:u}",
		"{instructions:u,cycles:k}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct hwp_result *r = stat_work(specs[i], 1, "loop", 4 * N1, 0);
		double insns = value(r, "instructions:u", 0);
		double kernel = value(r, "cycles:k", 0);

		CHECK(insns == truth(4 * N1), "%s: instructions:u %.0f, want %.0f",
		      specs[i], insns, truth(4 * N1));
		CHECK(kernel > 0 && kernel < truth(4 * N1) / 2,
		      "%s: cycles:k %.0f, the kernel's part of a run of %.0f user instructions",
		      specs[i], kernel, truth(4 * N1));
		if (i == 0)
			t_note("%s: %.0f kernel cycles beside %.0f user instructions",
			       specs[i], kernel, insns);
		hwp_result_free(r);
	}
}

/* Events the emulated PMU does not count, beside events it does: the
 * rest counts exactly, the others say why, and none reads as 0. */
static void test_unsupported(void)
{
	static const char *const specs[] = {
		"instructions:u,cache-misses,branches,cycles:u",
		"{instructions:u,branches},{cache-misses,cycles:u}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct hwp_result *r = stat_work(specs[i], 1, "loop", N1, 0);
		struct hwp_series_info info;

		CHECK(value(r, "instructions:u", 0) == truth(N1), "%s: instructions %.0f",
		      specs[i], value(r, "instructions:u", 0));
		CHECK(value(r, "cycles:u", 0) == truth(N1), "%s: cycles %.0f", specs[i],
		      value(r, "cycles:u", 0));
		if (series(r, "branches", &info))
			CHECK(!info.supported && info.reason && isnan(info.values[0]),
			      "%s: branches supported %d, value %g, reason %s", specs[i],
			      info.supported, info.values[0], info.reason);
		if (series(r, "cache-misses", &info))
			CHECK(!info.supported && info.reason && isnan(info.values[0]),
			      "%s: cache-misses supported %d, value %g", specs[i],
			      info.supported, info.values[0]);
		hwp_result_free(r);
	}
}

/* The same instructions by every name: perf's, libpfm4's (with and
 * without the PMU's prefix), raw codes; the cycles likewise. */
static void test_names(void)
{
	static const char *const insn_names[] = {
		"instructions:u", "arm_ac57::INST_RETIRED:u", "INST_RETIRED:u", "r08:u",
	};
	static const char *const cycle_names[] = { "CPU_CYCLES:u", "r11:u" };
	struct hwp_result *r;
	struct hwp_evlist *evl;
	struct hwp_event_info ev = { .sz = sizeof(ev) };
	int err;

	CHECK_ERR(hwp_evlist_parse("INST_RETIRED", NULL, &evl), 0);
	err = hwp_evlist_event(evl, 0, &ev);
	CHECK(!err && !strcmp(ev.canonical, "arm_ac57::INST_RETIRED") &&
		      ev.attr.type == PERF_TYPE_RAW && ev.attr.config == 0x08,
	      "libpfm4 finds the Cortex-A57 PMU by itself: %d, %s, type %u, config %#llx",
	      err, err ? "(none)" : ev.canonical, ev.attr.type,
	      (unsigned long long)ev.attr.config);
	hwp_evlist_free(evl);

	r = stat_work("instructions:u,arm_ac57::INST_RETIRED:u,INST_RETIRED:u,r08:u,"
		      "CPU_CYCLES:u,r11:u",
		      1, "loop", N1, 0);
	for (size_t i = 0; i < ARRAY_SIZE(insn_names); i++)
		CHECK(value(r, insn_names[i], 0) == truth(N1), "%s: %.0f, want %.0f",
		      insn_names[i], value(r, insn_names[i], 0), truth(N1));
	for (size_t i = 0; i < ARRAY_SIZE(cycle_names); i++)
		CHECK(value(r, cycle_names[i], 0) == truth(N1), "%s: %.0f, want %.0f",
		      cycle_names[i], value(r, cycle_names[i], 0), truth(N1));
	hwp_result_free(r);
}

static void test_metrics(void)
{
	struct hwp_result *r;
	char path[] = "/tmp/pmu-metrics.XXXXXX";
	int fd = mkstemp(path), status;
	char *out;
	struct hwp_series_info info;
	double insns, faults;

	close(fd);
	out = hwprof_run(&status, "stat", "--json", "-o", path, "-e",
			 "instructions:u,cycles:u,page-faults,cache-misses,cpu-migrations",
			 "-M", "insn/fault=instructions:u / page-faults",
			 "-M", "misses/migration=cache-misses / cpu-migrations", "--",
			 env_or_die("PMU_WORK"), "loop", "0001000000", NULL);
	CHECK(status == 0, "hwprof stat with metrics: %s", out);
	free(out);
	if (status || hwp_result_load(path, &r)) {
		unlink(path);
		return;
	}
	unlink(path);
	insns = value(r, "instructions:u", 0);
	faults = value(r, "page-faults", 0);
	CHECK(insns == truth(N1), "instructions %.0f", insns);
	CHECK(value(r, "IPC", 0) == 1.0, "IPC is 1 under -icount shift=0: %.17g",
	      value(r, "IPC", 0));
	CHECK(faults > 0, "page-faults %.0f", faults);
	CHECK(value(r, "insn/fault", 0) == insns / faults, "insn/fault %.17g, want %.17g",
	      value(r, "insn/fault", 0), insns / faults);
	/* Of events that were not counted, a ratio is undefined, not 0. */
	if (series(r, "misses/migration", &info))
		CHECK(isnan(info.values[0]) && info.reason,
		      "misses/migration: %g, reason %s", info.values[0], info.reason);
	hwp_result_free(r);
}

/* hwprof stat --all-user -M CPI, the CPU model forced to @model, on
 * pmu-work's loop of @iters: its INST_RETIRED and CPI, or false after a
 * failed check. */
static bool model_cpi(const char *model, uint64_t iters, double *insns, double *cpi)
{
	char path[] = "/tmp/pmu-model.XXXXXX", da[24];
	int fd = mkstemp(path), status;
	struct hwp_result *r = NULL;
	bool ok;
	char *out;

	close(fd);
	setenv("LIBPFM_FORCE_PMU", model, 1);
	out = hwprof_run(&status, "stat", "--json", "-o", path, "--all-user", "-M", "CPI",
			 "--", env_or_die("PMU_WORK"), "loop", digits(iters, da), NULL);
	unsetenv("LIBPFM_FORCE_PMU");
	ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	CHECK(ok, "%s: hwprof stat -M CPI: status %d: %s", model, status, out);
	free(out);
	if (ok && hwp_result_load(path, &r))
		CHECK(0, "%s: reading the result: %s", model, hwp_errmsg());
	unlink(path);
	if (!r)
		return false;
	*insns = value(r, "INST_RETIRED", 0);
	*cpi = value(r, "CPI", 0);
	hwp_result_free(r);
	return true;
}

/* A CPU model's named metric (issue 30) on the counters QEMU has: Neoverse
 * N1's and V1's CPI reads CPU_CYCLES and INST_RETIRED, the architecture's
 * common events 0x11 and 0x08, which the emulated Cortex-A57 counts too
 * (LIBPFM_FORCE_PMU encodes them as the model does). In user space, under
 * -icount shift=0: the loop's instructions exactly (against a loop of 0
 * in the same environment: the variable costs the start-up's getenv()s a
 * few hundred), and a CPI of exactly 1. */
static void test_model_metric(void)
{
	static const char *const models[] = { "arm_n1", "arm_v1" };

	for (size_t i = 0; i < ARRAY_SIZE(models); i++) {
		double zero, insns, cpi, cpi0;

		if (!model_cpi(models[i], 0, &zero, &cpi0) ||
		    !model_cpi(models[i], N1, &insns, &cpi))
			continue;
		CHECK(insns - zero == (double)(INSNS_PER_ITER * N1),
		      "%s: INST_RETIRED %.0f - %.0f, want %.0f", models[i], insns, zero,
		      (double)(INSNS_PER_ITER * N1));
		CHECK(cpi == 1.0 && cpi0 == 1.0,
		      "%s: CPI %.17g and %.17g, want 1 under -icount shift=0", models[i],
		      cpi, cpi0);
	}
}

/* Ten events on the six counters that can take them: each is on a
 * counter part of the time, and scaled back to within 1% of the truth. */
static void test_multiplexing(void)
{
	const uint64_t iters = 50 * N1;
	char *spec = repeat_spec("instructions:u", 10);
	struct hwp_result *r;
	struct hwp_series_info info;
	size_t idx;
	char *out, d[24];
	int status;

	r = stat_work(spec, 1, "loop", iters, 0);
	for (idx = 0; r && idx < 10; idx++) {
		double err;

		info.sz = sizeof(info);
		if (hwp_result_series(r, idx, &info))
			break;
		err = fabs(info.values[0] - truth(iters)) / truth(iters);
		CHECK(info.percent_running[0] > 10 && info.percent_running[0] < 90,
		      "event %zu ran %.2f%% of the time", idx, info.percent_running[0]);
		CHECK(err < 0.01, "event %zu: scaled %.0f, true %.0f: %.3f%% off", idx,
		      info.values[0], truth(iters), 100 * err);
		if (idx == 0)
			t_note("10 events, 6 counters: ran %.2f%% of the time, scaled %.4f%% off",
			       info.percent_running[0], 100 * err);
	}
	CHECK(idx == 10, "ten rows: %zu", idx);
	hwp_result_free(r);

	/* The text report says how long each ran and that it was scaled. */
	out = hwprof_run(&status, "stat", "-e", spec, "-o", "-", "--", env_or_die("PMU_WORK"),
			 "loop", digits(iters, d), NULL);
	CHECK(out && strstr(out, "% counted, scaled)"), "the text shows the scaling: %s",
	      out);
	free(out);
	free(spec);
}

/* A group larger than the PMU: the kernel takes its members until the
 * counters run out and refuses the rest (EINVAL). Those are not supported,
 * and the reason says that the group is too large, not that the event is
 * unknown; the members that fit count exactly. */
static void test_group_too_large(void)
{
	char *members = repeat_spec("instructions:u", 8);
	struct strbuf spec = STRBUF_INIT;
	struct hwp_result *r;
	struct hwp_series_info info;

	strbuf_addf(&spec, "{%s},cycles:u", members);
	r = stat_work(strbuf_str(&spec), 1, "loop", N1, 0);
	for (size_t i = 0; r && i < 8; i++) {
		info.sz = sizeof(info);
		if (hwp_result_series(r, i, &info))
			break;
		if (i < 6)
			CHECK(info.values[0] == truth(N1), "member %zu: %.0f, want %.0f",
			      i, info.values[0], truth(N1));
		else
			CHECK(!info.supported && info.reason &&
			      strstr(info.reason, "group"),
			      "member %zu of 8 on 6 counters: supported %d, reason: %s",
			      i, info.supported, info.reason);
	}
	CHECK(value(r, "cycles:u", 0) == truth(N1), "cycles beside the group: %.0f",
	      value(r, "cycles:u", 0));
	hwp_result_free(r);
	strbuf_release(&spec);
	free(members);
}

/* The PMU's multiplexing interval in ms, set to @ms; the old one back. */
static int mux_interval(int ms)
{
	glob_t g;
	int old = -1;

	if (glob("/sys/bus/event_source/devices/armv8*/perf_event_mux_interval_ms", 0,
		 NULL, &g)) {
		CHECK(0, "the ARMv8 PMU has no perf_event_mux_interval_ms in sysfs");
		return -1;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r+");

		if (!f)
			continue;
		if (fscanf(f, "%d", &old) != 1)
			old = -1;
		rewind(f);
		fprintf(f, "%d\n", ms);
		CHECK(fclose(f) == 0, "writing %s: %s", g.gl_pathv[i], strerror(errno));
	}
	globfree(&g);
	return old;
}

/* Two groups that each fill the counters take turns, one multiplexing
 * interval each. A run shorter than the interval never gives the second
 * group its turn: it was not counted, which is not 0, and the report says
 * so. (The interval is made 10 s long here, so that the run's place
 * between the timer's ticks cannot matter.) */
static void test_not_counted(void)
{
	char *six = repeat_spec("instructions:u", 6);
	struct strbuf spec = STRBUF_INIT;
	struct hwp_result *r;
	struct hwp_series_info info;
	size_t counted = 0, not_counted = 0;
	char *out;
	int status, old_ms;

	strbuf_addf(&spec, "{%s},{%s}", six, six);
	old_ms = mux_interval(10000);
	r = stat_work(strbuf_str(&spec), 1, "loop", 0, 0);
	for (size_t i = 0; r && i < 12; i++) {
		info.sz = sizeof(info);
		if (hwp_result_series(r, i, &info))
			break;
		if (info.percent_running[0] > 0) {
			counted++;
			CHECK(info.values[0] == truth(0), "event %zu: %.0f, want %.0f", i,
			      info.values[0], truth(0));
		} else {
			not_counted++;
			CHECK(isnan(info.values[0]),
			      "event %zu never ran, and reads %g, not NAN", i,
			      info.values[0]);
		}
	}
	CHECK(counted == 6 && not_counted == 6, "%zu counted, %zu not counted", counted,
	      not_counted);
	hwp_result_free(r);
	out = hwprof_run(&status, "stat", "-e", strbuf_str(&spec), "-o", "-", "--",
			 env_or_die("PMU_WORK"), "loop", "0000000000", NULL);
	CHECK(out && strstr(out, "<not counted>"), "the text says <not counted>: %s",
	      out);
	if (old_ms > 0)
		mux_interval(old_ms);
	free(out);
	strbuf_release(&spec);
	free(six);
}

/* hwprof list probes each event: on a PMU that lacks some, the short
 * reason fits its column and leaves the description apart. */
static void test_list(void)
{
	int status, rows = 0, refused = 0;
	char *out = hwprof_run(&status, "list", "branch", NULL), *line, *save = NULL;

	CHECK(status == 0, "hwprof list branch: status %d: %s", status, out);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		/* "  NAME(40) STATUS(26) DESCRIPTION" */
		if (strncmp(line, "  ", 2) || strlen(line) < 71)
			continue;
		rows++;
		refused += !strncmp(line + 43, "no:", 3);
		CHECK(line[68] == ' ' && line[69] == ' ',
		      "the status runs into the description: '%s'", line);
	}
	CHECK(rows >= 2 && refused >= 1, "%d rows, %d refused: %s", rows, refused, out);
	free(out);
}

int main(void)
{
	t_init();
	pmu_require_exact();
	t_run(test_exact);
	t_run(test_repeat);
	t_run(test_group_members);
	t_run(test_unsupported);
	t_run(test_names);
	t_run(test_metrics);
	t_run(test_model_metric);
	t_run(test_multiplexing);
	t_run(test_group_too_large);
	t_run(test_not_counted);
	t_run(test_list);
	return t_done();
}
