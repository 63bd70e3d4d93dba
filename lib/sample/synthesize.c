// SPDX-License-Identifier: MIT
/* Records for what existed before recording began, read from /proc as perf
 * does: the kernel's text and its modules, and the threads and executable
 * mappings of processes that were already running (-p, -a, profiling
 * oneself), and the cgroups (--all-cgroups). They
 * carry a zeroed sample_id trailer, which perf reads as "synthesized". */
#include "sample/sample.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>

/* Room for the largest record we make: the fields, a path and a trailer. */
struct synth_buf {
	union {
		struct perf_event_header h;
		uint64_t align;
		unsigned char bytes[PATH_MAX + 256];
	};
};

/* Finish a record whose fields end at @len: pad to 8, add the trailer. */
static int emit(struct synth_buf *b, size_t len, size_t id_size, synth_fn fn, void *ctx)
{
	size_t padded = (len + 7) & ~(size_t)7;

	memset(b->bytes + len, 0, padded - len + id_size);
	b->h.size = (uint16_t)(padded + id_size);
	return fn(&b->h, ctx);
}

static size_t put(struct synth_buf *b, size_t at, const void *p, size_t n)
{
	memcpy(b->bytes + at, p, n);
	return at + n;
}

/* A kernel map: pid -1, as perf writes the kernel's and its modules'. */
static int kernel_map(uint64_t start, uint64_t len, uint64_t pgoff, const char *name,
		      size_t id_size, synth_fn fn, void *ctx)
{
	struct synth_buf b;
	uint32_t pid = PD_KERNEL_PID, tid = 0;
	size_t at, n = strnlen(name, PATH_MAX - 1);

	b.h.type = PERF_RECORD_MMAP;
	b.h.misc = PERF_RECORD_MISC_KERNEL;
	at = sizeof(b.h);
	at = put(&b, at, &pid, 4);
	at = put(&b, at, &tid, 4);
	at = put(&b, at, &start, 8);
	at = put(&b, at, &len, 8);
	at = put(&b, at, &pgoff, 8);
	at = put(&b, at, name, n);
	b.bytes[at++] = '\0';
	return emit(&b, at, id_size, fn, ctx);
}

int synth_kernel_mmap(size_t id_size, synth_fn fn, void *ctx)
{
	char name[64];
	const char *ref;
	uint64_t start;

	if (kallsyms_ref(NULL, &start, &ref))
		return 0;	/* addresses hidden (kptr_restrict): nothing to say */
	/* "[kernel.kallsyms]_text" as perf names it, by its reference symbol:
	 * _stext where kallsyms has no _text (arm64) */
	snprintf(name, sizeof(name), PD_KERNEL_NAME "%s", ref);
	/* Up to the end of the address space, and the reference symbol's
	 * address as the offset: perf trims it to the kernel's symbols when
	 * it loads them. */
	return kernel_map(start, ~(uint64_t)0 - start, start, name, id_size, fn, ctx);
}

static int cmp_loaded(const void *a, const void *b)
{
	return strcmp(((const struct kmod_loaded *)a)->name,
		      ((const struct kmod_loaded *)b)->name);
}

/* Each module's file, as depmod lists it ("kernel/.../e1000e.ko.xz: deps",
 * relative to @dir or absolute). perf finds them by walking the folder;
 * modules.dep is the list of that walk that depmod keeps. */
static int name_files(struct kmod_list *l, const char *dir)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/modules.dep", dir) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;	/* no list: the modules go by their names */
	qsort(l->m, l->nr, sizeof(*l->m), cmp_loaded);
	while (!err && (n = getline(&line, &cap, f)) > 0) {
		struct kmod_loaded key, *m;

		line[strcspn(line, ":\n")] = '\0';
		if (!kmod_name(line, key.name, sizeof(key.name)))
			continue;
		m = bsearch(&key, l->m, l->nr, sizeof(*l->m), cmp_loaded);
		if (!m || m->path)
			continue;
		if (line[0] == '/')
			m->path = strdup(line);
		else if (asprintf(&m->path, "%s/%s", dir, line) < 0)
			m->path = NULL;
		if (!m->path)
			err = -ENOMEM;
	}
	free(line);
	fclose(f);
	kmod_list_sort(l);	/* by address again */
	return err;
}

int synth_kernel_modules(size_t id_size, synth_fn fn, void *ctx)
{
	const char *root = kmodules_root();
	struct kmod_list l;
	char path[PATH_MAX], dir[PATH_MAX];
	struct utsname u;
	int err;

	snprintf(path, sizeof(path), "%s/proc/modules", root);
	/* by address, as perf writes them (its maps are a tree by address) */
	err = kmodules_by_addr(path, &l);
	if (err == -ENOENT)
		err = 0;	/* a kernel without modules */
	if (err && err != -ENOMEM) {
		pr_warn("kernel modules not recorded: '%s': %s; the report cannot name samples in them by module\n",
			path, kmodules_problem(err));
		err = 0;
	}
	if (!err && l.nr && !uname(&u)) {
		snprintf(dir, sizeof(dir), "%s/lib/modules/%s", root, u.release);
		err = name_files(&l, dir);
	}
	for (size_t i = 0; i < l.nr && !err; i++)
		err = kernel_map(l.m[i].addr, l.m[i].size, 0,
				 l.m[i].path ? l.m[i].path : l.m[i].name, id_size, fn,
				 ctx);
	kmod_list_free(&l);
	return err == -ENOMEM ? fail(-ENOMEM, "out of memory") : err;
}

static int synth_comm(pid_t pid, pid_t tid, size_t id_size, synth_fn fn, void *ctx)
{
	struct synth_buf b;
	char path[64], comm[32] = "";
	uint32_t p = (uint32_t)pid, t = (uint32_t)tid;
	size_t at;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* gone meanwhile */
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	b.h.type = PERF_RECORD_COMM;
	b.h.misc = 0;
	at = sizeof(b.h);
	at = put(&b, at, &p, 4);
	at = put(&b, at, &t, 4);
	at = put(&b, at, comm, strlen(comm) + 1);
	return emit(&b, at, id_size, fn, ctx);
}

/* One line of /proc/PID/maps as an MMAP2 record, if it is executable. */
static int synth_map_line(pid_t pid, const char *line, size_t id_size, synth_fn fn,
			  void *ctx)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int name_at = 0;
	struct synth_buf b;
	uint32_t p = (uint32_t)pid, prot, flags;
	uint64_t len, ino_gen = 0;
	const char *name;
	size_t at, n;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
		   &maj, &min, &ino, &name_at) < 7 ||
	    strlen(perms) < 4 || perms[2] != 'x')
		return 0;
	name = name_at ? line + name_at : "";
	n = strcspn(name, "\n");
	if (!n) {
		name = "//anon";
		n = strlen(name);
	}
	if (n > PATH_MAX - 1)
		n = PATH_MAX - 1;
	len = end - start;
	prot = PROT_EXEC | (perms[0] == 'r' ? PROT_READ : 0) |
	       (perms[1] == 'w' ? PROT_WRITE : 0);
	flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	b.h.type = PERF_RECORD_MMAP2;
	b.h.misc = PERF_RECORD_MISC_USER;
	at = sizeof(b.h);
	at = put(&b, at, &p, 4);
	at = put(&b, at, &p, 4);
	at = put(&b, at, &(uint64_t){ start }, 8);
	at = put(&b, at, &len, 8);
	at = put(&b, at, &(uint64_t){ pgoff }, 8);
	at = put(&b, at, &maj, 4);
	at = put(&b, at, &min, 4);
	at = put(&b, at, &(uint64_t){ ino }, 8);
	at = put(&b, at, &ino_gen, 8);
	at = put(&b, at, &prot, 4);
	at = put(&b, at, &flags, 4);
	at = put(&b, at, name, n);
	b.bytes[at++] = '\0';
	return emit(&b, at, id_size, fn, ctx);
}

static int synth_maps(pid_t pid, size_t id_size, synth_fn fn, void *ctx)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* a kernel thread, or gone */
	while (!err && getline(&line, &cap, f) > 0)
		err = synth_map_line(pid, line, id_size, fn, ctx);
	free(line);
	fclose(f);
	return err;
}

static bool numeric(const char *s, long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtol(s, &end, 10);
	return !*end && *v > 0 && *v <= INT_MAX;
}

/* The process a thread id belongs to (its thread group), or @tid itself. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = tid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return tid;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

int synth_process(pid_t tid, size_t id_size, synth_fn fn, void *ctx)
{
	pid_t pid = tgid_of(tid), *tids = NULL;
	size_t nr = 0;
	int err = list_threads(pid, &tids, &nr);

	if (err) {
		free(tids);
		clear_error();
		return 0;	/* gone meanwhile: nothing to say about it */
	}
	for (size_t i = 0; i < nr && !err; i++)
		err = synth_comm(pid, tids[i], id_size, fn, ctx);
	free(tids);
	return err ? err : synth_maps(pid, id_size, fn, ctx);
}

int synth_all_processes(size_t id_size, synth_fn fn, void *ctx)
{
	struct dirent *de;
	int err = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return fail(-errno, "cannot read /proc: %s", errno_text(errno));
	while (!err && (de = readdir(d))) {
		long pid;

		if (numeric(de->d_name, &pid))
			err = synth_process((pid_t)pid, id_size, fn, ctx);
	}
	closedir(d);
	return err;
}

/* Cgroup @path's record (@rel its path under the mount, "/" for the
 * root): its id is its directory's file handle, as the kernel's
 * PERF_SAMPLE_CGROUP gives it. A cgroup removed meanwhile is not named. */
static int cgroup_record(const char *path, const char *rel, size_t id_size, synth_fn fn,
			 void *ctx)
{
	struct {
		struct file_handle fh;
		unsigned char id[8];
	} h = { .fh.handle_bytes = 8 };
	struct synth_buf b;
	int mount_id;
	uint64_t id;
	size_t at;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) ||
	    h.fh.handle_bytes < 8)
		return 0;
	memcpy(&id, h.fh.f_handle, 8);
	b.h.type = PERF_RECORD_CGROUP;
	b.h.misc = 0;
	at = put(&b, sizeof(b.h), &id, 8);
	at = put(&b, at, *rel ? rel : "/", *rel ? strnlen(rel, PATH_MAX - 1) : 1);
	b.bytes[at++] = '\0';
	return emit(&b, at, id_size, fn, ctx);
}

/* @path (@len bytes, in a PATH_MAX buffer) and the cgroups under it. */
static int walk_cgroups(char *path, size_t len, size_t root_len, size_t id_size,
			synth_fn fn, void *ctx)
{
	int err = cgroup_record(path, path + root_len, id_size, fn, ctx);
	struct dirent *de;
	DIR *d;

	if (err || !(d = opendir(path)))
		return err;
	while (!err && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") ||
		    !strcmp(de->d_name, "..") || len + 1 + n >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, n + 1);
		err = walk_cgroups(path, len + 1 + n, root_len, id_size, fn, ctx);
		path[len] = '\0';
	}
	closedir(d);
	return err;
}

int synth_cgroups(size_t id_size, synth_fn fn, void *ctx)
{
	char path[PATH_MAX];
	size_t len;

	if (cgroup2_mount(path, sizeof(path)))
		return 0;
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	return walk_cgroups(path, len, len, id_size, fn, ctx);
}
