/* SPDX-License-Identifier: MIT */
/* The kernel's mmap ring buffer of an event, shared by the sampling
 * pipeline and by counting (the records of threads that exit, for
 * per-thread counts of a command). */
#ifndef HWPROF_EVENT_RING_H
#define HWPROF_EVENT_RING_H

#include "core/core.h"

struct ring {
	int fd;
	void *base;		/* the control page, then the data pages */
	size_t map_size;
	unsigned char *data;
	uint64_t mask;		/* data size - 1 */
	unsigned char *scratch;	/* a record that wraps around the end, made whole */
};

typedef int (*ring_record_fn)(const struct perf_event_header *h, void *ctx);

/* Map @data_pages (a power of two) of @fd's ring. */
int ring_map(struct ring *r, int fd, size_t data_pages);
void ring_unmap(struct ring *r);
/* Hand every complete record to @fn, then free their space for the kernel. */
int ring_drain(struct ring *r, ring_record_fn fn, void *ctx);

#endif
