// SPDX-License-Identifier: MIT
/* Address spaces rebuilt from records made by hand: a new mapping cuts
 * what it covers out of older ones; a forked child shares its parent's
 * mappings until one of them maps something, and lets go when it execs
 * or its last thread exits; the work of a lookup grows with log n. */
#include "sample/sample.h"
#include "harness.h"

#include <sys/mman.h>

struct rec {
	struct perf_event_header h;
	unsigned char body[120];
};

static void apply(struct machine *m, struct rec *r)
{
	CHECK_ERR(machine_apply(m, &r->h), 0);
}

static void mmap2(struct machine *m, uint32_t pid, uint64_t start, uint64_t end,
		  uint64_t pgoff, const char *file)
{
	struct rec r = { { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 0 }, { 0 } };
	uint32_t ids[2] = { pid, pid }, prot = PROT_READ | PROT_EXEC;
	uint64_t len = end - start;

	memcpy(r.body, ids, 8);
	memcpy(r.body + 8, &start, 8);
	memcpy(r.body + 16, &len, 8);
	memcpy(r.body + 24, &pgoff, 8);
	memcpy(r.body + 56, &prot, 4);
	snprintf((char *)r.body + 64, sizeof(r.body) - 64, "%s", file);
	r.h.size = (uint16_t)(sizeof(r.h) + ((64 + strlen(file) + 1 + 7) & ~7ul));
	apply(m, &r);
}

/* FORK and EXIT: pid, ppid, tid, ptid. */
static void task(struct machine *m, uint32_t type, uint32_t pid, uint32_t ppid,
		 uint32_t tid)
{
	struct rec r = { { type, 0, sizeof(r.h) + 24 }, { 0 } };
	uint32_t ids[4] = { pid, ppid, tid, ppid };

	memcpy(r.body, ids, sizeof(ids));
	apply(m, &r);
}

static void exec(struct machine *m, uint32_t pid)
{
	struct rec r = { { PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC,
			   sizeof(r.h) + 16 },
			 { 0 } };
	uint32_t ids[2] = { pid, pid };

	memcpy(r.body, ids, 8);
	memcpy(r.body + 8, "new", 4);
	apply(m, &r);
}

/* The module @ip of @pid lands in ("[unknown]" when none), and where in it. */
static const char *where(struct machine *m, uint32_t pid, uint64_t ip, uint64_t *addr)
{
	struct location loc;
	uint64_t ignored;

	machine_resolve(m, pid, ip, PERF_RECORD_MISC_USER, &loc);
	*(addr ? addr : &ignored) = loc.addr;
	return machine_dso(m, loc.dso)->path;
}

#define CHECK_AT(m, pid, ip, file, off)                                                 \
	do {                                                                            \
		uint64_t a_;                                                            \
		const char *f_ = where(m, pid, ip, &a_);                                \
		CHECK(!strcmp(f_, file) && a_ == (off),                                 \
		      "%#llx of %u: %s+%#llx, want %s+%#llx", (unsigned long long)(ip), \
		      (unsigned)(pid), f_, (unsigned long long)a_, file,                \
		      (unsigned long long)(off));                                       \
	} while (0)

/* A new mapping replaces what it covers, as mmap() does: the rest of the
 * older ones stays, at the same file offsets. */
static void check_overlaps(void)
{
	struct machine *m;

	CHECK_ERR(machine_new(&m), 0);
	mmap2(m, 1, 0x10000, 0x50000, 0, "/a");
	mmap2(m, 1, 0x20000, 0x30000, 0x1000, "/b");
	CHECK(machine_nr_maps(m) == 3, "/a split in two around /b: %zu",
	      machine_nr_maps(m));
	CHECK_AT(m, 1, 0x18000, "/a", 0x8000);
	CHECK_AT(m, 1, 0x28000, "/b", 0x9000);
	CHECK_AT(m, 1, 0x38000, "/a", 0x28000);
	CHECK_AT(m, 1, 0x50000, "[unknown]", 0x50000);
	mmap2(m, 1, 0x8000, 0x60000, 0, "/c");
	CHECK(machine_nr_maps(m) == 1, "/c covers all: %zu", machine_nr_maps(m));
	CHECK_AT(m, 1, 0x28000, "/c", 0x20000);
	mmap2(m, 1, 0x60000, 0x70000, 0, "/d");
	mmap2(m, 1, 0x50000, 0x68000, 0, "/e");
	CHECK(machine_nr_maps(m) == 3, "/e cuts the end of /c and the start of /d: %zu",
	      machine_nr_maps(m));
	CHECK_AT(m, 1, 0x4ffff, "/c", 0x47fff);
	CHECK_AT(m, 1, 0x50000, "/e", 0);
	CHECK_AT(m, 1, 0x6c000, "/d", 0xc000);
	CHECK_AT(m, 1, 0x70000, "[unknown]", 0x70000);
	CHECK_AT(m, 2, 0x6c000, "[unknown]", 0x6c000);
	CHECK_AT(m, 1, UINT64_MAX, "[unknown]", UINT64_MAX);
	machine_free(m);
}

#define NR_MAPS 1000
#define NR_CHILDREN 1000
#define PARENT 100
#define CHILD(i) (1000 + (i))
#define MAP(i) (0x100000ULL + 0x2000ULL * (i))

/* A parent of 1,000 mappings forks 1,000 children: they share them. */
static void check_fork(void)
{
	struct machine *m;

	CHECK_ERR(machine_new(&m), 0);
	for (int i = 0; i < NR_MAPS; i++)
		mmap2(m, PARENT, MAP(i), MAP(i) + 0x1000, 0, "/lib");
	for (int i = 0; i < NR_CHILDREN; i++)
		task(m, PERF_RECORD_FORK, CHILD(i), PARENT, CHILD(i));
	CHECK(machine_nr_maps(m) == NR_MAPS,
	      "the children share the parent's: %zu mappings", machine_nr_maps(m));
	CHECK_AT(m, CHILD(7), MAP(5) + 0x10, "/lib", 0x10);
	/* A child that maps gets a copy of its own; the others do not see it. */
	mmap2(m, CHILD(0), 0x10000, 0x11000, 0, "/own");
	CHECK(machine_nr_maps(m) == 2 * NR_MAPS + 1, "one copy: %zu", machine_nr_maps(m));
	CHECK_AT(m, CHILD(0), 0x10010, "/own", 0x10);
	CHECK_AT(m, CHILD(0), MAP(9) + 0x20, "/lib", 0x20);
	CHECK_AT(m, PARENT, 0x10010, "[unknown]", 0x10010);
	CHECK_AT(m, CHILD(1), 0x10010, "[unknown]", 0x10010);
	/* So does a parent that maps after the fork. */
	mmap2(m, PARENT, 0x20000, 0x21000, 0, "/later");
	CHECK_AT(m, PARENT, 0x20010, "/later", 0x10);
	CHECK_AT(m, CHILD(2), 0x20010, "[unknown]", 0x20010);
	CHECK(machine_nr_maps(m) == 3 * NR_MAPS + 2, "%zu", machine_nr_maps(m));
	/* exec: a new, empty address space. */
	exec(m, CHILD(1));
	CHECK_AT(m, CHILD(1), MAP(5) + 0x10, "[unknown]", MAP(5) + 0x10);
	/* A thread keeps the space after its process's first thread exits. */
	task(m, PERF_RECORD_FORK, CHILD(3), CHILD(3), 5000);
	task(m, PERF_RECORD_EXIT, CHILD(3), PARENT, CHILD(3));
	CHECK_AT(m, CHILD(3), MAP(5) + 0x10, "/lib", 0x10);
	task(m, PERF_RECORD_EXIT, CHILD(3), CHILD(3), 5000);
	CHECK_AT(m, CHILD(3), MAP(5) + 0x10, "[unknown]", MAP(5) + 0x10);
	for (int i = 0; i < NR_CHILDREN; i++)
		if (i != 3)
			task(m, PERF_RECORD_EXIT, CHILD(i), PARENT, CHILD(i));
	CHECK(machine_nr_maps(m) == NR_MAPS + 1, "the children's are gone: %zu",
	      machine_nr_maps(m));
	CHECK_AT(m, PARENT, MAP(5) + 0x10, "/lib", 0x10);
	/* The parent began before the records: its threads are not known, so
	 * its mappings stay. */
	task(m, PERF_RECORD_EXIT, PARENT, 1, PARENT);
	CHECK_AT(m, PARENT, MAP(5) + 0x10, "/lib", 0x10);
	/* A pid used again: the new process has the new parent's space. */
	task(m, PERF_RECORD_FORK, CHILD(0), 1, CHILD(0));
	CHECK_AT(m, CHILD(0), 0x10010, "[unknown]", 0x10010);
	machine_free(m);
}

/* 20,000 mappings added from the top down (each before all others), then
 * looked up: a few dozen comparisons each, not thousands. */
static void check_work(void)
{
	enum { N = 20000 };
	struct machine *m;
	unsigned long before, added, looked;
	int wrong = 0;

	CHECK_ERR(machine_new(&m), 0);
	before = machine_map_compares();
	for (int i = N - 1; i >= 0; i--)
		mmap2(m, 1, MAP(i), MAP(i) + 0x1000, 0, "/lib");
	added = machine_map_compares() - before;
	before = machine_map_compares();
	for (int i = 0; i < N; i++) {
		uint64_t addr;

		wrong += strcmp(where(m, 1, MAP(i) + 8, &addr), "/lib") || addr != 8;
	}
	looked = machine_map_compares() - before;
	CHECK(machine_nr_maps(m) == N && wrong == 0, "%zu mappings, %d lookups wrong",
	      machine_nr_maps(m), wrong);
	/* A balanced tree of 20,000 is at most 2 log2(20,001) < 29 deep; an
	 * insertion looks twice (for overlaps, then to insert). */
	t_note("%lu to add, %lu to look up", added, looked);
	CHECK(added <= 2UL * 29 * N, "%lu comparisons to add %d mappings", added, (int)N);
	CHECK(looked <= 29UL * N, "%lu comparisons for %d lookups", looked, (int)N);
	machine_free(m);
}

int main(void)
{
	t_init();
	t_run(check_overlaps);
	t_run(check_fork);
	t_run(check_work);
	return t_done();
}
