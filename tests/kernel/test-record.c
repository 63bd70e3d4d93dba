// SPDX-License-Identifier: MIT
/* Recording sessions against the real kernel, on cpu-clock (which every
 * machine can sample): a program profiling itself, in memory, finds its own
 * hot function and the threads it starts; a ring of one page that is not
 * read fills up, and the samples the kernel dropped are counted by the
 * recording and read back from the file; bad options are refused; a
 * command's inlined functions are frames of its chains. */
#include "core/core.h"
#include "util/format.h"
#include "harness.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

void spin_here(double seconds);
void *spin_thread(void *arg);

static double clock_seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
	return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

/* Burn @seconds of this thread's CPU time, here. */
__attribute__((noinline)) void spin_here(double seconds)
{
	double end = cpu_seconds() + seconds;
	volatile unsigned long x = 0;

	while (cpu_seconds() < end)
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i;
}

__attribute__((noinline)) void *spin_thread(void *arg)
{
	double end = cpu_seconds() + *(double *)arg;
	volatile unsigned long x = 0;

	while (cpu_seconds() < end)
		for (int i = 0; i < 20000; i++)
			x += (unsigned long)i;
	return NULL;
}

struct found {
	const char *want;
	double percent;
	uint64_t samples;
	int rank;
};

static int find_symbol(const struct hwp_entry *e, void *ctx)
{
	struct found *f = ctx;

	if (e->symbol && !strcmp(e->symbol, f->want)) {
		f->percent = e->percent;
		f->samples = e->samples;
		f->rank = (int)e->rank;
		return 1;
	}
	return 0;
}

static struct found lookup(struct hwp_profile *p, const char *sym)
{
	struct found f = { .want = sym, .rank = -1 };

	hwp_profile_foreach_entry(p, HWP_SORT_SYM, 0, find_symbol, &f);
	return f;
}

/* A recording of the list @events (NULL: the default event) as @o says;
 * the list is freed at once: the recording keeps its own copy. */
static int record_new(const char *events, const struct hwp_record_opts *o,
		      struct hwp_record **r)
{
	struct hwp_evlist *evl = NULL;
	int err = events ? hwp_evlist_parse(events, NULL, &evl) : 0;

	if (!err)
		err = hwp_record_new(evl, o, r);
	hwp_evlist_free(evl);
	return err;
}

/* A profile diffed with itself: every sample on both sides, no row
 * significant, and the writer names the event. */
static void diff_self(struct hwp_profile *p, uint64_t samples)
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_profile_diff_info di = { .sz = sizeof(di) };
	struct hwp_profile_diff *d = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CHECK_ERR(hwp_profile_diff_new(p, p, NULL, &d), 0);
	if (!d)
		return;
	CHECK_ERR(hwp_profile_diff_info(d, &di), 0);
	CHECK(di.a_samples == samples && di.b_samples == samples && di.nr_rows > 0 &&
	      di.nr_increase == 0 && di.nr_decrease == 0,
	      "%llu and %llu samples of %llu, %zu rows, %zu up, %zu down",
	      (unsigned long long)di.a_samples, (unsigned long long)di.b_samples,
	      (unsigned long long)samples, di.nr_rows, di.nr_increase, di.nr_decrease);
	mem = open_memstream(&text, &len);
	CHECK_ERR(hwp_profile_diff_write(d, mem, &json), 0);
	fclose(mem);
	CHECK(text && strstr(text, "\"cpu-clock\""), "the diff written: %.200s", text);
	free(text);
	hwp_profile_diff_free(d);
}

/* The calling thread and the threads it starts, recorded in memory: two
 * cases, the samples, then the functions they land in. */
static void check_self(void)
{
	HWP_OPTS(hwp_record_opts, o, .freq = 1000);
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	double secs = 0.25;
	pthread_t t[2];
	struct found here, thread;
	double cpu;

	if (!t_case("self: samples of the CPU time"))
		return;

	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK(hwp_record_fd(r) >= 0, "a descriptor to poll");
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), -EINVAL);
	CHECK_ERR(hwp_record_enable(r), 0);
	cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	spin_here(0.3);
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin_thread, &secs);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK_ERR(hwp_record_read(r), 0);
	cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu;
	CHECK_ERR(hwp_record_disable(r), 0);
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(!strcmp(st.event, "cpu-clock") && !st.fallback && st.freq == 1000,
	      "stats: %s", st.event);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	hwp_record_free(r);
	if (!p)
		return;
	hwp_profile_info(p, &in);
	/* At least 0.8 s of CPU at 1 kHz: about 800 samples, never more
	 * than the process's CPU time while recording allows (under
	 * valgrind that is more than the 0.8 s spun: its translation counts). */
	CHECK(in.samples == st.samples && in.samples >= 400 &&
	      in.samples <= (unsigned long long)(cpu * 1000 * 1.1) + 10,
	      "%llu samples (the recording counted %llu) in %.3f s of CPU",
	      (unsigned long long)in.samples, (unsigned long long)st.samples, cpu);
	CHECK(in.lost == 0 && !strcmp(in.input, "(in memory)"), "lost %llu",
	      (unsigned long long)in.lost);
	if (t_case("self: its own functions and threads")) {
#ifdef HAVE_LIBDW
		here = lookup(p, "spin_here");
		thread = lookup(p, "spin_thread");
		if (t_under_valgrind()) {
			/* Our code runs from valgrind's translation cache: the
			 * samples land there, not in our functions. */
			t_case_skip("under valgrind, the samples land in its translations, not in our functions");
		} else {
			CHECK(here.rank >= 0 && here.percent > 20 && here.percent < 55,
			      "spin_here: %.1f%% (0.3 of 0.8 s)", here.percent);
			CHECK(thread.rank >= 0 && thread.percent > 40,
			      "the threads it started: %.1f%% (0.5 of 0.8 s)",
			      thread.percent);
		}
#else
		(void)here, (void)thread, (void)lookup;
		t_case_skip("built without libdw: no symbols for the samples");
#endif
	}
	if (t_case("self: a profile differs from itself in nothing"))
		diff_self(p, in.samples);
	hwp_profile_free(p);
}

__attribute__((noinline)) void dwarf_caller(void);
__attribute__((noinline)) void dwarf_caller(void)
{
	spin_here(0.3);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

struct callers {
	const char *want;
	double percent;		/* of spin_here's samples, from want */
};

static int find_caller(const struct hwp_entry *e, void *ctx)
{
	struct callers *c = ctx;

	if (!e->symbol || strcmp(e->symbol, "spin_here"))
		return 0;
	for (size_t i = 0; i < e->nr_callers; i++)
		if (e->callers[i].name && !strcmp(e->callers[i].name, c->want))
			c->percent = e->callers[i].percent;
	return 1;
}

/* HWP_CALLCHAIN_DWARF through the API: the chains unwind, in memory. */
static void check_dwarf(void)
{
	HWP_OPTS(hwp_record_opts, o, .freq = 1000,
		 .callchain = HWP_CALLCHAIN_DWARF, .stack_size = 16384,
		 .mmap_pages = 4096);
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	struct callers c = { .want = "dwarf_caller" };
	uint64_t all;
	int fds, fds_once;

	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	dwarf_caller();
	CHECK_ERR(hwp_record_finish(r), 0);
	fds = t_count_fds();
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	/* libunwind opens a pipe of its own on first use, kept for the
	 * process's life (it checks addresses of local unwinds with it): no
	 * more, and a second profile opens nothing that stays. */
	hwp_profile_free(p);
	fds_once = t_count_fds();
	CHECK(fds_once == fds || fds_once == fds + 2, "%d descriptors, %d before",
	      fds_once, fds);
	t_fds_at_start += fds_once - fds;
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	hwp_record_free(r);
	if (!p)
		return;
	hwp_profile_info(p, &in);
	CHECK(in.lost == 0, "%llu samples lost", (unsigned long long)in.lost);
	all = in.unwind_entry + in.unwind_stack_short + in.unwind_no_info +
	      in.unwind_failed;
	CHECK(in.dwarf && in.callchains && in.stack_size == 16384 && all == in.samples,
	      "dwarf %d, copy %llu, %llu chains of %llu samples", in.dwarf,
	      (unsigned long long)in.stack_size, (unsigned long long)all,
	      (unsigned long long)in.samples);
#if defined(HAVE_LIBDW) && defined(HAVE_LIBUNWIND)
	if (t_under_valgrind()) {
		/* The kernel samples valgrind's translation of our code, with
		 * its registers and stack: nothing of ours to unwind. */
		hwp_profile_free(p);
		return;
	}
	CHECK(!in.unwind_unavailable && in.unwind_entry >= all * 9 / 10 && all >= 100,
	      "%llu of %llu chains unwound to the entry (%s)",
	      (unsigned long long)in.unwind_entry, (unsigned long long)all,
	      in.unwind_unavailable ? in.unwind_unavailable : "");
	hwp_profile_foreach_entry(p, HWP_SORT_SYM, 0, find_caller, &c);
	CHECK(c.percent > 90, "spin_here is called from dwarf_caller in %.1f%%",
	      c.percent);
#else
	CHECK(in.unwind_unavailable && !in.unwind_entry, "without libunwind: %s",
	      in.unwind_unavailable ? in.unwind_unavailable : "(no reason given)");
	(void)find_caller, (void)c;
#endif
	hwp_profile_free(p);
}

/* A ring of one page, not read while sampling at 10 kHz: it overflows. */
static void check_lost(void)
{
	char path[] = "/tmp/hwprof-test-lost.XXXXXX";
	int fd = mkstemp(path);
	HWP_OPTS(hwp_record_opts, o, .period = 100000,
		 .mmap_pages = 1, .output = path);
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	char *text = NULL, want[128], num[32];
	size_t len = 0;
	FILE *mem;

	close(fd);
	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	spin_here(0.3);
	CHECK_ERR(hwp_record_finish(r), 0);
	hwp_record_info(r, &st);
	hwp_record_free(r);
	/* 3,000 samples of ~56 bytes, and 4 KiB of ring. */
	CHECK(st.lost > 1000 && st.samples < 200 && st.period == 100000,
	      "%llu samples kept, %llu lost", (unsigned long long)st.samples,
	      (unsigned long long)st.lost);
	CHECK(st.samples + st.lost >= 1500 && st.samples + st.lost <= 3100,
	      "kept and lost add up to 0.3 s at 10 kHz: %llu",
	      (unsigned long long)(st.samples + st.lost));
	CHECK_ERR(hwp_profile_load(path, NULL, &p), 0);
	if (p) {
		hwp_profile_info(p, &in);
		CHECK(in.lost == st.lost && in.samples == st.samples,
		      "the file says %llu lost", (unsigned long long)in.lost);
		mem = open_memstream(&text, &len);
		CHECK_ERR(hwp_profile_write(p, mem, NULL), 0);
		fclose(mem);
		fmt_grouped((double)st.lost, true, num, sizeof(num));
		snprintf(want, sizeof(want), "# lost %s samples (", num);
		CHECK(text && strstr(text, want), "the report says it: %.200s", text);
		free(text);
		hwp_profile_free(p);
	}
	unlink(path);
}

/* A recording of nothing to @path: an older file under the name. */
static void record_nothing(const char *path)
{
	HWP_OPTS(hwp_record_opts, o, .output = path);
	struct hwp_record *r = NULL;

	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_finish(r), 0);
	hwp_record_free(r);
}

/* Writes that fail (past the file size limit here, as on a full disk):
 * each call that fails says which file, why, and what to do; and the
 * finished file ends at the last complete round, replaces the older file
 * under its name, and reads, with the samples the recording says it kept. */
static void check_write_error(void)
{
	char dir[] = "/tmp/hwprof-test-full.XXXXXX", path[64];
	HWP_OPTS(hwp_record_opts, o, .freq = 4000, .output = path);
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct rlimit old, small;
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	int err = 0;

	CHECK(mkdtemp(dir) != NULL, "a directory for the output");
	snprintf(path, sizeof(path), "%s/out.data", dir);
	record_nothing(path);
	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	/* What was written so far is past the limit: the next write fails. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	small = old;
	small.rlim_cur = 4096;
	setrlimit(RLIMIT_FSIZE, &small);
	for (int i = 0; i < 100 && !err; i++) {
		spin_here(0.02);
		err = hwp_record_read(r);
	}
	CHECK(err == -EFBIG && strstr(hwp_errmsg(), path) &&
	      strstr(hwp_errmsg(), "File too large") &&
	      strstr(hwp_errmsg(), "ulimit -f"), "the failed read: %d, %s", err,
	      hwp_errmsg());
	/* Later calls fail the same way, and say so. */
	CHECK_ERR(hwp_record_read(r), -EFBIG);
	CHECK(strstr(hwp_errmsg(), path) && strstr(hwp_errmsg(), "File too large"),
	      "the next read: %s", hwp_errmsg());
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.stopped && strstr(st.stopped, path) && strstr(st.stopped, "ulimit -f"),
	      "why sampling stopped: %s", st.stopped ? st.stopped : "(not said)");
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	if (p) {
		struct hwp_profile_info in = { .sz = sizeof(in) };

		CHECK_ERR(hwp_profile_info(p, &in), 0);
		CHECK(in.samples == st.samples,
		      "the file holds the %llu samples kept: %llu",
		      (unsigned long long)st.samples, (unsigned long long)in.samples);
	}
	hwp_profile_free(p);
	hwp_record_free(r);
	CHECK(unlink(path) == 0, "the file is there");
	snprintf(path + strlen(path), sizeof(path) - strlen(path), ".old");
	CHECK(unlink(path) == 0, "the file it replaced is kept as %s", path);
	CHECK(rmdir(dir) == 0, "nothing else left in %s: %s", dir, strerror(errno));
}

static void check_refused(void)
{
	struct hwp_record *r = NULL;
	HWP_OPTS(hwp_record_opts, o, .freq = 100, .period = 1000);

	CHECK_ERR(hwp_record_new(NULL, &o, &r), -EINVAL);
	CHECK(!r && strstr(hwp_errmsg(), "exclude each other"), "%s", hwp_errmsg());
	o = (struct hwp_record_opts){ .sz = sizeof(o), .stack_size = 4096 };
	CHECK_ERR(hwp_record_new(NULL, &o, &r), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "DWARF call chains only"), "%s", hwp_errmsg());
	o = (struct hwp_record_opts){ .sz = sizeof(o), .callchain = HWP_CALLCHAIN_DWARF,
				      .stack_size = 4100 };
	CHECK_ERR(hwp_record_new(NULL, &o, &r), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "multiple of 8"), "%s", hwp_errmsg());
	o = (struct hwp_record_opts){ .sz = sizeof(o), .mmap_pages = 3 };
	CHECK_ERR(hwp_record_new(NULL, &o, &r), -EINVAL);
	CHECK_ERR(hwp_record_new(NULL, NULL, NULL), -EINVAL);
	/* "-" is standard output, in perf's pipe format (tests/cli/test_perf_field.py) */
	o = (struct hwp_record_opts){ .sz = sizeof(o), .scope = HWP_SCOPE_PROCESS,
				      .pid = 4000000 };
	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), -ESRCH);
	CHECK_ERR(hwp_record_open(r), -EINVAL);
	CHECK(strstr(hwp_errmsg(), "opened once"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_record_read(r), -EBADF);
	CHECK_ERR(hwp_record_finish(r), -EBADF);
	hwp_record_free(r);
	hwp_record_free(NULL);
	hwp_profile_free(NULL);
}

/* report --format html of a recording in memory, of two events: the file
 * cannot be read again for the other event, so the page has the
 * profile's own, and says why. */
static void check_html_in_memory(void)
{
	HWP_OPTS(hwp_record_opts, o, .freq = 1000);
	HWP_OPTS(hwp_write_opts, w, .format = HWP_FORMAT_HTML);
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_ERR(record_new("cpu-clock,task-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	spin_here(0.05);
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	hwp_record_free(r);
	if (!p)
		return;
	f = open_memstream(&out, &len);
	CHECK_ERR(hwp_profile_write(p, f, &w), 0);
	fclose(f);
	CHECK(strstr(out, "{\"event\":\"cpu-clock\"") && !strstr(out, "\"event\":\"task-clock\"") &&
	      strstr(out, "other events are not shown: it was read from memory"),
	      "one event, and why: %.300s", out ? strstr(out, "\"events\"") : NULL);
	free(out);
	hwp_profile_free(p);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The time off the CPU of the stacks through the kernel's nanosleep. */
static int sum_sleeps(const struct hwp_stack *st, void *ctx)
{
	for (size_t i = 0; i < st->nr_frames; i++)
		if (!strcmp(st->frames[i], "do_nanosleep")) {
			*(uint64_t *)ctx += st->period;
			break;
		}
	return 0;
}

/* Off-CPU time through the API: the sleeps weigh what they lasted, and
 * the on-CPU event of the same recording is a profile of its own. */
static void check_off_cpu(void)
{
	HWP_OPTS(hwp_record_opts, o, .freq = 1000,
		 .off_cpu = true);
	HWP_OPTS(hwp_profile_opts, po, .event = "context-switches");
	struct hwp_profile_info in = { .sz = sizeof(in) }, on = { .sz = sizeof(on) };
	struct timespec ten_ms = { 0, 10000000 };
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL, *q = NULL;
	uint64_t slept = 0, wall, sleeps = 0;
	int err;

	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	err = hwp_record_open(r);
	if (err == -EACCES) {
		t_case_skip("the kernel's samples are not allowed here: %s",
			    hwp_errmsg());
		hwp_record_free(r);
		return;
	}
	CHECK_ERR(err, 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	wall = mono_ns();
	spin_here(0.05);
	for (int i = 0; i < 10; i++) {
		uint64_t t0 = mono_ns();

		nanosleep(&ten_ms, NULL);
		slept += mono_ns() - t0;
	}
	CHECK_ERR(hwp_record_finish(r), 0);
	wall = mono_ns() - wall;
	CHECK_ERR(hwp_profile_from_record(r, &po, &p), 0);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &q), 0);
	hwp_record_free(r);
	if (!p || !q)
		goto out;
	hwp_profile_info(p, &in);
	hwp_profile_info(q, &on);
	/* Each sleep is a switch out and back; preemption adds more, whose
	 * time a loaded machine lengthens, but one thread is never off the
	 * CPU longer than it was recorded. */
	CHECK(in.off_cpu && in.callchains && in.samples >= 10 && in.nr_events == 2,
	      "off-CPU %d, chains %d, %llu samples, %zu events", in.off_cpu,
	      in.callchains, (unsigned long long)in.samples, in.nr_events);
	CHECK(in.period >= slept * 9 / 10 && in.period <= wall,
	      "%llu ns off the CPU, %llu ns asleep, %llu ns recorded",
	      (unsigned long long)in.period, (unsigned long long)slept,
	      (unsigned long long)wall);
#ifdef HAVE_LIBDW
	CHECK_ERR(hwp_profile_foreach_stack(p, sum_sleeps, &sleeps), 0);
	CHECK(sleeps >= slept * 9 / 10 && sleeps <= slept * 11 / 10,
	      "the stacks through do_nanosleep weigh %llu ns, the sleeps lasted %llu ns",
	      (unsigned long long)sleeps, (unsigned long long)slept);
#endif
	CHECK(!on.off_cpu && on.period >= 25000000 && on.period < in.period,
	      "cpu-clock: off-CPU %d, %llu ns", on.off_cpu,
	      (unsigned long long)on.period);
out:
	hwp_profile_free(p);
	hwp_profile_free(q);
}

/* Each inlined frame of tests/inlines.c's chains and the frame it must
 * follow, the function it was inlined into (inlines.c says how). */
static const char *const inlined_into[][2] = {
	{ "top (inlined)", "deep" },
	{ "mid (inlined)", "top (inlined)" },
	{ "leaf (inlined)", "mid (inlined)" },
	{ "relay_a (inlined)", "via" },
	{ "relay_b (inlined)", "relay_a (inlined)" },
};

struct inline_chains {
	uint64_t samples, in_leaf, in_callee;	/* in_*: through every level */
	int misplaced, marked;	/* inlined frames after the wrong one; any at all */
	char first_bad[300];
};

/* Whether @frames, @n of them, end with @want, @nr_want of them. */
static bool ends_with(const char *const *frames, size_t n, const char *const *want,
		      size_t nr_want)
{
	if (n < nr_want)
		return false;
	for (size_t i = 0; i < nr_want; i++)
		if (strcmp(frames[n - nr_want + i], want[i]))
			return false;
	return true;
}

static int inline_stack(const struct hwp_stack *st, void *ctx)
{
	static const char *const leaf[] = { "main", "deep", "top (inlined)",
					    "mid (inlined)", "leaf (inlined)" };
	static const char *const callee[] = { "main", "via", "relay_a (inlined)",
					      "relay_b (inlined)", "callee" };
	struct inline_chains *c = ctx;

	c->samples += st->samples;
	if (ends_with(st->frames, st->nr_frames, leaf, ARRAY_SIZE(leaf)))
		c->in_leaf += st->samples;
	if (ends_with(st->frames, st->nr_frames, callee, ARRAY_SIZE(callee)))
		c->in_callee += st->samples;
	for (size_t i = 0; i < st->nr_frames; i++) {
		const char *f = st->frames[i];
		size_t len = strlen(f);

		c->marked += len > 10 && !strcmp(f + len - 10, " (inlined)");
		for (size_t k = 0; k < ARRAY_SIZE(inlined_into); k++) {
			const char *before = i ? st->frames[i - 1] : "nothing";

			if (strcmp(f, inlined_into[k][0]) ||
			    !strcmp(before, inlined_into[k][1]))
				continue;
			if (!c->misplaced++)
				snprintf(c->first_bad, sizeof(c->first_bad),
					 "%s after %s", f, before);
		}
	}
	return 0;
}

/* Program @path (a test program built by meson) run with argument 20,
 * recorded with frame-pointer chains: the recording, or NULL. */
static struct hwp_record *record_fp(const char *path)
{
	/* 60 rounds, ~0.45 s here: ~900 samples at 2 kHz, where the cases
	 * ask for 100 and 30 (20 rounds gave 169-324: a machine twice as
	 * fast would come near). */
	char *argv[] = { (char *)path, "60", NULL };
	struct hwp_workload *w = NULL;
	struct hwp_record *r = NULL;
	int status = -1;

	CHECK_ERR(hwp_workload_new(argv, NULL, &w), 0);
	if (!w)
		return NULL;
	HWP_OPTS(hwp_record_opts, o, .freq = 2000,
		 .callchain = HWP_CALLCHAIN_FP, .scope = HWP_SCOPE_THREAD,
		 .pid = hwp_workload_pid(w), .enable_on_exec = true, .mmap_pages = 1024);
	CHECK_ERR(record_new("cpu-clock", &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_workload_start(w), 0);
	CHECK_ERR(hwp_workload_wait(w, &status), 0);
	CHECK(status == 0, "%s exited with status %d", path, status);
	hwp_workload_free(w);
	CHECK_ERR(hwp_record_finish(r), 0);
	return r;
}

/* hwp_profile_opts.inline_frames through the API: tests/inlines.c, run as
 * a command and recorded with frame-pointer chains, has every level of its
 * nested inlined functions as a frame, each after the function it was
 * inlined into; without the option, none. */
static void check_inline(void)
{
	const char *path = getenv("INLINES");
	struct hwp_record *r;
	struct hwp_profile *p = NULL;
	struct inline_chains with = { 0 }, without = { 0 };

	if (!path) {
		t_case_skip("INLINES (tests/inlines, built by meson) is not set");
		return;
	}
	r = record_fp(path);
	if (!r)
		return;
	for (int inl = 0; inl < 2; inl++) {
		HWP_OPTS(hwp_profile_opts, po, .inline_frames = inl);

		CHECK_ERR(hwp_profile_from_record(r, &po, &p), 0);
		if (!p)
			break;
		CHECK_ERR(hwp_profile_foreach_stack(p, inline_stack,
						    inl ? &with : &without), 0);
		hwp_profile_free(p);
	}
	hwp_record_free(r);
	CHECK(!without.marked, "without inline_frames, %d inlined frames",
	      without.marked);
#ifdef HAVE_LIBDW
	CHECK(with.samples >= 100, "%llu samples", (unsigned long long)with.samples);
	CHECK(!with.misplaced, "%d inlined frames after the wrong frame, as %s",
	      with.misplaced, with.first_bad);
	/* leaf's loop is deep's, callee's time via's: nearly all of each */
	CHECK(with.in_leaf > with.samples / 3 && with.in_callee > with.samples / 6,
	      "of %llu samples, %llu in main;deep;top;mid;leaf, %llu in "
	      "main;via;relay_a;relay_b;callee", (unsigned long long)with.samples,
	      (unsigned long long)with.in_leaf, (unsigned long long)with.in_callee);
#else
	CHECK(!with.marked, "without libdw, %d inlined frames", with.marked);
#endif
}

struct leaf_chains {
	uint64_t in_callee, via_callee;	/* samples in callee; called by via */
	uint64_t in_deep, main_deep;	/* samples in deep; called by main */
};

static int leaf_stack(const struct hwp_stack *st, void *ctx)
{
	static const char *const callee[] = { "main", "via", "callee" };
	static const char *const deep[] = { "main", "deep" };
	struct leaf_chains *c = ctx;
	const char *last = st->nr_frames ? st->frames[st->nr_frames - 1] : "";

	if (!strcmp(last, "callee")) {
		c->in_callee += st->samples;
		if (ends_with(st->frames, st->nr_frames, callee, ARRAY_SIZE(callee)))
			c->via_callee += st->samples;
	}
	if (!strcmp(last, "deep")) {
		c->in_deep += st->samples;
		if (ends_with(st->frames, st->nr_frames, deep, ARRAY_SIZE(deep)))
			c->main_deep += st->samples;
	}
	return 0;
}

/* Frame-pointer chains of leaf functions without a frame record (GCC's
 * default on arm64, tests/inlines.c built as tests/leafcalls): the frame
 * pointer is still the caller's, whose record holds the return address of
 * the caller's caller, so the kernel's walk skips the caller. The link
 * register, recorded with each sample on arm64, is that caller wherever
 * the CFI says the return address is still in it: callee() is called by
 * via(), deep() by main(), in every sample but a rare few (on x86-64, the
 * one instruction before a function pushes its frame pointer). */
static void check_leaf_caller(void)
{
	const char *path = getenv("LEAFCALLS");
	struct hwp_record *r;
	struct hwp_profile *p = NULL;
	struct leaf_chains c = { 0 };

	if (!path) {
		t_case_skip("LEAFCALLS (tests/leafcalls, built by meson) is not set");
		return;
	}
#ifndef HAVE_LIBDW
	t_case_skip("without libdw, no symbols and no CFI");
	return;
#endif
	r = record_fp(path);
	if (!r)
		return;
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	if (p)
		CHECK_ERR(hwp_profile_foreach_stack(p, leaf_stack, &c), 0);
	hwp_profile_free(p);
	hwp_record_free(r);
	CHECK(c.in_callee >= 30 && c.in_deep >= 30,
	      "%llu samples in callee, %llu in deep", (unsigned long long)c.in_callee,
	      (unsigned long long)c.in_deep);
	CHECK(c.via_callee * 20 >= c.in_callee * 19 && c.main_deep * 20 >= c.in_deep * 19,
	      "main;via;callee in %llu of callee's %llu samples, main;deep in %llu of "
	      "deep's %llu", (unsigned long long)c.via_callee,
	      (unsigned long long)c.in_callee, (unsigned long long)c.main_deep,
	      (unsigned long long)c.in_deep);
}

/* Samples in the kernel's own code (its symbols or not). */
static int count_kernel(const struct hwp_entry *e, void *ctx)
{
	if (e->dso && !strcmp(e->dso, "[kernel.kallsyms]"))
		*(uint64_t *)ctx += e->samples;
	return 0;
}

/* This thread, recorded while it spends CPU time in user space and in the
 * kernel (reading /dev/zero), for event list @evl: the samples in the
 * kernel into *kernel, all of them into *all; true when the kernel allowed
 * user space only (a fallback). */
static bool record_both_modes(const struct hwp_evlist *evl, uint64_t *kernel,
			      uint64_t *all)
{
	struct hwp_record_info st = { .sz = sizeof(st) };
	HWP_OPTS(hwp_record_opts, o, .freq = 1000);
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct hwp_record *r = NULL;
	struct hwp_profile *p = NULL;
	static char buf[1 << 16];
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	double end;

	*kernel = *all = 0;
	CHECK(fd >= 0, "/dev/zero: %s", strerror(errno));
	CHECK_ERR(hwp_record_new(evl, &o, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	spin_here(0.1);
	end = cpu_seconds() + 0.1;
	while (fd >= 0 && cpu_seconds() < end)
		if (read(fd, buf, sizeof(buf)) < 0)
			break;
	CHECK_ERR(hwp_record_finish(r), 0);
	if (fd >= 0)
		close(fd);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &p), 0);
	hwp_record_free(r);
	if (p) {
		hwp_profile_info(p, &in);
		*all = in.samples;
		CHECK_ERR(hwp_profile_foreach_entry(p, HWP_SORT_DSO, 0, count_kernel,
						    kernel), 0);
	}
	hwp_profile_free(p);
	return st.fallback != NULL;
}

/* hwp_record_new() samples the event list it is given, as parsed: a list
 * parsed for user space only (hwp_evlist_opts.all_user, which no event
 * name says) has no sample in the kernel where the same list parsed
 * without it has; the recording keeps its own copy, and off_cpu adds the
 * switches to that copy, not to the caller's list; without a list, the
 * default event. */
static void check_evlist(void)
{
	HWP_OPTS(hwp_evlist_opts, user, .all_user = true);
	HWP_OPTS(hwp_record_opts, off, .off_cpu = true);
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_evlist *evl = NULL;
	struct hwp_record *r = NULL;
	uint64_t kernel = 0, all = 0;
	bool user_only;

	CHECK_ERR(hwp_evlist_parse("cpu-clock", &user, &evl), 0);
	record_both_modes(evl, &kernel, &all);
	CHECK(all >= 50 && kernel == 0,
	      "user space only: %llu samples, %llu in the kernel",
	      (unsigned long long)all, (unsigned long long)kernel);
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_evlist_parse("cpu-clock", NULL, &evl), 0);
	user_only = record_both_modes(evl, &kernel, &all);
	CHECK(all >= 50 && (kernel > 0 || user_only),
	      "both: %llu samples, %llu in the kernel", (unsigned long long)all,
	      (unsigned long long)kernel);
	hwp_evlist_free(evl);

	CHECK_ERR(hwp_evlist_parse("cpu-clock,task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_record_new(evl, &off, &r), 0);
	CHECK(!strcmp(hwp_evlist_spec(evl), "cpu-clock,task-clock") &&
	      hwp_evlist_nr_events(evl) == 2, "the caller's list is its own: %s",
	      hwp_evlist_spec(evl));
	hwp_evlist_free(evl);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.event && !strcmp(st.event, "cpu-clock,task-clock,context-switches"),
	      "off-CPU samples the switches after the list: %s", st.event);
	hwp_record_free(r);
	CHECK_ERR(hwp_record_new(NULL, &off, &r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.event && !strcmp(st.event, "context-switches"), "the switches alone: %s",
	      st.event);
	hwp_record_free(r);
	CHECK_ERR(hwp_record_new(NULL, NULL, &r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.event && !strcmp(st.event, "cycles"), "the default: %s", st.event);
	hwp_record_free(r);
}

int main(void)
{
	t_init();
	check_self();
	t_case_end();
	t_run(check_lost);
	t_run(check_write_error);
	t_run(check_refused);
	t_run(check_evlist);
	t_run(check_dwarf);
	t_run(check_html_in_memory);
	t_run(check_off_cpu);
	t_run(check_inline);
	t_run(check_leaf_caller);
	return t_done();
}
