/* SPDX-License-Identifier: MIT */
/* workload.c: what running a command needs inside the library. */
#ifndef HWPROF_CORE_WORKLOAD_H
#define HWPROF_CORE_WORKLOAD_H

#include <hwprof/hwprof.h>

#include <stdint.h>

/* The signals a /proc/PID/status text says have a handler
 * (SigCgt; bit N-1 is signal N), or UINT64_MAX (all) when it says nothing
 * sure: no such line, or not 16 hex digits to the line's end. No stdio,
 * no allocation: the vfork-style child calls it before its exec. */
uint64_t status_sigcgt(const char *status);
/* hwp_workload_wait() as 0.1 had it, which compat.c keeps:
 * waitpid() interrupted by a signal gives -EINTR when *@stop is set. */
int workload_wait(struct hwp_workload *w, int *status, const volatile int *stop);

#endif
