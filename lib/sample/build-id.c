// SPDX-License-Identifier: MIT
/* The GNU build-id of an ELF file (its NT_GNU_BUILD_ID note), read from
 * the program headers without libdw: the recorder names the builds it saw
 * in every file it writes (as perf record does), and the report tells a
 * rebuilt file from the one that was recorded; and the running kernel's,
 * from the notes it gives (/sys/kernel/notes), to tell its recordings
 * from another kernel's. */
#include "sample/sample.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static bool read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return off <= INT64_MAX && pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* The build-id among the @n bytes of notes at @buf. */
static int find_build_id(const unsigned char *buf, size_t n, struct pd_build_id *id)
{
	size_t at = 0;

	while (n - at >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, buf + at, sizeof(nh));
		name = ((size_t)nh.n_namesz + 3) & ~(size_t)3;
		desc = ((size_t)nh.n_descsz + 3) & ~(size_t)3;
		at += sizeof(nh);
		if (name > n - at || desc > n - at - name)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + at, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= sizeof(id->data)) {
			memcpy(id->data, buf + at + name, nh.n_descsz);
			id->size = (uint8_t)nh.n_descsz;
			return 0;
		}
		at += name + desc;
	}
	return -ENOENT;
}

/* The build-id among the notes of @len bytes at @off. */
static int note_build_id(int fd, uint64_t off, uint64_t len, struct pd_build_id *id)
{
	unsigned char buf[4096];
	size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);

	if (!read_at(fd, buf, n, off))
		return -ENOENT;
	return find_build_id(buf, n, id);
}

int pd_build_id_of_fd(int fd, struct pd_build_id *id)
{
	Elf64_Ehdr eh;

	memset(id, 0, sizeof(*id));
	/* 64-bit files of this machine's byte order: what it runs. */
	if (!read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		return -HWP_ERR_FORMAT;
	for (unsigned int i = 0; i < eh.e_phnum && i < 256; i++) {
		Elf64_Phdr ph;

		if (!read_at(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * sizeof(ph)))
			return -HWP_ERR_FORMAT;
		if (ph.p_type == PT_NOTE &&
		    !note_build_id(fd, ph.p_offset, ph.p_filesz, id))
			return 0;
	}
	/* Read whole, and none: a build without one (--build-id=none). */
	return -ENODATA;
}

int pd_build_id_of(const char *path, struct pd_build_id *id)
{
	int fd = open_regular(path, NULL), err;

	memset(id, 0, sizeof(*id));
	if (fd < 0)
		return fd;
	err = pd_build_id_of_fd(fd, id);
	close(fd);
	return err;
}

int pd_build_id_of_notes(const char *path, struct pd_build_id *id)
{
	unsigned char buf[4096];
	int fd = open_regular(path, NULL);
	ssize_t n;

	memset(id, 0, sizeof(*id));
	if (fd < 0)
		return fd;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -EIO;
	return find_build_id(buf, (size_t)n, id);
}

bool pd_build_id_eq(const struct pd_build_id *a, const struct pd_build_id *b)
{
	return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

char *pd_build_id_hex(const struct pd_build_id *id, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < id->size && n + 3 <= size; i++, n += 2)
		snprintf(buf + n, size - n, "%02x", id->data[i]);
	return buf;
}
