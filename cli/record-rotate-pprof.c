// SPDX-License-Identifier: MIT
/* record --rotate --format pprof: each finished perf.data is read as
 * 'report --format pprof' reads it (the one pprof writer, which labels each
 * sample with its comm, pid, tid and host) into a .pb.gz beside it, and
 * removed. Reading a file symbolizes it, which takes longer than a ring
 * holds samples at 4 kHz: a thread of its own does it, one file after the
 * other, and --keep counts the converted files, in order. */
#include "record-rotate.h"

#include <errno.h>
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

/* The finished perf.data @data as DIR/...pb.gz, written under a temporary
 * name and renamed (a backend that watches DIR sees whole files only),
 * and @data removed: the .pb.gz's path. After a failure, said, @data is
 * kept as it is, and is the path returned. */
static char *to_pprof(char *data)
{
	size_t len = strlen(data) - strlen(".data");
	struct hwp_profile *p = NULL;
	char *out = malloc(len + sizeof(".pb.gz"));
	int err = out ? hwp_profile_load(data, NULL, &p) : -ENOMEM;

	if (!err)
		err = name_source(p, data);
	if (!err) {
		memcpy(out, data, len);
		strcpy(out + len, ".pb.gz");
		err = cli_write_file(out, write_pprof, p);
	}
	hwp_profile_free(p);
	if (err) {
		cli_lib_error("record", err);
		cli_warn("record", "%s is kept as perf.data", data);
		free(out);
		return data;
	}
	if (unlink(data))
		cli_warn("record", "cannot remove %s: %s", data, strerror(errno));
	free(data);
	return out;
}

/* The next perf.data to convert, or NULL once closing and none is left. */
static char *next_file(struct rotate_worker *w)
{
	char *path = NULL;

	pthread_mutex_lock(&w->lock);
	while (!w->nr_queue && !w->closing)
		pthread_cond_wait(&w->more, &w->lock);
	if (w->nr_queue) {
		path = w->queue[0];
		memmove(w->queue, w->queue + 1, --w->nr_queue * sizeof(*w->queue));
	}
	pthread_mutex_unlock(&w->lock);
	return path;
}

static void *worker(void *arg)
{
	struct rotate *r = arg;
	char *path;

	while ((path = next_file(&r->w))) {
		path = to_pprof(path);
		pthread_mutex_lock(&r->w.lock);
		rotate_keep(r, path, r->keep);
		pthread_mutex_unlock(&r->w.lock);
	}
	return NULL;
}

int pprof_worker_start(struct rotate *r)
{
	struct rotate_worker *w = &r->w;
	sigset_t all, old;
	int err;

	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->more, NULL);
	/* Signals are the recording's: the thread takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, worker, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		cli_error("record", "--format pprof: cannot start the thread that writes the files: %s",
			  strerror(err));
		pthread_cond_destroy(&w->more);
		pthread_mutex_destroy(&w->lock);
		return CLI_EXIT_FAILURE;
	}
	w->running = true;
	return 0;
}

/* The conversion falls behind the recording (a system-wide file of a busy
 * machine takes seconds to symbolize): past --keep files waiting, the
 * oldest is removed unread, as --keep would remove it once converted, so
 * that the disk stays bounded. Called with the lock held. */
static void drop_oldest(struct rotate *r)
{
	struct rotate_worker *w = &r->w;

	cli_warn("record", "the pprof conversion falls behind: %s removed unconverted (rotate less often, or keep more with --keep)",
		 w->queue[0]);
	if (unlink(w->queue[0]) && errno != ENOENT)
		cli_warn("record", "cannot remove %s: %s", w->queue[0], strerror(errno));
	free(w->queue[0]);
	memmove(w->queue, w->queue + 1, --w->nr_queue * sizeof(*w->queue));
}

void pprof_worker_push(struct rotate *r, char *path)
{
	struct rotate_worker *w = &r->w;
	char **q;

	pthread_mutex_lock(&w->lock);
	if (r->keep && w->nr_queue >= (size_t)r->keep)
		drop_oldest(r);
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

void pprof_worker_stop(struct rotate *r)
{
	struct rotate_worker *w = &r->w;

	if (!w->running)
		return;
	pthread_mutex_lock(&w->lock);
	w->closing = true;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	w->running = false;
	free(w->queue);
	pthread_cond_destroy(&w->more);
	pthread_mutex_destroy(&w->lock);
}
