// SPDX-License-Identifier: MIT
/* Decoding the kernel's records: the fields of a PERF_RECORD_SAMPLE and the
 * sample_id trailer of the others. Every field is checked against the
 * record's size, since records also come from files of unknown origin. */
#include "sample/sample.h"

#include <string.h>

struct cursor {
	const unsigned char *p, *end;
};

static bool take_u64(struct cursor *c, uint64_t *v)
{
	if (c->end - c->p < 8)
		return false;
	if (v)
		memcpy(v, c->p, 8);
	c->p += 8;
	return true;
}

static bool take_u32_pair(struct cursor *c, uint32_t *a, uint32_t *b)
{
	if (c->end - c->p < 8)
		return false;
	memcpy(a, c->p, 4);
	memcpy(b, c->p + 4, 4);
	c->p += 8;
	return true;
}

static bool skip_u64s(struct cursor *c, uint64_t n)
{
	if (n > (uint64_t)(c->end - c->p) / 8)
		return false;
	c->p += n * 8;
	return true;
}

/* The bytes of a read_format value group in a sample (PERF_SAMPLE_READ). */
static bool skip_read(struct cursor *c, uint64_t read_format)
{
	uint64_t per = 1 + !!(read_format & PERF_FORMAT_ID) +
		       !!(read_format & PERF_FORMAT_LOST);
	uint64_t times = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(read_format & PERF_FORMAT_GROUP))
		return skip_u64s(c, per + times);
	if (!take_u64(c, &nr) || !skip_u64s(c, times))
		return false;
	if (nr > (uint64_t)(c->end - c->p) / 8 / per)
		return false;
	return skip_u64s(c, nr * per);
}

static int short_record(const struct perf_event_header *h, const char *field)
{
	return fail(-HWP_ERR_FORMAT,
			"a record of type %u and %u bytes is too short for its %s field",
			h->type, h->size, field);
}

/* The fields after CALLCHAIN up to the user registers and stack, which
 * DWARF chains are unwound from: RAW and BRANCH_STACK skipped. */
static int decode_user_state(const struct perf_event_attr *attr,
			     const struct perf_event_header *h, struct cursor *c,
			     struct pd_sample *s)
{
	uint64_t t = attr->sample_type;

	if (t & PERF_SAMPLE_RAW) {
		uint32_t size;

		if (c->end - c->p < 4)
			return short_record(h, "RAW");
		memcpy(&size, c->p, 4);
		if (size > (uint64_t)(c->end - c->p) - 4)
			return short_record(h, "RAW");
		c->p += 4 + size;	/* u32 size and its data keep u64 alignment */
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t nr;

		if (!take_u64(c, &nr) ||
		    ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		     !take_u64(c, NULL)) ||
		    nr > (uint64_t)(c->end - c->p) / 24 || !skip_u64s(c, nr * 3))
			return short_record(h, "BRANCH_STACK");
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		if (!take_u64(c, &s->regs_abi))
			return short_record(h, "REGS_USER");
		if (s->regs_abi) {
			s->regs_mask = attr->sample_regs_user;
			s->nr_regs = (uint64_t)__builtin_popcountll(s->regs_mask);
			s->regs = (const uint64_t *)c->p;
			if (!skip_u64s(c, s->nr_regs))
				return short_record(h, "REGS_USER");
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		if (!take_u64(c, &s->stack_size) ||
		    s->stack_size > (uint64_t)(c->end - c->p))
			return short_record(h, "STACK_USER");
		s->stack = c->p;
		c->p += s->stack_size;
		/* dyn_size follows the bytes, only when there are some */
		if (s->stack_size) {
			if (!take_u64(c, &s->stack_dyn_size))
				return short_record(h, "STACK_USER");
			if (s->stack_dyn_size > s->stack_size)
				s->stack_dyn_size = s->stack_size;
		}
	}
	return 0;
}

/* The fields after the user stack up to CGROUP, the cgroup v2 id of the
 * sampled task (perf record --all-cgroups): the others skipped. */
static int decode_cgroup(const struct perf_event_attr *attr,
			 const struct perf_event_header *h, struct cursor *c,
			 struct pd_sample *s)
{
	uint64_t t = attr->sample_type, abi;
	uint64_t n = !!(t & PERF_SAMPLE_WEIGHT_TYPE) + !!(t & PERF_SAMPLE_DATA_SRC) +
		     !!(t & PERF_SAMPLE_TRANSACTION);

	if (!skip_u64s(c, n))
		return short_record(h, "WEIGHT");
	if (t & PERF_SAMPLE_REGS_INTR) {
		if (!take_u64(c, &abi) ||
		    (abi && !skip_u64s(c, (uint64_t)__builtin_popcountll(
					      attr->sample_regs_intr))))
			return short_record(h, "REGS_INTR");
	}
	if ((t & PERF_SAMPLE_PHYS_ADDR) && !skip_u64s(c, 1))
		return short_record(h, "PHYS_ADDR");
	if (!take_u64(c, &s->cgroup))
		return short_record(h, "CGROUP");
	return 0;
}

int pd_decode_sample(const struct perf_event_attr *attr,
		     const struct perf_event_header *h, struct pd_sample *s)
{
	uint64_t t = attr->sample_type, cpu_res;
	int err;
	struct cursor c = { (const unsigned char *)(h + 1),
			    (const unsigned char *)h + h->size };

	memset(s, 0, sizeof(*s));
	s->cpumode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	s->period = attr->freq ? 1 : attr->sample_period;
	if ((t & PERF_SAMPLE_IDENTIFIER) && !take_u64(&c, &s->id))
		return short_record(h, "IDENTIFIER");
	if ((t & PERF_SAMPLE_IP) && !take_u64(&c, &s->ip))
		return short_record(h, "IP");
	if ((t & PERF_SAMPLE_TID) && !take_u32_pair(&c, &s->pid, &s->tid))
		return short_record(h, "TID");
	if ((t & PERF_SAMPLE_TIME) && !take_u64(&c, &s->time))
		return short_record(h, "TIME");
	if ((t & PERF_SAMPLE_ADDR) && !take_u64(&c, NULL))
		return short_record(h, "ADDR");
	if ((t & PERF_SAMPLE_ID) && !take_u64(&c, &s->id))
		return short_record(h, "ID");
	if ((t & PERF_SAMPLE_STREAM_ID) && !take_u64(&c, NULL))
		return short_record(h, "STREAM_ID");
	if (t & PERF_SAMPLE_CPU) {
		if (!take_u64(&c, &cpu_res))
			return short_record(h, "CPU");
		s->cpu = (uint32_t)cpu_res;	/* u32 cpu, u32 res: little-endian only */
	}
	if ((t & PERF_SAMPLE_PERIOD) && !take_u64(&c, &s->period))
		return short_record(h, "PERIOD");
	if ((t & PERF_SAMPLE_READ) && !skip_read(&c, attr->read_format))
		return short_record(h, "READ");
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (!take_u64(&c, &s->nr_ips) || s->nr_ips > (uint64_t)(c.end - c.p) / 8)
			return short_record(h, "CALLCHAIN");
		s->ips = (const uint64_t *)c.p;
		c.p += s->nr_ips * 8;
	}
	if (!(t & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_CGROUP)))
		return 0;	/* the fields after them are not needed */
	err = decode_user_state(attr, h, &c, s);
	if (err || !(t & PERF_SAMPLE_CGROUP))
		return err;
	return decode_cgroup(attr, h, &c, s);
}

size_t pd_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t t = attr->sample_type;

	if (!attr->sample_id_all)
		return 0;
	return 8 * (!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
		    !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
		    !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
}

int pd_decode_sample_id(const struct perf_event_attr *attr,
			const struct perf_event_header *h, struct pd_sample_id *sid)
{
	uint64_t t = attr->sample_type, cpu_res = 0;
	size_t size = pd_sample_id_size(attr);
	struct cursor c;

	memset(sid, 0, sizeof(*sid));
	if (!size)
		return 0;
	if (h->size < sizeof(*h) + size)
		return short_record(h, "sample_id");
	c.p = (const unsigned char *)h + h->size - size;
	c.end = (const unsigned char *)h + h->size;
	if (t & PERF_SAMPLE_TID)
		take_u32_pair(&c, &sid->pid, &sid->tid);
	if (t & PERF_SAMPLE_TIME) {
		take_u64(&c, &sid->time);
		sid->has_time = true;
	}
	if (t & PERF_SAMPLE_ID)
		take_u64(&c, &sid->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		take_u64(&c, NULL);
	if (t & PERF_SAMPLE_CPU) {
		take_u64(&c, &cpu_res);
		sid->cpu = (uint32_t)cpu_res;
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		take_u64(&c, &sid->id);
	return 0;
}

int pd_sample_id_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	return !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
	       !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
}

int pd_sample_time_pos(uint64_t t)
{
	if (!(t & PERF_SAMPLE_TIME))
		return -1;
	return !!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) +
	       !!(t & PERF_SAMPLE_TID);
}
