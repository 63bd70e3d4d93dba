// SPDX-License-Identifier: MIT
/* One ELF module through elfutils' libdwfl: symbols from .symtab, .dynsym
 * or the separate debug file, source lines and inlines from DWARF. Debug
 * files are found by build-id and .gnu_debuglink under /usr/lib/debug, the
 * way libdwfl's standard callback does. Each module gets a Dwfl of its own
 * at bias 0, so module addresses are the ELF file's own (objdump's). */
#include "sample.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct load {
	uint64_t offset, filesz, vaddr;
};

struct dw_module {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	int e_machine;
	struct load *loads;
	size_t nr_loads;
	int dwarf;		/* -1 not looked for yet, 0 none, 1 found */
	char path[4096];	/* the last source file, made absolute */
};

static char *debuginfo_path;	/* NULL: libdwfl's default, ":.debug:/usr/lib/debug" */

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static int read_loads(struct dw_module *m)
{
	GElf_Ehdr eh;
	size_t n;

	if (!gelf_getehdr(m->elf, &eh) || elf_getphdrnum(m->elf, &n))
		return -HWP_ERR_FORMAT;
	m->e_machine = eh.e_machine;
	m->loads = calloc(n + 1, sizeof(*m->loads));
	if (!m->loads)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(m->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			m->loads[m->nr_loads++] = (struct load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

int dw_module_open(const char *path, int fd, struct dw_module **out)
{
	struct dw_module *m;
	GElf_Addr bias;
	int err;

	*out = NULL;
	if (fd < 0) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		close(fd);
		return -ENOMEM;
	}
	m->dwarf = -1;
	m->dwfl = dwfl_begin(&callbacks);
	if (!m->dwfl) {
		close(fd);
		free(m);
		return -ENOMEM;
	}
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_elf(m->dwfl, path, path, fd, 0, false);
	if (!m->mod) {
		close(fd);	/* consumed only on success */
		dw_module_close(m);
		return -HWP_ERR_FORMAT;
	}
	dwfl_report_end(m->dwfl, NULL, NULL);
	m->elf = dwfl_module_getelf(m->mod, &bias);
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
		dwfl_end(m->dwfl);
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
	return dwfl_module_getsymtab(m->mod) > 0;
}

bool dw_module_has_debuginfo(struct dw_module *m)
{
	Dwarf_Addr bias;

	if (m->dwarf < 0)
		m->dwarf = dwfl_module_getdwarf(m->mod, &bias) != NULL;
	return m->dwarf;
}

int dw_module_elf_machine(struct dw_module *m)
{
	return m->e_machine;
}

int dw_module_symbol(struct dw_module *m, uint64_t vaddr, const char **name, uint64_t *start,
		     uint64_t *size)
{
	GElf_Off off;
	GElf_Sym sym;
	const char *n = dwfl_module_addrinfo(m->mod, vaddr, &off, &sym, NULL, NULL, NULL);

	if (!n || !*n)
		return -ENOENT;
	*name = n;
	*start = vaddr - off;
	*size = sym.st_size;
	return 0;
}

int dw_module_lookup(struct dw_module *m, const char *name, uint64_t *start, uint64_t *size)
{
	int n = dwfl_module_getsymtab(m->mod);

	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s = dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL, NULL, NULL);

		if (s && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_shndx != SHN_UNDEF &&
		    !strcmp(s, name)) {
			*start = addr;
			*size = sym.st_size;
			return 0;
		}
	}
	return -ENOENT;
}

/* The innermost function inlined at @vaddr, as DWARF's scopes say. */
static const char *inlined_at(struct dw_module *m, uint64_t vaddr)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dwfl_module_addrdie(m->mod, vaddr, &bias);
	Dwarf_Die *scopes = NULL;
	const char *name = NULL;
	int n;

	if (!cu)
		return NULL;
	n = dwarf_getscopes(cu, vaddr - bias, &scopes);
	for (int i = 0; i < n && !name; i++) {
		Dwarf_Attribute attr;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &attr));
	}
	free(scopes);
	return name;
}

int dw_module_srcline(struct dw_module *m, uint64_t vaddr, const char **file,
		      unsigned int *line, const char **inlined)
{
	Dwfl_Line *l;
	const char *f, *dir;
	int ln = 0;

	*inlined = NULL;
	if (!dw_module_has_debuginfo(m) || !(l = dwfl_module_getsrc(m->mod, vaddr)))
		return -ENOENT;
	f = dwfl_lineinfo(l, NULL, &ln, NULL, NULL, NULL);
	if (!f || ln <= 0)
		return -ENOENT;
	dir = dwfl_line_comp_dir(l);
	if (f[0] != '/' && dir)
		snprintf(m->path, sizeof(m->path), "%s/%s", dir, f);
	else
		snprintf(m->path, sizeof(m->path), "%s", f);
	*file = m->path;
	*line = (unsigned int)ln;
	*inlined = inlined_at(m, vaddr);
	return 0;
}

ssize_t dw_module_read(struct dw_module *m, uint64_t vaddr, void *buf, size_t len)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(m->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || vaddr < sh.sh_addr ||
		    vaddr - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
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
