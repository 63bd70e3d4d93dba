// SPDX-License-Identifier: MIT
/* Facts about the running system, and the one place perf_event_open is called. */
#include "core/core.h"
#include "util/cpulist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			  flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Where sysfs is read from: HWPROF_SYSFS_ROOT lets a test hand over a
 * fabricated tree (devices/system/cpu/..., bus/event_source/devices/...). */
const char *sysfs_root(const char *root)
{
	const char *env = getenv("HWPROF_SYSFS_ROOT");

	if (root && *root)
		return root;
	return env && *env ? env : "/sys";
}

/* The first line of @dir/@rel, without its newline: 0 or -errno. One
 * read() and no FILE: have_hw_pmu() reads a file per PMU on each stat of
 * a machine without one. */
int read_first_line(const char *dir, const char *rel, char *buf, size_t size)
{
	char path[4352];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return read_line_of(path, buf, size);
}

int read_line_of(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = size > 1 ? read(fd, buf, size - 1) : 0;
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int read_paranoid(void)
{
	char buf[64], *end;
	long v;

	if (read_first_line("/proc/sys/kernel", "perf_event_paranoid", buf, sizeof(buf)))
		return 2;	/* the kernel's default when the file is unreadable */
	errno = 0;
	v = strtol(buf, &end, 0);
	return errno || end == buf ? 2 : (int)v;
}

/* Whether process @pid belongs to another user than ours (a root caller
 * counts whoever's it wants). */
static bool another_users(pid_t pid)
{
	char path[64];
	struct stat st;

	if (pid <= 0 || pid == getpid() || geteuid() == 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return !stat(path, &st) && st.st_uid != geteuid();
}

void explain_permission(struct strbuf *sb, const char *what, int err, bool cpu_wide,
			    pid_t pid, bool user_only)
{
	int paranoid = read_paranoid();

	strbuf_addf(sb, "perf_event_open(%s) was refused: %s. ", what,
		    errno_text(err < 0 ? -err : err));
	if (!cpu_wide && another_users(pid)) {
		/* The kernel checks the right to trace the process first, and no
		 * perf_event_paranoid value gives it. */
		strbuf_addf(sb, "Process %d belongs to another user: measuring it needs the right to trace it. To allow it: run as root or as its owner, or give the program CAP_PERFMON (sudo setcap cap_perfmon+ep PROGRAM)",
			    (int)pid);
		return;
	}
	strbuf_addf(sb, "kernel.perf_event_paranoid is %d", paranoid);
	if (user_only && !cpu_wide && paranoid <= 2) {
		/* Every value up to 2 allows our own process in user space. */
		strbuf_adds(sb, ", which allows this: a security policy refuses perf_event_open here (seccomp, an LSM such as SELinux or AppArmor, a container's profile); ask whoever set it, or run as root");
		return;
	}
	if (paranoid >= 3 && user_only && !cpu_wide)
		/* Only patched kernels (Debian's, Android's) refuse this at 3. */
		strbuf_adds(sb, ", which on this kernel forbids performance monitoring to unprivileged users, even of their own processes in user space");
	else if (paranoid >= 2)
		strbuf_adds(sb, ", which lets unprivileged users count only their own processes in user space (':u')");
	else if (paranoid == 1)
		strbuf_adds(sb, ", which lets unprivileged users count only their own processes");
	else if (paranoid == 0)
		strbuf_adds(sb, ", which forbids raw tracepoint access to unprivileged users");
	strbuf_adds(sb, ". To allow it: run as root or give the program CAP_PERFMON "
			"(sudo setcap cap_perfmon+ep PROGRAM), or lower the setting: sudo sysctl -w ");
	if (cpu_wide)
		strbuf_adds(sb, "kernel.perf_event_paranoid=0 (system-wide counting needs 0 or lower; -1 allows everything)");
	else
		strbuf_adds(sb, "kernel.perf_event_paranoid=1 (kernel and user space; 2 allows user space only)");
}

int list_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *de;
	size_t cap = 16;
	DIR *d;

	*nr = 0;
	*tids = malloc(cap * sizeof(**tids));
	if (!*tids)
		return fail(-ENOMEM, "out of memory");
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return fail(-ESRCH, "process %d does not exist (%s: %s)", (int)pid, path,
				errno_text(errno));
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (de->d_name[0] == '.' || *end || tid <= 0)
			continue;
		if (*nr == cap) {
			pid_t *n = realloc(*tids, 2 * cap * sizeof(*n));

			if (!n) {
				closedir(d);
				return fail(-ENOMEM, "out of memory");
			}
			*tids = n;
			cap *= 2;
		}
		(*tids)[(*nr)++] = (pid_t)tid;
	}
	closedir(d);
	if (!*nr)
		return fail(-ESRCH, "process %d has no threads left", (int)pid);
	return 0;
}

/* A path from a perf.data file (a module) or from debug information (a
 * source file) may name a FIFO or a device: opening it could block for
 * ever (a FIFO without a writer), reading it too, or it could act on the
 * device. The path is looked at first, so that a device is never opened;
 * the open cannot block (O_NONBLOCK), and what it opened is checked again,
 * in case the path changed in between; then reads block as usual. No
 * O_NOFOLLOW: modules and build-id caches are reached through links. */
int open_regular(const char *path, off_t *size)
{
	struct stat st;
	int fd, fl;

	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -ENODEV;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		fl = -errno;
		close(fd);
		return fl;
	}
	if (size)
		*size = st.st_size;
	return fd;
}

const char *file_open_problem(int err)
{
	switch (-err) {
	case ENOENT: return "the file is not there (any more)";
	case EACCES: case EPERM: return "the file cannot be read (permission)";
	case EISDIR: return "a directory, not a file: not read";
	case ENODEV: return "not a regular file (a FIFO or a device): not read";
	case EFBIG: return "the file is too large: not read";
	case ENOMEM: return "out of memory";
	default: return "the file cannot be read";
	}
}

const char *resource_advice(int err)
{
	switch (-err) {
	case EMFILE:
		return ": this process has no file descriptor left; raise the limit with 'ulimit -n'";
	case ENFILE:
		return ": the system has no file descriptor left; close programs, or raise fs.file-max";
	default:
		return "";
	}
}

bool raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return false;
	pr_info("raising the open-file limit from %llu to %llu for the counters",
		(unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
	rl.rlim_cur = rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) == 0;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int online_cpus(int **cpus, size_t *nr)
{
	char buf[4096];
	size_t bad;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	long n;

	if (f) {
		char *ok = fgets(buf, sizeof(buf), f);

		fclose(f);
		if (ok) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!cpulist_parse(buf, cpus, nr, &bad))
				return 0;
		}
	}
	/* No sysfs: assume CPUs 0..N-1. */
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	*cpus = malloc((size_t)n * sizeof(**cpus));
	if (!*cpus)
		return -ENOMEM;
	for (long i = 0; i < n; i++)
		(*cpus)[i] = (int)i;
	*nr = (size_t)n;
	return 0;
}

int cpus_parse(const char *list, int **cpus, size_t *nr)
{
	int *online = NULL, *want = NULL;
	size_t nr_online = 0, nr_want = 0, bad = 0, j = 0;
	char have[1024];
	int err;

	*cpus = NULL;
	*nr = 0;
	if (!list)
		return fail(-EINVAL, "CPU list is NULL");
	err = cpulist_parse(list, &want, &nr_want, &bad);
	if (err == -ENOMEM)
		return fail(err, "CPU list '%s': out of memory", list);
	if (err == -ERANGE)
		return fail(-HWP_ERR_SYNTAX,
				"CPU list '%s': CPU numbers go up to %d; the one at position %zu is past it",
				list, CPULIST_MAX, bad);
	if (err)
		return fail(-HWP_ERR_SYNTAX,
				"CPU list '%s': expected numbers and ranges such as 0-3,6 at position %zu",
				list, bad);
	err = online_cpus(&online, &nr_online);
	if (err) {
		free(want);
		return fail(err, "cannot read the online CPUs");
	}
	for (size_t i = 0; i < nr_want; i++) {
		while (j < nr_online && online[j] < want[i])
			j++;
		if (j == nr_online || online[j] != want[i]) {
			cpulist_format(online, nr_online, have, sizeof(have));
			err = fail(-ENODEV, "CPU list '%s': CPU %d is not online (online CPUs: %s)",
				       list, want[i], have);
			free(want);
			free(online);
			return err;
		}
	}
	free(online);
	*cpus = want;
	*nr = nr_want;
	return 0;
}

/* a hybrid layout has it at /sys/fs/cgroup/unified */
int cgroup2_mount(char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		char mnt[4096], *dash = strstr(line, " - ");
		char fstype[64];

		/* id parent major:minor root mount-point ... - fstype source */
		if (!dash || sscanf(dash, " - %63s", fstype) != 1 ||
		    strcmp(fstype, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		snprintf(buf, size, "%s", mnt);
		err = 0;
	}
	fclose(f);
	return err;
}
