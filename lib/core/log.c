// SPDX-License-Identifier: MIT
#include "core/core.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static hwp_log_fn log_fn;
static void *log_ctx;
static atomic_int log_level = -1;	/* -1: not read from the environment yet */

static void log_default(enum hwp_log_level level, const char *msg, void *ctx)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "debug: " };

	(void)ctx;
	fprintf(stderr, "hwprof: %s%s\n", prefix[level], msg);
	fflush(stderr);
}

static int level_from_env(void)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	const char *v = getenv("HWPROF_LOG_LEVEL");

	if (!v || !*v)
		return HWP_LOG_WARN;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(v, names[i]) || (v[0] == (char)('0' + i) && !v[1]))
			return (int)i;
	return HWP_LOG_WARN;
}

HWP_API void hwp_log_set(hwp_log_fn fn, void *ctx)
{
	pthread_mutex_lock(&log_lock);
	log_fn = fn;
	log_ctx = ctx;
	pthread_mutex_unlock(&log_lock);
}

HWP_API void hwp_log_set_level(enum hwp_log_level level)
{
	if ((int)level < HWP_LOG_ERROR)
		level = HWP_LOG_ERROR;
	if (level > HWP_LOG_DEBUG)
		level = HWP_LOG_DEBUG;
	atomic_store(&log_level, (int)level);
}

void lib_log(enum hwp_log_level level, const char *fmt, ...)
{
	int max = atomic_load(&log_level);
	hwp_log_fn fn;
	void *ctx;
	char msg[2048];
	va_list ap;

	if (max < 0) {
		int env = level_from_env();

		/* Whoever set a level first wins over the environment. */
		atomic_compare_exchange_strong(&log_level, &max, env);
		max = atomic_load(&log_level);
	}
	if ((int)level > max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&log_lock);
	fn = log_fn ? log_fn : log_default;
	ctx = log_ctx;
	pthread_mutex_unlock(&log_lock);
	fn(level, msg, ctx);
}
