// SPDX-License-Identifier: MIT
/* Profiles by CPU: the samples of the CPUs asked for only (hwp_profile_opts'
 * cpus), and the totals of each CPU (HWP_SORT_CPU), from the samples'
 * PERF_SAMPLE_CPU. A file whose samples do not carry it is refused rather
 * than shown all on CPU 0. */
#include "profile/profile.h"
#include "util/cpulist.h"

#include <stdlib.h>
#include <string.h>

/* A CPU number past any real one (the file's, never trusted): one row. */
#define CPU_ROW_OTHER ((size_t)CPULIST_MAX + 1)

int cpu_filter_set(struct hwp_profile *p, const char *list)
{
	int *cpus = NULL;
	size_t nr = 0, bad = 0;
	int err;

	p->cpu_known = pd_nr_events(p->file) &&
		       (pd_event(p->file, (size_t)p->event)->attr.sample_type &
			PERF_SAMPLE_CPU);
	if (!list)
		return 0;
	if (!p->cpu_known)
		return fail(-EINVAL, "'%s': the samples of '%s' do not say their CPU (PERF_SAMPLE_CPU; perf record asks for it with -a, -C or --sample-cpu, hwprof record always): they cannot be chosen by CPU",
			    p->input, pd_event(p->file, (size_t)p->event)->name);
	err = cpulist_parse(list, &cpus, &nr, &bad);
	if (err == -ENOMEM)
		return fail(err, "out of memory");
	if (err || !nr)
		return fail(-EINVAL, "'%s' is not a CPU list such as 0-3,6 (at '%s')",
			    list, list + (err ? bad : 0));
	p->nr_cpu_filter = (size_t)cpus[nr - 1] + 1;
	p->cpu_filter = calloc(p->nr_cpu_filter, 1);
	if (!p->cpu_filter) {
		free(cpus);
		return fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nr; i++)
		p->cpu_filter[cpus[i]] = 1;
	free(cpus);
	return 0;
}

bool cpu_wanted(const struct hwp_profile *p, uint32_t cpu)
{
	return !p->cpu_filter || (cpu < p->nr_cpu_filter && p->cpu_filter[cpu]);
}

int cpu_add(struct hwp_profile *p, uint32_t cpu, uint64_t samples, uint64_t period)
{
	size_t row = cpu < CPU_ROW_OTHER ? cpu : CPU_ROW_OTHER;

	if (row >= p->nr_cpus) {
		if (vec_reserve(&p->cpus, &p->cap_cpus, row + 1, sizeof(*p->cpus)))
			return fail(-ENOMEM, "out of memory");
		memset(p->cpus + p->nr_cpus, 0,
		       (row + 1 - p->nr_cpus) * sizeof(*p->cpus));
		p->nr_cpus = row + 1;
	}
	p->cpus[row].samples += samples;
	p->cpus[row].period += period;
	return 0;
}

void cpu_release(struct hwp_profile *p)
{
	free(p->cpu_filter);
	free(p->cpus);
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct cpu_total *c = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (c[a].period != c[b].period)
		return c[a].period > c[b].period ? -1 : 1;
	if (c[a].samples != c[b].samples)
		return c[a].samples > c[b].samples ? -1 : 1;
	return a < b ? -1 : a > b;
}

int cpu_foreach_entry(struct hwp_profile *p, size_t n, hwp_entry_fn fn, void *ctx)
{
	size_t *order, nr = 0;
	int err = 0;

	if (!p->cpu_known)
		return fail(-EINVAL, "'%s': the samples of '%s' do not say their CPU (PERF_SAMPLE_CPU; perf record asks for it with -a, -C or --sample-cpu, hwprof record always): no report by CPU",
			    p->input, p->event_names[p->event]);
	order = malloc((p->nr_cpus ? p->nr_cpus : 1) * sizeof(*order));
	if (!order)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i].samples)
			order[nr++] = i;
	if (nr)
		qsort_r(order, nr, sizeof(*order), cmp_rows, p->cpus);
	if (!n || n > nr)
		n = nr;
	for (size_t i = 0; i < n && !err; i++) {
		const struct cpu_total *c = &p->cpus[order[i]];
		char name[32];
		struct hwp_entry e = {
			.sz = sizeof(e),
			.rank = i,
			.name = name,
			.dso = "",
			.samples = c->samples,
			.period = c->period,
			.percent = p->period ? 100.0 * (double)c->period /
					       (double)p->period : 0,
			.address = order[i],
			.tid = -1,
		};

		if (order[i] == CPU_ROW_OTHER)
			snprintf(name, sizeof(name), "above %d", CPULIST_MAX);
		else
			snprintf(name, sizeof(name), "%zu", order[i]);
		err = fn(&e, ctx);
	}
	free(order);
	return err;
}
