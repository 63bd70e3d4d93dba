// SPDX-License-Identifier: MIT
/* Libraries loaded at first use: see dynlib.h. */
#include "util/dynlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

int dynlib_open(const char *soname, const char *what, const char *package,
		const struct dynlib_sym *syms, size_t n, char *err, size_t errlen)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!h) {
		snprintf(err, errlen,
			 "%s (%s) cannot be loaded: %s; install it with: sudo apt-get install %s",
			 what, soname, dlerror(), package);
		return -ELIBACC;
	}
	for (i = 0; i < n; i++) {
		*syms[i].slot = dlsym(h, syms[i].name);
		if (!*syms[i].slot) {
			snprintf(err, errlen, "%s lacks %s: %s is too old", soname,
				 syms[i].name, what);
			return -ELIBACC;
		}
	}
	return 0;
}
