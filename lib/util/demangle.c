// SPDX-License-Identifier: MIT
/* Demangling with libiberty, linked statically (Debian: libiberty-dev).
 *
 * Why libiberty: its cplus_demangle_v3_callback() is the Itanium
 * demangler of binutils, GDB and libstdc++ (whose __cxa_demangle is the
 * same cp-demangle.c), and its rust_demangle_callback() reads both Rust
 * manglings, legacy and v0, which __cxa_demangle does not (it turns a
 * legacy name into "core::fmt::write::h0123456789abcdef" and rejects v0's
 * "_R..."). Both callback forms allocate nothing: libiberty's allocating
 * entry points call xmalloc(), which exits the process when memory runs
 * out, and a library must not. LLVM's demangler reads the same manglings
 * but is C++ and a much larger dependency.
 *
 * The demanglers keep their work on the stack, in proportion to the
 * name's length (about 50 bytes a character): names longer than
 * DEMANGLE_MAX stay mangled, so that a hostile symbol table cannot
 * exhaust a thread's stack. Real names are far shorter (the longest in a
 * Rust or Boost build are some 3,000 characters). */
#include "util/demangle.h"
#include "util/strbuf.h"

#include <libiberty/demangle.h>
#include <string.h>

#define DEMANGLE_MAX 8192

static void append(const char *s, size_t len, void *opaque)
{
	strbuf_add(opaque, s, len);
}

bool demangle(const char *name, struct strbuf *sb)
{
	size_t len = sb->len;

	if (!demangle_candidate(name) || strnlen(name, DEMANGLE_MAX + 1) > DEMANGLE_MAX)
		return false;
	/* Rust first: a legacy Rust name is a valid Itanium name too, whose
	 * last component is the hash, which only the Rust reading drops. */
	if (rust_demangle_callback(name, DMGL_NO_OPTS, append, sb) ||
	    cplus_demangle_v3_callback(name, DMGL_NO_OPTS, append, sb))
		return sb->len > len && !strbuf_failed(sb);
	sb->len = len;	/* a failed attempt may have written part of it */
	if (sb->buf)
		sb->buf[len] = '\0';
	return false;
}

const char *demangle_unavailable(void)
{
	return NULL;
}
