/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/doctor.h>: the doctor: what on this machine adds noise to measurements.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_DOCTOR_H
#define HWPROF_API_DOCTOR_H

#include <hwprof/core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Doctor: what on this machine adds noise to measurements
 */

/* One thing the doctor looked at; the strings are borrowed from the doctor. */
struct hwp_doctor_item {
	size_t sz;
	/* "cpufreq-governor", "turbo-boost", "smt", "c-states", "nmi-watchdog",
	 * "perf_event_paranoid", "kptr_restrict", "transparent-hugepages",
	 * "aslr", "irqbalance", "hardware-pmu", "load" */
	const char *name;
	const char *value;	/* as read now; "unknown (PATH: why)" when unreadable */
	/* whether it adds noise (or limits what can be counted) */
	bool noisy;
	const char *why;	/* why it matters */
	const char *fix;	/* the command that fixes it; NULL when not noisy or
				 * nothing can (a VM without PMU) */
};

struct hwp_doctor;

/*
 * hwp_doctor_new - look at this machine now: the items above, read from
 * /proc and /sys (nothing is changed)
 * @out: free it with hwp_doctor_free()
 *
 * A fact that cannot be read is an item whose value says so, not an error.
 * Errors: -EINVAL, -ENOMEM. Since: 0.2
 */
HWP_API int hwp_doctor_new(struct hwp_doctor **out);

/* hwp_doctor_free. Since: 0.2 */
HWP_API void hwp_doctor_free(struct hwp_doctor *d);

/* Called with each item in turn: 0 goes on, anything else stops and is
 * returned. @item is valid during the call. */
typedef int (*hwp_doctor_fn)(const struct hwp_doctor_item *item, void *ctx);

/*
 * hwp_doctor_foreach - walk the items, in the order hwp_doctor_write()
 * writes them. Returns 0, what @fn returned to stop, or -EINVAL for a NULL
 * argument. Since: 0.2
 */
HWP_API int hwp_doctor_foreach(const struct hwp_doctor *d, hwp_doctor_fn fn, void *ctx);

/*
 * hwp_doctor_write - HWP_FORMAT_TEXT: a line an item ("ok" or "noisy",
 * name, value), why and the fix under each noisy one, and how many are;
 * HWP_FORMAT_JSON: schema hwprof-doctor/1 (hwprof-formats(5)). Errors: -EOPNOTSUPP
 * for other formats, -EINVAL, or the write's errno. Since: 0.2
 */
HWP_API int hwp_doctor_write(const struct hwp_doctor *d, FILE *f,
			     const struct hwp_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_DOCTOR_H */
