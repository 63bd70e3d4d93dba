// SPDX-License-Identifier: MIT
/* A module's recorded build, by its build-id, from the debuginfod servers
 * that DEBUGINFOD_URLS names, through elfutils' own client (libdebuginfod,
 * the one libdwfl uses), loaded at first use (util/dynlib.h says why). The
 * client keeps its own cache ($DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client). A server is trusted with nothing: what it
 * sends is used only when its build-id is the one asked for. */
#include "profile/symbolize.h"
#include "util/dynlib.h"

#include <elfutils/debuginfod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEBUGINFOD_FUNCS(X)                                                  \
	X(debuginfod_begin) X(debuginfod_end) X(debuginfod_find_executable)  \
	X(debuginfod_find_debuginfo)

#define WHAT "elfutils' debuginfod client"
DYNLIB(DEBUGINFOD_FUNCS, DEBUGINFOD_SONAME, WHAT, "libdebuginfod1")

static int fetch(const struct pd_build_id *id, bool debuginfo, char **path)
{
	debuginfod_client *c = dl.debuginfod_begin();
	int fd;

	if (!c)
		return -ENOMEM;
	fd = (debuginfo ? dl.debuginfod_find_debuginfo :
			  dl.debuginfod_find_executable)(c, id->data, id->size, path);
	dl.debuginfod_end(c);
	return fd;
}

int debuginfod_fetch(const struct pd_build_id *id, bool debuginfo, char *path,
		     size_t size, char *why, size_t whylen)
{
	struct pd_build_id got;
	char *cached = NULL;
	int fd;

	if (!debuginfod_wanted()) {
		snprintf(why, whylen, "DEBUGINFOD_URLS names no server");
		return -ENOSYS;
	}
	if (dl_load()) {
		snprintf(why, whylen, "%s", dl_load());
		return -ELIBACC;
	}
	fd = fetch(id, debuginfo, &cached);
	if (fd < 0) {
		if (fd == -ENOENT)
			snprintf(why, whylen,
				 "the servers of DEBUGINFOD_URLS have no %s of that build-id (HTTP 404)",
				 debuginfo ? "debug file" : "executable");
		else
			snprintf(why, whylen,
				 "the servers of DEBUGINFOD_URLS could not be asked: %s",
				 errno_text(fd));
		free(cached);
		return fd;
	}
	if (pd_build_id_of_fd(fd, &got) || !pd_build_id_eq(&got, id)) {
		snprintf(why, whylen,
			 "the server of DEBUGINFOD_URLS sent a file that is not that build (not ELF, or another build-id): %s",
			 cached ? cached : "?");
		free(cached);
		close(fd);
		return -HWP_ERR_FORMAT;
	}
	snprintf(path, size, "%s", cached ? cached : "");
	free(cached);
	return fd;
}
