/* SPDX-License-Identifier: MIT */
/* sys.c: perf_event_open itself, and what its permission errors mean. */
#ifndef HWPROF_CORE_SYSCALL_H
#define HWPROF_CORE_SYSCALL_H

#include <hwprof/hwprof.h>

#include <stdbool.h>
#include <sys/types.h>

#include "util/strbuf.h"

long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
int read_paranoid(void);
/* A sentence that explains a permission error and names the fix: of an
 * open for process @pid (0: ours), system-wide or not, that asked for user
 * space alone or not. */
void explain_permission(struct strbuf *sb, const char *what, int err, bool cpu_wide,
			    pid_t pid, bool user_only);

#endif
