// SPDX-License-Identifier: MIT
/* Events of kernel PMUs that sysfs does not name: AMD's data fabric PMU,
 * amd_df, has only formats (event, umask) and a cpumask, and perf names
 * its events from its JSON tables, for the CPU model it runs on. These are
 * the ones the memory bandwidth metrics read (count/metrics/uncore.def),
 * under perf's names and with the event codes and unit masks of AMD's PPRs
 * as perf transcribes them; the PMU's format files place their bits (the
 * event code past bit 7 goes to bits 32 and up). A family of events is one
 * row: event N of it has the event code base + N * stride. */
#include "core/core.h"
#include "event/event.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <stdatomic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct known_family {
	const char *model;	/* libpfm4's core PMU of the CPU model */
	const char *pmu;
	const char *prefix;	/* the name of event N is prefix and N */
	const char *desc;
	unsigned nr;
	unsigned event, stride, umask;
};

static const struct known_family families[] = {
	/* Linux perf amdzen3/data-fabric.json (PPR for AMD Family 19h Model
	 * 01h, doc. 55898): DRAM Channel Controller Request Types, Requests
	 * with Data (64B), reads and writes together */
	{ "amd64_fam19h_zen3", "amd_df", "dram_channel_data_controller_",
	  "DRAM channel N: requests with data (64 bytes), reads and writes", 8,
	  0x07, 0x40, 0x38 },
	/* Linux perf amdzen4/data-fabric.json (PPR for AMD Family 19h Model
	 * 11h B1, doc. 55901, section 7.1 Fabric PMC Events): data beats (64
	 * bytes) at Coherent Station N */
	{ "amd64_fam19h_zen4", "amd_df", "local_processor_read_data_beats_cs",
	  "Read data beats (64 bytes) for the local socket's cores at Coherent Station N",
	  12, 0x1f, 0x40, 0x7fe },
	{ "amd64_fam19h_zen4", "amd_df", "local_processor_write_data_beats_cs",
	  "Write data beats (64 bytes) for the local socket's cores at Coherent Station N",
	  12, 0x1f, 0x40, 0x7ff },
	{ "amd64_fam19h_zen4", "amd_df", "remote_processor_read_data_beats_cs",
	  "Read data beats (64 bytes) for the remote socket's cores at Coherent Station N",
	  12, 0x1f, 0x40, 0xbfe },
	{ "amd64_fam19h_zen4", "amd_df", "remote_processor_write_data_beats_cs",
	  "Write data beats (64 bytes) for the remote socket's cores at Coherent Station N",
	  12, 0x1f, 0x40, 0xbff },
};

/* The N of @name if it is event N of @f (decimal, no leading zero), else -1. */
static long family_member(const struct known_family *f, const char *name)
{
	size_t len = strlen(f->prefix);
	const char *num = name + len;
	char *end;
	long n;

	if (strncmp(name, f->prefix, len) || !isdigit((unsigned char)*num) ||
	    (num[0] == '0' && num[1]))
		return -1;
	n = strtol(num, &end, 10);
	return *end || n >= (long)f->nr ? -1 : n;
}

/* Whether @f names events of @pmu on this machine's CPU model. */
static bool family_here(const struct known_family *f, const char *pmu)
{
	/* libpfm4's answer, once a family: it walks every PMU it has, and
	 * -M Memory_BW on Zen 4 parses ~1,200 amd_df events. 1 yes, -1 no. */
	static _Atomic signed char present[ARRAY_SIZE(families)];
	_Atomic signed char *p = &present[f - families];

	if (strcmp(f->pmu, pmu))
		return false;
	if (!*p)
		*p = libpfm_pmu_present(f->model) ? 1 : -1;
	return *p > 0;
}

int pmu_known_event(const char *pmu, const char *name, char *terms, size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		const struct known_family *f = &families[i];
		long n;

		if ((n = family_member(f, name)) < 0 || !family_here(f, pmu))
			continue;
		snprintf(terms, size, "event=%#x,umask=%#x",
			 f->event + (unsigned)n * f->stride, f->umask);
		return 0;
	}
	return -ENOENT;
}

int pmu_known_foreach(const char *pmu, pmu_known_fn fn, void *ctx)
{
	char name[128];
	int ret = 0;

	for (size_t i = 0; i < ARRAY_SIZE(families) && !ret; i++) {
		const struct known_family *f = &families[i];

		for (unsigned n = 0; family_here(f, pmu) && n < f->nr && !ret; n++) {
			snprintf(name, sizeof(name), "%s%u", f->prefix, n);
			ret = fn(name, f->desc, ctx);
		}
	}
	return ret;
}

void pmu_known_names(const char *pmu, struct strbuf *sb)
{
	for (size_t i = 0; i < ARRAY_SIZE(families); i++)
		if (family_here(&families[i], pmu))
			strbuf_addf(sb, "%s%s0..%u", sb->len ? ", " : "",
				    families[i].prefix, families[i].nr - 1);
}
