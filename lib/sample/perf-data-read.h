// SPDX-License-Identifier: MIT
/* The perf.data reader's state, shared by its parts: perf-data-open.c
 * opens a file, perf-data.c reads its header, attributes, features and
 * events' names, and perf-data-records.c reads its records, in time
 * order, from a source of its own: a file's data section through a window
 * filled with pread(), a pipe's stream through a buffer filled with
 * read(). Nothing else includes this header: the stage's interface is
 * sample.h. */
#ifndef HWPROF_SAMPLE_PERF_DATA_READ_H
#define HWPROF_SAMPLE_PERF_DATA_READ_H

#include "sample/sample.h"

#define MAX_EVENTS 4096
/* Records of a pipe held at open, while its events are named. */
#define PENDING_MAX 4096

/* How the event of a record is found (see pd_classify()). */
enum id_mode {
	ID_SINGLE,		/* one event: every record is its */
	ID_IDENTIFIER,		/* first u64 of samples, last of other records */
	ID_POSITION,		/* PERF_SAMPLE_ID, the same layout for every event */
};

/* A record waiting to be handed out: in the source's buffer at @off (h
 * NULL), or a copy of its own (owned: a decompressed record, a pipe's
 * first records, one that was not 8-aligned where it lay). */
struct queued {
	uint64_t time;
	uint64_t off;
	int32_t event;
	bool owned;
	const struct perf_event_header *h;
};

struct pd_file {
	const unsigned char *map;	/* a file's header, attributes, features */
	size_t size;
	char *path;
	struct pd_file_header hdr;
	struct pd_event *events;
	size_t nr_events;
	struct hidx id_idx;	/* id → index into id_keys/id_event */
	uint64_t *id_keys;
	uint32_t *id_event;
	size_t nr_ids, cap_keys, cap_event;
	enum id_mode id_mode;
	bool ordered;		/* every record has a time: sort rounds as perf does */
	bool pipe;		/* perf's pipe format: the header is in records */
	char *features[PD_FEAT_BITS];	/* the string features that were read */
	/* The records' source: [pos, end) read from fd, with pread() at
	 * their offsets (a file), or with read() in turn (stream: a pipe,
	 * end UINT64_MAX). buf holds the bytes from offset buf_base on: the
	 * queued records' (from low, UINT64_MAX when none is queued there)
	 * and what is read ahead. */
	uint64_t pos, end;
	int fd;
	bool stream;
	unsigned char *buf;
	size_t buf_cap, buf_len;
	uint64_t buf_base, low;
	size_t keep_max;	/* what buf keeps for queued records; 0: its own limit */
	/* perf record -z: the decompressed stream, what of it is not read yet */
	struct pd_zstd *zstd;
	unsigned char *dbuf;
	size_t dbuf_len;
	uint64_t dskip;		/* a decompressed record's payload still to skip */
	/* Records that are not 8-aligned where they lie, copied to be read:
	 * perf's own records need not keep the next one aligned. */
	uint64_t *scratch, *dscratch;
	/* a pipe's records read at open, before its first sample */
	struct queued *pending;
	size_t nr_pending, cap_pending;
	struct pd_stats stats;
	/* the modules' build-ids (PD_FEAT_BUILD_ID, HEADER_BUILD_ID) */
	struct file_build_id {
		char *path;
		struct pd_build_id id;
		bool kernel;	/* the kernel's own, not a module's */
	} *bids;
	size_t nr_bids, cap_bids;
	/* the files without one, as hwprof record found them at the end
	 * (PD_FEAT_HWPROF_FILES) */
	struct file_stat_entry {
		char *path;
		struct pd_file_stat st;
	} *fstats;
	size_t nr_fstats, cap_fstats;
	/* pd_foreach's state: the queue, and the merge sort's other half */
	struct queued *q, *q_tmp;
	size_t nr_q, cap_q, cap_q_tmp;
	bool q_unsorted;	/* a record came before the one queued ahead of it */
	uint64_t max_time, flush_limit;
	/* pd_foreach_threads()'s, while the records are read on its thread
	 * (perf-data-threads.c), else NULL. Before the file's events change
	 * (a stream's HEADER_ATTR or EVENT_UPDATE after its start),
	 * pd_foreach() calls drain(pl), which waits until the callback has
	 * had every record handed out before: 1 when it stopped. The
	 * pipeline sits above pd_foreach() and is reached as its callback
	 * is, through a function it is given. */
	struct pd_pipeline *pl;
	int (*drain)(struct pd_pipeline *pl);
};

/* A feature section's bytes, read in turn. */
struct feat_cursor {
	const unsigned char *p, *end;
};

/* perf-data.c */
int pd_bad(const struct pd_file *f, const char *fmt, ...) HWP_PRINTF(2, 3);
/* A file's header (or a pipe's, at f->map), its attributes, its features:
 * 0, or the error with its message. */
int pd_read_header(struct pd_file *f);
int pd_read_attrs(struct pd_file *f);
int pd_read_features(struct pd_file *f);
int pd_add_id(struct pd_file *f, uint64_t id, size_t ev);
int pd_choose_id_mode(struct pd_file *f);
int pd_event_of_id(const struct pd_file *f, uint64_t id);
/* The event a record belongs to (-1: unknown id) and its time (0: none). */
void pd_classify(const struct pd_file *f, const struct perf_event_header *h,
		 int *event, uint64_t *time);
void pd_read_feature(struct pd_file *f, int bit, struct feat_cursor *c);
size_t pd_read_build_id(struct pd_file *f, const unsigned char *p, size_t len);
int pd_check_event_names(struct pd_file *f, size_t from);
void pd_free_queued(struct queued *q, size_t nr);

/* file-id.c */
void pd_read_file_stats(struct pd_file *f, struct feat_cursor *c);

/* perf-data-records.c */
int pd_read_pipe_header(struct pd_file *f);

#endif
