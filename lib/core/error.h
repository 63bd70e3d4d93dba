/* SPDX-License-Identifier: MIT */
/* error.c: the thread's detailed message of a failure, and the words of
 * errors for messages. */
#ifndef HWPROF_CORE_ERROR_H
#define HWPROF_CORE_ERROR_H

#include "core/compiler.h"

/* The thread's detailed message; each returns -err unchanged. */
int fail(int err, const char *fmt, ...) HWP_PRINTF(2, 3);
void clear_error(void);
/* A failure's error and message, kept while the failing call cleans up
 * with functions that may set messages of their own, or kept by an object
 * whose every later call fails the same way. */
#define HWP_ERRMSG_MAX 4096
struct kept_error {
	int err;
	char msg[HWP_ERRMSG_MAX];
};
void error_keep(struct kept_error *k, int err);
/* Set the kept message again; returns the kept error. */
int error_restore(const struct kept_error *k);
/* The text of errno @err (either sign) for a message: never NULL, whatever
 * the code (0, unknown, or one of hwprof's own): strerrordesc_np() gives
 * NULL for those, which printf shows as "(null)". */
const char *errno_text(int err);
/* Keep the message a callee set, adding context in front: "ctx: old". */
int fail_prefix(int err, const char *fmt, ...) HWP_PRINTF(2, 3);
/* What to do when writing a file failed with @err (negative), for messages. */
const char *write_advice(int err);

#endif
