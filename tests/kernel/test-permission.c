// SPDX-License-Identifier: MIT
/* Permission and resource errors, reached through tests/shim (LD_PRELOAD)
 * since the kernel will not refuse on demand. The shim reads HWPROF_SHIM
 * at each call, so one run goes through every mode. */
#include "hwprof-internal.h"
#include "harness.h"

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
			      strstr(hwp_errmsg(), "system-wide") && strstr(hwp_errmsg(), "CAP_PERFMON"),
		      "%s", hwp_errmsg());
		hwp_session_free(s);
		hwp_evlist_free(evl);
	}
}

static void mode_eacces(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;

	hwp_evlist_parse("page-faults", NULL, &evl);
	hwp_session_new(evl, NULL, &s);
	CHECK_ERR(hwp_session_open(s), -EACCES);
	CHECK(strstr(hwp_errmsg(), "kernel.perf_event_paranoid is") &&
		      strstr(hwp_errmsg(), "sysctl -w kernel.perf_event_paranoid=1"),
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
	if (hwp_have_hw_pmu())
		CHECK(why && strstr(why, "in use"), "%s", why ? why : "(none)");
	CHECK(hwp_session_event_status(s, 1, NULL) == HWP_EVENT_COUNTING, "the rest counts");
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} modes[] = {
		{ "eacces-kernel", mode_eacces_kernel },
		{ "eacces", mode_eacces },
		{ "emfile", mode_emfile },
		{ "ebusy", mode_ebusy },
	};
	(void)argc;
	(void)argv;
	if (!getenv("LD_PRELOAD") || !strstr(getenv("LD_PRELOAD"), "perf-shim"))
		t_skip("the perf_event_open shim is not preloaded (run through meson test)");
	t_init();
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++) {
		setenv("HWPROF_SHIM", modes[i].name, 1);
		printf("mode %s\n", modes[i].name);
		modes[i].fn();
	}
	unsetenv("HWPROF_SHIM");
	return t_done();
}
