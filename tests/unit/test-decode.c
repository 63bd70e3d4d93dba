// SPDX-License-Identifier: MIT
/* A sample's cgroup id (PERF_SAMPLE_CGROUP, perf record --all-cgroups) is
 * found after every field the kernel writes before it, whichever of them
 * the attribute asks for, and a record cut short before it is refused.
 * A sample's period is its PERIOD field where it has one (files hwprof
 * wrote before 0.2), else the attribute's fixed period (record -c). */
#include "sample/sample.h"
#include "harness.h"

#define CGROUP_ID 0x1234abcdULL

struct rec {
	struct perf_event_header h;
	uint64_t body[32];
};

/* A sample of @attr's fields IP, TID, then those of @extra before CGROUP:
 * WEIGHT, DATA_SRC, TRANSACTION, REGS_INTR (abi 2, @nr_intr registers),
 * PHYS_ADDR, each 7 but the abi. */
static void make(struct rec *r, struct perf_event_attr *attr, uint64_t extra,
		 unsigned int nr_intr)
{
	size_t n = 0;

	memset(attr, 0, sizeof(*attr));
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | extra | PERF_SAMPLE_CGROUP;
	attr->sample_regs_intr = (1ULL << nr_intr) - 1;
	r->body[n++] = 0x401000;		/* ip */
	r->body[n++] = 42ULL << 32 | 42;	/* pid, tid */
	n += !!(extra & PERF_SAMPLE_WEIGHT) + !!(extra & PERF_SAMPLE_DATA_SRC) +
	     !!(extra & PERF_SAMPLE_TRANSACTION);
	if (extra & PERF_SAMPLE_REGS_INTR) {
		r->body[n++] = 2;		/* PERF_SAMPLE_REGS_ABI_64 */
		for (unsigned int i = 0; i < nr_intr; i++)
			r->body[n++] = 7;
	}
	n += !!(extra & PERF_SAMPLE_PHYS_ADDR);
	r->body[n++] = CGROUP_ID;
	r->h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0,
					   (uint16_t)(sizeof(r->h) + n * 8) };
}

static void check_after_fields(void)
{
	static const uint64_t extras[] = {
		0,
		PERF_SAMPLE_WEIGHT,
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION,
		PERF_SAMPLE_REGS_INTR,
		PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR,
	};
	struct perf_event_attr attr;
	struct pd_sample s;
	struct rec r;

	for (size_t i = 0; i < sizeof(extras) / sizeof(extras[0]); i++) {
		make(&r, &attr, extras[i], 3);
		CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), 0);
		CHECK(s.cgroup == CGROUP_ID && s.tid == 42 && s.ip == 0x401000,
		      "extra fields %#llx: cgroup %#llx", (unsigned long long)extras[i],
		      (unsigned long long)s.cgroup);
	}
}

static void check_short(void)
{
	struct perf_event_attr attr;
	struct pd_sample s;
	struct rec r;

	make(&r, &attr, PERF_SAMPLE_REGS_INTR, 3);
	r.h.size -= 8;		/* the cgroup id cut off */
	CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), -HWP_ERR_FORMAT);
	make(&r, &attr, 0, 0);
	attr.sample_type &= ~(uint64_t)PERF_SAMPLE_CGROUP;
	CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), 0);
	CHECK(s.cgroup == 0, "no PERF_SAMPLE_CGROUP: cgroup %#llx",
	      (unsigned long long)s.cgroup);
}

/* IP and TID, then PERIOD (@field) where @attr asks for it. */
static void make_period(struct rec *r, const struct perf_event_attr *attr,
			uint64_t field)
{
	size_t n = 0;

	r->body[n++] = 0x401000;
	r->body[n++] = 42ULL << 32 | 42;
	if (attr->sample_type & PERF_SAMPLE_PERIOD)
		r->body[n++] = field;
	r->h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0,
					   (uint16_t)(sizeof(r->h) + n * 8) };
}

static void check_period(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.sample_period = 10,
	};
	struct pd_sample s;
	struct rec r;

	make_period(&r, &attr, 0);
	CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), 0);
	CHECK(s.period == 10, "fixed period, no field: %llu",
	      (unsigned long long)s.period);
	attr.sample_type |= PERF_SAMPLE_PERIOD;
	make_period(&r, &attr, 1);
	CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), 0);
	CHECK(s.period == 1 && s.tid == 42, "the field wins: %llu",
	      (unsigned long long)s.period);
	attr.sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
	attr.freq = 1;
	attr.sample_freq = 4000;
	make_period(&r, &attr, 0);
	CHECK_ERR(pd_decode_sample(&attr, &r.h, &s), 0);
	CHECK(s.period == 1, "a frequency, no field: %llu", (unsigned long long)s.period);
}

int main(void)
{
	t_init();
	t_run(check_after_fields);
	t_run(check_short);
	t_run(check_period);
	return t_done();
}
