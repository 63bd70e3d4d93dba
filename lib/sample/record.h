/* SPDX-License-Identifier: MIT */
/* The inside of a recording, shared by record.c (the events opened on their
 * targets, their rings) and record-file.c (the perf.data file they are
 * drained into). */
#ifndef HWPROF_SAMPLE_RECORD_H
#define HWPROF_SAMPLE_RECORD_H

#include "event/fds.h"
#include "sample/sample.h"

#include <stdio.h>

#define DEFAULT_FREQ 4000
#define DEFAULT_PAGES 128	/* 512 KiB a CPU, as perf */
#define FALLBACK_EVENT "cpu-clock"
#define OFFCPU_EVENT "context-switches"

struct hwp_record {
	struct hwp_record_opts o;	/* its strings point into the copies below */
	char *cpulist, *output;
	char **argv;
	struct hwp_evlist *evl;	/* a copy of the caller's, or the default's */
	bool default_event;	/* no list given: cycles, or FALLBACK_EVENT */
	struct perf_event_attr *attrs;	/* per event, as opened */
	struct targets t;	/* every online CPU (one ring each), or those of -C */
	struct fds fds;		/* [cpu][tid][event], each event alone */
	struct ring *rings;	/* one a CPU */
	int epfd;
	struct hwpriv_ofile *of;	/* the file on disk, or */
	bool streamed;		/* in perf's pipe format: it cannot be read back */
	int memfd;		/* the file in memory */
	FILE *f;
	struct pd_writer *w;
	size_t id_size;		/* the sample_id trailer of non-sample records */
	/* Why the default event was replaced, and why events sample user
	 * space only: the sentences of the fallbacks taken, "; " between. */
	struct strbuf fallbacks;
	uint64_t freq;
	uint64_t samples, lost, throttled, round_bytes;
	/* What was on disk at the last round's end: where a file whose
	 * writing failed ends, and the samples it holds. */
	int64_t good_data;
	uint64_t good_samples;
	char *stopped;		/* why sampling stopped early, or NULL */
	/* the files the records map executable: their build-ids go in the file */
	struct strtab mapped;
	/* what the events' read_format LOST counters said at the end */
	uint64_t lost_read;
	/* hwp_record_rotate(): each event's LOST counter at the last file's
	 * end, which the next file's count starts from; NULL before */
	uint64_t *lost_before;
	/* hwp_record_rotate(): what the finished files held, all together */
	uint64_t done_samples, done_lost, done_throttled;
	bool rotated;		/* the target runs: a new file synthesizes it */
	/* The recording failed for good (failure.err != 0): every later call
	 * returns this error with this message. */
	struct kept_error failure;
	/* off_cpu: the context-switches event added last, sampled at each
	 * switch; the first event records the switches */
	size_t offcpu_ev;
	bool open, finished;
	bool tried;		/* hwp_record_open() was called: it is not called twice */
};

/* record.c: unmap the rings, close the events and the epoll set. */
void record_close_fds(struct hwp_record *r);

/* record-file.c: open the output (r->output, or a file in memory), write
 * the header and what existed before sampling began: 0, or the error with
 * its message. */
int record_begin_output(struct hwp_record *r);
/* record-file.c: the last records (the lost samples' counts), on disk,
 * after the last read of the rings and before the events close: 0, or the
 * error, which a failure to write keeps. */
int record_end_data(struct hwp_record *r);
/* record-file.c: the events closed, the file finished with the build-ids of
 * the files mapped, or, where writing failed (@err, of the last read or of
 * record_end_data()), ended at the last complete round; committed. */
int record_end_output(struct hwp_record *r, int err);
int record_rotate_output(struct hwp_record *r, char *path);

#endif
