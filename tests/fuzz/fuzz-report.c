// SPDX-License-Identifier: MIT
/* The whole report on a perf.data file: aggregation, address spaces from
 * MMAP/COMM/FORK records, symbols, call chains, every sort and format.
 * Slower than fuzz-perfdata (a kernel sample reads /proc/kallsyms, a
 * module name opens that file with libdw), and what it adds is there. */
#include "hwprof-internal.h"
#include "fuzz.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	hwp_log_set_level(HWP_LOG_ERROR);
	return 0;
}

static int on_entry(const struct hwp_entry *e, void *ctx)
{
	(void)ctx;
	FUZZ_ASSERT(e->samples > 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-report", MFD_CLOEXEC);
	struct hwp_profile *p = NULL;
	char path[64];

	FUZZ_ASSERT(fd >= 0);
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!hwp_profile_open(path, NULL, &p)) {
		static const enum hwp_sort sorts[] = { HWP_SORT_RIP, HWP_SORT_SYM, HWP_SORT_LINE,
						       HWP_SORT_DSO };
		FILE *out = fopen("/dev/null", "we");

		for (size_t i = 0; i < sizeof(sorts) / sizeof(sorts[0]); i++)
			hwp_profile_top(p, sorts[i], 20, on_entry, NULL);
		for (int fmt = HWP_FORMAT_TEXT; out && fmt <= HWP_FORMAT_FOLDED; fmt++) {
			HWP_OPTS(hwp_report_opts, o, .format = (enum hwp_format)fmt,
				 .sort = HWP_SORT_SYM, .top = 10);

			hwp_profile_write(p, out, &o);
		}
		if (out)
			fclose(out);
		hwp_profile_free(p);
	}
	close(fd);
	return 0;
}
