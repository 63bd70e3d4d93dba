// SPDX-License-Identifier: MIT
/* pd_foreach() on two threads: one of the library's reads the records,
 * checks them and puts them in time order (perf-data-records.c), while
 * the caller's hands the ones before to its callback, in the same order.
 * The records go from one to the other copied into batches, through a
 * ring of a few: memory stays bounded whatever the file's size, and
 * either side waits for the other only when the ring is full or empty.
 * The callback sees what pd_foreach() would give it, record for record,
 * and the same error at the same place: a compressed file's records
 * too, and the events a saved pipe's file describes after its start,
 * which are added only once the callback has every record before them.
 * A stream itself (a pipe) is read on the caller's thread alone. */
#include "sample/perf-data-read.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* Batches in the ring, and the bytes of records each holds at most (a
 * record is at most 64 KB: one always fits in an empty batch). */
#define NR_BATCHES 4
#define BATCH_BYTES (256u << 10)

struct batch_rec {
	uint64_t time, offset;
	uint32_t at;		/* where in the batch's bytes */
	int32_t event;
};

struct batch {
	unsigned char *bytes;
	size_t len;
	struct batch_rec *recs;
	size_t nr, cap;
};

struct pd_pipeline {
	struct pd_file *f;
	pthread_mutex_t lock;
	pthread_cond_t filled, emptied;
	struct batch b[NR_BATCHES];
	/* Batches handed over by the reader, and done with by the caller:
	 * the reader fills b[produced % NR_BATCHES], the caller reads
	 * b[consumed % NR_BATCHES] while consumed < produced. */
	uint64_t produced, consumed;
	bool done;		/* the reader handed over its last batch */
	/* The callback stopped: read no more. Written under the lock, and
	 * read without it by to_batch() (atomically), so that the reader
	 * stops at its next record, not at its next full batch. */
	bool stop;
	int err;		/* the reader's, with its message kept */
	struct kept_error kept;
};

/* Hand the batch filled over, and wait for the next to be free. Reader's
 * side; 1 when the caller stopped. */
static int hand_over(struct pd_pipeline *pl)
{
	bool stop;

	pthread_mutex_lock(&pl->lock);
	pl->produced++;
	pthread_cond_signal(&pl->filled);
	while (pl->produced - pl->consumed >= NR_BATCHES && !pl->stop)
		pthread_cond_wait(&pl->emptied, &pl->lock);
	stop = pl->stop;
	pthread_mutex_unlock(&pl->lock);
	return stop;
}

/* The reader's pd_record_fn: the record, copied to the batch being filled. */
static int to_batch(const struct pd_record *rec, void *ctx)
{
	struct pd_pipeline *pl = ctx;
	struct batch *b = &pl->b[pl->produced % NR_BATCHES];
	size_t size = rec->h->size, room = (size + 7) & ~(size_t)7;

	if (__atomic_load_n(&pl->stop, __ATOMIC_RELAXED))
		return 1;
	if (b->len + room > BATCH_BYTES) {
		int stop = hand_over(pl);

		if (stop)
			return stop;
		b = &pl->b[pl->produced % NR_BATCHES];
	}
	if (vec_reserve(&b->recs, &b->cap, b->nr + 1, sizeof(*b->recs)))
		return fail(-ENOMEM, "out of memory");
	memcpy(b->bytes + b->len, rec->h, size);
	b->recs[b->nr++] = (struct batch_rec){
		.time = rec->time, .offset = rec->offset, .at = (uint32_t)b->len,
		.event = rec->event,
	};
	b->len += room;
	return 0;
}

/* pd_file's drain: wait until the caller's side has had every batch
 * handed over; 1 when it stopped. Reader's side. */
static int drain(struct pd_pipeline *pl)
{
	bool stop;

	if (pl->b[pl->produced % NR_BATCHES].nr && hand_over(pl))
		return 1;
	pthread_mutex_lock(&pl->lock);
	while (pl->consumed != pl->produced && !pl->stop)
		pthread_cond_wait(&pl->emptied, &pl->lock);
	stop = pl->stop;
	pthread_mutex_unlock(&pl->lock);
	return stop;
}

static void *reader(void *arg)
{
	struct pd_pipeline *pl = arg;
	int err = pd_foreach(pl->f, to_batch, pl);

	if (err < 0)
		error_keep(&pl->kept, err);
	pthread_mutex_lock(&pl->lock);
	pl->err = err;
	pl->produced++;		/* the last batch, empty or not */
	pl->done = true;
	pthread_cond_signal(&pl->filled);
	pthread_mutex_unlock(&pl->lock);
	return NULL;
}

/* The next batch handed over, or NULL when the reader is done. */
static struct batch *next_batch(struct pd_pipeline *pl)
{
	bool more;

	pthread_mutex_lock(&pl->lock);
	while (pl->consumed == pl->produced && !pl->done)
		pthread_cond_wait(&pl->filled, &pl->lock);
	more = pl->consumed < pl->produced;
	pthread_mutex_unlock(&pl->lock);
	return more ? &pl->b[pl->consumed % NR_BATCHES] : NULL;
}

static int consume(struct pd_pipeline *pl, pd_record_fn fn, void *ctx)
{
	struct batch *b;
	int err = 0;

	while (!err && (b = next_batch(pl))) {
		for (size_t i = 0; i < b->nr && !err; i++) {
			const struct batch_rec *r = &b->recs[i];
			struct pd_record rec = {
				.h = (const struct perf_event_header *)(b->bytes + r->at),
				.event = r->event,
				.time = r->time,
				.offset = r->offset,
			};

			err = fn(&rec, ctx);
		}
		b->len = b->nr = 0;
		pthread_mutex_lock(&pl->lock);
		pl->consumed++;
		__atomic_store_n(&pl->stop, err != 0, __ATOMIC_RELAXED);
		pthread_cond_signal(&pl->emptied);
		pthread_mutex_unlock(&pl->lock);
	}
	return err;
}

static void pipeline_free(struct pd_pipeline *pl)
{
	for (size_t i = 0; i < NR_BATCHES; i++) {
		free(pl->b[i].bytes);
		free(pl->b[i].recs);
	}
	pthread_cond_destroy(&pl->emptied);
	pthread_cond_destroy(&pl->filled);
	pthread_mutex_destroy(&pl->lock);
	free(pl);
}

static struct pd_pipeline *pipeline_new(struct pd_file *f)
{
	struct pd_pipeline *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return NULL;
	pl->f = f;
	pthread_mutex_init(&pl->lock, NULL);
	pthread_cond_init(&pl->filled, NULL);
	pthread_cond_init(&pl->emptied, NULL);
	for (size_t i = 0; i < NR_BATCHES; i++)
		if (!(pl->b[i].bytes = malloc(BATCH_BYTES))) {
			pipeline_free(pl);
			return NULL;
		}
	return pl;
}

/* The reader, started with every signal blocked: the caller's thread
 * takes them, as it would without this one. */
static int start_reader(struct pd_pipeline *pl, pthread_t *tid)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(tid, NULL, reader, pl);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

/* The records a file needs before the second thread is worth its start
 * and the first touch of its batches (a MB: 256 page faults, 15-40 us
 * each in a VM). On two idle CPUs it saves some 0.16 ms a MB (1.47 GB:
 * 0.95 s against 1.18 s) and was 8-16% faster on files of 36 and 100 MB
 * too; but the load average lags a CPU taken a moment ago, and then a
 * small file loses more than it could win (BENCHMARKS.md). */
#define PIPELINE_MIN_BYTES (64ull << 20)

/* Two where a CPU is there for the second, the file is large enough and
 * its samples carry no stack copies: the process may run on two CPUs or
 * more, and the load average leaves one idle. On busy CPUs the second
 * thread only adds its hand-overs and the copy of every record (on two
 * CPUs at a load of 3-45, 15-45% more CPU time than one thread, and as
 * much more wall time); and where the samples copy the stack (DWARF
 * chains) the unwinding is most of the report, and copying their KBs
 * into the batches costs more than reading beside it saves (344 MB on two
 * idle CPUs: 168 ms by two threads, 149 by one). BENCHMARKS.md, "A
 * report at scale". */
static unsigned int choose_threads(const struct pd_file *f)
{
	cpu_set_t set;
	unsigned int cpus;
	double load;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	cpus = (unsigned int)CPU_COUNT(&set);
	if (cpus < 2)
		return 1;
	for (size_t i = 0; i < f->nr_events; i++)
		if (regs_unwound(&f->events[i].attr)) {
			pr_debug("'%s': its records are read on one thread: copies of the stack in its samples (--call-graph dwarf)",
				 f->path);
			return 1;
		}
	if (f->end - f->pos < PIPELINE_MIN_BYTES) {
		pr_debug("'%s': its records are read on one thread: %llu bytes of them are too few to repay a second",
			 f->path, (unsigned long long)(f->end - f->pos));
		return 1;
	}
	if (getloadavg(&load, 1) == 1 && load > cpus - 1) {
		pr_debug("'%s': its records are read on one thread: the load average, %.1f, leaves none of the %u CPUs idle",
			 f->path, load, cpus);
		return 1;
	}
	return 2;
}

int pd_foreach_threads(struct pd_file *f, unsigned int threads, pd_record_fn fn,
		       void *ctx)
{
	struct pd_pipeline *pl;
	pthread_t tid;
	int err;

	if (!threads)
		threads = choose_threads(f);
	if (threads >= 2 && f->stream) {
		/* A reader blocked in read() on a quiet pipe could not be
		 * stopped when the callback fails: the join would wait for the
		 * writer. A stream's pace is its writer's anyway. */
		pr_debug("'%s': its records are read on one thread: a stream", f->path);
		threads = 1;
	}
	if (threads < 2)
		return pd_foreach(f, fn, ctx);
	pl = pipeline_new(f);
	if (!pl) {
		pr_debug("'%s': its records are read on one thread: no memory for a second's batches",
			 f->path);
		return pd_foreach(f, fn, ctx);
	}
	f->pl = pl;
	f->drain = drain;
	err = start_reader(pl, &tid);
	if (err) {
		pr_debug("'%s': its records are read on one thread: no second thread (%s)",
			 f->path, errno_text(err));
		f->pl = NULL;
		f->drain = NULL;
		pipeline_free(pl);
		return pd_foreach(f, fn, ctx);
	}
	err = consume(pl, fn, ctx);
	pthread_join(tid, NULL);
	f->pl = NULL;
	f->drain = NULL;
	/* pd_foreach() ends at a callback's positive value without an error;
	 * whatever the reader met after the record the callback stopped at,
	 * one thread would not have read */
	if (err > 0)
		err = 0;
	else if (!err && pl->err < 0)
		err = error_restore(&pl->kept);
	pipeline_free(pl);
	return err;
}
