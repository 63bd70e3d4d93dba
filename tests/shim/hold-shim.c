// SPDX-License-Identifier: MIT
/* LD_PRELOAD shim that holds the hwprof command's threads at the points
 * where a test of record --rotate --format pprof wants them:
 *   HWPROF_HOLD_LOG=PATH   each hold appends a line to PATH first ("load
 *                          FILE", "renamed FILE")
 *   HWPROF_HOLD_FIFO=PATH  each call of hwp_profile_load() (a conversion)
 *                          waits until a byte can be read from the FIFO
 *                          PATH (a test that never writes one holds the
 *                          call for good)
 *   HWPROF_HOLD_RENAMED=PATH  a thread that renamed a file into a name
 *                          ending .pb.gz (a conversion put in place) waits
 *                          as HWPROF_HOLD_FIFO says on the FIFO PATH, at its
 *                          next pthread_mutex_unlock(), once unlocked: the
 *                          lock under which it renamed is free meanwhile
 *   HWPROF_HOLD_THREADS=1  a thread pthread_create() starts runs its
 *                          function only once a thread calls ppoll() (the
 *                          command waits for something: for record, the
 *                          recording, or the conversions' end)
 * Without them every call passes. */
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct hwp_profile;
struct hwp_profile_opts;

int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
		     struct hwp_profile **out);

static void say(const char *what, const char *path)
{
	const char *log = getenv("HWPROF_HOLD_LOG");
	int fd = log ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;

	if (fd >= 0) {
		dprintf(fd, "%s %s\n", what, path);
		close(fd);
	}
}

static void wait_fifo(const char *fifo)
{
	char c;
	int fd;

	/* read and write: the open does not wait for a writer, the read
	 * waits for a byte (no end of file when a writer closes) */
	if (fifo && (fd = open(fifo, O_RDWR | O_CLOEXEC)) >= 0) {
		if (read(fd, &c, 1) < 0)
			perror(fifo);
		close(fd);
	}
}

static void hold(const char *path)
{
	say("load", path);
	wait_fifo(getenv("HWPROF_HOLD_FIFO"));
}

int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
		     struct hwp_profile **out)
{
	int (*real)(const char *, const struct hwp_profile_opts *, struct hwp_profile **);

	*(void **)&real = dlsym(RTLD_NEXT, "hwp_profile_load");
	hold(path);
	return real ? real(path, opts, out) : -38;	/* -ENOSYS */
}

/* HWPROF_HOLD_RENAMED: the file this thread renamed into place, until its
 * next unlock. */
static __thread char renamed[4096];

int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *);
	size_t len = strlen(to);
	int ret;

	*(void **)&real = dlsym(RTLD_NEXT, "rename");
	ret = real(from, to);
	if (!ret && getenv("HWPROF_HOLD_RENAMED") && len > 6 &&
	    !strcmp(to + len - 6, ".pb.gz") && len < sizeof(renamed))
		memcpy(renamed, to, len + 1);
	return ret;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	static int (*real)(pthread_mutex_t *);
	int ret;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_mutex_unlock");
	ret = real(m);

	if (renamed[0]) {
		say("renamed", renamed);
		renamed[0] = 0;
		wait_fifo(getenv("HWPROF_HOLD_RENAMED"));
	}
	return ret;
}

/* HWPROF_HOLD_THREADS: a pipe whose write end ppoll() closes; the threads
 * held read it until its end. */
static int release[2] = { -1, -1 };

typedef void *(*start_fn)(void *);

struct start {
	start_fn fn;
	void *arg;
};

static void *held_start(void *arg)
{
	struct start s = *(struct start *)arg;
	char c;

	free(arg);
	while (read(release[0], &c, 1) > 0)
		;
	return s.fn(s.arg);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, start_fn fn, void *arg)
{
	int (*real)(pthread_t *, const pthread_attr_t *, start_fn, void *);
	struct start *s = NULL;

	*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (getenv("HWPROF_HOLD_THREADS") &&
	    (release[0] >= 0 || !pipe2(release, O_CLOEXEC)) && (s = malloc(sizeof(*s)))) {
		*s = (struct start){ fn, arg };
		fn = held_start;
		arg = s;
	}
	return real(t, attr, fn, arg);
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *timeout,
	  const sigset_t *mask)
{
	int (*real)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
	int fd = __atomic_exchange_n(&release[1], -1, __ATOMIC_SEQ_CST);

	if (fd >= 0)
		close(fd);
	*(void **)&real = dlsym(RTLD_NEXT, "ppoll");
	return real(fds, n, timeout, mask);
}
