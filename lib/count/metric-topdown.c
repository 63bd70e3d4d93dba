// SPDX-License-Identifier: MIT
/* Intel's TopdownL1 from the kernel's slots and topdown-* events, where the
 * core PMU's sysfs folder has them (metrics/intel-topdown-kernel.def), in
 * place of the generic-counter formulas of metrics/intel.def. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"

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

/* Whether the core PMU "cpu" has the slots event and the four of level 1
 * (Atom cores name topdown-* events too, generic ones, without slots).
 * Read at each call: a few small files, for the few -M of a start. */
bool metric_topdown_kernel_events(void)
{
	static const char *const events[] = {
		"events/slots", "events/topdown-retiring", "events/topdown-bad-spec",
		"events/topdown-fe-bound", "events/topdown-be-bound",
	};
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(events); i++)
		if (pmu_read("cpu", events[i], buf, sizeof(buf)))
			return false;
	return true;
}

const struct hwp_metric *metric_topdown_for(const char *model, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(topdown_defs); i++) {
		const struct metric_def *d = &topdown_defs[i];

		if (strcmp(d->model, model) || strcmp(d->name, name))
			continue;
		return metric_topdown_kernel_events() ? metric_topdown_all(i) : NULL;
	}
	return NULL;
}
