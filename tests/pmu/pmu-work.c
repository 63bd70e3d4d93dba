// SPDX-License-Identifier: MIT
/* Work with an exactly known instruction count, for the hardware-counter
 * tests: its loops are two instructions an iteration, written in assembly
 * so that no compiler changes them, and it is linked statically so that
 * its start-up is short and the same every run. Arguments are parsed by a
 * loop that costs the same for every digit, so runs whose numbers have
 * the same length differ in instructions by exactly twice the difference
 * in iterations.
 *
 *   pmu-work loop N        N iterations: 2N instructions
 *   pmu-work split A B     A iterations in pmu_heavy(), then B in pmu_light()
 */
#include <stdint.h>
#include <string.h>

#if defined(__aarch64__)
#define LOOP_ASM "cbz %0, 2f\n1:\tsubs %0, %0, #1\n\tb.ne 1b\n2:"
#elif defined(__x86_64__)
#define LOOP_ASM "test %0, %0\n\tjz 2f\n1:\tsub $1, %0\n\tjnz 1b\n2:"
#else
#error "pmu-work knows the loops of aarch64 and x86-64 only"
#endif

void pmu_loop(uint64_t n);
void pmu_heavy(uint64_t n);
void pmu_light(uint64_t n);

/* Each function has its loop, so that samples name the function. */
__attribute__((noinline)) void pmu_loop(uint64_t n)
{
	__asm__ volatile(LOOP_ASM : "+r"(n) : : "cc");
}

__attribute__((noinline)) void pmu_heavy(uint64_t n)
{
	__asm__ volatile(LOOP_ASM : "+r"(n) : : "cc");
}

__attribute__((noinline)) void pmu_light(uint64_t n)
{
	__asm__ volatile(LOOP_ASM : "+r"(n) : : "cc");
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
