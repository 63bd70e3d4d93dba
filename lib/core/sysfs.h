/* SPDX-License-Identifier: MIT */
/* sys.c: the sysfs tree to read, and its one-line files. */
#ifndef HWPROF_CORE_SYSFS_H
#define HWPROF_CORE_SYSFS_H

#include <stddef.h>

/* The sysfs mount to read: @root if given, else $HWPROF_SYSFS_ROOT (a test's
 * fabricated tree), else "/sys". */
const char *sysfs_root(const char *root);
/* The first line of @dir/@rel (a sysfs file), without its newline, into
 * @buf: 0 or -errno (-EIO when empty). */
int read_first_line(const char *dir, const char *rel, char *buf, size_t size);
/* The same of the file @path. */
int read_line_of(const char *path, char *buf, size_t size);
/* Where the cgroup v2 hierarchy is mounted, from /proc/self/mountinfo,
 * into @buf: 0, -ENOENT when it is not, or -errno. */
int cgroup2_mount(char *buf, size_t size);

#endif
