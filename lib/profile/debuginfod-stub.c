// SPDX-License-Identifier: MIT
/* Built without elfutils' debuginfod client: debuginfod is not asked. */
#include "profile/symbolize.h"

#include <stdio.h>

int debuginfod_fetch(const struct pd_build_id *id, bool debuginfo, char *path,
		     size_t size, char *why, size_t whylen)
{
	(void)id, (void)debuginfo, (void)path, (void)size;
	if (!debuginfod_wanted()) {
		snprintf(why, whylen, "DEBUGINFOD_URLS names no server");
		return -ENOSYS;
	}
	snprintf(why, whylen,
		 "this hwprof was built without elfutils' debuginfod client: install libdebuginfod-dev and rebuild (meson option -Ddebuginfod=enabled)");
	return -EOPNOTSUPP;
}
