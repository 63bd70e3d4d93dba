// SPDX-License-Identifier: MIT
/* hwprof list: the events this machine knows, and whether each opens now. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

static const char list_usage[] =
	"usage: hwprof list [OPTIONS] [PATTERN]\n"
	"       hwprof list --topology\n"
	"       hwprof list --metrics\n"
	"\n"
	"List the events hwprof can name: perf's generic names, the libpfm4 events of\n"
	"this CPU's PMUs (LIBPFM_FORCE_PMU=NAME adds another PMU's), and tracepoints when\n"
	"tracefs is mounted. Each one is tried on this machine: 'yes' means it opens now;\n"
	"otherwise a short reason is given ('hwprof stat -e NAME' says it in full).\n"
	"\n"
	"PATTERN is a case-insensitive substring, or a glob with * and ?.\n"
	"\n";

enum { OPT_TOPOLOGY = CLI_OPT_LONG, OPT_NO_PROBE, OPT_NAMES, OPT_METRICS };

static const struct cli_option list_options[] = {
	CLI_OPT(OPT_TOPOLOGY, "topology", NULL,
		"the online CPUs instead: each one's core, die, socket and NUMA\n"
		"node, from sysfs, as stat --per-core... groups them"),
	CLI_OPT(OPT_METRICS, "metrics", NULL,
		"the named metrics instead, of this CPU's model (or\n"
		"LIBPFM_FORCE_PMU's), for stat -M: unit, formula, source"),
	CLI_OPT(OPT_NO_PROBE, "no-probe", NULL, "do not try to open the events"),
	CLI_OPT(OPT_NAMES, "names", NULL,
		"print the names alone, one a line (for scripts)"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_END,
};

static const char list_tail[] =
	"\n"
	"Exit status: 0; 1 when PATTERN matches no event, or for other failures; 2 for a\n"
	"usage error.\n"
	"\n"
	"The full manual: man hwprof-list\n";

struct list_ctx {
	bool probe;
	bool names_only;
	bool topology;		/* --topology: the CPUs, not the events */
	bool metrics;		/* --metrics: the named metrics, not the events */
	/* One tracepoint answers for the others (they differ in nothing the
	 * kernel checks at the open), as each open costs the kernel ~25 ms to
	 * tear down: 1 when tried, with its result. */
	bool tracepoint_tried;
	int tracepoint_err;
	char section[128];
	size_t count;
	size_t opens;
};

static const char *section_title(const struct hwp_event_desc *ev, char *buf, size_t size)
{
	if (!strcmp(ev->pmu, "hardware"))
		return "Hardware events (perf's generic names)";
	if (!strcmp(ev->pmu, "cache"))
		return "Hardware cache events (perf's generic names)";
	if (!strcmp(ev->pmu, "software"))
		return "Software events (perf's generic names)";
	if (!strcmp(ev->pmu, "tracepoint"))
		return "Tracepoints (tracefs)";
	snprintf(buf, size, "%s PMU '%s'",
		 ev->source == HWP_SOURCE_PMU ? "The kernel's" : "libpfm4", ev->pmu);
	return buf;
}

/* Whether @ev opens: tried for every event but tracepoints, of which one
 * is tried for all; ftrace's own events (ftrace:function...) have rules of
 * their own and are each tried. */
static int probe(struct list_ctx *lc, const struct hwp_event_desc *ev)
{
	if (ev->source != HWP_SOURCE_TRACEPOINT || !strncmp(ev->name, "ftrace:", 7))
		return hwp_event_probe(ev->name);
	if (!lc->tracepoint_tried) {
		lc->tracepoint_tried = true;
		lc->tracepoint_err = hwp_event_probe(ev->name);
	}
	return lc->tracepoint_err;
}

static int list_one(const struct hwp_event_desc *ev, void *arg)
{
	struct list_ctx *lc = arg;
	char title[128], status[64] = "";
	const char *t;

	lc->count++;
	if (lc->names_only) {
		puts(ev->name);
		return 0;
	}
	t = section_title(ev, title, sizeof(title));
	if (strcmp(t, lc->section)) {
		printf("%s%s:\n", lc->section[0] ? "\n" : "", t);
		snprintf(lc->section, sizeof(lc->section), "%s", t);
	}
	if (lc->probe) {
		int err = probe(lc, ev);

		if (!err) {
			snprintf(status, sizeof(status), "yes");
			lc->opens++;
		} else {
			list_short_reason(err, status, sizeof(status));
		}
	}
	printf("  %-40s %-26s %s\n", ev->name, status, ev->desc);
	return ferror(stdout) ? -EIO : 0;
}

/* The topology, one CPU a line, in the columns of lscpu -p (CPU, core,
 * socket, node) and the die. */
static int list_topology(void)
{
	struct hwp_topology *t;
	int err = hwp_topology_load(NULL, &t);

	if (err) {
		cli_lib_error("list", err);
		return CLI_EXIT_FAILURE;
	}
	printf("%5s %5s %5s %5s %5s\n", "cpu", "core", "die", "socket", "node");
	for (size_t i = 0; i < hwp_topology_nr_cpus(t); i++) {
		struct hwp_cpu_info c = { .sz = sizeof(c) };

		hwp_topology_cpu(t, i, &c);
		printf("%5d %5d %5d %5d %5d\n", c.cpu, c.core, c.die, c.package, c.node);
	}
	hwp_topology_free(t);
	return cli_flush_stdout("list") ? CLI_EXIT_FAILURE : 0;
}

static int list_option(void *ctx, int key, char *arg)
{
	struct list_ctx *lc = ctx;

	(void)arg;
	switch (key) {
	case OPT_NO_PROBE: lc->probe = false; break;
	case OPT_NAMES: lc->names_only = true; lc->probe = false; break;
	case OPT_TOPOLOGY: lc->topology = true; break;
	case OPT_METRICS: lc->metrics = true; break;
	}
	return 0;
}

static int list_run(int argc, char **argv)
{
	struct list_ctx lc = { .probe = true };
	const char *pattern = NULL;
	bool help;
	int err;

	err = cli_parse_options(&cli_cmd_list, argc, argv, list_option, &lc, &help);
	if (err || help)
		return err ?: cli_show_help(&cli_cmd_list);
	if (lc.topology && optind < argc) {
		cli_error("list", "--topology lists CPUs: no pattern");
		return CLI_EXIT_USAGE;
	}
	if (lc.topology)
		return list_topology();
	if (lc.metrics && optind < argc) {
		cli_error("list", "--metrics lists them all: no pattern");
		return CLI_EXIT_USAGE;
	}
	if (lc.metrics)
		return list_metrics(lc.names_only, lc.probe);
	if (optind < argc)
		pattern = argv[optind++];
	if (optind < argc) {
		cli_error("list", "one pattern at most; '%s' is one too many",
			  argv[optind]);
		return CLI_EXIT_USAGE;
	}
	err = hwp_events_foreach(pattern, list_one, &lc);
	if (err && err != -EIO) {
		cli_lib_error("list", err);
		return CLI_EXIT_FAILURE;
	}
	if (!lc.names_only && lc.count && lc.probe)
		printf("\n%zu events, %zu of them open on this machine now.\n", lc.count,
		       lc.opens);
	if (!lc.count && !lc.names_only)
		printf("No event matches '%s'.\n", pattern ? pattern : "");
	return cli_flush_stdout("list") ? CLI_EXIT_FAILURE :
	       (lc.count || !pattern ? 0 : 1);
}

const struct cli_cmd cli_cmd_list = {
	.name = "list",
	.summary = "List the events this machine knows, and whether each opens",
	.usage = list_usage,
	.options = list_options,
	.tail = list_tail,
	.help_width = 19,
	.run = list_run,
};
