/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/workload.h>: workloads: the fork/exec handshake of a measured command.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_WORKLOAD_H
#define HWPROF_API_WORKLOAD_H

#include <hwprof/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Workloads: the fork/exec handshake
 */

/* Which output of a command hwp_workload_opts' capture connects to a pipe. */
enum hwp_capture {
	HWP_CAPTURE_NONE = 0,
	HWP_CAPTURE_STDOUT,
	HWP_CAPTURE_STDERR,
};

struct hwp_workload_opts {
	size_t sz;
	const char *cpus;	/* pin the command to this CPU list, as taskset does */
	/* Send the command SIGTERM when the thread that created it ends, by
	 * exit or kill -9 (prctl PR_SET_PDEATHSIG): a killed wrapper leaves
	 * no orphan running. Create it on a thread that outlives it. Since: 0.2 */
	bool die_with_parent;
	/* Connect the command's standard output or error (HWP_CAPTURE_*) to a
	 * pipe whose read end hwp_workload_output_fd() gives, to scan what it
	 * prints ('hwprof stat --score'). Since: 0.2 */
	enum hwp_capture capture;
	/* Start no process until hwp_workload_start(), which then starts the
	 * command as posix_spawn() does (a vfork-style clone: the caller's
	 * page tables are not copied, and no handshake waits on a pipe): the
	 * cheapest start, for short commands run many times. The pid is 0
	 * until then, so counters opened before it with hwp_workload_pid()
	 * count the calling thread (HWP_SCOPE_THREAD, pid 0): with
	 * inheritance and enable_on_exec, the command's inherited copies
	 * start at its exec and the caller's never do, so they count the
	 * command alone. Open them and call hwp_workload_start() on one
	 * thread (a child inherits its creating thread's counters), and
	 * close them before the next start. Not for HWP_AGGR_THREAD,
	 * no_inherit or sampling (the kernel maps no ring of an inherited
	 * per-thread event). Since: 0.2 */
	bool spawn_at_start;
	size_t :0;
};

struct hwp_workload;

/*
 * hwp_workload_output_fd - the read end of the pipe that hwp_workload_opts'
 * capture connected to the command's output; non-blocking, close-on-exec,
 * borrowed (hwp_workload_free() closes it). It reads EOF once the command
 * and every process that inherited the output have closed it. -1 without
 * capture. Since: 0.2
 */
HWP_API int hwp_workload_output_fd(const struct hwp_workload *w);

/*
 * hwp_workload_new - fork a command that waits to be started (or, with
 * spawn_at_start, get ready to start one)
 * @argv: NULL-terminated; argv[0] is searched in PATH as execvp() does. It
 *	  is never run through a shell.
 * @out: the workload; its pid can be counted before hwp_workload_start()
 *
 * The child blocks until hwp_workload_start(), so counters opened with
 * enable_on_exec see exactly the command. Errors: -ENOENT (command not
 * found), -EACCES (not executable), -HWP_ERR_SYNTAX or -ENODEV for a bad
 * CPU list, or fork's errno. Since: 0.1
 */
HWP_API int hwp_workload_new(char *const argv[], const struct hwp_workload_opts *opts,
			     struct hwp_workload **out);

/* hwp_workload_pid - the child's pid; 0 before hwp_workload_start() with
 * spawn_at_start. Since: 0.1 */
HWP_API pid_t hwp_workload_pid(const struct hwp_workload *w);

/*
 * hwp_workload_start - let the child exec the command (with spawn_at_start:
 * start it)
 *
 * Returns once the exec succeeded, or with -HWP_ERR_EXEC (the exec's errno
 * in the message) when it failed; the child has then exited with 127 (or
 * 126 when the file is not executable). Since: 0.1
 */
HWP_API int hwp_workload_start(struct hwp_workload *w);

/*
 * hwp_workload_fd - a file descriptor that polls readable when the child
 * exits (a pidfd); borrowed. -1 where the kernel (before 5.3) or a tool
 * such as valgrind 3.19 has no pidfds: then poll with hwp_workload_poll().
 * Since: 0.1
 */
HWP_API int hwp_workload_fd(const struct hwp_workload *w);

/*
 * hwp_workload_poll - whether the child has exited, without waiting
 *
 * Returns 1 when it has (it is then reaped, as by hwp_workload_wait()), 0
 * while it runs, or a negative error. Since: 0.1
 */
HWP_API int hwp_workload_poll(struct hwp_workload *w);

/*
 * hwp_workload_wait - wait for the child and reap it
 * @status: NULL, or set to the wait status (see waitpid())
 *
 * Blocks until the child ends, through signals. To stop waiting on a
 * signal, wait on hwp_workload_fd() with poll() instead, or call
 * hwp_workload_poll(). Errors: -EINVAL, waitpid()'s errno. Since: 0.1; 0.2
 * dropped 0.1's third argument, a stop flag no caller set.
 */
HWP_API int hwp_workload_wait(struct hwp_workload *w, int *status);

/* hwp_workload_kill - send @sig to the child if it still runs. Since: 0.1 */
HWP_API int hwp_workload_kill(struct hwp_workload *w, int sig);

/* hwp_workload_elapsed - seconds from hwp_workload_start() to its exit (or
 * now). Since: 0.1 */
HWP_API double hwp_workload_elapsed(const struct hwp_workload *w);

/*
 * hwp_workload_cpu_times - the CPU time the command and its reaped children
 * took, in seconds, from wait4()'s rusage: @user and @system (either may be
 * NULL). Errors: -EINVAL for NULL @w; -EBUSY before hwp_workload_wait() or
 * hwp_workload_poll() reaped it. Since: 0.2
 */
HWP_API int hwp_workload_cpu_times(const struct hwp_workload *w, double *user,
				   double *system);

/*
 * hwp_workload_exit_code - the shell's view of a wait status: the exit
 * status, or 128+N when killed by signal N. Since: 0.1
 */
HWP_API int hwp_workload_exit_code(int status);

/* hwp_workload_free - kill (SIGKILL) and reap the child if it still runs, then
 * free. Since: 0.1 */
HWP_API void hwp_workload_free(struct hwp_workload *w);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_WORKLOAD_H */
