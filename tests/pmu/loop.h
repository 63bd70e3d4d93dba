/* SPDX-License-Identifier: MIT */
/* A loop of exactly two instructions an iteration, in assembly so that no
 * compiler changes it: the known work of the hardware-counter tests. The
 * function that holds it must not be inlined, so that samples and counts
 * name it and its cost around the loop stays the same. */
#ifndef HWPROF_TEST_PMU_LOOP_H
#define HWPROF_TEST_PMU_LOOP_H

#include <stdint.h>

#define INSNS_PER_ITER 2

#if defined(__aarch64__)
#define LOOP_ASM "cbz %0, 2f\n1:\tsubs %0, %0, #1\n\tb.ne 1b\n2:"
#elif defined(__x86_64__)
#define LOOP_ASM "test %0, %0\n\tjz 2f\n1:\tsub $1, %0\n\tjnz 1b\n2:"
#else
#error "the hardware-counter tests know the loops of aarch64 and x86-64 only"
#endif

#define LOOP_BODY(n) __asm__ volatile(LOOP_ASM : "+r"(n) : : "cc")

#endif
