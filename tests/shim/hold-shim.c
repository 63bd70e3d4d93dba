// SPDX-License-Identifier: MIT
/* LD_PRELOAD shim that holds the hwprof command's calls of
 * hwp_profile_load(), for tests of what happens while a file is being
 * read (record --rotate --format pprof converting, stopped by Ctrl-C):
 *   HWPROF_HOLD_LOG=PATH   each call appends "load FILE" to PATH first
 *   HWPROF_HOLD_FIFO=PATH  then waits until a byte can be read from the
 *                          FIFO PATH (a test that never writes one holds
 *                          the call for good)
 * Without them every call passes. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct hwp_profile;
struct hwp_profile_opts;

int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
		     struct hwp_profile **out);

static void hold(const char *path)
{
	const char *log = getenv("HWPROF_HOLD_LOG");
	const char *fifo = getenv("HWPROF_HOLD_FIFO");
	char c;
	int fd;

	fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
	if (fd >= 0) {
		dprintf(fd, "load %s\n", path);
		close(fd);
	}
	/* read and write: the open does not wait for a writer, the read
	 * waits for a byte (no end of file when a writer closes) */
	if (fifo && (fd = open(fifo, O_RDWR | O_CLOEXEC)) >= 0) {
		if (read(fd, &c, 1) < 0)
			perror(fifo);
		close(fd);
	}
}

int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
		     struct hwp_profile **out)
{
	int (*real)(const char *, const struct hwp_profile_opts *, struct hwp_profile **);

	*(void **)&real = dlsym(RTLD_NEXT, "hwp_profile_load");
	hold(path);
	return real ? real(path, opts, out) : -38;	/* -ENOSYS */
}
