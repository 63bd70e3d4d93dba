// SPDX-License-Identifier: MIT
/* Built without libdw: modules cannot be read, and every address shows as
 * module+offset (the report says why). */
#include "profile/dwarf.h"
#include "sample/sample.h"

#include <unistd.h>

int dw_module_open(const char *path, int fd, bool debug_cache, struct dw_module **out)
{
	(void)path;
	(void)debug_cache;
	if (fd >= 0)
		close(fd);
	*out = NULL;
	return -EOPNOTSUPP;
}

void dw_module_close(struct dw_module *m)
{
	(void)m;
}

bool dw_module_vaddr(struct dw_module *m, uint64_t off, uint64_t *vaddr)
{
	(void)m, (void)off, (void)vaddr;
	return false;
}

bool dw_module_has_symbols(struct dw_module *m)
{
	(void)m;
	return false;
}

bool dw_module_has_debuginfo(struct dw_module *m)
{
	(void)m;
	return false;
}

int dw_module_elf_machine(struct dw_module *m)
{
	(void)m;
	return 0;
}

int dw_module_symbol(struct dw_module *m, uint64_t vaddr, const char **name,
		     uint64_t *start, uint64_t *size)
{
	(void)m, (void)vaddr, (void)name, (void)start, (void)size;
	return -EOPNOTSUPP;
}

int dw_module_srcline(struct dw_module *m, uint64_t vaddr, const char **file,
		      unsigned int *line)
{
	(void)m, (void)vaddr, (void)file, (void)line;
	return -EOPNOTSUPP;
}

int dw_module_inlines(struct dw_module *m, uint64_t vaddr, dw_inline_fn fn, void *ctx)
{
	(void)m, (void)vaddr, (void)fn, (void)ctx;
	return 0;
}

ssize_t dw_module_read(struct dw_module *m, uint64_t vaddr, void *buf, size_t len)
{
	(void)m, (void)vaddr, (void)buf, (void)len;
	return -EOPNOTSUPP;
}

bool dw_module_eh_frame_hdr(struct dw_module *m, uint64_t *vaddr, uint64_t *size)
{
	(void)m;
	*vaddr = *size = 0;
	return false;
}

bool dw_module_debug_frame(struct dw_module *m, const void **data, size_t *size,
			   unsigned int *addr_size)
{
	(void)m, (void)data, (void)size, (void)addr_size;
	return false;
}

bool dw_module_span(struct dw_module *m, uint64_t *lo, uint64_t *hi)
{
	(void)m;
	*lo = *hi = 0;
	return false;
}

int dw_module_read_image(struct dw_module *m, uint64_t vaddr, void *buf, size_t len)
{
	(void)m, (void)vaddr, (void)buf, (void)len;
	return -ENOENT;
}

int dw_module_ra_rule(struct dw_module *m, uint64_t vaddr, int *ra_reg)
{
	(void)m, (void)vaddr, (void)ra_reg;
	return -EOPNOTSUPP;
}

int dw_module_ra_slot(struct dw_module *m, uint64_t vaddr, int *base, int64_t *offset)
{
	(void)m, (void)vaddr, (void)base, (void)offset;
	return -EOPNOTSUPP;
}
