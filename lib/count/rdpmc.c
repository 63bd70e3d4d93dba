// SPDX-License-Identifier: MIT
/* Reading a counter from user space, through the event's mmap'ed page and
 * its seqlock (rdpmc.h has the arithmetic): rdpmc on x86, mrs on arm64.
 * Only for the calling thread's own events, and only while the event is on
 * a hardware counter and not multiplexed; otherwise the caller read()s. */
#include "core/core.h"
#include "count/count.h"
#include "count/rdpmc.h"
#include "event/event.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)

#define HAVE_USER_READ 1

static inline uint64_t arch_read_pmc(uint32_t counter)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}

static inline uint64_t arch_read_clock(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}

/* The core PMU's file rdpmc. 0: never; 1: for tasks with a perf mmap
 * (the default); 2: always. */
#define USER_READ_PMU "cpu"

#elif defined(__aarch64__)

#define HAVE_USER_READ 1

/* The counter's number is part of the instruction: one mrs each. Index 31
 * is the cycle counter (the kernel's page says 32 for it). */
static inline uint64_t arch_read_pmc(uint32_t counter)
{
	uint64_t v = 0;

	switch (counter) {
#define PMEV(n)                                                           \
	case n:                                                           \
		__asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); \
		break;
		PMEV(0) PMEV(1) PMEV(2) PMEV(3) PMEV(4) PMEV(5) PMEV(6) PMEV(7)
		PMEV(8) PMEV(9) PMEV(10) PMEV(11) PMEV(12) PMEV(13) PMEV(14) PMEV(15)
		PMEV(16) PMEV(17) PMEV(18) PMEV(19) PMEV(20) PMEV(21) PMEV(22) PMEV(23)
		PMEV(24) PMEV(25) PMEV(26) PMEV(27) PMEV(28) PMEV(29) PMEV(30)
#undef PMEV
	case 31:
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	}
	return v;
}

/* The virtual counter, which the page's time fields describe; the isb keeps
 * the read from being hoisted above the seqlock's load. */
static inline uint64_t arch_read_clock(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

/* 0 (the default): never; 1: for events opened with the PMU's rdpmc bit. */
#define USER_READ_SYSCTL "kernel.perf_user_access"

#endif

#ifdef HAVE_USER_READ

bool rdpmc_arch(void)
{
	return true;
}

int rdpmc_read(const void *page, struct hwp_count *c)
{
	return upage_read(page, arch_read_pmc, arch_read_clock, c);
}

#else

bool rdpmc_arch(void)
{
	return false;
}

int rdpmc_read(const void *page, struct hwp_count *c)
{
	(void)page;
	(void)c;
	return -EAGAIN;
}

#endif

/* ---- whether the kernel lets this process read counters, and how to ask ---- */

#define MAX_RDPMC_PMUS 16

/* PMUs whose events must ask for user-space reads (arm64's format field
 * "rdpmc", config1:1), read from sysfs once. */
static struct {
	uint32_t types[MAX_RDPMC_PMUS];
	size_t nr;
	int config;		/* 0: config, 1: config1, 2: config2 */
	uint64_t mask;
} ask;
static pthread_once_t ask_once = PTHREAD_ONCE_INIT;

static int note_rdpmc_format(const char *pmu, void *ctx)
{
	uint32_t type;
	uint64_t mask;
	int config;

	(void)ctx;
	if (pmu_format(pmu, "rdpmc", &config, &mask) || pmu_type(pmu, &type))
		return 0;
	if (ask.nr && (config != ask.config || mask != ask.mask))
		return 0;	/* PMUs that disagree: ask only the first kind */
	ask.config = config;
	ask.mask = mask;
	ask.types[ask.nr++] = type;
	return ask.nr == MAX_RDPMC_PMUS;
}

static void find_rdpmc_formats(void)
{
	pmu_foreach_pmu(note_rdpmc_format, NULL);
}

void rdpmc_request(struct perf_event_attr *attr)
{
	bool core = attr->type == PERF_TYPE_HARDWARE ||
		    attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW;
	bool mine = false;

	pthread_once(&ask_once, find_rdpmc_formats);
	for (size_t i = 0; i < ask.nr; i++)
		mine |= attr->type == ask.types[i];
	if (!ask.nr || (!core && !mine))
		return;
	if (ask.config == 0)
		attr->config |= ask.mask;
	else if (ask.config == 1)
		attr->config1 |= ask.mask;
	else
		attr->config2 |= ask.mask;
}

#ifdef HAVE_USER_READ
/* The knob that lets user space read counters: its path, for messages, and
 * its value; -ENOENT when the kernel has none. */
static int read_user_read_knob(char *path, size_t size, int *knob)
{
	char dir[4096], line[32];
	const char *rel;

#if defined(__aarch64__)
	snprintf(dir, sizeof(dir), "/proc/sys/kernel");
	rel = "perf_user_access";
#else
	pmu_path(dir, sizeof(dir), USER_READ_PMU);
	rel = "rdpmc";
#endif
	snprintf(path, size, "%s/%s", dir, rel);
	if (read_first_line(dir, rel, line, sizeof(line)) ||
	    sscanf(line, "%d", knob) != 1)
		return -ENOENT;
	return 0;
}
#endif

bool rdpmc_allowed(struct strbuf *why)
{
#ifdef HAVE_USER_READ
	char path[4200];
	int knob;

	if (read_user_read_knob(path, sizeof(path), &knob)) {
#if defined(__aarch64__)
		if (why)
			strbuf_adds(why, "this kernel cannot let user space read the PMU's counters (arm64 needs Linux 5.17 or later): counters are read with read()");
		return false;
#else
		return true;	/* no knob: the kernel's default, allowed */
#endif
	}
	if (knob == 0) {
#if defined(__aarch64__)
		if (why)
			strbuf_addf(why, "%s is 0: counters are read with read(), a system call each; 'sysctl -w %s=1' lets hwprof read them in user space",
				    path, USER_READ_SYSCTL);
#else
		if (why)
			strbuf_addf(why, "%s is 0: counters are read with read(), a system call each; 'echo 1 > %s' lets hwprof read them in user space",
				    path, path);
#endif
		return false;
	}
	return true;
#else
	if (why)
		strbuf_adds(why, "hwprof reads counters in user space on x86 and arm64 only: counters are read with read()");
	return false;
#endif
}

void *rdpmc_map(int fd)
{
	long size = sysconf(_SC_PAGESIZE);
	/* MAP_POPULATE: the first read on the hot path must not fault. */
	void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

void rdpmc_unmap(void *page)
{
	if (page)
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
}
