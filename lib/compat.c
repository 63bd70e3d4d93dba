// SPDX-License-Identifier: MIT
/* The API of 0.1 where 0.2 renamed or reshaped it (NEWS.md),
 * kept in the library so that programs built against 0.1 run unchanged
 * until 1.0, whose soname (libhwprof.so.1) drops them. No header declares
 * them any more: lib/libhwprof.sym keeps their names in node HWPROF_0.1,
 * and the two whose arguments changed keep their 0.1 version there through
 * .symver, beside the 0.2 function of the same name. */
#include "core/core.h"

#include <math.h>

/* Declared here alone: -Wmissing-prototypes wants a prototype, and no
 * program built against 0.2 should see these names. */
#define COMPAT(ret, old, params) HWP_API ret old params; HWP_API ret old params

COMPAT(int, hwp_regions_init, (const struct hwp_region_opts *opts))
{
	return hwp_region_init(opts);
}

COMPAT(int, hwp_regions_foreach, (hwp_region_fn fn, void *ctx))
{
	return hwp_region_foreach(fn, ctx);
}

COMPAT(int, hwp_regions_write, (FILE *f, const struct hwp_write_opts *opts))
{
	return hwp_region_write(f, opts);
}

COMPAT(int, hwp_regions_save, (const char *path))
{
	return hwp_region_save(path);
}

COMPAT(double, hwp_regions_read_cost, (void))
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };

	return hwp_region_settings(&in) ? NAN : in.read_cost_ns;
}

COMPAT(const char *, hwp_regions_events, (void))
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };

	return hwp_region_settings(&in) ? NULL : in.event_spec;
}

COMPAT(unsigned int, hwp_regions_sample_every, (void))
{
	struct hwp_regionset_info in = { .sz = sizeof(in) };

	return hwp_region_settings(&in) ? 1 : in.sample_every;
}

COMPAT(int, hwp_summarize, (const double *values, size_t n,
			    struct hwp_stats_summary *out))
{
	return hwp_stats_summarize(values, n, out);
}

COMPAT(int, hwp_sample_test, (const double *a, size_t na, const double *b, size_t nb,
			      const struct hwp_stats_test_opts *opts,
			      struct hwp_stats_test_result *out))
{
	return hwp_stats_test(a, na, b, nb, opts, out);
}

COMPAT(int, hwp_holm_adjust, (const double *p, size_t n, double *adjusted))
{
	return hwp_stats_holm(p, n, adjusted);
}

COMPAT(int, hwp_outliers_mad, (const double *values, size_t n, double threshold,
			       bool *outlier, size_t *nr_outliers))
{
	return hwp_stats_outliers_mad(values, n, threshold, outlier, nr_outliers);
}

COMPAT(int, hwp_histogram, (const double *values, size_t n, size_t *bins, size_t nr_bins,
			    double *lo, double *hi))
{
	return hwp_stats_histogram(values, n, bins, nr_bins, lo, hi);
}

COMPAT(int, hwp_record_stats, (const struct hwp_record *r, struct hwp_record_info *st))
{
	return hwp_record_info(r, st);
}

COMPAT(int, hwp_profile_top, (struct hwp_profile *p, enum hwp_sort sort, size_t n,
			      hwp_entry_fn fn, void *ctx))
{
	return hwp_profile_foreach_entry(p, sort, n, fn, ctx);
}

COMPAT(int, hwp_profile_modules, (struct hwp_profile *p, hwp_module_fn fn, void *ctx))
{
	return hwp_profile_foreach_module(p, fn, ctx);
}

COMPAT(int, hwp_profile_stacks, (struct hwp_profile *p, hwp_stack_fn fn, void *ctx))
{
	return hwp_profile_foreach_stack(p, fn, ctx);
}

COMPAT(int, hwp_cpulist_parse, (const char *list, int **cpus, size_t *nr))
{
	return cpus_parse(list, cpus, nr);
}

/* ---- the two whose arguments changed: the same name, version 0.1 ---- */

/* 0.1's own options of hwp_profile_write(). */
struct report_opts_0_1 {
	size_t sz;
	enum hwp_format format;
	enum hwp_sort sort;
	size_t top;
	const char *separator;
	const char *annotate;
};

HWP_API int hwp_profile_write_0_1(struct hwp_profile *p, FILE *f,
				  const struct report_opts_0_1 *opts);
__asm__(".symver hwp_profile_write_0_1, hwp_profile_write@HWPROF_0.1");

HWP_API int hwp_profile_write_0_1(struct hwp_profile *p, FILE *f,
				  const struct report_opts_0_1 *opts)
{
	struct report_opts_0_1 o;
	int err = opts_copy(&o, sizeof(o), sizeof(o), opts, "hwp_report_opts");

	if (err)
		return err;
	{
		HWP_OPTS(hwp_write_opts, w, .format = o.format, .sort = o.sort,
			 .top = o.top, .separator = o.separator, .annotate = o.annotate);

		return hwp_profile_write(p, f, &w);
	}
}

HWP_API int hwp_workload_wait_0_1(struct hwp_workload *w, int *status,
				  const volatile int *stop);
__asm__(".symver hwp_workload_wait_0_1, hwp_workload_wait@HWPROF_0.1");

HWP_API int hwp_workload_wait_0_1(struct hwp_workload *w, int *status,
				  const volatile int *stop)
{
	return workload_wait(w, status, stop);
}
