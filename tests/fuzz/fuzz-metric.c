// SPDX-License-Identifier: MIT
/* Metric formulas: parse, then evaluate with names that have values, zero,
 * huge values, no value, or are unknown. Never a crash; undefined is NAN,
 * never a number. */
#include "core/core.h"
#include "fuzz.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int lookup(const char *name, double *value, void *ctx)
{
	unsigned h = 5381;

	(void)ctx;
	for (const char *p = name; *p; p++)
		h = h * 33 + (unsigned char)*p;
	switch (h % 6) {
	case 0: return -ENOENT;
	case 1: return -HWP_ERR_UNDEFINED;
	case 2: *value = 0; return 0;
	case 3: *value = 1e300; return 0;
	default: *value = (double)(h % 1000); return 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *def = fuzz_string(data, size);
	struct hwp_metric *m = NULL;
	double v = 0;

	if (!hwp_metric_parse(def, &m)) {
		struct hwp_metric_info info = { .sz = sizeof(info) };
		int err = hwp_metric_eval(m, lookup, NULL, &v);

		FUZZ_ASSERT(err ? isnan(v) : isfinite(v));
		FUZZ_ASSERT(!err || err == -HWP_ERR_UNDEFINED ||
			    err == -HWP_ERR_UNKNOWN_NAME);
		FUZZ_ASSERT(!hwp_metric_info(m, &info) && hwp_metric_name(m) &&
			    info.expr);
		hwp_metric_free(m);
	} else {
		FUZZ_ASSERT(!m);
	}
	free(def);
	return 0;
}
