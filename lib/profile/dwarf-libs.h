// SPDX-License-Identifier: MIT
/* libdw and libelf as the files built with libdw call them (dwarf-libs.c
 * loads them on first use; a build without libdw has dwarf-stub.c and no
 * use of this header). */
#ifndef HWPROF_DWARF_LIBS_H
#define HWPROF_DWARF_LIBS_H

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

/* The functions used, with the headers' own types. */
#define DW_FUNCS(X)                                                          \
	X(dwfl_begin) X(dwfl_end) X(dwfl_report_begin) X(dwfl_report_elf)    \
	X(dwfl_report_end) X(dwfl_module_getelf) X(dwfl_module_getsymtab)    \
	X(dwfl_module_getdwarf) X(dwfl_module_addrinfo)                      \
	X(dwfl_module_getsym_info) X(dwfl_module_addrdie)                    \
	X(dwfl_module_getsrc) X(dwfl_lineinfo) X(dwfl_line_comp_dir)         \
	X(dwarf_tag) X(dwarf_attr_integrate)                                 \
	X(dwarf_formstring) X(dwarf_formudata) X(dwfl_build_id_find_elf)     \
	X(dwfl_standard_find_debuginfo) X(dwfl_offline_section_address)      \
	X(dwarf_getelf) X(dwarf_child) X(dwarf_siblingof) X(dwarf_haspc)     \
	X(dwarf_attr) X(dwarf_getsrcfiles) X(dwarf_filesrc)                  \
	X(dwfl_module_build_id) X(dwfl_module_eh_cfi) X(dwfl_module_dwarf_cfi)  \
	X(dwarf_cfi_addrframe) X(dwarf_frame_info) X(dwarf_frame_register)   \
	X(dwarf_frame_cfa)                                                   \
	X(dwelf_elf_gnu_build_id) X(dwfl_module_info)
#define ELF_FUNCS(X)                                                         \
	X(gelf_getehdr) X(elf_getphdrnum) X(gelf_getphdr) X(elf_nextscn)     \
	X(gelf_getshdr) X(elf_getdata) X(elf_rawfile) X(elf_getshdrstrndx)   \
	X(elf_strptr) X(elf_compress) X(elf_begin) X(elf_end) X(elf_ndxscn)

struct dw_funcs {
#define X(fn) __typeof__(fn) *fn;
	DW_FUNCS(X) ELF_FUNCS(X)
#undef X
};
extern struct dw_funcs dw;
/* Load them into dw: 0, or -ELIBACC when libdw cannot be loaded (the reason
 * is logged once). Thread-safe. */
int dw_load(void);

/* ---- dwarf-debug-copy.c ---- */

/* Module @mod's copy of its debug file from the cache, if one is there and
 * of its build-id: an fd open on it, its path in *@file_name; else -1. */
int debug_copy_open(Dwfl_Module *mod, char **file_name);
/* Write module @mod's copy of its debug file, with its compressed sections
 * stored decompressed, into the cache, where it is worth it. */
void debug_copy_make(Dwfl_Module *mod);

#endif
