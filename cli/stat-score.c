// SPDX-License-Identifier: MIT
/* hwprof stat --score NAME=REGEX: the benchmark's own number from each
 * run's output. The library scans; this file passes the output on to the
 * terminal as it comes, and says which run a missing score belongs to. */
#include "stat.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool from_file(const struct stat_config *c)
{
	return c->score_from && strcmp(c->score_from, "stdout") &&
	       strcmp(c->score_from, "stderr");
}

int score_check(const struct stat_config *c)
{
	const char *what = c->nr_scores ? "--score" : c->score_from ? "--score-from" :
			   c->quiet ? "--quiet" : c->explain ? "--explain" : NULL;

	if (!what)
		return 0;
	if (!c->target.argv) {
		cli_error("stat", "%s reads what a command prints: give one after --",
			  what);
		return CLI_EXIT_USAGE;
	}
	if (c->interval_ms) {
		cli_error("stat", "%s takes one number a run: not with -I", what);
		return CLI_EXIT_USAGE;
	}
	if (c->explain && (!c->nr_scores || c->repeat < 3 ||
			   c->format != HWP_FORMAT_TEXT || c->sweep || c->variants)) {
		cli_error("stat", "--explain ranks the rows of one measurement by how they follow its score: %s",
			  !c->nr_scores ? "give a --score NAME=REGEX" :
			  c->repeat < 3 ? "give -r N, N at least 3 (10 or more)" :
			  c->format != HWP_FORMAT_TEXT ?
			  "it writes text (hwp_result_explain() writes JSON)" :
			  "not with --sweep or variants");
		return CLI_EXIT_USAGE;
	}
	if (c->score_from && !c->nr_scores) {
		cli_error("stat", "--score-from says where --score reads: give a --score NAME=REGEX");
		return CLI_EXIT_USAGE;
	}
	if (c->score_from && !*c->score_from) {
		cli_error("stat", "--score-from: the name is empty; give stdout, stderr or a file");
		return CLI_EXIT_USAGE;
	}
	if (c->quiet && from_file(c)) {
		cli_error("stat", "--quiet hides the output --score reads; with --score-from FILE, it reads a file");
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int score_prepare(struct stat_ctx *sc)
{
	struct stat_config *c = sc->cfg;
	int err;

	if (!c->nr_scores && !c->quiet)
		return 0;
	sc->scores = calloc(c->nr_scores + 1, sizeof(*sc->scores));
	if (!sc->scores)
		return cli_lib_error("stat", -ENOMEM);
	for (size_t i = 0; i < c->nr_scores; i++) {
		err = hwpriv_score_new(c->scores[i], &sc->scores[i]);
		if (err) {
			cli_lib_error("stat", err);
			return cli_exit_for(err);
		}
		sc->nr_scores++;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(hwpriv_score_name(sc->scores[k]),
				    hwpriv_score_name(sc->scores[i]))) {
				cli_error("stat", "--score %s is given twice",
					  hwpriv_score_name(sc->scores[i]));
				return CLI_EXIT_USAGE;
			}
	}
	if (!from_file(c))
		c->target.capture = c->score_from && !strcmp(c->score_from, "stderr") ?
				    HWP_CAPTURE_STDERR : HWP_CAPTURE_STDOUT;
	return 0;
}

int score_begin_run(struct stat_ctx *sc)
{
	for (size_t i = 0; i < sc->nr_scores; i++)
		hwpriv_score_reset(sc->scores[i]);
	if (!from_file(sc->cfg))
		return 0;
	sc->score_file_existed = !stat(sc->cfg->score_from, &sc->score_file);
	return 0;
}

static void feed(struct stat_ctx *sc, const char *buf, size_t n)
{
	for (size_t i = 0; i < sc->nr_scores; i++)
		hwpriv_score_feed(sc->scores[i], buf, n);
}

/* Show @n bytes where the command would have written them. A reader that
 * went away (EPIPE) stops the showing: SIGPIPE is blocked for the write,
 * and the one it raised is taken back; the command is then told, as it
 * would have been without hwprof (cut_output()). */
static void show(struct stat_ctx *sc, const char *buf, size_t n)
{
	int fd = sc->cfg->target.capture == HWP_CAPTURE_STDERR ? 2 : 1;
	sigset_t pipe_set, old;

	if (sc->cfg->quiet || sc->tee_failed)
		return;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe_set, &old);
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			if (e == EPIPE) {
				struct timespec zero = { 0, 0 };

				sigtimedwait(&pipe_set, NULL, &zero);
				sc->reader_gone = true;
			} else {
				cli_warn("stat", "showing the command's output failed (%s): it is still scanned for --score, not shown",
					 strerror(e));
			}
			sc->tee_failed = true;
			break;
		}
		buf += w;
		n -= (size_t)w;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * The reader of hwprof's output went away: the command's writes must fail
 * with EPIPE (SIGPIPE) as they would have without hwprof, not go on into
 * hwprof forever ('| head -1' of a command that never stops). The read end
 * of its pipe closes; a pipe that no one writes takes its place under the
 * same number, which the workload owns and the wait polls: it reads EOF,
 * and the poll lets it go at its hang-up.
 */
static void cut_output(int fd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return;
	close(p[1]);
	if (dup3(p[0], fd, O_CLOEXEC) < 0)
		cli_warn("stat", "the reader of the command's output went away, but its pipe cannot be closed (%s): the command is not told",
			 strerror(errno));
	close(p[0]);
}

int score_drain(struct stat_ctx *sc, int fd)
{
	char buf[65536];

	for (;;) {
		if (sc->reader_gone) {
			cut_output(fd);
			return 0;
		}
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		if (n == 0)
			return 0;
		show(sc, buf, (size_t)n);
		feed(sc, buf, (size_t)n);
	}
}

static int read_file(struct stat_ctx *sc)
{
	const char *path = sc->cfg->score_from;
	struct stat st;
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		cli_error("stat", "%s: --score-from '%s' cannot be read: %s; the benchmark should write its result there",
			  sc->run_name, path, strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (!fstat(fd, &st) && sc->score_file_existed &&
	    st.st_ino == sc->score_file.st_ino && st.st_size == sc->score_file.st_size &&
	    st.st_mtim.tv_sec == sc->score_file.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == sc->score_file.st_mtim.tv_nsec) {
		close(fd);
		cli_error("stat", "%s: --score-from '%s' was not written during the run: its score would be the last run's",
			  sc->run_name, path);
		return CLI_EXIT_FAILURE;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			feed(sc, buf, (size_t)n);
	if (n < 0) {
		cli_error("stat", "%s: reading --score-from '%s' failed: %s",
			  sc->run_name, path, strerror(errno));
		close(fd);
		return CLI_EXIT_FAILURE;
	}
	close(fd);
	return 0;
}

int score_end_run(struct stat_ctx *sc, double *values)
{
	int ret = from_file(sc->cfg) ? read_file(sc) : 0;

	for (size_t i = 0; !ret && i < sc->nr_scores; i++) {
		int err = hwpriv_score_value(sc->scores[i], &values[i]);

		if (err) {
			/* Never a made-up value: the run is not kept. */
			cli_error("stat", "%s of '%s': %s; the run is not kept",
				  sc->run_name, sc->run_argv[0], hwp_errmsg());
			ret = CLI_EXIT_FAILURE;
		}
	}
	return ret;
}

void score_cleanup(struct stat_ctx *sc)
{
	for (size_t i = 0; i < sc->nr_scores; i++)
		hwpriv_score_free(sc->scores[i]);
	free(sc->scores);
	sc->scores = NULL;
	sc->nr_scores = 0;
}
