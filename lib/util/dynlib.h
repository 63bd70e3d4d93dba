/* SPDX-License-Identifier: MIT */
/* Libraries loaded at their first use, not linked. A linked library costs
 * every start of hwprof its loading and relocations, stat's included, for
 * code that only some commands run: libpfm4 (~41,000 relocations), libdw,
 * capstone (~77,000), libunwind (with liblzma), libzstd and zlib. Each user
 * keeps its table of functions (the headers' own types) and resolves it
 * once, under its own pthread_once. */
#ifndef HWPROF_UTIL_DYNLIB_H
#define HWPROF_UTIL_DYNLIB_H

#include <stddef.h>

struct dynlib_sym {
	const char *name;	/* the exported symbol */
	void **slot;		/* where its address goes */
};

/* Open @soname (kept open for the life of the process) and resolve every
 * symbol of @syms: 0, or -ELIBACC with the reason in @err (@what names the
 * library to a user; @package is the Debian package that provides it), as
 * "WHAT (SONAME) cannot be loaded: WHY; install it with: sudo apt-get
 * install PACKAGE" or "SONAME lacks SYMBOL: WHAT is too old". */
int dynlib_open(const char *soname, const char *what, const char *package,
		const struct dynlib_sym *syms, size_t n, char *err, size_t errlen);

#define DYNLIB_STR_(x) #x
/* The symbol's name after macro expansion (libunwind's unw_step is
 * _Ux86_64_step). */
#define DYNLIB_STR(x) DYNLIB_STR_(x)

#endif
