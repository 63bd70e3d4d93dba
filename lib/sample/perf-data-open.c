// SPDX-License-Identifier: MIT
/* Opening perf.data: a file mapped, or a pipe's stream, whose header is in
 * its first records (perf-data-records.c); then the attributes, features
 * and events' names (perf-data.c). */
#include "sample/perf-data-read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int read_fd(int fd, void *p, size_t n, size_t *got)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = read(fd, (char *)p + *got, n - *got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		*got += (size_t)r;
	}
	return 0;
}

/* A pipe (perf record -o - | hwprof report -i -): only its header is read
 * here, the rest as a stream. */
static int open_stream(struct pd_file *f, int fd)
{
	struct pd_pipe_header start;
	size_t got;
	int err;

	f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (f->fd < 0)
		return fail(-errno, "cannot read '%s': %s", f->path,
			    errno_text(errno));
	err = read_fd(f->fd, &start, sizeof(start), &got);
	if (err)
		return fail(err, "cannot read '%s': %s", f->path, errno_text(-err));
	if (!got)
		return pd_bad(f, "the stream is empty");
	if (got < sizeof(start))
		return pd_bad(f, "the stream ends after %zu bytes, before its header",
			      got);
	if (!memcmp(&start.magic, PD_MAGIC_V1, sizeof(start.magic)) ||
	    start.magic == PD_MAGIC_SWAPPED || start.magic != PD_MAGIC) {
		/* The same words as for a file. */
		f->map = (const unsigned char *)&start;
		f->size = sizeof(start);
		err = pd_read_header(f);
		f->map = NULL;
		f->size = 0;
		return err;
	}
	if (start.size != PD_PIPE_HEADER_SIZE)
		return pd_bad(f, "it is a perf.data file in file format, which cannot be read from a pipe: give its name (report -i FILE) or redirect it (< FILE)");
	f->pipe = true;
	f->stream = true;
	f->pos = f->buf_base = sizeof(start);
	f->end = UINT64_MAX;
	return 0;
}

static int map_file(struct pd_file *f, const char *path, int fd)
{
	struct stat st;
	int own = -1, err = 0;

	if (fd < 0 && path && !strcmp(path, "-"))
		fd = STDIN_FILENO;
	if (fd < 0) {
		own = fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fail(-errno, "cannot open '%s': %s", path,
				    errno_text(errno));
	}
	if (fstat(fd, &st)) {
		err = fail(-errno, "cannot read '%s': %s", f->path,
			   errno_text(errno));
	} else if (S_ISDIR(st.st_mode)) {
		err = fail(-HWP_ERR_FORMAT,
			   "'%s' is a directory: name the perf.data file in it", f->path);
	} else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode)) {
		err = open_stream(f, fd);
	} else if (!S_ISREG(st.st_mode)) {
		err = fail(-HWP_ERR_FORMAT, "'%s' is not a regular file", f->path);
	} else if (st.st_size > 0) {
		f->size = (size_t)st.st_size;
		f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (f->map == MAP_FAILED) {
			f->map = NULL;
			err = fail(-errno, "cannot map '%s': %s", f->path,
				   errno_text(errno));
		}
		/* The records are read with pread() (perf-data-records.c). */
		if (!err && (f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
			err = fail(-errno, "cannot read '%s': %s", f->path,
				   errno_text(errno));
		if (!err)
			posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	if (own >= 0)
		close(own);
	return err;
}

int pd_open(const char *path, int fd, struct pd_file **out)
{
	struct pd_file *f;
	int err;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(!path ? "(in memory)" :
				     !strcmp(path, "-") && fd < 0 ? "(standard input)" :
				     path))) {
		free(f);
		return fail(-ENOMEM, "out of memory");
	}
	f->fd = -1;
	f->low = UINT64_MAX;
	err = map_file(f, path, fd);
	if (!err && !f->stream)
		err = pd_read_header(f);
	if (!err && f->pipe) {
		err = pd_read_pipe_header(f);
		if (!err && !f->nr_events)
			err = pd_bad(f, "its stream describes no event (no PERF_RECORD_HEADER_ATTR before its first sample)");
	} else if (!err) {
		err = pd_read_attrs(f);
	}
	if (!err)
		err = pd_choose_id_mode(f);
	if (!err && !f->pipe)
		err = pd_read_features(f);
	if (!err)
		err = pd_check_event_names(f, 0);
	if (err) {
		pd_close(f);
		return err;
	}
	*out = f;
	return 0;
}
