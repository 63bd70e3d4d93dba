// SPDX-License-Identifier: MIT
/* Which samples' user part is unwound from their registers and stack
 * (regs_unwound): perf's and hwprof's --call-graph dwarf, but not x86-64's
 * -g, whose few words of the stack find a leaf's caller and whose chains
 * keep their user part, nor arm64's -g with its link register. */
#include "sample/sample.h"
#include "harness.h"

#include <elf.h>
#include <linux/perf_event.h>

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

#define CHAIN PERF_SAMPLE_CALLCHAIN
#define REGS PERF_SAMPLE_REGS_USER
#define STACK PERF_SAMPLE_STACK_USER

static void check_unwound(void)
{
	static const struct {
		const char *what;
		uint64_t sample_type;
		bool exclude_user, unwound;
	} rows[] = {
		{ "--call-graph dwarf", CHAIN | REGS | STACK, true, true },
		{ "registers and stack, no chain", REGS | STACK, false, true },
		{ "x86-64's -g", CHAIN | STACK, false, false },
		{ "-g with registers and stack", CHAIN | REGS | STACK, false, false },
		{ "arm64's -g", CHAIN | REGS, false, false },
		{ "a stack without registers", CHAIN | STACK, true, false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct perf_event_attr a = {
			.sample_type = rows[i].sample_type,
			.exclude_callchain_user = rows[i].exclude_user,
		};

		CHECK(regs_unwound(&a) == rows[i].unwound, "%s: unwound %d", rows[i].what,
		      regs_unwound(&a));
	}
}

/* What -g asks for: arm64's link register and no stack, x86-64's stack
 * and no register (perf reads the pair as --call-graph dwarf's). */
static void check_fp_sets(void)
{
	const struct regs_arch *x86 = regs_arch_of(EM_X86_64);
	const struct regs_arch *arm64 = regs_arch_of(EM_AARCH64);

	CHECK(x86 && !x86->fp_mask && x86->fp_stack == 128, "x86-64: %#llx, %u bytes",
	      x86 ? (unsigned long long)x86->fp_mask : 0, x86 ? x86->fp_stack : 0);
	CHECK(arm64 && arm64->fp_mask && !arm64->fp_stack, "arm64: %#llx, %u bytes",
	      arm64 ? (unsigned long long)arm64->fp_mask : 0,
	      arm64 ? arm64->fp_stack : 0);
}

int main(void)
{
	t_init();
	t_run(check_unwound);
	t_run(check_fp_sets);
	return t_done();
}
