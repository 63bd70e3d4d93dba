/* SPDX-License-Identifier: MIT */
/* Private to the profile stage: one ELF module read with libdw (dwarf.c),
 * or without it (dwarf-stub.c): symbols, lines, inlines, code and CFI. */
#ifndef HWPROF_PROFILE_DWARF_H
#define HWPROF_PROFILE_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- dwarf.c (libdw) or dwarf-stub.c: one ELF module ---- */

struct dw_module;

/* @debug_cache: whether its separate debug file may be read from, and kept
 * in, the cache of decompressed copies (hwp_profile_opts.no_debug_cache).
 * -ENOENT (no such file), -ENODEV (not a regular file: a FIFO, a device),
 * -HWP_ERR_FORMAT (not ELF), -EOPNOTSUPP (no libdw). */
int dw_module_open(const char *path, int fd, bool debug_cache, struct dw_module **out);
void dw_module_close(struct dw_module *m);
/* The module address of file offset @off, through the loadable segments. */
bool dw_module_vaddr(struct dw_module *m, uint64_t off, uint64_t *vaddr);
bool dw_module_has_symbols(struct dw_module *m);
bool dw_module_has_debuginfo(struct dw_module *m);
int dw_module_elf_machine(struct dw_module *m);
/* Symbol at @vaddr: its name (borrowed from libdw), start and size. */
int dw_module_symbol(struct dw_module *m, uint64_t vaddr, const char **name,
		     uint64_t *start, uint64_t *size);
/* Source line at @vaddr; the file is borrowed from libdw. */
int dw_module_srcline(struct dw_module *m, uint64_t vaddr, const char **file,
		      unsigned int *line);
/* One function inlined at an address (dw_module_inlines): its name (NULL
 * where DWARF gives none), and where the function it was inlined into
 * called it (DW_AT_call_file, DW_AT_call_line; NULL and 0 where DWARF does
 * not say). The strings live until the next call into the module. */
typedef int (*dw_inline_fn)(const char *name, const char *call_file,
			    unsigned int call_line, void *ctx);
/* @fn gets each function inlined at @vaddr, the innermost first, as
 * DWARF's nested scopes say; none without debug information. 0, -ENOMEM,
 * or @fn's non-zero return. */
int dw_module_inlines(struct dw_module *m, uint64_t vaddr, dw_inline_fn fn, void *ctx);
ssize_t dw_module_read(struct dw_module *m, uint64_t vaddr, void *buf, size_t len);
/* The module's .eh_frame_hdr (PT_GNU_EH_FRAME): its address and size;
 * false when it has none. */
bool dw_module_eh_frame_hdr(struct dw_module *m, uint64_t *vaddr, uint64_t *size);
/* The module's .debug_frame (or its debug file's), borrowed, and its
 * addresses' size: false where neither has one. */
bool dw_module_debug_frame(struct dw_module *m, const void **data, size_t *size,
			   unsigned int *addr_size);
/* The module addresses its loadable segments' file bytes cover. */
bool dw_module_span(struct dw_module *m, uint64_t *lo, uint64_t *hi);
/* @len bytes at module address @vaddr, from the segments' file bytes
 * (not .bss): 0, or -ENOENT when the file does not hold them all. */
int dw_module_read_image(struct dw_module *m, uint64_t vaddr, void *buf, size_t len);
/* Where the CFI (.eh_frame, else .debug_frame) of the function at @vaddr
 * keeps the return address there: still in the register it came in, whose
 * DWARF number is set in @ra_reg (arm64's link register before the
 * prologue saves it, and after the epilogue restores it); saved elsewhere;
 * or undefined (the outermost frame). -ENOENT where no CFI covers @vaddr,
 * -EOPNOTSUPP without libdw. */
enum { DW_RA_IN_REGISTER = 1, DW_RA_ELSEWHERE, DW_RA_UNDEFINED };
int dw_module_ra_rule(struct dw_module *m, uint64_t vaddr, int *ra_reg);
/* Where the return address is saved at @vaddr by the CFI, when it is at an
 * offset of a CFA that is a register plus an offset (x86-64's rule in every
 * function, saved by the call): that register's DWARF number in @base,
 * and the address's offset from its value in @offset. 0; -ENOENT for any
 * other rule, or without CFI at @vaddr; -EOPNOTSUPP without libdw. */
int dw_module_ra_slot(struct dw_module *m, uint64_t vaddr, int *base, int64_t *offset);

#endif
