// SPDX-License-Identifier: MIT
/* The regions' reports: each thread's slots read consistently against
 * their owner's updates, summed by name, walked for hwp_region_foreach(),
 * made a regionset, written and saved. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "region/region.h"
#include "region/region-state.h"
#include "result/result.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static double read_cost_locked(void)
{
	double cost;

	/* The first thread's calibration writes it while others may ask. */
	pthread_mutex_lock(&regions.lock);
	cost = regions.read_cost_ns;
	pthread_mutex_unlock(&regions.lock);
	return cost;
}

/* ---- reports ---- */

/* One slot's sums, read consistently against its owner's updates. */
struct snapshot {
	uint64_t calls, measured, ns, min_ns, ops, empty_ns;
	struct hwp_count *counts;	/* nr_events */
	uint64_t *empty;		/* nr_events: see struct slot */
	double *cost;			/* nr_events: empty / measured */
	double wall_ns, cpu_ns;		/* its threads' time since their first region */
};

static void snapshot_slot(struct thread_rec *t, struct slot *s, struct snapshot *out,
			  size_t n)
{
	unsigned int s1, s2;

	do {
		s1 = atomic_load_explicit(&t->seq, memory_order_acquire);
		out->calls = load(&s->calls);
		out->measured = load(&s->measured);
		out->ns = load(&s->ns);
		out->min_ns = load(&s->min_ns);
		out->ops = load(&s->ops);
		out->empty_ns = load(&s->empty_ns);
		for (size_t e = 0; e < n; e++) {
			out->counts[e].value = load(&s->value[e]);
			out->counts[e].time_enabled = load(&s->enabled[e]);
			out->counts[e].time_running = load(&s->running[e]);
			out->empty[e] = load(&s->empty[e]);
		}
		atomic_thread_fence(memory_order_acquire);
		s2 = atomic_load_explicit(&t->seq, memory_order_relaxed);
	} while (s1 != s2 || (s1 & 1));
}

/* A region's counts over all its calls: multiplexing scaled, sparse
 * measurement estimated (region_estimate()). */
static void region_values(const struct snapshot *sn, const struct hwp_session *s,
			  size_t n, double *values)
{
	for (size_t e = 0; e < n; e++) {
		enum hwp_event_status st = hwp_session_event_status(s, e, NULL);

		if (st != HWP_EVENT_COUNTING && st != HWP_EVENT_USER_ONLY)
			values[e] = NAN;
		else
			values[e] = region_estimate(hwp_count_scaled(&sn->counts[e]),
						    sn->calls, sn->measured, sn->cost[e]);
	}
}

/* Called for each region's total (tid 0) and each thread's part, with the
 * session whose statuses hold for it and the sums it was made from. */
typedef int (*walk_fn)(const struct hwp_region_info *info,
		       const struct hwp_session *model,
		       const struct snapshot *sn, void *ctx);

struct walk {
	walk_fn fn;
	void *ctx;
	size_t n;
	struct snapshot sn, total;
	double *values;
	const struct hwp_session *model;	/* the totals' statuses and metrics */
};

static int report_one(struct walk *w, const struct hwp_session *model, const char *name,
		      pid_t tid, const struct snapshot *sn, size_t nr_threads)
{
	struct hwp_region_info info = {
		.sz = sizeof(info),
		.name = name,
		.tid = tid,
		.nr_threads = nr_threads,
		.calls = sn->calls,
		.measured_calls = sn->measured,
		.ops = sn->ops,
		.nr_events = w->n,
		.values = w->values,
		.evlist = regions.evl,
	};

	for (size_t e = 0; e < w->n; e++)
		sn->cost[e] = !sn->measured ? 0 :
			      (double)sn->empty[e] / (double)sn->measured;
	info.seconds = !sn->measured ? 0 :
		       region_estimate((double)sn->ns, sn->calls, sn->measured,
				       (double)sn->empty_ns / (double)sn->measured) / 1e9;
	info.too_short = sn->measured && !isnan(regions.read_cost_ns) &&
			 (double)sn->min_ns < TOO_SHORT_READS * regions.read_cost_ns;
	region_values(sn, model, w->n, w->values);
	return w->fn(&info, model, sn, w->ctx);
}

static void snapshot_add(struct snapshot *to, const struct snapshot *from, size_t n)
{
	to->calls += from->calls;
	to->measured += from->measured;
	to->ns += from->ns;
	if (from->min_ns < to->min_ns)
		to->min_ns = from->min_ns;
	to->ops += from->ops;
	to->empty_ns += from->empty_ns;
	to->wall_ns += from->wall_ns;
	to->cpu_ns += from->cpu_ns;
	for (size_t e = 0; e < n; e++) {
		to->counts[e].value += from->counts[e].value;
		to->counts[e].time_enabled += from->counts[e].time_enabled;
		to->counts[e].time_running += from->counts[e].time_running;
		to->empty[e] += from->empty[e];
	}
}

/* Whether region @name of thread @t is the first of that name in the
 * registry, so that the totals of each name are reported once. */
static bool first_of_name(struct thread_rec *t, size_t idx, const char *name)
{
	for (struct thread_rec *o = regions.threads; o; o = o->next) {
		size_t nr = atomic_load_explicit(&o->nr_slots, memory_order_acquire);

		for (size_t i = 0; i < nr; i++) {
			if (o == t && i == idx)
				return true;
			if (!strcmp(slot_at(o, i)->name, name))
				return false;
		}
	}
	return true;
}

/* Calls @fn for each region: its total over threads (tid 0) followed by
 * each thread's part. Called with regions.lock held. */
static int walk_locked(struct walk *w)
{
	int ret = 0;

	/* A thread that has regions opened its counters: its statuses hold
	 * for the totals (a thread whose open failed has none to lend). */
	for (struct thread_rec *t = regions.threads; t && !w->model; t = t->next)
		if (atomic_load_explicit(&t->nr_slots, memory_order_acquire))
			w->model = t->s;
	for (struct thread_rec *t = regions.threads; t && !ret; t = t->next) {
		size_t nr = atomic_load_explicit(&t->nr_slots, memory_order_acquire);

		for (size_t i = 0; i < nr && !ret; i++) {
			const char *name = slot_at(t, i)->name;
			size_t nr_threads = 0;

			if (!first_of_name(t, i, name))
				continue;
			memset(w->total.counts, 0, w->n * sizeof(*w->total.counts));
			memset(w->total.empty, 0, w->n * sizeof(*w->total.empty));
			w->total.calls = w->total.measured = w->total.empty_ns = 0;
			w->total.ns = w->total.ops = 0;
			w->total.min_ns = UINT64_MAX;
			w->total.wall_ns = w->total.cpu_ns = 0;
			for (struct thread_rec *o = regions.threads; o;
			     o = o->next) {
				size_t onr = atomic_load_explicit(&o->nr_slots,
								  memory_order_acquire);

				for (size_t k = 0; k < onr; k++)
					if (!strcmp(slot_at(o, k)->name, name)) {
						snapshot_slot(o, slot_at(o, k), &w->sn,
							      w->n);
						region_thread_window(o, &w->sn.wall_ns,
								     &w->sn.cpu_ns);
						snapshot_add(&w->total, &w->sn, w->n);
						nr_threads++;
					}
			}
			ret = report_one(w, w->model, name, 0, &w->total, nr_threads);
			for (struct thread_rec *o = regions.threads; o && !ret;
			     o = o->next) {
				size_t onr = atomic_load_explicit(&o->nr_slots,
								  memory_order_acquire);

				for (size_t k = 0; k < onr && !ret; k++)
					if (!strcmp(slot_at(o, k)->name, name)) {
						snapshot_slot(o, slot_at(o, k), &w->sn,
							      w->n);
						region_thread_window(o, &w->sn.wall_ns,
								     &w->sn.cpu_ns);
						ret = report_one(w, o->s, name, o->tid,
								 &w->sn, 1);
					}
			}
		}
	}
	return ret;
}

/* The walk, under the lock; @read_cost_ns (may be NULL) gets the cost of a
 * read as it was then. */
static int regions_walk(walk_fn fn, void *ctx, double *read_cost_ns)
{
	struct walk w = { .fn = fn, .ctx = ctx };
	int ret;

	if (read_cost_ns)
		*read_cost_ns = NAN;
	if (!atomic_load(&regions.ready) || regions.error)
		return 0;
	w.n = hwp_evlist_nr_events(regions.evl);
	w.sn.counts = calloc(w.n, sizeof(*w.sn.counts));
	w.total.counts = calloc(w.n, sizeof(*w.total.counts));
	w.sn.empty = calloc(w.n, sizeof(*w.sn.empty));
	w.total.empty = calloc(w.n, sizeof(*w.total.empty));
	/* one for both: report_one() fills it for the snapshot at hand */
	w.sn.cost = w.total.cost = calloc(w.n, sizeof(*w.sn.cost));
	w.values = calloc(w.n, sizeof(*w.values));
	if (!w.sn.counts || !w.total.counts || !w.sn.empty || !w.total.empty ||
	    !w.sn.cost || !w.values) {
		ret = fail(-ENOMEM, "out of memory");
		goto out;
	}
	pthread_mutex_lock(&regions.lock);
	if (read_cost_ns)
		*read_cost_ns = regions.read_cost_ns;
	ret = walk_locked(&w);
	pthread_mutex_unlock(&regions.lock);
out:
	free(w.sn.counts);
	free(w.total.counts);
	free(w.sn.empty);
	free(w.total.empty);
	free(w.sn.cost);
	free(w.values);
	return ret;
}

struct public_walk {
	hwp_region_fn fn;
	void *ctx;
};

static int public_one(const struct hwp_region_info *info, const struct hwp_session *model,
		      const struct snapshot *sn, void *arg)
{
	const struct public_walk *pw = arg;

	(void)model;
	(void)sn;
	return pw->fn(info, pw->ctx);
}

HWP_API int hwp_region_foreach(hwp_region_fn fn, void *ctx)
{
	struct public_walk pw = { fn, ctx };

	clear_error();
	if (!fn)
		return fail(-EINVAL, "hwp_region_foreach: no callback");
	return regions_walk(public_one, &pw, NULL);
}

static int count_region(const struct hwp_region_info *info,
			const struct hwp_session *model,
			const struct snapshot *sn, void *arg)
{
	(void)model;
	(void)sn;
	*(size_t *)arg += info->tid == 0;
	return 0;
}

HWP_API int hwp_region_settings(struct hwp_regionset_info *info)
{
	struct hwp_regionset_info in = { .sz = sizeof(in), .read_cost_ns = NAN };
	int err;

	clear_error();
	if (!info)
		return fail(-EINVAL, "hwp_region_settings: NULL");
	err = regions_walk(count_region, &in.nr_regions, NULL);
	if (err)
		return err;
	in.event_spec = regions.evl ? hwp_evlist_spec(regions.evl) : NULL;
	in.sample_every = regions.sample_every ? regions.sample_every : 1;
	in.read_cost_ns = read_cost_locked();
	return info_fill(info, &in, sizeof(in));
}

/* ---- the regions as a regionset ---- */

static int snapshot_thread(const struct hwp_region_info *info, const struct snapshot *sn,
			   struct hwp_regionset *rs)
{
	struct regionset_region *rg = &rs->regions[rs->nr_regions - 1];
	struct regionset_thread *t = regionset_add_thread(rg);

	if (!t || !(t->values = malloc((info->nr_events + 1) * sizeof(*t->values))))
		return fail(-ENOMEM, "out of memory");
	t->tid = info->tid;
	t->calls = info->calls;
	t->measured_calls = info->measured_calls;
	t->ops = info->ops;
	t->seconds = info->seconds;
	t->too_short = info->too_short;
	memcpy(t->values, info->values, info->nr_events * sizeof(*t->values));
	t->exceeds_time = region_exceeds_time(sn->calls, sn->measured, sn->wall_ns,
					      sn->cpu_ns, t->seconds, t->values,
					      rg->rows, rg->nr_events);
	return 0;
}

/* A region's total: its rows from the sums of its measured calls, with
 * their real times, so that a multiplexed count says how long it ran. */
static int snapshot_one(const struct hwp_region_info *info,
			const struct hwp_session *model,
			const struct snapshot *sn, void *arg)
{
	struct hwp_regionset *rs = arg;
	struct regionset_region *rg;
	int err;

	if (info->tid)
		return snapshot_thread(info, sn, rs);
	rg = regionset_add_region(rs);
	if (!rg || !(rg->name = strdup(info->name)))
		return fail(-ENOMEM, "out of memory");
	rg->calls = info->calls;
	rg->measured_calls = info->measured_calls;
	rg->ops = info->ops;
	rg->seconds = info->seconds;
	rg->too_short = info->too_short;
	err = region_rows(model, sn->counts, (double)sn->ns / 1e9, sn->calls,
			  sn->measured, sn->cost, rg);
	if (!err)
		rg->exceeds_time = region_exceeds_time(sn->calls, sn->measured,
						       sn->wall_ns, sn->cpu_ns,
						       rg->seconds, rg->values,
						       rg->rows, rg->nr_events);
	return err;
}

HWP_API int hwp_regionset_from_regions(struct hwp_regionset **out)
{
	struct hwp_regionset *rs;
	const char *spec;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_regionset_from_regions: NULL argument");
	err = regionset_new(out);
	if (err)
		return err;
	rs = *out;
	spec = regions.evl ? hwp_evlist_spec(regions.evl) : NULL;
	rs->sample_every = regions.sample_every ? regions.sample_every : 1;
	if ((spec && !(rs->spec = strdup(spec))) || environment_read(&rs->env, false))
		err = fail(-ENOMEM, "out of memory");
	else
		err = regions_walk(snapshot_one, rs, &rs->read_cost_ns);
	if (err) {
		hwp_regionset_free(rs);
		*out = NULL;
	}
	return err;
}

HWP_API int hwp_region_write(FILE *f, const struct hwp_write_opts *opts)
{
	struct hwp_regionset *rs;
	int err;

	clear_error();
	if (!f)
		return fail(-EINVAL, "hwp_region_write: NULL argument");
	err = hwp_regionset_from_regions(&rs);
	if (!err)
		err = hwp_regionset_write(rs, f, opts);
	hwp_regionset_free(rs);
	return err;
}

int region_save_to(const char *path)
{
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_JSON);
	struct hwpriv_ofile *of;
	int err;

	clear_error();
	err = hwpriv_ofile_open(path, &of);
	if (err)
		return err;
	err = hwp_region_write(hwpriv_ofile_stream(of), &o);
	if (err) {
		hwpriv_ofile_abort(of);
		return fail_prefix(err, "saving the regions to '%s'", path);
	}
	return hwpriv_ofile_commit(of);
}

HWP_API int hwp_region_save(const char *path)
{
	int err;

	clear_error();
	if (!path) {
		if (!atomic_load(&regions.ready) || !regions.output)
			return 0;	/* no output configured: nothing to save */
		path = regions.output;
	}
	err = region_save_to(path);
	if (!err && regions.output && !strcmp(path, regions.output))
		atomic_store(&regions.saved, true);
	return err;
}
