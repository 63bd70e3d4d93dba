// SPDX-License-Identifier: MIT
/* The DWARF unwinder on crafted samples: the input is the user registers
 * (the host's set, as the recorder asks for them) and then the stack's
 * copy, every byte the file's. The instruction pointer is folded into the
 * one module mapped, this program itself (/proc/self/exe, which has
 * .eh_frame_hdr), and the stack pointer into a fixed stack, so that most
 * inputs reach libunwind's tables and the accessors' bounds. */
#include "profile/profile.h"
#include "fuzz.h"

#include <sys/stat.h>

#define MAP_START 0x10000000ULL
#define STACK_START 0x7ff000000000ULL

static struct machine *m;
static struct symbolizer *sym;
static struct unwinder *unw;
static uint64_t map_len;
static uint64_t ips[PROFILE_MAX_FRAMES];

/* An MMAP2 record of @path over [MAP_START, MAP_START + @len) for pid 1. */
static void map_module(const char *path, uint64_t len)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
		char name[64];
	} r = { .h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, sizeof(r) },
		.pid = 1, .tid = 1, .start = MAP_START, .len = len, .prot = 5 };

	snprintf(r.name, sizeof(r.name), "%s", path);
	if (machine_apply(m, &r.h))
		abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct stat st;

	(void)argc;
	(void)argv;
	hwp_log_set_level(HWP_LOG_ERROR);
	if (stat("/proc/self/exe", &st) || machine_new(&m) ||
	    symbolizer_new(m, "", &sym))
		abort();
	map_len = ((uint64_t)st.st_size + 4095) & ~4095ULL;
	map_module("/proc/self/exe", map_len);
	if (unwinder_new(m, sym, &unw) && unwind_unavailable() == NULL)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct regs_arch *a = regs_arch_host();
	struct pd_sample s = { .pid = 1, .tid = 1, .cpumode = PERF_RECORD_MISC_USER };
	struct unwind_result res;
	uint64_t *regs, v;
	size_t nr, n;
	int ip, sp;

	if (!unw || !a)
		return 0;
	nr = (size_t)__builtin_popcountll(a->user_mask);
	if (size < nr * 8)
		return 0;
	regs = malloc(nr * 8);
	if (!regs)
		abort();
	memcpy(regs, data, nr * 8);
	s.regs_abi = sizeof(void *) == 8 ? PERF_SAMPLE_REGS_ABI_64 :
					   PERF_SAMPLE_REGS_ABI_32;
	s.regs_mask = a->user_mask;
	s.nr_regs = nr;
	s.regs = regs;
	/* the registers' places in the set, found as the decoder finds them */
	ip = a->perf_of_dwarf[a->ip];
	sp = a->perf_of_dwarf[a->sp];
	FUZZ_ASSERT(!regs_value(a, &s, ip, &v));
	regs[__builtin_popcountll(a->user_mask & ((1ULL << ip) - 1))] =
		MAP_START + v % map_len;
	FUZZ_ASSERT(!regs_value(a, &s, sp, &v));
	regs[__builtin_popcountll(a->user_mask & ((1ULL << sp) - 1))] =
		STACK_START + (v & 0xff8);
	s.stack = data + nr * 8;
	s.stack_size = s.stack_dyn_size = (size - nr * 8) & ~(size_t)7;
	n = unwind_sample(unw, &s, ips, PROFILE_MAX_FRAMES, &res);
	FUZZ_ASSERT(n <= PROFILE_MAX_FRAMES);
	FUZZ_ASSERT(res.end <= UNWIND_FAILED);
	FUZZ_ASSERT(res.end != UNWIND_STACK_SHORT || res.need > s.stack_dyn_size);
	free(regs);
	return 0;
}
