// SPDX-License-Identifier: MIT
/* LD_PRELOAD shim around perf_event_open, for the error paths the kernel
 * will not produce on demand. HWPROF_SHIM selects the fault:
 *   eacces-kernel  EACCES unless the event excludes the kernel (paranoid 2)
 *   eacces         EACCES always
 *   emfile         EMFILE always
 *   ebusy          EBUSY for hardware events, the rest pass
 * Anything else passes every call to the kernel. */
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

long syscall(long number, ...);

long syscall(long number, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_perf_event_open) {
		const char *mode = getenv("HWPROF_SHIM");
		const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];

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
		if (mode && !strcmp(mode, "ebusy") && attr->type != PERF_TYPE_SOFTWARE) {
			errno = EBUSY;
			return -1;
		}
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
