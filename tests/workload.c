// SPDX-License-Identifier: MIT
/* Workloads with known counts, for the kernel and CLI tests.
 * Usage: workload STEP [ARGS] [STEP [ARGS]...], steps run in order:
 *   pages N        touch N fresh pages (>= N page faults)
 *   migrate M      alternate between CPUs 0 and 1 M times (>= M-1 migrations)
 *   pingpong K     K pipe round trips between two threads on one CPU (>= 2K switches)
 *   threads T N    T threads, each touching N fresh pages
 *   tpages N1,N2.. a thread for each Ni, named tpI (I from 1), touching Ni
 *                  fresh pages; one after the other
 *   tcounts GAP P1:S1,P2:S2..  a thread for each Pi:Si, named tcI (I from 1),
 *                  all running at once: each touches Pi fresh pages in Si
 *                  chunks, a blocking 200 us sleep after each (one
 *                  voluntary context switch each), then waits for the one
 *                  before it to end and sleeps GAP seconds (one switch
 *                  more, and maybe one in the wait): they end in order,
 *                  GAP seconds apart
 *                  (each says its rusage as it ends, as the step below)
 *   naps N         N blocking 200 us sleeps (N voluntary context switches)
 *   rusage         print "rusage NAME switches S faults F" on stderr: this
 *                  thread's context switches (voluntary or not) and minor
 *                  faults so far, by getrusage(RUSAGE_THREAD)
 *   tmoved N0 N1   a thread named tmoved touching N0 fresh pages on CPU 0,
 *                  then N1 on CPU 1 (exit status 1 if it cannot be moved)
 *   fork C N       C children, each touching N fresh pages; waits for them
 *   forkwait C N   the same, one child at a time: the parent's copy-on-write
 *                  faults no longer depend on which of the two runs first
 *   spin SECONDS   burn CPU for SECONDS of wall-clock time
 *   cpuspin SECONDS  burn SECONDS of this process's CPU time, however busy
 *                  the machine (a known number of CPU-clock samples)
 *   ready          print "ready" (a test waits for it, never for a time)
 *   go             wait for a line on stdin (a test says when to go on)
 *   sleep SECONDS  sleep
 *   serve N MS     touch N pages every MS milliseconds until killed
 *   paced N MS SECS FILE  touch N fresh pages every MS milliseconds for SECS,
 *                  on absolute deadlines (a late tick is caught up), and
 *                  write to FILE a line a tick: the CLOCK_REALTIME
 *                  nanoseconds after it and the pages touched so far, the
 *                  truth to compare a rate against, however loaded the
 *                  machine
 *   crowd T SECS   T threads, each touching a page every 10 ms, for SECS
 *                  (prints "ready" once all run)
 *   crowdgo T SECS the same, until a line on stdin, then for SECS more
 *   orphans C      fork C children that outlive us by 0.2 s, and exit
 *   fds            fail if any file descriptor but 0, 1, 2 is open
 *   tick FILE      read the number in FILE (0 when there is none) as this
 *                  run's tick, and write tick + 1 there: runs that drift
 *   drift N PER    touch N + tick * PER fresh pages
 *   score BASE PER print "Throughput V MB/sec", V = BASE + PER * ((tick *
 *                  37 + 11) % 17): a known sequence that looks random
 *   faultscore N PER  touch P = N + PER * ((tick * 37 + 11) % 17) pages and
 *                  print "Throughput 1e6/P MB/sec": a score that page
 *                  faults drive
 *   exit CODE      exit with CODE
 *   kill SIG       kill ourselves with SIG */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <alloca.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "work.h"

static void *toucher(void *arg)
{
	work_touch_pages((long)arg);
	return NULL;
}

/* A named thread: it names itself before it touches its pages. */
struct named {
	char name[16];
	long pages;
};

static void *named_toucher(void *arg)
{
	const struct named *t = arg;

	pthread_setname_np(pthread_self(), t->name);
	work_touch_pages(t->pages);
	return NULL;
}

/* tmoved: N0 pages on CPU 0, then N1 on CPU 1. */
static void *moved_toucher(void *arg)
{
	const long *n = arg;

	pthread_setname_np(pthread_self(), "tmoved");
	if (work_pin(0))
		return arg;
	work_touch_pages(n[0]);
	if (work_pin(1))
		return arg;
	work_touch_pages(n[1]);
	return NULL;
}

static volatile unsigned long spin_sink;

/* Some CPU work, the same for every thread of tcounts (all busy at once,
 * the first thread too, so that the kernel switches between them). */
static void busy(void)
{
	for (unsigned long i = 0; i < 100000000; i++)
		spin_sink += i;
}

/* tcounts: a thread's known page faults and context switches. */
struct tcount {
	char name[16];
	long pages, naps;
	double gap;
	pthread_t self, before;	/* before: the thread that ends first */
	bool has_before;
	pthread_barrier_t *start;
};

static void naps(long n)
{
	struct timespec ts = { 0, 200000 };

	for (long i = 0; i < n; i++)
		while (nanosleep(&ts, &ts))
			;
}

static void say_rusage(void)
{
	struct rusage ru;
	char name[16] = "?";

	pthread_getname_np(pthread_self(), name, sizeof(name));
	if (!getrusage(RUSAGE_THREAD, &ru))
		fprintf(stderr, "rusage %s switches %ld faults %ld\n", name,
			ru.ru_nvcsw + ru.ru_nivcsw, ru.ru_minflt);
}

static void *tcounter(void *arg)
{
	struct tcount *t = arg;
	struct timespec gap = { (time_t)t->gap,
				(long)((t->gap - (double)(time_t)t->gap) * 1e9) };

	pthread_setname_np(pthread_self(), t->name);
	pthread_barrier_wait(t->start);
	busy();
	for (long i = 0; i < t->naps; i++) {
		work_touch_pages(t->pages / t->naps + (i < t->pages % t->naps));
		naps(1);
	}
	if (t->has_before)
		pthread_join(t->before, NULL);
	while (nanosleep(&gap, &gap))
		;
	say_rusage();
	return NULL;
}

/* tcounts GAP P1:S1,...: see the usage; 0 or 1 (bad arguments). */
static int tcounts(double gap, const char *list)
{
	struct tcount t[16];
	pthread_barrier_t start;
	const char *p = list;
	char *end;
	int n = 0;

	while (*p && n < 16) {
		t[n] = (struct tcount){ .gap = gap, .start = &start };
		t[n].pages = strtol(p, &end, 10);
		if (*end != ':')
			return 1;
		t[n].naps = strtol(end + 1, &end, 10);
		if (t[n].naps <= 0 || t[n].pages < 0 || (*end && *end != ','))
			return 1;
		snprintf(t[n].name, sizeof(t[n].name), "tc%d", n + 1);
		n++;
		p = *end ? end + 1 : end;
	}
	if (!n || *p)
		return 1;
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		t[i].has_before = i > 0;
		if (i)
			t[i].before = t[i - 1].self;
		if (pthread_create(&t[i].self, NULL, tcounter, &t[i]))
			return 1;
	}
	busy();
	pthread_join(t[n - 1].self, NULL);
	pthread_barrier_destroy(&start);
	return 0;
}

static double crowd_secs;
static atomic_bool crowd_held;	/* crowdgo: until the line on stdin */

static void sleep_s(double secs);

static void *crowd_member(void *arg)
{
	(void)arg;
	while (atomic_load(&crowd_held)) {
		work_touch_pages(1);
		sleep_s(0.01);
	}
	for (double t = 0; t < crowd_secs; t += 0.01) {
		work_touch_pages(1);
		sleep_s(0.01);
	}
	return NULL;
}

/* Where the spins' sums go, so that the loops are not optimized away. */
static void spin(double secs)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			spin_sink += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) +
		 (double)(b.tv_nsec - a.tv_nsec) * 1e-9 < secs);
}

static double cpu_time(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void cpuspin(double secs)
{
	double end = cpu_time() + secs;

	while (cpu_time() < end)
		for (int i = 0; i < 100000; i++)
			spin_sink += (unsigned long)i;
}

static void sleep_s(double secs)
{
	struct timespec ts = { (time_t)secs,
			       (long)((secs - (double)(time_t)secs) * 1e9) };

	while (nanosleep(&ts, &ts))
		;
}

static int check_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int bad = 0;

	if (!d)
		return 1;
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);
		char path[64], target[256] = "";

		if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		if (readlink(path, target, sizeof(target) - 1) < 0)
			continue;
		if (strstr(target, "valgrind"))
			continue;	/* valgrind's own log, not ours */
		fprintf(stderr, "workload: fd %d is open: %s\n", fd, target);
		bad = 1;
	}
	closedir(d);
	return bad;
}

static long arg(char **argv, int i, int argc)
{
	if (i >= argc) {
		fprintf(stderr, "workload: %s needs an argument\n", argv[i - 1]);
		exit(2);
	}
	return atol(argv[i]);
}

/* The environment sits at the top of the stack, so its size moves every
 * frame below it: a stack that crosses a page boundary or not costs each
 * forked child a copy-on-write fault more or less. perf adds ~50 bytes
 * (PATH, PREFIX, PERF_BUILDID_DIR) to the environment that hwprof passes
 * as it is, so the same command faulted 1000 pages more under one tool or
 * the other. Starting the frames at a page boundary makes the count the
 * same whatever the environment. */
static int run(int argc, char **argv);

int main(int argc, char **argv)
{
	volatile char *pad = alloca(((uintptr_t)__builtin_frame_address(0) & 4095) + 64);

	pad[0] = 0;
	return run(argc, argv);
}

static long long ns_of(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

/* paced N MS SECS FILE (see the top): 0, or 1 when FILE fails. */
static int paced(long n, long ms, double secs, const char *path)
{
	long ticks = (long)(secs * 1000.0 / (double)ms), due = 0, done = 0;
	long long t0, now;
	struct timespec ts;
	FILE *f = fopen(path, "w");

	if (!f)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ns_of(&ts);
	while (due < ticks) {
		long long next = t0 + (due + 1) * ms * 1000000LL;

		ts = (struct timespec){ (time_t)(next / 1000000000LL),
					(long)(next % 1000000000LL) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = ns_of(&ts);
		due = (long)((now - t0) / (ms * 1000000LL));
		if (due > ticks)
			due = ticks;
		if (due > done)
			work_touch_pages((due - done) * n);
		done = due;
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(f, "%lld %ld\n", ns_of(&ts), done * n);
	}
	return fclose(f) ? 1 : 0;
}

/* The number in @path, which then holds the next one; -1 on failure. */
static long tick_of(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;

	if (f && fscanf(f, "%ld", &n) != 1)
		n = 0;
	if (f)
		fclose(f);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%ld\n", n + 1) < 0 || fclose(f))
		return -1;
	return n;
}

static int run(int argc, char **argv)
{
	long tick = 0;

	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "pages")) {
			work_touch_pages(arg(argv, ++i, argc));
		} else if (!strcmp(s, "migrate")) {
			long m = arg(argv, ++i, argc);

			for (long j = 0; j < m; j++)
				if (work_pin((int)(j % 2))) {
					perror("sched_setaffinity");
					return 1;
				}
		} else if (!strcmp(s, "pingpong")) {
			if (work_pingpong(arg(argv, ++i, argc)))
				return 1;
		} else if (!strcmp(s, "threads")) {
			long t = arg(argv, ++i, argc), n = arg(argv, ++i, argc);
			pthread_t *tids = calloc((size_t)t, sizeof(*tids));

			for (long j = 0; j < t; j++)
				if (pthread_create(&tids[j], NULL, toucher, (void *)n))
					return 1;
			for (long j = 0; j < t; j++)
				pthread_join(tids[j], NULL);
			free(tids);
		} else if (!strcmp(s, "tpages") && i + 1 < argc) {
			char *list = argv[++i], *end;
			int k = 1;

			for (char *p = list; *p; p = *end ? end + 1 : end, k++) {
				struct named nt = { .pages = strtol(p, &end, 10) };
				pthread_t t;

				if (end == p || nt.pages < 0 || (*end && *end != ','))
					return 1;
				snprintf(nt.name, sizeof(nt.name), "tp%d", k);
				if (pthread_create(&t, NULL, named_toucher, &nt))
					return 1;
				pthread_join(t, NULL);
			}
		} else if (!strcmp(s, "tcounts") && i + 2 < argc) {
			if (tcounts(atof(argv[i + 1]), argv[i + 2]))
				return 1;
			i += 2;
		} else if (!strcmp(s, "naps")) {
			naps(arg(argv, ++i, argc));
		} else if (!strcmp(s, "rusage")) {
			say_rusage();
		} else if (!strcmp(s, "tmoved")) {
			long n[2] = { arg(argv, i + 1, argc), arg(argv, i + 2, argc) };
			pthread_t t;
			void *failed = NULL;

			i += 2;
			if (pthread_create(&t, NULL, moved_toucher, n))
				return 1;
			pthread_join(t, &failed);
			if (failed) {
				perror("sched_setaffinity");
				return 1;
			}
		} else if (!strcmp(s, "fork") || !strcmp(s, "forkwait")) {
			/* forkwait waits for each child before the next. */
			bool serial = !strcmp(s, "forkwait");
			long c = arg(argv, ++i, argc), n = arg(argv, ++i, argc);

			for (long j = 0; j < c; j++) {
				pid_t p = fork();

				if (p == 0) {
					work_touch_pages(n);
					_exit(0);
				}
				if (p < 0 || (serial && waitpid(p, NULL, 0) != p))
					return 1;
			}
			while (wait(NULL) > 0)
				;
		} else if (!strcmp(s, "spin")) {
			spin(atof(argv[++i < argc ? i : argc - 1]));
		} else if (!strcmp(s, "cpuspin")) {
			cpuspin(atof(argv[++i < argc ? i : argc - 1]));
		} else if (!strcmp(s, "ready")) {
			printf("ready\n");
			fflush(stdout);
		} else if (!strcmp(s, "go")) {
			char c = 0;

			while (read(0, &c, 1) == 1 && c != '\n')
				;
		} else if (!strcmp(s, "sleep")) {
			sleep_s(atof(argv[++i < argc ? i : argc - 1]));
		} else if (!strcmp(s, "paced")) {
			long n = arg(argv, ++i, argc), ms = arg(argv, ++i, argc);
			double secs = atof(argv[++i < argc ? i : argc - 1]);

			if (++i >= argc || paced(n, ms, secs, argv[i]))
				return 1;
		} else if (!strcmp(s, "serve")) {
			long n = arg(argv, ++i, argc), ms = arg(argv, ++i, argc);

			printf("ready\n");
			fflush(stdout);
			for (;;) {
				work_touch_pages(n);
				sleep_s((double)ms / 1000.0);
			}
		} else if (!strcmp(s, "crowd") || !strcmp(s, "crowdgo")) {
			long t = arg(argv, ++i, argc);
			pthread_t *tids = calloc((size_t)t, sizeof(*tids));

			crowd_secs = atof(argv[++i < argc ? i : argc - 1]);
			atomic_store(&crowd_held, !strcmp(s, "crowdgo"));
			for (long j = 0; j < t; j++)
				if (pthread_create(&tids[j], NULL, crowd_member, NULL))
					return 1;
			printf("ready\n");
			fflush(stdout);
			if (atomic_load(&crowd_held)) {
				char c = 0;

				while (read(0, &c, 1) == 1 && c != '\n')
					;
				atomic_store(&crowd_held, false);
			}
			for (long j = 0; j < t; j++)
				pthread_join(tids[j], NULL);
			free(tids);
		} else if (!strcmp(s, "orphans")) {
			long c = arg(argv, ++i, argc);

			for (long j = 0; j < c; j++)
				if (fork() == 0) {
					sleep_s(0.2);
					work_touch_pages(100);
					_exit(0);
				}
			return 0;
		} else if (!strcmp(s, "fds")) {
			if (check_fds())
				return 3;
		} else if (!strcmp(s, "tick")) {
			tick = tick_of(argv[++i < argc ? i : argc - 1]);
			if (tick < 0) {
				perror("workload: tick");
				return 1;
			}
		} else if (!strcmp(s, "drift")) {
			long n = arg(argv, ++i, argc), per = arg(argv, ++i, argc);

			work_touch_pages(n + tick * per);
		} else if (!strcmp(s, "score")) {
			double base = atof(argv[++i < argc ? i : argc - 1]);
			double per = atof(argv[++i < argc ? i : argc - 1]);

			printf("Throughput %.6f MB/sec\n",
			       base + per * (double)((tick * 37 + 11) % 17));
			fflush(stdout);
		} else if (!strcmp(s, "faultscore")) {
			long n = arg(argv, ++i, argc), per = arg(argv, ++i, argc);
			long pages = n + per * ((tick * 37 + 11) % 17);

			work_touch_pages(pages);
			printf("Throughput %.6f MB/sec\n", 1e6 / (double)pages);
			fflush(stdout);
		} else if (!strcmp(s, "exit")) {
			return (int)arg(argv, ++i, argc);
		} else if (!strcmp(s, "kill")) {
			raise((int)arg(argv, ++i, argc));
		} else {
			fprintf(stderr, "workload: unknown step '%s'\n", s);
			return 2;
		}
	}
	return 0;
}
