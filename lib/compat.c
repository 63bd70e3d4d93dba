// SPDX-License-Identifier: MIT
/* The API of 0.1 where 0.2 renamed or reshaped it (NEWS.md),
 * kept in the library so that programs built against 0.1 run unchanged
 * until 1.0, whose soname (libhwprof.so.1) drops them. No header declares
 * them any more: lib/libhwprof.sym keeps their names in node HWPROF_0.1,
 * and the three whose arguments changed keep their 0.1 version there
 * through .symver, beside the 0.2 function of the same name. */
#include "core/core.h"
#include "count/count.h"
#include "profile/report.h"

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
	return profile_foreach_module(p, fn, ctx);
}

COMPAT(int, hwp_profile_stacks, (struct hwp_profile *p, hwp_stack_fn fn, void *ctx))
{
	return hwp_profile_foreach_stack(p, fn, ctx);
}

COMPAT(int, hwp_cpulist_parse, (const char *list, int **cpus, size_t *nr))
{
	return cpus_parse(list, cpus, nr);
}

/* ---- out of the API in 0.2: internal, or the CLI's (hwprof-private.h) ---- */

COMPAT(const char *, hwp_metric_unit, (const struct hwp_metric *m))
{
	return metric_unit(m);
}

COMPAT(const char *, hwp_metric_expr, (const struct hwp_metric *m))
{
	return metric_expr(m);
}

COMPAT(const char *, hwp_metric_desc, (const struct hwp_metric *m))
{
	return metric_desc(m);
}

COMPAT(const char *, hwp_profile_event_name, (const struct hwp_profile *p, size_t idx))
{
	return profile_event_name(p, idx);
}

COMPAT(int, hwp_profile_annotate, (struct hwp_profile *p, const char *symbol,
				   hwp_annotate_fn fn, void *ctx))
{
	return profile_annotate(p, symbol, fn, ctx);
}

COMPAT(int, hwp_ofile_open, (const char *path, struct hwpriv_ofile **out))
{
	return hwpriv_ofile_open(path, out);
}

COMPAT(FILE *, hwp_ofile_stream, (struct hwpriv_ofile *of))
{
	return hwpriv_ofile_stream(of);
}

COMPAT(int, hwp_ofile_commit, (struct hwpriv_ofile *of))
{
	return hwpriv_ofile_commit(of);
}

COMPAT(void, hwp_ofile_abort, (struct hwpriv_ofile *of))
{
	hwpriv_ofile_abort(of);
}

COMPAT(int, hwp_result_set_target, (struct hwp_result *r, const char *target))
{
	return hwpriv_result_set_target(r, target);
}

COMPAT(int, hwp_result_add_regions, (struct hwp_result *r, const char *path))
{
	return hwpriv_result_add_regions(r, path);
}

COMPAT(int, hwp_sweep_new, (const char *param, struct hwp_sweep **out))
{
	return hwpriv_sweep_new(param, out);
}

COMPAT(int, hwp_sweep_set_command, (struct hwp_sweep *sw, char *const argv[]))
{
	return hwpriv_sweep_set_command(sw, argv);
}

COMPAT(int, hwp_sweep_add, (struct hwp_sweep *sw, const char *value,
			    struct hwp_result *r))
{
	return hwpriv_sweep_add(sw, value, r);
}

/* ---- renamed in 0.2: one verb a meaning (docs/api.md) ---- */

COMPAT(int, hwp_profile_open, (const char *path, const struct hwp_profile_opts *opts,
			       struct hwp_profile **out))
{
	return hwp_profile_load(path, opts, out);
}

COMPAT(int, hwp_result_read, (const char *path, struct hwp_result **out))
{
	return hwp_result_load(path, out);
}

COMPAT(int, hwp_sweep_read, (const char *path, struct hwp_sweep **out))
{
	return hwp_sweep_load(path, out);
}

COMPAT(int, hwp_compare_results, (const struct hwp_result *a, const struct hwp_result *b,
				  const struct hwp_compare_opts *opts,
				  struct hwp_compare **out))
{
	return hwp_compare_from_results(a, b, opts, out);
}

COMPAT(int, hwp_compare_sweeps, (const struct hwp_sweep *a, const struct hwp_sweep *b,
				 const struct hwp_compare_opts *opts,
				 struct hwp_compare **out))
{
	return hwp_compare_from_sweeps(a, b, opts, out);
}

COMPAT(const char *, hwp_verdict_name, (enum hwp_verdict v))
{
	const char *name = hwp_enum_name(HWP_ENUM_VERDICT, (int)v);

	return name ? name : "n/a";
}

/* ---- the three whose arguments changed: the same name, version 0.1 ---- */

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

/* 0.1's own options of hwp_record_new(): the event list as a string. */
struct record_opts_0_1 {
	size_t sz;
	const char *events;
	uint64_t freq;
	uint64_t period;
	enum hwp_callchain callchain;
	enum hwp_scope scope;
	pid_t pid;
	const char *cpus;
	bool no_inherit;
	bool enable_on_exec;
	size_t mmap_pages;
	const char *output;
	char *const *argv;
};

HWP_API int hwp_record_new_0_1(const struct record_opts_0_1 *opts,
			       struct hwp_record **out);
__asm__(".symver hwp_record_new_0_1, hwp_record_new@HWPROF_0.1");

HWP_API int hwp_record_new_0_1(const struct record_opts_0_1 *opts,
			       struct hwp_record **out)
{
	struct record_opts_0_1 o;
	struct hwp_evlist *evl = NULL;
	int err = opts_copy(&o, sizeof(o), sizeof(o), opts, "hwp_record_opts");

	if (err)
		return err;
	if (o.events && (err = hwp_evlist_parse(o.events, NULL, &evl)))
		return err;
	{
		HWP_OPTS(hwp_record_opts, r, .freq = o.freq, .period = o.period,
			 .callchain = o.callchain, .scope = o.scope, .pid = o.pid,
			 .cpus = o.cpus, .no_inherit = o.no_inherit,
			 .enable_on_exec = o.enable_on_exec, .mmap_pages = o.mmap_pages,
			 .output = o.output, .argv = o.argv);

		err = hwp_record_new(evl, &r, out);
	}
	hwp_evlist_free(evl);
	return err;
}
