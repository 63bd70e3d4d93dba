/* SPDX-License-Identifier: MIT */
/* Symbol names as their language writes them: C++ (the Itanium ABI's
 * _Z...), Rust (legacy _ZN...17h<hash>E and v0 _R...), through libiberty's
 * demanglers, the ones binutils and GDB use (demangle.c), or none in a
 * build without libiberty (demangle-stub.c). */
#ifndef HWPROF_UTIL_DEMANGLE_H
#define HWPROF_UTIL_DEMANGLE_H

#include <stdbool.h>

struct strbuf;

/* Whether @name may be mangled at all: a cheap test before demangle(). */
static inline bool demangle_candidate(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

/* Append @name demangled to @sb, as perf report shows it: without the
 * parameters of C++ functions, without the hash of legacy Rust names.
 * False when @name is not mangled, cannot be demangled (malformed, or
 * longer than hwprof demangles), or this build has no demangler; @sb is
 * unchanged then. Nothing is allocated but @sb's growth; thread-safe. */
bool demangle(const char *name, struct strbuf *sb);

/* Why this build does not demangle, or NULL when it does. */
const char *demangle_unavailable(void);

#endif
