// SPDX-License-Identifier: MIT
/* hwp_record_rotate() against the real kernel: a thread samples its own
 * cpu-clock every millisecond into one file, then another; the two files
 * read on their own, and together they hold every sample the kernel took:
 * as many as a counting session of the same clock says periods went by. */
#include "core/core.h"
#include "harness.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define PERIOD_NS 1000000ULL

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void spin(double seconds)
{
	double end = thread_cpu() + seconds;
	volatile unsigned long x = 0;

	while (thread_cpu() < end)
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i;
}

static uint64_t file_samples(const char *path)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct hwp_profile *p = NULL;

	CHECK_ERR(hwp_profile_load(path, NULL, &p), 0);
	if (!p)
		return 0;
	hwp_profile_info(p, &in);
	CHECK(in.lost == 0, "%s: lost %llu", path, (unsigned long long)in.lost);
	hwp_profile_free(p);
	return in.samples;
}

static void test_rotate_loses_nothing(void)
{
	HWP_OPTS(hwp_record_opts, o, .period = PERIOD_NS, .no_inherit = true);
	HWP_OPTS(hwp_session_opts, so, .no_inherit = true);
	struct hwp_record_info st = { .sz = sizeof(st) };
	char dir[] = "/tmp/hwprof-rotate-XXXXXX", one[64], two[64];
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	struct hwp_record *r = NULL;
	struct hwp_count c = { 0 };
	uint64_t n1, n2;

	if (!mkdtemp(dir))
		return;
	snprintf(one, sizeof(one), "%s/1.data", dir);
	snprintf(two, sizeof(two), "%s/2.data", dir);
	o.output = one;
	CHECK_ERR(hwp_evlist_parse("cpu-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &so, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK_ERR(hwp_record_new(evl, &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_rotate(NULL, two), -EBADF);
	hwp_session_enable(s);
	CHECK_ERR(hwp_record_enable(r), 0);
	spin(0.3);
	CHECK_ERR(hwp_record_rotate(r, two), 0);
	CHECK(access(one, F_OK) == 0, "the first file is in place at the rotation");
	spin(0.3);
	CHECK_ERR(hwp_record_disable(r), 0);
	hwp_session_disable(s);
	CHECK_ERR(hwp_session_read(s, &c, 1), 0);
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	n1 = file_samples(one);
	n2 = file_samples(two);
	CHECK(n2 == st.samples,
	      "the second file's %llu samples, as the recording counts %llu",
	      (unsigned long long)n2, (unsigned long long)st.samples);
	/* The session was enabled first and disabled last: its periods are
	 * the samples, give or take the one under way at each end. */
	t_note("%llu + %llu samples, %llu periods", (unsigned long long)n1,
	       (unsigned long long)n2, (unsigned long long)(c.value / PERIOD_NS));
	CHECK(n1 >= 200 && n2 >= 200 && n1 + n2 <= c.value / PERIOD_NS + 1 &&
	      n1 + n2 + 3 >= c.value / PERIOD_NS,
	      "%llu + %llu samples for %llu periods of cpu-clock", (unsigned long long)n1,
	      (unsigned long long)n2, (unsigned long long)(c.value / PERIOD_NS));
	CHECK_ERR(hwp_record_rotate(r, one), -EBADF);
	hwp_record_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	unlink(one);
	unlink(two);
	rmdir(dir);
}

int main(void)
{
	t_init();
	t_run(test_rotate_loses_nothing);
	return t_done();
}
