// SPDX-License-Identifier: MIT
/* Whether the file at a module's path is the one recorded, where no
 * build-id says: a program linked with --build-id=none, or recorded by
 * perf record --no-buildid. The kernel's MMAP2 records name the mapped
 * file's device and inode; hwprof record also writes what stat() says of
 * each such file when the recording ends (PD_FEAT_HWPROF_FILES: device,
 * inode, size, modification time). A rebuilt program is a new file (the
 * linker unlinks its output and creates it again), with a new inode
 * number, or the old number given again: then the inode's generation
 * tells, where the file system says it (ext4); and a file rewritten in
 * place, its size or time (hwprof's files only). A file whose contents
 * are the same but that was touched or copied since counts as another
 * build too: its contents are not compared. */
#include "sample/perf-data-read.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

_Static_assert(PD_FILE_STAT_FIXED == 8 + sizeof(struct pd_file_stat),
	       "PD_FEAT_HWPROF_FILES's entry is its header and a pd_file_stat");

static void file_stat(const struct stat *s, struct pd_file_stat *st)
{
	st->dev = s->st_dev;
	st->ino = s->st_ino;
	st->size = (uint64_t)s->st_size;
	st->mtime_ns = (int64_t)s->st_mtim.tv_sec * 1000000000 + s->st_mtim.tv_nsec;
}

int pd_file_stat_of(const char *path, struct pd_file_stat *st)
{
	struct stat s;

	memset(st, 0, sizeof(*st));
	if (stat(path, &s))
		return -errno;
	file_stat(&s, st);
	return 0;
}

/* One entry at @p, @len bytes: its size, or 0 when it is not whole. */
static size_t read_file_stat(struct pd_file *f, const unsigned char *p, size_t len)
{
	struct file_stat_entry e = { 0 };
	const char *name = (const char *)p + PD_FILE_STAT_FIXED;
	uint32_t size;

	if (len < PD_FILE_STAT_FIXED)
		return 0;
	memcpy(&size, p, sizeof(size));
	if (size <= PD_FILE_STAT_FIXED || size > len || size % 8)
		return 0;
	if (!memchr(name, '\0', size - PD_FILE_STAT_FIXED))
		return size;	/* nothing to use: the next one may be */
	memcpy(&e.st, p + 8, sizeof(e.st));
	if (vec_reserve(&f->fstats, &f->cap_fstats, f->nr_fstats + 1, sizeof(e)) ||
	    !(e.path = strdup(name)))
		return size;	/* out of memory: that file is not checked */
	f->fstats[f->nr_fstats++] = e;
	return size;
}

void pd_read_file_stats(struct pd_file *f, struct feat_cursor *c)
{
	size_t n;

	while ((n = read_file_stat(f, c->p, (size_t)(c->end - c->p))))
		c->p += n;
}

int pd_foreach_file_stat(const struct pd_file *f, pd_file_stat_fn fn, void *ctx)
{
	for (size_t i = 0; i < f->nr_fstats; i++) {
		int err = fn(f->fstats[i].path, &f->fstats[i].st, ctx);

		if (err)
			return err;
	}
	return 0;
}

/* The device and inode of @path as a mapping of it sees them, which MMAP2
 * records give: stat() may say otherwise (overlayfs gives the inode of
 * another layer, btrfs a subvolume's device); from this process's maps. */
static bool mapped_id(const char *path, uint32_t *maj, uint32_t *min, uint64_t *ino)
{
	int fd = open_regular(path, NULL);
	char *line = NULL;
	size_t cap = 0;
	bool found = false;
	void *at;
	FILE *f;

	if (fd < 0)
		return false;
	at = mmap(NULL, 1, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (at == MAP_FAILED)
		return false;
	f = fopen("/proc/self/maps", "re");
	while (f && !found && getline(&line, &cap, f) > 0) {
		unsigned long long start, inode;

		found = sscanf(line, "%llx-%*x %*s %*x %x:%x %llu", &start, maj, min,
			       &inode) == 4 && start == (uintptr_t)at;
		*ino = inode;
	}
	free(line);
	if (f)
		fclose(f);
	munmap(at, 1);
	return found;
}

/* Whether @path's inode is not of generation @gen (MMAP2's): a number
 * freed and given again, as ext4 does. Only where the file system says
 * (FS_IOC_GETVERSION: ext2/3/4, some others), and a generation was
 * recorded (not in records made from /proc/PID/maps). The ioctl writes an
 * int on ext4 and a long elsewhere: on a little-endian machine the int is
 * the long's low half. */
static bool other_generation(const char *path, uint64_t gen)
{
	union {
		long l;
		int i;
	} now = { 0 };
	int fd, err;

	if (!gen)
		return false;
	fd = open_regular(path, NULL);
	if (fd < 0)
		return false;
	err = ioctl(fd, FS_IOC_GETVERSION, &now);
	close(fd);
	return !err && (uint32_t)now.i != (uint32_t)gen;
}

/* Whether devices @a and @b (major, minor) may be the same: equal, or
 * both anonymous (major 0: tmpfs, btrfs, overlayfs), which are numbered
 * as they are mounted, so that the same file system may get another
 * number after a reboot: the inode alone tells there. */
static bool same_dev(uint32_t a_maj, uint32_t a_min, uint32_t b_maj, uint32_t b_min)
{
	return (a_maj == b_maj && a_min == b_min) || (!a_maj && !b_maj);
}

/* Whether the file at @d's path, as stat() saw it (@now), is the one the
 * MMAP2 records mapped. */
static bool same_mapping(const struct dso *d, const struct stat *now)
{
	uint32_t maj, min;
	uint64_t ino;

	if (now->st_ino == d->ino &&
	    same_dev(major(now->st_dev), minor(now->st_dev), d->maj, d->min))
		return !other_generation(d->path, d->ino_gen);
	if (!mapped_id(d->path, &maj, &min, &ino))
		return true;	/* cannot tell: the open says why, if anything */
	return ino == d->ino && same_dev(maj, min, d->maj, d->min);
}

#define NO_BUILD_ID \
	"the file is another build than the one recorded (it has no build-id to tell, and %s; rebuilt or replaced since, or recorded on another machine): keep the recorded file as it is until the report, or build with a build-id (-Wl,--build-id) and keep that build (perf buildid-cache -a FILE)"

/* @nr of @words as a list: "a", "a and b", "a, b and c". */
static void list_of(char *buf, size_t size, const char *const *words, int nr)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < nr && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      !i ? "" : i == nr - 1 ? " and " : ", ", words[i]);
}

const char *file_other_build(const struct dso *d, char *buf, size_t size)
{
	const char *differ[3];
	char list[64], cause[128];
	struct pd_file_stat now;
	struct stat s;
	int nr = 0;

	if (d->remapped) {
		snprintf(buf, size, NO_BUILD_ID,
			 "two files were mapped at its path while recording: which one a sample was of is not known");
		return buf;
	}
	if ((!d->ino && !d->stat_known) || stat(d->path, &s))
		return NULL;	/* nothing to compare, or no file: its open says why */
	file_stat(&s, &now);
	if ((d->stat_known &&
	     (now.ino != d->stat.ino ||
	      !same_dev(major(now.dev), minor(now.dev), major(d->stat.dev),
			minor(d->stat.dev)))) ||
	    (d->ino && !same_mapping(d, &s)))
		differ[nr++] = "inode";
	if (d->stat_known && now.size != d->stat.size)
		differ[nr++] = "size";
	if (d->stat_known && now.mtime_ns != d->stat.mtime_ns)
		differ[nr++] = "modification time";
	if (!nr)
		return NULL;
	list_of(list, sizeof(list), differ, nr);
	snprintf(cause, sizeof(cause), "its %s differ%s from the recorded file's", list,
		 nr > 1 ? "" : "s");
	snprintf(buf, size, NO_BUILD_ID, cause);
	return buf;
}
