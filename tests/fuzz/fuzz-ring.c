// SPDX-License-Identifier: MIT
/* The ring buffer reader, on rings filled with arbitrary bytes: records
 * whose header or body wraps around the end of the data area, sizes that
 * lie, and the decoding of every record as a sample or a sample_id trailer.
 * The first two bytes of the input choose where in the ring it starts (a
 * multiple of 8, as every record of the kernel's is). */
#include "core/core.h"
#include "sample/sample.h"
#include "fuzz.h"

#define DATA_SIZE 8192	/* a power of two, as the kernel's */

static const struct perf_event_attr attr = {
	.size = sizeof(attr),
	.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		       PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
		       PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
	.sample_id_all = 1,
};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	hwp_log_set_level(HWP_LOG_ERROR);
	return 0;
}

static int on_record(const struct perf_event_header *h, void *ctx)
{
	size_t *n = ctx;

	FUZZ_ASSERT(h->size >= sizeof(*h));
	(*n)++;
	if (h->type == PERF_RECORD_SAMPLE) {
		struct pd_sample s;

		if (!pd_decode_sample(&attr, h, &s) && s.nr_ips)
			FUZZ_ASSERT((const char *)(s.ips + s.nr_ips) <=
				    (const char *)h + h->size);
	} else {
		struct pd_sample_id sid;

		pd_decode_sample_id(&attr, h, &sid);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_mmap_page *pc = calloc(1, sizeof(*pc));
	struct ring r = { .fd = -1 };
	size_t start, n = 0;

	if (size < 2 || size - 2 > DATA_SIZE) {
		free(pc);
		return 0;
	}
	start = ((size_t)(data[0] | data[1] << 8) % DATA_SIZE) & ~(size_t)7;
	data += 2;
	size -= 2;
	r.base = pc;
	r.data = calloc(1, DATA_SIZE);
	r.mask = DATA_SIZE - 1;
	r.scratch = malloc(65536);
	FUZZ_ASSERT(pc && r.data && r.scratch);
	for (size_t i = 0; i < size; i++)
		r.data[(start + i) % DATA_SIZE] = data[i];
	/* A tail far into the ring's life: the offsets wrap, as they do. */
	pc->data_tail = 3 * (uint64_t)DATA_SIZE + start;
	pc->data_head = pc->data_tail + size;
	ring_drain(&r, on_record, &n);
	FUZZ_ASSERT(pc->data_tail <= pc->data_head);
	free(r.data);
	free(r.scratch);
	free(pc);
	return 0;
}
