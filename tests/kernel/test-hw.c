// SPDX-License-Identifier: MIT
/* Hardware counting: runs where a hardware PMU exists, and is skipped, with
 * the reason, where none does. Nothing here passes without counting. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "harness.h"

#define LOOPS 10000000L

static void spin(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

static double instructions(struct hwp_session *s)
{
	struct hwp_count c[2];

	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	return hwp_count_scaled(&c[0]);
}

/* The rdpmc path and the read() path agree: read in turns while counting,
 * each value lies between its neighbours of the other path. */
static void test_rdpmc(void)
{
	HWP_OPTS(hwp_session_opts, fast_o, .no_inherit = true);
	HWP_OPTS(hwp_session_opts, slow_o, .no_inherit = true, .no_rdpmc = true);
	struct hwp_evlist *evl;
	struct hwp_session *fast, *slow;
	double f1, s1, f2, s2;
	struct strbuf why = STRBUF_INIT;
	bool allowed = rdpmc_allowed(&why);

	CHECK_ERR(hwp_evlist_parse("{instructions,cycles}", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &fast_o, &fast), 0);
	CHECK_ERR(hwp_session_new(evl, &slow_o, &slow), 0);
	CHECK_ERR(hwp_session_open(fast), 0);
	CHECK_ERR(hwp_session_open(slow), 0);
	if (!allowed) {
		/* Then no session may claim user-space reads. */
		CHECK(!hwp_session_rdpmc(fast) && !hwp_session_rdpmc(slow), "%s",
		      strbuf_str(&why));
		t_case_skip("user-space reads are not allowed here: %s",
			    strbuf_str(&why));
		goto out;
	}
	CHECK(hwp_session_rdpmc(fast) && !hwp_session_rdpmc(slow),
	      "rdpmc only where asked");
	hwp_session_enable(fast);
	hwp_session_enable(slow);
	spin(LOOPS / 10);
	f1 = instructions(fast);
	s1 = instructions(slow);
	spin(LOOPS / 10);
	f2 = instructions(fast);
	s2 = instructions(slow);
	CHECK(session_rdpmc_reads(fast) >= 1, "rdpmc was used: %llu group reads",
	      (unsigned long long)session_rdpmc_reads(fast));
	/* The slow session started counting after the fast one. */
	CHECK(s1 <= f1 + 1e5 && f2 <= s2 + 2e5 + (f2 - f1),
	      "f1 %.0f s1 %.0f f2 %.0f s2 %.0f", f1, s1, f2, s2);
	CHECK(fabs((f2 - f1) - (s2 - s1)) < 0.02 * (s2 - s1) + 1e4,
	      "the same work counts the same: rdpmc %.0f, read() %.0f", f2 - f1, s2 - s1);
out:
	strbuf_release(&why);
	hwp_session_free(fast);
	hwp_session_free(slow);
	hwp_evlist_free(evl);
}

/* A list with a group and a lone event: cycles, instructions and IPC; then
 * branches, which not every PMU counts. */
static void test_counts(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c[3];
	struct hwp_metric *ipc;
	const char *reason;
	double v;

	t_case("cycles, instructions and IPC");
	CHECK_ERR(hwp_evlist_parse("{cycles,instructions},branches", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, NULL, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	hwp_session_enable(s);
	spin(LOOPS);
	hwp_session_disable(s);
	CHECK_ERR(hwp_session_read(s, c, 3), 0);
	/* Each iteration of the volatile loop retires several instructions. */
	CHECK(hwp_count_scaled(&c[1]) >= 3.0 * LOOPS, "instructions %.0f for %ld loops",
	      hwp_count_scaled(&c[1]), LOOPS);
	CHECK(hwp_count_scaled(&c[0]) > LOOPS / 2.0, "cycles %.0f",
	      hwp_count_scaled(&c[0]));
	CHECK_ERR(hwp_metric_parse("ipc=instructions / cycles", &ipc), 0);
	CHECK_ERR(hwp_session_metric(s, c, 1.0, ipc, &v), 0);
	CHECK(v > 0.1 && v < 10, "IPC %.3f", v);
	hwp_metric_free(ipc);

	/* Branches are not counted everywhere (QEMU's ARMv8 PMU does not):
	 * then the event says why and reads as not counted, and the rest of
	 * the list counts all the same (the case above). */
	if (t_case("branches")) {
		if (hwp_session_event_status(s, 2, &reason) == HWP_EVENT_NOT_SUPPORTED) {
			CHECK(reason && *reason, "branches: not supported, and a reason");
			CHECK(isnan(hwp_count_scaled(&c[2])),
			      "branches not counted, not 0: %.0f",
			      hwp_count_scaled(&c[2]));
			t_case_skip("this PMU does not count branches: %s",
				    reason ? reason : "");
		} else {
			CHECK(hwp_count_scaled(&c[2]) >= LOOPS, "branches %.0f",
			      hwp_count_scaled(&c[2]));
		}
	}
	t_case_end();
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

/* More hardware groups than counters: multiplexed, scaled, and said so. */
static void test_multiplexing(void)
{
	struct hwp_evlist *evl;
	struct hwp_session *s;
	struct hwp_count c[16];
	bool multiplexed = false;

	CHECK_ERR(hwp_evlist_parse("{cycles,instructions},{cycles,branches},{cycles,branch-misses},"
				   "{cycles,cache-misses},{cycles,cache-references},{cycles,instructions},"
				   "{cycles,branches},{cycles,instructions}",
				   NULL, &evl),
		  0);
	CHECK_ERR(hwp_session_new(evl, NULL, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	hwp_session_enable(s);
	spin(20 * LOOPS);
	hwp_session_disable(s);
	CHECK_ERR(hwp_session_read(s, c, 16), 0);
	for (int i = 0; i < 16; i++) {
		double pct = hwp_count_percent_running(&c[i]);

		if (pct < 99.9 && c[i].time_running) {
			multiplexed = true;
			CHECK(hwp_count_scaled(&c[i]) > (double)c[i].value,
			      "event %d scaled up from %llu", i,
			      (unsigned long long)c[i].value);
		}
	}
	CHECK(multiplexed, "16 hardware events on one PMU must multiplex");
	hwp_session_free(s);
	hwp_evlist_free(evl);
}

int main(void)
{
	t_init();
	if (!have_hw_pmu())
		t_skip("this machine has no hardware PMU (a VM without PMU passthrough): "
		       "cycles and instructions cannot be counted here");
	if (hwp_event_probe("instructions"))
		t_skip("the hardware PMU refuses instructions: %s", hwp_errmsg());
	test_counts();
	t_run(test_multiplexing);
	t_run(test_rdpmc);
	return t_done();
}
