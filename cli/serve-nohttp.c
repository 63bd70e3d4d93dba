// SPDX-License-Identifier: MIT
/* hwprof serve in a build without libmicrohttpd: it says so. */
#include "serve.h"

int serve_http_run(struct serve *sv, const struct serve_config *cfg)
{
	(void)sv;
	(void)cfg;
	cli_error("serve", "this hwprof was built without libmicrohttpd, which serve answers HTTP with: install it (apt-get install libmicrohttpd-dev) and build again (meson setup --reconfigure BUILD)");
	return CLI_EXIT_FAILURE;
}
