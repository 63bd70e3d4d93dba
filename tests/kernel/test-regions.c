// SPDX-License-Identifier: MIT
/* Regions against the real kernel, with software events on known work:
 * page touches inside a region are its faults, not its neighbours';
 * nesting is inclusive; threads are kept apart; calls are counted; a
 * report can run while threads measure. Run with "sampled" and
 * HWPROF_SAMPLE_EVERY=4 for sparse measurement. */
#include "core/core.h"
#include "region/region.h"
#include "result/result.h"
#include "harness.h"
#include "work.h"

#include <dirent.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <sys/wait.h>

#define PAGES 2000
#define SLACK 64

struct found {
	const char *name;
	pid_t tid;
	bool seen;
	uint64_t calls, measured, ops;
	double faults, cs, task_clock, seconds;
	size_t nr_threads;
	bool too_short;
};

/* hwp_region_settings(), for one field at a time. */
static struct hwp_regionset_info settings(void)
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };

	CHECK_ERR(hwp_region_settings(&in), 0);
	return in;
}

static int find_cb(const struct hwp_region_info *info, void *ctx)
{
	struct found *f = ctx;

	if (strcmp(info->name, f->name) || info->tid != f->tid)
		return 0;
	f->seen = true;
	f->calls = info->calls;
	f->measured = info->measured_calls;
	f->ops = info->ops;
	f->faults = info->values[0];
	f->cs = info->values[1];
	f->task_clock = info->values[2];
	f->seconds = info->seconds;
	f->nr_threads = info->nr_threads;
	f->too_short = info->too_short;
	return 0;
}

static struct found find(const char *name, pid_t tid)
{
	struct found f = { .name = name, .tid = tid };

	CHECK_ERR(hwp_region_foreach(find_cb, &f), 0);
	CHECK(f.seen, "region '%s' of thread %d reported", name, (int)tid);
	return f;
}

static void test_counts_and_nesting(void)
{
	struct found f;

	for (int i = 0; i < 3; i++) {
		CHECK_ERR(hwp_region_begin("outer"), 0);
		work_touch_pages(PAGES);
		CHECK_ERR(hwp_region_begin("inner"), 0);
		work_touch_pages(PAGES / 2);
		CHECK_ERR(hwp_region_end_ops("inner", 10), 0);
		CHECK_ERR(hwp_region_end("outer"), 0);
		CHECK_ERR(hwp_region_begin("quiet"), 0);
		CHECK_ERR(hwp_region_end("quiet"), 0);
	}
	work_touch_pages(PAGES);	/* outside every region */
	f = find("outer", 0);
	CHECK(f.calls == 3 && f.measured == 3, "outer calls %llu",
	      (unsigned long long)f.calls);
	CHECK(f.faults >= 3 * 1.5 * PAGES && f.faults <= 3 * 1.5 * PAGES + SLACK,
	      "outer (inclusive) faults %.0f", f.faults);
	CHECK(f.seconds > 0, "time inside");
	f = find("inner", 0);
	CHECK(f.calls == 3 && f.ops == 30, "inner calls %llu ops %llu",
	      (unsigned long long)f.calls, (unsigned long long)f.ops);
	CHECK(f.faults >= 3 * PAGES / 2 && f.faults <= 3 * PAGES / 2 + SLACK,
	      "inner faults %.0f", f.faults);
	f = find("quiet", 0);
	CHECK(f.faults <= 2, "nothing happens in 'quiet': %.0f faults", f.faults);
	CHECK(f.too_short, "an empty region is too short to measure");
	CHECK(settings().read_cost_ns > 0, "read cost measured: %g ns",
	      settings().read_cost_ns);
}

/* One buffer for several names, as a caller that formats each region's
 * name into a stack buffer does: each name is its own region, whatever
 * pointer it comes in. */
static void test_names_in_one_buffer(void)
{
	char buf[32];
	struct found f;

	for (int i = 0; i < 2; i++) {
		snprintf(buf, sizeof(buf), "buffer-alpha");
		CHECK_ERR(hwp_region_begin(buf), 0);
		work_touch_pages(PAGES);
		CHECK_ERR(hwp_region_end(buf), 0);
		snprintf(buf, sizeof(buf), "buffer-beta");
		CHECK_ERR(hwp_region_begin(buf), 0);
		CHECK_ERR(hwp_region_end(buf), 0);
	}
	f = find("buffer-alpha", 0);
	CHECK(f.calls == 2, "buffer-alpha: %llu calls, expected 2",
	      (unsigned long long)f.calls);
	CHECK(f.faults >= 2 * PAGES, "buffer-alpha: %.0f faults", f.faults);
	f = find("buffer-beta", 0);
	CHECK(f.calls == 2, "buffer-beta: %llu calls, expected 2",
	      (unsigned long long)f.calls);
	CHECK(f.faults < PAGES, "buffer-beta touched nothing: %.0f faults", f.faults);
	/* the buffer rewritten while its region is open: another name */
	snprintf(buf, sizeof(buf), "buffer-alpha");
	CHECK_ERR(hwp_region_begin(buf), 0);
	snprintf(buf, sizeof(buf), "buffer-beta");
	CHECK_ERR(hwp_region_end(buf), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "innermost open region is 'buffer-alpha'") != NULL,
	      "message: %s", hwp_errmsg());
	CHECK_ERR(hwp_region_end("buffer-alpha"), 0);
}

/* Calls of an empty region, one of which waits (as a thread descheduled
 * on a busy machine does): the others still last less than 20 reads, and
 * too_short says so. The wait makes the mean call longer than 20 reads,
 * so a rule on the mean would miss them. */
static void test_too_short_one_long_call(void)
{
	const char *name = "empty but once";
	struct timespec wait;
	double cost, mean_ns;
	struct found f;

	for (int i = 0; i < 5; i++) {
		CHECK_ERR(hwp_region_begin(name), 0);
		CHECK_ERR(hwp_region_end(name), 0);
	}
	cost = settings().read_cost_ns;
	/* 240 reads: the six calls' mean is above 40 */
	wait.tv_sec = (time_t)(240 * cost / 1e9);
	wait.tv_nsec = (long)fmod(240 * cost, 1e9);
	CHECK_ERR(hwp_region_begin(name), 0);
	while (nanosleep(&wait, &wait))
		;
	CHECK_ERR(hwp_region_end(name), 0);
	f = find(name, 0);
	mean_ns = f.seconds * 1e9 / (double)f.calls;
	CHECK(f.calls == 6 && f.measured == 6, "calls %llu", (unsigned long long)f.calls);
	CHECK(mean_ns > 20 * cost, "the mean call, %.0f ns, is above 20 reads of %g ns",
	      mean_ns, cost);
	CHECK(f.too_short, "five calls shorter than 20 reads: too short to measure");
}

/* The read cost asked for while the first region calibrates the reads:
 * the cost is written and read under the regions' lock (a data race that
 * ThreadSanitizer finds otherwise). The other thread is gone before any
 * region is measured. No CHECK here: the harness counts in one thread. */
static void *cost_poller(void *arg)
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };
	double *cost = arg;

	while (!(*cost > 0))
		if (!hwp_region_settings(&in))
			*cost = in.read_cost_ns;
	return NULL;
}

static void test_read_cost(void)
{
	pthread_t poller;
	double cost = NAN;

	pthread_create(&poller, NULL, cost_poller, &cost);
	CHECK_ERR(hwp_region_begin("first"), 0);
	CHECK_ERR(hwp_region_end("first"), 0);
	pthread_join(poller, NULL);
	CHECK(cost > 0 && cost == settings().read_cost_ns,
	      "the read cost, as another thread saw it: %g ns", cost);
}

static void test_errors(void)
{
	char name[] = "dynamic";

	CHECK_ERR(hwp_region_end("never"), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "without a hwp_region_begin"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_region_begin("a"), 0);
	CHECK_ERR(hwp_region_end("b"), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "innermost open region is 'a'"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_region_end("a"), 0);
	CHECK_ERR(hwp_region_begin(NULL), -EINVAL);
	/* A name in a buffer, not a literal: matched by content. */
	CHECK_ERR(hwp_region_begin(name), 0);
	CHECK_ERR(hwp_region_end("dynamic"), 0);
	for (int i = 0; i < 64; i++)
		CHECK_ERR(hwp_region_begin("deep"), 0);
	CHECK_ERR(hwp_region_begin("deep"), -E2BIG);
	for (int i = 0; i < 64; i++)
		CHECK_ERR(hwp_region_end("deep"), 0);
	CHECK_ERR(hwp_region_init(NULL), -EBUSY);
}

/* The reporter reports once for each call a worker ends, while the others
 * go on: it races with them, yet does a known amount of work (a reporter
 * looping without pause took 3-37 s of an emulated CPU from the workers). */
static sem_t report_due;
static atomic_int stop_reporting;

static void *worker(void *arg)
{
	long pages = (long)arg;

	for (int i = 0; i < 5; i++) {
		if (hwp_region_begin("work") || hwp_region_begin(i % 2 ? "odd" : "even"))
			return (void *)1;
		work_touch_pages(pages);
		if (hwp_region_end(i % 2 ? "odd" : "even") || hwp_region_end("work"))
			return (void *)1;
		sem_post(&report_due);
	}
	return (void *)(long)syscall(SYS_gettid);
}

static int count_cb(const struct hwp_region_info *info, void *ctx)
{
	(void)info;
	(*(int *)ctx)++;
	return 0;
}

static void *reporter(void *arg)
{
	int rows = 0;
	long reports = 0;

	(void)arg;
	for (;;) {
		while (sem_wait(&report_due) && errno == EINTR)
			;
		if (atomic_load(&stop_reporting))
			break;
		if (hwp_region_foreach(count_cb, &rows))
			return (void *)-1L;
		reports++;
	}
	return (void *)reports;
}

/* Threads measure their own regions at once, while another thread reports. */
static void test_threads(void)
{
	const long pages[3] = { 500, 1000, 1500 };
	pthread_t t[3], rep;
	pid_t tid[3];
	struct found f;
	void *reports;

	sem_init(&report_due, 0, 0);
	pthread_create(&rep, NULL, reporter, NULL);
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)pages[i]);
	for (int i = 0; i < 3; i++) {
		void *ret;

		pthread_join(t[i], &ret);
		tid[i] = (pid_t)(long)ret;
		CHECK(tid[i] > 1, "worker %d ran its regions", i);
	}
	atomic_store(&stop_reporting, 1);
	sem_post(&report_due);
	pthread_join(rep, &reports);
	sem_destroy(&report_due);
	/* It stops at the first post after the flag: some may be left. */
	CHECK((long)reports >= 0 && (long)reports <= 15, "reported %ld times",
	      (long)reports);
	f = find("work", 0);
	CHECK(f.nr_threads == 3 && f.calls == 15, "work: %zu threads, %llu calls",
	      f.nr_threads, (unsigned long long)f.calls);
	CHECK(f.faults >= 5 * 3000 && f.faults <= 5 * 3000 + 3 * SLACK, "total %.0f",
	      f.faults);
	for (int i = 0; i < 3; i++) {
		f = find("work", tid[i]);
		CHECK(f.calls == 5 && f.faults >= 5 * pages[i] &&
		      f.faults <= 5 * pages[i] + SLACK,
		      "thread %d: %llu calls, %.0f faults for %ld pages", i,
		      (unsigned long long)f.calls, f.faults, 5 * pages[i]);
		f = find("even", tid[i]);
		CHECK(f.calls == 3 && f.faults >= 3 * pages[i] &&
		      f.faults <= 3 * pages[i] + SLACK,
		      "thread %d even: %.0f", i, f.faults);
	}
}

static void test_sampled(void)
{
	struct found f;

	CHECK(settings().sample_every == 4, "HWPROF_SAMPLE_EVERY=4: %u",
	      settings().sample_every);
	for (int i = 0; i < 40; i++) {
		CHECK_ERR(hwp_region_begin("sampled"), 0);
		work_touch_pages(100);
		CHECK_ERR(hwp_region_end("sampled"), 0);
	}
	f = find("sampled", 0);
	CHECK(f.calls == 40 && f.measured == 10, "%llu calls, %llu measured",
	      (unsigned long long)f.calls, (unsigned long long)f.measured);
	/* 10 measured calls of 100 faults, scaled by 4. */
	CHECK(f.faults >= 4000 && f.faults <= 4000 + 4 * SLACK, "scaled faults %.0f",
	      f.faults);
}

static double thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Empty regions, one call in four measured: each measured call carries its
 * two reads, which the three others never made. The estimate of the
 * region's task-clock stays within what the thread ran (the measured
 * calls' own reads are most of that); scaling the measured calls by four
 * made it about twice as much. */
static void test_sampled_within_thread_time(void)
{
	double cpu = thread_cpu_ns();
	struct found f;

	for (int i = 0; i < 4000; i++) {
		CHECK_ERR(hwp_region_begin("empty"), 0);
		CHECK_ERR(hwp_region_end("empty"), 0);
	}
	cpu = thread_cpu_ns() - cpu;
	f = find("empty", 0);
	CHECK(f.calls == 4000 && f.measured == 1000, "%llu calls, %llu measured",
	      (unsigned long long)f.calls, (unsigned long long)f.measured);
	CHECK(f.task_clock > 0 && f.task_clock <= cpu,
	      "the estimate, %.0f ns of task-clock, within the thread's %.0f ns of CPU",
	      f.task_clock, cpu);
}

/* Estimated rows: the measured calls as they were, and each other call as
 * a measured one less what the measurement adds to it, never below 0. */
static void test_rows_estimated(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	const struct hwp_count counts[2] = {
		{ .value = 1000, .time_enabled = 2000000, .time_running = 1000000 },
		{ .value = 5000000, .time_enabled = 5000000, .time_running = 5000000 },
	};
	const double cost[2] = { 100, 1e6 }, too_much[2] = { 5000, 1e7 };
	struct regionset_region rg = { 0 }, rg2 = { 0 };

	CHECK_ERR(hwp_evlist_parse("page-faults,task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, NULL, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	/* Two of four calls measured: 2000 faults (scaled for multiplexing)
	 * and 5 ms; each other call 1000 - 100 faults and 2.5 - 1 ms. */
	CHECK_ERR(region_rows(s, counts, 0.01, 4, 2, cost, &rg), 0);
	CHECK(rg.nr_events == 2 && rg.values[0] == 3800 && rg.values[1] == 8e6,
	      "estimated: %g faults, %g ns", rg.values[0], rg.values[1]);
	CHECK_ERR(region_rows(s, counts, 0.01, 4, 2, too_much, &rg2), 0);
	CHECK(rg2.values[0] == 2000 && rg2.values[1] == 5e6,
	      "a cost above the measured calls' own: the others count 0: %g, %g",
	      rg2.values[0], rg2.values[1]);
	CHECK(isnan(region_estimate(10, 4, 0, 1)) && region_estimate(10, 4, 4, 1) == 10,
	      "nothing measured: NAN; everything measured: the sum");
	for (size_t i = 0; i < rg.nr_rows; i++)
		series_release(&rg.rows[i]);
	for (size_t i = 0; i < rg2.nr_rows; i++)
		series_release(&rg2.rows[i]);
	free(rg.rows);
	free(rg.values);
	free(rg2.rows);
	free(rg2.values);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* How many perf_event descriptors this process holds. */
static int perf_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	char path[300], target[64];
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = 0;
			n += strstr(target, "perf_event") != NULL;
		}
	}
	closedir(d);
	return n;
}

/* A child of fork() starts with no regions, and counts itself; it keeps
 * none of the parent's counters (or their memory) open. */
static void test_fork(void)
{
	pid_t child;
	int status;

	CHECK(perf_fds() > 0, "the parent counts its regions: %d perf descriptors",
	      perf_fds());
	child = fork();
	if (child == 0) {
		struct found f = { .name = "outer", .tid = 0 };

		hwp_region_foreach(find_cb, &f);
		if (f.seen)
			_exit(2);	/* the parent's regions came along */
		if (perf_fds() != 0)
			_exit(5);	/* the parent's counters came along */
		if (hwp_region_begin("child") || (work_touch_pages(300), hwp_region_end("child")))
			_exit(3);
		f = (struct found){ .name = "child", .tid = 0 };
		hwp_region_foreach(find_cb, &f);
		_exit(f.seen && f.faults >= 300 && f.faults <= 300 + SLACK ? 0 : 4);
	}
	CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child's regions: status %d",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* fork() waits for a walk of the regions in another thread to end (the
 * registry is never copied half-updated), and the child starts with a
 * lock of its own. The walker holds the lock until well after the fork
 * began: a fork that did not wait finds it still inside. */
static atomic_int walk_inside, walk_left, forking;

static int slow_cb(const struct hwp_region_info *info, void *ctx)
{
	(void)info;
	(void)ctx;
	if (atomic_exchange(&walk_inside, 1))
		return 0;
	while (!atomic_load(&forking))
		sched_yield();
	usleep(100000);
	atomic_store(&walk_left, 1);
	return 0;
}

static void *slow_walker(void *arg)
{
	(void)arg;
	hwp_region_foreach(slow_cb, NULL);
	return NULL;
}

static void test_fork_while_walking(void)
{
	pthread_t walker;
	pid_t child;
	int status = -1;

	pthread_create(&walker, NULL, slow_walker, NULL);
	while (!atomic_load(&walk_inside))
		sched_yield();
	atomic_store(&forking, 1);
	child = fork();
	if (child == 0) {
		/* The first region of this thread registers it, under the lock. */
		if (hwp_region_begin("child") || hwp_region_end("child"))
			_exit(3);
		/* The walker's buffers came along without the walker: exec, so
		 * that no leak check (valgrind's) counts them as this child's. */
		execl("/bin/true", "true", (char *)NULL);
		_exit(4);
	}
	CHECK(atomic_load(&walk_left),
	      "fork() returned while another thread walked the regions");
	pthread_join(walker, NULL);
	CHECK(child > 0 && waitpid(child, &status, 0) == child, "fork");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child's regions: status %d",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void test_write(void)
{
	HWP_OPTS(hwp_write_opts, text, .format = HWP_FORMAT_TEXT);
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	HWP_OPTS(hwp_write_opts, csv, .format = HWP_FORMAT_CSV);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK_ERR(hwp_region_write(f, &text), 0);
	fflush(f);
	/* The one rendering of regions, as hwprof stat --regions shows them. */
	CHECK(strstr(buf, " Regions, events page-faults,context-switches,task-clock, a read costs "),
	      "%s", buf);
	CHECK(strstr(buf, "\n Region 'outer': 1 thread, 3 calls, "), "%s", buf);
	CHECK(strstr(buf, "  page-faults  ") && strstr(buf, " /call"), "per call: %s",
	      buf);
	CHECK_ERR(hwp_region_write(f, &csv), -EOPNOTSUPP);
	fclose(f);
	free(buf);
	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_region_write(f, &json), 0);
	fclose(f);
	CHECK(strstr(buf, "\"schema\": \"hwprof-regions/1\"") && strstr(buf, "\"region\": \"inner\""),
	      "JSON");
	free(buf);
}

/* The live regions as a regionset: what hwp_region_foreach() gives, with
 * each event's real percent running, written and read back the same. */
static void test_snapshot(void)
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_regionset *rs = NULL, *back = NULL;
	struct hwp_regionset_info in = { .sz = sizeof(in) };
	struct hwp_region_info ri = { .sz = sizeof(ri) };
	struct hwp_series_info si = { .sz = sizeof(si) };
	struct found f = find("outer", 0);
	char path[] = "/tmp/hwprof-regions-XXXXXX";
	size_t outer = SIZE_MAX;
	int fd;

	CHECK_ERR(hwp_regionset_from_regions(&rs), 0);
	if (!rs)
		return;
	CHECK_ERR(hwp_regionset_info(rs, &in), 0);
	CHECK(!strcmp(in.event_spec, "page-faults,context-switches,task-clock") &&
	      in.sample_every == 1 && in.read_cost_ns == settings().read_cost_ns,
	      "the totals");
	for (size_t i = 0; i < in.nr_regions; i++)
		if (!hwp_regionset_region(rs, i, &ri) && !strcmp(ri.name, "outer"))
			outer = i;
	CHECK(outer != SIZE_MAX, "region 'outer' in the regionset");
	if (outer == SIZE_MAX)
		goto out;
	hwp_regionset_region(rs, outer, &ri);
	CHECK(ri.calls == f.calls && ri.measured_calls == f.measured &&
	      ri.nr_threads == 1 && ri.nr_events == 3 && ri.values[0] == f.faults &&
	      ri.values[1] == f.cs,
	      "the walk's numbers: %.0f faults vs %.0f", ri.values[0], f.faults);
	CHECK_ERR(hwp_regionset_thread(rs, outer, 0, &ri), 0);
	CHECK(ri.tid == (pid_t)syscall(SYS_gettid) && ri.values[0] == f.faults,
	      "its one thread");
	for (size_t e = 0; e < 3; e++) {
		CHECK_ERR(hwp_regionset_series(rs, outer, e, &si), 0);
		/* Software events run whenever they are enabled: 100, measured. */
		CHECK(si.percent_running[0] == 100, "%s ran %g%% of the time", si.name,
		      si.percent_running[0]);
	}
	fd = mkstemp(path);
	if (fd >= 0) {
		FILE *out = fdopen(fd, "w");

		CHECK_ERR(hwp_regionset_write(rs, out, &json), 0);
		fclose(out);
		CHECK_ERR(hwp_regionset_load(path, &back), 0);
		unlink(path);
	}
	CHECK(back &&
	      hwp_regionset_nr_series(back, outer) ==
	      hwp_regionset_nr_series(rs, outer) &&
	      !hwp_regionset_region(back, outer, &ri) && ri.values[0] == f.faults,
	      "written and read back");
out:
	hwp_regionset_free(back);
	hwp_regionset_free(rs);
}

/* A live region's rows come from the sums of its calls with their real
 * times: a count that ran half the time it was enabled is scaled by 2 and
 * says so, never made up as counting all the time. */
static void test_rows(void)
{
	HWP_OPTS(hwp_write_opts, text, .format = HWP_FORMAT_TEXT);
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	const struct hwp_count counts[2] = {
		{ .value = 1000, .time_enabled = 2000000, .time_running = 1000000 },
		{ .value = 5000000, .time_enabled = 5000000, .time_running = 5000000 },
	};
	struct hwp_regionset *rs = NULL;
	struct regionset_region *rg;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_ERR(hwp_evlist_parse("page-faults,task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, NULL, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK_ERR(regionset_new(&rs), 0);
	rg = rs ? regionset_add_region(rs) : NULL;
	if (!rg || !(rg->name = strdup("half")))
		t_skip("out of memory");
	rg->calls = 4;
	rg->measured_calls = 2;
	rg->seconds = 0.02;
	/* Two calls of four measured: 0.01 s of them, counts doubled. */
	CHECK_ERR(region_rows(s, counts, 0.01, 4, 2, NULL, rg), 0);
	CHECK(rg->nr_events == 2 && rg->rows[0].values[0] == 4000 &&
	      rg->rows[0].pct[0] == 50,
	      "multiplexed: %g at %g%%", rg->rows[0].values[0], rg->rows[0].pct[0]);
	CHECK(rg->rows[1].values[0] == 1e7 && rg->rows[1].pct[0] == 100 &&
	      rg->values[1] == 1e7,
	      "all the time: %g at %g%%", rg->rows[1].values[0], rg->rows[1].pct[0]);
	for (size_t i = rg->nr_events; i < rg->nr_rows; i++)
		if (!strcmp(rg->rows[i].name, "CPUs-utilized"))
			CHECK(rg->rows[i].values[0] == 0.5,
			      "a ratio, as the measured calls made it: %g",
			      rg->rows[i].values[0]);
	f = open_memstream(&buf, &len);
	CHECK_ERR(hwp_regionset_write(rs, f, &text), 0);
	fclose(f);
	CHECK(strstr(buf, "page-faults") && strstr(buf, " (50.00% counted, scaled)\n"),
	      "%s", buf);
	CHECK(!strstr(strstr(buf, "task-clock") ? strstr(buf, "task-clock") : buf,
		      "counted,"),
	      "a count that ran all the time says nothing: %s", buf);
	free(buf);
	hwp_regionset_free(rs);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

int main(int argc, char **argv)
{
	HWP_OPTS(hwp_region_opts, o, .events = "page-faults,context-switches,task-clock");

	t_init();
	t_case("init");
	CHECK_ERR(hwp_region_init(&o), 0);
	CHECK(!strcmp(settings().event_spec, "page-faults,context-switches,task-clock"),
	      "%s", settings().event_spec);
	t_case_end();
	if (argc > 1 && !strcmp(argv[1], "sampled")) {
		t_run(test_sampled);
		t_run(test_sampled_within_thread_time);
	} else {
		t_run(test_read_cost);
		t_run(test_counts_and_nesting);
		t_run(test_names_in_one_buffer);
		t_run(test_too_short_one_long_call);
		t_run(test_errors);
		t_run(test_threads);
		t_run(test_write);
		t_run(test_snapshot);
		t_run(test_rows);
		t_run(test_rows_estimated);
		t_run(test_fork);
		t_run(test_fork_while_walking);
	}
	/* The main thread's counters stay open until exit, as its regions may
	 * still be reported then: they are not a leak. */
	t_fds_at_start += 3;
	return t_done();
}
