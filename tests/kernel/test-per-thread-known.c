// SPDX-License-Identifier: MIT
/* Counts per thread of a command through the API (hwp_session_read_units()),
 * on the workload's tcounts: threads busy at once, then each touching a
 * known number of pages (a page fault each) and sleeping a known number of
 * times (a context switch each), ending one after the other. The threads
 * are also preempted, as often as the load makes it: each thread says how
 * many times it was switched out in all (getrusage), the highest count.
 * The kernel switches between them on a CPU; each unit must hold its own
 * thread's counts, of each event (a group's members too), grow from read
 * to read while the command runs (never a unit that changes thread, never
 * a count that falls), and the units sum to hwp_session_read()'s total
 * once the command is gone. */
#include "core/core.h"
#include "harness.h"

#include <errno.h>
#include <time.h>

#define EVENTS "{page-faults,context-switches},task-clock"
#define NR_EV 3
#define MAX_UNITS 8
#define FAULTS_MORE 50		/* a thread's stack, besides its pages */
#define FIRST_FAULTS_MORE 300	/* the first thread: exec, the loader, libc */
/* What a thread may be switched out after its getrusage(): its print. */
#define SWITCHES_AFTER 3

static struct {
	const char *comm;
	unsigned long long pages, naps;
	long switches;	/* what it said, -1 until then */
} want[] = {
	{ "workload", 500, 30, -1 },	/* the first thread, after the others */
	{ "tc1", 1000, 50, -1 },
	{ "tc2", 2000, 300, -1 },
	{ "tc3", 3000, 1000, -1 },
};

struct seen {
	struct hwp_count counts[MAX_UNITS * NR_EV];
	pid_t tid[MAX_UNITS];
	size_t nr;
};

/* Read the units into @now; a unit keeps its thread, its counts never fall. */
static int read_units(struct hwp_session *s, const struct seen *was, struct seen *now)
{
	struct hwp_unit_info info;
	int err = hwp_session_read_units(s, now->counts, ARRAY_SIZE(now->counts));

	if (err)
		return err;
	now->nr = hwp_session_nr_units(s);
	for (size_t u = 0; u < now->nr; u++) {
		info.sz = sizeof(info);
		CHECK_ERR(hwp_session_unit(s, u, &info), 0);
		now->tid[u] = info.tid;
		if (u >= was->nr)
			continue;
		CHECK(now->tid[u] == was->tid[u], "unit %zu was thread %d, now %d", u,
		      (int)was->tid[u], (int)now->tid[u]);
		for (size_t e = 0; e < NR_EV; e++)
			CHECK(now->counts[u * NR_EV + e].value >=
			      was->counts[u * NR_EV + e].value,
			      "unit %zu event %zu fell from %llu to %llu", u, e,
			      (unsigned long long)was->counts[u * NR_EV + e].value,
			      (unsigned long long)now->counts[u * NR_EV + e].value);
	}
	return 0;
}

static void check_unit(struct hwp_session *s, const struct seen *end, size_t u,
		       int *found)
{
	const struct hwp_count *c = &end->counts[u * NR_EV];
	struct hwp_unit_info info = { .sz = sizeof(info) };

	CHECK_ERR(hwp_session_unit(s, u, &info), 0);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
		unsigned long long more = k ? FAULTS_MORE : FIRST_FAULTS_MORE;

		if (!info.comm || strcmp(info.comm, want[k].comm))
			continue;
		found[k]++;
		t_note("%s: %llu page faults, %llu context switches, %llu ns", info.name,
		       (unsigned long long)c[0].value, (unsigned long long)c[1].value,
		       (unsigned long long)c[2].value);
		CHECK(c[0].value >= want[k].pages && c[0].value < want[k].pages + more,
		      "%s: %llu page faults, want %llu and up to %llu more", info.name,
		      (unsigned long long)c[0].value, want[k].pages, more);
		CHECK(c[1].value >= want[k].naps &&
		      (long long)c[1].value <= want[k].switches + SWITCHES_AFTER,
		      "%s: %llu context switches, want %llu to the %ld it says, and up to %d more",
		      info.name, (unsigned long long)c[1].value, want[k].naps,
		      want[k].switches, SWITCHES_AFTER);
		CHECK(c[2].value > 0 && c[2].value < 60000000000ULL && c[2].time_running,
		      "%s: task-clock %llu ns", info.name,
		      (unsigned long long)c[2].value);
	}
}

/* The rusage lines of the workload's standard error (see workload.c). */
static void read_rusage(int fd)
{
	char buf[4096], name[16];
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	long sw, faults;

	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		want[k].switches = -1;
	buf[n > 0 ? n : 0] = '\0';
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "rusage %15s switches %ld faults %ld", name, &sw,
			   &faults) != 3)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(want); k++)
			if (!strcmp(name, want[k].comm))
				want[k].switches = sw;
	}
	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		CHECK(want[k].switches >= 0, "%s said no rusage: %s", want[k].comm, buf);
}

static void check_end(struct hwp_session *s, const struct seen *end)
{
	struct hwp_count total[NR_EV];
	int found[ARRAY_SIZE(want)] = { 0 };

	CHECK(end->nr == ARRAY_SIZE(want),
	      "%zu units, want the first thread, tc1, tc2, tc3", end->nr);
	for (size_t u = 0; u < end->nr; u++) {
		check_unit(s, end, u, found);
		for (size_t v = 0; v < u; v++)
			CHECK(end->tid[u] != end->tid[v], "units %zu and %zu: thread %d",
			      v, u, (int)end->tid[u]);
	}
	for (size_t k = 0; k < ARRAY_SIZE(want); k++)
		CHECK(found[k] == 1, "%s: %d units, want 1", want[k].comm, found[k]);
	CHECK_ERR(hwp_session_read(s, total, NR_EV), 0);
	for (size_t e = 0; e < NR_EV; e++) {
		unsigned long long sum = 0;

		for (size_t u = 0; u < end->nr; u++)
			sum += end->counts[u * NR_EV + e].value;
		CHECK(sum == total[e].value,
		      "event %zu: the units sum to %llu, the total is %llu", e, sum,
		      (unsigned long long)total[e].value);
	}
}

/* Once the command is gone nothing counts: after a reset every unit
 * reads 0, the first thread's own counters too (those of the others were
 * taken from their exits). */
static void check_reset(struct hwp_session *s, struct seen *now)
{
	CHECK_ERR(hwp_session_reset(s), 0);
	CHECK_ERR(hwp_session_read_units(s, now->counts, ARRAY_SIZE(now->counts)), 0);
	for (size_t u = 0; u < hwp_session_nr_units(s) && u < MAX_UNITS; u++)
		for (size_t e = 0; e < NR_EV; e++)
			CHECK(now->counts[u * NR_EV + e].value == 0,
			      "after a reset, unit %zu event %zu counts %llu", u, e,
			      (unsigned long long)now->counts[u * NR_EV + e].value);
}

static void test_known_counts_apart(void)
{
	char *argv[] = { getenv("WORKLOAD"), "tcounts", "0.05",
			 "1000:50,2000:300,3000:1000", "pages", "500", "naps", "30",
			 "rusage", NULL };
	HWP_OPTS(hwp_workload_opts, wo, .capture = HWP_CAPTURE_STDERR);
	struct timespec pace = { 0, 20000000 };
	struct hwp_session *s = NULL;
	struct hwp_workload *w = NULL;
	struct hwp_evlist *evl = NULL;
	static struct seen a, b;
	struct seen *was = &a, *now = &b, *t;
	int err = 0, reads = 0;

	if (!argv[0]) {
		t_case_skip("$WORKLOAD is not set (meson's test environment sets it)");
		return;
	}
	CHECK_ERR(hwp_workload_new(argv, &wo, &w), 0);
	CHECK_ERR(hwp_evlist_parse(EVENTS, NULL, &evl), 0);
	if (w && evl) {
		HWP_OPTS(hwp_session_opts, o, .pid = hwp_workload_pid(w),
			 .enable_on_exec = true, .aggr = HWP_AGGR_THREAD);

		CHECK_ERR(hwp_session_new(evl, &o, &s), 0);
	}
	if (!s || hwp_session_open(s)) {
		CHECK(0, "open %s per thread: %s", EVENTS, hwp_errmsg());
		goto out;
	}
	CHECK_ERR(hwp_workload_start(w), 0);
	/* While it runs: whatever the moments of the reads, no unit falls. */
	while (!err && hwp_workload_poll(w) == 0) {
		err = read_units(s, was, now);
		t = was, was = now, now = t;
		reads++;
		nanosleep(&pace, NULL);
	}
	if (!err)
		err = read_units(s, was, now);
	read_rusage(hwp_workload_output_fd(w));
	if (err == -EOPNOTSUPP) {
		t_case_skip("this kernel writes no exit record of a thread: %s",
			    hwp_errmsg());
		goto out;
	}
	CHECK(!err, "read per thread: %d %s", err, hwp_errmsg());
	t_note("%d reads while it ran", reads);
	if (!err)
		check_end(s, now);
	if (!err)
		check_reset(s, now);
out:
	hwp_session_free(s);
	hwp_evlist_free(evl);
	hwp_workload_free(w);
}

int main(void)
{
	t_init();
	t_run(test_known_counts_apart);
	return t_done();
}
