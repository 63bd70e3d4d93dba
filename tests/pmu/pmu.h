/* SPDX-License-Identifier: MIT */
/* Helpers of the hardware-counter tests (make test-pmu). They run in the
 * emulated ARMv8 machine of tools/pmu/guest-run, whose PMU counts exactly
 * (QEMU -icount shift=0): pmu-work's loops retire a known number of
 * instructions, and hwprof's counts of them are asserted to the unit. */
#ifndef HWPROF_TEST_PMU_H
#define HWPROF_TEST_PMU_H

#include "core/core.h"
#include "event/event.h"
#include "harness.h"
#include "loop.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <sys/wait.h>

/* Skip unless the PMU is the exact one these tests are written for. */
static inline void pmu_require_exact(void)
{
	if (!getenv("HWPROF_PMU_EXACT"))
		t_skip("these tests assert the exact counts of QEMU's emulated PMU: run them with make test-pmu");
	if (!have_hw_pmu())
		t_skip("the guest has no PMU: is its kernel built without CONFIG_ARM_PMU?");
}

static inline const char *env_or_die(const char *name)
{
	const char *v = getenv(name);

	if (!v) {
		printf("FAIL: $%s is not set (meson's test environment sets it)\n", name);
		exit(1);
	}
	return v;
}

/* Run @argv; its standard output and error, together, into a malloc'ed
 * string; its wait status into *@status. */
static inline char *run_capture(char *const argv[], int *status)
{
	char path[] = "/tmp/pmu-out.XXXXXX";
	int fd = mkstemp(path);
	pid_t pid;
	char *out;
	off_t size;

	if (fd < 0)
		return NULL;
	unlink(path);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
		execv(argv[0], argv);
		_exit(127);
	}
	waitpid(pid, status, 0);
	size = lseek(fd, 0, SEEK_END);
	out = calloc(1, (size_t)size + 1);
	if (out && pread(fd, out, (size_t)size, 0) != size)
		out[0] = '\0';
	close(fd);
	return out;
}

/* hwprof with the arguments that follow, up to a NULL: its output (stdout
 * and stderr, malloc'ed) and its wait status, as run_capture(). */
static inline char *hwprof_run(int *status, ...)
{
	char *argv[32];
	size_t n = 0;
	va_list ap;

	argv[n++] = (char *)env_or_die("HWPROF");
	va_start(ap, status);
	while (n < ARRAY_SIZE(argv) - 1 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_capture(argv, status);
}

/* "@event,@event,...", @n times (malloc'ed). */
static inline char *repeat_spec(const char *event, int n)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i ? "," : "", event);
	return strbuf_detach(&sb);
}

/* A number as pmu-work reads it: always ten digits, so that start-up
 * costs the same whatever the number. */
static inline const char *digits(uint64_t n, char buf[static 24])
{
	snprintf(buf, 24, "%010" PRIu64, n);
	return buf;
}

/*
 * hwprof stat --json -e @events [-r @runs] -- pmu-work @mode A [B], read
 * back with hwp_result_load(); NULL after a failed check.
 */
static inline struct hwp_result *stat_work(const char *events, unsigned int runs,
					   const char *mode, uint64_t a, uint64_t b)
{
	char json[] = "/tmp/pmu-stat.XXXXXX", da[24], db[24], dr[24];
	struct hwp_result *r = NULL;
	int status, fd = mkstemp(json);
	char *out;

	if (fd < 0)
		return NULL;
	close(fd);
	snprintf(dr, sizeof(dr), "-r%u", runs ? runs : 1);
	/* "loop" takes one number: the NULL in place of the second ends it. */
	out = hwprof_run(&status, "stat", "--json", "-o", json, "-e", events, dr, "--",
			 env_or_die("PMU_WORK"), mode, digits(a, da),
			 strcmp(mode, "split") ? NULL : digits(b, db), NULL);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "hwprof stat -e %s: status %d: %s", events, status, out ? out : "");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		int err = hwp_result_load(json, &r);

		CHECK(err == 0, "reading hwprof stat's JSON: %s", hwp_errmsg());
	}
	free(out);
	unlink(json);
	return r;
}

/* Row @name of @r: its info, or false after a failed check. */
static inline bool series(const struct hwp_result *r, const char *name,
			  struct hwp_series_info *info)
{
	size_t idx;

	info->sz = sizeof(*info);
	if (!r)
		return false;
	CHECK(hwp_result_find(r, name, &idx) == 0, "no row %s: %s", name, hwp_errmsg());
	if (hwp_result_find(r, name, &idx))
		return false;
	return hwp_result_series(r, idx, info) == 0;
}

/* The value of row @name in run @run, NAN when there is none. */
static inline double value(const struct hwp_result *r, const char *name, size_t run)
{
	struct hwp_series_info info;

	if (!series(r, name, &info) || run >= info.nr_runs)
		return NAN;
	return info.values[run];
}

#endif
