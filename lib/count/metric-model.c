// SPDX-License-Identifier: MIT
/* The named metrics of each CPU model: the vendors' formulas, as data in
 * metrics/<vendor>.def, for the core PMU libpfm4 detects. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const struct metric_def model_defs[] = {
#define MODEL_METRIC(model, group, name, expr, unit, desc, source) \
	{ model, group, name, expr, unit, desc, source },
#include "metrics/intel.def"
#include "metrics/amd.def"
#include "metrics/arm.def"
#include "metrics/uncore.def"
#include "metrics/persec.def"
#undef MODEL_METRIC
};

/* Each parsed at its first use. */
static struct hwp_metric *models[ARRAY_SIZE(model_defs)];

/* An uncore PMU's events (uncore.def) summed over this machine's
 * instances of the PMU; as written where its sysfs is broken, so that the
 * metric is still listed and its event says why it does not count. */
static struct hwp_metric *model_metric_new(const struct metric_def *d)
{
	struct metric_def copy = *d;
	struct hwp_metric *m;
	char *expr;
	int err;

	if (!strchr(d->expr, '@'))
		return metric_new_static(d);
	err = metric_expand_instances(d->expr, &expr);
	if (err == -ENOMEM)
		return NULL;
	if (err) {
		pr_warn("metric '%s': %s", d->name, hwp_errmsg());
		return metric_new_static(d);
	}
	copy.expr = expr;
	m = metric_new_static(&copy);
	free(expr);
	return m;
}

size_t metric_model_nr_all(void)
{
	return ARRAY_SIZE(model_defs);
}

const struct hwp_metric *metric_model_all(size_t idx)
{
	if (idx >= ARRAY_SIZE(model_defs))
		return NULL;
	return metric_static_once(&models[idx], &model_defs[idx], model_metric_new);
}

static pthread_once_t model_once = PTHREAD_ONCE_INIT;
static const char *model_pmu;	/* NULL: none of the tables' models */

/* The first model of the tables that libpfm4 says this machine is. */
static void detect_model(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(model_defs); i++) {
		if (i && !strcmp(model_defs[i].model, model_defs[i - 1].model))
			continue;
		if (libpfm_pmu_present(model_defs[i].model)) {
			model_pmu = model_defs[i].model;
			return;
		}
	}
}

/* Whether the tables have @model's metric @name. */
static bool model_has(const char *model, const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(model_defs); i++)
		if (!strcmp(model_defs[i].model, model) &&
		    !strcmp(model_defs[i].name, name))
			return true;
	return false;
}

/* The @idx-th of @model's metrics from the kernel's topdown events that no
 * line of the tables stands for (spr's TopdownL2), where the kernel has
 * their events; NULL past the last. */
static const struct hwp_metric *kernel_only(const char *model, size_t idx)
{
	const struct hwp_metric *m;

	for (size_t i = 0; (m = metric_topdown_all(i)); i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };

		if (hwp_metric_info(m, &mi) || strcmp(mi.model, model) ||
		    model_has(model, mi.name) || !metric_topdown_for(model, mi.name))
			continue;
		if (idx-- == 0)
			return m;
	}
	return NULL;
}

HWP_API const struct hwp_metric *hwp_metric_model(size_t idx)
{
	pthread_once(&model_once, detect_model);
	if (!model_pmu)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(model_defs); i++) {
		const struct hwp_metric *kernel;

		if (strcmp(model_defs[i].model, model_pmu) || idx-- != 0)
			continue;
		kernel = metric_topdown_for(model_pmu, model_defs[i].name);
		return kernel ? kernel : metric_model_all(i);
	}
	return kernel_only(model_pmu, idx);
}
