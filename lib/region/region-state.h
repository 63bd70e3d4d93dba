// SPDX-License-Identifier: MIT
/* The state of the regions (region-state.c): each thread's record of its
 * regions, written by the hot path (region.c) and read by the reports
 * (region-report.c). */
#ifndef HWPROF_REGION_STATE_H
#define HWPROF_REGION_STATE_H

#include "core/core.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define FRAMES_MAX 64
#define SLOTS_PER_CHUNK 32
/* A region shorter than this many reads is disturbed by more than ~10% by
 * its own two reads. */
#define TOO_SHORT_READS 20

/* One region in one thread. Written by the owner thread only. */
struct slot {
	const char *key;	/* the caller's pointer: most callers pass a literal */
	char *name;
	uint64_t begins;	/* owner-only: which calls are sampled */
	_Atomic uint64_t calls, measured, ns, ops;
	/* the shortest measured call: one call that waited (a busy machine
	 * deschedules the thread) must not hide that the others are short */
	_Atomic uint64_t min_ns;
	_Atomic uint64_t *value, *enabled, *running;	/* nr_events each */
	/* Measured one call in N: what an empty measured call counts, read
	 * at the end of each measured call (see region_estimate()). */
	_Atomic uint64_t empty_ns, *empty;
};

struct chunk {
	struct slot slots[SLOTS_PER_CHUNK];
	struct chunk *next;
};

struct frame {
	struct slot *slot;
	bool measured;
	uint64_t t0;
	uint64_t *start;	/* the raw read at begin */
};

struct thread_rec {
	struct thread_rec *next;	/* the registry, under regions.lock */
	pid_t tid;
	/* closed at the thread's exit, kept for its statuses */
	struct hwp_session *s;
	int error;			/* the open failed: every call returns it */
	/* Where each event is in a raw read (see session_read_raw()):
	 * the hot path subtracts two raw reads, nothing more. */
	struct raw_item *items;
	size_t nr_items;
	uint64_t *now;			/* the raw read at end */
	uint64_t *again;		/* the one after it, with sparse measurement */
	struct frame frames[FRAMES_MAX];
	size_t depth;
	struct chunk first;
	struct chunk *last;
	_Atomic size_t nr_slots;	/* published: readers see this many */
	_Atomic unsigned int seq;	/* odd while the owner adds to the sums */
	/* Its time since its first region, wall and CPU, which no estimate
	 * of its regions may exceed: from here, to its exit or to now. */
	pthread_t thread;
	uint64_t wall0, cpu0, wall_end, cpu_end;
	bool ended;
};

struct regions_state {
	pthread_mutex_t lock;	/* configuration and the registry */
	atomic_bool ready;
	int error;		/* a bad configuration: every call returns it */
	struct hwp_evlist *evl;
	char *output;
	/* the program saved the output itself: no at-exit write */
	atomic_bool saved;
	unsigned int sample_every;
	bool no_rdpmc;
	double read_cost_ns;	/* written and read under the lock */
	pthread_key_t key;
	struct thread_rec *threads;	/* in the order they first entered a region */
	struct thread_rec **tail;
};
extern struct regions_state regions;

static inline uint64_t load(_Atomic uint64_t *p)
{
	return atomic_load_explicit(p, memory_order_relaxed);
}

static inline struct slot *slot_at(struct thread_rec *t, size_t idx)
{
	struct chunk *c = &t->first;

	for (; idx >= SLOTS_PER_CHUNK; idx -= SLOTS_PER_CHUNK)
		c = c->next;
	return &c->slots[idx];
}

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Clock @id's time in ns, or 0 where it cannot be read. */
static inline uint64_t cpu_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- region-state.c ---- */

/* The wall and CPU time of thread @t since its first region, with
 * regions.lock held. */
void region_thread_window(const struct thread_rec *t, double *wall, double *cpu);

/* ---- region-report.c ---- */

/* Save the regions to @path as JSON: 0 or -errno (with the message). */
int region_save_to(const char *path);

#endif
