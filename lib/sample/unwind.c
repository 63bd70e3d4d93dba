// SPDX-License-Identifier: MIT
/* DWARF unwinding of sampled user stacks (PERF_SAMPLE_STACK_USER and
 * PERF_SAMPLE_REGS_USER, unwound with libunwind) comes later. The recorder
 * already asks here, so that the option and its error exist today. */
#include "sample/sample.h"

int unwind_available(void)
{
#ifdef HAVE_LIBUNWIND
	return 1;
#else
	return 0;
#endif
}
