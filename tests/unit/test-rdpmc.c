// SPDX-License-Identifier: MIT
/* The user-space read's arithmetic (lib/count/rdpmc.h) on fabricated mmap pages,
 * with fake counter and clock instructions: sign extension by pmc_width,
 * the kernel's offset, the time extrapolation (short clocks too), the
 * retry when the seqlock moves, and every reason to fall back to read().
 * The instructions themselves run in the kernel tests on a PMU: the
 * emulated ARMv8 machine of make test-pmu, or x86 hardware. Then what
 * rdpmc.c reads of sysfs, on a fabricated tree (HWPROF_SYSFS_ROOT): the
 * PMUs whose format asks for user-space reads, and x86's rdpmc knob. */
#include "core/core.h"
#include "count/count.h"
#include "count/rdpmc.h"
#include "event/event.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct perf_event_mmap_page page;
static uint64_t fake_pmc, fake_clock;
static uint32_t last_idx;
static int pmc_reads, bump_lock_reads;

/* A counter read that, the first @bump_lock_reads times, finds the page
 * being rewritten: the kernel moved the counter meanwhile. */
static uint64_t read_pmc(uint32_t idx)
{
	last_idx = idx;
	if (pmc_reads++ < bump_lock_reads) {
		page.lock++;
		page.offset += 1000;
	}
	return fake_pmc;
}

static uint64_t read_clock(void)
{
	return fake_clock;
}

static void fresh_page(uint16_t width)
{
	memset(&page, 0, sizeof(page));
	page.lock = 2;
	page.index = 3;		/* counter 2 */
	page.cap_user_rdpmc = 1;
	page.cap_user_time = 1;
	page.pmc_width = width;
	page.time_enabled = 5000;
	page.time_running = 5000;
	page.time_mult = 1;
	page.time_shift = 0;
	page.time_offset = 0;
	fake_clock = 0;
	pmc_reads = 0;
	bump_lock_reads = 0;
}

static int read_page(struct hwp_count *c)
{
	*c = (struct hwp_count){ 0 };
	return upage_read(&page, read_pmc, read_clock, c);
}

static void test_sign_extension(void)
{
	struct hwp_count c;

	/* x86: 48-bit counters; the kernel starts them at -period. */
	fresh_page(48);
	page.offset = 1000000;
	fake_pmc = 0xfffffffffff0ULL;	/* -16 in 48 bits */
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.value == 1000000 - 16, "48 bits: %llu", (unsigned long long)c.value);
	CHECK(last_idx == 2, "the counter is the page's index minus one: %u", last_idx);

	/* Bits above the width are not the counter's: ignored. */
	fake_pmc = 0xabcd000000000005ULL;
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.value == 1000005, "bits above 48 ignored: %llu",
	      (unsigned long long)c.value);

	/* arm64: 32-bit event counters; the kernel's offset is 64-bit. */
	fresh_page(32);
	page.offset = (int64_t)(1ULL << 31) + 100;
	fake_pmc = 0x80000010ULL;	/* -2^31 + 16 */
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.value == 116, "32 bits: %llu", (unsigned long long)c.value);
	fake_pmc = 0x7fffffffULL;	/* the largest positive */
	page.offset = 0;
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.value == 0x7fffffffULL, "32 bits, positive: %llu",
	      (unsigned long long)c.value);

	/* The 64-bit cycle counter, index 32 on arm64. */
	fresh_page(64);
	page.index = 32;
	page.offset = -5;
	fake_pmc = 1ULL << 40;
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.value == (1ULL << 40) - 5, "64 bits: %llu", (unsigned long long)c.value);
	CHECK(last_idx == 31, "arm64's cycle counter is mrs pmccntr_el0, number 31: %u",
	      last_idx);
}

static uint64_t expected_delta(uint64_t offset, uint64_t cyc, uint32_t mult,
			       uint16_t shift)
{
	/* The kernel's formula, computed here in 128 bits: no overflow to fear. */
	return offset + (uint64_t)(((unsigned __int128)cyc * mult) >> shift);
}

static void test_times(void)
{
	struct hwp_count c;
	uint64_t want;

	fresh_page(48);
	page.time_mult = 349525;	/* a 3 GHz TSC: ns = cyc * mult >> 20 */
	page.time_shift = 20;
	page.time_offset = (uint64_t)-1234567;	/* time_offset is often "negative" */
	fake_clock = 1ULL << 50;	/* cyc * mult overflows 64 bits */
	CHECK_ERR(read_page(&c), 0);
	want = expected_delta(page.time_offset, fake_clock, page.time_mult,
			      page.time_shift);
	CHECK(c.time_enabled == 5000 + want && c.time_running == 5000 + want,
	      "extrapolated: enabled %llu running %llu, want %llu",
	      (unsigned long long)c.time_enabled, (unsigned long long)c.time_running,
	      (unsigned long long)(5000 + want));

	/* arm64: a 56-bit CNTVCT_EL0 (cap_user_time_short), counted from
	 * time_cycles within time_mask. */
	fresh_page(32);
	page.cap_user_time_short = 1;
	page.time_cycles = 0xfff0;
	page.time_mask = 0xffff;
	page.time_mult = 1U << 28;	/* 62.5 MHz: 16 ns a tick, 2^28 >> 24 */
	page.time_shift = 24;
	page.time_offset = 100;
	want = expected_delta(100, 0xfff0 + 0x15, 1U << 28, 24);
	/* The clock wrapped since the kernel wrote the page: 0x15 ticks later
	 * it reads 0x0005, below time_cycles. Only the mask brings it back. */
	fake_clock = 0x0005;
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.time_enabled == 5000 + want && c.time_running == 5000 + want,
	      "short clock, wrapped: enabled %llu running %llu, want %llu",
	      (unsigned long long)c.time_enabled, (unsigned long long)c.time_running,
	      (unsigned long long)(5000 + want));
	/* Bits above time_mask are not the clock's: the same 0x15 ticks. */
	fake_clock = 0xabc0000000010005ULL;
	CHECK_ERR(read_page(&c), 0);
	CHECK(c.time_enabled == 5000 + want,
	      "short clock, high bits: enabled %llu, want %llu",
	      (unsigned long long)c.time_enabled, (unsigned long long)(5000 + want));
}

static void test_retry(void)
{
	struct hwp_count c;

	fresh_page(48);
	page.offset = 10;
	fake_pmc = 5;
	bump_lock_reads = 2;	/* the page changes under the first two reads */
	CHECK_ERR(read_page(&c), 0);
	CHECK(pmc_reads == 3, "read again until the seqlock held still: %d reads",
	      pmc_reads);
	CHECK(c.value == 2015, "the value of the last, consistent read: %llu",
	      (unsigned long long)c.value);
}

static void test_fallbacks(void)
{
	struct hwp_count c;

	fresh_page(48);
	page.cap_user_rdpmc = 0;
	CHECK_ERR(read_page(&c), -EAGAIN);
	CHECK(pmc_reads == 0, "no counter read without cap_user_rdpmc");

	fresh_page(48);
	page.index = 0;		/* not on a counter now (another task's turn) */
	CHECK_ERR(read_page(&c), -EAGAIN);
	CHECK(pmc_reads == 0, "no counter read without an index");

	fresh_page(48);
	page.time_running = 4000;	/* multiplexed: the count must be scaled */
	CHECK_ERR(read_page(&c), -EAGAIN);

	fresh_page(48);
	page.cap_user_time = 0;		/* no clock to bring the times up to date */
	CHECK_ERR(read_page(&c), -EAGAIN);

	fresh_page(0);
	CHECK_ERR(read_page(&c), -EAGAIN);
	fresh_page(65);
	CHECK_ERR(read_page(&c), -EAGAIN);

	fresh_page(48);
	page.time_shift = 64;
	CHECK_ERR(read_page(&c), -EAGAIN);
}

static char root[] = "/tmp/hwprof-rdpmc-XXXXXX";

#define DEV "bus/event_source/devices/"

/* Two PMUs whose events ask for user-space reads with config1's bit 1, as
 * arm64's do, one that does not ask, one whose format is broken, and x86's
 * knob, set to "never". */
static void fabricate(void)
{
	t_put_file(root, DEV "armv8_pmuv3_0/type", "8\n");
	t_put_file(root, DEV "armv8_pmuv3_0/format/rdpmc", "config1:1\n");
	t_put_file(root, DEV "armv8_pmuv3_0/format/event", "config:0-15\n");
	t_put_file(root, DEV "armv8_pmuv3_1/type", "10\n");
	t_put_file(root, DEV "armv8_pmuv3_1/format/rdpmc", "config1:1\n");
	t_put_file(root, DEV "msr/type", "9\n");
	t_put_file(root, DEV "msr/format/split", "config:0-3,32-35\n");
	t_put_file(root, DEV "bad/type", "11\n");
	t_put_file(root, DEV "bad/format/rdpmc", "period:1\n");
	t_put_file(root, DEV "cpu/type", "4\n");
	t_put_file(root, DEV "cpu/rdpmc", "0\n");
}

/* The reader rdpmc.c and have_hw_pmu() go through. */
static void test_pmu_reader(void)
{
	uint64_t mask = 0;
	uint32_t type = 0;
	int word = -1;

	CHECK_ERR(pmu_type("armv8_pmuv3_0", &type), 0);
	CHECK(type == 8, "armv8_pmuv3_0's type: %u", type);
	CHECK_ERR(pmu_type("cpu", &type), 0);
	CHECK(type == 4, "cpu's type: %u", type);
	CHECK_ERR(pmu_type("nope", &type), -ENOENT);
	CHECK_ERR(pmu_format("armv8_pmuv3_0", "rdpmc", &word, &mask), 0);
	CHECK(word == 1 && mask == 2, "rdpmc: config%d mask %#llx", word,
	      (unsigned long long)mask);
	CHECK_ERR(pmu_format("armv8_pmuv3_0", "event", &word, &mask), 0);
	CHECK(word == 0 && mask == 0xffff, "event: config%d mask %#llx", word,
	      (unsigned long long)mask);
	CHECK_ERR(pmu_format("msr", "split", &word, &mask), 0);
	CHECK(word == 0 && mask == 0xf0000000full, "split: config%d mask %#llx", word,
	      (unsigned long long)mask);
	CHECK_ERR(pmu_format("bad", "rdpmc", &word, &mask), -EINVAL);
	CHECK_ERR(pmu_format("msr", "rdpmc", &word, &mask), -ENOENT);
}

/* Events of the PMUs that ask, and core events, ask; the others do not. */
static void test_request(void)
{
	static const struct {
		int line;
		uint32_t type;
		uint64_t config1;
	} rows[] = {
		{ __LINE__, 8, 2 },
		{ __LINE__, 10, 2 },
		{ __LINE__, PERF_TYPE_HARDWARE, 2 },
		{ __LINE__, PERF_TYPE_HW_CACHE, 2 },
		{ __LINE__, PERF_TYPE_RAW, 2 },
		{ __LINE__, 9, 0 },
		{ __LINE__, 11, 0 },
		{ __LINE__, PERF_TYPE_SOFTWARE, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		struct perf_event_attr a = { .type = rows[i].type, .config = 0x11 };

		rdpmc_request(&a);
		CHECK(a.config1 == rows[i].config1 && a.config == 0x11 && !a.config2,
		      "line %d: type %u: config %#llx config1 %#llx config2 %#llx",
		      rows[i].line, rows[i].type, (unsigned long long)a.config,
		      (unsigned long long)a.config1, (unsigned long long)a.config2);
	}
}

/* x86's knob is the core PMU's rdpmc file, read at each call. */
static void test_knob(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct strbuf why = STRBUF_INIT;
	char want[512];

	snprintf(want, sizeof(want), "%s/" DEV "cpu/rdpmc is 0", root);
	CHECK(!rdpmc_allowed(&why), "a knob of 0 forbids rdpmc");
	CHECK(strstr(strbuf_str(&why), want), "'%s' lacks '%s'", strbuf_str(&why), want);
	strbuf_release(&why);
	t_put_file(root, DEV "cpu/rdpmc", "2\n");
	CHECK(rdpmc_allowed(NULL), "a knob of 2 allows rdpmc");
	t_put_file(root, DEV "cpu/rdpmc", "0\n");
	CHECK(!rdpmc_allowed(NULL), "0 again");
#else
	t_case_skip("the rdpmc knob of sysfs is x86's");
#endif
}

/* Whether a child that reads @tree finds a hardware PMU: 1, 0, or -1. */
static int child_has_hw_pmu(const char *tree)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		setenv("HWPROF_SYSFS_ROOT", tree, 1);
		_exit(have_hw_pmu() ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A core PMU (cpu, of PERF_TYPE_RAW) makes a hardware PMU; msr does not. */
static void test_have_hw_pmu(void)
{
	char other[sizeof(root) + 8];

	CHECK(child_has_hw_pmu(root) == 1, "the tree with a core PMU has one");
	snprintf(other, sizeof(other), "%s/none", root);
	mkdir(other, 0755);
	t_put_file(other, DEV "msr/type", "9\n");
	t_put_file(other, DEV "software/type", "1\n");
	CHECK(child_has_hw_pmu(other) == 0, "msr and software are not a core PMU");
	t_put_file(other, DEV "cpu_atom/type", "12\n");
	CHECK(child_has_hw_pmu(other) == 1, "a hybrid core PMU is one");
}

int main(void)
{
	t_init();
	t_run(test_sign_extension);
	t_run(test_times);
	t_run(test_retry);
	t_run(test_fallbacks);
	t_mkdtemp(root);
	fabricate();
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	t_run(test_pmu_reader);
	t_run(test_request);
	t_run(test_knob);
	t_run(test_have_hw_pmu);
	t_rm_tree(root);
	return t_done();
}
