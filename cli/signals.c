// SPDX-License-Identifier: MIT
/* Stop requests while a command runs, shared by stat and record. */
#include "cli.h"

#include <string.h>
#include <unistd.h>

/* Set by the signal handler alone. */
static volatile sig_atomic_t stop_signal;
volatile sig_atomic_t cli_stop_count;
static volatile sig_atomic_t stop_from_tty;

static void on_stop(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	stop_signal = sig;
	/* A terminal's Ctrl-C reaches its whole foreground group, the
	 * command too; its hangup reaches the session's leader alone. Asked
	 * here, where it matters (two system calls, both async-signal-safe
	 * on Linux), not at each start. */
	stop_from_tty = info && info->si_code == SI_KERNEL &&
			!(sig == SIGHUP && getsid(0) == getpid());
	cli_stop_count++;
}

void cli_install_stop_signals(void)
{
	struct sigaction sa, old;
	sigset_t blocked;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO;	/* no SA_RESTART: waits must see EINTR */
	sigemptyset(&sa.sa_mask);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	sigaddset(&blocked, SIGHUP);
	/* Blocked first: a hangup before the handler is set back below
	 * waits, and SIG_IGN then discards it. */
	sigprocmask(SIG_BLOCK, &blocked, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* A closed terminal: finish the file, as for Ctrl-C. Under nohup,
	 * which ignores the hangup, it stays ignored (the one case of a
	 * second call; blocked, an ignored signal is still never taken). */
	sigaction(SIGHUP, &sa, &old);
	if (old.sa_handler == SIG_IGN)
		sigaction(SIGHUP, &old, NULL);
}

void cli_forward_stop(struct hwp_workload *wl)
{
	static sig_atomic_t handled;

	if (!wl || handled == cli_stop_count)
		return;
	if (cli_stop_count > 1)
		hwp_workload_kill(wl, SIGKILL);
	else if (!stop_from_tty)
		hwp_workload_kill(wl, stop_signal);
	handled = cli_stop_count;
}
