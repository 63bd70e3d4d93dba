/* SPDX-License-Identifier: MIT */
/* Libraries loaded at their first use, not linked. A linked library costs
 * every start of hwprof its loading and relocations, stat's included, for
 * code that only some commands run: libpfm4 (~41,000 relocations), libdw,
 * capstone (~77,000), libunwind (with liblzma), libzstd and zlib. Each user
 * keeps its table of functions (the headers' own types) and resolves it
 * once, under its own pthread_once. */
#ifndef HWPROF_UTIL_DYNLIB_H
#define HWPROF_UTIL_DYNLIB_H

#include <pthread.h>
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

#define DYNLIB_FIELD_(fn) __typeof__(fn) *fn;
#define DYNLIB_SYM_(fn) { DYNLIB_STR(fn), (void **)&dl.fn },

/* In a file that loads one library at its first use: `dl`, a struct of the
 * functions FUNCS lists (FUNCS(X) expands to X(fn) for each), called as
 * dl.fn(...) with the headers' own types, and dl_load(), which loads the
 * library once (thread-safe) and returns NULL, or why it cannot be. */
#define DYNLIB(FUNCS, soname, what, package)                                 \
	static struct {                                                      \
		FUNCS(DYNLIB_FIELD_)                                         \
	} dl;                                                                \
	static char dl_error[512];                                           \
	static void dl_load_once(void)                                       \
	{                                                                    \
		static const struct dynlib_sym syms[] = { FUNCS(DYNLIB_SYM_) }; \
									     \
		dynlib_open(soname, what, package, syms,                     \
			    sizeof(syms) / sizeof(syms[0]), dl_error,        \
			    sizeof(dl_error));                               \
	}                                                                    \
	static const char *dl_load(void)                                     \
	{                                                                    \
		static pthread_once_t once = PTHREAD_ONCE_INIT;              \
									     \
		pthread_once(&once, dl_load_once);                           \
		return dl_error[0] ? dl_error : NULL;                        \
	}

#endif
