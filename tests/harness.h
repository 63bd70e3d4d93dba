/* SPDX-License-Identifier: MIT */
/*
 * A small test harness that speaks TAP 13, for meson's protocol: 'tap'.
 *
 * A test is a list of cases, each one line of TAP: "ok 3 - page faults".
 * t_run(fn) runs a function as one case, named after it (test_page_faults:
 * "page faults"); t_case(name) begins a case made of the checks that
 * follow it, up to the next case. CHECK() records a failure, prints its
 * file:line and message as a TAP diagnostic ("# FAIL ..."), and goes on:
 * a case with a failed check is "not ok", and so is a case that checked
 * nothing, which could not have failed.
 *
 * What cannot run here is skipped with its reason, never passed:
 * t_case_skip() for the rest of the current case ("ok 4 - cpu scope # SKIP
 * system-wide counting is not allowed"; the caller returns), t_skip() for
 * the whole test ("1..0 # SKIP reason"). A case with a failed check stays
 * "not ok" whatever is skipped after it.
 *
 * t_done() adds a last case that fails a test that leaked file descriptors
 * (a leaked perf fd keeps a counter alive), prints the plan, and returns
 * the exit status: 1 when any case failed.
 *
 * HWPROF_TEST_CASE=PATTERN (a shell pattern, fnmatch(3)) runs the cases
 * whose names match; the others are reported as skipped, not selected:
 *   HWPROF_TEST_CASE='cpu*' meson test -C build counting --verbose
 *
 * The TAP stream is standard output as it was at t_init(). From then on,
 * whatever the test or the programs it starts print on standard output
 * goes to standard error, where it cannot break the stream. A test run by
 * another test (HWPROF_TEST_NESTED, set by t_init() for its children)
 * writes its TAP lines as diagnostics of its parent's stream, and exits 77
 * when skipped, so that the parent, which checks its status, sees it.
 */
#ifndef HWPROF_TEST_HARNESS_H
#define HWPROF_TEST_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T_PRINTF(a, b) __attribute__((format(printf, a, b)))

static int t_failures, t_checks, t_fds_at_start = -1;

static struct {
	FILE *tap;		/* NULL before t_init(): stdout */
	bool started, finished, nested;
	pid_t pid;		/* forked children report nothing at exit */
	int reported;		/* cases reported so far */
	/* The case under way. */
	bool open, skipped;
	int checks, failures;
	char name[200], skip_reason[400];
} t_state;

static inline FILE *t_out(void)
{
	return t_state.tap ? t_state.tap : stdout;
}

/* One line of the TAP stream; in a nested test, a diagnostic of its parent's. */
static inline T_PRINTF(1, 2) void t_line(const char *fmt, ...)
{
	FILE *out = t_out();
	va_list ap;

	if (!t_state.started) {
		t_state.started = true;
		t_line("TAP version 13");
	}
	if (t_state.nested)
		fputs("# ", out);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	fflush(out);
}

static inline char *t_vformat(const char *fmt, va_list ap)
{
	va_list again;
	int n;
	char *s;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	s = malloc(n > 0 ? (size_t)n + 1 : 1);
	if (!s)
		abort();
	vsnprintf(s, n > 0 ? (size_t)n + 1 : 1, fmt, ap);
	return s;
}

/* A diagnostic: "# " before each of its lines, which TAP readers show and
 * otherwise ignore. */
static inline void t_vnote(const char *fmt, va_list ap)
{
	char *s = t_vformat(fmt, ap), *line = s, *nl;

	do {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		t_line("# %s", line);
		line = nl ? nl + 1 : NULL;
	} while (line && *line);
	free(s);
}

static inline T_PRINTF(1, 2) void t_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t_vnote(fmt, ap);
	va_end(ap);
}

/* Copy @src into @dst as one line; a case's name without the '#' that
 * would begin a directive. */
static inline void t_copy_line(char *dst, size_t size, const char *src, bool name)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = src[i] == '\n' ? ' ' : name && src[i] == '#' ? '_' : src[i];
	dst[i] = '\0';
}

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

/* Report the case under way, if any. */
static inline void t_case_end(void)
{
	int n;

	if (!t_state.open)
		return;
	t_state.open = false;
	n = ++t_state.reported;
	if (t_state.failures) {
		if (t_state.skipped)
			t_note("then skipped: %s", t_state.skip_reason);
		t_line("not ok %d - %s", n, t_state.name);
	} else if (t_state.skipped) {
		t_line("ok %d - %s # SKIP %s", n, t_state.name, t_state.skip_reason);
	} else if (!t_state.checks) {
		t_note("FAIL: no check ran: this case could not have failed");
		t_failures++;
		t_line("not ok %d - %s", n, t_state.name);
	} else {
		t_line("ok %d - %s", n, t_state.name);
	}
}

static inline void t_case_begin(const char *name)
{
	t_case_end();
	t_copy_line(t_state.name, sizeof(t_state.name), name, true);
	t_state.open = true;
	t_state.checks = t_state.failures = 0;
	t_state.skipped = false;
}

/* Begin a case named @fmt...: false when HWPROF_TEST_CASE leaves it out;
 * the caller then skips what it can of it (checks that run all the same,
 * such as a set-up's, still count), and it is reported as skipped. */
static inline T_PRINTF(1, 2) bool t_case(const char *fmt, ...)
{
	const char *only = getenv("HWPROF_TEST_CASE");
	va_list ap;
	char *name;

	va_start(ap, fmt);
	name = t_vformat(fmt, ap);
	va_end(ap);
	t_case_begin(name);
	free(name);
	if (only && *only && fnmatch(only, t_state.name, 0)) {
		t_state.skipped = true;
		snprintf(t_state.skip_reason, sizeof(t_state.skip_reason),
			 "not selected by HWPROF_TEST_CASE=%s", only);
		return false;
	}
	return true;
}

/* The rest of the current case cannot run here, for the reason @fmt...:
 * it is reported as skipped, unless a check of it failed already. The
 * caller returns. */
static inline T_PRINTF(1, 2) void t_case_skip(const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = t_vformat(fmt, ap);
	va_end(ap);
	if (!t_state.open)
		t_case_begin(program_invocation_short_name);
	t_state.skipped = true;
	t_copy_line(t_state.skip_reason, sizeof(t_state.skip_reason), why, false);
	free(why);
}

/* Make the folder of template @tmpl ("/tmp/name-XXXXXX", rewritten) for a
 * fabricated tree; exits on failure, which no test could go on from. */
static inline void t_mkdtemp(char *tmpl)
{
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		exit(1);
	}
}

/* Remove the folder @dir and all it holds, at the end of a test. */
static inline void t_rm_tree(const char *dir)
{
	char cmd[512];
	int status;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	status = system(cmd);
	(void)status;
}

/* Write @text to @root/@rel, making its folders (a fabricated sysfs tree);
 * exits on failure, which no test could go on from. */
static inline void t_put_file(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
}

/* Run @fn as one case, named after it without its test_ or check_ prefix. */
#define t_run(fn) t_run_case(#fn, fn)

static inline void t_run_case(const char *fn_name, void (*fn)(void))
{
	char name[sizeof(t_state.name)];

	if (!strncmp(fn_name, "test_", 5))
		fn_name += 5;
	else if (!strncmp(fn_name, "check_", 6))
		fn_name += 6;
	t_copy_line(name, sizeof(name), fn_name, true);
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = ' ';
	if (t_case("%s", name))
		fn();
	t_case_end();
}

static inline T_PRINTF(4, 5) void t_fail(const char *file, int line, const char *cond,
					 const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!t_state.open)
		t_case_begin(program_invocation_short_name);
	t_failures++;
	t_state.failures++;
	va_start(ap, fmt);
	msg = t_vformat(fmt, ap);
	va_end(ap);
	t_note("FAIL %s:%d: %s: %s", file, line, cond, msg);
	free(msg);
}

/* A check outside any case belongs to one named after the program. */
static inline void t_count_check(void)
{
	if (!t_state.open)
		t_case_begin(program_invocation_short_name);
	t_checks++;
	t_state.checks++;
}

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		t_count_check();                                           \
		if (!(cond))                                               \
			t_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);    \
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

static inline void t_at_exit(void)
{
	if (!t_state.finished && getpid() == t_state.pid)
		t_line("Bail out! %s exited before t_done()",
		       program_invocation_short_name);
}

static inline void t_init(void)
{
	int fd;

	t_state.nested = getenv("HWPROF_TEST_NESTED") != NULL;
	setenv("HWPROF_TEST_NESTED", "1", 1);
	t_state.pid = getpid();
	fflush(stdout);
	/* The stream keeps standard output; the rest of us writes to stderr. */
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd >= 0) {
		t_state.tap = fdopen(fd, "w");
		if (t_state.tap)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		else
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!t_state.started) {
		t_state.started = true;
		t_line("TAP version 13");
	}
	atexit(t_at_exit);
	t_fds_at_start = t_count_fds();
}

/* Nothing more of this test can run here, for the reason @fmt...: exits. */
static inline T_PRINTF(1, 2) void t_skip(const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = t_vformat(fmt, ap);
	va_end(ap);
	t_state.finished = true;
	if (t_state.nested) {
		t_note("SKIP: %s", why);
		free(why);
		exit(77);
	}
	if (!t_state.reported && (!t_state.open || !t_state.checks)) {
		char line[sizeof(t_state.skip_reason)];

		t_copy_line(line, sizeof(line), why, false);
		free(why);
		t_line("1..0 # SKIP %s", line);
		exit(0);
	}
	/* Some cases ran: the one under way, and the rest, are skipped. */
	t_case_skip("%s", why);
	free(why);
	t_case_end();
	t_line("1..%d", t_state.reported);
	exit(t_failures ? 1 : 0);
}

static inline int t_done(void)
{
	int fds = t_count_fds();

	t_case_end();
	if (t_fds_at_start >= 0) {
		/* Whatever HWPROF_TEST_CASE selects. */
		t_case_begin("no file descriptor leaked");
		CHECK(fds == t_fds_at_start,
		      "%d file descriptors open at the start, %d at the end",
		      t_fds_at_start, fds);
		t_case_end();
	}
	t_note("%d checks, %d failed", t_checks, t_failures);
	t_line("1..%d", t_state.reported);
	t_state.finished = true;
	return t_failures ? 1 : 0;
}

#endif
