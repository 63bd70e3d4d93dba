/* SPDX-License-Identifier: MIT */
/* The library's macros of the compiler: attributes, symbol versions. */
#ifndef HWPROF_CORE_COMPILER_H
#define HWPROF_CORE_COMPILER_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HWP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* For a function that a version reshaped, whose older version compat.c
 * keeps (libhwprof.sym): @impl is exported as @name, the default version,
 * of node @node. Linking against the library, or the tests against its
 * objects, @name is @impl. */
#define HWP_SYMVER_DEFAULT(impl, name, node) __asm__(".symver " #impl "," #name "@@" node)
/* Thread-local variables on the hot path. Not initial-exec: that would put
 * the library's whole TLS block (4 KiB of error message) in the static TLS
 * that a dlopen() after start-up cannot get (Python's ctypes loads it so);
 * TLS descriptors (-mtls-dialect=gnu2, lib/meson.build) keep an access from
 * a library loaded at start-up to one indirect call, no __tls_get_addr. */
#define HWP_TLS _Thread_local
/* For a rarely taken path with kilobytes of buffers on its stack: inlined,
 * they would push every call below its caller that much deeper, onto
 * stack pages touched for the first time (a page fault each, tens of
 * microseconds in a VM). */
#define COLD_FRAME __attribute__((noinline, cold))
/* The same for a path that is not rare: its buffers in a frame of its own,
 * not in its callers', under which everything they call would run. */
#define OWN_FRAME __attribute__((noinline))

#endif
