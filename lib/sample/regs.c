// SPDX-License-Identifier: MIT
/* The user registers of a DWARF sample (PERF_SAMPLE_REGS_USER), and what a
 * frame-pointer sample keeps to find a leaf's caller (arm64's link
 * register, x86-64's words of the stack): which the recorder asks for,
 * and where each DWARF register lies in a sample. The one place that
 * knows the kernel's register numbers (perf's
 * arch/<arch>/include/uapi/asm/perf_regs.h) and how they map to DWARF's,
 * for every architecture hwprof unwinds. */
#include "sample/sample.h"

#include <elf.h>
#include <string.h>

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

/* x86-64: the kernel's order is AX BX CX DX SI DI BP SP IP FLAGS CS SS DS
 * ES FS GS R8..R15; DWARF's is RAX RDX RCX RBX RSI RDI RBP RSP R8..R15 RIP. */
static const int8_t x86_64_perf_of_dwarf[] = {
	0, 3, 2, 1, 4, 5, 6, 7,			/* rax rdx rcx rbx rsi rdi rbp rsp */
	16, 17, 18, 19, 20, 21, 22, 23,		/* r8..r15 */
	8,					/* rip (return address column) */
};

/* arm64: x0..x30, sp, pc, in the same order in both. */
static const int8_t arm64_perf_of_dwarf[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
};

static const struct regs_arch arches[] = {
	/* perf's PERF_REGS_MASK: every register but the segments DS ES FS GS;
	 * with -g: no register (perf would read a file with both the user
	 * registers and stack as DWARF's, and unwind it), the stack a leaf's
	 * return address is on, above its pushes of callee-saved registers */
	{ EM_X86_64, "x86_64", 0xff0fffULL, 0, 128, 7, 8,
	  x86_64_perf_of_dwarf, ARRAY_SIZE(x86_64_perf_of_dwarf) },
	/* with -g: fp (x29), lr (x30), sp, pc; perf asks for lr alone */
	{ EM_AARCH64, "aarch64", (1ULL << 33) - 1, 0xfULL << 29, 0, 31, 32,
	  arm64_perf_of_dwarf, ARRAY_SIZE(arm64_perf_of_dwarf) },
};

const struct regs_arch *regs_arch_of(int e_machine)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].e_machine == e_machine)
			return &arches[i];
	return NULL;
}

const struct regs_arch *regs_arch_host(void)
{
#if defined(__x86_64__)
	return regs_arch_of(EM_X86_64);
#elif defined(__aarch64__)
	return regs_arch_of(EM_AARCH64);
#else
	return NULL;
#endif
}

int regs_value(const struct regs_arch *a, const struct pd_sample *s, int perf_reg,
	       uint64_t *v)
{
	uint64_t below;

	if (!a || perf_reg < 0 || perf_reg >= 64 || !(s->regs_mask & (1ULL << perf_reg)))
		return -ENOENT;
	below = s->regs_mask & ((1ULL << perf_reg) - 1);
	if ((uint64_t)__builtin_popcountll(below) >= s->nr_regs)
		return -ENOENT;
	memcpy(v, s->regs + __builtin_popcountll(below), sizeof(*v));
	return 0;
}

int regs_dwarf_value(const struct regs_arch *a, const struct pd_sample *s, int dwarf_reg,
		     uint64_t *v)
{
	if (!a || dwarf_reg < 0 || (size_t)dwarf_reg >= a->nr_dwarf)
		return -ENOENT;
	return regs_value(a, s, a->perf_of_dwarf[dwarf_reg], v);
}

bool regs_unwound(const struct perf_event_attr *attr)
{
	uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & both) == both &&
	       (attr->exclude_callchain_user ||
		!(attr->sample_type & PERF_SAMPLE_CALLCHAIN));
}
