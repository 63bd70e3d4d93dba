// SPDX-License-Identifier: MIT
/* A program that measures a region and leaves the saving to the library's
 * at-exit writer ($HWPROF_OUTPUT): what a benchmark does that was linked
 * with libhwprof and never calls hwp_region_save(). */
#include <hwprof/hwprof.h>

#include <stdio.h>

int main(void)
{
	volatile unsigned long sum = 0;

	hwp_region_begin("work");
	for (unsigned long i = 0; i < 100000; i++)
		sum += i;
	hwp_region_end("work");
	printf("done %lu\n", sum);
	return 0;
}
