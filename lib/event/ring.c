// SPDX-License-Identifier: MIT
/* The kernel's mmap ring buffer of an event: one control page, then
 * 2^n data pages that the kernel fills from data_head while we consume from
 * data_tail. A record may wrap around the end of the data pages; it is then
 * copied whole into a scratch buffer (a record is at most 64 KiB). */
#include "event/ring.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RECORD_MAX 65536	/* header.size is 16 bits */

int ring_map(struct ring *r, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1)))
		return fail(-EINVAL,
			    "the ring buffer must be a power of two pages, not %zu",
			    data_pages);
	r->map_size = (data_pages + 1) * page;
	r->base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		int err = -errno;

		r->base = NULL;
		if (err == -EPERM || err == -ENOMEM)
			return fail(err, "cannot map a ring buffer of %zu KiB: %s (the limit is kernel.perf_event_mlock_kb, or RLIMIT_MEMLOCK; use fewer pages with -m, or raise the limit)",
					data_pages * page / 1024, errno_text(-err));
		return fail(err, "cannot map the ring buffer: %s", errno_text(-err));
	}
	r->scratch = malloc(RECORD_MAX);
	if (!r->scratch) {
		ring_unmap(r);
		return fail(-ENOMEM, "out of memory");
	}
	r->fd = fd;
	r->data = (unsigned char *)r->base + page;
	r->mask = data_pages * page - 1;
	return 0;
}

void ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	free(r->scratch);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

int ring_drain(struct ring *r, ring_record_fn fn, void *ctx)
{
	struct perf_event_mmap_page *pc = r->base;
	uint64_t head, tail;
	int err = 0;

	if (!pc)
		return 0;
	/* Acquire: the records before data_head are complete once we see it. */
	head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	tail = pc->data_tail;
	while (tail < head) {
		uint64_t off = tail & r->mask, left = head - tail;
		const struct perf_event_header *h;
		struct perf_event_header hdr;
		size_t first;

		if (left < sizeof(hdr))
			break;
		/* The header itself may wrap. */
		first = r->mask + 1 - off;
		if (first >= sizeof(hdr)) {
			memcpy(&hdr, r->data + off, sizeof(hdr));
		} else {
			memcpy(&hdr, r->data + off, first);
			memcpy((char *)&hdr + first, r->data, sizeof(hdr) - first);
		}
		/* The kernel writes whole records of a multiple of 8 bytes: any
		 * other size would misalign every record after it. */
		if (hdr.size < sizeof(hdr) || hdr.size > left || hdr.size % 8) {
			err = fail(-EIO, "the kernel's ring buffer holds a record of %u bytes with %llu bytes left: it is corrupt",
				       hdr.size, (unsigned long long)left);
			tail = head;	/* drop what cannot be read */
			break;
		}
		if (hdr.size <= first) {
			h = (const struct perf_event_header *)(r->data + off);
		} else {
			memcpy(r->scratch, r->data + off, first);
			memcpy(r->scratch + first, r->data, hdr.size - first);
			h = (const struct perf_event_header *)r->scratch;
		}
		err = fn(h, ctx);
		tail += hdr.size;
		if (err)
			break;
	}
	/* Release: we are done reading before the kernel may overwrite. */
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}
