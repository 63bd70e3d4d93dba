// SPDX-License-Identifier: MIT
/* A benchmark that measures itself run after run and saves what it counted
 * as 'hwprof stat -r N --json -o FILE' saves a command's runs, so that
 * 'hwprof compare' (or hwp_compare_from_results()) compares two such files:
 *
 *	save_result 1000 5 a.json && save_result 3000 5 b.json
 *	hwprof compare a.json b.json
 */
#include <hwprof/hwprof.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define NR_EVENTS 2

static int fail(const char *what, int err)
{
	fprintf(stderr, "save_result: %s: %s\n", what,
		*hwp_errmsg() ? hwp_errmsg() : hwp_strerror(err));
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_seconds(const struct timeval *from, const struct timeval *to)
{
	return (to->tv_sec - from->tv_sec) + (to->tv_usec - from->tv_usec) / 1e6;
}

/* One run: touch @pages fresh pages with the counters on, and add the run
 * (its reading, wall time and CPU time) to @r. */
static int run_once(struct hwp_session *s, struct hwp_result *r, long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	struct hwp_count counts[NR_EVENTS];
	struct rusage ru0, ru1;
	double t0, t1;
	char *mem;
	int err;

	mem = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return -ENOMEM;
	madvise(mem, pages * page, MADV_NOHUGEPAGE);	/* one fault per page */
	getrusage(RUSAGE_SELF, &ru0);
	t0 = now();
	err = hwp_session_reset(s) ?: hwp_session_enable(s);
	for (long i = 0; !err && i < pages; i++)	/* the work we measure */
		mem[i * page] = 1;
	err = err ?: hwp_session_disable(s);
	t1 = now();
	getrusage(RUSAGE_SELF, &ru1);
	munmap(mem, pages * page);
	err = err ?: hwp_session_read(s, counts, NR_EVENTS);
	return err ?: hwp_result_add_run(r, s, counts, t1 - t0) ?:
	       hwp_result_set_run_times(r, cpu_seconds(&ru0.ru_utime, &ru1.ru_utime),
					cpu_seconds(&ru0.ru_stime, &ru1.ru_stime));
}

int main(int argc, char **argv)
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	struct hwp_result *r = NULL;
	long pages = argc > 1 ? atol(argv[1]) : 1000;
	int runs = argc > 2 ? atoi(argv[2]) : 5, err;
	FILE *f;

	if (argc != 4 || pages < 1 || runs < 1) {
		fprintf(stderr, "usage: save_result PAGES RUNS FILE.json\n");
		return 2;
	}
	err = hwp_evlist_parse("page-faults,task-clock", NULL, &evl) ?:
	      hwp_session_new(evl, NULL, &s) ?: hwp_session_open(s);
	if (err)
		return fail("opening the counters", err);
	err = hwp_result_new(&r) ?: hwp_result_set_command(r, argv);
	for (int i = 0; !err && i < runs; i++)
		err = run_once(s, r, pages);
	if (err)
		return fail("measuring", err);
	hwp_result_set_exit_status(r, 0);
	f = fopen(argv[3], "w");
	if (!f)
		return fail(argv[3], -errno);
	err = hwp_result_write(r, f, &json);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		return fail(argv[3], err);
	hwp_result_write(r, stdout, NULL);	/* and the report, as text */
	hwp_result_free(r);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	return 0;
}
