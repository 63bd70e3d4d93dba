// SPDX-License-Identifier: MIT
/* A session read from a thread other than the one it counts. The counters
 * of a thread are on the PMU of the CPU it runs on, and its mmap'ed pages
 * say which counter while it runs: a user-space read (mrs) from another
 * thread, on another CPU, would read that CPU's counter, or trap where the
 * kernel has not let user space at it. So the library reads with read()
 * there, and the kernel fetches the count from the CPU that has it.
 *
 * Two CPUs, unlike the other PMU tests: on one, the counted thread is
 * switched out whenever the other runs, its page then names no counter,
 * and any read falls back to read() by itself. Under -icount the two CPUs
 * share one instruction count, so counts are not exact here: the checks
 * are which path read, and that each value lies between the counted
 * thread's own reads before and after. */
#include "count/count.h"
#include "pmu.h"
#include "work.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>

#define READS 100

struct reader {
	struct hwp_session *s;
	atomic_int spinning, done;
	uint64_t values[READS];
	uint64_t rdpmc_reads;	/* user-space reads during the second thread's */
	int errors, cpu;
};

/* A counter instruction that this CPU's PMU does not let user space run:
 * say so, rather than die of it unexplained. */
static void on_sigill(int sig)
{
	static const char msg[] = "Bail out! SIGILL: a user-space counter read ran on a CPU that does not count this session (a read from another thread must use read())\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(2);
	_exit(1);
}

/* The second thread, on CPU 1: READS reads while the counted thread spins
 * on CPU 0, its counters on that CPU's PMU. */
static void *read_from_elsewhere(void *arg)
{
	struct reader *rd = arg;
	uint64_t before;

	if (work_pin(1))
		rd->errors++;
	rd->cpu = sched_getcpu();
	while (!atomic_load(&rd->spinning))
		;
	before = session_rdpmc_reads(rd->s);
	for (int i = 0; i < READS; i++) {
		struct hwp_count c[2];

		if (hwp_session_read(rd->s, c, 2))
			rd->errors++;
		rd->values[i] = c[0].value;
	}
	rd->rdpmc_reads = session_rdpmc_reads(rd->s) - before;
	atomic_store(&rd->done, 1);
	return NULL;
}

static uint64_t own_read(struct hwp_session *s)
{
	struct hwp_count c[2] = { 0 };

	CHECK_ERR(hwp_session_read(s, c, 2), 0);
	return c[0].value;
}

static void test_read_from_another_thread(void)
{
	HWP_OPTS(hwp_session_opts, o, .no_inherit = true);
	struct reader rd = { 0 };
	struct hwp_evlist *evl = NULL;
	uint64_t first, last, own_before;
	volatile uint64_t spins = 0;
	pthread_t t;
	bool ordered = true;

	CHECK_ERR(work_pin(0), 0);
	signal(SIGILL, on_sigill);
	CHECK_ERR(hwp_evlist_parse("{instructions:u,cycles:u}", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &o, &rd.s), 0);
	hwp_evlist_free(evl);
	if (!rd.s || hwp_session_open(rd.s)) {
		CHECK(0, "open: %s", hwp_errmsg());
		goto out;
	}
	CHECK_ERR(hwp_session_enable(rd.s), 0);
	CHECK(hwp_session_rdpmc(rd.s), "user-space reads, with perf_user_access=1");
	own_before = session_rdpmc_reads(rd.s);
	first = own_read(rd.s);
	CHECK(session_rdpmc_reads(rd.s) - own_before == 1,
	      "the counted thread itself reads in user space");
	CHECK_ERR(pthread_create(&t, NULL, read_from_elsewhere, &rd), 0);
	atomic_store(&rd.spinning, 1);
	while (!atomic_load(&rd.done))
		spins++;
	pthread_join(t, NULL);
	last = own_read(rd.s);
	CHECK(rd.errors == 0 && rd.cpu == 1, "the second thread: %d errors, on CPU %d",
	      rd.errors, rd.cpu);
	CHECK(rd.rdpmc_reads == 0,
	      "another thread's reads went through read(): %llu of %d in user space",
	      (unsigned long long)rd.rdpmc_reads, READS);
	for (int i = 0; i < READS; i++)
		ordered &= rd.values[i] >= first && rd.values[i] <= last &&
			   (!i || rd.values[i] >= rd.values[i - 1]);
	CHECK(ordered && rd.values[0] < rd.values[READS - 1],
	      "the counted thread's count, rising between its own reads: %llu, then %llu ... %llu, then %llu",
	      (unsigned long long)first, (unsigned long long)rd.values[0],
	      (unsigned long long)rd.values[READS - 1], (unsigned long long)last);
	t_note("%llu spins of the counted thread while the other read it",
	       (unsigned long long)spins);
out:
	hwp_session_free(rd.s);
}

int main(void)
{
	t_init();
	pmu_require_exact();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		t_skip("one CPU: the counted thread is never on its counters while another reads");
	t_run(test_read_from_another_thread);
	return t_done();
}
