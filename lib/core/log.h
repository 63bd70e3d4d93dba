/* SPDX-License-Identifier: MIT */
/* log.c: the library's log, through the one callback (hwp_set_log_fn). */
#ifndef HWPROF_CORE_LOG_H
#define HWPROF_CORE_LOG_H

#include <hwprof/hwprof.h>

#include "core/compiler.h"

void lib_log(enum hwp_log_level level, const char *fmt, ...) HWP_PRINTF(2, 3);
#define pr_warn(...) lib_log(HWP_LOG_WARN, __VA_ARGS__)
#define pr_info(...) lib_log(HWP_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) lib_log(HWP_LOG_DEBUG, __VA_ARGS__)

#endif
