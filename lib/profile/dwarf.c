// SPDX-License-Identifier: MIT
/* One ELF module through elfutils' libdwfl: symbols from .symtab, .dynsym
 * or the separate debug file, source lines and inlines from DWARF. Debug
 * files are found by build-id and .gnu_debuglink under /usr/lib/debug, the
 * way libdwfl's standard callback does. Each module gets a Dwfl of its own
 * at bias 0, so module addresses are the ELF file's own (objdump's).
 *
 * libdw is loaded on first use, as libpfm4 is (event-pfm.c): linked in, it
 * and capstone (disasm.c) tripled the start of every hwprof command, stat
 * included, for libraries that only reports need. */
#include "profile/dwarf.h"
#include "profile/symbolize.h"

#include <dlfcn.h>
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

#define LIBDW "libdw.so.1"
#define LIBELF "libelf.so.1"

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

static struct {
#define X(fn) __typeof__(fn) *fn;
	DW_FUNCS(X) ELF_FUNCS(X)
#undef X
} dw;

static pthread_once_t dw_once = PTHREAD_ONCE_INIT;
static char dw_error[512];
static char *debuginfo_path;	/* NULL: libdwfl's default, ":.debug:/usr/lib/debug" */
static Dwfl_Callbacks callbacks;

static void *resolve(void *h, const char *lib, const char *sym)
{
	void *p = dlsym(h, sym);

	if (!p && !dw_error[0])
		snprintf(dw_error, sizeof(dw_error), "%s lacks %s: elfutils is too old",
			 lib, sym);
	return p;
}

/* ---- debug files with their sections decompressed, kept between reports ----
 *
 * libdw decompresses every .debug_* section of a file whole when it opens
 * its DWARF, whatever is looked up after: for libc's separate debug file
 * (libc6-dbg, zlib-compressed), 10 MB inflated at every report that wants
 * a line, most of the time pprof takes beyond the report by symbol
 * (BENCHMARKS.md). So the first report that reads lines there writes a
 * copy of the debug file whose compressed sections are stored
 * decompressed, in the user's cache next to the kernel's symbols, named by
 * the module's build-id; later ones hand libdwfl that copy, whose sections
 * libelf maps rather than inflates. The copy is the file's own
 * bytes, the decompressed sections appended and a section header table
 * after them that points there: nothing a program header or an allocated
 * section points to moves. A copy that cannot be made or is not the
 * module's (its build-id) is passed by: the debug file is read as before. */

static int write_all(int fd, const void *buf, size_t len, off_t at)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		p += n;
		len -= (size_t)n;
		at += n;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return align > 1 ? (v + align - 1) / align * align : v;
}

/* The ELF byte order of this host, the only one a copy is written in. */
#define HOST_ELFDATA                                                       \
	(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

/* @e's file into @out with its SHF_COMPRESSED sections decompressed: 0,
 * -ENOTSUP for a file of another class or byte order than this host's or
 * without compressed sections (then nothing is worth keeping), -errno. */
static int write_decompressed(Elf *e, int out)
{
	const char *raw;
	size_t size, nr = 0;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;
	uint64_t at;
	Elf_Scn *scn = NULL;
	int err;

	raw = dw.elf_rawfile(e, &size);
	if (!raw || size < sizeof(eh))
		return -ENOTSUP;
	memcpy(&eh, raw, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != HOST_ELFDATA ||
	    eh.e_shentsize != sizeof(*sh) || !eh.e_shnum || eh.e_shstrndx == SHN_XINDEX ||
	    eh.e_shoff > size || (size - eh.e_shoff) / sizeof(*sh) < eh.e_shnum)
		return -ENOTSUP;
	sh = malloc(eh.e_shnum * sizeof(*sh));
	if (!sh)
		return -ENOMEM;
	memcpy(sh, raw + eh.e_shoff, eh.e_shnum * sizeof(*sh));
	err = write_all(out, raw, size, 0);
	at = size;
	while (!err && (scn = dw.elf_nextscn(e, scn))) {
		size_t i = dw.elf_ndxscn(scn);
		Elf_Data *d;

		if (i >= eh.e_shnum || !(sh[i].sh_flags & SHF_COMPRESSED) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		if (dw.elf_compress(scn, 0, 0) < 0 || !(d = dw.elf_getdata(scn, NULL)) ||
		    (d->d_size && !d->d_buf)) {
			err = -HWP_ERR_FORMAT;
			break;
		}
		at = align_up(at, d->d_align);
		err = write_all(out, d->d_buf, d->d_size, (off_t)at);
		sh[i].sh_offset = at;
		sh[i].sh_size = d->d_size;
		sh[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		sh[i].sh_addralign = d->d_align;
		at += d->d_size;
		nr++;
	}
	if (!err && !nr)
		err = -ENOTSUP;
	eh.e_shoff = align_up(at, 8);
	if (!err)
		err = write_all(out, sh, eh.e_shnum * sizeof(*sh), (off_t)eh.e_shoff);
	if (!err)
		err = write_all(out, &eh, sizeof(eh), 0);
	free(sh);
	return err;
}

/* Whether @e's build-id is @id. */
static bool elf_has_build_id(Elf *e, const void *id, int len)
{
	const void *bits;

	return dw.dwelf_elf_gnu_build_id(e, &bits) == len &&
	       !memcmp(bits, id, (size_t)len);
}

/* Whether @fd is an ELF file whose build-id is @id. */
static bool has_build_id(int fd, const void *id, int len)
{
	Elf *e = dw.elf_begin(fd, ELF_C_READ_MMAP, NULL);
	bool same = e && elf_has_build_id(e, id, len);

	if (e)
		dw.elf_end(e);
	return same;
}

/* Whether copy @fd is whole as far as its headers say: its section header
 * table and every section's bytes within the file. The copy is trusted by
 * its build-id, whose note is near its start: a copy cut short by a crash
 * keeps it (before cache_file_write() synced, or a disk that lies), and
 * its DWARF, read past the end, would give no lines or wrong ones. Two
 * reads, where a checksum would read it all. */
static bool copy_whole(int fd)
{
	struct stat st;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;
	uint64_t size;
	size_t len;
	bool whole;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
		return false;
	size = (uint64_t)st.st_size;
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != HOST_ELFDATA || eh.e_shentsize != sizeof(*sh) ||
	    !eh.e_shnum || eh.e_shoff > size ||
	    (size - eh.e_shoff) / sizeof(*sh) < eh.e_shnum)
		return false;
	len = eh.e_shnum * sizeof(*sh);
	sh = malloc(len);
	whole = sh && pread(fd, sh, len, (off_t)eh.e_shoff) == (ssize_t)len;
	for (size_t i = 0; whole && i < eh.e_shnum; i++) {
		uint64_t at = sh[i].sh_offset;

		whole = sh[i].sh_type == SHT_NOBITS ||
			(at <= size && size - at >= sh[i].sh_size);
	}
	free(sh);
	return whole;
}

/* Whether @e has sections a copy would hold decompressed, and can be
 * copied: not one that names a dwz file (.gnu_debugaltlink), which a copy
 * elsewhere would not find by a relative path (an absolute one would do:
 * not told apart yet, so no dwz'ed file is copied). */
static bool worth_copying(Elf *e)
{
	bool compressed = false;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (dw.elf_getshdrstrndx(e, &shstrndx))
		return false;
	while ((scn = dw.elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!dw.gelf_getshdr(scn, &sh))
			return false;
		n = dw.elf_strptr(e, shstrndx, sh.sh_name);
		if (n && !strcmp(n, ".gnu_debugaltlink"))
			return false;
		compressed |= (sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS;
	}
	return compressed;
}

static int fill_copy(int fd, void *e)
{
	return write_decompressed(e, fd);
}

/* The name of module @mod's copy in the cache, in @path, @name its last
 * part, @bits and its length its build-id: 0, or -ENOENT without a
 * build-id or a cache folder. */
static int debug_copy_path(Dwfl_Module *mod, char *path, size_t size, const char **name,
			   const unsigned char **bits, int *len)
{
	char hex[2 * PD_BUILD_ID_MAX + 1], file[sizeof("debug-") + sizeof(hex)];
	struct pd_build_id id = { 0 };
	GElf_Addr at;
	int n = dw.dwfl_module_build_id(mod, bits, &at);

	if (n <= 0 || n > PD_BUILD_ID_MAX)
		return -ENOENT;
	*len = n;
	id.size = (uint8_t)n;
	memcpy(id.data, *bits, (size_t)n);
	snprintf(file, sizeof(file), "debug-%s", pd_build_id_hex(&id, hex, sizeof(hex)));
	if (cache_file_path(path, size, file))
		return -ENOENT;
	*name = strrchr(path, '/') + 1;
	return 0;
}

/* Module @mod's copy of its debug file from the cache, if one is there and
 * of its build-id: an fd open on it, its path in *@file_name; else -1. */
static int debug_copy_open(Dwfl_Module *mod, char **file_name)
{
	char path[PATH_MAX], *dup;
	const unsigned char *bits;
	const char *name;
	int len, dfd, fd;

	if (debug_copy_path(mod, path, sizeof(path), &name, &bits, &len))
		return -1;
	dfd = cache_dir_open(path, false);
	if (dfd < 0)
		return -1;
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return -1;
	if (!copy_whole(fd)) {
		pr_debug("%s is cut short: the original is read", path);
		close(fd);
		return -1;
	}
	dup = strdup(path);
	if (!dup || !has_build_id(fd, bits, len)) {
		if (dup)
			pr_debug("%s is not the debug file of its name: the original is read",
				 path);
		free(dup);
		close(fd);
		return -1;
	}
	free(*file_name);
	*file_name = dup;
	return fd;
}

/* Keep module @mod's separate debug file, whose DWARF libdw has opened,
 * as a copy for the next reports, where it has compressed sections. Here
 * rather than where the file is found, which reports by symbol do too
 * (for its .symtab) without ever inflating its DWARF. It is opened again,
 * by name: libelf rewrites the section headers of its mapping as it
 * decompresses, so libdw's Elf no longer shows the file's own. */
static void debug_copy_make(Dwfl_Module *mod)
{
	char path[PATH_MAX];
	const unsigned char *bits;
	const char *name, *file = NULL;
	int len, fd, err;
	Elf *e;

	if (debug_copy_path(mod, path, sizeof(path), &name, &bits, &len) ||
	    !dw.dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, &file) || !file)
		return;
	fd = open_regular(file, NULL);
	if (fd < 0)
		return;
	e = dw.elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_has_build_id(e, bits, len) && worth_copying(e)) {
		err = cache_file_write(path, fill_copy, e);
		if (err && err != -ENOTSUP)
			pr_debug("%s: %s", path, hwp_strerror(err));
	}
	if (e)
		dw.elf_end(e);
	close(fd);
}

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

static void dw_load_once(void)
{
	void *h = dlopen(LIBDW, RTLD_NOW | RTLD_LOCAL);
	void *e = dlopen(LIBELF, RTLD_NOW | RTLD_LOCAL);

	if (!h || !e) {
		snprintf(dw_error, sizeof(dw_error),
			 "elfutils (%s) cannot be loaded: %s; install it with: sudo apt-get install libdw1",
			 LIBDW, dlerror());
		return;
	}
#define X(fn) *(void **)&dw.fn = resolve(h, LIBDW, #fn);
	DW_FUNCS(X)
#undef X
#define X(fn) *(void **)&dw.fn = resolve(e, LIBELF, #fn);
	ELF_FUNCS(X)
#undef X
	callbacks.find_elf = dw.dwfl_build_id_find_elf;
	callbacks.find_debuginfo = find_debuginfo;
	callbacks.section_address = dw.dwfl_offline_section_address;
	callbacks.debuginfo_path = &debuginfo_path;
	/* The handles stay open for the life of the process. */
}

/* 0, or -ELIBACC when libdw cannot be loaded (the reason is logged once). */
static int dw_load(void)
{
	static bool said;

	pthread_once(&dw_once, dw_load_once);
	if (!dw_error[0])
		return 0;
	if (!said)
		pr_warn("%s", dw_error);
	said = true;
	return -ELIBACC;
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
	err = dw_load();
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
