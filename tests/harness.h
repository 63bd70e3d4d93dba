/* SPDX-License-Identifier: MIT */
/* A small test harness: CHECK() records failures and goes on; t_done()
 * also fails a test that leaked file descriptors (a leaked perf fd keeps a
 * counter alive). t_skip() exits 77, meson's SKIP, with the reason. */
#ifndef HWPROF_TEST_HARNESS_H
#define HWPROF_TEST_HARNESS_H

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int t_failures, t_checks, t_fds_at_start = -1;

static inline int t_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

/* Under valgrind, each thread and process it runs faults pages of its own
 * (its thread stacks, its translations): upper bounds on page faults widen. */
static inline int t_under_valgrind(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "vgpreload") != NULL;
}

static inline void t_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	t_fds_at_start = t_count_fds();
}

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		t_checks++;                                                    \
		if (!(cond)) {                                                 \
			t_failures++;                                          \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

#define CHECK_ERR(expr, want)                                                         \
	do {                                                                          \
		int got_ = (expr);                                                    \
		CHECK(got_ == (want), "%s returned %d (%s), expected %d; message: %s", \
		      #expr, got_, hwp_strerror(got_), (int)(want), hwp_errmsg());     \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                        \
	do {                                                                         \
		double a_ = (a), b_ = (b);                                           \
		CHECK(fabs(a_ - b_) <= (tol), "%.12g vs %.12g (tolerance %g)", a_, b_, \
		      (double)(tol));                                                \
	} while (0)

static inline void t_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(77);
}

static inline int t_done(void)
{
	int fds = t_count_fds();

	if (t_fds_at_start >= 0 && fds != t_fds_at_start) {
		printf("FAIL: %d file descriptors open at the start, %d at the end: a leak\n",
		       t_fds_at_start, fds);
		t_failures++;
	}
	printf("%d checks, %d failed\n", t_checks, t_failures);
	return t_failures ? 1 : 0;
}

#endif
