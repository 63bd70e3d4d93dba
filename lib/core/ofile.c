// SPDX-License-Identifier: MIT
/* Output files that appear under their name complete, or not at all. The
 * file is written without a name (O_TMPFILE), linked under a temporary
 * name once complete and renamed into place: a hwprof killed while writing
 * leaves nothing behind. Where the file system has no O_TMPFILE, it is
 * written under the temporary name itself, which a kill -9 leaves. */
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct hwpriv_ofile {
	FILE *f;
	char *path;
	char *tmp;	/* NULL when writing directly (stdout, devices, pipes) */
	bool unnamed;	/* O_TMPFILE: tmp is only given at the commit */
	bool is_stdout;
	bool recording;	/* 0600, and the file it replaces kept as PATH.old */
};

static void ofile_free(struct hwpriv_ofile *of)
{
	if (!of)
		return;
	if (of->f && !of->is_stdout)
		fclose(of->f);
	free(of->path);
	free(of->tmp);
	free(of);
}

/* @path's directory, malloc'ed, or NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/* A file of no name in @path's directory, @mode less the umask: its fd, or
 * -errno (-EOPNOTSUPP, -EISDIR or -EINVAL where the file system or kernel
 * has no O_TMPFILE). */
static int open_unnamed(const char *path, mode_t mode)
{
	char *dir = dir_of(path);
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	free(dir);
	return fd < 0 ? -errno : fd;
}

static int cannot_create(const char *path, int err)
{
	if (err == -ENOENT)
		return fail(err, "cannot write '%s': its directory does not exist", path);
	if (err == -EROFS)
		return fail(err, "cannot write '%s': its file system is read-only", path);
	if (err == -EACCES || err == -EPERM)
		return fail(err, "cannot write '%s': %s (no permission to create files in its directory)",
				path, errno_text(-err));
	return fail(err, "cannot write '%s': %s", path, errno_text(-err));
}

/* Give the unnamed file a temporary name beside @path's, one that is free
 * (linkat() takes it atomically or fails): then a rename puts it in place. */
static int name_it(struct hwpriv_ofile *of)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fileno(of->f));
	for (unsigned int n = 0; n < 1000; n++) {
		free(of->tmp);
		if (asprintf(&of->tmp, "%s.tmp.%d.%u", of->path, (int)getpid(), n) < 0) {
			of->tmp = NULL;
			return -ENOMEM;
		}
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, of->tmp, AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int ofile_check(const char *path)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return fail(-EISDIR, "cannot write '%s': it is a directory",
				    path);
		if (!S_ISREG(st.st_mode))
			return 0;	/* a device or a pipe: only writing tells */
	}
	fd = open_unnamed(path, 0600);
	if (fd >= 0) {
		close(fd);	/* it had no name: nothing is left */
		return 0;
	}
	if (fd == -EOPNOTSUPP || fd == -EISDIR || fd == -EINVAL) {
		char *dir = dir_of(path);

		if (!dir)
			return fail(-ENOMEM, "out of memory");
		fd = access(dir, W_OK | X_OK) ? -errno : 0;
		free(dir);
		if (!fd)
			return 0;
	}
	return cannot_create(path, fd);
}

/* A device or a FIFO, written directly. A FIFO that no one reads yet
 * would block the open for ever (and a signal's handler with it): it is
 * refused, and said so, rather than waited on. */
static int open_direct(struct hwpriv_ofile *of)
{
	int fd = open(of->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), fl, err;

	if (fd < 0 && errno == ENXIO)
		return fail(-ENXIO, "cannot write '%s': it is a FIFO that no one reads yet; start its reader first, or write to standard output (-o -) and pipe that",
			    of->path);
	fl = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	if (fl >= 0 && !fcntl(fd, F_SETFL, fl & ~O_NONBLOCK))
		of->f = fdopen(fd, "w");
	if (!of->f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return fail(err, "cannot write '%s': %s", of->path, errno_text(err));
	}
	return 0;
}

/* The file that becomes @of->path at the commit: unnamed, or under a
 * temporary name. A recording (the program's memory: its stack, its
 * registers) is its owner's alone, 0600 as perf writes it, whatever the
 * umask; other outputs are 0666 less the umask, as fopen() makes them. */
static int open_temp(struct hwpriv_ofile *of)
{
	mode_t mask;
	int fd, err;

	if (asprintf(&of->tmp, "%s.tmp.XXXXXX", of->path) < 0) {
		of->tmp = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	fd = open_unnamed(of->path, of->recording ? 0600 : 0666);
	of->unnamed = fd >= 0;
	if (fd == -EOPNOTSUPP || fd == -EISDIR || fd == -EINVAL) {
		fd = mkostemp(of->tmp, O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		free(of->tmp);
		of->tmp = NULL;
		return cannot_create(of->path, fd);
	}
	if (of->recording) {
		/* never more than 0600 from the start; exactly 0600 now */
		fchmod(fd, 0600);
	} else if (!of->unnamed) {
		/* mkostemp() creates 0600: give it what open() would */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	of->f = fdopen(fd, "w");
	if (!of->f) {
		err = -errno;
		close(fd);
		if (!of->unnamed)
			unlink(of->tmp);
		return fail(err, "cannot write '%s': %s", of->path, errno_text(err));
	}
	return 0;
}

static int ofile_open(const char *path, bool recording, struct hwpriv_ofile **out)
{
	struct hwpriv_ofile *of;
	struct stat st;
	int err;

	clear_error();
	if (!out || !path)
		return fail(-EINVAL, "hwpriv_ofile_open: NULL argument");
	*out = NULL;
	of = calloc(1, sizeof(*of));
	if (!of || !(of->path = strdup(path))) {
		free(of);
		return fail(-ENOMEM, "out of memory");
	}
	of->recording = recording;
	if (!strcmp(path, "-")) {
		of->f = stdout;
		of->is_stdout = true;
		*out = of;
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		err = fail(-EISDIR, "cannot write '%s': it is a directory", path);
	else if (!stat(path, &st) && !S_ISREG(st.st_mode))
		err = open_direct(of);
	else
		err = open_temp(of);
	if (err) {
		ofile_free(of);
		return err;
	}
	*out = of;
	return 0;
}

HWP_API int hwpriv_ofile_open(const char *path, struct hwpriv_ofile **out)
{
	return ofile_open(path, false, out);
}

int ofile_open_recording(const char *path, struct hwpriv_ofile **out)
{
	return ofile_open(path, true, out);
}

HWP_API FILE *hwpriv_ofile_stream(struct hwpriv_ofile *of)
{
	return of ? of->f : NULL;
}

/* As perf record does, a recording keeps the file it replaces, when there
 * is something in it, as @path.old (an older one goes). Done at the commit,
 * not at the start: a recording that fails leaves the file where it was. */
static int keep_old(const char *path)
{
	struct stat st;
	char *old;
	int err = 0;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return 0;
	if (asprintf(&old, "%s.old", path) < 0)
		return fail(-ENOMEM, "out of memory");
	if (rename(path, old))
		err = -errno;
	free(old);
	return err;
}

HWP_API int hwpriv_ofile_commit(struct hwpriv_ofile *of)
{
	int err = 0;

	clear_error();
	if (!of)
		return fail(-EINVAL, "hwpriv_ofile_commit: NULL");
	errno = 0;
	if (fflush(of->f) || ferror(of->f))
		err = errno ? -errno : -EIO;
	else if (of->tmp && fsync(fileno(of->f)))
		err = -errno;
	if (!err && of->unnamed) {
		err = name_it(of);
		of->unnamed = err != 0;	/* nothing to unlink then */
	}
	if (!of->is_stdout) {
		if (fclose(of->f) && !err)
			err = errno ? -errno : -EIO;
		of->f = NULL;
	}
	if (!err && of->tmp && of->recording && (err = keep_old(of->path))) {
		/* Neither recording is lost: the new one keeps its temporary
		 * name (given by name_it() or mkostemp()). */
		fail(err, "cannot keep the older '%s' as '%s.old': %s; the new recording is in '%s': move '%s.old' away, then rename it to '%s'",
		     of->path, of->path, errno_text(err), of->tmp, of->path, of->path);
		ofile_free(of);
		return err;
	}
	if (!err && of->tmp && rename(of->tmp, of->path))
		err = -errno;
	if (err) {
		if (of->tmp && !of->unnamed)
			unlink(of->tmp);
		fail(err, "writing '%s' failed: %s; %s%s",
			 of->is_stdout ? "standard output" : of->path,
			 errno_text(-err), write_advice(err),
			 of->tmp ? " (nothing was written under that name)" : "");
	}
	ofile_free(of);
	return err;
}

HWP_API void hwpriv_ofile_abort(struct hwpriv_ofile *of)
{
	if (!of)
		return;
	if (of->tmp) {
		fclose(of->f);
		of->f = NULL;
		if (!of->unnamed)
			unlink(of->tmp);
	}
	ofile_free(of);
}
