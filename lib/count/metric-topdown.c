// SPDX-License-Identifier: MIT
/* Intel's TopdownL1 from the kernel's slots and topdown-* events, where the
 * core PMU's sysfs folder has them (metrics/intel-topdown-kernel.def), in
 * place of the generic-counter formulas of metrics/intel.def. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"

#include <stdio.h>
#include <string.h>

static const struct metric_def topdown_defs[] = {
#define KERNEL_TOPDOWN(model, group, name, expr, unit, desc, source) \
	{ model, group, name, expr, unit, desc, source },
#include "metrics/intel-topdown-kernel.def"
#undef KERNEL_TOPDOWN
};

static struct hwp_metric *topdowns[ARRAY_SIZE(topdown_defs)];

const struct hwp_metric *metric_topdown_all(size_t idx)
{
	if (idx >= ARRAY_SIZE(topdown_defs))
		return NULL;
	return metric_static_once(&topdowns[idx], &topdown_defs[idx], metric_new_static);
}

/* Whether the core PMU "cpu" has each event @m reads (cpu@slots@...) in
 * sysfs: Atom cores name topdown-* events too, generic ones, without slots.
 * Read at each call: a few small files, for the few -M of a start. */
static bool kernel_has_inputs(const struct hwp_metric *m)
{
	const char *in;
	char rel[128], buf[128];

	for (size_t k = 0; (in = hwpriv_metric_input(m, k)); k++) {
		const char *at = strchr(in + 4, '@');

		if (strncmp(in, "cpu@", 4) || !at)
			return false;
		snprintf(rel, sizeof(rel), "events/%.*s", (int)(at - in - 4), in + 4);
		if (pmu_read("cpu", rel, buf, sizeof(buf)))
			return false;
	}
	return true;
}

const struct hwp_metric *metric_topdown_for(const char *model, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(topdown_defs); i++) {
		const struct metric_def *d = &topdown_defs[i];
		const struct hwp_metric *m;

		if (strcmp(d->model, model) || strcmp(d->name, name))
			continue;
		m = metric_topdown_all(i);
		return m && kernel_has_inputs(m) ? m : NULL;
	}
	return NULL;
}
