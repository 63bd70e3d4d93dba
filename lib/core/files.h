/* SPDX-License-Identifier: MIT */
/* Files: output files checked before they are created (ofile.c), streams
 * checked after writing (error.c), regular files opened safely, and the
 * limit on descriptors (sys.c). */
#ifndef HWPROF_CORE_FILES_H
#define HWPROF_CORE_FILES_H

#include <hwprof/hwprof.h>
#include "private/hwprof-private.h"

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* Whether a file can be created at @path (its directory exists
 * and takes new files), without creating one: 0, or the error and message
 * hwpriv_ofile_open() would give. Devices and pipes pass: only writing tells. */
int ofile_check(const char *path);
/* hwpriv_ofile_open() for a recording, which holds the program's memory: the
 * file is 0600 whatever the umask, and the commit keeps the non-empty file
 * it replaces as PATH.old, as perf record does. */
int ofile_open_recording(const char *path, struct hwpriv_ofile **out);
/* Flush @f and check it for errors (a full disk): 0 or -errno, with a
 * message that says what to do. */
int stream_check(FILE *f, const char *what);
/* Open @path read-only if it is a regular file, with its size in *@size
 * (@size may be NULL): the fd (blocking, close-on-exec), -EISDIR for a
 * directory, -ENODEV for a FIFO or a device (never waited on), or another
 * -errno. Every open of a path that a recording or a file it names gives
 * goes through here: a hostile perf.data must not hang its reader. */
int open_regular(const char *path, off_t *size);
/* Why a file could not be opened or read, for error @err (-ENODEV: not a
 * regular file, -EFBIG: too large...), as a static string. */
const char *file_open_problem(int err);
/* After the errno text of a failed system call, what to do about @err
 * (negative) when it is a limit (EMFILE, ENFILE): ": ... 'ulimit -n'"; else "". */
const char *resource_advice(int err);
/* Raise RLIMIT_NOFILE to its hard limit: whether it was raised. */
bool raise_nofile(void);

#endif
