// SPDX-License-Identifier: MIT
/* hwprof stat --regions: the measured program, linked with libhwprof,
 * writes its regions to a file hwprof names in $HWPROF_OUTPUT (and counts
 * hwprof's events, $HWPROF_EVENTS); each run's file is attached to the
 * result, which shows them after the whole program's counts. */
#include "stat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int regions_prepare(struct stat_ctx *sc)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096];

	if (!sc->cfg->regions)
		return 0;
	snprintf(dir, sizeof(dir), "%s/hwprof-regions.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		cli_error("stat",
			  "--regions: cannot make a directory in %s: %s (set TMPDIR)",
			  tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	sc->regions_dir = strdup(dir);
	if (!sc->regions_dir || asprintf(&sc->regions_file, "%s/regions.json", dir) < 0) {
		sc->regions_file = NULL;
		cli_error("stat", "out of memory");
		return CLI_EXIT_FAILURE;
	}
	/* The program's regions count what hwprof counts, unless -e is absent:
	 * then they keep their own choice. */
	if (setenv("HWPROF_OUTPUT", sc->regions_file, 1) ||
	    (sc->cfg->events.buf && setenv("HWPROF_EVENTS", sc->cfg->events.buf, 1))) {
		cli_error("stat", "--regions: setenv: %s", strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* A region left out of the run's file (the library said which and why) is
 * a region lost: the exit status says so. */
static void regions_check_kept(struct stat_ctx *sc)
{
	size_t n = hwp_result_nr_regionsets(sc->result);
	struct hwp_regionset_info info = { .sz = sizeof(info) };

	if (n && !hwp_regionset_info(hwp_result_regionset(sc->result, n - 1), &info) &&
	    info.nr_unreadable)
		sc->regions_lost = true;
}

void regions_collect(struct stat_ctx *sc, bool keep)
{
	int err;

	if (!sc->regions_file)
		return;
	if (keep) {
		err = hwpriv_result_add_regions(sc->result, sc->regions_file);
		/* Nothing measured is lost (a run without a region has none to
		 * show): a warning, unlike regions written but unreadable. */
		if (err == -ENOENT && !sc->regions_warned) {
			cli_warn("stat", "--regions: the command wrote no regions; is it linked with libhwprof, and does it call hwp_region_begin()?");
			sc->regions_warned = true;
		} else if (err && err != -ENOENT) {
			const char *msg = hwp_errmsg();

			/* The file is ours and gone in a moment: say what the
			 * command wrote wrong, not to write it again. */
			cli_error("stat",
				  "--regions: the regions the command wrote are lost: %s",
				  msg && *msg ? msg : hwp_strerror(err));
			sc->regions_lost = true;
		} else if (!err) {
			regions_check_kept(sc);
		}
	}
	unlink(sc->regions_file);
}

void regions_cleanup(struct stat_ctx *sc)
{
	if (sc->regions_file)
		unlink(sc->regions_file);
	if (sc->regions_dir)
		rmdir(sc->regions_dir);
	free(sc->regions_file);
	free(sc->regions_dir);
	sc->regions_file = sc->regions_dir = NULL;
}
