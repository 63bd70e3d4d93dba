/* SPDX-License-Identifier: MIT */
/* hwprof serve: the counts (serve-counts.c) and the HTTP server that
 * answers scrapes with them (serve-http.c, with libmicrohttpd). */
#ifndef HWPROF_CLI_SERVE_H
#define HWPROF_CLI_SERVE_H

#include "cli.h"

/* The default --listen: loopback, and a fixed port (hwprof-serve(1)). */
#define SERVE_DEFAULT_LISTEN "127.0.0.1:9471"
/* The default -e: the software events any machine counts, and the two
 * hardware ones perf stat -a starts with. */
#define CLI_SERVE_EVENTS \
	"cpu-clock,context-switches,cpu-migrations,page-faults,cycles,instructions"

/* The limits of the HTTP server, each in hwprof-serve(1). */
#define SERVE_MAX_CONNECTIONS 8		/* more wait in the listen queue */
#define SERVE_TIMEOUT_S 10		/* an idle connection is closed */
#define SERVE_REQUEST_MAX 16384		/* bytes of a request's line and headers */

struct serve_config {
	const char *events;
	const char *cpus;		/* NULL: every online CPU */
	struct cli_list cgroups;	/* -G, comma-separated */
	/* --cgroup-root: its children, found again at each scrape */
	const char *cgroup_root;
	const char *listen;
};

struct serve;

/* Parse the events and open the counters: 0 or an exit status, said. */
int serve_new(const struct serve_config *cfg, struct serve **out);
void serve_free(struct serve *sv);
/* The answer to a scrape: *@body (malloc'ed) of *@len bytes. Finds the
 * cgroups again first. 0 or a negative errno, the message in hwp_errmsg(). */
int serve_render(struct serve *sv, bool openmetrics, char **body, size_t *len);

/* Serve @sv on @cfg->listen until SIGINT or SIGTERM: 0 or an exit status. */
int serve_http_run(struct serve *sv, const struct serve_config *cfg);

#endif
