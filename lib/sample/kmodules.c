// SPDX-License-Identifier: MIT
/* The kernel's loaded modules, as /proc/modules lists them, and their names
 * as perf shows them ("[e1000e]"): read by the cache of kernel symbols (its
 * key), by the recorder (the modules' MMAP records) and named by the
 * report's address spaces. */
#include "sample/sample.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *kmodules_root(void)
{
	const char *env = getenv("HWPROF_MODULES_ROOT");

	return env && *env ? env : "";
}

/* "NAME SIZE REFS DEPS STATE ADDR [TAINT]\n" (DEPS, the modules that use
 * it, may be long): false for anything else. */
static bool parse_line(const char *line, struct kmodule *km, char name[128],
		       char state[16])
{
	char addr[32], *end;

	if (!strchr(line, '\n') ||
	    sscanf(line, "%127s %" SCNu64 " %*s %*s %15s %31s", name, &km->size, state,
		   addr) != 4 || strncmp(addr, "0x", 2))
		return false;
	errno = 0;
	km->addr = strtoull(addr + 2, &end, 16);
	if (errno || *end || end == addr + 2)
		return false;
	km->name = name;
	km->state = state;
	return true;
}

int kmodules_walk(const char *path, kmodule_fn fn, void *ctx)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, name[128], state[16];
	struct kmodule km;
	size_t cap = 0;
	int err = 0;

	if (!f)
		return -errno;
	while (!err && getline(&line, &cap, f) > 0) {
		if (!parse_line(line, &km, name, state)) {
			err = -HWP_ERR_FORMAT;
			break;
		}
		err = fn(&km, ctx);
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	fclose(f);
	return err;
}

bool kmod_name(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	if (path[0] == '[') {
		n = strcspn(path + 1, "]");
		if (!path[n + 1] || path[n + 2] || n + 3 > size ||
		    !strncmp(path, PD_KERNEL_NAME, strlen(PD_KERNEL_NAME)) ||
		    !strncmp(path, "[guest.kernel", 13))
			return false;
		memcpy(buf, path, n + 2);
		buf[n + 2] = '\0';
		return true;
	}
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (!n || strncmp(base + n, ".ko", 3) || (base[n + 3] && base[n + 3] != '.') ||
	    n + 3 > size)
		return false;
	buf[0] = '[';
	for (size_t i = 0; i < n; i++)
		buf[i + 1] = base[i] == '-' ? '_' : base[i];
	buf[n + 1] = ']';
	buf[n + 2] = '\0';
	return true;
}

static int add_loaded(const struct kmodule *km, void *ctx)
{
	struct kmod_list *l = ctx;
	struct kmod_loaded *m;

	if (!km->addr || !km->size || km->addr + km->size < km->addr)
		return 0;	/* hidden from us (kptr_restrict), no code, or past
				 * the end of the address space */
	if (vec_reserve(&l->m, &l->cap, l->nr + 1, sizeof(*l->m)))
		return -ENOMEM;
	m = &l->m[l->nr++];
	snprintf(m->name, sizeof(m->name), "[%s]", km->name);
	m->addr = km->addr;
	m->size = km->size;
	m->path = NULL;
	return 0;
}

static int cmp_loaded_addr(const void *a, const void *b)
{
	const struct kmod_loaded *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void kmod_list_sort(struct kmod_list *l)
{
	if (l->nr)
		qsort(l->m, l->nr, sizeof(*l->m), cmp_loaded_addr);
}

void kmod_list_free(struct kmod_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->m[i].path);
	free(l->m);
	*l = (struct kmod_list){ 0 };
}

int kmodules_by_addr(const char *path, struct kmod_list *l)
{
	int err;

	*l = (struct kmod_list){ 0 };
	err = kmodules_walk(path, add_loaded, l);
	if (err)
		kmod_list_free(l);
	else
		kmod_list_sort(l);
	return err;
}

const char *kmodules_problem(int err)
{
	return err == -HWP_ERR_FORMAT ? "not a list of modules as /proc/modules" :
	       file_open_problem(err);
}
