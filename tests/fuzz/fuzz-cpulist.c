// SPDX-License-Identifier: MIT
/* CPU lists: what parses formats back to a list that parses to the same. */
#include "core/core.h"
#include "util/cpulist.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *list = fuzz_string(data, size);
	int *cpus = NULL, *again = NULL;
	size_t nr = 0, nr2 = 0, bad;

	if (!cpulist_parse(list, &cpus, &nr, &bad)) {
		size_t len = nr * 12 + 1;
		char *text = malloc(len);

		FUZZ_ASSERT(text && nr > 0);
		for (size_t i = 1; i < nr; i++)
			FUZZ_ASSERT(cpus[i - 1] < cpus[i]);
		cpulist_format(cpus, nr, text, len);
		FUZZ_ASSERT(!cpulist_parse(text, &again, &nr2, &bad));
		FUZZ_ASSERT(nr2 == nr && !memcmp(again, cpus, nr * sizeof(*cpus)));
		free(text);
		free(again);
		free(cpus);
	} else {
		FUZZ_ASSERT(!cpus && bad <= size);
	}
	free(list);
	return 0;
}
