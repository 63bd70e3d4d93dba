// SPDX-License-Identifier: MIT
/* The workload handshake, as perf does it: fork, the child waits on a pipe
 * while the parent opens counters on it, then the parent lets it exec. */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A clone's child runs on a stack the sanitizers do not know. */
#define NO_SANITIZE __attribute__((no_sanitize("address", "undefined")))

/* What the child is given: its command, CPUs and pipes. */
struct child_args {
	const char *path;
	char *const *argv;
	const cpu_set_t *set;
	size_t set_size;
	bool die_with_parent;
	bool spawned;	/* shares the parent's memory until its exec */
	pid_t parent;
	int go_rd, err_wr;	/* go_rd -1: spawned, nothing to wait for */
	int out_wr, out_to;	/* dup2(out_wr, out_to) when out_wr >= 0 */
};

struct hwp_workload {
	pid_t pid;
	/* spawn_at_start: the command, kept until hwp_workload_start() */
	struct child_args spawn;
	char *path;
	char **argv;
	cpu_set_t *set;
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

/* Whether the entry of @len bytes at @entry of PATH @path came before it:
 * a folder is tried once (set-ups like rustup's and pyenv's add theirs
 * again), a failed stat() less for each repeat. */
static bool path_seen(const char *path, const char *entry, size_t len)
{
	for (const char *p = path; p < entry; p += strcspn(p, ":") + 1)
		if (strcspn(p, ":") == len && !memcmp(p, entry, len))
			return true;
	return false;
}

/* What execvp() would find, so that "not found" is told before forking;
 * the child then execs that path without searching again. */
static int find_command(const char *cmd, char *found, size_t size)
{
	const char *path, *p;
	struct stat st;
	int denied = 0;

	if (!*cmd)
		return fail(-ENOENT, "the command is empty");
	if (strchr(cmd, '/')) {
		if (stat(cmd, &st))
			return fail(-errno, "cannot run '%s': %s", cmd,
				    errno_text(errno));
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

		/* Each candidate is made in @found: a buffer of our own would
		 * be PATH_MAX more of stack to touch. */
		snprintf(found, size, "%.*s%s%s", (int)len, p, len ? "/" : "", cmd);
		if (!path_seen(path, p, len) && !stat(found, &st) &&
		    !S_ISDIR(st.st_mode)) {
			if (!access(found, X_OK))
				return 0;
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

NO_SANITIZE uint64_t status_sigcgt(const char *status)
{
	static const char key[] = "\nSigCgt:\t";
	const char *p = strstr(status, key);
	uint64_t mask = 0;
	int digits = 0;

	if (!p)
		return UINT64_MAX;
	for (p += sizeof(key) - 1; digits < 17; p++, digits++) {
		int v = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (v < 0)
			break;
		mask = mask << 4 | (uint64_t)v;
	}
	/* Sixteen digits and the line's end: a field cut by the read's end
	 * (a long Groups line before it), or wider (128 signals), says
	 * nothing sure. */
	return digits == 16 && *p == '\n' ? mask : UINT64_MAX;
}

/* The signals that have a handler (SigCgt in /proc/self/status; bit N-1
 * is signal N), or all of them when that cannot be read. One read of the
 * file (~9 us here) where a sigaction() question a signal took 64 system
 * calls (70-150 us on this VM) while the parent waits. Between clone and
 * exec: no stdio, no allocation. */
NO_SANITIZE static uint64_t caught_signals(void)
{
	char buf[4096];
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return UINT64_MAX;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	return status_sigcgt(buf);
}

/* A child that shares our memory must not run our signal handlers (they
 * would write our variables): it takes the default action until its exec,
 * which resets them anyway. Its handlers are its own copy: no other
 * thread can add one after the read. */
NO_SANITIZE static void no_handlers(void)
{
	uint64_t caught = caught_signals();
	struct sigaction sa;

	for (int sig = 1; sig < NSIG; sig++)
		if ((sig > 64 || (caught >> (sig - 1) & 1)) &&
		    !sigaction(sig, NULL, &sa) && sa.sa_handler != SIG_IGN &&
		    sa.sa_handler != SIG_DFL) {
			sa.sa_handler = SIG_DFL;
			sa.sa_flags = 0;
			sigaction(sig, &sa, NULL);
		}
}

/* Between fork (or clone) and exec: async-signal-safe calls only. Not
 * instrumented: a sanitizer takes the clone's stack for a corrupt one. */
NO_SANITIZE static void child_run(const struct child_args *a)
{
	sigset_t none;
	char c;
	int e;

	if (a->spawned)
		no_handlers();
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
	if (a->go_rd >= 0 && read(a->go_rd, &c, 1) != 1)
		_exit(127);
	execv(a->path, a->argv);
	e = errno;
	(void)!write(a->err_wr, &e, sizeof(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* A close-on-exec pipe, or the error that says why not. */
static int open_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC))
		return fail(-errno, "pipe: %s%s", errno_text(errno),
			    resource_advice(-errno));
	return 0;
}

/* Once the child exists: what only it needed goes, and a pidfd comes. */
static int after_start(struct hwp_workload *w)
{
	if (w->spawn.out_wr >= 0)
		close(w->spawn.out_wr);
	w->spawn.out_wr = -1;
	CPU_FREE(w->set);	/* free(): NULL is fine */
	w->set = NULL;
	w->spawn.set = NULL;
	w->spawn.path = NULL;
	w->spawn.argv = NULL;
	w->pidfd = (int)syscall(SYS_pidfd_open, w->pid, 0);
	/* Without pidfds (Linux < 5.3, valgrind 3.19), or out of descriptors:
	 * hwp_workload_fd() is -1 and callers poll with hwp_workload_poll().
	 * Not an error: a spawned command is already running its exec, whose
	 * result the caller must still read. */
	if (w->pidfd < 0 && errno != ENOSYS)
		pr_debug("pidfd_open: %s: the command is watched by polling\n",
			 errno_text(errno));
	return 0;
}

/* The clone's stack: child_run's few calls and execv()'s. */
#define SPAWN_STACK 32768

NO_SANITIZE static int spawned_main(void *arg)
{
	child_run(arg);
	return 127;
}

/* posix_spawn()'s way, with what it cannot do (CPUs, the parent-death
 * signal): a clone that shares our memory, and suspends us, until its exec.
 * No copy of our page tables, no handshake. Every signal is blocked
 * across the clone, so that none runs a handler in the child. */
static int spawn_child(struct hwp_workload *w)
{
	_Alignas(16) char stack[SPAWN_STACK];
	sigset_t all, old;
	int er[2], e;

	int err = open_pipe(er);

	if (err)
		return err;
	w->spawn.parent = getpid();
	w->spawn.err_wr = er[1];
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	w->pid = clone(spawned_main, stack + sizeof(stack),
		       CLONE_VM | CLONE_VFORK | SIGCHLD, &w->spawn);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(er[1]);
	w->spawn.err_wr = -1;
	if (w->pid < 0) {
		close(er[0]);
		w->pid = 0;
		return fail(-e, "cannot start the command: clone: %s%s",
			    errno_text(e), resource_advice(-e));
	}
	w->err_fd = er[0];
	return after_start(w);
}

/* The copies a command started later runs from: the caller's argv may be
 * gone by then. */
static int keep_command(struct hwp_workload *w, const char *path, char *const argv[])
{
	size_t n = 0;

	while (argv[n])
		n++;
	w->path = strdup(path);
	w->argv = calloc(n + 1, sizeof(*w->argv));
	if (!w->path || !w->argv)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (!(w->argv[i] = strdup(argv[i])))
			return fail(-ENOMEM, "out of memory");
	return 0;
}

/* The fork of the handshake: the child waits on the go pipe, the parent
 * keeps its end and the end the child reports a failed exec on. */
static int fork_child(struct hwp_workload *w, struct child_args *a)
{
	int go[2], er[2];
	int err = open_pipe(go);

	if (err)
		return err;
	err = open_pipe(er);
	if (err) {
		close(go[0]);
		close(go[1]);
		return err;
	}
	fflush(NULL);	/* the child must not write our buffered output twice */
	a->parent = getpid();
	a->go_rd = go[0];
	a->err_wr = er[1];
	w->pid = fork();
	if (w->pid == 0) {
		close(go[1]);
		close(er[0]);
		child_run(a);
	}
	close(go[0]);
	close(er[1]);
	if (w->pid < 0) {
		err = -errno;
		close(go[1]);
		close(er[0]);
		w->pid = 0;
		return fail(err, "fork: %s", errno_text(-err));
	}
	w->go_fd = go[1];
	w->err_fd = er[0];
	return 0;
}

HWP_API int hwp_workload_new(char *const argv[], const struct hwp_workload_opts *opts,
			     struct hwp_workload **out)
{
	struct hwp_workload_opts o;
	struct hwp_workload *w;
	int ou[2] = { -1, -1 };
	int *cpus = NULL;
	size_t nr_cpus = 0, set_size = 0;
	cpu_set_t *set = NULL;
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
	w->set = set;
	w->spawn = (struct child_args){
		.set = set, .set_size = set_size, .die_with_parent = o.die_with_parent,
		.go_rd = -1, .err_wr = -1, .out_wr = -1,
		.out_to = o.capture == HWP_CAPTURE_STDERR ? 2 : 1,
	};
	if (o.capture && (err = open_pipe(ou)))
		goto err;
	if (o.capture) {
		w->out_fd = ou[0];
		w->spawn.out_wr = ou[1];
		/* The reader drains what is there and goes back to its wait. */
		fcntl(w->out_fd, F_SETFL, fcntl(w->out_fd, F_GETFL) | O_NONBLOCK);
	}
	if (o.spawn_at_start) {
		err = keep_command(w, path, argv);
		if (err)
			goto err;
		w->spawn.path = w->path;
		w->spawn.argv = w->argv;
		w->spawn.spawned = true;
		*out = w;
		return 0;
	}
	w->spawn.path = path;
	w->spawn.argv = argv;
	err = fork_child(w, &w->spawn);
	if (err)
		goto err;
	err = after_start(w);
	if (err)
		goto err;
	*out = w;
	return 0;
err:
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
	if (w->argv) {
		int err = spawn_child(w);

		if (err)
			return err;
	} else {
		if (write(w->go_fd, "g", 1) != 1) {
			/* The child is gone already (e.g. pinning failed): see below. */
		}
		close(w->go_fd);
		w->go_fd = -1;
	}
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e))
		return fail(-HWP_ERR_EXEC, "cannot run the command: %s",
			    errno_text(e));
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
			return fail(-errno, "wait4: %s", errno_text(errno));
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
		return fail(-errno, "wait4: %s", errno_text(errno));
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
			    errno_text(errno));
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
	if (w->spawn.out_wr >= 0)
		close(w->spawn.out_wr);
	CPU_FREE(w->set);	/* free(): NULL is fine */
	free(w->path);
	for (size_t i = 0; w->argv && w->argv[i]; i++)
		free(w->argv[i]);
	free(w->argv);
	free(w);
}
