// SPDX-License-Identifier: MIT
/* hwprof list --metrics: the named metrics of this CPU's model (libpfm4's
 * PMU, LIBPFM_FORCE_PMU chooses another) and the built-in ones, each with
 * its unit, formula and source, and whether its events open here. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "yes", or which event of @m does not open, and why. */
static void metric_status(const struct hwp_metric *m, char *buf, size_t size)
{
	const char *in;

	for (size_t k = 0; (in = hwpriv_metric_input(m, k)); k++) {
		char why[64], *spec = formula_event_spec(in);
		int err = spec ? hwp_event_probe(spec) : -ENOMEM;

		free(spec);

		if (!err)
			continue;
		list_short_reason(err, why, sizeof(why));
		snprintf(buf, size, "%s (%s)", why, in);
		return;
	}
	snprintf(buf, size, "yes");
}

static void list_one(const struct hwp_metric *m, bool probe)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	char status[160] = "";

	hwp_metric_info(m, &mi);
	if (probe)
		metric_status(m, status, sizeof(status));
	printf("  %-24s %s\n", mi.name, mi.desc);
	printf("      unit: %s   formula: %s\n", mi.unit[0] ? mi.unit : "(ratio)",
	       mi.expr);
	if (mi.source[0])
		printf("      source: %s\n", mi.source);
	if (probe)
		printf("      opens here: %s\n", status);
}

/* The groups of the model's metrics, each once, in their order. */
static void list_names(void)
{
	const struct hwp_metric *m;

	for (size_t i = 0; (m = hwp_metric_model(i)); i++) {
		struct hwp_metric_info mi = { .sz = sizeof(mi) };
		struct hwp_metric_info prev = { .sz = sizeof(prev) };

		hwp_metric_info(m, &mi);
		if (i)
			hwp_metric_info(hwp_metric_model(i - 1), &prev);
		if (mi.group[0] && (!i || strcmp(prev.group, mi.group)))
			puts(mi.group);
		puts(mi.name);
	}
	for (size_t i = 0; (m = hwp_metric_builtin(i)); i++)
		puts(hwp_metric_name(m));
}

int list_metrics(bool names_only, bool probe)
{
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	const struct hwp_metric *m = hwp_metric_model(0);
	const char *group = NULL;

	if (names_only) {
		list_names();
		return cli_flush_stdout("list") ? CLI_EXIT_FAILURE : 0;
	}
	if (m && !hwp_metric_info(m, &mi))
		printf("Metrics of this CPU's model, libpfm4's PMU '%s' (-M NAME or GROUP; LIBPFM_FORCE_PMU=NAME shows another's):\n",
		       mi.model);
	else
		printf("No named metrics for this CPU: libpfm4 detects none of icl, icx, skx, spr, amd64_fam19h_zen3, amd64_fam19h_zen4, arm_n1, arm_v1 (LIBPFM_FORCE_PMU=NAME shows one's).\n");
	for (size_t i = 0; (m = hwp_metric_model(i)); i++) {
		hwp_metric_info(m, &mi);
		if (!group || strcmp(group, mi.group))
			printf("\n%s:\n", mi.group[0] ? mi.group : "Others");
		group = mi.group;
		list_one(m, probe);
	}
	printf("\nBuilt-in metrics (perf's generic events, every machine):\n");
	for (size_t i = 0; (m = hwp_metric_builtin(i)); i++)
		list_one(m, probe);
	return cli_flush_stdout("list") ? CLI_EXIT_FAILURE : 0;
}
