// SPDX-License-Identifier: MIT
/* The ring buffer reader on a ring laid out by hand as the kernel lays it
 * out: records that wrap around the end (the header itself, or only the
 * body) come out whole, the tail follows, and a corrupt size stops it. */
#include "sample/sample.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/mman.h>

#define DATA_SIZE 4096

struct fake {
	struct ring r;
	unsigned char *mem;
	uint64_t head;		/* where the "kernel" writes next */
};

static void fake_init(struct fake *f, uint64_t start)
{
	long page = sysconf(_SC_PAGESIZE);

	memset(f, 0, sizeof(*f));
	f->mem = aligned_alloc((size_t)page, (size_t)page + DATA_SIZE);
	memset(f->mem, 0, (size_t)page + DATA_SIZE);
	f->r.base = f->mem;
	f->r.data = f->mem + page;
	f->r.mask = DATA_SIZE - 1;
	f->r.scratch = malloc(65536);
	f->r.fd = -1;
	f->head = start;
	((struct perf_event_mmap_page *)f->mem)->data_tail = start;
}

static void fake_free(struct fake *f)
{
	free(f->mem);
	free(f->r.scratch);
}

/* Write a record of @size bytes whose body bytes are @fill, wrapping. */
static void fake_write(struct fake *f, uint32_t type, uint16_t size, unsigned char fill)
{
	unsigned char rec[512];
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	memcpy(rec, &h, sizeof(h));
	memset(rec + sizeof(h), fill, size - sizeof(h));
	for (uint16_t i = 0; i < size; i++)
		f->r.data[(f->head + i) & f->r.mask] = rec[i];
	f->head += size;
	((struct perf_event_mmap_page *)f->mem)->data_head = f->head;
}

struct seen {
	int n;
	uint32_t types[64];
	uint16_t sizes[64];
	bool body_ok[64];
	int stop_after;		/* return 1 after this many records; 0: never */
};

static int collect(const struct perf_event_header *h, void *ctx)
{
	struct seen *s = ctx;
	const unsigned char *body = (const unsigned char *)(h + 1);
	bool ok = true;

	for (size_t i = 0; i + sizeof(*h) < h->size; i++)
		ok &= body[i] == (unsigned char)h->type;
	s->types[s->n] = h->type;
	s->sizes[s->n] = h->size;
	s->body_ok[s->n] = ok;
	s->n++;
	return s->stop_after && s->n == s->stop_after ? 1 : 0;
}

static uint64_t tail_of(struct fake *f)
{
	return ((struct perf_event_mmap_page *)f->mem)->data_tail;
}

/* Records that straddle the end of the data: body and header. */
static void check_wrap(void)
{
	struct fake f;
	struct seen s = { 0 };

	/* 24 bytes before the end: a 40-byte record wraps in its body. */
	fake_init(&f, DATA_SIZE - 24);
	fake_write(&f, 9, 40, 9);
	fake_write(&f, 10, 16, 10);
	CHECK_ERR(ring_drain(&f.r, collect, &s), 0);
	CHECK(s.n == 2 && s.types[0] == 9 && s.sizes[0] == 40 && s.body_ok[0],
	      "wrapped body");
	CHECK(s.types[1] == 10 && s.body_ok[1], "the next record");
	CHECK(tail_of(&f) == f.head, "tail %llu, head %llu",
	      (unsigned long long)tail_of(&f), (unsigned long long)f.head);
	fake_free(&f);

	/* 4 bytes before the end: the header itself wraps. */
	memset(&s, 0, sizeof(s));
	fake_init(&f, 3 * (uint64_t)DATA_SIZE - 4);
	fake_write(&f, 11, 32, 11);
	CHECK_ERR(ring_drain(&f.r, collect, &s), 0);
	CHECK(s.n == 1 && s.types[0] == 11 && s.sizes[0] == 32 && s.body_ok[0],
	      "wrapped header");
	CHECK(tail_of(&f) == f.head, "tail follows");
	fake_free(&f);
}

/* Many laps around the ring, drained every few records. */
static void check_laps(void)
{
	struct fake f;
	int total = 0, ok = 0;

	fake_init(&f, 0);
	for (int lap = 0; lap < 200; lap++) {
		struct seen s = { 0 };
		int n = 1 + lap % 7;

		for (int i = 0; i < n; i++)
			fake_write(&f, (uint32_t)(1 + (lap + i) % 20),
				   (uint16_t)(8 * (2 + (lap * 7 + i) % 40)),
				   (unsigned char)(1 + (lap + i) % 20));
		ring_drain(&f.r, collect, &s);
		total += n;
		for (int i = 0; i < s.n; i++)
			ok += s.body_ok[i] &&
			      s.types[i] == (uint32_t)(1 + (lap + i) % 20);
	}
	CHECK(ok == total, "%d of %d records whole over 200 drains", ok, total);
	CHECK(f.head > 10 * DATA_SIZE, "the test went around the ring many times");
	fake_free(&f);
}

/* A callback that stops: the tail stays after the last record it saw. */
static void check_stop_and_corrupt(void)
{
	struct fake f;
	struct seen s = { .stop_after = 1 };

	fake_init(&f, 100 * 8);
	fake_write(&f, 3, 24, 3);
	fake_write(&f, 4, 24, 4);
	CHECK_ERR(ring_drain(&f.r, collect, &s), 1);
	CHECK(tail_of(&f) == 100 * 8 + 24, "tail after the first record: %llu",
	      (unsigned long long)tail_of(&f));
	s.stop_after = 0;
	CHECK_ERR(ring_drain(&f.r, collect, &s), 0);
	CHECK(s.n == 2 && s.types[1] == 4, "the second record on the next drain");
	/* A size of 0 would loop for ever; one past the head is not there yet. */
	fake_write(&f, 5, 8, 5);
	f.r.data[(f.head - 8 + 6) & f.r.mask] = 0;
	f.r.data[(f.head - 8 + 7) & f.r.mask] = 0;
	CHECK_ERR(ring_drain(&f.r, collect, &s), -EIO);
	CHECK(tail_of(&f) == f.head, "a corrupt ring is dropped, not reread");
	fake_free(&f);
}

int main(void)
{
	t_init();
	t_run(check_wrap);
	t_run(check_laps);
	t_run(check_stop_and_corrupt);
	return t_done();
}
