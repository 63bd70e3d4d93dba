// SPDX-License-Identifier: MIT
/* The kernel's text symbols, parsed from /proc/kallsyms (or a copy of it),
 * for every reader: the reports' symbolizer, and the recording's kernel map
 * (_text, from the head of /proc/kallsyms). */
#include "sample/sample.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROC_KALLSYMS "/proc/kallsyms"

/* The kernel's symbols with all modules loaded are ~20 MB; a file of
 * symbols (--kallsyms) is not read past this. */
#define KALLSYMS_MAX (256u << 20)

/* ---- parsing /proc/kallsyms ---- */

static bool is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse the line at *@p, "ADDR TYPE NAME[\t[MODULE]]\n", and step past it,
 * cutting the name with a NUL: false for lines that are not text symbols.
 * One pass over the bytes: the kernel has some 100,000 of these lines. */
static bool parse_kallsyms_line(char **p, const char *end, uint64_t *addr, char **name,
				bool *module)
{
	char *c = *p, *n, *eol = memchr(*p, '\n', (size_t)(end - *p));
	uint64_t a = 0;
	int d;
	bool ok;

	if (!eol)
		eol = (char *)end;
	*p = eol < end ? eol + 1 : eol;
	while (c < eol && (d = hex_digit(*c)) >= 0) {
		a = a << 4 | (uint64_t)d;
		c++;
	}
	ok = c + 3 < eol && c[0] == ' ' && c[2] == ' ' && is_text(c[1]);
	n = c + 3;
	if (!ok)
		return false;
	*eol = '\0';
	*module = false;
	for (char *t = n; t < eol; t++)
		if (*t == '\t') {
			*t = '\0';	/* "\t[module]" */
			*module = t[1] == '[';
			break;
		}
	*addr = a;
	*name = n;
	return *n != '\0';
}

/* The whole of a file of symbols (/proc/kallsyms or a copy), read in
 * large pieces (the kernel formats kallsyms anew on each read, and
 * restarts its walk for each) into memory mapped with huge pages where the
 * kernel gives them: on a virtual machine the first pass over 5 MB of
 * small pages costs more than parsing it. /proc/kallsyms has no size; a
 * copy has one, and a small copy gets a small buffer: a 16 MB one, its
 * first huge page zeroed and the whole unmapped again, cost more than
 * reading a file of a few symbols. */
static char *slurp(const char *path, size_t *len, size_t *map_len, int *err)
{
	off_t size;
	int fd = open_regular(path, &size);
	size_t cap = 16u << 20;
	char *buf;

	*len = *map_len = 0;
	*err = fd < 0 ? fd : -ENOMEM;
	if (fd < 0)
		return NULL;
	if (size > (off_t)KALLSYMS_MAX) {
		*err = -EFBIG;
		close(fd);
		return NULL;
	}
	if (size > 0)	/* room for one more read than it holds: the one that ends */
		cap = ((size_t)size + (1u << 20) + 1 + 4095) & ~(size_t)4095;
	buf = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	madvise(buf, cap, MADV_HUGEPAGE);
	for (;;) {
		ssize_t n;

		if (cap - *len < (1u << 20) + 1) {
			char *bigger = cap < KALLSYMS_MAX ?
				mremap(buf, cap, 2 * cap, MREMAP_MAYMOVE) : MAP_FAILED;

			if (bigger == MAP_FAILED) {
				*err = cap < KALLSYMS_MAX ? -ENOMEM : -EFBIG;
				munmap(buf, cap);
				close(fd);
				return NULL;
			}
			buf = bigger;
			cap *= 2;
		}
		n = read(fd, buf + *len, 1u << 20);
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(fd);
	buf[*len] = '\0';
	*map_len = cap;
	return buf;
}

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Where each symbol ends, as perf bounds kallsyms' (symbols__fixup_end):
 * at the next one, but the last of the kernel before the modules (or of
 * the modules before the kernel) and the last of all end a page further,
 * not across the gap between them or past the end. */
static void bound_ksyms(struct ksym *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && k[i].module == k[i + 1].module)
			k[i].end = k[i + 1].addr;
		else if (i + 1 < n)
			k[i].end = ((k[i].addr + 4096) + 4095) & ~(uint64_t)4095;
		else
			k[i].end = ((k[i].addr + 4095) & ~(uint64_t)4095) + 4096;
		if (k[i].end < k[i].addr)	/* at the top of the address space */
			k[i].end = UINT64_MAX;
	}
}

static void parse_file(struct ksyms *k, const char *path)
{
	size_t len, cap = 0;
	bool sorted = true, any_addr = false;
	struct ksym *syms = NULL;
	char *text;
	int err;

	text = slurp(path, &len, &k->map_len, &err);
	if (!text) {
		snprintf(k->problem_buf, sizeof(k->problem_buf), "'%s': %s", path,
			 file_open_problem(err));
		k->problem = k->problem_buf;
		return;
	}
	k->map = text;	/* the names stay where they were read */
	k->names = text;
	for (char *p = text; p < text + len;) {
		uint64_t addr;
		char *name;
		bool module;

		if (!parse_kallsyms_line(&p, text + len, &addr, &name, &module))
			continue;
		if (vec_reserve(&syms, &cap, k->nr + 1, sizeof(*syms)) ||
		    (size_t)(name - text) > UINT32_MAX)
			break;
		if (k->nr && addr < syms[k->nr - 1].addr)
			sorted = false;
		any_addr |= addr != 0;
		syms[k->nr++] =
			(struct ksym){ addr, addr, (uint32_t)(name - text), module };
	}
	k->owned = syms;
	k->syms = syms;
	if (!any_addr) {
		k->nr = 0;
		k->problem = "kernel addresses are hidden (kernel.kptr_restrict; run as root or set it to 0)";
		return;
	}
	if (!sorted)
		qsort(syms, k->nr, sizeof(*syms), cmp_ksym);
	bound_ksyms(syms, k->nr);
}

int kallsyms_text(uint64_t *addr)
{
	char buf[8192], *p = buf, *name, *end;
	int fd = open(PROC_KALLSYMS, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	bool module;

	*addr = 0;
	if (fd < 0)
		return -errno;
	/* _text is among the first lines: the rest is not read (or formatted). */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -ENOENT;
	buf[n] = '\0';
	end = strrchr(buf, '\n');	/* a line cut by the read is not a line */
	while (end && p < end)
		if (parse_kallsyms_line(&p, end, addr, &name, &module) &&
		    !strcmp(name, "_text"))
			return *addr ? 0 : -EACCES;
	*addr = 0;
	return -ENOENT;
}

void ksyms_load(struct ksyms *k, const char *path)
{
	memset(k, 0, sizeof(*k));
	if (!path[0]) {
		k->problem = "no kernel symbols were asked for (kallsyms \"\")";
		return;
	}
	parse_file(k, path);
}

void ksyms_release(struct ksyms *k)
{
	free(k->owned);
	if (k->map)
		munmap(k->map, k->map_len);
	memset(k, 0, sizeof(*k));
}
