// SPDX-License-Identifier: MIT
/* Regions on hardware counters, read in user space (the default) and with
 * read() (no_rdpmc, in a second process: regions are configured once a
 * process), in a thread whose exit must close its counters. Each way, a
 * region around the loop counts its instructions exactly, but for a
 * constant cost of the region's own reads, and the system calls that the
 * reads make are counted: none in user space. */
#include "pmu.h"

#include <pthread.h>

#define N 1000000ULL
#define CALLS 10
#define EMPTY_CALLS 1000

__attribute__((noinline)) static void spin(uint64_t n)
{
	LOOP_BODY(n);
}

struct found {
	const char *name;
	double insns, cycles;
	uint64_t calls;
};

static int find_region(const struct hwp_region_info *info, void *ctx)
{
	struct found *f = ctx;

	if (info->tid == 0 && !strcmp(info->name, f->name)) {
		f->insns = info->values[0];
		f->cycles = info->values[1];
		f->calls = info->calls;
	}
	return 0;
}

static struct found region(const char *name)
{
	struct found f = { .name = name, .insns = NAN, .cycles = NAN };

	CHECK_ERR(hwp_region_foreach(find_region, &f), 0);
	return f;
}

static uint64_t read_calls(struct hwp_session *s)
{
	struct hwp_count c;

	CHECK_ERR(hwp_session_read(s, &c, 1), 0);
	return c.value;
}

/* CALLS calls of region "loop" around @n iterations. Not inlined: both
 * rounds must run the very same instructions but for the loop's. */
__attribute__((noinline)) static void loop_calls(uint64_t n)
{
	for (int i = 0; i < CALLS; i++) {
		CHECK_ERR(hwp_region_begin("loop"), 0);
		spin(n);
		CHECK_ERR(hwp_region_end("loop"), 0);
	}
}

/* In a thread of its own, whose exit closes its counters. */
static void *run(void *arg)
{
	bool user_read = arg != NULL;
	HWP_OPTS(hwp_region_opts, o, .events = "{instructions:u,cycles:u}",
		 .no_rdpmc = !user_read);
	HWP_OPTS(hwp_session_opts, so, .no_inherit = true);
	const char *how = user_read ? "user space" : "read()";
	struct hwp_evlist *evl;
	struct hwp_session *sys = NULL;
	struct found one, two;
	uint64_t before, calls;

	CHECK_ERR(hwp_region_init(&o), 0);
	CHECK_ERR(hwp_evlist_parse("syscalls:sys_enter_read", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &so, &sys), 0);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_session_open(sys), 0);
	CHECK_ERR(hwp_session_enable(sys), 0);

	loop_calls(N);
	one = region("loop");
	loop_calls(2 * N);
	two = region("loop");
	CHECK(one.calls == CALLS && two.calls == 2 * CALLS, "%s: %llu, then %llu calls",
	      how, (unsigned long long)one.calls, (unsigned long long)two.calls);
	/* The region's reads cost the same each call: what the second ten
	 * calls add minus what the first ten did is the difference of their
	 * loops, to the instruction. */
	CHECK((two.insns - one.insns) - one.insns == (double)(CALLS * INSNS_PER_ITER * N),
	      "%s: %.0f, then %.0f more: %.0f apart, want %llu", how, one.insns,
	      two.insns - one.insns, two.insns - 2 * one.insns,
	      CALLS * INSNS_PER_ITER * N);
	CHECK(one.insns >= (double)(CALLS * INSNS_PER_ITER * N) &&
		      one.insns < (double)(CALLS * (INSNS_PER_ITER * N + 2000)),
	      "%s: %.0f instructions for %d loops of %llu", how, one.insns, CALLS,
	      INSNS_PER_ITER * N);
	CHECK(one.cycles == one.insns && two.cycles == two.insns,
	      "%s: cycles %.0f and %.0f, as the instructions", how, one.cycles,
	      two.cycles);
	t_note("%s: a region's reads add %.0f instructions a call", how,
	       one.insns / CALLS - (double)(INSNS_PER_ITER * N));

	before = read_calls(sys);
	for (int i = 0; i < EMPTY_CALLS; i++) {
		hwp_region_begin("empty");
		hwp_region_end("empty");
	}
	calls = read_calls(sys) - before - 1;
	if (user_read)
		CHECK(calls == 0, "%s: %llu system calls for %d regions", how,
		      (unsigned long long)calls, EMPTY_CALLS);
	else
		CHECK(calls == 2 * EMPTY_CALLS,
		      "%s: %llu read()s for %d regions, want two each",
		      how, (unsigned long long)calls, EMPTY_CALLS);
	{
		struct hwp_regionset_info in = { .sz = sizeof(in) };

		CHECK_ERR(hwp_region_settings(&in), 0);
		CHECK(isfinite(in.read_cost_ns), "the read cost was measured");
	}
	hwp_session_free(sys);
	return NULL;
}

static void run_thread(bool user_read)
{
	pthread_t t;

	CHECK(pthread_create(&t, NULL, run, user_read ? (void *)1 : NULL) == 0,
	      "a thread");
	pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
	char cmd[4200];
	int rc;

	t_init();
	pmu_require_exact();
	if (argc > 1 && !strcmp(argv[1], "read")) {
		if (t_case("regions read with read()"))
			run_thread(false);
		return t_done();
	}
	if (t_case("regions read from user space"))
		run_thread(true);
	/* A process of its own: the regions are set up once a process. */
	if (t_case("regions read with read(), in a second process")) {
		snprintf(cmd, sizeof(cmd), "'%s' read", argv[0]);
		rc = system(cmd);
		CHECK(rc == 0, "the regions read with read(): status %d", rc);
	}
	return t_done();
}
