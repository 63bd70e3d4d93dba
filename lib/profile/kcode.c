// SPDX-License-Identifier: MIT
/* The kernel's code, for the bytes and disassembly of kernel addresses:
 * /proc/kcore (the running kernel's memory as an ELF core file, its code
 * as it runs: alternatives and static keys patched) or an uncompressed
 * vmlinux (an ELF linked at the kernel's unrelocated addresses). Both are
 * read through their PT_LOAD segments, with pread: kcore's size is that
 * of the address space, nothing to map. */
#include "profile/symbolize.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kseg {
	uint64_t vaddr, offset, size;
};

struct kcode {
	int fd;
	int machine;		/* EM_X86_64... */
	struct kseg *segs;
	size_t nr_segs;
};

static bool read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return off <= INT64_MAX && pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

void kcode_close(struct kcode *k)
{
	if (!k)
		return;
	if (k->fd >= 0)
		close(k->fd);
	free(k->segs);
	free(k);
}

int kcode_open(const char *path, struct kcode **out)
{
	struct kcode *k = calloc(1, sizeof(*k));
	Elf64_Ehdr eh;
	size_t cap = 0;
	int err = -ENOMEM;

	*out = NULL;
	if (!k)
		return -ENOMEM;
	k->fd = open_regular(path, NULL);
	if (k->fd < 0) {
		err = k->fd;
		goto err;
	}
	err = HWP_ERR_FORMAT;
	if (!read_at(k->fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto err;
	k->machine = eh.e_machine;
	for (unsigned int i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		if (!read_at(k->fd, &ph, sizeof(ph),
			     eh.e_phoff + (uint64_t)i * sizeof(ph)))
			goto err;
		if (ph.p_type != PT_LOAD || !ph.p_filesz)
			continue;
		if (vec_reserve(&k->segs, &cap, k->nr_segs + 1, sizeof(*k->segs))) {
			err = -ENOMEM;
			goto err;
		}
		k->segs[k->nr_segs++] =
			(struct kseg){ ph.p_vaddr, ph.p_offset, ph.p_filesz };
	}
	if (!k->nr_segs)
		goto err;
	*out = k;
	return 0;
err:
	kcode_close(k);
	return err < 0 ? err : -err;
}

int kcode_machine(const struct kcode *k)
{
	return k->machine;
}

ssize_t kcode_read(struct kcode *k, uint64_t vaddr, void *buf, size_t len)
{
	for (size_t i = 0; i < k->nr_segs; i++) {
		const struct kseg *s = &k->segs[i];
		uint64_t in = vaddr - s->vaddr;
		size_t n;
		ssize_t got;

		if (vaddr < s->vaddr || in >= s->size)
			continue;
		n = len < s->size - in ? len : (size_t)(s->size - in);
		got = s->offset + in <= INT64_MAX ?
			pread(k->fd, buf, n, (off_t)(s->offset + in)) : -1;
		return got > 0 ? got : -EIO;
	}
	return -ENOENT;
}

/* The symbol named @name in the symbol table at @sh, its strings at @str. */
static int find_symbol(int fd, const Elf64_Shdr *sh, const Elf64_Shdr *str,
		       const char *name, uint64_t *addr)
{
	size_t nsyms = (size_t)(sh->sh_size / sizeof(Elf64_Sym)), want = strlen(name) + 1;
	Elf64_Sym *syms = NULL;
	char *strs = NULL;
	int err = -ENOENT;

	if (sh->sh_size > (1u << 28) || str->sh_size > (1u << 28))
		return -EFBIG;	/* a kernel has some 200,000 symbols */
	syms = malloc(nsyms * sizeof(*syms) + 1);
	strs = malloc((size_t)str->sh_size + 1);
	if (!syms || !strs) {
		err = -ENOMEM;
		goto out;
	}
	if (!read_at(fd, syms, nsyms * sizeof(*syms), sh->sh_offset) ||
	    !read_at(fd, strs, (size_t)str->sh_size, str->sh_offset))
		goto out;
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i].st_name < str->sh_size &&
		    want <= str->sh_size - syms[i].st_name &&
		    !memcmp(strs + syms[i].st_name, name, want)) {
			*addr = syms[i].st_value;
			err = 0;
			break;
		}
out:
	free(syms);
	free(strs);
	return err;
}

/* The address of symbol @name in the file's symbol table (a vmlinux's):
 * 0, or -ENOENT. */
int kcode_symbol(struct kcode *k, const char *name, uint64_t *addr)
{
	Elf64_Ehdr eh;

	if (!read_at(k->fd, &eh, sizeof(eh), 0) || eh.e_shentsize != sizeof(Elf64_Shdr))
		return -ENOENT;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh, str;

		if (!read_at(k->fd, &sh, sizeof(sh),
			     eh.e_shoff + (uint64_t)i * sizeof(sh)))
			return -ENOENT;
		if (sh.sh_type == SHT_SYMTAB && sh.sh_link < eh.e_shnum &&
		    read_at(k->fd, &str, sizeof(str),
			    eh.e_shoff + (uint64_t)sh.sh_link * sizeof(str)))
			return find_symbol(k->fd, &sh, &str, name, addr);
	}
	return -ENOENT;
}
