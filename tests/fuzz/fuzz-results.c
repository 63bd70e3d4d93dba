// SPDX-License-Identifier: MIT
/* Result and sweep files (what hwprof compare reads): the strict JSON
 * reader, then the hwprof-stat/1 and hwprof-sweep/1 readers, with the
 * regions (hwprof-regions/1) a result keeps. Whatever loads must then
 * write, compare with itself and free without a crash; whatever does not
 * gets a message. */
#include "core/core.h"
#include "result/result.h"
#include "sweep/sweep.h"
#include "fuzz.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

/* A result's regionsets, through the public API and both writers. */
static void use_regions(const struct hwp_result *r, FILE *f)
{
	HWP_OPTS(hwp_write_opts, text, .format = HWP_FORMAT_TEXT);
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);

	for (size_t k = 0; k < hwp_result_nr_regionsets(r); k++) {
		const struct hwp_regionset *rs = hwp_result_regionset(r, k);
		struct hwp_regionset_info in = { .sz = sizeof(in) };

		FUZZ_ASSERT(rs && !hwp_regionset_info(rs, &in));
		for (size_t i = 0; i < in.nr_regions; i++) {
			struct hwp_region_info ri = { .sz = sizeof(ri) };
			struct hwp_series_info si = { .sz = sizeof(si) };

			FUZZ_ASSERT(!hwp_regionset_region(rs, i, &ri));
			for (size_t t = 0; t < ri.nr_threads; t++)
				FUZZ_ASSERT(!hwp_regionset_thread(rs, i, t, &ri));
			for (size_t e = 0; e < hwp_regionset_nr_series(rs, i); e++)
				FUZZ_ASSERT(!hwp_regionset_series(rs, i, e, &si) &&
					    si.nr_runs == 1);
		}
		hwp_regionset_write(rs, f, &text);
		hwp_regionset_write(rs, f, &json);
	}
}

/* A cell's numbers are numbers or missing (NAN), never infinite, as JSON
 * has them; whatever is missing has its reason. */
static void check_cells(const struct hwp_compare *c)
{
	for (size_t r = 0; r < hwp_compare_nr_rows(c); r++)
		for (size_t k = 0; k < hwp_compare_nr_columns(c); k++) {
			struct hwp_compare_info i = { .sz = sizeof(i) };

			FUZZ_ASSERT(!hwp_compare_cell(c, r, k, &i));
			FUZZ_ASSERT(!isinf(i.a_mean) && !isinf(i.b_mean) &&
				    !isinf(i.ratio) && !isinf(i.diff) &&
				    !isinf(i.ci_low) && !isinf(i.ci_high) &&
				    !isinf(i.a_cv) && !isinf(i.b_cv) &&
				    !isinf(i.p_value));
			FUZZ_ASSERT(i.reason ||
				    (i.verdict != HWP_VERDICT_NONE && !isnan(i.ratio)));
		}
}

static void use(const struct hwp_sweep *sw)
{
	HWP_OPTS(hwp_write_opts, text, .format = HWP_FORMAT_TEXT);
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	struct hwp_compare *c = NULL;
	FILE *f = fopen("/dev/null", "w");

	FUZZ_ASSERT(f);
	FUZZ_ASSERT(hwp_sweep_nr_points(sw) >= 1);
	for (size_t i = 0; i < hwp_sweep_nr_points(sw); i++) {
		FUZZ_ASSERT(hwp_result_nr_runs(hwp_sweep_result(sw, i)) >= 1);
		use_regions(hwp_sweep_result(sw, i), f);
	}
	hwp_sweep_write(sw, f, &text);
	hwp_sweep_write(sw, f, &json);
	if (!hwp_compare_from_sweeps(sw, sw, NULL, &c)) {
		FUZZ_ASSERT(hwp_compare_nr_rows(c) >= 1);
		check_cells(c);
		hwp_compare_write(c, f, &text);
		hwp_compare_write(c, f, &json);
		hwp_compare_free(c);
	} else {
		FUZZ_ASSERT(!c && *hwp_errmsg());
	}
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hwp_sweep *sw = NULL;
	int err = sweep_parse((const char *)data, size, "fuzz.json", &sw);

	if (!err) {
		use(sw);
		hwp_sweep_free(sw);
	} else {
		FUZZ_ASSERT(!sw && *hwp_errmsg());
		FUZZ_ASSERT(err == -HWP_ERR_FORMAT || err == -ENOMEM);
	}
	return 0;
}
