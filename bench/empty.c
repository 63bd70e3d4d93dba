// SPDX-License-Identifier: MIT
/* A program that does nothing: built twice, with libc alone and with
 * libhwprof loaded too (nothing of it called: its one reference is never
 * bound), so that bench/run.sh can time what loading the library costs
 * beside bench/stat-floor: the share of 'hwprof stat -- true' that the
 * shared library's design spends before main() (BENCHMARKS.md, issue 25). */
#ifdef WITH_HWPROF
#include <hwprof/hwprof.h>
#endif

int main(int argc, char **argv)
{
	(void)argv;
#ifdef WITH_HWPROF
	/* Never true when run as the benchmark runs it: a reference the linker
	 * keeps (--as-needed would drop a library nothing refers to). */
	if (argc > 1000)
		return hwp_version()[0];
#endif
	(void)argc;
	return 0;
}
