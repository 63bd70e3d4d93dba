// SPDX-License-Identifier: MIT
/* Off-CPU time: a sample of context-switches is taken where a thread
 * leaves the CPU, with its call chain; the switch records of the same file
 * (PERF_RECORD_SWITCH, or _CPU_WIDE for CPUs) say when it runs again. The
 * sample weighs the time between, added once the thread is back. Records
 * arrive in time order (perf-data-records.c sorts each round), so one wait a
 * thread is open at a time. */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

bool offcpu_event(const struct hwp_profile *p, const struct pd_event *ev)
{
	const uint64_t need = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

	return p->oc.switches && ev->attr.type == PERF_TYPE_SOFTWARE &&
	       ev->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES &&
	       (ev->attr.sample_type & need) == need;
}

int offcpu_begin(struct hwp_profile *p)
{
	size_t n = pd_nr_events(p->file);

	for (size_t i = 0; i < n; i++)
		p->oc.switches |= pd_event(p->file, i)->attr.context_switch;
	p->off_cpu = n && offcpu_event(p, pd_event(p->file, (size_t)p->event));
	if (!p->oc.switches)
		return 0;
	p->oc.events = calloc(n, sizeof(*p->oc.events));
	if (!p->oc.events)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		p->oc.events[i] = offcpu_event(p, pd_event(p->file, i));
	return 0;
}

static bool wait_eq(size_t idx, const void *key, const void *ctx)
{
	return ((const struct offcpu *)ctx)->w[idx].tid == *(const uint32_t *)key;
}

/* Thread @tid's wait, made on first sight; NULL when out of memory. */
static struct offcpu_wait *wait_of(struct offcpu *oc, uint32_t tid, bool make)
{
	uint64_t h = hash_u64(tid);
	long i = hidx_find(&oc->idx, h, wait_eq, &tid, oc);

	if (i >= 0)
		return &oc->w[i];
	if (!make || vec_reserve(&oc->w, &oc->cap, oc->nr + 1, sizeof(*oc->w)) ||
	    hidx_add(&oc->idx, h, oc->nr))
		return NULL;
	memset(&oc->w[oc->nr], 0, sizeof(oc->w[0]));
	oc->w[oc->nr].tid = tid;
	return &oc->w[oc->nr++];
}

static void unmatched(struct hwp_profile *p, const struct offcpu_wait *w)
{
	p->oc.unmatched += w->event == p->event;
}

int offcpu_sample(struct hwp_profile *p, const struct pd_sample *s, int event, long site,
		  long stack, long label)
{
	struct offcpu_wait *w;

	/* The idle task leaves the CPU when there is work: that is the
	 * CPU's busy time, not a wait. */
	if (!s->tid) {
		p->oc.unmatched += event == p->event;
		return 0;
	}
	w = wait_of(&p->oc, s->tid, true);
	if (!w)
		return fail(-ENOMEM, "out of memory");
	if (w->waiting)
		unmatched(p, w);	/* its switch back was lost */
	*w = (struct offcpu_wait){ .tid = s->tid, .cpu = s->cpu, .event = event,
				   .site = site, .stack = stack, .label = label,
				   .since = s->time,
				   .waiting = true };
	return 0;
}

/* Add @period to what @w's sample, of its event at its site, stack and
 * CPU, weighed: the late weight of off-CPU samples. */
static void add_period(struct hwp_profile *p, const struct offcpu_wait *w,
		       uint64_t period)
{
	labels_add_period(p, w->label, w->event, period);
	if (w->event != p->event)
		return;
	p->sites[w->site].period += period;
	if (w->stack >= 0)
		p->stacks[w->stack].period += period;
	p->period += period;
	cpu_add(p, w->cpu, 0, period);	/* the CPU's row exists: the sample made it */
}

int offcpu_switch(struct hwp_profile *p, const struct pd_record *rec)
{
	const struct pd_event *ev;
	struct pd_sample_id sid;
	struct offcpu_wait *w;

	if (!p->oc.nr || rec->event < 0)
		return 0;	/* no sample waits: nothing to time */
	ev = pd_event(p->file, (size_t)rec->event);
	if (pd_decode_sample_id(&ev->attr, rec->h, &sid) || !sid.has_time ||
	    !(ev->attr.sample_type & PERF_SAMPLE_TID))
		return 0;	/* a record that cannot say whose switch */
	w = wait_of(&p->oc, sid.tid, false);
	if (!w || !w->waiting)
		return 0;
	if (rec->h->misc & PERF_RECORD_MISC_SWITCH_OUT) {
		/* The sample precedes the switch itself by the time the
		 * kernel took to write it: the wait starts here. */
		if (!w->out_seen && sid.time >= w->since)
			w->since = sid.time;
		w->out_seen = true;
		return 0;
	}
	w->waiting = false;
	if (sid.time < w->since) {
		unmatched(p, w);	/* out of order: no honest weight */
		return 0;
	}
	add_period(p, w, sid.time - w->since);
	return 0;
}

void offcpu_end(struct hwp_profile *p)
{
	for (size_t i = 0; i < p->oc.nr; i++)
		if (p->oc.w[i].waiting)
			unmatched(p, &p->oc.w[i]);
}

void offcpu_release(struct hwp_profile *p)
{
	free(p->oc.w);
	free(p->oc.events);
	hidx_release(&p->oc.idx);
	memset(&p->oc, 0, sizeof(p->oc));
}
