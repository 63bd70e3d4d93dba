/* SPDX-License-Identifier: MIT */
/*
 * The core every stage stands on, one header a topic: errors and their
 * messages (error.h), the log (log.h), the write dispatcher (write.h), opts
 * and info structs (opts.h), perf_event_open itself (syscall.h), sysfs
 * (sysfs.h), CPUs and threads (threads.h), files (files.h) and running a
 * command (workload.h). This header includes them all, for the files that
 * have not yet said which they use; a new file includes what it uses.
 */
#ifndef HWPROF_CORE_H
#define HWPROF_CORE_H

#include <hwprof/hwprof.h>
#include "private/hwprof-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/compiler.h"
#include "core/error.h"
#include "core/files.h"
#include "core/log.h"
#include "core/opts.h"
#include "core/syscall.h"
#include "core/sysfs.h"
#include "core/threads.h"
#include "core/workload.h"
#include "core/write.h"
#include "util/strbuf.h"

#endif
