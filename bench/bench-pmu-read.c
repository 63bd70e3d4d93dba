// SPDX-License-Identifier: MIT
/* What one read of a group of two hardware counters costs, in instructions
 * of user space and kernel together, counted by the group's own
 * instructions counter over many reads: a hand-written read() of the group
 * leader, hwp_session_read() through read(), and hwp_session_read() in user
 * space (rdpmc on x86, mrs on arm64). Instructions, not time: it is meant
 * for the emulated ARMv8 machine of make test-pmu, where time means
 * nothing, and runs on any machine with a PMU.
 * Usage: bench-pmu-read [READS] */
#include <hwprof/hwprof.h>

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SPEC "{instructions,cycles}"

static int raw_fd = -1;

static int raw_open(void)
{
	static const uint64_t cfg[2] = { PERF_COUNT_HW_INSTRUCTIONS,
					 PERF_COUNT_HW_CPU_CYCLES };

	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a;
		int fd;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_HARDWARE;
		a.config = cfg[i];
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, raw_fd,
				  PERF_FLAG_FD_CLOEXEC);
		if (fd < 0)
			return -1;
		if (raw_fd < 0)
			raw_fd = fd;
	}
	return 0;
}

static uint64_t raw_read(void)
{
	uint64_t b[3 + 2 * 2];

	if (read(raw_fd, b, sizeof(b)) <= 0)
		abort();
	return b[3];
}

static struct hwp_session *session(bool user_read)
{
	HWP_OPTS(hwp_session_opts, o, .no_inherit = true, .no_rdpmc = !user_read);
	struct hwp_evlist *evl;
	struct hwp_session *s;

	if (hwp_evlist_parse(SPEC, NULL, &evl) || hwp_session_new(evl, &o, &s) ||
	    hwp_session_open(s) || hwp_session_enable(s)) {
		fprintf(stderr, "bench-pmu-read: %s\n", hwp_errmsg());
		exit(1);
	}
	hwp_evlist_free(evl);
	return s;
}

static uint64_t session_read(struct hwp_session *s)
{
	struct hwp_count c[2];

	if (hwp_session_read(s, c, 2))
		abort();
	return c[0].value;
}

int main(int argc, char **argv)
{
	int reads = argc > 1 ? atoi(argv[1]) : 10000;
	struct hwp_session *slow, *fast;
	uint64_t v0, v1;
	double raw, via_read, via_user;

	if (reads < 1 || raw_open()) {
		fprintf(stderr, "bench-pmu-read: no hardware PMU to count with (or a bad count)\n");
		return 1;
	}
	slow = session(false);
	fast = session(true);

	v0 = raw_read();
	for (int i = 0; i < reads; i++)
		raw_read();
	v1 = raw_read();
	raw = (double)(v1 - v0) / (reads + 1);

	v0 = session_read(slow);
	for (int i = 0; i < reads; i++)
		session_read(slow);
	v1 = session_read(slow);
	via_read = (double)(v1 - v0) / (reads + 1);

	v0 = session_read(fast);
	for (int i = 0; i < reads; i++)
		session_read(fast);
	v1 = session_read(fast);
	via_user = (double)(v1 - v0) / (reads + 1);

	printf("# instructions (user and kernel) a read of " SPEC ", %d reads each\n",
	       reads);
	printf("raw read() of the group leader      %8.1f\n", raw);
	printf("hwp_session_read(), read()          %8.1f   ratio to raw %.3f\n",
	       via_read, via_read / raw);
	printf("hwp_session_read(), user space      %8.1f   ratio to raw %.3f   %s\n",
	       via_user, via_user / raw,
	       hwp_session_rdpmc(fast) ? "" : "(not allowed here: read() all the same)");
	hwp_session_free(slow);
	hwp_session_free(fast);
	close(raw_fd);
	return 0;
}
