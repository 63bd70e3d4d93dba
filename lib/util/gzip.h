/* SPDX-License-Identifier: MIT */
/* A gzip stream (RFC 1952) onto a FILE, through zlib's deflate. */
#ifndef HWPROF_UTIL_GZIP_H
#define HWPROF_UTIL_GZIP_H

#include <stddef.h>
#include <stdio.h>

struct gz_writer;

/* Why zlib cannot be loaded (it is loaded at the first use), or NULL. */
const char *gz_unavailable(void);
/* 0, or -ENOMEM, -ELIBACC when zlib cannot be loaded (gz_unavailable()). */
int gz_begin(FILE *f, struct gz_writer **out);
/* Compress @len bytes of @data onto the stream: 0, or -EIO when writing
 * to the FILE failed, -ENOMEM; the error is sticky. */
int gz_write(struct gz_writer *gz, const void *data, size_t len);
/* Finish the stream (its trailer) and free @gz, also after an error: the
 * first error, or 0. NULL is fine. */
int gz_finish(struct gz_writer *gz);

#endif
