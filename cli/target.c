// SPDX-License-Identifier: MIT
/* What stat and record measure, and the wait that outlives it. */
#include "target.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Where there are no pidfds, how often the end of a run is looked for (s). */
#define POLL_INTERVAL 0.01

int cli_target_set_pid(struct cli_target *t, const char *cmd, const char *arg)
{
	long v;

	if (!cli_parse_long(arg, 1, 0x7fffffff, &v)) {
		cli_error(cmd, "-p: '%s' is not a process id", arg);
		return CLI_EXIT_USAGE;
	}
	t->pid = (pid_t)v;
	return 0;
}

int cli_target_check(const struct cli_target *t, const char *cmd, const char *no_target,
		     const char *pid_and_cpus)
{
	if (!t->argv && !t->pid && !t->all_cpus && !t->cpus) {
		cli_error(cmd, "%s", no_target);
		return CLI_EXIT_USAGE;
	}
	if (t->pid && (t->all_cpus || t->cpus)) {
		cli_error(cmd, "%s", pid_and_cpus);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

bool cli_target_command_only(const struct cli_target *t)
{
	return !t->pid && !t->all_cpus && !t->cpus;
}

static int exit_for_start(int err)
{
	if (err == -ENOENT)
		return CLI_EXIT_NOTFOUND;
	if (err == -EACCES)
		return CLI_EXIT_NOEXEC;
	return cli_exit_for(err);
}

/* A pidfd for a process we did not start, so that the wait sees it exit. */
static int open_pidfd(struct cli_watch *w)
{
	pid_t pid = w->target->pid;

	w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (w->pidfd >= 0)
		return 0;
	/* No pidfds here: the wait polls. EPERM: it exists, and is another
	 * user's; opening its events says what that needs. */
	if (errno == ENOSYS && (!kill(pid, 0) || errno == EPERM))
		return 0;
	cli_error(w->cmd, "-p %d: %s", (int)pid,
		  errno == ESRCH ? "no such process" : strerror(errno));
	return CLI_EXIT_FAILURE;
}

int cli_watch_prepare(struct cli_watch *w, const struct cli_target *t, char **argv,
		      const char *cmd)
{
	/* hwprof killed outright takes the command with it (hwprof-stat(1)). */
	HWP_OPTS(hwp_workload_opts, wo, .cpus = t->pin, .die_with_parent = true,
		 .capture = t->capture, .spawn_at_start = t->spawn_at_start);
	int err;

	*w = (struct cli_watch){ .target = t, .cmd = cmd, .pidfd = -1 };
	if (argv) {
		err = hwp_workload_new(argv, &wo, &w->wl);
		if (err) {
			cli_lib_error(cmd, err);
			return exit_for_start(err);
		}
	}
	return t->pid && !argv ? open_pidfd(w) : 0;
}

bool cli_watch_self_enabled(const struct cli_watch *w)
{
	return w->wl && cli_target_command_only(w->target);
}

struct cli_scope cli_watch_scope(const struct cli_watch *w)
{
	const struct cli_target *t = w->target;

	if (t->all_cpus || t->cpus)
		return (struct cli_scope){ .scope = HWP_SCOPE_CPUS, .cpus = t->cpus };
	if (t->pid)
		return (struct cli_scope){ .scope = HWP_SCOPE_PROCESS, .pid = t->pid };
	return (struct cli_scope){
		.scope = HWP_SCOPE_THREAD,
		.pid = hwp_workload_pid(w->wl),
		.enable_on_exec = true,
	};
}

/* The CPU time process @pid has had, in seconds; 0 where it cannot be read. */
static double process_cpu_seconds(pid_t pid)
{
	struct timespec ts;
	clockid_t clock;

	if (pid <= 0 || clock_getcpuclockid(pid, &clock) || clock_gettime(clock, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_watch_start(struct cli_watch *w)
{
	int status = 0, err;

	if (!w->wl)
		return 0;
	err = hwp_workload_start(w->wl);
	/* The child has exec'd (hwp_workload_start() waits for that): wait4()
	 * will count its time before the exec too, which no counter sees
	 * (enable_on_exec), long under valgrind, say. Read late, the command's
	 * first moments are taken off too: a detached count may go unsaid,
	 * never a counted one called detached. */
	if (!err) {
		w->cpu_before_exec = process_cpu_seconds(hwp_workload_pid(w->wl));
		return 0;
	}
	cli_lib_error(w->cmd, err);
	hwp_workload_wait(w->wl, &status);
	return hwp_workload_exit_code(status) ?: CLI_EXIT_FAILURE;
}

/* Whether process @pid has exited: gone, or a zombie its parent has not
 * reaped yet. */
static bool process_exited(pid_t pid)
{
	char path[64], buf[512];
	const char *state;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	state = strrchr(buf, ')');
	return !state || state[1] != ' ' || state[2] == 'Z' || state[2] == 'X';
}

/* Whether no descriptor will say that the run ended (no pidfds: valgrind
 * 3.19, Linux < 5.3), so that the wait must look. */
static bool must_poll(const struct cli_watch *w)
{
	if (w->wl)
		return hwp_workload_fd(w->wl) < 0;
	return w->target->pid && w->pidfd < 0;
}

static bool ended_by_polling(struct cli_watch *w)
{
	if (w->wl)
		return hwp_workload_poll(w->wl) != 0;
	return process_exited(w->target->pid);
}

static void add_fd(struct pollfd *pfd, nfds_t *nfds, int fd)
{
	pfd[(*nfds)++] = (struct pollfd){ .fd = fd, .events = POLLIN };
}

/* ppoll()'s timeout for @left seconds: NULL for INFINITY, none. */
static struct timespec *timeout(double left, struct timespec *ts)
{
	if (!(left < INFINITY))
		return NULL;
	left = left < 0 ? 0 : left;
	ts->tv_sec = (time_t)left;
	ts->tv_nsec = (long)((left - (double)ts->tv_sec) * 1e9);
	return ts;
}

int cli_watch_wait(struct cli_watch *w, const struct cli_wait_ops *ops)
{
	bool polling = must_poll(w);
	struct pollfd pfd[3];
	nfds_t nfds = 0, nends;
	sigset_t none;

	sigemptyset(&none);
	if (w->wl && hwp_workload_fd(w->wl) >= 0)
		add_fd(pfd, &nfds, hwp_workload_fd(w->wl));
	if (w->pidfd >= 0)
		add_fd(pfd, &nfds, w->pidfd);
	nends = nfds;
	if (ops->fd >= 0)
		add_fd(pfd, &nfds, ops->fd);
	for (;;) {
		double left = (ops->next ? ops->next(ops->ctx) : INFINITY) - cli_now();
		struct timespec ts;
		int ret, status;

		if (polling && left > POLL_INTERVAL)
			left = POLL_INTERVAL;
		/* Stop requests are let in here only: none slips in unseen. */
		ret = ppoll(nfds ? pfd : NULL, nfds, timeout(left, &ts), &none);
		if (ret < 0 && errno != EINTR) {
			cli_error(w->cmd, "waiting for the command failed: %s",
				  strerror(errno));
			return CLI_EXIT_FAILURE;
		}
		for (nfds_t i = 0; ret > 0 && i < nends; i++)
			if (pfd[i].revents)
				return 0;
		if (polling && ended_by_polling(w))
			return 0;
		if (ops->work && (status = ops->work(ops->ctx)))
			return status;
		/* Hung up and read to its end: not polled again, or it would
		 * wake the wait at once, each time. */
		if (ops->fd >= 0 && ret > 0 && !(pfd[nends].revents & POLLIN) &&
		    (pfd[nends].revents & (POLLHUP | POLLERR | POLLNVAL)))
			pfd[nends].fd = -1;
		if (cli_stop_count) {
			/* Measuring a pid or CPUs: Ctrl-C ends it. */
			if (!w->wl || w->target->pid)
				return 0;
			cli_forward_stop(w->wl);
		}
	}
}

void cli_watch_reap(struct cli_watch *w, int *code)
{
	int status = 0;

	*code = 0;
	if (!w->wl)
		return;
	/* Ctrl-C while measuring a pid or CPUs: the command goes too. */
	if (cli_stop_count && !cli_target_command_only(w->target))
		hwp_workload_kill(w->wl, SIGTERM);
	hwp_workload_wait(w->wl, &status);
	w->status = status;
	*code = hwp_workload_exit_code(status);
}

void cli_watch_release(struct cli_watch *w)
{
	hwp_workload_free(w->wl);
	if (w->pidfd >= 0)
		close(w->pidfd);
	w->wl = NULL;
	w->pidfd = -1;
}

int cli_watch_cpu_times(const struct cli_watch *w, double *user, double *system)
{
	static bool said;
	int err = hwp_workload_cpu_times(w->wl, user, system);

	if (err || !w->target->pid)
		return err;
	/* perf prints them as the process's: they are its helper's. */
	if (!said)
		cli_note(w->cmd, "-p %d: no user and sys times: the command after -- times the count, its own CPU time is not process %d's",
			 (int)w->target->pid, (int)w->target->pid);
	said = true;
	*user = *system = NAN;
	return 0;
}

/*
 * A task's counters count while it runs: their enabled time is its CPU
 * time. The kernel detaches them at an exec that changes the task's
 * credentials (a setuid, setgid or file-capability program run by another
 * user: it is no longer "dumpable"), and from there on they count nothing
 * while the command goes on. Its CPU time, from wait4(), tells.
 */
bool cli_watch_detached(const struct cli_watch *w, struct hwp_count *counts,
			size_t nr_events, size_t nr_units)
{
	double user, system, cpu, enabled = 0;

	if (!w->wl || !cli_target_command_only(w->target) ||
	    hwp_workload_cpu_times(w->wl, &user, &system))
		return false;
	for (size_t e = 0; e < nr_events; e++) {
		double sum = 0;

		for (size_t u = 0; u < nr_units; u++)
			sum += (double)counts[u * nr_events + e].time_enabled;
		enabled = sum > enabled ? sum : enabled;
	}
	cpu = (user + system - w->cpu_before_exec) * 1e9;
	if (!enabled || cpu - enabled < 1e6 || enabled * 10 > cpu)
		return false;
	cli_warn(w->cmd, "the counters stopped at the command's exec: it changed its credentials (a setuid, setgid or file-capability program run by another user), and the kernel stops counting such a process; they counted %.3f ms of its %.3f ms of CPU time. Run hwprof as the user the program runs as (root for a setuid-root one), or count the whole system (-a: root, CAP_PERFMON or kernel.perf_event_paranoid <= 0)",
		 enabled / 1e6, cpu / 1e6);
	for (size_t i = 0; i < nr_events * nr_units; i++)
		counts[i] = (struct hwp_count){ 0 };
	return true;
}
