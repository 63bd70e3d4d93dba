// SPDX-License-Identifier: MIT
/* Start+stop+read of a 3-event software group, and a read alone: libhwprof
 * against hand-written perf_event_open/ioctl/read, side by side in one run.
 * Rounds alternate between the two so that a noisy neighbour hits both.
 * Usage: bench-read [ROUNDS] [ITERATIONS] */
#include <hwprof/hwprof.h>

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NEV 3

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct raw {
	int fd[NEV];
	uint64_t buf[3 + 2 * NEV];
};

static int raw_open(struct raw *r)
{
	static const uint64_t cfg[NEV] = { PERF_COUNT_SW_TASK_CLOCK,
					   PERF_COUNT_SW_PAGE_FAULTS,
					   PERF_COUNT_SW_CONTEXT_SWITCHES };

	for (int i = 0; i < NEV; i++) {
		struct perf_event_attr a;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = cfg[i];
		a.disabled = i == 0;
		a.inherit = 1;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
		r->fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, i ? r->fd[0] : -1,
					PERF_FLAG_FD_CLOEXEC);
		if (r->fd[i] < 0)
			return -1;
	}
	return 0;
}

static void raw_cycle(struct raw *r, uint64_t *sink)
{
	ioctl(r->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	ioctl(r->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	if (read(r->fd[0], r->buf, sizeof(r->buf)) > 0)
		*sink += r->buf[3];
}

static void raw_read(struct raw *r, uint64_t *sink)
{
	if (read(r->fd[0], r->buf, sizeof(r->buf)) > 0)
		*sink += r->buf[3];
}

static void api_cycle(struct hwp_session *s, struct hwp_count *c, uint64_t *sink)
{
	hwp_session_enable(s);
	hwp_session_disable(s);
	hwp_session_read(s, c, NEV);
	*sink += c[0].value;
}

static void api_read(struct hwp_session *s, struct hwp_count *c, uint64_t *sink)
{
	hwp_session_read(s, c, NEV);
	*sink += c[0].value;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 21,
	    iters = argc > 2 ? atoi(argv[2]) : 20000;
	double *t[4];
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c[NEV];
	struct raw r;
	uint64_t sink = 0;
	static const char *const names[4] = { "raw enable+disable+read",
					      "api enable+disable+read",
					      "raw read", "api read" };

	if (hwp_evlist_parse("{task-clock,page-faults,context-switches}", NULL, &evl) ||
	    hwp_session_new(evl, NULL, &s) || hwp_session_open(s) || raw_open(&r)) {
		fprintf(stderr, "bench-read: %s\n", hwp_errmsg());
		return 1;
	}
	for (int k = 0; k < 4; k++)
		t[k] = calloc((size_t)rounds, sizeof(double));
	for (int round = 0; round < rounds; round++) {
		double t0;

		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			raw_cycle(&r, &sink);
		t[0][round] = (now_ns() - t0) / iters;
		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			api_cycle(s, c, &sink);
		t[1][round] = (now_ns() - t0) / iters;
		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			raw_read(&r, &sink);
		t[2][round] = (now_ns() - t0) / iters;
		t0 = now_ns();
		for (int i = 0; i < iters; i++)
			api_read(s, c, &sink);
		t[3][round] = (now_ns() - t0) / iters;
	}
	printf("# %d rounds of %d iterations, alternating; median ns per operation\n",
	       rounds, iters);
	for (int k = 0; k < 4; k++) {
		qsort(t[k], (size_t)rounds, sizeof(double), cmp);
		printf("%-26s %8.1f ns\n", names[k], t[k][rounds / 2]);
	}
	printf("ratio api/raw, enable+disable+read: %.3f\n",
	       t[1][rounds / 2] / t[0][rounds / 2]);
	printf("ratio api/raw, read:                %.3f\n",
	       t[3][rounds / 2] / t[2][rounds / 2]);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	for (int k = 0; k < 4; k++)
		free(t[k]);
	return sink == 42;	/* keeps the reads alive */
}
