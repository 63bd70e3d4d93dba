// SPDX-License-Identifier: MIT
/* Samples the kernel drops, counted two ways. A ring of one page, read
 * after every 20 ms of CPU time while cpu-clock samples at 10 kHz, fills
 * between reads (200 samples of ~56 bytes, 4 KiB of ring): the kernel
 * drops the rest and, at its first sample after each read, writes a
 * PERF_RECORD_LOST { id, lost }. The recording's count of those is their
 * sum as the file holds them; the kernel's own count of every drop
 * (PERF_FORMAT_LOST, which the recording writes as LOST_SAMPLES at its
 * end) is no smaller, as it also has the drops after the last read; the
 * recording reports the larger of the two. */
#include "core/core.h"
#include "sample/sample.h"
#include "harness.h"

#include <time.h>

#define READS 15

void spin_cpu(double seconds);

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) void spin_cpu(double seconds)
{
	double end = cpu_seconds() + seconds;
	volatile unsigned long x = 0;

	while (cpu_seconds() < end)
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i;
}

struct lost_in_file {
	uint64_t records, lost, lost_samples;
};

static int note_lost(const struct pd_record *rec, void *ctx)
{
	struct lost_in_file *l = ctx;
	const uint64_t *body = (const uint64_t *)(rec->h + 1);
	size_t words = (rec->h->size - sizeof(*rec->h)) / 8;

	if (rec->h->type == PERF_RECORD_LOST && words >= 2) {
		l->records++;
		l->lost += body[1];	/* after the id */
	} else if (rec->h->type == PERF_RECORD_LOST_SAMPLES && words >= 1) {
		l->lost_samples += body[0];
	}
	return 0;
}

static void test_lost_records(void)
{
	char path[] = "/tmp/hwprof-test-lost.XXXXXX";
	int fd = mkstemp(path);
	HWP_OPTS(hwp_record_opts, o, .period = 100000, .mmap_pages = 1, .output = path);
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct lost_in_file l = { 0 };
	struct hwp_evlist *evl = NULL;
	struct hwp_record *r = NULL;
	struct pd_file *f = NULL;
	uint64_t counted = 0;

	close(fd);
	CHECK_ERR(hwp_evlist_parse("cpu-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_record_new(evl, &o, &r), 0);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	for (int i = 0; i < READS; i++) {
		spin_cpu(0.02);
		CHECK_ERR(hwp_record_read(r), 0);
	}
	CHECK_ERR(hwp_record_finish(r), 0);
	hwp_record_info(r, &st);
	counted = record_lost_records(r);
	hwp_record_free(r);
	CHECK_ERR(pd_open(path, -1, &f), 0);
	if (f)
		CHECK_ERR(pd_foreach(f, note_lost, &l), 0);
	pd_close(f);
	unlink(path);
	CHECK(l.records > 0 && l.lost > 0,
	      "the ring overflowed between reads: %llu LOST records, of %llu samples",
	      (unsigned long long)l.records, (unsigned long long)l.lost);
	CHECK(counted == l.lost,
	      "the recording counted %llu lost in its LOST records, which say %llu",
	      (unsigned long long)counted, (unsigned long long)l.lost);
	/* Before Linux 6.0 the kernel counted no drops (PERF_FORMAT_LOST). */
	if (l.lost_samples)
		CHECK(l.lost <= l.lost_samples,
		      "the LOST records' %llu, no more than the kernel's count %llu",
		      (unsigned long long)l.lost, (unsigned long long)l.lost_samples);
	CHECK(st.lost == (l.lost > l.lost_samples ? l.lost : l.lost_samples),
	      "the recording reports %llu lost: its records say %llu, the kernel %llu",
	      (unsigned long long)st.lost, (unsigned long long)l.lost,
	      (unsigned long long)l.lost_samples);
	t_note("%llu LOST records, %llu samples; the kernel counted %llu; %llu kept",
	       (unsigned long long)l.records, (unsigned long long)l.lost,
	       (unsigned long long)l.lost_samples, (unsigned long long)st.samples);
}

int main(void)
{
	t_init();
	t_run(test_lost_records);
	return t_done();
}
