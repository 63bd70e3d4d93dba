// SPDX-License-Identifier: MIT
/* record --rotate --format pprof: each finished perf.data is read as
 * 'report --format pprof' reads it (the one pprof writer, which labels each
 * sample with its comm, pid, tid and host) into a .pb.gz beside it, and
 * removed. Reading a file symbolizes it, which takes longer than a ring
 * holds samples at 4 kHz: a thread of its own does it, one file after the
 * other, and --keep counts the converted files, in order. A second Ctrl-C
 * at the end stops them: what is left stays perf.data, and is listed. */
#include "record-rotate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_pprof(void *ctx, FILE *f)
{
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_PPROF);

	return hwp_profile_write(ctx, f, &o);
}

/* The profile's comment names its source without a path: the perf.data
 * is removed once converted. */
static int name_source(struct hwp_profile *p, const char *data)
{
	const char *base = strrchr(data, '/') ? strrchr(data, '/') + 1 : data;
	char *what;
	int err;

	if (asprintf(&what, "%s (hwprof record --rotate's, removed once converted)",
		     base) < 0)
		return -ENOMEM;
	err = hwpriv_profile_set_source(p, what);
	free(what);
	return err;
}

/* @data's profile written to @out, not yet in place: 0, or the error. */
static int write_unnamed(const char *data, const char *out, struct hwpriv_ofile **of)
{
	struct hwp_profile *p = NULL;
	FILE *f;
	int err = hwp_profile_load(data, NULL, &p) ?: name_source(p, data) ?:
		  cli_ofile_open(out, of, &f);

	if (!err) {
		err = write_pprof(p, f);
		if (err) {
			cli_ofile_end(*of, false);
			*of = NULL;
		}
	}
	hwp_profile_free(p);
	return err;
}

/* Called with the lock held, not abandoned: the conversion of @data to
 * @out, which failed with @err (said: @data is kept as it is) or is in
 * place (@data removed), counted among the finished files (both taken). */
static void count_converted(struct rotate_worker *w, char *data, char *out, int err)
{
	if (err) {
		cli_lib_error("record", err);
		cli_warn("record", "%s is kept as perf.data", data);
		free(out);
		rotate_keep(w->r, data, w->r->keep);
		return;
	}
	if (unlink(data))
		cli_warn("record", "cannot remove %s: %s", data, strerror(errno));
	free(data);
	rotate_keep(w->r, out, w->r->keep);
}

/* The finished perf.data @data (taken) as DIR/...pb.gz, written under a
 * temporary name and renamed (a backend that watches DIR sees whole files
 * only), and counted: count_converted(). False once abandoned (@data is
 * then the main thread's to name and count): nothing renamed, removed
 * or counted. */
static bool to_pprof(struct rotate_worker *w, char *data)
{
	size_t len = strlen(data) - strlen(".data");
	struct hwpriv_ofile *of = NULL;
	char *out = malloc(len + sizeof(".pb.gz"));
	bool abandoned;
	int err = -ENOMEM;

	if (out) {
		memcpy(out, data, len);
		strcpy(out + len, ".pb.gz");
		err = write_unnamed(data, out, &of);
	}
	/* Renamed into place, @data removed and the file counted together,
	 * or none of them: a second stop names and counts the files not
	 * converted under this lock (abandon()), so that every file is
	 * counted once, the last named last. */
	pthread_mutex_lock(&w->lock);
	abandoned = w->abandoned;
	err = cli_ofile_end(of, !err && !abandoned) ?: err;
	if (!abandoned)
		count_converted(w, data, out, err);
	w->current = NULL;
	pthread_mutex_unlock(&w->lock);
	if (abandoned) {
		free(out);
		free(data);
	}
	return !abandoned;
}

/* The next perf.data to convert, or NULL once closing and none is left,
 * or abandoned. */
static char *next_file(struct rotate_worker *w)
{
	char *path = NULL;

	pthread_mutex_lock(&w->lock);
	while (!w->nr_queue && !w->closing && !w->abandoned)
		pthread_cond_wait(&w->more, &w->lock);
	if (w->nr_queue && !w->abandoned) {
		path = w->queue[0];
		memmove(w->queue, w->queue + 1, --w->nr_queue * sizeof(*w->queue));
		w->current = path;
	}
	pthread_mutex_unlock(&w->lock);
	return path;
}

static void worker_free(struct rotate_worker *w)
{
	close(w->wake[0]);
	close(w->wake[1]);
	free(w->queue);
	pthread_cond_destroy(&w->more);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/* @arg is the worker, not the struct rotate: its r->w is the main
 * thread's, cleared by pprof_worker_stop() perhaps before this thread
 * first runs (a recording that fails once started). The thread reads the
 * struct rotate as w->r only, under the lock, until abandoned: a thread
 * left behind by a second stop may outlive it. */
static void *worker(void *arg)
{
	struct rotate_worker *w = arg;
	bool abandoned;
	char *path;

	while ((path = next_file(w)) && to_pprof(w, path))
		;
	pthread_mutex_lock(&w->lock);
	w->ended = true;
	abandoned = w->abandoned;
	pthread_mutex_unlock(&w->lock);
	if (abandoned) {	/* detached: nobody else holds the worker */
		worker_free(w);
		return NULL;
	}
	if (write(w->wake[1], "", 1) < 0)
		cli_warn("record", "the pprof thread cannot say it ended: %s",
			 strerror(errno));
	return NULL;
}


int pprof_worker_start(struct rotate *r)
{
	struct rotate_worker *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int err = w && !pipe2(w->wake, O_CLOEXEC) ? 0 : errno;

	if (err) {
		cli_error("record", "--format pprof: %s", strerror(err));
		free(w);
		return CLI_EXIT_FAILURE;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	w->r = r;
	r->w = w;
	/* Signals are the recording's: the thread takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, worker, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		cli_error("record", "--format pprof: cannot start the thread that writes the files: %s",
			  strerror(err));
		r->w = NULL;
		worker_free(w);
		return CLI_EXIT_FAILURE;
	}
	return 0;
}

/* The conversion falls behind the recording (a system-wide file of a busy
 * machine takes seconds to symbolize): past --keep files waiting, the
 * oldest is removed unread, as --keep would remove it once converted, so
 * that the disk stays bounded. Called with the lock held. */
static void drop_oldest(struct rotate_worker *w)
{
	cli_warn("record", "the pprof conversion falls behind: %s removed unconverted (rotate less often, or keep more with --keep)",
		 w->queue[0]);
	if (unlink(w->queue[0]) && errno != ENOENT)
		cli_warn("record", "cannot remove %s: %s", w->queue[0], strerror(errno));
	free(w->queue[0]);
	memmove(w->queue, w->queue + 1, --w->nr_queue * sizeof(*w->queue));
}

void pprof_worker_push(struct rotate *r, char *path)
{
	struct rotate_worker *w = r->w;
	char **q;

	pthread_mutex_lock(&w->lock);
	if (r->keep && w->nr_queue >= (size_t)r->keep)
		drop_oldest(w);
	q = realloc(w->queue, (w->nr_queue + 1) * sizeof(*q));
	if (q) {
		w->queue = q;
		w->queue[w->nr_queue++] = path;
		pthread_cond_signal(&w->more);
	}
	pthread_mutex_unlock(&w->lock);
	if (!q) {
		/* out of memory: the file is kept as perf.data, and counted */
		cli_warn("record", "%s is kept as perf.data: out of memory", path);
		pthread_mutex_lock(&w->lock);
		rotate_keep(r, path, r->keep);
		pthread_mutex_unlock(&w->lock);
	}
}

/* A second stop: what is left is kept as perf.data, said, and counted
 * among the finished files, oldest first (none removed: --keep counts
 * pprof files). Whether the thread had ended already (then it is the
 * caller's to join and free; else the thread frees the worker). */
static bool abandon(struct rotate *r, struct rotate_worker *w)
{
	bool ended;
	size_t n;

	pthread_mutex_lock(&w->lock);
	w->abandoned = true;
	ended = w->ended;
	pthread_cond_signal(&w->more);
	n = w->nr_queue + !!w->current;
	if (n)
		cli_warn("record", "stopped: %zu finished file%s not converted to pprof, kept as perf.data (hwprof report --format pprof -i FILE -o FILE.pb.gz converts one):",
			 n, n == 1 ? "" : "s");
	if (w->current) {
		char *copy = strdup(w->current);

		fprintf(stderr, "  %s\n", w->current);
		if (copy)
			rotate_keep(r, copy, 0);
	}
	for (size_t i = 0; i < w->nr_queue; i++) {
		fprintf(stderr, "  %s\n", w->queue[i]);
		rotate_keep(r, w->queue[i], 0);
	}
	w->nr_queue = 0;
	pthread_mutex_unlock(&w->lock);
	return ended;
}

static size_t pending(struct rotate_worker *w)
{
	size_t n;

	pthread_mutex_lock(&w->lock);
	n = w->nr_queue + !!w->current;
	pthread_mutex_unlock(&w->lock);
	return n;
}

/* Until the thread ends (true) or a second stop request (false). Stop
 * requests are blocked but in ppoll(), as in cli_watch_wait(). */
static bool wait_worker(struct rotate_worker *w)
{
	struct pollfd pfd = { .fd = w->wake[0], .events = POLLIN };
	bool told = false;
	sigset_t none;
	size_t n;

	sigemptyset(&none);
	for (;;) {
		if (cli_stop_count >= 2)
			return false;
		if (cli_stop_count == 1 && !told && (n = pending(w))) {
			cli_note("record", "converting the last %zu file%s to pprof (Ctrl-C again to stop, keeping %s as perf.data)",
				 n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
			told = true;
		}
		if (ppoll(&pfd, 1, NULL, &none) > 0)
			return true;
		if (errno != EINTR)
			return true;	/* then joined: it ends */
	}
}

void pprof_worker_stop(struct rotate *r)
{
	struct rotate_worker *w = r->w;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->closing = true;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
	r->w = NULL;
	if (!wait_worker(w)) {
		pthread_t t = w->thread;

		/* It converts a file it cannot be told to leave: the
		 * process's exit ends it, or it frees the worker as it ends
		 * (after abandon(), @w is the thread's). */
		if (!abandon(r, w)) {
			pthread_detach(t);
			return;
		}
	}
	pthread_join(w->thread, NULL);
	worker_free(w);
}
