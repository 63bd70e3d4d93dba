// SPDX-License-Identifier: MIT
/* Reading a counter from user space with rdpmc, through the event's mmap'ed
 * page and its seqlock, as include/uapi/linux/perf_event.h describes. Only
 * for the calling thread's own events, and only while the event is on a
 * hardware counter and not multiplexed; otherwise the caller read()s. */
#include "hwprof-internal.h"

#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)

static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

#define barrier() __asm__ volatile("" ::: "memory")

bool hwp_rdpmc_arch(void)
{
	return true;
}

int hwp_rdpmc_read(const void *page, struct hwp_count *c)
{
	const volatile struct perf_event_mmap_page *pc = page;
	uint64_t enabled, running, cyc = 0, time_offset = 0, time_cycles = 0, time_mask = ~0ULL;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0, width = 0;
	bool user_time, user_rdpmc, time_short;
	int64_t count;
	uint64_t pmc = 0;

	do {
		seq = pc->lock;
		barrier();
		enabled = pc->time_enabled;
		running = pc->time_running;
		user_time = pc->cap_user_time;
		time_short = pc->cap_user_time_short;
		if (user_time) {
			cyc = rdtsc();
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			if (time_short) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}
		idx = pc->index;
		count = pc->offset;
		user_rdpmc = pc->cap_user_rdpmc;
		if (user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = rdpmc(idx - 1);
		}
		barrier();
	} while (pc->lock != seq);

	/* Not on a counter now, multiplexed, or no clock to bring the times up
	 * to date: the caller falls back to read(). */
	if (!user_rdpmc || !idx || !width || width > 64 || enabled != running || !user_time)
		return -EAGAIN;
	/* Sign-extend the counter's width, then add the kernel's offset. */
	pmc <<= 64 - width;
	count += (int64_t)pmc >> (64 - width);
	if (time_short)
		cyc = time_cycles + ((cyc - time_cycles) & time_mask);
	{
		uint64_t quot = cyc >> time_shift;
		uint64_t rem = cyc & (((uint64_t)1 << time_shift) - 1);
		uint64_t delta = time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);

		enabled += delta;
		running += delta;
	}
	c->value = (uint64_t)count;
	c->time_enabled = enabled;
	c->time_running = running;
	return 0;
}

#else

bool hwp_rdpmc_arch(void)
{
	return false;
}

int hwp_rdpmc_read(const void *page, struct hwp_count *c)
{
	(void)page;
	(void)c;
	return -EAGAIN;
}

#endif

void *hwp_rdpmc_map(int fd)
{
	long size = sysconf(_SC_PAGESIZE);
	/* MAP_POPULATE: the first read on the hot path must not fault. */
	void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

void hwp_rdpmc_unmap(void *page)
{
	if (page)
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
}
