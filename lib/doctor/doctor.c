// SPDX-License-Identifier: MIT
/* hwprof doctor: what on this machine adds noise to measurements, each with
 * its current value, why it matters and the command that fixes it. Every
 * fact is read from /proc and /sys now; one that cannot be read says so. */
#include "core/core.h"
#include "event/event.h"
#include "doctor/doctor.h"
#include "util/json-writer.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ITEMS 16

struct item {
	const char *name;
	char value[160];
	bool noisy;
	const char *why;
	const char *fix;	/* NULL: nothing to fix */
};

struct hwp_doctor {
	struct item items[MAX_ITEMS];
	size_t nr;
};

/* The first line of @path, without its newline; false when unreadable. */
static bool first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok = f && fgets(buf, (int)size, f);

	if (f)
		fclose(f);
	if (!ok) {
		snprintf(buf, size, "unknown (%s: %s)", path,
			 errno_text(errno ? errno : EIO));
		return false;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static struct item *add(struct hwp_doctor *d, const char *name, const char *why,
			const char *fix)
{
	struct item *it = &d->items[d->nr++];

	it->name = name;
	it->why = why;
	it->fix = fix;
	return it;
}

static void governor(struct hwp_doctor *d)
{
	struct item *it = add(d, "cpufreq-governor",
			      "a governor other than performance changes the clock with the load, so the same work takes different times",
			      "cpupower frequency-set -g performance");
	char g[64];

	if (!first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", g,
			sizeof(g))) {
		snprintf(it->value, sizeof(it->value),
			 "none (no cpufreq: the clock is the hypervisor's or fixed)");
		it->fix = NULL;
		return;
	}
	snprintf(it->value, sizeof(it->value), "%s", g);
	it->noisy = strcmp(g, "performance") != 0;
}

static void boost(struct hwp_doctor *d)
{
	struct item *it = add(d, "turbo-boost",
			      "turbo raises the clock while the package is cool and idle: a run's speed depends on the runs before it",
			      NULL);
	char v[64];

	if (first_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v))) {
		snprintf(it->value, sizeof(it->value), "intel_pstate no_turbo=%s", v);
		it->noisy = !strcmp(v, "0");
		it->fix = "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo";
	} else if (first_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v))) {
		snprintf(it->value, sizeof(it->value), "cpufreq boost=%s", v);
		it->noisy = !strcmp(v, "1");
		it->fix = "echo 0 > /sys/devices/system/cpu/cpufreq/boost";
	} else {
		snprintf(it->value, sizeof(it->value),
			 "unknown (no intel_pstate/no_turbo nor cpufreq/boost)");
	}
}

static void smt(struct hwp_doctor *d)
{
	struct item *it = add(d, "smt",
			      "SMT siblings share a core's caches and execution units: what runs on the sibling slows the benchmark",
			      "echo off > /sys/devices/system/cpu/smt/control (or pin with --pin to one thread of each core)");
	char v[64];

	if (first_line("/sys/devices/system/cpu/smt/active", v, sizeof(v))) {
		snprintf(it->value, sizeof(it->value), "active=%s", v);
		it->noisy = !strcmp(v, "1");
	} else {
		snprintf(it->value, sizeof(it->value), "%s", v);
	}
	if (!it->noisy)
		it->fix = NULL;
}

static void cstates(struct hwp_doctor *d)
{
	struct item *it = add(d, "c-states",
			      "waking from a deep C-state takes tens of microseconds: request-response benchmarks (TCP_RR) move with them",
			      "cpupower idle-set -D 10 (disable states deeper than 10 us of exit latency)");
	size_t n = 0, enabled_deep = 0;
	int len = 0;

	for (int s = 0; s < 16; s++) {
		char path[128], name[64], lat[32], dis[16];

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", s);
		if (!first_line(path, name, sizeof(name)))
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cpuidle/state%d/latency", s);
		if (!first_line(path, lat, sizeof(lat)))
			snprintf(lat, sizeof(lat), "?");
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/cpuidle/state%d/disable", s);
		if (!first_line(path, dis, sizeof(dis)))
			snprintf(dis, sizeof(dis), "0");
		enabled_deep += strcmp(dis, "1") && atol(lat) > 10;
		if (len < (int)sizeof(it->value) - 40)
			len += snprintf(it->value + len, sizeof(it->value) - (size_t)len,
					"%s%s(%sus%s)", n ? " " : "", name, lat,
					strcmp(dis, "1") ? "" : ", disabled");
		n++;
	}
	if (!n) {
		snprintf(it->value, sizeof(it->value), "none (no cpuidle states)");
		it->fix = NULL;
	}
	it->noisy = enabled_deep > 0;
}

/* An integer sysctl: @noisy(value) says whether it adds noise. */
static void sysctl_item(struct hwp_doctor *d, const char *name, const char *path,
			long quiet_at_most, const char *why, const char *fix)
{
	struct item *it = add(d, name, why, fix);
	char v[64];

	if (first_line(path, v, sizeof(v))) {
		snprintf(it->value, sizeof(it->value), "%s", v);
		it->noisy = atol(v) > quiet_at_most;
	} else {
		snprintf(it->value, sizeof(it->value), "%s", v);
	}
	if (!it->noisy)
		it->fix = NULL;
}

static void thp(struct hwp_doctor *d)
{
	struct item *it = add(d, "transparent-hugepages",
			      "with [always], khugepaged collapses pages in the background and page faults vary with what it did",
			      "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled");
	char v[96];

	first_line("/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v));
	snprintf(it->value, sizeof(it->value), "%s", v);
	it->noisy = strstr(v, "[always]") != NULL;
	if (!it->noisy)
		it->fix = NULL;
}

static void irqbalance(struct hwp_doctor *d)
{
	struct item *it = add(d, "irqbalance",
			      "irqbalance moves interrupts between CPUs while the benchmark runs",
			      "systemctl stop irqbalance");
	DIR *dir = opendir("/proc");
	struct dirent *de;

	while (dir && (de = readdir(dir)) && !it->noisy) {
		char path[300], comm[64];

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (first_line(path, comm, sizeof(comm)) && !strcmp(comm, "irqbalance")) {
			it->noisy = true;
			snprintf(it->value, sizeof(it->value), "running (pid %.20s)",
				 de->d_name);
		}
	}
	if (dir)
		closedir(dir);
	if (!it->noisy) {
		snprintf(it->value, sizeof(it->value), "not running");
		it->fix = NULL;
	}
}

/* Whether this process has CAP_PERFMON (38) or CAP_SYS_ADMIN (21), which
 * perf_event_paranoid does not limit: root has them. */
static bool perf_privileged(void)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	unsigned long long caps = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	if (f)
		fclose(f);
	return caps & (1ULL << 38 | 1ULL << 21);
}

static void paranoid(struct hwp_doctor *d)
{
	struct item *it;

	sysctl_item(d, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid", 1,
		    "above 1, users cannot count the kernel; above 2 (some distributions), nothing; it does not limit root or CAP_PERFMON",
		    "sysctl kernel.perf_event_paranoid=1");
	it = &d->items[d->nr - 1];
	if (perf_privileged()) {
		it->noisy = false;
		it->fix = NULL;
	}
}

static void pmu(struct hwp_doctor *d)
{
	struct item *it = add(d, "hardware-pmu",
			      "without a PMU (a VM without passthrough) cycles, instructions and cache events cannot be counted; a hypervisor's neighbours add noise of their own",
			      NULL);
	char flags[4096] = "";
	FILE *f = fopen("/proc/cpuinfo", "re");
	bool vm = false;

	while (f && fgets(flags, sizeof(flags), f))
		if (!strncmp(flags, "flags", 5)) {
			vm = strstr(flags, " hypervisor") != NULL;
			break;
		}
	if (f)
		fclose(f);
	snprintf(it->value, sizeof(it->value), "%s%s",
		 have_hw_pmu() ? "present" : "absent",
		 vm ? ", in a virtual machine" : "");
	it->noisy = !have_hw_pmu() || vm;
}

static void load(struct hwp_doctor *d)
{
	struct item *it = add(d, "load",
			      "other processes running take CPU time and caches from the benchmark",
			      "stop them, or pin the benchmark (--pin) away from them");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char v[128];
	double l1 = 0;

	if (first_line("/proc/loadavg", v, sizeof(v)))
		l1 = atof(v);
	snprintf(it->value, sizeof(it->value),
		 "load average %.2f over 1 minute, %ld CPUs", l1, cpus);
	it->noisy = l1 >= 0.5;
	if (!it->noisy)
		it->fix = NULL;
}

HWP_API int hwp_doctor_new(struct hwp_doctor **out)
{
	struct hwp_doctor *d;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_doctor_new: out is NULL");
	d = calloc(1, sizeof(*d));
	if (!(*out = d))
		return fail(-ENOMEM, "out of memory");
	governor(d);
	boost(d);
	smt(d);
	cstates(d);
	sysctl_item(d, "nmi-watchdog", "/proc/sys/kernel/nmi_watchdog", 0,
		    "the NMI watchdog keeps a hardware counter for itself: one fewer for the events, and more multiplexing",
		    "sysctl kernel.nmi_watchdog=0");
	paranoid(d);
	sysctl_item(d, "kptr_restrict", "/proc/sys/kernel/kptr_restrict", 0,
		    "kernel addresses read as 0 for users: kernel samples have no symbols",
		    "sysctl kernel.kptr_restrict=0");
	thp(d);
	sysctl_item(d, "aslr", "/proc/sys/kernel/randomize_va_space", 0,
		    "each run lays out its stack and libraries at new addresses: alignment, and so speed, changes from run to run",
		    "setarch -R COMMAND (one command), or sysctl kernel.randomize_va_space=0");
	irqbalance(d);
	pmu(d);
	load(d);
	return 0;
}

int doctor_facts(struct env_fact **facts, size_t *nr)
{
	struct hwp_doctor *d;
	int err = hwp_doctor_new(&d);

	if (err)
		return err;
	*facts = calloc(d->nr + 1, sizeof(**facts));
	for (size_t i = 0; *facts && i < d->nr; i++) {
		struct env_fact *f = &(*facts)[(*nr)++];

		f->name = strdup(d->items[i].name);
		f->value = strdup(d->items[i].value);
		f->noisy = d->items[i].noisy;
		if (!f->name || !f->value)
			err = -ENOMEM;
	}
	hwp_doctor_free(d);
	return *facts ? err : -ENOMEM;
}

HWP_API void hwp_doctor_free(struct hwp_doctor *d)
{
	free(d);
}

HWP_API int hwp_doctor_foreach(const struct hwp_doctor *d, hwp_doctor_fn fn, void *ctx)
{
	clear_error();
	if (!d || !fn)
		return fail(-EINVAL, "hwp_doctor_foreach: NULL argument");
	for (size_t k = 0; k < d->nr; k++) {
		struct hwp_doctor_item i = {
			.sz = sizeof(i),
			.name = d->items[k].name,
			.value = d->items[k].value,
			.noisy = d->items[k].noisy,
			.why = d->items[k].why,
			.fix = d->items[k].fix,
		};
		int ret = fn(&i, ctx);

		if (ret)
			return ret;
	}
	return 0;
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_doctor *d = obj;
	size_t noisy = 0;

	(void)opts;
	for (size_t i = 0; i < d->nr; i++) {
		const struct item *it = &d->items[i];

		noisy += it->noisy;
		fprintf(f, "%-5s %-22s %s\n", it->noisy ? "noisy" : "ok", it->name,
			it->value);
		if (it->noisy)
			fprintf(f, "      why: %s\n", it->why);
		if (it->noisy && it->fix)
			fprintf(f, "      fix: %s\n", it->fix);
	}
	fprintf(f, "\n%zu of %zu items add noise here\n", noisy, d->nr);
	return 0;
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	const struct hwp_doctor *d = obj;
	struct json_writer w;

	(void)opts;
	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "schema");
	jw_string(&w, "hwprof-doctor/1");
	jw_key(&w, "items");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < d->nr; i++) {
		jw_object_begin(&w);
		jw_key(&w, "name");
		jw_string(&w, d->items[i].name);
		jw_key(&w, "value");
		jw_string(&w, d->items[i].value);
		jw_key(&w, "noisy");
		jw_bool(&w, d->items[i].noisy);
		jw_key(&w, "why");
		jw_string(&w, d->items[i].why);
		jw_key(&w, "fix");
		jw_string(&w, d->items[i].noisy ? d->items[i].fix : NULL);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
	return 0;
}

static const struct writer doctor_writer = {
	.fn = "hwp_doctor_write",
	.what = "the doctor's report",
	.subject = "the doctor's report is",
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_doctor_write(const struct hwp_doctor *d, FILE *f,
			     const struct hwp_write_opts *opts)
{
	return write_dispatch(&doctor_writer, d, f, opts);
}
