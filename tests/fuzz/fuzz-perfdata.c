// SPDX-License-Identifier: MIT
/* perf.data files: the reader (header, attributes, ids, feature sections,
 * records in time order) and the decoding of every record. Hostile input
 * gives an error, never a crash, a leak or undefined behaviour. The whole
 * report on such files is fuzz-report.c. */
#include "core/core.h"
#include "event/event.h"
#include "sample/sample.h"
#include "fuzz.h"

#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	hwp_log_set_level(HWP_LOG_ERROR);
	return 0;
}

static int on_record(const struct pd_record *rec, void *ctx)
{
	struct pd_file *f = ctx;
	const struct perf_event_attr *attr;

	FUZZ_ASSERT(rec->h->size >= sizeof(*rec->h));
	if (rec->event < 0)
		return 0;
	FUZZ_ASSERT((size_t)rec->event < pd_nr_events(f));
	attr = &pd_event(f, (size_t)rec->event)->attr;
	if (rec->h->type == PERF_RECORD_SAMPLE) {
		struct pd_sample s;

		if (!pd_decode_sample(attr, rec->h, &s) && s.nr_ips)
			FUZZ_ASSERT((const char *)(s.ips + s.nr_ips) <=
				    (const char *)rec->h + rec->h->size);
	} else {
		struct pd_sample_id sid;

		pd_decode_sample_id(attr, rec->h, &sid);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-perfdata", MFD_CLOEXEC);
	struct pd_file *f = NULL;

	FUZZ_ASSERT(fd >= 0);
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	if (!pd_open(NULL, fd, &f)) {
		pd_foreach(f, on_record, f);
		pd_close(f);
	}
	close(fd);
	return 0;
}
