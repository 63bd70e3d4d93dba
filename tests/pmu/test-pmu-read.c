// SPDX-License-Identifier: MIT
/* The embedding API on hardware counters: a thread counting itself, read
 * through read() and through user space (mrs, with kernel.perf_user_access
 * = 1, as guest-init sets). The counts are exact: what the loop adds
 * between two reads is twice its iterations, to the unit, on either path.
 * That the user-space path makes no system call is counted, not timed: a
 * tracepoint counts this thread's read() calls. */
#include "count/count.h"
#include "pmu.h"

#define N 1000000ULL
#define READS 1000

__attribute__((noinline)) static void spin(uint64_t n)
{
	LOOP_BODY(n);
}

static struct hwp_session *open_self(const char *spec, bool user_read)
{
	HWP_OPTS(hwp_session_opts, o, .no_inherit = true, .no_rdpmc = !user_read);
	struct hwp_evlist *evl;
	struct hwp_session *s = NULL;

	CHECK_ERR(hwp_evlist_parse(spec, NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, &o, &s), 0);
	hwp_evlist_free(evl);
	if (s && hwp_session_open(s)) {
		CHECK(0, "open %s: %s", spec, hwp_errmsg());
		hwp_session_free(s);
		return NULL;
	}
	if (s)
		CHECK_ERR(hwp_session_enable(s), 0);
	return s;
}

static uint64_t read_value(struct hwp_session *s, size_t idx)
{
	struct hwp_count c[16];

	CHECK_ERR(hwp_session_read(s, c, 16), 0);
	return c[idx].value;
}

/* This thread's read() calls so far, the counting read included. */
static struct hwp_session *syscalls;

static uint64_t reads_so_far(void)
{
	return read_value(syscalls, 0);
}

/* What @n iterations add to count @idx between two reads. Not inlined:
 * both measurements must run the very same instructions but for the
 * loop's. */
__attribute__((noinline)) static uint64_t between_reads(struct hwp_session *s, size_t idx,
							 uint64_t n)
{
	uint64_t before = read_value(s, idx);

	spin(n);
	return read_value(s, idx) - before;
}

/* What the loop adds between two reads, for N and 2N iterations: the
 * reads' own instructions cancel out, the loop's remain. */
static void check_exact_increments_of(struct hwp_session *s, size_t idx, const char *path)
{
	uint64_t d[2];

	for (int k = 0; k < 2; k++)
		d[k] = between_reads(s, idx, N << k);
	CHECK(d[1] - d[0] == INSNS_PER_ITER * N,
	      "%s: the loop adds %llu, then %llu for twice the iterations: %llu apart, want %llu",
	      path, (unsigned long long)d[0], (unsigned long long)d[1],
	      (unsigned long long)(d[1] - d[0]), INSNS_PER_ITER * N);
	CHECK(d[0] >= INSNS_PER_ITER * N && d[0] < INSNS_PER_ITER * N + 2000,
	      "%s: %llu between two reads around %llu instructions", path,
	      (unsigned long long)d[0], INSNS_PER_ITER * N);
}

static void check_exact_increments(struct hwp_session *s, const char *path)
{
	check_exact_increments_of(s, 0, path);
}

static uint64_t syscalls_of_reads(struct hwp_session *s)
{
	uint64_t before = reads_so_far();

	for (int i = 0; i < READS; i++)
		read_value(s, 0);
	/* The second count's own read() is in it. */
	return reads_so_far() - before - 1;
}

static void test_group_read(void)
{
	struct hwp_session *one = open_self("{instructions:u,cycles:u}", false);
	struct hwp_session *two = open_self("{instructions:u,cycles:u},{instructions:u}",
					    false);
	struct hwp_count c[3];
	uint64_t calls;

	if (!one || !two)
		goto out;
	calls = syscalls_of_reads(one);
	CHECK(calls == READS, "a group is one read(): %llu system calls for %d reads",
	      (unsigned long long)calls, READS);
	calls = syscalls_of_reads(two);
	CHECK(calls == 2 * READS, "two groups, two read()s: %llu for %d reads",
	      (unsigned long long)calls, READS);
	/* Read together: under -icount, a cycle is an instruction. */
	CHECK_ERR(hwp_session_read(one, c, 3), 0);
	CHECK(c[0].value == c[1].value && c[0].time_enabled == c[1].time_enabled &&
		      c[0].time_running == c[1].time_running,
	      "the group's members, read at once, agree: %llu instructions, %llu cycles",
	      (unsigned long long)c[0].value, (unsigned long long)c[1].value);
	check_exact_increments(one, "read()");
out:
	hwp_session_free(one);
	hwp_session_free(two);
}

static void test_user_read(void)
{
	struct hwp_session *fast = open_self("{instructions:u,cycles:u}", true);
	struct hwp_session *slow = open_self("{instructions:u,cycles:u}", false);
	uint64_t calls, reads_before, f, s;
	struct hwp_count fc[2], sc[2];

	if (!fast || !slow)
		goto out;
	CHECK(hwp_session_rdpmc(fast) && !hwp_session_rdpmc(slow),
	      "user-space reads where asked, with perf_user_access=1");
	reads_before = session_rdpmc_reads(fast);
	calls = syscalls_of_reads(fast);
	CHECK(calls == 0, "user-space reads make no system call: %llu for %d reads",
	      (unsigned long long)calls, READS);
	CHECK(session_rdpmc_reads(fast) - reads_before == READS,
	      "every read went through user space: %llu of %d",
	      (unsigned long long)(session_rdpmc_reads(fast) - reads_before), READS);
	check_exact_increments(fast, "user space");
	/* Both sessions count the same thread since their opens: the same
	 * value, but for the second session's open, which the first one
	 * counted, and the two reads. */
	spin(N);
	CHECK_ERR(hwp_session_read(fast, fc, 2), 0);
	CHECK_ERR(hwp_session_read(slow, sc, 2), 0);
	f = fc[0].value;
	s = sc[0].value;
	CHECK(f >= s && f - s < 20000, "user space %llu, read() %llu",
	      (unsigned long long)f, (unsigned long long)s);
	/* The times, which user space brings up to date from the page's
	 * clock (CNTVCT_EL0), agree with the kernel's: an instruction is a
	 * nanosecond here, so the two enables were microseconds apart. */
	CHECK(fc[0].time_enabled == fc[0].time_running &&
		      fc[0].time_enabled >= sc[0].time_enabled &&
		      fc[0].time_enabled - sc[0].time_enabled < 1000000,
	      "times: user space %llu/%llu ns, read() %llu ns",
	      (unsigned long long)fc[0].time_enabled,
	      (unsigned long long)fc[0].time_running,
	      (unsigned long long)sc[0].time_enabled);
out:
	hwp_session_free(fast);
	hwp_session_free(slow);
}

/* Each counter read from user space is the right one: in groups whose
 * members count different things (user and kernel), the user member
 * follows the loop exactly, whether it is on the cycle counter
 * (PMCCNTR_EL0) or an event counter (PMEVCNTR<n>_EL0). Groups of equal
 * counts could not tell the counters apart. */
static void test_user_read_counters(void)
{
	static const char *const specs[] = {
		"{cycles:u,instructions:k}",
		"{instructions:u,cycles:k}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		struct hwp_session *s = open_self(specs[i], true);
		uint64_t before;

		if (!s)
			continue;
		before = session_rdpmc_reads(s);
		check_exact_increments(s, specs[i]);
		CHECK(session_rdpmc_reads(s) - before == 4,
		      "%s: read in user space: %llu of 4",
		      specs[i], (unsigned long long)(session_rdpmc_reads(s) - before));
		hwp_session_free(s);
	}
}

/* Each member of a group has its own count, whoever leads and whichever
 * path reads it: the user member follows the loop to the instruction, the
 * kernel member does not see the loop at all. (A group of equal counts,
 * instructions and cycles under -icount, could not tell a member given
 * its leader's value.) */
static void test_group_members(void)
{
	static const struct {
		const char *spec;
		size_t user, kernel;
	} groups[] = {
		{ "{instructions:k,instructions:u}", 1, 0 },
		{ "{instructions:u,instructions:k}", 0, 1 },
	};

	for (size_t i = 0; i < 2 * ARRAY_SIZE(groups); i++) {
		bool user_read = i % 2;
		const char *spec = groups[i / 2].spec;
		struct hwp_session *s = open_self(spec, user_read);
		size_t k = groups[i / 2].kernel;
		char path[96];
		uint64_t d[2];

		if (!s)
			continue;
		snprintf(path, sizeof(path), "%s, its user member, %s", spec,
			 user_read ? "user space" : "read()");
		CHECK(hwp_session_rdpmc(s) == user_read, "%s: user-space reads %d", spec,
		      hwp_session_rdpmc(s));
		check_exact_increments_of(s, groups[i / 2].user, path);
		/* The kernel's part between two reads: the read() calls and a
		 * timer tick or two, thousands of instructions, not the loop's
		 * millions. */
		for (int n = 0; n < 2; n++)
			d[n] = between_reads(s, k, N << n);
		CHECK(d[0] < N / 10 && d[1] < N / 10,
		      "%s, its kernel member, %s: %llu and %llu around loops of %llu and %llu instructions",
		      spec, user_read ? "user space" : "read()", (unsigned long long)d[0],
		      (unsigned long long)d[1], INSNS_PER_ITER * N,
		      2 * INSNS_PER_ITER * N);
		hwp_session_free(s);
	}
}

/* The share of its enabled time that an event was on a counter, exactly
 * time_running / time_enabled: as the count gives it, as a result keeps
 * it, and as the text report prints it (to two decimals, not rounded to
 * a whole percent). */
static void check_percent_running(struct hwp_session *s, const struct hwp_count *c,
				  size_t nr)
{
	struct hwp_result *r = NULL;
	struct hwp_series_info info;
	bool fraction = false;
	char *text = NULL, want[64];
	size_t len = 0;
	FILE *f;

	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_result_add_run(r, s, c, 1.0), 0);
	f = open_memstream(&text, &len);
	CHECK_ERR(hwp_result_write(r, f, NULL), 0);
	fclose(f);
	for (size_t i = 0; i < nr; i++) {
		double pct = 100.0 * (double)c[i].time_running /
			     (double)c[i].time_enabled;

		fraction |= pct != floor(pct);
		CHECK(fabs(hwp_count_percent_running(&c[i]) - pct) < 1e-9,
		      "event %zu: %.6f%% running, the times say %llu/%llu ns: %.6f%%", i,
		      hwp_count_percent_running(&c[i]),
		      (unsigned long long)c[i].time_running,
		      (unsigned long long)c[i].time_enabled, pct);
		info.sz = sizeof(info);
		CHECK(hwp_result_series(r, i, &info) == 0 &&
			      fabs(info.percent_running[0] - pct) < 1e-9,
		      "event %zu: the result keeps %.6f%%, want %.6f%%", i,
		      info.percent_running ? info.percent_running[0] : NAN, pct);
		snprintf(want, sizeof(want), " (%.2f%% counted, scaled)\n", pct);
		CHECK(text && strstr(text, want), "event %zu: no '%s' in the report: %s",
		      i, want, text ? text : "");
	}
	/* Otherwise a share cut to a whole percent would pass the above. */
	CHECK(fraction, "each of %zu events ran a whole percent of its time: the checks cannot tell a share cut to a whole percent",
	      nr);
	free(text);
	hwp_result_free(r);
}

/* Multiplexed counts must be scaled, and only the kernel's times can: a
 * multiplexed group is read with read(), and scaled right. */
static void test_user_read_multiplexed(void)
{
	char *spec = repeat_spec("instructions:u", 10);
	struct hwp_session *s = open_self(spec, true);
	struct hwp_count c[10];
	uint64_t reads_before;

	if (!s)
		goto out;
	reads_before = session_rdpmc_reads(s);
	spin(50 * N);
	CHECK_ERR(hwp_session_read(s, c, 10), 0);
	for (int i = 0; i < 10; i++) {
		/* Since the enable: the loop, and a few thousand more. */
		double scaled = hwp_count_scaled(&c[i]);
		double want = INSNS_PER_ITER * 50.0 * N;

		CHECK(hwp_count_percent_running(&c[i]) < 90, "event %d ran %.2f%%", i,
		      hwp_count_percent_running(&c[i]));
		CHECK(fabs(scaled - want) < 0.01 * want,
		      "event %d: %.0f scaled, want %.0f", i, scaled, want);
	}
	CHECK(session_rdpmc_reads(s) == reads_before,
	      "multiplexed groups are not read in user space: %llu",
	      (unsigned long long)(session_rdpmc_reads(s) - reads_before));
	check_percent_running(s, c, 10);
out:
	hwp_session_free(s);
	free(spec);
}

static int write_sysctl(const char *path, int value)
{
	FILE *f = fopen(path, "r+");
	int old = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &old) != 1)
		old = -1;
	rewind(f);
	fprintf(f, "%d\n", value);
	fclose(f);
	return old;
}

/* kernel.perf_user_access = 0: no session claims user-space reads, and
 * every read is a read() that counts right. */
static void test_user_access_off(void)
{
	const char *knob = "/proc/sys/kernel/perf_user_access";
	int old = write_sysctl(knob, 0);
	struct hwp_session *s;
	uint64_t calls;

	CHECK(old == 1, "%s was %d", knob, old);
	s = open_self("{instructions:u,cycles:u}", true);
	if (s) {
		CHECK(!hwp_session_rdpmc(s), "no user-space reads with %s = 0", knob);
		calls = syscalls_of_reads(s);
		CHECK(calls == READS, "%llu read()s for %d reads",
		      (unsigned long long)calls, READS);
		check_exact_increments(s, "read(), perf_user_access=0");
	}
	hwp_session_free(s);
	write_sysctl(knob, old);
}

int main(void)
{
	t_init();
	pmu_require_exact();
	t_case("counting this thread's read() calls");
	syscalls = open_self("syscalls:sys_enter_read", false);
	if (!syscalls)
		return t_done();
	t_run(test_group_read);
	t_run(test_user_read);
	t_run(test_user_read_counters);
	t_run(test_group_members);
	t_run(test_user_read_multiplexed);
	t_run(test_user_access_off);
	hwp_session_free(syscalls);
	return t_done();
}
