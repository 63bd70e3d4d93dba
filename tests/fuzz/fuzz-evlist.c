// SPDX-License-Identifier: MIT
/* Event lists: any input parses or fails with a known error, never
 * crashes, and a parsed list describes itself consistently. */
#include "core/core.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Ice Lake's tables: libpfm4 names are parsed and encoded too. */
	setenv("LIBPFM_FORCE_PMU", "icl", 1);
	hwp_log_set_level(HWP_LOG_ERROR);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_string(data, size);
	struct hwp_evlist *evl = NULL;
	int err = hwp_evlist_parse(spec, NULL, &evl);

	if (err) {
		FUZZ_ASSERT(!evl);
		FUZZ_ASSERT(err < 0 && *hwp_errmsg());
	} else {
		size_t groups = 0;

		FUZZ_ASSERT(hwp_evlist_nr_events(evl) >= 1);
		for (size_t i = 0; i < hwp_evlist_nr_events(evl); i++) {
			struct hwp_event_info info = { .sz = sizeof(info) };

			FUZZ_ASSERT(!hwp_evlist_event(evl, i, &info));
			FUZZ_ASSERT(info.name && info.canonical &&
				    info.group < hwp_evlist_nr_groups(evl));
			FUZZ_ASSERT(info.is_leader ==
				    (i == 0 || info.group != groups - 1));
			if (info.is_leader)
				groups++;
		}
		FUZZ_ASSERT(groups == hwp_evlist_nr_groups(evl));
		hwp_evlist_free(evl);
	}
	free(spec);
	return 0;
}
