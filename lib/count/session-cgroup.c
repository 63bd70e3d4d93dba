// SPDX-License-Identifier: MIT
/* A session's cgroup (perf's -G): its name checked, its directory in the
 * cgroup v2 hierarchy opened for PERF_FLAG_PID_CGROUP. */
#include "count/session.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A cgroup is named as a path under the cgroup v2 mount, as perf's -G
 * takes it: never above it ('..', which the kernel refused with EBADF),
 * nor the root ('', '/'), which holds every task. */
int cgroup_check_name(const char *name)
{
	bool below_root = false;

	for (const char *p = name; *p; p += strcspn(p, "/")) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return fail(-EINVAL, "cgroup '%s': a '..' may lead out of the cgroup v2 hierarchy, where the kernel refuses it (EBADF): name a cgroup by its path under the mount (e.g. system.slice/NAME.service), as perf's -G takes it",
				    name);
		below_root |= n && !(n == 1 && *p == '.');
	}
	if (!below_root)
		return fail(-EINVAL, "cgroup '%s' is the root cgroup, which holds every task: count them all with -a alone, or name a cgroup under the mount",
			    name);
	return 0;
}

COLD_FRAME int session_cgroup_open(struct hwp_session *s)
{
	char mnt[4096], path[8192];
	int err;

	if (!s->cgroup)
		return 0;
	err = cgroup2_mount(mnt, sizeof(mnt));
	if (err)
		return fail(err, "cgroup '%s': no cgroup v2 hierarchy is mounted (mount -t cgroup2 none /sys/fs/cgroup); perf's -G counts cgroup v2 paths under it",
			    s->cgroup);
	snprintf(path, sizeof(path), "%s/%s", mnt, s->cgroup);
	s->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s->cgroup_fd < 0)
		return fail(-errno, "cgroup '%s': cannot open %s: %s (a path under the cgroup v2 mount %s, as perf's -G takes it)",
			    s->cgroup, path, errno_text(errno), mnt);
	return 0;
}

/* The children of @parent, "PARENT/CHILD" each: what hwprof serve
 * --cgroup-root counts, read again at each scrape as containers come and go. */
static int cgroup_walk(DIR *d, const char *parent, hwpriv_cgroup_fn fn, void *ctx)
{
	struct dirent *e;
	char name[8192];

	while ((e = readdir(d))) {
		int ret;

		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s%s%s", parent, *parent ? "/" : "",
			 e->d_name);
		ret = fn(name, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

HWP_API int hwpriv_cgroup_foreach_child(const char *parent, hwpriv_cgroup_fn fn,
					void *ctx)
{
	char mnt[4096], path[8192];
	DIR *d;
	int ret;

	if (!parent || !fn)
		return fail(-EINVAL,
			    "hwpriv_cgroup_foreach_child: no parent or no callback");
	parent += strspn(parent, "/");
	if (*parent && cgroup_check_name(parent))
		return -EINVAL;
	ret = cgroup2_mount(mnt, sizeof(mnt));
	if (ret)
		return fail(ret, "cgroup '%s': no cgroup v2 hierarchy is mounted (mount -t cgroup2 none /sys/fs/cgroup)",
			    parent);
	snprintf(path, sizeof(path), "%s/%s", mnt, parent);
	d = opendir(path);
	if (!d)
		return fail(-errno, "cgroup '%s': cannot list %s: %s (a path under the cgroup v2 mount %s)",
			    parent, path, errno_text(errno), mnt);
	ret = cgroup_walk(d, parent, fn, ctx);
	closedir(d);
	return ret;
}
