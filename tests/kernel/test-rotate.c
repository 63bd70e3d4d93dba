// SPDX-License-Identifier: MIT
/* hwp_record_rotate() against the real kernel: a thread samples each of
 * its own page faults into one file, then another; the two files read on
 * their own, and together they hold every sample the kernel took: as many
 * as a counting session of the same event counts. Page faults, not
 * cpu-clock: the kernel's cpu-clock timer steps over periods it fires late
 * on a busy machine (one sample for several), a fault is a sample each. */
#include "core/core.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 300
/* Faults of the library's own calls while both count (the rotation's
 * file, its buffers): the samples hold them too. Outside the recording's
 * window, between the session's enable and the recording's, at most: */
#define SLACK 16

/* Touch @n fresh pages: a fault each. */
static void touch_pages(size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, n * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	CHECK(m != MAP_FAILED, "mmap of %zu pages", n);
	if (m == MAP_FAILED)
		return;
	for (size_t i = 0; i < n; i++)
		((volatile char *)m)[i * (size_t)page] = 1;
	munmap(m, n * (size_t)page);
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
	HWP_OPTS(hwp_record_opts, o, .period = 1, .no_inherit = true);
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
	CHECK_ERR(hwp_evlist_parse("page-faults", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &so, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK_ERR(hwp_record_new(evl, &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_rotate(NULL, two), -EBADF);
	hwp_session_enable(s);
	CHECK_ERR(hwp_record_enable(r), 0);
	touch_pages(PAGES);
	CHECK_ERR(hwp_record_rotate(r, two), 0);
	CHECK(access(one, F_OK) == 0, "the first file is in place at the rotation");
	touch_pages(PAGES);
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
	CHECK(st.run_samples == n1 + n2 && st.run_lost == 0,
	      "the run's %llu samples (%llu lost), as the files' %llu + %llu",
	      (unsigned long long)st.run_samples, (unsigned long long)st.run_lost,
	      (unsigned long long)n1, (unsigned long long)n2);
	/* The session was enabled first and disabled last: its count is the
	 * samples and the few faults of the calls outside the recording's
	 * window. */
	t_note("%llu + %llu samples, %llu faults counted", (unsigned long long)n1,
	       (unsigned long long)n2, (unsigned long long)c.value);
	CHECK(n1 >= PAGES && n2 >= PAGES && n1 + n2 <= c.value &&
	      n1 + n2 + SLACK >= c.value,
	      "%llu + %llu samples for %llu page faults counted", (unsigned long long)n1,
	      (unsigned long long)n2, (unsigned long long)c.value);
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
