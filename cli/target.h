/* SPDX-License-Identifier: MIT */
/*
 * What stat and record measure, and how they wait for it (target.c): -p,
 * -a, -C, --pin and the command turned into a scope; the command started
 * for a run; the process named by -p, waited for through a pidfd or, where
 * there are none, by polling; the wait that passes stop requests on to the
 * command and lasts until what it measures has ended.
 */
#ifndef HWPROF_CLI_TARGET_H
#define HWPROF_CLI_TARGET_H

#include "cli.h"

#include <sys/types.h>

/* What the options ask to measure. */
struct cli_target {
	pid_t pid;		/* -p: an existing process; 0: none */
	bool all_cpus;		/* -a */
	const char *cpus;	/* -C: a CPU list */
	const char *pin;	/* --pin: the CPUs to run the command on */
	char **argv;		/* the command, or NULL */
	/* The command's output to read from hwp_workload_output_fd() */
	enum hwp_capture capture;
	/* Start the command at cli_watch_start(), counted by counters that
	 * the calling thread opened and it inherits (hwp_workload_opts) */
	bool spawn_at_start;
};

/* -p @arg into t->pid: 0, or CLI_EXIT_USAGE after saying why. */
int cli_target_set_pid(struct cli_target *t, const char *cmd, const char *arg);
/* After the options: something to measure, and not a process and CPUs both.
 * The messages are the command's, in its own words. */
int cli_target_check(const struct cli_target *t, const char *cmd, const char *no_target,
		     const char *pid_and_cpus);
/* Whether only the command is measured: no -p, -a or -C. */
bool cli_target_command_only(const struct cli_target *t);

/* One run of a target: the command started for it, the process it outlives. */
struct cli_watch {
	const struct cli_target *target;
	const char *cmd;		/* "stat", "record": for messages */
	struct hwp_workload *wl;	/* the command, or NULL */
	int pidfd;			/* -p alone; -1: none, or no pidfds */
	int status;			/* the command's wait status, once reaped */
	double cpu_before_exec;		/* its CPU seconds while held before the exec */
};

/* Where counters or samples open: the fields of hwp_session_opts and
 * hwp_record_opts that have these names. */
struct cli_scope {
	enum hwp_scope scope;
	pid_t pid;
	const char *cpus;
	bool enable_on_exec;
};

/*
 * Fork @argv (the target's command, or a --sweep value's), waiting to be
 * started, or open a pidfd for -p without a command. Release @w after it,
 * whether it worked or not.
 */
int cli_watch_prepare(struct cli_watch *w, const struct cli_target *t, char **argv,
		      const char *cmd);
struct cli_scope cli_watch_scope(const struct cli_watch *w);
/* Whether the counters or samples start at the command's exec; if not, the
 * caller enables them before cli_watch_start() and disables them after the wait. */
bool cli_watch_self_enabled(const struct cli_watch *w);
/* Let the command exec. A command that cannot run ends with 126 or 127. */
int cli_watch_start(struct cli_watch *w);
/* The user and system CPU times of what was measured, once reaped: the
 * command's; NAN (said once) for -p's process, whose own they are not. */
int cli_watch_cpu_times(const struct cli_watch *w, double *user, double *system);
/* Whether the kernel stopped the command's counters at a credential-
 * changing exec (a setuid program...), its enabled time far below its CPU
 * time, once reaped: then @counts (@nr_units of @nr_events, with inherited
 * counters) become not counted, and a warning says why and what to do. */
bool cli_watch_detached(const struct cli_watch *w, struct hwp_count *counts,
			size_t nr_events, size_t nr_units);

/* What a command does while it waits. */
struct cli_wait_ops {
	/* Also wake when this polls readable; -1: none. Once it has hung up
	 * and polls readable no more, it is left out of the wait. */
	int fd;
	/* When to wake at the latest (cli_now()); INFINITY: no time. NULL: none. */
	double (*next)(void *ctx);
	/* At each wake that does not end the wait; 0 or an exit status. NULL: none. */
	int (*work)(void *ctx);
	void *ctx;
};

/*
 * Wait until what the run measures has ended: the command, else the process
 * of -p; with -a or -C and no command, until a stop. A stop (Ctrl-C,
 * SIGTERM, SIGHUP) ends the wait when the command is not all there is to
 * measure; otherwise it goes on to the command, which ends in its own time.
 */
int cli_watch_wait(struct cli_watch *w, const struct cli_wait_ops *ops);
/* After the wait: the command, stopped too if a stop ended a wait for a
 * process or CPUs, and reaped; *code gets its exit status (0 without one),
 * w->status its wait status. */
void cli_watch_reap(struct cli_watch *w, int *code);
void cli_watch_release(struct cli_watch *w);

#endif
