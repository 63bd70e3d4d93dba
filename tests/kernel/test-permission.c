// SPDX-License-Identifier: MIT
/* Permission and resource errors, reached through tests/shim (LD_PRELOAD)
 * since the kernel will not refuse on demand. The shim reads HWPROF_SHIM
 * at each call, so one run goes through every mode. */
#include "core/core.h"
#include "event/event.h"
#include "harness.h"

#include <sys/resource.h>

static void mode_eacces_kernel(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	const char *why;
	struct hwp_count c[2];

	/* perf_event_paranoid=2: the kernel refuses kernel counting, the
	 * library falls back to user space and says so. */
	hwp_evlist_parse("page-faults,context-switches:u", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK(hwp_session_event_status(s, 0, &why) == HWP_EVENT_USER_ONLY, "fallback");
	CHECK(why && strstr(why, "user space only") && strstr(why, "perf_event_paranoid"),
	      "%s", why ? why : "(none)");
	CHECK(hwp_session_event_status(s, 1, &why) == HWP_EVENT_COUNTING && !why,
	      ":u asked for user space; nothing to report");
	hwp_session_enable(s);
	hwp_session_disable(s);
	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	hwp_session_free(s);
	hwp_evlist_free(evl);

	/* System-wide counting has no user-space fallback. */
	{
		HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_CPUS);

		hwp_evlist_parse("page-faults", NULL, &evl);
		hwp_session_new(evl, &o, &s);
		CHECK_ERR(hwp_session_open(s), -EACCES);
		CHECK(strstr(hwp_errmsg(), "perf_event_paranoid") &&
			      strstr(hwp_errmsg(), "system-wide") &&
			      strstr(hwp_errmsg(), "CAP_PERFMON"),
		      "%s", hwp_errmsg());
		hwp_session_free(s);
		hwp_evlist_free(evl);
	}
}

/* A recording of the calling thread, in memory: its open's result. */
static int record_open(const char *events, struct hwp_record **out)
{
	HWP_OPTS(hwp_record_opts, o, .period = 1000);
	struct hwp_evlist *evl = NULL;
	int err = hwp_evlist_parse(events, NULL, &evl) ?: hwp_record_new(evl, &o, out);

	hwp_evlist_free(evl);
	return err ? err : hwp_record_open(*out);
}

/* The kernel refuses kernel counting: an event that asks for the kernel
 * alone cannot fall back to user space (it would count nothing and show a
 * fake 0): it is not supported, with the paranoid explanation. Counting,
 * recording and probing all agree. */
static void mode_eacces_kernel_only(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_record *r = NULL;
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_count c[2];
	const char *why;

	hwp_evlist_parse("page-faults:k,page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK(hwp_session_event_status(s, 0, &why) == HWP_EVENT_NOT_SUPPORTED,
	      "page-faults:k cannot count user space instead");
	CHECK(why && strstr(why, "kernel.perf_event_paranoid is"), "%s",
	      why ? why : "(none)");
	CHECK(hwp_session_event_status(s, 1, &why) == HWP_EVENT_USER_ONLY,
	      "page-faults falls back");
	hwp_session_enable(s);
	hwp_session_disable(s);
	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	CHECK(isnan(hwp_count_scaled(&c[0])), "page-faults:k is not counted, not 0: %g",
	      hwp_count_scaled(&c[0]));
	hwp_session_free(s);
	hwp_evlist_free(evl);

	CHECK_ERR(hwp_event_probe("page-faults:k"), -EACCES);
	CHECK(strstr(hwp_errmsg(), "kernel.perf_event_paranoid is"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_event_probe("page-faults"), 0);

	/* A recording falls back to user space as counting does, and says so. */
	CHECK_ERR(record_open("page-faults", &r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.fallback && strstr(st.fallback, "user space only"), "record: %s",
	      st.fallback ? st.fallback : "(no fallback said)");
	hwp_record_free(r);
	r = NULL;
	CHECK_ERR(record_open("page-faults:k", &r), -EACCES);
	CHECK(strstr(hwp_errmsg(), "kernel.perf_event_paranoid is"), "%s", hwp_errmsg());
	hwp_record_free(r);
}

/* A PMU without precise sampling: :P and :pp step down to what it takes,
 * for counting, recording and probing alike. */
static void mode_precise(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_record *r = NULL;

	hwp_evlist_parse("page-faults:P", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK(hwp_session_event_status(s, 0, NULL) == HWP_EVENT_COUNTING,
	      "counts, less precise");
	hwp_session_free(s);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_event_probe("page-faults:P"), 0);
	CHECK_ERR(record_open("page-faults:pp", &r), 0);
	hwp_record_free(r);
}

/* A kernel before 6.0 knows no PERF_FORMAT_LOST: a recording opens without. */
static void mode_no_lost(void)
{
	struct hwp_record *r = NULL;

	CHECK_ERR(record_open("page-faults,cs", &r), 0);
	hwp_record_free(r);
}

/* Lower the soft open-file limit, so that there is room to raise it, and
 * make the shim refuse the next open with EMFILE once (a mode it has not
 * seen yet). */
static void emfile_once(void)
{
	static int round;
	struct rlimit rl;
	char mode[32];

	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max > 256 ? rl.rlim_max / 2 : rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	snprintf(mode, sizeof(mode), "emfile-once:%d", ++round);
	setenv("HWPROF_SHIM", mode, 1);
}

/* EMFILE with room under the hard limit: the limit is raised once and the
 * open tried again, by counting, recording and probing alike. */
static void mode_emfile_once(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_record *r = NULL;
	struct rlimit rl;

	getrlimit(RLIMIT_NOFILE, &rl);
	CHECK(rl.rlim_max > 256,
	      "the hard open-file limit is %llu: no room to test raising it",
	      (unsigned long long)rl.rlim_max);
	if (rl.rlim_max <= 256)
		return;
	emfile_once();
	hwp_evlist_parse("page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), 0);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	emfile_once();
	CHECK_ERR(hwp_event_probe("page-faults"), 0);
	emfile_once();
	CHECK_ERR(record_open("page-faults", &r), 0);
	hwp_record_free(r);
	getrlimit(RLIMIT_NOFILE, &rl);
	CHECK(rl.rlim_cur == rl.rlim_max,
	      "the soft limit was raised to the hard one: %llu",
	      (unsigned long long)rl.rlim_cur);
}

static void mode_eacces(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;

	hwp_evlist_parse("page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), -EACCES);
	/* Refused even in user space: up to 2 the setting allows that, so it
	 * is not the cause, and lowering it would not help. */
	if (read_paranoid() <= 2)
		CHECK(strstr(hwp_errmsg(), "kernel.perf_event_paranoid is") &&
			      strstr(hwp_errmsg(), "a security policy refuses") &&
			      !strstr(hwp_errmsg(), "sysctl -w"),
		      "names the value, and the cause that is not it: %s", hwp_errmsg());
	else
		CHECK(strstr(hwp_errmsg(), "kernel.perf_event_paranoid is") &&
			      strstr(hwp_errmsg(),
				     "sysctl -w kernel.perf_event_paranoid=1"),
		      "names the value and the fix: %s", hwp_errmsg());
	hwp_session_free(s);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_event_probe("page-faults"), -EACCES);
}

static void mode_emfile(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;

	hwp_evlist_parse("page-faults,cs", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), -EMFILE);
	CHECK(strstr(hwp_errmsg(), "ulimit -n"), "%s", hwp_errmsg());
	hwp_session_free(s);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_event_probe("page-faults"), -EMFILE);
	CHECK(strstr(hwp_errmsg(), "ulimit -n"), "probe: %s", hwp_errmsg());
	{
		struct hwp_record *r = NULL;

		CHECK_ERR(record_open("page-faults", &r), -EMFILE);
		CHECK(strstr(hwp_errmsg(), "ulimit -n"), "record: %s", hwp_errmsg());
		hwp_record_free(r);
	}
}

static void mode_ebusy(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	const char *why;

	hwp_evlist_parse("cycles,page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK(hwp_session_event_status(s, 0, &why) == HWP_EVENT_NOT_SUPPORTED, "busy");
	if (have_hw_pmu())
		CHECK(why && strstr(why, "in use"), "%s", why ? why : "(none)");
	CHECK(hwp_session_event_status(s, 1, NULL) == HWP_EVENT_COUNTING,
	      "the rest counts");
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *mode;	/* the shim's */
		const char *name;	/* the case's */
		void (*fn)(void);
	} cases[] = {
		{ "eacces-kernel", "kernel refused: user space instead",
		  mode_eacces_kernel },
		{ "eacces-kernel", "kernel refused: an event of the kernel alone",
		  mode_eacces_kernel_only },
		{ "eacces", "refused", mode_eacces },
		{ "emfile", "no descriptor left", mode_emfile },
		{ "emfile-once", "a raised descriptor limit", mode_emfile_once },
		{ "ebusy", "counter busy", mode_ebusy },
		{ "precise", "no precise sampling", mode_precise },
		{ "no-lost", "no PERF_FORMAT_LOST", mode_no_lost },
	};
	(void)argc;
	(void)argv;
	if (!getenv("LD_PRELOAD") || !strstr(getenv("LD_PRELOAD"), "perf-shim"))
		t_skip("the perf_event_open shim is not preloaded (run through meson test)");
	t_init();
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		setenv("HWPROF_SHIM", cases[i].mode, 1);
		if (t_case("%s (%s)", cases[i].name, cases[i].mode))
			cases[i].fn();
	}
	unsetenv("HWPROF_SHIM");
	return t_done();
}
