// SPDX-License-Identifier: MIT
/* A region called CALLS times whose first call sleeps SLEEP_MS: run with
 * HWPROF_SAMPLE_EVERY=N, the first call is one of the measured ones, and
 * the estimate of the others from it is more than the program ran, which
 * the output must say. */
#include <hwprof/hwprof.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	unsigned long calls, sleep_ms;
	struct timespec ts;

	if (argc != 3) {
		fprintf(stderr, "usage: region-sparse CALLS SLEEP_MS\n");
		return 2;
	}
	calls = strtoul(argv[1], NULL, 10);
	sleep_ms = strtoul(argv[2], NULL, 10);
	ts.tv_sec = (time_t)(sleep_ms / 1000);
	ts.tv_nsec = (long)(sleep_ms % 1000) * 1000000L;
	for (unsigned long i = 0; i < calls; i++) {
		if (hwp_region_begin("sparse")) {
			fprintf(stderr, "region-sparse: %s\n", hwp_errmsg());
			return 1;
		}
		if (i == 0)
			nanosleep(&ts, NULL);
		hwp_region_end("sparse");
	}
	return 0;
}
