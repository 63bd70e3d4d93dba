// SPDX-License-Identifier: MIT
/* The workload handshake, as perf does it: fork, the child waits on a pipe
 * while the parent opens counters on it, then the parent lets it exec. */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct hwp_workload {
	pid_t pid;
	int go_fd;	/* written to release the child */
	int err_fd;	/* the child writes its exec errno here; EOF means exec worked */
	int pidfd;
	int out_fd;	/* the read end of the captured output; -1: none */
	bool started;
	bool reaped;
	int status;
	double t_start, t_end;
	struct rusage ru;	/* wait4()'s, once reaped */
};

/* What execvp() would find, so that "not found" is told before forking;
 * the child then execs that path without searching again. */
static int find_command(const char *cmd, char *found, size_t size)
{
	const char *path, *p;
	char buf[PATH_MAX];
	struct stat st;
	int denied = 0;

	if (!*cmd)
		return fail(-ENOENT, "the command is empty");
	if (strchr(cmd, '/')) {
		if (stat(cmd, &st))
			return fail(-errno, "cannot run '%s': %s", cmd,
				    strerrordesc_np(errno));
		if (S_ISDIR(st.st_mode))
			return fail(-EACCES, "cannot run '%s': it is a directory", cmd);
		if (access(cmd, X_OK))
			return fail(-EACCES, "cannot run '%s': it is not executable",
				    cmd);
		snprintf(found, size, "%s", cmd);
		return 0;
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (p = path;; p = strchr(p, ':') + 1) {
		size_t len = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, p, len ? "/" : "", cmd);
		if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
			if (!access(buf, X_OK)) {
				snprintf(found, size, "%s", buf);
				return 0;
			}
			denied = 1;
		}
		if (!p[len])
			break;
	}
	if (denied)
		return fail(-EACCES, "cannot run '%s': it is not executable", cmd);
	return fail(-ENOENT, "command not found: '%s' is not in PATH", cmd);
}

/* The CPU set of @cpus, built in the parent: the child must not allocate
 * between fork and exec (only async-signal-safe calls are allowed there). */
static cpu_set_t *cpu_set_of(const int *cpus, size_t nr, size_t *size)
{
	size_t max = 0;
	cpu_set_t *set;

	for (size_t i = 0; i < nr; i++)
		if ((size_t)cpus[i] > max)
			max = (size_t)cpus[i];
	set = CPU_ALLOC(max + 1);
	if (!set)
		return NULL;
	*size = CPU_ALLOC_SIZE(max + 1);
	CPU_ZERO_S(*size, set);
	for (size_t i = 0; i < nr; i++)
		CPU_SET_S((size_t)cpus[i], *size, set);
	return set;
}

/* What the child is given: its command, CPUs and pipes. */
struct child_args {
	const char *path;
	char *const *argv;
	const cpu_set_t *set;
	size_t set_size;
	bool die_with_parent;
	pid_t parent;
	int go_rd, err_wr;
	int out_wr, out_to;	/* dup2(out_wr, out_to) when out_wr >= 0 */
};

static void child_run(const struct child_args *a)
{
	sigset_t none;
	char c;
	int e;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* The signal stays across exec; a parent gone already is too late. */
	if (a->die_with_parent &&
	    (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() != a->parent))
		_exit(127);
	if (a->set && sched_setaffinity(0, a->set_size, a->set)) {
		e = errno;
		(void)!write(a->err_wr, &e, sizeof(e));
		_exit(126);
	}
	/* dup2() clears close-on-exec on the copy: the command writes there. */
	if (a->out_wr >= 0 && dup2(a->out_wr, a->out_to) < 0) {
		e = errno;
		(void)!write(a->err_wr, &e, sizeof(e));
		_exit(126);
	}
	/* Wait for the parent; EOF means it gave up before starting us. */
	if (read(a->go_rd, &c, 1) != 1)
		_exit(127);
	execv(a->path, a->argv);
	e = errno;
	(void)!write(a->err_wr, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

HWP_API int hwp_workload_new(char *const argv[], const struct hwp_workload_opts *opts,
			     struct hwp_workload **out)
{
	struct hwp_workload_opts o;
	struct hwp_workload *w;
	int go[2] = { -1, -1 }, er[2] = { -1, -1 }, ou[2] = { -1, -1 };
	int *cpus = NULL;
	size_t nr_cpus = 0, set_size = 0;
	cpu_set_t *set = NULL;
	pid_t parent;
	char path[PATH_MAX];
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_workload_new: out is NULL");
	*out = NULL;
	if (!argv || !argv[0])
		return fail(-EINVAL, "no command to run");
	err = OPTS_COPY(&o, opts, hwp_workload_opts);
	if (err)
		return err;
	if (o.capture > HWP_CAPTURE_STDERR)
		return fail(-EINVAL, "hwp_workload_new: capture %d is no HWP_CAPTURE_*",
			    (int)o.capture);
	err = find_command(argv[0], path, sizeof(path));
	if (err)
		return err;
	if (o.cpus) {
		err = cpus_parse(o.cpus, &cpus, &nr_cpus);
		if (err)
			return fail_prefix(err, "pinning the command");
		set = cpu_set_of(cpus, nr_cpus, &set_size);
		free(cpus);
		if (!set)
			return fail(-ENOMEM, "out of memory");
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		CPU_FREE(set);
		return fail(-ENOMEM, "out of memory");
	}
	w->go_fd = w->err_fd = w->pidfd = w->out_fd = -1;
	if (pipe2(go, O_CLOEXEC) || pipe2(er, O_CLOEXEC) ||
	    (o.capture && pipe2(ou, O_CLOEXEC))) {
		err = fail(-errno, "pipe: %s%s", strerrordesc_np(errno),
			       resource_advice(-errno));
		goto err;
	}
	fflush(NULL);	/* the child must not write our buffered output twice */
	parent = getpid();
	w->pid = fork();
	if (w->pid < 0) {
		err = fail(-errno, "fork: %s", strerrordesc_np(errno));
		w->pid = 0;
		goto err;
	}
	if (w->pid == 0) {
		struct child_args a = {
			.path = path, .argv = argv, .set = set, .set_size = set_size,
			.die_with_parent = o.die_with_parent, .parent = parent,
			.go_rd = go[0], .err_wr = er[1], .out_wr = ou[1],
			.out_to = o.capture == HWP_CAPTURE_STDERR ? 2 : 1,
		};

		close(go[1]);
		close(er[0]);
		child_run(&a);
	}
	CPU_FREE(set);	/* free(): NULL is fine */
	set = NULL;
	close(go[0]);
	close(er[1]);
	go[0] = er[1] = -1;
	w->go_fd = go[1];
	w->err_fd = er[0];
	if (o.capture) {
		close(ou[1]);
		ou[1] = -1;
		w->out_fd = ou[0];
		/* The reader drains what is there and goes back to its wait. */
		fcntl(w->out_fd, F_SETFL, fcntl(w->out_fd, F_GETFL) | O_NONBLOCK);
	}
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	if (w->pidfd < 0 && errno != ENOSYS) {
		err = fail(-errno, "pidfd_open: %s", strerrordesc_np(errno));
		goto err;
	}
	/* Without pidfds (Linux < 5.3, valgrind 3.19): hwp_workload_fd() is -1
	 * and callers poll with hwp_workload_poll(). */
	*out = w;
	return 0;
err:
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0 && go[i] != w->go_fd)
			close(go[i]);
		if (er[i] >= 0 && er[i] != w->err_fd)
			close(er[i]);
		if (ou[i] >= 0 && ou[i] != w->out_fd)
			close(ou[i]);
	}
	CPU_FREE(set);	/* free(): NULL is fine */
	hwp_workload_free(w);
	return err;
}

HWP_API pid_t hwp_workload_pid(const struct hwp_workload *w)
{
	return w ? w->pid : -1;
}

HWP_API int hwp_workload_fd(const struct hwp_workload *w)
{
	return w ? w->pidfd : -1;
}

HWP_API int hwp_workload_output_fd(const struct hwp_workload *w)
{
	return w ? w->out_fd : -1;
}

HWP_API int hwp_workload_start(struct hwp_workload *w)
{
	ssize_t n;
	int e;

	clear_error();
	if (!w || w->started)
		return fail(-EINVAL, "hwp_workload_start: %s",
			    w ? "already started" : "NULL");
	w->started = true;
	w->t_start = now_seconds();
	if (write(w->go_fd, "g", 1) != 1) {
		/* The child is gone already (e.g. pinning failed): see below. */
	}
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return fail(-HWP_ERR_EXEC, "cannot run the command: %s",
			    strerrordesc_np(e));
	return 0;
}

int workload_wait(struct hwp_workload *w, int *status, const volatile int *stop)
{
	pid_t r;

	if (!w || w->pid <= 0)
		return fail(-EINVAL, "hwp_workload_wait: no workload");
	if (!w->reaped) {
		for (;;) {
			r = wait4(w->pid, &w->status, 0, &w->ru);
			if (r == w->pid)
				break;
			if (r < 0 && errno == EINTR && !(stop && *stop))
				continue;
			return fail(-errno, "wait4: %s", strerrordesc_np(errno));
		}
		w->t_end = now_seconds();
		w->reaped = true;
	}
	if (status)
		*status = w->status;
	return 0;
}

HWP_API int hwp_workload_wait_0_2(struct hwp_workload *w, int *status);
HWP_SYMVER_DEFAULT(hwp_workload_wait_0_2, hwp_workload_wait, "HWPROF_0.2");

HWP_API int hwp_workload_wait_0_2(struct hwp_workload *w, int *status)
{
	return workload_wait(w, status, NULL);
}

HWP_API int hwp_workload_poll(struct hwp_workload *w)
{
	pid_t r;

	if (!w || w->pid <= 0)
		return fail(-EINVAL, "hwp_workload_poll: no workload");
	if (w->reaped)
		return 1;
	r = wait4(w->pid, &w->status, WNOHANG, &w->ru);
	if (r == 0)
		return 0;
	if (r < 0)
		return fail(-errno, "wait4: %s", strerrordesc_np(errno));
	w->t_end = now_seconds();
	w->reaped = true;
	return 1;
}

HWP_API int hwp_workload_kill(struct hwp_workload *w, int sig)
{
	long ret;

	if (!w || w->pid <= 0 || w->reaped)
		return 0;
	/* The pidfd cannot signal a recycled pid; without one, the child is
	 * not reaped yet, so its pid is still ours. */
	if (w->pidfd >= 0)
		ret = syscall(SYS_pidfd_send_signal, w->pidfd, sig, NULL, 0);
	else
		ret = kill(w->pid, sig);
	if (ret < 0 && errno != ESRCH)
		return fail(-errno, "cannot signal the command: %s",
			    strerrordesc_np(errno));
	return 0;
}

HWP_API double hwp_workload_elapsed(const struct hwp_workload *w)
{
	if (!w || !w->started)
		return 0;
	return (w->reaped ? w->t_end : now_seconds()) - w->t_start;
}

static double timeval_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

HWP_API int hwp_workload_cpu_times(const struct hwp_workload *w, double *user,
				   double *system)
{
	clear_error();
	if (!w)
		return fail(-EINVAL, "hwp_workload_cpu_times: NULL workload");
	if (!w->reaped)
		return fail(-EBUSY, "hwp_workload_cpu_times: the command has not ended (or was not waited for)");
	if (user)
		*user = timeval_seconds(w->ru.ru_utime);
	if (system)
		*system = timeval_seconds(w->ru.ru_stime);
	return 0;
}

HWP_API int hwp_workload_exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

HWP_API void hwp_workload_free(struct hwp_workload *w)
{
	if (!w)
		return;
	if (w->go_fd >= 0)
		close(w->go_fd);	/* an unstarted child sees EOF and exits */
	if (w->err_fd >= 0)
		close(w->err_fd);
	if (w->pid > 0 && !w->reaped) {
		if (w->started)
			kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (w->pidfd >= 0)
		close(w->pidfd);
	if (w->out_fd >= 0)
		close(w->out_fd);
	free(w);
}
