// SPDX-License-Identifier: MIT
/* hwprof stat's failed runs: which runs of -r failed (killed by a signal,
 * or another exit status than the first run's), said once each. */
#include "stat.h"

#include <string.h>
#include <sys/wait.h>

/* Say that run @name failed, and why; count it in @k. */
static void note_failed(struct stat_ctx *sc, struct run_check *k, const char *name,
			const char *why, int code)
{
	size_t len = strlen(k->failed);
	bool stops = !sc->cfg->keep_going;

	cli_error("stat", "%s: %s: the run is not counted%s", name, why,
		  stops ? "; -r stops here (--keep-going runs the rest)" : "");
	if (!k->nr_failed++)
		k->failed_code = code ? code : CLI_EXIT_FAILURE;
	if (len + strlen(name) + 8 < sizeof(k->failed))
		snprintf(k->failed + len, sizeof(k->failed) - len, "%s%s",
			 len ? ", " : "", name);
	else if (!strstr(k->failed, "..."))
		snprintf(k->failed + len, sizeof(k->failed) - len, ", ...");
}

/* A run that exited 0 after a first run that did not, and that no run has
 * confirmed: the first run is the failed one (a command that fails once,
 * on a state it makes), and this run's 0 is the status to keep to. */
static void first_failed(struct stat_ctx *sc, struct run_check *k)
{
	char why[512];

	snprintf(why, sizeof(why), "the command exited with %d; %s exited with 0",
		 k->first, sc->run_name);
	note_failed(sc, k, k->first_name, why, k->first);
	k->drop_first = k->first_kept;
	k->unconfirmed = false;
	k->first = 0;
	snprintf(k->first_name, sizeof(k->first_name), "%s", sc->run_name);
}

/* Whether the run that ended with wait status @status failed: killed by
 * a signal, or with an exit status other than the first run's, unless the
 * first run's was not 0 and this one's is (then the first failed). One run
 * alone is never failed: its counts are shown, and its status passes
 * through, as perf does. @keep: the run goes into the result. */
bool stat_run_failed(struct stat_ctx *sc, int status, bool keep)
{
	const struct stat_config *c = sc->cfg;
	struct run_check *k = sc->check;
	int code = hwp_workload_exit_code(status);
	char why[256];

	if (c->repeat < 2 && !c->warmup && !c->variants)
		return false;
	k->nr_runs++;
	if (WIFSIGNALED(status)) {
		const char *name = sigabbrev_np(WTERMSIG(status));

		snprintf(why, sizeof(why), "the command was killed by signal %d (SIG%s)",
			 WTERMSIG(status), name ? name : "?");
	} else if (!k->seen) {
		k->seen = true;
		k->first = code;
		k->unconfirmed = code != 0;
		k->first_kept = keep;
		snprintf(k->first_name, sizeof(k->first_name), "%s", sc->run_name);
		return false;
	} else if (code == k->first) {
		k->unconfirmed = false;
		return false;
	} else if (k->unconfirmed && code == 0) {
		first_failed(sc, k);
		return false;
	} else {
		snprintf(why, sizeof(why),
			 "the command exited with %d; %s exited with %d", code,
			 k->first_name, k->first);
	}
	note_failed(sc, k, sc->run_name, why, code);
	return true;
}

bool stat_runs_failed(struct stat_ctx *sc, const struct run_check *k, int *code)
{
	if (!k->nr_failed)
		return false;
	if (sc->cfg->keep_going)
		cli_error("stat", "%ld of %ld runs failed and are not in the result: %s",
			  k->nr_failed, k->nr_runs, k->failed);
	*code = k->failed_code;
	return true;
}
