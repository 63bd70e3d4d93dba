// SPDX-License-Identifier: MIT
/* The samples by call chain and thread, for the formats that label each
 * sample with its process, thread and the thread's name then (pprof's
 * labels pid, tid, comm and cgroup): one row a distinct (chain, pid, tid,
 * comm, cgroup), with the summed period of each event of the file. */
#include "profile/profile.h"

#include <stdlib.h>
#include <string.h>

/* Whether row @r is of thread (@k's pid, tid, comm) in @k's cgroup. */
static bool same_thread(const struct label_row *r, const struct label_row *k)
{
	/* comm is interned: equal names are the same pointer */
	return r->pid == k->pid && r->tid == k->tid && r->comm == k->comm &&
	       r->cgroup == k->cgroup;
}

/* A chain's rows hang from its stack (its site without chains), one a
 * thread, most often one: a short walk, not a second hash of every sample. */
int labels_add(struct hwp_profile *p, const struct pd_sample *s, const char *comm,
	       long site, long stack, int event, long *row)
{
	struct label_row k = { stack, (uint32_t)site, s->pid, s->tid, comm, s->cgroup,
				0 };
	uint32_t *head = stack >= 0 ? &p->stacks[stack].labels :
				      &p->sites[site].labels;
	size_t n = p->nr_events;
	uint32_t i;

	for (i = *head; i && !same_thread(&p->labels[i - 1], &k);
	     i = p->labels[i - 1].next)
		;
	if (!i) {
		if (vec_reserve(&p->labels, &p->cap_labels, p->nr_labels + 1,
				sizeof(*p->labels)) ||
		    vec_reserve(&p->label_values, &p->cap_label_values,
				(p->nr_labels + 1) * n, sizeof(*p->label_values)))
			return fail(-ENOMEM, "out of memory");
		k.next = *head;
		p->labels[p->nr_labels] = k;
		memset(p->label_values + p->nr_labels * n, 0,
		       n * sizeof(*p->label_values));
		i = *head = (uint32_t)++p->nr_labels;
	}
	labels_add_period(p, (long)i - 1, event, s->period);
	*row = (long)i - 1;
	return 0;
}

void labels_add_period(struct hwp_profile *p, long row, int event, uint64_t period)
{
	if (row >= 0)
		p->label_values[(size_t)row * p->nr_events + (size_t)event] += period;
}

void labels_release(struct hwp_profile *p)
{
	free(p->labels);
	free(p->label_values);
	for (size_t i = 0; i < p->nr_cgroups; i++)
		free(p->cgroups[i].path);
	free(p->cgroups);
	hidx_release(&p->cgroup_idx);
}

static bool cgroup_eq(size_t idx, const void *key, const void *ctx)
{
	const struct hwp_profile *p = ctx;

	return p->cgroups[idx].id == *(const uint64_t *)key;
}

static const char *cgroup_path(const struct hwp_profile *p, uint64_t id)
{
	long i = id ? hidx_find(&p->cgroup_idx, hash_u64(id), cgroup_eq, &id, p) : -1;

	return i >= 0 ? p->cgroups[i].path : NULL;
}

int labels_cgroup(struct hwp_profile *p, const struct perf_event_header *h)
{
	const char *path = (const char *)(h + 1) + 8, *end = (const char *)h + h->size;
	uint64_t id;
	long i;
	char *copy;

	if (h->size < sizeof(*h) + 9 || !memchr(path, 0, (size_t)(end - path))) {
		p->skipped++;	/* no id, or a path that does not end */
		return 0;
	}
	memcpy(&id, h + 1, 8);
	copy = strdup(path);
	i = hidx_find(&p->cgroup_idx, hash_u64(id), cgroup_eq, &id, p);
	if (copy && i >= 0) {
		free(p->cgroups[i].path);	/* described again: the latest */
		p->cgroups[i].path = copy;
		return 0;
	}
	if (!copy || vec_reserve(&p->cgroups, &p->cap_cgroups, p->nr_cgroups + 1,
				 sizeof(*p->cgroups)) ||
	    hidx_add(&p->cgroup_idx, hash_u64(id), p->nr_cgroups)) {
		free(copy);
		return fail(-ENOMEM, "out of memory");
	}
	p->cgroups[p->nr_cgroups++] = (struct cgroup_name){ id, copy };
	return 0;
}

static bool any_value(const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return true;
	return false;
}

int profile_foreach_labelled_chain(struct hwp_profile *p, profile_labelled_chain_fn fn,
				   void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < p->nr_labels && !err; i++) {
		const struct label_row *r = &p->labels[i];
		const uint64_t *v = p->label_values + i * p->nr_events;
		struct profile_labels l = { r->pid, r->tid, r->comm,
					    cgroup_path(p, r->cgroup) };
		bool chain = p->callchains && r->stack >= 0;
		const struct stack *st = chain ? &p->stacks[r->stack] : NULL;

		if (any_value(v, p->nr_events))
			err = chain ? fn(p->frames + st->first, st->nr, v, &l, ctx) :
				      fn(&r->site, 1, v, &l, ctx);
	}
	return err;
}
