// SPDX-License-Identifier: MIT
/* The smallest use of libhwprof: count events over a loop of our own and
 * print each count and a per-iteration figure. */
#include <hwprof/hwprof.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGES 4096

static int fail(const char *what, int err)
{
	fprintf(stderr, "self_measure: %s: %s\n", what,
		*hwp_errmsg() ? hwp_errmsg() : hwp_strerror(err));
	return 1;
}

int main(void)
{
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	struct hwp_metric *m = NULL;
	struct hwp_count counts[4];
	long page = sysconf(_SC_PAGESIZE);
	double per_page;
	char *mem;
	int err;

	err = hwp_evlist_parse("page-faults,task-clock,instructions,cycles", NULL, &evl);
	if (err)
		return fail("parsing the events", err);
	err = hwp_session_new(evl, NULL, &s) ?: hwp_session_open(s);
	if (err)
		return fail("opening the counters", err);

	mem = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return fail("mmap", -1);
	madvise(mem, PAGES * page, MADV_NOHUGEPAGE);	/* one fault per page */

	hwp_session_enable(s);
	for (long i = 0; i < PAGES; i++)	/* the loop we measure */
		mem[i * page] = 1;
	hwp_session_disable(s);
	err = hwp_session_read(s, counts, 4);
	if (err)
		return fail("reading", err);

	for (size_t i = 0; i < hwp_session_nr_events(s); i++) {
		struct hwp_event_info info = { .sz = sizeof(info) };
		const char *reason;

		hwp_evlist_event(hwp_session_evlist(s), i, &info);
		if (hwp_session_event_status(s, i, &reason) == HWP_EVENT_NOT_SUPPORTED)
			printf("%-14s <not supported> (%s)\n", info.name, reason);
		else
			printf("%-14s %14.0f  %8.3f per iteration\n", info.name,
			       hwp_count_scaled(&counts[i]),
			       hwp_count_scaled(&counts[i]) / PAGES);
	}
	err = hwp_metric_parse("faults/ms=page-faults / (task-clock / 1e6)", &m);
	if (!err && !hwp_session_metric(s, counts, 0, m, &per_page))
		printf("%-14s %14.1f\n", hwp_metric_name(m), per_page);

	hwp_metric_free(m);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	munmap(mem, PAGES * page);
	return 0;
}
