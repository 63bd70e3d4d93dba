// SPDX-License-Identifier: MIT
/* The workload's child allocates nothing between fork and exec, pinned or
 * not: tests/shim/fork-malloc-shim.c (preloaded) ends with status 99 a
 * child that does. */
#include "core/core.h"
#include "harness.h"

#include <sys/wait.h>

static void run(const char *cpus)
{
	HWP_OPTS(hwp_workload_opts, o, .cpus = cpus);
	char *argv[] = { "true", NULL };
	struct hwp_workload *w;
	int status = -1;

	CHECK_ERR(hwp_workload_new(argv, &o, &w), 0);
	CHECK_ERR(hwp_workload_start(w), 0);
	CHECK_ERR(hwp_workload_wait(w, &status), 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "true%s%s: status %d (99: the child allocated before exec)",
	      cpus ? " pinned to " : "", cpus ? cpus : "", status);
	hwp_workload_free(w);
}

int main(void)
{
	const char *preload = getenv("LD_PRELOAD");

#if defined(__SANITIZE_ADDRESS__)
	t_skip("a malloc interposer cannot run beside AddressSanitizer's allocator");
#endif
	if (!preload || !strstr(preload, "fork-malloc-shim"))
		t_skip("the fork-malloc shim is not preloaded (run through meson test)");
	t_init();
	run(NULL);
	run("0");
	return t_done();
}
