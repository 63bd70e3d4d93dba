/* SPDX-License-Identifier: MIT */
/* sys.c: the CPUs and threads measured, and the clock. */
#ifndef HWPROF_CORE_THREADS_H
#define HWPROF_CORE_THREADS_H

#include <stddef.h>
#include <sys/types.h>

int online_cpus(int **cpus, size_t *nr);
/* Parse a CPU list such as "0-3,6" against the online CPUs: *@cpus, a
 * malloc'ed ascending array without duplicates, of *@nr. Errors:
 * -HWP_ERR_SYNTAX, -ENODEV for a CPU that is not online (the message lists
 * the online ones), -ENOMEM. */
int cpus_parse(const char *list, int **cpus, size_t *nr);
double now_seconds(void);	/* CLOCK_MONOTONIC seconds */
/* The threads of process @pid, from /proc: a malloc'ed array in *@tids
 * (free it, even on failure). -ESRCH when the process is gone. */
int list_threads(pid_t pid, pid_t **tids, size_t *nr);

#endif
