// SPDX-License-Identifier: MIT
/* Debug files with their sections decompressed, kept between reports.
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
#include "profile/dwarf-libs.h"
#include "sample/sample.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
int debug_copy_open(Dwfl_Module *mod, char **file_name)
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
void debug_copy_make(Dwfl_Module *mod)
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
