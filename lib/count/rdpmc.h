/* SPDX-License-Identifier: MIT */
/* The arithmetic of a user-space counter read, the same on every
 * architecture (include/uapi/linux/perf_event.h describes it): retry while
 * the page's seqlock moves, sign-extend the hardware counter from
 * pmc_width bits, add the kernel's offset, and bring time_enabled and
 * time_running up to date from the clock the page describes. Only the two
 * instructions differ: rdpmc and rdtsc on x86, mrs of PMEVCNTR<n>_EL0 (or
 * PMCCNTR_EL0) and CNTVCT_EL0 on arm64. They come in as functions, which
 * the compiler inlines into rdpmc.c's reader; the unit test passes fakes
 * and a fabricated page, so that everything but the instructions is
 * checked on machines that cannot run them. */
#ifndef HWPROF_RDPMC_H
#define HWPROF_RDPMC_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include <hwprof/hwprof.h>

#define upage_barrier() __asm__ volatile("" ::: "memory")

/* Hardware counter @idx (the page's index minus one). */
typedef uint64_t (*upage_pmc_fn)(uint32_t idx);
/* The clock of the page's time_* fields (TSC, CNTVCT_EL0). */
typedef uint64_t (*upage_clock_fn)(void);

/*
 * Read the counter of @pc into @c: 0, or -EAGAIN when the event is not on a
 * hardware counter now, is multiplexed (its counts must be scaled, which
 * needs the kernel's times), or the page gives no clock: read() instead.
 */
static inline int upage_read(const volatile struct perf_event_mmap_page *pc,
			     upage_pmc_fn read_pmc, upage_clock_fn read_clock,
			     struct hwp_count *c)
{
	uint64_t enabled, running, cyc = 0, time_offset = 0, time_cycles = 0;
	uint64_t time_mask = ~0ULL, pmc = 0;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0, width = 0;
	bool user_time, user_rdpmc, time_short;
	int64_t count;

	do {
		seq = pc->lock;
		upage_barrier();
		enabled = pc->time_enabled;
		running = pc->time_running;
		user_time = pc->cap_user_time;
		time_short = pc->cap_user_time_short;
		if (user_time) {
			cyc = read_clock();
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			if (time_short) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}
		idx = pc->index;
		count = (int64_t)pc->offset;
		user_rdpmc = pc->cap_user_rdpmc;
		if (user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = read_pmc(idx - 1);
		}
		upage_barrier();
	} while (pc->lock != seq);

	if (!user_rdpmc || !idx || !width || width > 64 || enabled != running ||
	    !user_time || time_shift > 63)
		return -EAGAIN;
	/* Sign-extend the counter's width, then add the kernel's offset. */
	pmc <<= 64 - width;
	count += (int64_t)pmc >> (64 - width);
	/* A clock narrower than 64 bits (arm64's) wraps: count from its base. */
	if (time_short)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	{
		uint64_t quot = cyc >> time_shift;
		uint64_t rem = cyc & (((uint64_t)1 << time_shift) - 1);
		uint64_t delta = time_offset + quot * time_mult +
					 ((rem * time_mult) >> time_shift);

		enabled += delta;
		running += delta;
	}
	c->value = (uint64_t)count;
	c->time_enabled = enabled;
	c->time_running = running;
	return 0;
}

#endif
