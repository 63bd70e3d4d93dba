// SPDX-License-Identifier: MIT
/* Counting against the real kernel, with software events on work whose
 * counts are known: N fresh pages give >= N page faults, M alternations
 * between two CPUs >= M-1 migrations, K pipe round trips >= 2K context
 * switches. */
#include "core/core.h"
#include "event/event.h"
#include "harness.h"
#include "work.h"

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define PAGES 5000
/* Page faults that are not ours, per task: the first touch of a stack page,
 * the dynamic loader's, a thread's start-up (and valgrind's, under it). */
#define SLACK (t_under_valgrind() ? 2000 : 200)

static struct hwp_session *open_session(const char *spec,
					const struct hwp_session_opts *o)
{
	struct hwp_evlist *evl;
	struct hwp_session *s = NULL;
	int err = hwp_evlist_parse(spec, NULL, &evl);

	CHECK(err == 0, "%s: %s", spec, hwp_errmsg());
	if (err)
		return NULL;
	err = hwp_session_new(evl, o, &s);
	hwp_evlist_free(evl);
	CHECK(err == 0, "new: %s", hwp_errmsg());
	if (!err) {
		err = hwp_session_open(s);
		CHECK(err == 0, "open %s: %s", spec, hwp_errmsg());
	}
	if (err) {
		hwp_session_free(s);
		return NULL;
	}
	return s;
}

static double count_of(struct hwp_session *s, size_t idx)
{
	struct hwp_count c[8];

	CHECK_ERR(hwp_session_read(s, c, 8), 0);
	return hwp_count_scaled(&c[idx]);
}

static void test_page_faults(void)
{
	struct hwp_session *s = open_session("page-faults,task-clock", NULL);
	struct hwp_count c[2];
	double faults;

	if (!s)
		return;
	CHECK_ERR(hwp_session_enable(s), 0);
	work_touch_pages(PAGES);
	CHECK_ERR(hwp_session_disable(s), 0);
	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	faults = hwp_count_scaled(&c[0]);
	CHECK(faults >= PAGES && faults <= PAGES + SLACK, "page faults %.0f for %d pages",
	      faults, PAGES);
	CHECK(c[1].value > 0 && c[1].time_running == c[1].time_enabled, "task-clock ran");
	CHECK_NEAR(hwp_count_percent_running(&c[0]), 100, 0);
	/* Disabled: no more counting. */
	work_touch_pages(100);
	CHECK_NEAR(count_of(s, 0), faults, 0);
	/* Reset: back to zero. */
	CHECK_ERR(hwp_session_reset(s), 0);
	CHECK_NEAR(count_of(s, 0), 0, 0);
	hwp_session_free(s);
}

static void test_migrations(void)
{
	const int M = 200;
	struct hwp_session *s;
	cpu_set_t saved;
	double mig;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		t_case_skip("one CPU online: migrations need two");
		return;
	}
	sched_getaffinity(0, sizeof(saved), &saved);
	s = open_session("cpu-migrations", NULL);
	if (!s)
		return;
	hwp_session_enable(s);
	for (int i = 0; i < M; i++)
		work_pin(i % 2);
	hwp_session_disable(s);
	mig = count_of(s, 0);
	CHECK(mig >= M - 1 && mig <= M + 20,
	      "migrations %.0f for %d alternations", mig, M);
	sched_setaffinity(0, sizeof(saved), &saved);
	hwp_session_free(s);
}

static void pingpong(long k)
{
	CHECK(work_pingpong(k) == 0, "ping-pong of %ld round trips", k);
}

static void test_context_switches_and_threads(void)
{
	const long K = 1000;
	struct hwp_session *s = open_session("{context-switches,page-faults}", NULL);
	double cs;

	if (!s)
		return;
	hwp_session_enable(s);
	pingpong(K);	/* half the switches happen in a thread created after the open */
	hwp_session_disable(s);
	cs = count_of(s, 0);
	CHECK(cs >= 2 * K && cs <= 2 * K + 200,
	      "context switches %.0f for %ld round trips", cs, K);
	hwp_session_free(s);

	/* Without inheritance the echo thread's half is not counted. */
	{
		HWP_OPTS(hwp_session_opts, o, .no_inherit = true);

		s = open_session("context-switches", &o);
		if (!s)
			return;
		hwp_session_enable(s);
		pingpong(K);
		hwp_session_disable(s);
		cs = count_of(s, 0);
		CHECK(cs >= K && cs < 1.5 * K, "one thread's switches only: %.0f", cs);
		hwp_session_free(s);
	}
}

static void *toucher(void *arg)
{
	work_touch_pages((long)arg);
	return NULL;
}

/* @n children, one after the other, each touching PAGES fresh pages. */
static void children_touch(int n)
{
	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			work_touch_pages(PAGES);
			_exit(0);
		}
		waitpid(p, NULL, 0);
	}
}

static void test_inheritance(void)
{
	struct hwp_session *s = open_session("page-faults", NULL);
	pthread_t t[4];
	double faults;

	if (!s)
		return;
	hwp_session_enable(s);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, toucher, (void *)(long)PAGES);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	children_touch(3);
	hwp_session_disable(s);
	faults = count_of(s, 0);
	CHECK(faults >= 7 * PAGES && faults <= 7 * PAGES + 7 * SLACK,
	      "4 threads and 3 children of %d pages each: %.0f faults", PAGES, faults);
	hwp_session_free(s);
}

/* hwp_session_reset() zeroes every count, the exited children's too: the
 * kernel's reset leaves what they passed up at their exit. */
static void test_reset_after_children(void)
{
	struct hwp_session *s = open_session("page-faults", NULL);
	double faults;

	if (!s)
		return;
	hwp_session_enable(s);
	children_touch(2);
	hwp_session_disable(s);
	faults = count_of(s, 0);
	CHECK(faults >= 2 * PAGES, "2 children of %d pages: %.0f faults", PAGES, faults);
	CHECK_ERR(hwp_session_reset(s), 0);
	faults = count_of(s, 0);
	CHECK(faults == 0, "reset: %.0f faults left", faults);
	/* Counting goes on from 0, the children's new counts included. */
	hwp_session_enable(s);
	if (fork() == 0) {
		work_touch_pages(PAGES);
		_exit(0);
	}
	wait(NULL);
	hwp_session_disable(s);
	faults = count_of(s, 0);
	CHECK(faults >= PAGES && faults <= PAGES + 2 * SLACK,
	      "a child after the reset, %d pages: %.0f faults", PAGES, faults);
	/* A second reset, with the first's children still in the kernel's sum. */
	CHECK_ERR(hwp_session_reset(s), 0);
	CHECK_NEAR(count_of(s, 0), 0, 0);
	hwp_session_free(s);
}

/* Counting another process, all its threads: as hwprof stat -p does. */
static void test_process_scope(void)
{
	int go[2], done[2];
	pid_t child;
	char c;

	CHECK(!pipe(go) && !pipe(done), "pipes");
	child = fork();
	if (child == 0) {
		pthread_t t;

		close(go[1]);
		close(done[0]);
		/* A thread that exists before the counters open. */
		pthread_create(&t, NULL, toucher, (void *)1L);
		pthread_join(t, NULL);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		pthread_create(&t, NULL, toucher, (void *)(long)PAGES);
		work_touch_pages(PAGES);
		pthread_join(t, NULL);
		(void)!write(done[1], "d", 1);
		pause();
		_exit(0);
	}
	/* A child that dies makes our reads see EOF instead of hanging. */
	close(go[0]);
	close(done[1]);
	{
		HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_PROCESS, .pid = child);
		struct hwp_session *s = open_session("page-faults", &o);

		if (s) {
			double faults;

			hwp_session_enable(s);
			(void)!write(go[1], "g", 1);
			(void)!read(done[0], &c, 1);
			hwp_session_disable(s);
			faults = count_of(s, 0);
			CHECK(faults >= 2 * PAGES && faults <= 2 * PAGES + 2 * SLACK,
			      "process %d: %.0f faults, want about %d", (int)child,
			      faults, 2 * PAGES);
			hwp_session_free(s);
		}
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(go[1]);
	close(done[0]);
	{
		HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_PROCESS, .pid = child);
		struct hwp_evlist *evl;
		struct hwp_session *s;

		hwp_evlist_parse("page-faults", NULL, &evl);
		hwp_session_new(evl, &o, &s);
		CHECK_ERR(hwp_session_open(s), -ESRCH);
		CHECK(strstr(hwp_errmsg(), "does not exist"), "%s", hwp_errmsg());
		hwp_session_free(s);
		hwp_evlist_free(evl);
	}
}

/* A CPU that is not online is refused when the session is made. */
static void test_cpu_not_online(void)
{
	HWP_OPTS(hwp_session_opts, nosuch, .scope = HWP_SCOPE_CPUS, .cpus = "4095");
	struct hwp_evlist *evl;
	struct hwp_session *s = NULL;

	hwp_evlist_parse("context-switches", NULL, &evl);
	CHECK_ERR(hwp_session_new(evl, &nosuch, &s), -ENODEV);
	CHECK(s == NULL && strstr(hwp_errmsg(), "not online"), "%s", hwp_errmsg());
	hwp_evlist_free(evl);
}

/* All CPUs, as hwprof stat -a does. */
static void test_cpu_scope(void)
{
	HWP_OPTS(hwp_session_opts, all, .scope = HWP_SCOPE_CPUS);
	HWP_OPTS(hwp_session_opts, cpu0, .scope = HWP_SCOPE_CPUS, .cpus = "0");
	struct hwp_evlist *evl;
	struct hwp_session *s = NULL;
	double cs;
	int err;

	hwp_evlist_parse("context-switches", NULL, &evl);
	hwp_session_new(evl, &all, &s);
	err = hwp_session_open(s);
	if (err == -EACCES || err == -EPERM) {
		CHECK(strstr(hwp_errmsg(), "perf_event_paranoid"), "names the setting");
		t_case_skip("system-wide counting is not allowed here: %s", hwp_errmsg());
		hwp_session_free(s);
		hwp_evlist_free(evl);
		return;
	}
	CHECK(err == 0, "open: %s", hwp_errmsg());
	hwp_session_enable(s);
	pingpong(500);
	hwp_session_disable(s);
	cs = count_of(s, 0);
	CHECK(cs >= 1000, "system-wide context switches %.0f >= 1000", cs);
	hwp_session_free(s);

	CHECK_ERR(hwp_session_new(evl, &cpu0, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	hwp_session_enable(s);
	pingpong(500);	/* pinned to CPU 0 */
	hwp_session_disable(s);
	cs = count_of(s, 0);
	CHECK(cs >= 1000, "CPU 0's context switches %.0f >= 1000", cs);
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* Start @w ("pages 3000"), wait for it, and check that @s's first event,
 * page-faults, counted its faults alone; @c gets page-faults, task-clock. */
static void run_pages_3000(struct hwp_workload *w, struct hwp_session *s,
			   struct hwp_count c[2])
{
	int status = -1;

	CHECK_ERR(hwp_workload_start(w), 0);
	CHECK_ERR(hwp_workload_wait(w, &status), 0);
	CHECK(hwp_workload_exit_code(status) == 0, "exit %d", status);
	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	CHECK(hwp_count_scaled(&c[0]) >= 3000 &&
	      hwp_count_scaled(&c[0]) < 3000 + SLACK,
	      "workload faults %.0f", hwp_count_scaled(&c[0]));
}

/* The workload handshake: counting starts at exec, and covers exactly it. */
static void test_workload(void)
{
	char *argv[] = { getenv("WORKLOAD"), "pages", "3000", NULL };
	char *bad[] = { "/nonexistent/program", NULL };
	char notexec_path[] = "/tmp/hwprof-test-notexec.XXXXXX";
	char *notexec[] = { notexec_path, NULL };
	struct hwp_workload *w = NULL;
	int status = -1;

	if (!argv[0]) {
		t_case_skip("$WORKLOAD is not set (meson's test environment sets it)");
		return;
	}
	CHECK_ERR(hwp_workload_new(argv, NULL, &w), 0);
	if (w) {
		HWP_OPTS(hwp_session_opts, o, .pid = hwp_workload_pid(w),
			 .enable_on_exec = true);
		struct hwp_session *s = open_session("page-faults,task-clock", &o);
		struct hwp_count c[2];

		CHECK(count_of(s, 0) == 0 || isnan(count_of(s, 0)),
		      "nothing before exec");
		run_pages_3000(w, s, c);
		CHECK(hwp_workload_elapsed(w) > 0 && hwp_workload_elapsed(w) < 10,
		      "elapsed %g", hwp_workload_elapsed(w));
		hwp_session_free(s);
		hwp_workload_free(w);
	}
	CHECK_ERR(hwp_workload_new(bad, NULL, &w), -ENOENT);
	close(mkstemp(notexec_path));	/* mode 0600: not executable */
	w = NULL;
	CHECK_ERR(hwp_workload_new(notexec, NULL, &w), -EACCES);
	CHECK(strstr(hwp_errmsg(), "not executable"), "%s", hwp_errmsg());
	hwp_workload_free(w);
	unlink(notexec_path);
	{
		char *kill9[] = { getenv("WORKLOAD"), "kill", "9", NULL };

		CHECK_ERR(hwp_workload_new(kill9, NULL, &w), 0);
		hwp_workload_start(w);
		hwp_workload_wait(w, &status);
		CHECK(hwp_workload_exit_code(status) == 128 + 9, "killed by 9: %d",
		      hwp_workload_exit_code(status));
		hwp_workload_free(w);
	}
	{
		/* Freed before it was started: the child goes away quietly. */
		CHECK_ERR(hwp_workload_new(argv, NULL, &w), 0);
		hwp_workload_free(w);
	}
}

/* spawn_at_start: counters on us, inherited by the command, count it
 * alone: our own faults between the open and the start are not in them. */
static void test_workload_spawned(void)
{
	char *argv[] = { getenv("WORKLOAD"), "pages", "3000", NULL };
	char gone_path[] = "/tmp/hwprof-test-gone.XXXXXX";
	char *gone[] = { gone_path, NULL };
	HWP_OPTS(hwp_workload_opts, wo, .spawn_at_start = true);
	struct hwp_workload *w = NULL;
	int status = -1, fd;

	if (!argv[0]) {
		t_case_skip("$WORKLOAD is not set (meson's test environment sets it)");
		return;
	}
	CHECK_ERR(hwp_workload_new(argv, &wo, &w), 0);
	if (w) {
		HWP_OPTS(hwp_session_opts, o, .pid = hwp_workload_pid(w),
			 .enable_on_exec = true);
		struct hwp_session *s;
		struct hwp_count c[2];

		CHECK(hwp_workload_pid(w) == 0, "no process before the start: %d",
		      (int)hwp_workload_pid(w));
		s = open_session("page-faults,task-clock", &o);
		work_touch_pages(2000);	/* ours: not counted */
		run_pages_3000(w, s, c);
		CHECK(hwp_workload_pid(w) > 0, "pid %d", (int)hwp_workload_pid(w));
		CHECK(c[1].value > 0, "task-clock %llu", (unsigned long long)c[1].value);
		hwp_session_free(s);
		hwp_workload_free(w);
	}
	/* Found at the new, gone at the start: the exec's error, status 127. */
	fd = mkstemp(gone_path);
	CHECK(fd >= 0 && !fchmod(fd, 0700), "%s", gone_path);
	close(fd);
	w = NULL;
	CHECK_ERR(hwp_workload_new(gone, &wo, &w), 0);
	unlink(gone_path);
	if (w) {
		CHECK_ERR(hwp_workload_start(w), -HWP_ERR_EXEC);
		CHECK(strstr(hwp_errmsg(), "No such file"), "%s", hwp_errmsg());
		CHECK_ERR(hwp_workload_wait(w, &status), 0);
		CHECK(hwp_workload_exit_code(status) == 127, "exit %d",
		      hwp_workload_exit_code(status));
	}
	hwp_workload_free(w);
	/* Freed before it was started: there is no process to reap. */
	CHECK_ERR(hwp_workload_new(argv, &wo, &w), 0);
	hwp_workload_free(w);
}

/* Holds: the software events that switch something on in the kernel,
 * each once, open and disabled on us; the sessions under a hold count
 * what they count without one. */
static void test_hold(void)
{
	char *argv[] = { getenv("WORKLOAD"), "pages", "3000", NULL };
	struct hwp_evlist *evl = NULL, *none = NULL, *tp = NULL;
	struct hwpriv_hold *h = NULL;
	int fds = t_count_fds();

	CHECK_ERR(hwpriv_hold_new(NULL, &h), -EINVAL);
	CHECK(!h && hwpriv_hold_nr_events(NULL) == 0, "nothing held");
	hwpriv_hold_free(NULL);
	CHECK_ERR(hwp_evlist_parse("page-faults,task-clock,cs,{cpu-migrations,cycles},"
				   "page-faults:u", NULL, &evl), 0);
	CHECK_ERR(hwpriv_hold_new(evl, &h), 0);
	/* page-faults (once, whatever its modifiers), cs, cpu-migrations; not
	 * task-clock, which switches nothing, nor cycles. */
	CHECK(hwpriv_hold_nr_events(h) == 3, "held %zu", hwpriv_hold_nr_events(h));
	CHECK(t_count_fds() == fds + 3, "fds %d, were %d", t_count_fds(), fds);
	for (int run = 0; run < 2 && argv[0]; run++) {
		HWP_OPTS(hwp_workload_opts, wo, .spawn_at_start = true);
		struct hwp_workload *w = NULL;
		struct hwp_count c[2];

		CHECK_ERR(hwp_workload_new(argv, &wo, &w), 0);
		if (w) {
			HWP_OPTS(hwp_session_opts, o, .enable_on_exec = true);
			struct hwp_session *s;

			s = open_session("page-faults,task-clock", &o);
			work_touch_pages(1000);	/* ours: not counted, held or not */
			if (s)
				run_pages_3000(w, s, c);
			hwp_session_free(s);
		}
		hwp_workload_free(w);
	}
	hwpriv_hold_free(h);
	CHECK(t_count_fds() == fds, "fds %d after the free, were %d", t_count_fds(), fds);
	CHECK_ERR(hwp_evlist_parse("task-clock,cpu-clock", NULL, &none), 0);
	h = NULL;
	CHECK_ERR(hwpriv_hold_new(none, &h), 0);
	CHECK(h && hwpriv_hold_nr_events(h) == 0, "held %zu of the clocks",
	      hwpriv_hold_nr_events(h));
	hwpriv_hold_free(h);
	/* A tracepoint, where tracefs has one. */
	if (!hwp_evlist_parse("sched:sched_process_exec", NULL, &tp)) {
		h = NULL;
		CHECK_ERR(hwpriv_hold_new(tp, &h), 0);
		CHECK(hwpriv_hold_nr_events(h) == 1, "held %zu tracepoints",
		      hwpriv_hold_nr_events(h));
		hwpriv_hold_free(h);
	}
	hwp_evlist_free(tp);
	hwp_evlist_free(none);
	hwp_evlist_free(evl);
}

/* The mask of a "SigIgn:" or "SigCgt:" line of @status, or ~0 without it. */
static unsigned long long sig_line(const char *status, const char *key)
{
	const char *p = strstr(status, key);

	return p ? strtoull(p + strlen(key), NULL, 16) : ~0ULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A spawned command starts with our ignored signals still ignored (nohup's
 * way) and none of our handlers; the clone resets them before its exec. */
static void test_workload_spawned_signals(void)
{
	char *argv[] = { "cat", "/proc/self/status", NULL };
	HWP_OPTS(hwp_workload_opts, wo, .spawn_at_start = true,
		 .capture = HWP_CAPTURE_STDOUT);
	struct sigaction usr1 = { .sa_handler = on_usr1 }, old1;
	struct hwp_workload *w = NULL;
	char out[8192];
	size_t len = 0;
	ssize_t n;
	int status = -1;

	sigaction(SIGUSR1, &usr1, &old1);
	signal(SIGUSR2, SIG_IGN);
	CHECK_ERR(hwp_workload_new(argv, &wo, &w), 0);
	if (w) {
		struct pollfd pfd = { .fd = hwp_workload_output_fd(w), .events = POLLIN };

		CHECK_ERR(hwp_workload_start(w), 0);
		while (len + 1 < sizeof(out) && poll(&pfd, 1, 10000) > 0 &&
		       (n = read(pfd.fd, out + len, sizeof(out) - 1 - len)) > 0)
			len += (size_t)n;
		out[len] = '\0';
		CHECK_ERR(hwp_workload_wait(w, &status), 0);
		CHECK(hwp_workload_exit_code(status) == 0, "exit %d",
		      hwp_workload_exit_code(status));
		CHECK(sig_line(out, "SigIgn:\t") & 1ULL << (SIGUSR2 - 1),
		      "SIGUSR2 still ignored: %s", out);
		CHECK(!(sig_line(out, "SigIgn:\t") & 1ULL << (SIGUSR1 - 1)),
		      "SIGUSR1 not ignored: %s", out);
		CHECK(!(sig_line(out, "SigCgt:\t") & 1ULL << (SIGUSR1 - 1)),
		      "SIGUSR1 has no handler: %s", out);
	}
	hwp_workload_free(w);
	sigaction(SIGUSR1, &old1, NULL);
	signal(SIGUSR2, SIG_DFL);
}

/* Hardware events on a machine without a PMU: marked, explained, and the
 * rest of the list still counts. */
static void test_unsupported(void)
{
	struct hwp_session *s = open_session("{cycles,page-faults},instructions,context-switches",
					     NULL);
	const char *why = NULL;

	if (!s)
		return;
	if (have_hw_pmu()) {
		t_case_skip("this machine has a hardware PMU: tests/kernel/test-hw counts it");
		hwp_session_free(s);
		return;
	}
	CHECK(hwp_session_event_status(s, 0, &why) == HWP_EVENT_NOT_SUPPORTED, "cycles");
	CHECK(why && strstr(why, "no hardware PMU"), "reason: %s", why ? why : "(none)");
	CHECK(hwp_session_event_status(s, 1, NULL) == HWP_EVENT_COUNTING,
	      "page-faults leads its group when cycles cannot");
	CHECK(hwp_session_event_status(s, 2, NULL) == HWP_EVENT_NOT_SUPPORTED,
	      "instructions");
	CHECK(hwp_session_event_status(s, 3, NULL) == HWP_EVENT_COUNTING,
	      "context-switches");
	hwp_session_enable(s);
	work_touch_pages(1000);
	hwp_session_disable(s);
	{
		struct hwp_count c[4];

		CHECK_ERR(hwp_session_read(s, c, 4), 0);
		CHECK(c[0].value == 0 && isnan(hwp_count_scaled(&c[0])),
		      "no fake 0 for cycles");
		CHECK(hwp_count_scaled(&c[1]) >= 1000, "page-faults %.0f",
		      hwp_count_scaled(&c[1]));
	}
	hwp_session_free(s);

	/* Nothing at all countable: an error that lists why, per event. */
	{
		struct hwp_evlist *evl;
		struct hwp_session *t;

		hwp_evlist_parse("cycles,instructions", NULL, &evl);
		hwp_session_new(evl, NULL, &t);
		CHECK_ERR(hwp_session_open(t), -HWP_ERR_NOTHING_COUNTED);
		CHECK(strstr(hwp_errmsg(), "cycles: not supported") &&
			      strstr(hwp_errmsg(), "instructions: not supported"),
		      "%s", hwp_errmsg());
		hwp_session_free(t);
		hwp_evlist_free(evl);
	}
}

static void test_api_misuse(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c[1];

	hwp_evlist_parse("cs", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_read(s, c, 1), -EBADF);
	CHECK_ERR(hwp_session_enable(s), -EBADF);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK_ERR(hwp_session_read(s, c, 0), -EINVAL);
	CHECK_ERR(hwp_session_open(s), 0);	/* reopening closes first */
	hwp_session_close(s);
	hwp_session_close(s);
	CHECK_ERR(hwp_session_read(s, c, 1), -EBADF);
	hwp_session_free(s);
	hwp_session_free(NULL);
	{
		HWP_OPTS(hwp_session_opts, o, .cpus = "0");

		CHECK_ERR(hwp_session_new(evl, &o, &s), -EINVAL);
		o.scope = 7;
		o.cpus = NULL;
		CHECK_ERR(hwp_session_new(evl, &o, &s), -EINVAL);
	}
	hwp_evlist_free(evl);
	/* The session keeps its own copy of the list. */
	hwp_evlist_parse("page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK(!strcmp(hwp_evlist_spec(hwp_session_evlist(s)), "page-faults"), "copy");
	hwp_session_free(s);
}

int main(void)
{
	t_init();
	t_run(test_page_faults);
	t_run(test_migrations);
	t_run(test_context_switches_and_threads);
	t_run(test_inheritance);
	t_run(test_reset_after_children);
	t_run(test_process_scope);
	t_run(test_cpu_not_online);
	t_run(test_cpu_scope);
	t_run(test_workload);
	t_run(test_workload_spawned);
	t_run(test_hold);
	t_run(test_workload_spawned_signals);
	t_run(test_unsupported);
	t_run(test_api_misuse);
	return t_done();
}
