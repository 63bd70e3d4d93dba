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

struct hwp_ofile {
	FILE *f;
	char *path;
	char *tmp;	/* NULL when writing directly (stdout, devices, pipes) */
	bool unnamed;	/* O_TMPFILE: tmp is only given at the commit */
	bool is_stdout;
};

static void ofile_free(struct hwp_ofile *of)
{
	if (!of)
		return;
	if (of->f && !of->is_stdout)
		fclose(of->f);
	free(of->path);
	free(of->tmp);
	free(of);
}

/* A file of no name in @path's directory, 0666 less the umask: its fd, or
 * -errno (-EOPNOTSUPP, -EISDIR or -EINVAL where the file system or kernel
 * has no O_TMPFILE). */
/* @path's directory, malloc'ed, or NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

static int open_unnamed(const char *path)
{
	char *dir = dir_of(path);
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
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
				path, strerrordesc_np(-err));
	return fail(err, "cannot write '%s': %s", path, strerrordesc_np(-err));
}

/* Give the unnamed file a temporary name beside @path's, one that is free
 * (linkat() takes it atomically or fails): then a rename puts it in place. */
static int name_it(struct hwp_ofile *of)
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
	fd = open_unnamed(path);
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

HWP_API int hwp_ofile_open(const char *path, struct hwp_ofile **out)
{
	struct hwp_ofile *of;
	struct stat st;
	mode_t mask;
	int fd, err;

	clear_error();
	if (!out || !path)
		return fail(-EINVAL, "hwp_ofile_open: NULL argument");
	*out = NULL;
	of = calloc(1, sizeof(*of));
	if (!of || !(of->path = strdup(path))) {
		free(of);
		return fail(-ENOMEM, "out of memory");
	}
	if (!strcmp(path, "-")) {
		of->f = stdout;
		of->is_stdout = true;
		*out = of;
		return 0;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		ofile_free(of);
		return fail(-EISDIR, "cannot write '%s': it is a directory", path);
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		of->f = fopen(path, "we");
		if (!of->f) {
			err = -errno;
			ofile_free(of);
			return fail(err, "cannot write '%s': %s", path,
				    strerrordesc_np(-err));
		}
		*out = of;
		return 0;
	}
	if (asprintf(&of->tmp, "%s.tmp.XXXXXX", path) < 0) {
		of->tmp = NULL;
		ofile_free(of);
		return fail(-ENOMEM, "out of memory");
	}
	fd = open_unnamed(path);
	of->unnamed = fd >= 0;
	if (fd == -EOPNOTSUPP || fd == -EISDIR || fd == -EINVAL) {
		fd = mkostemp(of->tmp, O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
	}
	if (fd < 0) {
		err = fd;
		free(of->tmp);
		of->tmp = NULL;
		ofile_free(of);
		return cannot_create(path, err);
	}
	if (!of->unnamed) {
		/* mkostemp() creates 0600: give it what open() would. */
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	of->f = fdopen(fd, "w");
	if (!of->f) {
		err = -errno;
		close(fd);
		unlink(of->tmp);
		ofile_free(of);
		return fail(err, "cannot write '%s': %s", path, strerrordesc_np(-err));
	}
	*out = of;
	return 0;
}

HWP_API FILE *hwp_ofile_stream(struct hwp_ofile *of)
{
	return of ? of->f : NULL;
}

HWP_API int hwp_ofile_commit(struct hwp_ofile *of)
{
	int err = 0;

	clear_error();
	if (!of)
		return fail(-EINVAL, "hwp_ofile_commit: NULL");
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
	if (!err && of->tmp && rename(of->tmp, of->path))
		err = -errno;
	if (err) {
		if (of->tmp && !of->unnamed)
			unlink(of->tmp);
		fail(err, "writing '%s' failed: %s; %s%s",
			 of->is_stdout ? "standard output" : of->path,
			 strerrordesc_np(-err), write_advice(err),
			 of->tmp ? " (nothing was written under that name)" : "");
	}
	ofile_free(of);
	return err;
}

HWP_API void hwp_ofile_abort(struct hwp_ofile *of)
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
