// SPDX-License-Identifier: MIT
/* A recording's output: the perf.data file begun with what existed before
 * sampling began, the rings drained into it round by round, and finished
 * with the samples lost and the build-ids of the files mapped; a write that
 * fails keeps the file up to the last complete round. */
#include "sample/record.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int open_output(struct hwp_record *r)
{
	int fd;

	if (r->output) {
		int err = ofile_open_recording(r->output, &r->of);

		if (err)
			return err;
		r->f = hwpriv_ofile_stream(r->of);
		return 0;
	}
	r->memfd = memfd_create("hwprof-record", MFD_CLOEXEC);
	if (r->memfd < 0)
		return fail(-errno, "memfd_create: %s%s", errno_text(errno),
				resource_advice(-errno));
	fd = fcntl(r->memfd, F_DUPFD_CLOEXEC, 0);
	r->f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->f) {
		if (fd >= 0)
			close(fd);
		return fail(-errno, "cannot buffer the recording: %s",
			    errno_text(errno));
	}
	return 0;
}

/* Writing the file failed with @err: which file, why, what to do. */
static int write_error(const struct hwp_record *r, int err)
{
	if (r->output)
		return fail(err, "writing '%s' failed: %s; %s", r->output,
				errno_text(-err), write_advice(err));
	return fail(err, "keeping the recording in memory failed: %s; record to a file instead",
			errno_text(-err));
}

/* Remember @err and the message that explains it: the recording has
 * failed, and every later call says so in the same words. */
static int keep_failure(struct hwp_record *r, int err)
{
	error_keep(&r->failure, err);
	return err;
}

/* An MMAP or MMAP2 of an executable file: kept, to name its build. */
static void note_mapping(struct hwp_record *r, const struct perf_event_header *h)
{
	struct mmap_fields f;

	/* out of memory: that file's build-id is not named */
	if (parse_mmap(h, &f) && f.exec && f.name[0] == '/')
		strtab_intern(&r->mapped, f.name, strlen(f.name));
}

/* The build-ids of the files mapped, for the file's header, as perf's;
 * and the kernel's, which tells a report on another kernel (or none) that
 * this machine's kernel symbols are not the recording's. */
static int add_build_ids(struct hwp_record *r)
{
	struct pd_build_id kernel;

	if (!pd_build_id_of_notes(PD_KERNEL_NOTES, &kernel)) {
		int err = pd_writer_add_build_id(r->w, PD_KERNEL_NAME, true, &kernel);

		if (err)
			return err;
	}
	for (size_t i = 0; i < r->mapped.nr; i++) {
		struct pd_build_id id;
		int err;

		/* no build-id: what tells another build, its size and time */
		if (pd_build_id_of(r->mapped.strs[i], &id))
			err = pd_writer_add_file_stat(r->w, r->mapped.strs[i]);
		else
			err = pd_writer_add_build_id(r->w, r->mapped.strs[i], false, &id);
		if (err)
			return err;
	}
	return 0;
}

static int write_record(const struct perf_event_header *h, void *ctx)
{
	struct hwp_record *r = ctx;

	if (h->type == PERF_RECORD_MMAP || h->type == PERF_RECORD_MMAP2)
		note_mapping(r, h);
	errno = 0;
	if (fwrite(h, 1, h->size, r->f) != h->size)
		return write_error(r, errno ? -errno : -EIO);
	r->round_bytes += h->size;
	return 0;
}

static void mark_complete(struct hwp_record *r)
{
	int64_t size = pd_writer_data_size(r->w);

	if (size >= 0) {
		r->good_data = size;
		r->good_samples = r->samples;
	}
}

static bool is_regular(FILE *f)
{
	struct stat st;

	return !fstat(fileno(f), &st) && S_ISREG(st.st_mode);
}

static int begin_file(struct hwp_record *r)
{
	size_t nr = r->evl->nr_events, per = r->t.nr_cpus * r->t.nr_tids;
	struct pd_write_event *wev = calloc(nr, sizeof(*wev));
	uint64_t *ids = calloc(nr * per + 1, sizeof(*ids));
	int err = 0;

	if (!wev || !ids) {
		err = fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t e = 0; e < nr; e++) {
		uint64_t *mine = ids + e * per;
		size_t n = 0;

		for (size_t i = 0; i < r->fds.nr_inst; i++)
			if (fds_get(&r->fds, i, e) >= 0)
				mine[n++] = fds_id(&r->fds, i, e);
		wev[e] = (struct pd_write_event){ &r->attrs[e],
						  evlist_get(r->evl, e)->name, mine, n };
	}
	/* To standard output, perf's pipe format: perf record -o - writes it;
	 * and to whatever cannot be sought back to its start for the header
	 * (a FIFO, a socket, /dev/null), which a reader reads as a stream. */
	r->streamed = r->output && (!strcmp(r->output, "-") || !is_regular(r->f));
	if (r->streamed)
		err = pd_writer_begin_pipe(r->f, wev, nr, r->argv, &r->w);
	else
		err = pd_writer_begin(r->f, wev, nr, &r->w);
out:
	free(wev);
	free(ids);
	return err;
}

/* What existed before sampling began: the kernel, and a running target. */
static int synthesize(struct hwp_record *r)
{
	int err = synth_kernel_mmap(r->id_size, write_record, r);

	if (!err)
		err = synth_kernel_modules(r->id_size, write_record, r);
	if (!err && r->o.all_cgroups)
		err = synth_cgroups(r->id_size, write_record, r);
	if (err || (r->o.enable_on_exec && !r->rotated))
		return err;	/* a command about to exec maps everything anew */
	if (r->o.scope == HWP_SCOPE_CPUS)
		return synth_all_processes(r->id_size, write_record, r);
	return synth_process(r->o.pid ? r->o.pid : getpid(), r->id_size, write_record, r);
}

int record_begin_output(struct hwp_record *r)
{
	int err = open_output(r);

	if (!err) {
		r->id_size = pd_sample_id_size(&r->attrs[0]);
		err = begin_file(r);
	}
	if (!err)
		err = synthesize(r);
	if (!err && fflush(r->f))
		err = write_error(r, -errno);
	if (!err)
		mark_complete(r);	/* what a failed write later keeps */
	return err;
}

static int count_and_write(const struct perf_event_header *h, void *ctx)
{
	struct hwp_record *r = ctx;
	uint64_t lost;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->samples++;
		break;
	case PERF_RECORD_LOST:
		/* u64 id, u64 lost */
		if (h->size >= sizeof(*h) + 16) {
			memcpy(&lost, (const char *)(h + 1) + 8, 8);
			r->lost += lost;
		}
		break;
	case PERF_RECORD_THROTTLE:
		r->throttled++;
		break;
	}
	return write_record(h, ctx);
}

/* A ring's owner whose task exited polls as hung up, for ever: take it
 * out of the set, or a poll on hwp_record_fd() would spin. The CPU's other
 * events may still write there; the periodic reads collect it. */
static void drop_hangups(struct hwp_record *r)
{
	struct epoll_event ev[64];
	int n = epoll_wait(r->epfd, ev, ARRAY_SIZE(ev), 0);

	for (int i = 0; i < n; i++)
		if ((ev[i].events & (EPOLLHUP | EPOLLERR)) &&
		    ev[i].data.u64 < r->t.nr_cpus)
			epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->rings[ev[i].data.u64].fd,
				  NULL);
}

HWP_API int hwp_record_read(struct hwp_record *r)
{
	static const struct perf_event_header round = { .type = PD_RECORD_FINISHED_ROUND,
							.size = sizeof(round) };
	int err = 0;

	clear_error();
	if (!r || !r->open)
		return fail(-EBADF, "hwp_record_read: the recording is not open");
	if (r->failure.err)
		return error_restore(&r->failure);
	drop_hangups(r);
	r->round_bytes = 0;
	for (size_t c = 0; c < r->t.nr_cpus && !err; c++)
		err = ring_drain(&r->rings[c], count_and_write, r);
	/* A round's end tells readers that later records are not older; once
	 * it is on disk, it is where a file whose writing fails later ends. */
	if (!err && r->round_bytes)
		err = write_record(&round, r);
	if (!err && r->round_bytes) {
		if (fflush(r->f))
			err = write_error(r, -errno);
		else
			mark_complete(r);
	}
	return err ? keep_failure(r, err) : 0;
}

/* A PERF_RECORD_LOST_SAMPLES of event @e: u64 lost, and a sample_id
 * trailer whose last u64, the IDENTIFIER, names the event. */
static int write_lost_samples(struct hwp_record *r, size_t e, uint64_t lost)
{
	uint64_t rec[16] = { 0 };
	struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES,
				       .size = (uint16_t)(sizeof(h) + 8 + r->id_size) };

	memcpy(rec, &h, sizeof(h));
	rec[1] = lost;
	for (size_t i = 0; i < r->fds.nr_inst; i++)
		if (fds_get(&r->fds, i, e) >= 0)
			rec[1 + r->id_size / 8] = fds_id(&r->fds, i, e);
	return write_record((const struct perf_event_header *)rec, r);
}

/* The samples each event lost, as the kernel counted them. */
static int read_lost(struct hwp_record *r)
{
	int err = 0;

	for (size_t e = 0; e < r->evl->nr_events && !err; e++) {
		uint64_t lost = 0;

		if (!(r->attrs[e].read_format & PERF_FORMAT_LOST))
			continue;	/* a kernel before 6.0 */

		for (size_t i = 0; i < r->fds.nr_inst; i++) {
			uint64_t v[2];

			if (fds_read(&r->fds, i, e, v, sizeof(v)) == (ssize_t)sizeof(v))
				lost += v[1];
		}
		if (r->lost_before) {
			uint64_t before = r->lost_before[e];

			r->lost_before[e] = lost;
			lost -= before;
		}
		r->lost_read += lost;
		if (lost)
			err = write_lost_samples(r, e, lost);
	}
	return err;
}

/* The file ends at @end; the recording's output, committed or not. */
static int commit_output(struct hwp_record *r, int err)
{
	if (r->of) {
		if (err) {
			hwpriv_ofile_abort(r->of);
		} else {
			err = hwpriv_ofile_commit(r->of);
		}
		r->of = NULL;
		r->f = NULL;
	} else if (r->f) {
		if (fclose(r->f) && !err)
			err = write_error(r, -errno);
		r->f = NULL;
	}
	return err;
}

/* Writing the file failed: end it at the last complete round, so that it
 * reads, with what was on disk then; hwp_record_info().stopped says why.
 * @err: adding the build-ids failed (or 0: they are added). */
static int keep_what_was_written(struct hwp_record *r, int err)
{
	r->stopped = strdup(r->failure.msg);
	if (!r->stopped) {
		pd_writer_abort(r->w);
		r->w = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	if (!err)
		err = pd_writer_finish_at(r->w, r->good_data, r->argv);
	else
		pd_writer_abort(r->w);
	r->w = NULL;
	err = commit_output(r, err);
	if (err) {
		/* Not even that (a device, not a file): the first failure is
		 * what the user needs to hear of. */
		free(r->stopped);
		r->stopped = NULL;
		return error_restore(&r->failure);
	}
	r->samples = r->good_samples;
	r->failure.err = 0;	/* the file is whole: it can be read */
	r->finished = true;
	return 0;
}

int record_end_data(struct hwp_record *r)
{
	int err = read_lost(r);

	if (!err && fflush(r->f))
		err = write_error(r, -errno);
	if (err)
		return keep_failure(r, err);
	mark_complete(r);
	return 0;
}

int record_end_output(struct hwp_record *r, int err)
{
	if (err && r->failure.err && r->w)
		return keep_what_was_written(r, add_build_ids(r));
	if (!err) {
		err = add_build_ids(r) ?: pd_writer_finish(r->w, r->argv);
		/* The features did not fit (a file size limit, a full disk right
		 * past the data): the file ends after the data, every sample kept.
		 * The writer does not know the file's name: say it. */
		if (err && err != -ENOMEM) {
			keep_failure(r, write_error(r, err));
			return keep_what_was_written(r, 0);
		}
		if (err)
			pd_writer_abort(r->w);
		r->w = NULL;
	}
	err = commit_output(r, err);
	/* A file that could not be completed is never read, nor an older
	 * one under its name. */
	r->finished = !err;
	return err ? keep_failure(r, err) : 0;
}

/* The file ends here and @path (taken) begins: the rings are drained
 * into the old file first and keep what comes after for the new one, so
 * that no sample falls between the two. Each file is whole on its own:
 * its own attributes, the processes that exist, its lost samples and
 * build-ids. */
int record_rotate_output(struct hwp_record *r, char *path)
{
	int err;

	if (!r->lost_before &&
	    !(r->lost_before = calloc(r->evl->nr_events, sizeof(*r->lost_before)))) {
		free(path);
		return fail(-ENOMEM, "out of memory");
	}
	err = record_end_data(r);
	if (!err)
		err = record_end_output(r, 0);
	if (err) {
		free(path);
		return err;
	}
	free(r->output);
	r->output = path;
	r->o.output = path;
	r->done_samples += r->samples;
	r->done_lost += r->lost > r->lost_read ? r->lost : r->lost_read;
	r->done_throttled += r->throttled;
	r->samples = r->lost = r->throttled = r->lost_read = 0;
	r->good_data = 0;
	r->good_samples = 0;
	strtab_release(&r->mapped);
	r->finished = false;
	r->rotated = true;
	err = record_begin_output(r);
	return err ? keep_failure(r, err) : 0;
}
