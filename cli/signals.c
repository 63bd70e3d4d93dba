// SPDX-License-Identifier: MIT
/* Stop requests while a command runs, shared by stat and record. */
#include "cli.h"

#include <string.h>
#include <unistd.h>

/* Set by the signal handler alone. */
static volatile sig_atomic_t stop_signal;
volatile sig_atomic_t cli_stop_count;
static volatile sig_atomic_t stop_from_tty;
static bool session_leader;

static void on_stop(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	stop_signal = sig;
	/* A terminal's Ctrl-C reaches its whole foreground group, the
	 * command too; its hangup reaches the session's leader alone. */
	stop_from_tty = info && info->si_code == SI_KERNEL &&
			!(sig == SIGHUP && session_leader);
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
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGINT);
	sigaddset(&blocked, SIGTERM);
	/* A closed terminal: finish the file, as for Ctrl-C. Under nohup,
	 * which ignores the hangup, it stays ignored. */
	sigaction(SIGHUP, NULL, &old);
	if (old.sa_handler != SIG_IGN) {
		session_leader = getsid(0) == getpid();
		sigaction(SIGHUP, &sa, NULL);
		sigaddset(&blocked, SIGHUP);
	}
	sigprocmask(SIG_BLOCK, &blocked, NULL);
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
