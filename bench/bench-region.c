// SPDX-License-Identifier: MIT
/* Cost of a region (begin + end) and of a read on a 3-event software group:
 * libhwprof's regions against hand-written raw syscalls (a group read() at
 * begin and at end, deltas added up), and PAPI 7 (PAPI_read at begin and
 * end, and its high-level regions) where PAPI can count. Rounds alternate.
 * Usage: bench-region [ROUNDS] [ITERATIONS] */
#include <hwprof/hwprof.h>

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_PAPI
#include <papi.h>
#endif

#define NEV 3
#define EVENTS "{task-clock,page-faults,context-switches}"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The raw baseline: a group leader, read at begin and at end. */
static int raw_fd;
static uint64_t raw_sum[NEV];

static int raw_open(void)
{
	static const uint64_t cfg[NEV] = { PERF_COUNT_SW_TASK_CLOCK,
					   PERF_COUNT_SW_PAGE_FAULTS,
					   PERF_COUNT_SW_CONTEXT_SWITCHES };
	int leader = -1;

	for (int i = 0; i < NEV; i++) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = cfg[i];
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, leader,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			return -1;
		if (leader < 0)
			leader = fd;
	}
	raw_fd = leader;
	return 0;
}

static void raw_region(void)
{
	uint64_t a[3 + 2 * NEV], b[3 + 2 * NEV];

	if (read(raw_fd, a, sizeof(a)) <= 0 || read(raw_fd, b, sizeof(b)) <= 0)
		abort();
	for (int i = 0; i < NEV; i++)
		raw_sum[i] += b[3 + 2 * i] - a[3 + 2 * i];
}

static void api_region(void)
{
	hwp_region_begin("bench");
	hwp_region_end("bench");
}

#ifdef HAVE_PAPI
static int papi_set = PAPI_NULL;
static long long papi_sum[NEV];

static const char *papi_open(void)
{
	static const char *const names[NEV] = { "perf::TASK-CLOCK", "perf::PAGE-FAULTS",
						"perf::CONTEXT-SWITCHES" };

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return "PAPI_library_init failed";
	if (PAPI_create_eventset(&papi_set) != PAPI_OK)
		return "PAPI_create_eventset failed";
	for (int i = 0; i < NEV; i++) {
		int err = PAPI_add_named_event(papi_set, names[i]);

		if (err != PAPI_OK) {
			static char why[256];
			const PAPI_component_info_t *ci = PAPI_get_component_info(0);

			snprintf(why, sizeof(why),
				 "%s: %s (perf_event component: %.200s)", names[i],
				 PAPI_strerror(err),
				 ci && ci->disabled ? ci->disabled_reason : "enabled");
			return why;
		}
	}
	return PAPI_start(papi_set) == PAPI_OK ? NULL : "PAPI_start failed";
}

static void papi_region(void)
{
	long long a[NEV], b[NEV];

	PAPI_read(papi_set, a);
	PAPI_read(papi_set, b);
	for (int i = 0; i < NEV; i++)
		papi_sum[i] += b[i] - a[i];
}
#endif

static double run(void (*fn)(void), int iters)
{
	double t0 = now_ns();

	for (int i = 0; i < iters; i++)
		fn();
	return (now_ns() - t0) / iters;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 21,
	    iters = argc > 2 ? atoi(argv[2]) : 10000;
	HWP_OPTS(hwp_region_opts, o, .events = EVENTS);
	double *t[3];
	const char *papi_why = "not built with PAPI (libpapi-dev)";
	int ntools = 2;

	if (hwp_region_init(&o) || hwp_region_begin("warm") || hwp_region_end("warm") ||
	    raw_open()) {
		fprintf(stderr, "bench-region: %s\n", hwp_errmsg());
		return 1;
	}
#ifdef HAVE_PAPI
	papi_why = papi_open();
	if (!papi_why)
		ntools = 3;
#endif
	for (int k = 0; k < 3; k++)
		t[k] = calloc((size_t)rounds, sizeof(double));
	for (int r = 0; r < rounds; r++) {
		t[0][r] = run(raw_region, iters);
		t[1][r] = run(api_region, iters);
#ifdef HAVE_PAPI
		if (ntools == 3)
			t[2][r] = run(papi_region, iters);
#endif
	}
	for (int k = 0; k < ntools; k++)
		qsort(t[k], (size_t)rounds, sizeof(double), cmp);
	printf("# region begin+end on " EVENTS ": %d rounds of %d, alternating; median\n",
	       rounds, iters);
	printf("raw syscalls (2 group reads)  %8.1f ns\n", t[0][rounds / 2]);
	printf("hwprof region begin+end       %8.1f ns   ratio to raw %.3f\n",
	       t[1][rounds / 2], t[1][rounds / 2] / t[0][rounds / 2]);
	if (ntools == 3)
		printf("PAPI_read at begin and end    %8.1f ns   ratio to raw %.3f\n",
		       t[2][rounds / 2], t[2][rounds / 2] / t[0][rounds / 2]);
	else
		printf("PAPI: not measured: %s\n", papi_why);
	{
		struct hwp_regionset_info in = { .sz = sizeof(in) };

		hwp_region_settings(&in);
		printf("hwprof's own calibrated read cost: %.1f ns\n", in.read_cost_ns);
	}
	for (int k = 0; k < 3; k++)
		free(t[k]);
	return raw_sum[0] == 42;
}
