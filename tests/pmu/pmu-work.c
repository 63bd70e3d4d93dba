// SPDX-License-Identifier: MIT
/* Work with an exactly known instruction count, for the hardware-counter
 * tests: its loops are loop.h's, two instructions an iteration, and it is
 * linked statically so that its start-up is short and the same every run.
 * Arguments are parsed by a loop that costs the same for every digit, so
 * runs whose numbers have the same length differ in instructions by
 * exactly twice the difference in iterations.
 *
 *   pmu-work loop N        N iterations: 2N instructions
 *   pmu-work split A B     A iterations in pmu_heavy(), then B in pmu_light()
 */
#include <stdint.h>
#include <string.h>

#include "loop.h"

void pmu_loop(uint64_t n);
void pmu_heavy(uint64_t n);
void pmu_light(uint64_t n);

/* Each function has its loop, so that samples name the function. */
__attribute__((noinline)) void pmu_loop(uint64_t n)
{
	LOOP_BODY(n);
}

__attribute__((noinline)) void pmu_heavy(uint64_t n)
{
	LOOP_BODY(n);
}

__attribute__((noinline)) void pmu_light(uint64_t n)
{
	LOOP_BODY(n);
}

/* Digits only; the same instructions for every digit. */
static uint64_t number(const char *s)
{
	uint64_t n = 0;

	for (; *s; s++)
		n = n * 10 + (uint64_t)(*s - '0');
	return n;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "loop")) {
		pmu_loop(number(argv[2]));
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "split")) {
		pmu_heavy(number(argv[2]));
		pmu_light(number(argv[3]));
		return 0;
	}
	return 2;
}
