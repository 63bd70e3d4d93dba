// SPDX-License-Identifier: MIT
/* hwprof serve: a machine's counters, per CPU and cgroup, for Prometheus. */
#include "serve.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>

static const char serve_usage[] =
	"usage: hwprof serve [-e EVENTS] [--listen ADDR:PORT] [-C CPUS]\n"
	"                    [-G CGROUPS | --cgroup-root PATH]\n"
	"\n"
	"Count events on every CPU (or -C's), of every task or per cgroup, and answer\n"
	"GET /metrics with the counts since the start, in Prometheus' text format or\n"
	"OpenMetrics as the scraper's Accept header asks. Runs until SIGINT or SIGTERM.\n"
	"\n";

enum { OPT_LISTEN = CLI_OPT_LONG, OPT_CGROUP_ROOT };

static const struct cli_option serve_options[] = {
	CLI_OPT('e', "event", "EVENTS", "the events (default: software ones, cycles,\n"
		"instructions)"),
	CLI_OPT(OPT_LISTEN, "listen", "ADDR:PORT",
		"where to listen (default: " SERVE_DEFAULT_LISTEN "; port 0: any free)"),
	CLI_OPT('C', "cpu", "CPUS", "these CPUs only (\"0-3,6\")"),
	CLI_OPT('G', "cgroup", "CGROUPS", "per cgroup (cgroup v2 paths, a comma's list)"),
	CLI_OPT(OPT_CGROUP_ROOT, "cgroup-root", "PATH",
		"per cgroup under PATH (\"system.slice\"), found at each scrape"),
	CLI_OPT('h', "help", NULL, "this text"),
	CLI_OPT_END,
};

static const char serve_tail[] =
	"\n"
	"Exit status: 0 after SIGINT or SIGTERM, 2 for a usage error, 1 for other failures.\n"
	"\n"
	"The full manual: man hwprof-serve\n";

static int serve_option(void *ctx, int key, char *arg)
{
	struct serve_config *c = ctx;

	switch (key) {
	case 'e': c->events = arg; break;
	case 'C': c->cpus = arg; break;
	case OPT_LISTEN: c->listen = arg; break;
	case OPT_CGROUP_ROOT: c->cgroup_root = arg; break;
	case 'G':
		if (cli_list_add(&c->cgroups, arg))
			return cli_lib_error("serve", -ENOMEM);
		break;
	}
	return 0;
}

static int serve_run(int argc, char **argv)
{
	struct serve_config cfg = {
		.events = CLI_SERVE_EVENTS, .listen = SERVE_DEFAULT_LISTEN,
	};
	struct serve *sv = NULL;
	bool help;
	int ret;

	ret = cli_parse_options(&cli_cmd_serve, argc, argv, serve_option, &cfg, &help);
	if (ret || help)
		goto out;
	if (optind < argc) {
		cli_error("serve", "'%s': serve takes no arguments", argv[optind]);
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	if (cfg.cgroups.buf && cfg.cgroup_root) {
		cli_error("serve", "-G and --cgroup-root: name the cgroups, or where to find them, not both");
		ret = CLI_EXIT_USAGE;
		goto out;
	}
	ret = serve_new(&cfg, &sv);
	if (!ret)
		ret = serve_http_run(sv, &cfg);
out:
	serve_free(sv);
	free(cfg.cgroups.buf);
	if (!ret && help)
		return cli_show_help(&cli_cmd_serve);
	return ret;
}

const struct cli_cmd cli_cmd_serve = {
	.name = "serve",
	.summary = "Serve a machine's counters, per CPU and cgroup, to Prometheus",
	.usage = serve_usage,
	.options = serve_options,
	.tail = serve_tail,
	.help_width = 26,
	.run = serve_run,
};
