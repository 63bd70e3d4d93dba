// SPDX-License-Identifier: MIT
/* Counts per thread of a command (HWP_SCOPE_THREAD, HWP_AGGR_THREAD): the
 * events are opened on every CPU, and a task that exits leaves one
 * PERF_RECORD_READ a CPU, its count on that CPU; its count is their sum.
 * The workload's thread "tmoved" faults in pages on CPU 0, then on CPU 1,
 * and so does its first thread after it: each unit has both CPUs' pages.
 * Page faults are known counts on any machine: a write to a fresh
 * anonymous page (no huge pages) is one fault. */
#include "core/core.h"
#include "harness.h"
#include "work.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define SLACK 100	/* a thread's own faults besides its pages: its stack */

/* Whether the ring @page maps holds a PERF_RECORD_READ. */
static bool ring_has_read(const struct perf_event_mmap_page *page,
			  size_t data_size)
{
	const char *data = (const char *)page + page->data_offset;
	uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);

	for (uint64_t at = 0; at + sizeof(struct perf_event_header) <= head;) {
		const struct perf_event_header *h =
			(const void *)(data + at % data_size);

		if (h->type == PERF_RECORD_READ)
			return true;
		if (!h->size)
			break;
		at += h->size;
	}
	return false;
}

/*
 * Whether this kernel writes a PERF_RECORD_READ when a task that inherited
 * an inherit_stat counter exits, as counts per thread of a command need:
 * 1 or 0, or a negative errno. Debian's 6.1 (the emulated machine's) does
 * not (since the rework of perf_event_exit_event() in Linux 5.13 the task
 * is gone from the context before the record would be written); 6.18 does.
 * The child exits on CPU 1 while this process spins on CPU 0, so that the
 * kernel never swaps their counters: it does so only when one of the two
 * tasks follows the other on a CPU, and a child holding the counters it
 * did not inherit writes no record at its exit.
 */
static int kernel_writes_exit_reads(void)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.inherit = 1,
		.inherit_stat = 1,
	};
	long page = sysconf(_SC_PAGESIZE);
	void *ring = MAP_FAILED;
	int fd = -1, ret, status;
	cpu_set_t was;
	pid_t pid;

	if (sched_getaffinity(0, sizeof(was), &was) || work_pin(0))
		return -errno;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, 1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		ring = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED,
			    fd, 0);
	if (ring == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	pid = fork();
	if (pid == 0)
		_exit(work_pin(1) ? 2 : 0);
	while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0)
		;
	ret = pid < 0 ? -EAGAIN : ring_has_read(ring, (size_t)page);
	munmap(ring, 2 * (size_t)page);
out:
	if (fd >= 0)
		close(fd);
	sched_setaffinity(0, sizeof(was), &was);
	return ret;
}

struct unit_faults {
	double moved, first;
};

static void units_of(struct hwp_session *s, pid_t pid, struct unit_faults *f)
{
	struct hwp_count counts[16];
	struct hwp_unit_info info;

	f->moved = f->first = -1;
	CHECK_ERR(hwp_session_read_units(s, counts, ARRAY_SIZE(counts)), 0);
	for (size_t u = 0; u < hwp_session_nr_units(s); u++) {
		info.sz = sizeof(info);
		if (hwp_session_unit(s, u, &info))
			continue;
		t_note("unit %s: %llu page faults", info.name,
		       (unsigned long long)counts[u].value);
		if (info.comm && !strcmp(info.comm, "tmoved"))
			f->moved = (double)counts[u].value;
		else if (info.tid == pid)
			f->first = (double)counts[u].value;
	}
}

/* Runs @argv to its end, its page faults counted per thread into *s;
 * non-zero when that could not be opened (a failed check says why). */
static int run_per_thread(char **argv, struct hwp_workload **w, struct hwp_evlist **evl,
			  struct hwp_session **s, int *status)
{
	CHECK_ERR(hwp_workload_new(argv, NULL, w), 0);
	CHECK_ERR(hwp_evlist_parse("page-faults", NULL, evl), 0);
	if (*w && *evl) {
		HWP_OPTS(hwp_session_opts, o, .pid = hwp_workload_pid(*w),
			 .enable_on_exec = true, .aggr = HWP_AGGR_THREAD);

		CHECK_ERR(hwp_session_new(*evl, &o, s), 0);
	}
	if (!*s || hwp_session_open(*s)) {
		CHECK(0, "open page-faults per thread: %s", hwp_errmsg());
		return -1;
	}
	CHECK_ERR(hwp_workload_start(*w), 0);
	CHECK_ERR(hwp_workload_wait(*w, status), 0);
	return 0;
}

static void test_exit_on_two_cpus(void)
{
	char *argv[] = { getenv("WORKLOAD"), "tmoved", "200", "500", "migrate", "1",
			 "pages", "300", "migrate", "2", "pages", "400", NULL };
	struct hwp_session *s = NULL;
	struct hwp_workload *w = NULL;
	struct hwp_evlist *evl = NULL;
	struct unit_faults f;
	int status = -1;

	if (!argv[0]) {
		t_case_skip("$WORKLOAD is not set (meson's test environment sets it)");
		return;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		t_case_skip("one CPU: a task's count is one CPU's record");
		return;
	}
	if (kernel_writes_exit_reads() == 0) {
		t_case_skip("this kernel writes no PERF_RECORD_READ at a thread's exit, so a command's threads cannot be counted apart (test_threads_apart_or_refused checks that hwprof says so)");
		return;
	}
	if (run_per_thread(argv, &w, &evl, &s, &status))
		goto out;
	CHECK(hwp_workload_exit_code(status) == 0,
	      "workload tmoved...: exit %d (1: a thread could not be pinned to CPU 0 or 1)",
	      hwp_workload_exit_code(status));
	units_of(s, hwp_workload_pid(w), &f);
	CHECK(f.moved >= 700 && f.moved < 700 + SLACK,
	      "tmoved: %.0f page faults, want 200 on CPU 0, 500 on CPU 1 and up to %d more",
	      f.moved, SLACK);
	/* Its start-up faults too, a few hundred (thousands under ASan). */
	CHECK(f.first >= 700, "the first thread: %.0f page faults, want 300 on CPU 0, 400 on CPU 1 and its start-up's",
	      f.first);
	t_note("page faults of tmoved %.0f, of the first thread %.0f", f.moved, f.first);
out:
	hwp_session_free(s);
	hwp_evlist_free(evl);
	hwp_workload_free(w);
}

/*
 * A command's threads counted apart: each thread has its row, with at
 * least the pages it touched; or, where the kernel did not write their
 * exit records (Debian's 6.1 in the emulated arm64 machine writes none),
 * reading fails and says why. Never a table that puts every thread's
 * counts in the first thread's row.
 */
static void check_thread_rows(struct hwp_session *s, const struct hwp_count *counts)
{
	size_t n = hwp_session_nr_units(s), found = 0;
	struct hwp_unit_info info;

	CHECK(n == 4, "%zu units, want the first thread and tp1, tp2, tp3", n);
	for (size_t u = 0; u < n; u++) {
		info.sz = sizeof(info);
		unsigned long long v = counts[u].value;
		int k;

		if (hwp_session_unit(s, u, &info) || !info.comm ||
		    sscanf(info.comm, "tp%d", &k) != 1 || k < 1 || k > 3)
			continue;
		found++;
		t_note("%s: %llu page faults", info.comm, v);
		CHECK(v >= (unsigned long long)k * 100,
		      "%s: %llu page faults, want the %d00 pages it touched at least",
		      info.comm, v, k);
	}
	CHECK(found == 3, "%zu rows of tp1, tp2, tp3, want 3", found);
}

static void test_threads_apart_or_refused(void)
{
	char *argv[] = { getenv("WORKLOAD"), "tpages", "100,200,300", NULL };
	struct hwp_session *s = NULL;
	struct hwp_workload *w = NULL;
	struct hwp_evlist *evl = NULL;
	struct hwp_count counts[16];
	int status = -1, err;

	if (!argv[0]) {
		t_case_skip("$WORKLOAD is not set (meson's test environment sets it)");
		return;
	}
	if (run_per_thread(argv, &w, &evl, &s, &status))
		goto out;
	err = hwp_session_read_units(s, counts, ARRAY_SIZE(counts));
	if (!err)
		check_thread_rows(s, counts);
	else
		CHECK((err == -EOPNOTSUPP &&
		       strstr(hwp_errmsg(), "wrote no exit record")) ||
		      (err == -EOVERFLOW && strstr(hwp_errmsg(), "lost")),
		      "read per thread: %d (%s), want the rows, or why there are none",
		      err, hwp_errmsg());
	t_note("read per thread: %d %s", err, err ? hwp_errmsg() : "");
out:
	hwp_session_free(s);
	hwp_evlist_free(evl);
	hwp_workload_free(w);
}

int main(void)
{
	t_init();
	t_run(test_threads_apart_or_refused);
	t_run(test_exit_on_two_cpus);
	return t_done();
}
