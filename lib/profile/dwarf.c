// SPDX-License-Identifier: MIT
/* One ELF module through elfutils' libdwfl: symbols from .symtab, .dynsym
 * or the separate debug file, source lines and inlines from DWARF. Debug
 * files are found by build-id and .gnu_debuglink under /usr/lib/debug, the
 * way libdwfl's standard callback does. Each module gets a Dwfl of its own
 * at bias 0, so module addresses are the ELF file's own (objdump's).
 *
 * libdw is loaded on first use (dwarf-libs.c). */
#include "profile/dwarf-libs.h"
#include "profile/dwarf.h"
#include "profile/symbolize.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_once_t callbacks_once = PTHREAD_ONCE_INIT;
static char *debuginfo_path;	/* NULL: libdwfl's default, ":.debug:/usr/lib/debug" */
static Dwfl_Callbacks callbacks;

struct load {
	uint64_t offset, filesz, vaddr;
};

struct dw_module {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	int e_machine;
	bool elf_class64;
	struct load *loads;
	size_t nr_loads;
	uint64_t eh_hdr, eh_hdr_size;	/* PT_GNU_EH_FRAME; size 0 without */
	const char *image;	/* the file's bytes (libelf's mapping) */
	size_t image_size;
	int dwarf;		/* -1 not looked for yet, 0 none, 1 found */
	/* its debug file may be read from, and kept in, the cache of copies
	 * (hwp_profile_opts.no_debug_cache) */
	bool debug_cache;
	char path[4096];	/* the last source file, made absolute */
	char call_path[4096];	/* the last inlined call's file, made absolute */
};

/* A module's debug file: its copy in the cache, where its dw_module (the
 * module's userdata) allows it; where libdwfl looks (next to it,
 * /usr/lib/debug); then from debuginfod's servers by the module's
 * build-id, where DEBUGINFOD_URLS names them (libdwfl's own use of
 * debuginfod depends on the environment at the moment libdw is loaded). */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name,
			  const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	struct pd_build_id id = { 0 };
	const unsigned char *bits;
	char path[PATH_MAX], why[768];
	const struct dw_module *m = *userdata;
	GElf_Addr at;
	int n, fd = m && m->debug_cache ? debug_copy_open(mod, debuginfo_file_name) : -1;

	if (fd >= 0)
		return fd;
	fd = dw.dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name,
					     debuglink_file, debuglink_crc,
					     debuginfo_file_name);
	if (fd >= 0 || !debuginfod_wanted())
		return fd;
	n = dw.dwfl_module_build_id(mod, &bits, &at);
	if (n <= 0 || n > PD_BUILD_ID_MAX)
		return fd;
	id.size = (uint8_t)n;
	memcpy(id.data, bits, (size_t)n);
	n = debuginfod_fetch(&id, true, path, sizeof(path), why, sizeof(why));
	if (n < 0) {
		pr_debug("the debug file of %s: %s", file_name ? file_name : modname,
			 why);
		return fd;
	}
	free(*debuginfo_file_name);
	*debuginfo_file_name = strdup(path);
	return n;
}

/* libdwfl's callbacks, once libdw is loaded. */
static void callbacks_init(void)
{
	callbacks.find_elf = dw.dwfl_build_id_find_elf;
	callbacks.find_debuginfo = find_debuginfo;
	callbacks.section_address = dw.dwfl_offline_section_address;
	callbacks.debuginfo_path = &debuginfo_path;
}

/* libdw loaded and its callbacks set: 0, or dw_load()'s error. */
static int load(void)
{
	int err = dw_load();

	if (!err)
		pthread_once(&callbacks_once, callbacks_init);
	return err;
}

static int read_loads(struct dw_module *m)
{
	GElf_Ehdr eh;
	size_t n;

	if (!dw.gelf_getehdr(m->elf, &eh) || dw.elf_getphdrnum(m->elf, &n))
		return -HWP_ERR_FORMAT;
	m->e_machine = eh.e_machine;
	m->elf_class64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
	m->loads = calloc(n + 1, sizeof(*m->loads));
	if (!m->loads)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!dw.gelf_getphdr(m->elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD)
			m->loads[m->nr_loads++] =
				(struct load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
		if (ph.p_type == PT_GNU_EH_FRAME) {
			m->eh_hdr = ph.p_vaddr;
			m->eh_hdr_size = ph.p_memsz;
		}
	}
	m->image = dw.elf_rawfile(m->elf, &m->image_size);
	return 0;
}

int dw_module_open(const char *path, int fd, bool debug_cache, struct dw_module **out)
{
	struct dw_module *m;
	GElf_Addr bias;
	void **userdata;
	int err;

	*out = NULL;
	err = load();
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	if (fd < 0) {
		fd = open_regular(path, NULL);
		if (fd < 0)
			return fd;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	m->dwarf = -1;
	m->debug_cache = debug_cache;
	m->dwfl = dw.dwfl_begin(&callbacks);
	if (!m->dwfl) {
		close(fd);
		free(m);
		return -ENOMEM;
	}
	dw.dwfl_report_begin(m->dwfl);
	m->mod = dw.dwfl_report_elf(m->dwfl, path, path, fd, 0, false);
	if (!m->mod) {
		close(fd);	/* consumed only on success */
		dw_module_close(m);
		return -HWP_ERR_FORMAT;
	}
	dw.dwfl_report_end(m->dwfl, NULL, NULL);
	/* for find_debuginfo(), which libdwfl hands the module's userdata:
	 * the one context a callback of the process-wide callbacks gets */
	if (dw.dwfl_module_info(m->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = m;
	m->elf = dw.dwfl_module_getelf(m->mod, &bias);
	err = m->elf ? read_loads(m) : -HWP_ERR_FORMAT;
	if (err) {
		dw_module_close(m);
		return err;
	}
	*out = m;
	return 0;
}

void dw_module_close(struct dw_module *m)
{
	if (!m)
		return;
	if (m->dwfl)
		dw.dwfl_end(m->dwfl);
	free(m->loads);
	free(m);
}

bool dw_module_vaddr(struct dw_module *m, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < m->nr_loads; i++) {
		const struct load *l = &m->loads[i];

		if (off >= l->offset && off - l->offset < l->filesz) {
			*vaddr = off - l->offset + l->vaddr;
			return true;
		}
	}
	return false;
}

bool dw_module_has_symbols(struct dw_module *m)
{
	return dw.dwfl_module_getsymtab(m->mod) > 0;
}

bool dw_module_has_debuginfo(struct dw_module *m)
{
	Dwarf_Addr bias;

	Dwarf *dbg;

	if (m->dwarf >= 0)
		return m->dwarf;
	dbg = dw.dwfl_module_getdwarf(m->mod, &bias);
	m->dwarf = dbg != NULL;
	if (dbg && m->debug_cache && dw.dwarf_getelf(dbg) != m->elf)
		debug_copy_make(m->mod);
	return m->dwarf;
}

int dw_module_elf_machine(struct dw_module *m)
{
	return m->e_machine;
}

/* Arm's and AArch64's mapping symbols ($a, $d, $t, $x, "$x.N"): where
 * code or data begins, never a function's name; perf skips them too. A
 * name so spelt marks nothing else on any machine (RISC-V has $x, $d). */
static bool mapping_symbol(const char *name)
{
	return name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

/* The symbol of @vaddr when libdwfl's was a mapping symbol: as libdwfl
 * chooses, but for them, a sized symbol that holds @vaddr, else the
 * nearest sizeless one below it; a global one before a local of the same
 * address. One pass over the table: only code between sizeless labels
 * (assembly) comes here, and the caller keeps each address's answer. */
static const char *symbol_beside_mapping(struct dw_module *m, uint64_t vaddr,
					 GElf_Off *off, GElf_Sym *best)
{
	int nr = dw.dwfl_module_getsymtab(m->mod);
	const char *found = NULL;
	GElf_Addr at = 0, addr;
	GElf_Sym sym;

	for (int i = 1; i < nr; i++) {
		const char *n = dw.dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL,
							   NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		bool better;

		if (!n || !*n || mapping_symbol(n) || sym.st_shndx == SHN_UNDEF ||
		    type == STT_SECTION || type == STT_FILE || type == STT_TLS ||
		    addr > vaddr || (sym.st_size && vaddr - addr >= sym.st_size))
			continue;
		better = !found || (sym.st_size && !best->st_size) ||
			 (!sym.st_size == !best->st_size &&
			  (addr > at || (addr == at && GELF_ST_BIND(sym.st_info) ==
						       STB_GLOBAL)));
		if (better) {
			found = n;
			at = addr;
			*best = sym;
		}
	}
	*off = vaddr - at;
	return found;
}

int dw_module_symbol(struct dw_module *m, uint64_t vaddr, const char **name,
		     uint64_t *start, uint64_t *size)
{
	GElf_Off off;
	GElf_Sym sym;
	const char *n =
		dw.dwfl_module_addrinfo(m->mod, vaddr, &off, &sym, NULL, NULL, NULL);

	if (n && mapping_symbol(n))
		n = symbol_beside_mapping(m, vaddr, &off, &sym);
	if (!n || !*n)
		return -ENOENT;
	*name = n;
	*start = vaddr - off;
	*size = sym.st_size;
	return 0;
}

/* @file, absolute: under @dir where it is relative and @dir is known. */
static const char *absolute(char *buf, size_t size, const char *file, const char *dir)
{
	if (file[0] != '/' && dir)
		snprintf(buf, size, "%s/%s", dir, file);
	else
		snprintf(buf, size, "%s", file);
	return buf;
}

int dw_module_srcline(struct dw_module *m, uint64_t vaddr, const char **file,
		      unsigned int *line)
{
	Dwfl_Line *l;
	const char *f;
	int ln = 0;

	if (!dw_module_has_debuginfo(m) || !(l = dw.dwfl_module_getsrc(m->mod, vaddr)))
		return -ENOENT;
	f = dw.dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL);
	if (!f || ln <= 0)
		return -ENOENT;
	*file = absolute(m->path, sizeof(m->path), f, dw.dwfl_line_comp_dir(l));
	*line = (unsigned int)ln;
	return 0;
}

/* Deeper nesting of scopes than this is not code a compiler wrote. */
#define SCOPES_MAX 256

struct inline_path {
	Dwarf_Die die[SCOPES_MAX];	/* the inlined subroutines, the outermost first */
	int nr;
};

/* Down from @parent's children to the innermost scope that holds @pc,
 * keeping the inlined subroutines on the way: 1 when a scope holds it, 0
 * when none does, -E2BIG past SCOPES_MAX. The scopes of code do not
 * overlap, so one child at most holds @pc and each level is one pass over
 * siblings. Namespaces (C++) and modules (Fortran) hold no code but may
 * hold functions; the code of a class's methods is outside the class
 * (DW_AT_specification), so types, often the most DIEs, are not entered. */
static int scope_walk(Dwarf_Die *parent, Dwarf_Addr pc, int depth, struct inline_path *ip)
{
	Dwarf_Die c;
	int err;

	if (depth >= SCOPES_MAX)
		return -E2BIG;
	if (dw.dwarf_child(parent, &c))
		return 0;
	do {
		switch (dw.dwarf_tag(&c)) {
		case DW_TAG_subprogram:
		case DW_TAG_lexical_block:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			if (dw.dwarf_haspc(&c, pc) <= 0)
				continue;
			if (dw.dwarf_tag(&c) == DW_TAG_inlined_subroutine)
				ip->die[ip->nr++] = c;
			err = scope_walk(&c, pc, depth + 1, ip);
			return err < 0 ? err : 1;
		case DW_TAG_namespace:
		case DW_TAG_module:
			err = scope_walk(&c, pc, depth + 1, ip);
			if (err)
				return err;
			continue;
		default:
			continue;
		}
	} while (!dw.dwarf_siblingof(&c, &c));
	return 0;
}

/* The function an inlined subroutine is an instance of: its linkage name
 * (C++, Rust: demangled as symbols are), else its name. */
static const char *inlined_name(Dwarf_Die *die)
{
	static const unsigned int names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name,
					      DW_AT_name };
	Dwarf_Attribute attr;
	const char *n;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if ((n = dw.dwarf_formstring(
			     dw.dwarf_attr_integrate(die, names[i], &attr))))
			return n;
	return NULL;
}

/* Where inlined subroutine @die was called: DW_AT_call_file (an index into
 * the CU's files) and DW_AT_call_line, the instance's own attributes. */
static void call_site(struct dw_module *m, Dwarf_Die *die, Dwarf_Files *files,
		      const char *comp_dir, const char **file, unsigned int *line)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;
	const char *f;

	*file = NULL;
	*line = 0;
	if (files &&
	    !dw.dwarf_formudata(dw.dwarf_attr(die, DW_AT_call_file, &attr), &v) &&
	    (f = dw.dwarf_filesrc(files, v, NULL, NULL)))
		*file = absolute(m->call_path, sizeof(m->call_path), f, comp_dir);
	if (!dw.dwarf_formudata(dw.dwarf_attr(die, DW_AT_call_line, &attr), &v) &&
	    v <= UINT32_MAX)
		*line = (unsigned int)v;
}

int dw_module_inlines(struct dw_module *m, uint64_t vaddr, dw_inline_fn fn, void *ctx)
{
	struct inline_path *ip;
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Addr bias;
	Dwarf_Die *cu;
	const char *comp_dir, *file;
	unsigned int line;
	size_t nr_files;
	int err = 0;

	if (!dw_module_has_debuginfo(m) ||
	    !(cu = dw.dwfl_module_addrdie(m->mod, vaddr, &bias)))
		return 0;
	ip = malloc(sizeof(*ip));
	if (!ip)
		return -ENOMEM;
	ip->nr = 0;
	/* Nested past SCOPES_MAX, not code a compiler wrote: no inlines
	 * rather than some. */
	if (scope_walk(cu, vaddr - bias, 0, ip) < 0)
		ip->nr = 0;
	if (ip->nr && dw.dwarf_getsrcfiles(cu, &files, &nr_files))
		files = NULL;
	comp_dir = dw.dwarf_formstring(dw.dwarf_attr(cu, DW_AT_comp_dir, &attr));
	for (int i = ip->nr - 1; i >= 0 && !err; i--) {
		call_site(m, &ip->die[i], files, comp_dir, &file, &line);
		err = fn(inlined_name(&ip->die[i]), file, line, ctx);
	}
	free(ip);
	return err;
}

ssize_t dw_module_read(struct dw_module *m, uint64_t vaddr, void *buf, size_t len)
{
	Elf_Scn *scn = NULL;

	while ((scn = dw.elf_nextscn(m->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n;

		if (!dw.gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		d = dw.elf_getdata(scn, NULL);
		if (!d || !d->d_buf || vaddr - sh.sh_addr >= d->d_size)
			return -ENOENT;
		n = d->d_size - (size_t)(vaddr - sh.sh_addr);
		if (n > len)
			n = len;
		memcpy(buf, (const char *)d->d_buf + (vaddr - sh.sh_addr), n);
		return (ssize_t)n;
	}
	return -ENOENT;
}

bool dw_module_eh_frame_hdr(struct dw_module *m, uint64_t *vaddr, uint64_t *size)
{
	*vaddr = m->eh_hdr;
	*size = m->eh_hdr_size;
	return m->eh_hdr_size > 0;
}

/* Section @name of @elf, decompressed, or NULL where it has none. */
static Elf_Data *section_data(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (dw.elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = dw.elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!dw.gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(n = dw.elf_strptr(elf, shstrndx, sh.sh_name)) || strcmp(n, name))
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) && dw.elf_compress(scn, 0, 0) < 0)
			return NULL;
		return dw.elf_getdata(scn, NULL);
	}
	return NULL;
}

/* In the module's file, or else in its separate debug file, found as for
 * source lines (build-id, .gnu_debuglink): strip --only-keep-debug keeps
 * .debug_frame there. */
bool dw_module_debug_frame(struct dw_module *m, const void **data, size_t *size,
			   unsigned int *addr_size)
{
	Elf_Data *d = section_data(m->elf, ".debug_frame");
	Dwarf_Addr bias;
	Dwarf *dbg;

	if ((!d || !d->d_buf) && dw_module_has_debuginfo(m) &&
	    (dbg = dw.dwfl_module_getdwarf(m->mod, &bias)) &&
	    dw.dwarf_getelf(dbg) != m->elf)
		d = section_data(dw.dwarf_getelf(dbg), ".debug_frame");
	if (!d || !d->d_buf || !d->d_size)
		return false;
	*data = d->d_buf;
	*size = d->d_size;
	*addr_size = m->elf_class64 ? 8 : 4;
	return true;
}

bool dw_module_span(struct dw_module *m, uint64_t *lo, uint64_t *hi)
{
	*lo = UINT64_MAX;
	*hi = 0;
	for (size_t i = 0; i < m->nr_loads; i++) {
		const struct load *l = &m->loads[i];

		if (l->vaddr < *lo)
			*lo = l->vaddr;
		if (l->vaddr + l->filesz > *hi)
			*hi = l->vaddr + l->filesz;
	}
	return *lo < *hi;
}

/* Through the segments straight into the file's bytes: the unwinder reads
 * a few words at a time, many times a sample. */
int dw_module_read_image(struct dw_module *m, uint64_t vaddr, void *buf, size_t len)
{
	for (size_t i = 0; i < m->nr_loads; i++) {
		const struct load *l = &m->loads[i];
		uint64_t off;

		if (vaddr < l->vaddr || vaddr - l->vaddr >= l->filesz ||
		    len > l->filesz - (vaddr - l->vaddr))
			continue;
		off = l->offset + (vaddr - l->vaddr);
		if (!m->image || off > m->image_size || len > m->image_size - off)
			return -ENOENT;
		memcpy(buf, m->image + off, len);
		return 0;
	}
	return -ENOENT;
}

/* @m's frame at @vaddr, or NULL. .eh_frame first: .debug_frame may be in a
 * debug file still to be found, whose addresses may be another's than the
 * module's (its bias, as for lines). Free it. */
static Dwarf_Frame *frame_at(struct dw_module *m, uint64_t vaddr)
{
	Dwarf_Addr bias = 0;
	Dwarf_CFI *cfi = dw.dwfl_module_eh_cfi(m->mod, &bias);
	Dwarf_Frame *frame;

	if (cfi && !dw.dwarf_cfi_addrframe(cfi, vaddr - bias, &frame))
		return frame;
	bias = 0;
	cfi = dw.dwfl_module_dwarf_cfi(m->mod, &bias);
	if (cfi && !dw.dwarf_cfi_addrframe(cfi, vaddr - bias, &frame))
		return frame;
	return NULL;
}

int dw_module_ra_rule(struct dw_module *m, uint64_t vaddr, int *ra_reg)
{
	Dwarf_Frame *frame = frame_at(m, vaddr);
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	int reg, ret;

	if (!frame)
		return -ENOENT;
	reg = dw.dwarf_frame_info(frame, NULL, NULL, NULL);
	if (reg < 0 || dw.dwarf_frame_register(frame, reg, ops_mem, &ops, &nops))
		ret = -ENOENT;
	else if (!nops && !ops)	/* same_value: not saved yet, or restored */
		ret = DW_RA_IN_REGISTER;
	else if (!nops)
		ret = DW_RA_UNDEFINED;	/* the outermost frame */
	else
		ret = DW_RA_ELSEWHERE;
	*ra_reg = reg;
	free(frame);
	return ret;
}

/* libdw writes a CFA of a register and an offset as DW_OP_bregx, and a
 * register saved at CFA+N as DW_OP_call_frame_cfa, then N added (by
 * DW_OP_plus_uconst, or DW_OP_consts and DW_OP_plus where N < 0). */
static int ra_slot(Dwarf_Frame *frame, int *base, int64_t *offset)
{
	Dwarf_Op ops_mem[3], *ops, *cfa;
	size_t nops, ncfa;
	int reg = dw.dwarf_frame_info(frame, NULL, NULL, NULL);
	int64_t n;

	if (reg < 0 || dw.dwarf_frame_cfa(frame, &cfa, &ncfa) || ncfa != 1 ||
	    cfa[0].atom != DW_OP_bregx ||
	    dw.dwarf_frame_register(frame, reg, ops_mem, &ops, &nops) || !nops ||
	    ops[0].atom != DW_OP_call_frame_cfa)
		return -ENOENT;
	if (nops == 1)
		n = 0;
	else if (nops == 2 && ops[1].atom == DW_OP_plus_uconst)
		n = (int64_t)ops[1].number;
	else if (nops == 3 && ops[1].atom == DW_OP_consts && ops[2].atom == DW_OP_plus)
		n = (int64_t)ops[1].number;
	else
		return -ENOENT;	/* a value (val_offset), an expression */
	*base = (int)cfa[0].number;
	*offset = (int64_t)cfa[0].number2 + n;
	return 0;
}

int dw_module_ra_slot(struct dw_module *m, uint64_t vaddr, int *base, int64_t *offset)
{
	Dwarf_Frame *frame = frame_at(m, vaddr);
	int ret;

	if (!frame)
		return -ENOENT;
	ret = ra_slot(frame, base, offset);
	free(frame);
	return ret;
}
