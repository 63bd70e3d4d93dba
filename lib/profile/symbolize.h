/* SPDX-License-Identifier: MIT */
/* Private to the profile stage: where a module's symbols, source lines and
 * code come from (the kernel's code, a JIT's map, debuginfod), and the
 * symbolizer that asks them for an address of a recording's machine. */
#ifndef HWPROF_PROFILE_SYMBOLIZE_H
#define HWPROF_PROFILE_SYMBOLIZE_H

#include "sample/sample.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct dw_module;

/* ---- kcode.c: the kernel's code, from /proc/kcore or a vmlinux ---- */

struct kcode;

/* The ELF file at @path (its PT_LOAD segments): -errno, -HWP_ERR_FORMAT. */
int kcode_open(const char *path, struct kcode **out);
void kcode_close(struct kcode *k);
int kcode_machine(const struct kcode *k);
/* Up to @len bytes at @vaddr, within one segment: the count, or -ENOENT
 * where no segment has it, -EIO. */
ssize_t kcode_read(struct kcode *k, uint64_t vaddr, void *buf, size_t len);
/* The value of symbol @name in the file's symbol table: 0, -ENOENT. */
int kcode_symbol(struct kcode *k, const char *name, uint64_t *addr);

/* ---- symbolize.c ---- */

/* What an address is, as far as the symbols and debug info tell. */
struct symbol_info {
	const char *symbol;	/* interned; NULL when unknown */
	uint64_t sym_start;	/* the symbol's address in the module */
	uint64_t sym_size;
	uint64_t vaddr;		/* the address as objdump shows it (the module's own) */
	/* a file's address whose segments could not be read: vaddr is its
	 * offset in the file, not objdump's address */
	bool no_vaddr;
	const char *file;	/* source file, interned; NULL when unknown */
	unsigned int line;
};

/* A function inlined at an address (symbolize_inlines). */
struct inline_frame {
	const char *name;	/* interned, demangled as symbols are */
	/* where the function it was inlined into called it: the file
	 * (interned) and line, or NULL and 0 where DWARF does not say */
	const char *call_file;
	unsigned int call_line;
};

struct symbolizer;

/* @kallsyms: where the kernel's symbols are (see hwp_profile_opts). */
int symbolizer_new(struct machine *m, const char *kallsyms, struct symbolizer **out);
/* Whether ELF symbols' names are demangled (C++, Rust): the default; the
 * kernel's are shown as kallsyms spells them. Set before the first lookup. */
void symbolizer_set_demangle(struct symbolizer *s, bool demangle);
/* Whether this machine's kernel symbols may come from the cache of them
 * (ksyms_load()); the default. Set before the first lookup. */
void symbolizer_set_kallsyms_cache(struct symbolizer *s, bool use);
/* Whether modules' debug files may be read from, and kept in, the cache of
 * their decompressed copies (dwarf.c); the default. Set before the first
 * lookup. */
void symbolizer_set_debug_cache(struct symbolizer *s, bool use);
/* Start reading the kernel's symbols on a thread of their own, while the
 * caller reads the samples: on a machine of two CPUs, /proc/kallsyms alone
 * (the kernel formats 5 MB of it) costs as much as 100,000 samples. */
void symbolizer_prefetch_kernel(struct symbolizer *s);
/* Before the records: whether the kernel symbols @s reads are the
 * recording's kernel's, by the build-id the file names of it (@recorded,
 * or NULL) and its release (@osrelease, or NULL); when they are not, no
 * kernel address is named, and symbolizer_kernel_refused() says why. */
int symbolizer_choose_kernel(struct symbolizer *s, const struct pd_build_id *recorded,
			     const char *osrelease);
const char *symbolizer_kernel_refused(const struct symbolizer *s);
/* The kernel's code from the vmlinux at @path rather than /proc/kcore. */
int symbolizer_set_vmlinux(struct symbolizer *s, const char *path);
/* Why the code of kernel module @dso cannot be read, or NULL. */
const char *symbolize_code_problem(struct symbolizer *s, uint32_t dso);
void symbolizer_free(struct symbolizer *s);
/* The symbol of @loc (and with @lines its source line and inline). */
int symbolize(struct symbolizer *s, const struct location *loc, bool lines,
	      struct symbol_info *out);
/* The same for a module address (symbol_info.vaddr) rather than a location. */
int symbolize_vaddr(struct symbolizer *s, uint32_t dso, uint64_t vaddr, bool lines,
		    struct symbol_info *out);
/* The functions inlined at module address @vaddr of @dso, the innermost
 * first, as DWARF says (none without it): 0 and *@nr of them in *@out
 * (free() it), or -ENOMEM. */
int symbolize_inlines(struct symbolizer *s, uint32_t dso, uint64_t vaddr,
		      struct inline_frame **out, size_t *nr);
/* Fill @dso's has_symbols and, with @lines, has_debuginfo, and the reasons
 * why not. Debug information is only looked for when asked: loading it
 * (often compressed) costs more than a report by symbol. */
void symbolize_check(struct symbolizer *s, uint32_t dso, bool lines);
/* Up to @len bytes of code at module address @vaddr of @dso: the count read. */
ssize_t symbolize_read_code(struct symbolizer *s, uint32_t dso, uint64_t vaddr, void *buf,
			    size_t len);
/* The ELF machine (EM_X86_64...) of @dso, or 0 when unknown. */
int symbolize_elf_machine(struct symbolizer *s, uint32_t dso);
/* @dso's module (opened on first use, as for symbols), or NULL when it
 * cannot be read (symbolize_check() says why). Borrowed. */
struct dw_module *symbolize_module(struct symbolizer *s, uint32_t dso);
/* Interned copies of strings, shared by symbols, files and report keys. */
const char *symbolize_intern(struct symbolizer *s, const char *str);

/* ---- jitmap.c: the symbols a JIT writes for perf, /tmp/perf-PID.map ---- */

struct jit_map;

/* Read the map at @path: 0, or a negative error with, in *@problem, why
 * (static) - also when it has no entry (then 0 and an empty map). */
int jit_map_open(const char *path, struct jit_map **out, const char **problem);
void jit_map_close(struct jit_map *j);
/* The function at @addr: its name (borrowed from @j), start and size. */
int jit_map_symbol(const struct jit_map *j, uint64_t addr, const char **name,
		   uint64_t *start, uint64_t *size);

/* ---- debuginfod.c (libdebuginfod) or debuginfod-stub.c ---- */

/* DEBUGINFOD_URLS names a server to ask (whether this build can ask it). */
static inline bool debuginfod_wanted(void)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	return urls && urls[strspn(urls, " \t")];
}

/* The file of build-id @id that debuginfod's servers keep, the module
 * itself (@debuginfo false) or its debug file, fetched through elfutils'
 * client into its cache ($DEBUGINFOD_CACHE_PATH): an fd open on it (the
 * caller's), its path in @path; or a negative error, with in @why what
 * failed: -ENOSYS no server named, -ENOENT none has it (HTTP 404),
 * -HWP_ERR_FORMAT a file that is not that build, -ELIBACC or -EOPNOTSUPP
 * no client (and what to install), another -errno the servers' failure. */
int debuginfod_fetch(const struct pd_build_id *id, bool debuginfo, char *path,
		     size_t size, char *why, size_t whylen);

#endif
