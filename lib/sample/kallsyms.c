// SPDX-License-Identifier: MIT
/* The kernel's text symbols: parsed from /proc/kallsyms (or a copy of it),
 * and kept between reports in a cache file keyed by the running kernel's
 * identity, as perf keeps copies of kallsyms. The kernel formats the 5 MB
 * of /proc/kallsyms anew on every read: tens of milliseconds, the largest
 * part of a report by symbol; a mapped table of the parsed symbols costs
 * a small part of that. A cache that does not match, in any way, is not
 * used: the symbols are read from /proc/kallsyms and the cache rewritten. */
#include "sample/sample.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

const char *ksym_module(const struct ksyms *k, const struct ksym *s)
{
	const char *name = k->names + s->name;

	/* read and cached alike: the module's name follows the symbol's */
	return s->module ? name + strlen(name) + 1 : NULL;
}

int kallsyms_ref(const char *path, uint64_t *addr, const char **name)
{
	char buf[8192], *p = buf, *sym, *end;
	int fd = open(path ? path : PROC_KALLSYMS, O_RDONLY | O_CLOEXEC);
	uint64_t a, stext = 0;
	bool module, have_stext = false;
	ssize_t n;

	*addr = 0;
	*name = NULL;
	if (fd < 0)
		return -errno;
	/* Both are among the first lines: the rest is not read (or formatted). */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	end = strrchr(buf, '\n');	/* a line cut by the read is not a line */
	while (end && p < end) {
		if (!parse_kallsyms_line(&p, end, &a, &sym, &module) || module)
			continue;
		if (!strcmp(sym, "_text")) {
			if (!a)
				return -EACCES;
			*addr = a;
			*name = "_text";
			return 0;
		}
		if (!have_stext && !strcmp(sym, "_stext")) {
			have_stext = true;
			stext = a;
		}
	}
	if (!have_stext)
		return -ENOENT;
	if (!stext)
		return -EACCES;
	*addr = stext;
	*name = "_stext";
	return 0;
}

/* ---- the cache ---- */

#define KCACHE_MAGIC "HWPKSYMS"
/* 2: a module's symbol is followed by its module, "NAME\0[MODULE]\0" */
#define KCACHE_VERSION 2
#define KCACHE_KEY_MAX 208

struct kcache_header {
	char magic[8];
	uint32_t version;
	uint32_t header_size;
	uint64_t file_size;
	uint64_t nr_syms;
	uint64_t names_size;
	uint64_t checksum;	/* of the bytes past the header */
	char key[KCACHE_KEY_MAX];	/* the kernel's identity, NUL-padded */
};

/* Eight bytes a step in four independent lanes: a check against a torn
 * or damaged file, not against an adversary, at a small part of the cost
 * of hash_bytes()' dependent chain over a few megabytes. */
uint64_t ksyms_checksum(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h[4] = { 0x9e3779b97f4a7c15ULL, 0xbf58476d1ce4e5b9ULL,
			  0x94d049bb133111ebULL, 0x2545f4914f6cdd1dULL };
	size_t i = 0;

	for (; i + 32 <= len; i += 32)
		for (int l = 0; l < 4; l++) {
			uint64_t w;

			memcpy(&w, p + i + 8 * l, 8);
			h[l] = (h[l] ^ w) * 0x100000001b3ULL;
		}
	return hash_mix(hash_mix(hash_mix(hash_mix(hash_bytes(p + i, len - i), h[0]),
					  h[1]), h[2]), h[3]);
}

static int hash_module(const struct kmodule *km, void *ctx)
{
	uint64_t *h = ctx;

	*h = hash_mix(*h, hash_bytes(km->name, strlen(km->name)));
	*h = hash_mix(*h, hash_bytes(km->state, strlen(km->state)));
	*h = hash_mix(*h, km->addr);
	return 0;
}

uint64_t ksyms_modules_hash(const char *path)
{
	uint64_t h = 2;
	int err = kmodules_walk(path, hash_module, &h);

	if (err == -ENOENT)
		return 0;
	return err ? 1 : h | 2;
}

/* The BPF programs and links loaded now (their JIT code and trampolines
 * are in kallsyms, as "[bpf]"): ids are not reused, so the list of them
 * says whether any came or went. */
static int bpf_ids_hash(uint64_t *h)
{
	static const int cmds[] = { BPF_PROG_GET_NEXT_ID, BPF_LINK_GET_NEXT_ID };

	*h = 0;
	for (size_t c = 0; c < ARRAY_SIZE(cmds); c++) {
		union bpf_attr a;

		memset(&a, 0, sizeof(a));
		for (;;) {
			if (syscall(SYS_bpf, cmds[c], &a, sizeof(a)) < 0) {
				if (errno == ENOENT)
					break;
				/* no BPF (ENOSYS) or no links (EINVAL): none */
				if (errno == ENOSYS || (errno == EINVAL && c))
					break;
				return -errno;	/* EPERM: not ours to know */
			}
			*h = hash_mix(*h, (uint64_t)c << 32 | a.next_id);
			a.start_id = a.next_id;
		}
	}
	return 0;
}

int ksyms_cache_key(char *key, size_t size)
{
	char hex[2 * PD_BUILD_ID_MAX + 1], boot[64];
	struct pd_build_id id;
	uint64_t text = 0, bpf = 0, modules = 0;
	const char *ref = NULL;
	int err, n;

	err = pd_build_id_of_notes(PD_KERNEL_NOTES, &id);
	if (!err && !id.size)
		err = -ENOENT;
	if (!err)
		err = read_first_line("/proc/sys/kernel/random", "boot_id", boot,
				      sizeof(boot));
	/* _text (or _stext) as this reader sees it: another boot's KASLR
	 * offset, or hidden from it (nothing to keep then) */
	if (!err)
		err = kallsyms_ref(NULL, &text, &ref);
	if (!err)
		err = bpf_ids_hash(&bpf);
	if (!err)
		modules = ksyms_modules_hash("/proc/modules");
	if (modules == 1)
		err = -EACCES;
	if (err)
		return err;
	pd_build_id_hex(&id, hex, sizeof(hex));
	n = snprintf(key, size, "build-id %s boot %s %s %" PRIx64 " modules %" PRIx64
		     " bpf %" PRIx64, hex, boot, ref, text, modules, bpf);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int cache_file_path(char *path, size_t size, const char *name)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(path, size, "%s/hwprof/%s", xdg, name);
	else if (home && home[0] == '/')
		n = snprintf(path, size, "%s/.cache/hwprof/%s", home, name);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int ksyms_cache_path(char *path, size_t size, const char *key)
{
	char id[2 * PD_BUILD_ID_MAX + 1], name[sizeof("kallsyms-") + sizeof(id)];

	if (sscanf(key, "build-id %40[0-9a-f]", id) != 1)
		return -EINVAL;
	snprintf(name, sizeof(name), "kallsyms-%s", id);
	return cache_file_path(path, size, name);
}

static bool syms_valid(const struct ksym *syms, size_t nr, const char *names,
		       size_t names_size)
{
	if (!names_size || names[names_size - 1] != '\0')
		return false;
	for (size_t i = 0; i < nr; i++) {
		if (syms[i].name >= names_size || syms[i].end < syms[i].addr ||
		    syms[i].module > 1 || (i && syms[i].addr < syms[i - 1].addr))
			return false;
		/* the module's name follows, within the names */
		if (syms[i].module &&
		    syms[i].name + strlen(names + syms[i].name) + 1 >= names_size)
			return false;
	}
	return true;
}

/* A string and zeros after it: one changed byte anywhere is noticed. */
static bool key_valid(const char *key)
{
	const char *nul = memchr(key, '\0', KCACHE_KEY_MAX);

	if (!nul)
		return false;
	for (const char *c = nul; c < key + KCACHE_KEY_MAX; c++)
		if (*c)
			return false;
	return true;
}

int ksyms_cache_check(const void *data, size_t size, const char *key)
{
	const struct kcache_header *h = data;
	const unsigned char *body = (const unsigned char *)data + sizeof(*h);
	size_t syms_size;

	if (size < sizeof(*h) || memcmp(h->magic, KCACHE_MAGIC, 8) ||
	    h->version != KCACHE_VERSION || h->header_size != sizeof(*h) ||
	    h->file_size != size || h->nr_syms > size / sizeof(struct ksym))
		return -HWP_ERR_FORMAT;
	syms_size = (size_t)h->nr_syms * sizeof(struct ksym);
	if (h->names_size > size || sizeof(*h) + syms_size + h->names_size != size)
		return -HWP_ERR_FORMAT;
	if (!key_valid(h->key))
		return -HWP_ERR_FORMAT;
	if (key && strcmp(h->key, key))
		return -ESTALE;
	if (ksyms_checksum(body, size - sizeof(*h)) != h->checksum ||
	    !syms_valid((const struct ksym *)body, (size_t)h->nr_syms,
			(const char *)body + syms_size, (size_t)h->names_size))
		return -HWP_ERR_FORMAT;
	return 0;
}

/* Whether @st is a folder of this user that no one else can write in
 * (@strict: not its group either). */
static bool own_dir(const struct stat *st, bool strict)
{
	return S_ISDIR(st->st_mode) && st->st_uid == geteuid() &&
	       !(st->st_mode & (strict ? (S_IWGRP | S_IWOTH) : S_IWOTH));
}

/* The folder of the cache file @path (.../hwprof), opened, made if missing
 * with the one above it ($XDG_CACHE_HOME, ~/.cache), but no more: a HOME
 * that does not exist is not made. Every folder is this user's: a report
 * run as root with another user's HOME or XDG_CACHE_HOME (sudo -E) neither
 * reads nor writes there, and makes nothing in their home; the last folder
 * is opened without following a link and the file's calls are made in it,
 * so no link of a path someone else controls is followed. The fd, or
 * -errno (-EPERM: a folder of another user). */
int cache_dir_open(const char *path, bool create)
{
	char dir[PATH_MAX], *leaf, *top;
	struct stat st;
	int pfd, fd;

	snprintf(dir, sizeof(dir), "%s", path);
	leaf = strrchr(dir, '/');
	if (!leaf || leaf == dir)
		return -EINVAL;
	*leaf = '\0';			/* dir: .../hwprof */
	leaf = strrchr(dir, '/');
	if (!leaf || leaf == dir)
		return -EINVAL;
	*leaf++ = '\0';		/* dir: the one above; leaf: "hwprof" */
	if (stat(dir, &st)) {
		if (errno != ENOENT || !create)
			return -errno;
		top = strrchr(dir, '/');
		if (!top)
			return -EINVAL;
		*top = '\0';
		/* the folder it goes in (HOME) must be this user's too */
		if (stat(top == dir ? "/" : dir, &st))
			return -errno;
		if (!own_dir(&st, false))
			return -EPERM;
		*top = '/';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
	}
	pfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) || !own_dir(&st, false)) {
		close(pfd);
		return -EPERM;
	}
	if (create && mkdirat(pfd, leaf, 0700) && errno != EEXIST) {
		fd = -errno;
		close(pfd);
		return fd;
	}
	fd = openat(pfd, leaf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !own_dir(&st, true)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* The cache at @path, if it is ours and whole and of the kernel @key names. */
static int cache_read(struct ksyms *k, const char *path, const char *key)
{
	const struct kcache_header *h;
	struct stat st;
	void *map;
	int dfd = cache_dir_open(path, false), fd, err;

	if (dfd < 0)
		return dfd;
	fd = openat(dfd, strrchr(path, '/') + 1, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	err = -errno;
	close(dfd);
	if (fd < 0)
		return err;
	/* another user's file could name another kernel's symbols */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(*h) || st.st_size > (off_t)KALLSYMS_MAX) {
		close(fd);
		return -HWP_ERR_FORMAT;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
		   0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	err = ksyms_cache_check(map, (size_t)st.st_size, key);
	if (err) {
		munmap(map, (size_t)st.st_size);
		return err;
	}
	h = map;
	k->map = map;
	k->map_len = (size_t)st.st_size;
	k->syms = (const struct ksym *)(h + 1);
	k->nr = (size_t)h->nr_syms;
	k->names = (const char *)(k->syms + k->nr);
	k->cached = true;
	return 0;
}

void *ksyms_cache_image(const struct ksyms *k, const char *key, size_t *size)
{
	size_t names_size = 0, syms_size = k->nr * sizeof(struct ksym), at;
	struct kcache_header *h;
	struct ksym *syms;
	char *names;

	for (size_t i = 0; i < k->nr; i++) {
		names_size += strlen(k->names + k->syms[i].name) + 1;
		if (k->syms[i].module)
			names_size += strlen(ksym_module(k, &k->syms[i])) + 1;
	}
	names_size += !names_size;
	*size = sizeof(*h) + syms_size + names_size;
	if (names_size > UINT32_MAX || strlen(key) >= KCACHE_KEY_MAX)
		return NULL;
	h = calloc(1, *size);
	if (!h)
		return NULL;
	syms = (struct ksym *)(h + 1);
	names = (char *)(syms + k->nr);
	at = 0;
	for (size_t i = 0; i < k->nr; i++) {
		const char *name = k->names + k->syms[i].name;
		size_t len = strlen(name) + 1;

		syms[i] = k->syms[i];
		syms[i].name = (uint32_t)at;
		memcpy(names + at, name, len);
		at += len;
		if (k->syms[i].module) {
			name = ksym_module(k, &k->syms[i]);
			len = strlen(name) + 1;
			memcpy(names + at, name, len);
			at += len;
		}
	}
	memcpy(h->magic, KCACHE_MAGIC, 8);
	h->version = KCACHE_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = *size;
	h->nr_syms = k->nr;
	h->names_size = names_size;
	strcpy(h->key, key);
	h->checksum = ksyms_checksum(h + 1, *size - sizeof(*h));
	return h;
}

/* Write a cache file whole under a temporary name, synced, and rename it
 * into place: a reader sees the old file or the new one, never half of
 * one, also after a crash. */
int cache_file_write(const char *path, int (*fill)(int fd, void *ctx), void *ctx)
{
	const char *name = strrchr(path, '/');
	char tmp[NAME_MAX + 1];
	int dfd, fd, err;

	if (!name || snprintf(tmp, sizeof(tmp), "%s.%ld", name + 1,
			      (long)syscall(SYS_gettid)) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	dfd = cache_dir_open(path, true);
	if (dfd < 0)
		return dfd;
	/* a name of this thread's (two profiles of one process may write at
	 * once), made anew: a file left by a killed report of the same id
	 * goes first */
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		close(dfd);
		return err;
	}
	err = fill(fd, ctx);
	/* on the disk before its name is: a crash after the rename would
	 * otherwise leave the name on a file cut short, or empty (ext4
	 * allocates late), which readers that trust a header would take */
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && renameat(dfd, tmp, dfd, name + 1))
		err = -errno;
	if (err)
		unlinkat(dfd, tmp, 0);
	close(dfd);
	return err;
}

struct image {
	const void *data;
	size_t size;
};

static int write_image(int fd, void *ctx)
{
	const struct image *im = ctx;
	ssize_t n = write(fd, im->data, im->size);

	return n == (ssize_t)im->size ? 0 : n < 0 ? -errno : -ENOSPC;
}

/* Failures leave no file and are not errors: the next report reads
 * kallsyms. */
int ksyms_cache_write(const struct ksyms *k, const char *path, const char *key)
{
	struct image im;
	void *image = ksyms_cache_image(k, key, &im.size);
	int err;

	if (!image)
		return -ENOMEM;
	im.data = image;
	err = cache_file_write(path, write_image, &im);
	free(image);
	return err;
}

void ksyms_load(struct ksyms *k, const char *path, bool use_cache)
{
	char key[KCACHE_KEY_MAX], after[KCACHE_KEY_MAX], cache[PATH_MAX];
	bool proc = !strcmp(path, PROC_KALLSYMS);
	int err;

	memset(k, 0, sizeof(*k));
	if (!path[0]) {
		k->problem = "no kernel symbols were asked for (kallsyms \"\")";
		return;
	}
	use_cache = use_cache && proc && !ksyms_cache_key(key, sizeof(key)) &&
		    !ksyms_cache_path(cache, sizeof(cache), key);
	if (use_cache) {
		err = cache_read(k, cache, key);
		if (!err) {
			pr_debug("kernel symbols: %zu from the cache '%s'\n", k->nr,
				 cache);
			return;
		}
		pr_debug("kernel symbols: not from the cache '%s': %s\n", cache,
			 err == -ESTALE ? "another kernel's or boot's" :
			 err == -HWP_ERR_FORMAT ?
			 "cut short, damaged, or not this user's" : errno_text(err));
	}
	parse_file(k, path);
	/* a module or BPF program that came or went while kallsyms was read
	 * would keep this table under a key it does not match */
	if (use_cache && k->nr && (ksyms_cache_key(after, sizeof(after)) ||
				   strcmp(after, key))) {
		pr_debug("kernel symbols: cache not written: the kernel's symbols changed while read\n");
		use_cache = false;
	}
	if (use_cache && k->nr) {
		err = ksyms_cache_write(k, cache, key);
		if (err)
			pr_debug("kernel symbols: cache '%s' not written: %s\n", cache,
				 errno_text(err));
	}
}

void ksyms_release(struct ksyms *k)
{
	free(k->owned);
	if (k->map)
		munmap(k->map, k->map_len);
	memset(k, 0, sizeof(*k));
}
