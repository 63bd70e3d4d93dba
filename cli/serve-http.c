// SPDX-License-Identifier: MIT
/* hwprof serve's HTTP server, by libmicrohttpd: GET /metrics and /, on
 * one thread of its own (so that the counters are read by one thread at
 * a time), with bounded connections, request size and idle time. The
 * main thread waits for SIGINT or SIGTERM, then stops the server.
 * libmicrohttpd is loaded here, at serve's start, not linked: with its
 * GnuTLS and a dozen libraries more it tripled the start of every other
 * command (hwprof --version: 0.9 ms, 3.9 ms linked). */
#include "serve.h"

#include <dlfcn.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MHD_SONAME "libmicrohttpd.so.12"

#define MHD_FUNCS(X) X(MHD_start_daemon) X(MHD_stop_daemon) X(MHD_get_daemon_info) \
	X(MHD_create_response_from_buffer) X(MHD_add_response_header)             \
	X(MHD_queue_response) X(MHD_destroy_response) X(MHD_lookup_connection_value)
#define MHD_FIELD(fn) __typeof__(fn) *fn;
#define MHD_SYM(fn) { #fn, (void **)&mhd.fn },

static struct {
	MHD_FUNCS(MHD_FIELD)
} mhd;

/* Resolve mhd's functions: 0, or an exit status after saying why not. */
static int mhd_load(void)
{
	static const struct {
		const char *name;
		void **slot;
	} syms[] = { MHD_FUNCS(MHD_SYM) };
	void *h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		cli_error("serve", "libmicrohttpd (%s), which serve answers HTTP with, cannot be loaded: %s; install it with: sudo apt-get install libmicrohttpd12",
			  MHD_SONAME, dlerror());
		return CLI_EXIT_FAILURE;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].slot = dlsym(h, syms[i].name);
		if (!*syms[i].slot) {
			cli_error("serve", "%s lacks %s: libmicrohttpd is too old",
				  MHD_SONAME, syms[i].name);
			return CLI_EXIT_FAILURE;
		}
	}
	return 0;
}

static const char index_page[] =
	"hwprof serve: the counters of this machine, per CPU and cgroup, for Prometheus.\n"
	"\n"
	"GET /metrics: every event's count since hwprof serve started, as the counter\n"
	"hwprof_event_total (clocks: hwprof_event_seconds_total) with the labels event,\n"
	"cpu, cgroup and host, the running ratio hwprof_event_running_ratio beside it,\n"
	"and hwprof_event_supported. OpenMetrics when the Accept header asks for\n"
	"application/openmetrics-text, else the Prometheus text format 0.0.4.\n"
	"\n"
	"man hwprof-serve tells more.\n";

#define CT_PROMETHEUS "text/plain; version=0.0.4; charset=utf-8"
#define CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status,
			     const char *type, char *body, size_t len, bool owned)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.MHD_create_response_from_buffer(len, body, owned ? MHD_RESPMEM_MUST_FREE :
							       MHD_RESPMEM_PERSISTENT);
	if (!r) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.MHD_queue_response(c, status, r);
	mhd.MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *c, unsigned int status, const char *s)
{
	return reply(c, status, "text/plain; charset=utf-8", (char *)s, strlen(s), false);
}

static enum MHD_Result metrics(struct serve *sv, struct MHD_Connection *c)
{
	const char *accept = mhd.MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	bool om = accept && strstr(accept, "application/openmetrics-text");
	char *body = NULL;
	size_t len = 0;

	if (serve_render(sv, om, &body, &len)) {
		cli_warn("serve", "a scrape failed: %s", hwp_errmsg());
		return text(c, MHD_HTTP_INTERNAL_SERVER_ERROR,
			    "hwprof serve: reading the counters failed; its log says why\n");
	}
	return reply(c, MHD_HTTP_OK, om ? CT_OPENMETRICS : CT_PROMETHEUS, body, len,
		     true);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version,
			      const char *upload, size_t *upload_size, void **req)
{
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)req;
	/* Answered at the first call, with the headers: a body is never read
	 * (libmicrohttpd closes the connection after the answer instead). */
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (!strcmp(url, "/metrics"))
		return metrics(cls, c);
	if (!strcmp(url, "/"))
		return text(c, MHD_HTTP_OK, index_page);
	return text(c, MHD_HTTP_NOT_FOUND, "not found: GET /metrics or /\n");
}

/* "ADDR:PORT", "[ADDR6]:PORT": *@ai, from getaddrinfo(). */
static int parse_listen(const char *listen, struct addrinfo **ai)
{
	struct addrinfo hints = {
		.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE,
		.ai_socktype = SOCK_STREAM,
	};
	const char *colon = strrchr(listen, ':');
	char host[256];
	size_t n;
	long port;

	if (!colon || !cli_parse_long(colon + 1, 0, 65535, &port))
		goto err_syntax;
	n = (size_t)(colon - listen);
	if (n > 1 && listen[0] == '[' && listen[n - 1] == ']')
		listen++, n -= 2;
	if (!n || n >= sizeof(host))
		goto err_syntax;
	memcpy(host, listen, n);
	host[n] = '\0';
	if (!getaddrinfo(host, colon + 1, &hints, ai))
		return 0;
err_syntax:
	cli_error("serve", "--listen %s: not ADDR:PORT with a numeric address and a port from 0 to 65535 (127.0.0.1:9471, [::1]:9471, 0.0.0.0:9471 for every address)",
		  listen);
	return CLI_EXIT_USAGE;
}

static struct MHD_Daemon *start(struct serve *sv, const struct addrinfo *ai)
{
	unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD;

	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	unsigned int limit = SERVE_MAX_CONNECTIONS, timeout = SERVE_TIMEOUT_S;
	size_t request_max = SERVE_REQUEST_MAX;

	return mhd.MHD_start_daemon(flags, 0, NULL, NULL, answer, sv,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				MHD_OPTION_CONNECTION_LIMIT, limit,
				MHD_OPTION_CONNECTION_TIMEOUT, timeout,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, request_max,
				MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, MHD_OPTION_END);
}

static void say_listening(struct MHD_Daemon *d, const struct addrinfo *ai)
{
	const union MHD_DaemonInfo *info =
		mhd.MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	char host[NI_MAXHOST];

	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host), NULL, 0,
			NI_NUMERICHOST))
		strcpy(host, "?");
	cli_note("serve", "listening on http://%s%s%s:%u/metrics",
		 ai->ai_family == AF_INET6 ? "[" : "", host,
		 ai->ai_family == AF_INET6 ? "]" : "", info ? info->port : 0);
}

int serve_http_run(struct serve *sv, const struct serve_config *cfg)
{
	struct addrinfo *ai;
	struct MHD_Daemon *d;
	sigset_t stop;
	int ret, sig;

	ret = parse_listen(cfg->listen, &ai);
	if (!ret)
		ret = mhd_load();
	if (ret)
		return ret;
	/* Blocked before the server's thread starts, so that it inherits the
	 * mask and the signals come to sigwait() here. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	d = start(sv, ai);
	if (!d) {
		cli_error("serve", "cannot listen on %s: %s (a port in use, or an address not of this machine: choose another with --listen)",
			  cfg->listen, strerror(errno));
		freeaddrinfo(ai);
		return CLI_EXIT_FAILURE;
	}
	say_listening(d, ai);
	freeaddrinfo(ai);
	while (sigwait(&stop, &sig))
		;
	mhd.MHD_stop_daemon(d);
	return 0;
}
