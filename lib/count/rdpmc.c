// SPDX-License-Identifier: MIT
/* Reading a counter from user space, through the event's mmap'ed page and
 * its seqlock (rdpmc.h has the arithmetic): rdpmc on x86, mrs on arm64.
 * Only for the calling thread's own events, and only while the event is on
 * a hardware counter and not multiplexed; otherwise the caller read()s. */
#include "core/core.h"
#include "count/count.h"
#include "count/rdpmc.h"

#include <dirent.h>
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

/* 0: never; 1: for tasks with a perf mmap (the default); 2: always. */
#define USER_READ_KNOB "/sys/bus/event_source/devices/cpu/rdpmc"
#define USER_READ_FIX "echo 1 > " USER_READ_KNOB

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
#define USER_READ_KNOB "/proc/sys/kernel/perf_user_access"
#define USER_READ_FIX "sysctl -w kernel.perf_user_access=1"

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

#define PMU_DIR "/sys/bus/event_source/devices"
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

static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	return ok;
}

/* "config1:1" or "config1:3-4": which config word and which bits. */
static bool parse_format(const char *s, int *config, uint64_t *mask)
{
	unsigned int lo, hi;
	int word = 0, n = 0;

	if (sscanf(s, "config:%u%n", &lo, &n) == 1)
		word = 0;
	else if (sscanf(s, "config%d:%u%n", &word, &lo, &n) == 2 &&
		 word >= 1 && word <= 2)
		;
	else
		return false;
	hi = lo;
	sscanf(s + n, "-%u", &hi);
	if (lo > 63 || hi > 63 || hi < lo)
		return false;
	*config = word;
	*mask = (hi == 63 ? ~0ULL : ((1ULL << (hi + 1)) - 1)) & ~((1ULL << lo) - 1);
	return true;
}

static void find_rdpmc_formats(void)
{
	DIR *d = opendir(PMU_DIR);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && ask.nr < MAX_RDPMC_PMUS) {
		char path[512], line[64];
		unsigned int type;
		int config;
		uint64_t mask;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/format/rdpmc", de->d_name);
		if (!read_line(path, line, sizeof(line)) ||
		    !parse_format(line, &config, &mask))
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/type", de->d_name);
		if (!read_line(path, line, sizeof(line)) ||
		    sscanf(line, "%u", &type) != 1)
			continue;
		if (ask.nr && (config != ask.config || mask != ask.mask))
			continue;	/* PMUs that disagree: ask only the first kind */
		ask.config = config;
		ask.mask = mask;
		ask.types[ask.nr++] = type;
	}
	closedir(d);
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

bool rdpmc_allowed(struct strbuf *why)
{
#ifdef HAVE_USER_READ
	char line[32];
	int knob;

	if (!read_line(USER_READ_KNOB, line, sizeof(line)) ||
	    sscanf(line, "%d", &knob) != 1) {
#if defined(__aarch64__)
		if (why)
			strbuf_adds(why, "this kernel cannot let user space read the PMU's counters (arm64 needs Linux 5.17 or later): counters are read with read()");
		return false;
#else
		return true;	/* no knob: the kernel's default, allowed */
#endif
	}
	if (knob == 0) {
		if (why)
			strbuf_addf(why, "%s is 0: counters are read with read(), a system call each; '%s' lets hwprof read them in user space",
				    USER_READ_KNOB, USER_READ_FIX);
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
