// SPDX-License-Identifier: MIT
/* LD_PRELOAD shim around perf_event_open, for the error paths the kernel
 * will not produce on demand. HWPROF_SHIM selects the fault:
 *   eacces-kernel  EACCES unless the event excludes the kernel (paranoid 2)
 *   eacces         EACCES always
 *   emfile         EMFILE always
 *   emfile-once[:N] EMFILE for the first call after the mode was set (a new
 *                  N sets it anew), as when a raised RLIMIT_NOFILE makes room
 *   ebusy          EBUSY for hardware events, the rest pass
 *   precise        EOPNOTSUPP for precise_ip > 0 (a PMU without precise
 *                  sampling), as for cycles:P on a virtual machine
 *   no-lost        EINVAL for read_format PERF_FORMAT_LOST (kernels < 6.0)
 *   no-pidfd       pidfd_open fails with ENOSYS, as on Linux < 5.3 or under
 *                  valgrind 3.19; perf_event_open passes
 *   log=PATH       every call passes, and appends "TYPE CONFIG" to PATH: what
 *                  was opened, for tests that count opens
 *   pinned-full    a pinned counter of one task on any CPU, not inherited,
 *                  opens, but every read() of it returns 0 bytes: the
 *                  kernel's answer for a pinned event it could not put on
 *                  the PMU (error state), as when a PMU has too few counters
 *                  for the pinned events of a thread twice
 * Anything else passes every call to the kernel. */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

long syscall(long number, ...);
ssize_t read(int fd, void *buf, size_t count);
int close(int fd);

/* pinned-full: the fds that read as a pinned event in error state. */
static bool in_error[4096];

static void mark_error(long fd, const struct perf_event_attr *attr, int cpu)
{
	if (fd >= 0 && fd < 4096)
		in_error[fd] = attr->pinned && !attr->inherit && cpu == -1;
}

ssize_t read(int fd, void *buf, size_t count)
{
	static ssize_t (*real)(int, void *, size_t);

	if (fd >= 0 && fd < 4096 && in_error[fd])
		return 0;
	if (!real)
		real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	return real(fd, buf, count);
}

int close(int fd)
{
	static int (*real)(int);

	if (fd >= 0 && fd < 4096)
		in_error[fd] = false;
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "close");
	return real(fd);
}

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_pidfd_open) {
		const char *mode = getenv("HWPROF_SHIM");

		if (mode && !strcmp(mode, "no-pidfd")) {
			errno = ENOSYS;
			return -1;
		}
	}
	if (number == SYS_perf_event_open) {
		static char last_mode[32];
		const char *mode = getenv("HWPROF_SHIM");
		const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];
		bool first = false;

		if (mode && strncmp(mode, last_mode, sizeof(last_mode) - 1)) {
			snprintf(last_mode, sizeof(last_mode), "%s", mode);
			first = true;
		}
		if (mode && !strncmp(mode, "emfile-once", 11) && first) {
			errno = EMFILE;
			return -1;
		}
		if (mode && !strcmp(mode, "precise") && attr->precise_ip > 0) {
			errno = EOPNOTSUPP;
			return -1;
		}
		if (mode && !strcmp(mode, "no-lost") &&
		    (attr->read_format & PERF_FORMAT_LOST)) {
			errno = EINVAL;
			return -1;
		}

		if (mode && !strcmp(mode, "eacces")) {
			errno = EACCES;
			return -1;
		}
		if (mode && !strcmp(mode, "eacces-kernel") && !attr->exclude_kernel) {
			errno = EACCES;
			return -1;
		}
		if (mode && !strcmp(mode, "emfile")) {
			errno = EMFILE;
			return -1;
		}
		if (mode && !strncmp(mode, "log=", 4)) {
			FILE *log = fopen(mode + 4, "a");

			if (log) {
				fprintf(log, "%u %llu\n", attr->type,
					(unsigned long long)attr->config);
				fclose(log);
			}
		}
		if (mode && !strcmp(mode, "ebusy") && attr->type != PERF_TYPE_SOFTWARE) {
			errno = EBUSY;
			return -1;
		}
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (number == SYS_perf_event_open) {
		const char *mode = getenv("HWPROF_SHIM");
		long fd = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);

		if (mode && !strcmp(mode, "pinned-full"))
			mark_error(fd, (const struct perf_event_attr *)a[0], (int)a[2]);
		return fd;
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
