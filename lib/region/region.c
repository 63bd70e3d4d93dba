// SPDX-License-Identifier: MIT
/* Regions: a benchmark marks parts of itself with hwp_region_begin/end and
 * gets counts per region and per thread, as with LIKWID's markers or PAPI's
 * high-level regions.
 *
 * Each thread counts itself with its own session, opened at its first
 * region and left running; a region reads the counters at begin and end
 * and adds the difference. The hot path takes no lock and allocates only
 * the first time a thread meets a region name. Another thread (a report,
 * the exit handler) reads the sums through a per-thread seqlock
 * (region-report.c). */
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_EVENTS \
	"{task-clock,page-faults,context-switches,cpu-migrations},{cycles,instructions}"

static HWP_TLS struct thread_rec *self;

/* The owner's add: no read-modify-write instruction is needed, as only
 * the owner writes. */
static inline void add(_Atomic uint64_t *p, uint64_t v)
{
	atomic_store_explicit(p, load(p) + v, memory_order_relaxed);
}

/* ---- configuration ---- */

/* Where the at-exit writer keeps the results it could not write to the
 * output: a file of their own in $TMPDIR. */
static int save_fallback(char **path)
{
	const char *tmp = getenv("TMPDIR");

	if (asprintf(path, "%s/hwprof-regions.%d.%ld.json", tmp && *tmp ? tmp : "/tmp",
		     (int)getpid(), (long)time(NULL)) < 0) {
		*path = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	return region_save_to(*path);
}

/*
 * The at-exit writer, for programs that leave the saving to the library.
 * It cannot change the program's exit status: when the output cannot be
 * written, the results go to a file of their own and the message says
 * where, so that nothing is lost silently. A program that must fail on
 * this saves them itself (hwp_region_save(NULL)) and checks.
 */
static void regions_at_exit(void)
{
	char why[HWP_ERRMSG_MAX], *fallback = NULL;

	if (!regions.output || atomic_load(&regions.saved) ||
	    !region_save_to(regions.output))
		return;
	snprintf(why, sizeof(why), "%s", hwp_errmsg());
	if (!save_fallback(&fallback))
		lib_log(HWP_LOG_ERROR, "regions: the results were NOT saved: %s. They are in '%s' instead.",
			why, fallback);
	else
		lib_log(HWP_LOG_ERROR, "regions: the results were NOT saved: %s; nor kept: %s. They are lost.",
			why, hwp_errmsg());
	free(fallback);
}

static void thread_exit(void *arg);

/* Everything a thread's record holds: its counters, its slots, itself. */
static void record_free(struct thread_rec *t)
{
	size_t n = atomic_load_explicit(&t->nr_slots, memory_order_relaxed);
	struct chunk *c, *next;

	hwp_session_free(t->s);
	free(t->now);
	free(t->items);
	for (size_t i = 0; i < n; i++) {
		free(slot_at(t, i)->name);
		free(slot_at(t, i)->value);
	}
	for (c = t->first.next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(t);
}

/* fork() waits for the registry to be whole: another thread may be adding
 * itself to it, closing its counters or walking it, and a child must not
 * copy it halfway through. */
static void regions_before_fork(void)
{
	pthread_mutex_lock(&regions.lock);
}

static void regions_parent_after_fork(void)
{
	pthread_mutex_unlock(&regions.lock);
}

/* After fork(), the child's copy of our counters counts the parent's
 * threads: the child drops the parent's records (closing its copies of
 * their descriptors), starts with no regions, and opens its own at its
 * first region. The lock, taken before the fork, starts over. */
static void regions_after_fork(void)
{
	struct thread_rec *t = regions.threads, *next;

	/* no destructor on a freed record */
	if (self)
		pthread_setspecific(regions.key, NULL);
	for (; t; t = next) {
		next = t->next;
		record_free(t);
	}
	self = NULL;
	regions.threads = NULL;
	regions.tail = &regions.threads;
	pthread_mutex_init(&regions.lock, NULL);
}

/* Called with regions.lock held. */
static int configure(const struct hwp_region_opts *o)
{
	const char *events = getenv("HWPROF_EVENTS");
	const char *output = getenv("HWPROF_OUTPUT");
	const char *every = getenv("HWPROF_SAMPLE_EVERY");
	bool from_env = events && *events;
	int err;

	if (!from_env)
		events = o->events ? o->events : DEFAULT_EVENTS;
	if (!output || !*output)
		output = o->output;
	regions.sample_every = o->sample_every;
	if (every && *every) {
		char *end;
		unsigned long v = strtoul(every, &end, 10);

		if (*end || v > 1000000000UL)
			return fail(-HWP_ERR_SYNTAX,
					"HWPROF_SAMPLE_EVERY='%s' is not a number of calls",
					every);
		regions.sample_every = (unsigned int)v;
	}
	if (regions.sample_every == 0)
		regions.sample_every = 1;
	regions.no_rdpmc = o->no_rdpmc;
	err = hwp_evlist_parse(events, NULL, &regions.evl);
	if (err)
		return fail_prefix(err, "regions: the events %s'%s'",
				   from_env ? "of HWPROF_EVENTS=" : "", events);
	if (output && !(regions.output = strdup(output)))
		return fail(-ENOMEM, "out of memory");
	if (pthread_key_create(&regions.key, thread_exit))
		return fail(-EAGAIN, "regions: no thread-specific key left");
	pthread_atfork(regions_before_fork, regions_parent_after_fork,
		       regions_after_fork);
	if (regions.output) {
		/* Said now, not after the run: the results would go elsewhere. */
		if (ofile_check(regions.output))
			lib_log(HWP_LOG_WARN,
				"regions: %s; at exit, the results will go to "
				"a file in $TMPDIR instead, unless the program saves them",
				hwp_errmsg());
		clear_error();
		atexit(regions_at_exit);
	}
	return 0;
}

static int init_locked(const struct hwp_region_opts *o)
{
	int err = configure(o);

	if (err) {
		/* Said once, here: a program that never checks what its regions
		 * return would otherwise count nothing, silently. */
		lib_log(HWP_LOG_WARN, "%s; no region is counted", hwp_errmsg());
		regions.error = err;
		hwp_evlist_free(regions.evl);
		regions.evl = NULL;
	}
	atomic_store(&regions.ready, true);
	return err;
}

HWP_API int hwp_region_init(const struct hwp_region_opts *opts)
{
	struct hwp_region_opts o;
	int err;

	clear_error();
	err = OPTS_COPY(&o, opts, hwp_region_opts);
	if (err)
		return err;
	pthread_mutex_lock(&regions.lock);
	if (atomic_load(&regions.ready))
		err = fail(-EBUSY, "regions are configured already: call hwp_region_init() once, before the first region");
	else
		err = init_locked(&o);
	pthread_mutex_unlock(&regions.lock);
	return err;
}

static int ensure_ready(void)
{
	if (!atomic_load_explicit(&regions.ready, memory_order_acquire)) {
		struct hwp_region_opts o = { .sz = sizeof(o) };

		pthread_mutex_lock(&regions.lock);
		if (!atomic_load(&regions.ready))
			init_locked(&o);
		pthread_mutex_unlock(&regions.lock);
	}
	return regions.error;
}

/* ---- threads ---- */

/* The cost of one read, measured once: regions shorter than a few reads
 * are not worth trusting, and the report says so. */
static void calibrate(struct thread_rec *t)
{
	double best = INFINITY;

	for (int round = 0; round < 5; round++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < 200; i++)
			session_read_raw(t->s, t->now);
		if ((double)(now_ns() - t0) / 200.0 < best)
			best = (double)(now_ns() - t0) / 200.0;
	}
	regions.read_cost_ns = best;
}

/* The raw buffers of a thread whose counters opened: one for the end and
 * one a nesting level. */
static int thread_buffers(struct thread_rec *t)
{
	size_t words;
	uint64_t *raw;

	t->nr_items = session_raw_layout(t->s, NULL, &words);
	t->items = calloc(t->nr_items ? t->nr_items : 1, sizeof(*t->items));
	raw = calloc((FRAMES_MAX + 2) * (words ? words : 1), sizeof(*raw));
	if (!t->items || !raw) {
		free(raw);
		return fail(-ENOMEM, "out of memory");
	}
	session_raw_layout(t->s, t->items, &words);
	t->now = raw;
	t->again = raw + (FRAMES_MAX + 1) * words;
	for (size_t i = 0; i < FRAMES_MAX; i++)
		t->frames[i].start = raw + (i + 1) * words;
	return 0;
}

static int thread_register(struct thread_rec **out)
{
	HWP_OPTS(hwp_session_opts, so, .scope = HWP_SCOPE_THREAD, .no_inherit = true,
		 .no_rdpmc = regions.no_rdpmc);
	struct thread_rec *t = calloc(1, sizeof(*t));
	int err;

	if (!t)
		return fail(-ENOMEM, "out of memory");
	t->last = &t->first;
	t->tid = (pid_t)syscall(SYS_gettid);
	t->thread = pthread_self();
	t->wall0 = now_ns();
	t->cpu0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	err = hwp_session_new(regions.evl, &so, &t->s);
	if (!err)
		err = hwp_session_open(t->s);
	if (!err)
		err = hwp_session_enable(t->s);
	if (!err)
		err = thread_buffers(t);
	if (err)
		t->error = fail_prefix(err, "regions: counting thread %d", (int)t->tid);
	pthread_setspecific(regions.key, t);
	pthread_mutex_lock(&regions.lock);
	*regions.tail = t;
	regions.tail = &t->next;
	if (!t->error && isnan(regions.read_cost_ns))
		calibrate(t);
	pthread_mutex_unlock(&regions.lock);
	*out = self = t;
	return t->error;
}

/* The thread is gone: its counters close, its sums stay for the report. */
static void thread_exit(void *arg)
{
	struct thread_rec *t = arg;

	hwp_session_close(t->s);
	pthread_mutex_lock(&regions.lock);
	t->wall_end = now_ns();
	t->cpu_end = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
	t->ended = true;
	/* A region in a later thread-specific destructor finds it closed. */
	if (!t->error)
		t->error = -ESRCH;
	free(t->now);
	free(t->items);
	t->now = NULL;
	t->again = NULL;
	t->items = NULL;
	for (size_t i = 0; i < FRAMES_MAX; i++)
		t->frames[i].start = NULL;
	pthread_mutex_unlock(&regions.lock);
}

static struct slot *new_slot(struct thread_rec *t, const char *name)
{
	size_t n = hwp_evlist_nr_events(regions.evl);
	size_t idx = atomic_load_explicit(&t->nr_slots, memory_order_relaxed);
	struct chunk *c = t->last, *fresh = NULL;
	struct slot *s;

	if (idx && idx % SLOTS_PER_CHUNK == 0) {
		fresh = calloc(1, sizeof(*fresh));
		if (!fresh)
			return NULL;
		c = fresh;
	}
	s = &c->slots[idx % SLOTS_PER_CHUNK];
	s->name = strdup(name);
	s->value = calloc(4 * n, sizeof(*s->value));
	if (!s->name || !s->value) {
		free(s->name);
		free(s->value);
		s->name = NULL;
		s->value = NULL;
		free(fresh);	/* never linked: the list stays whole */
		return NULL;
	}
	s->enabled = s->value + n;
	s->running = s->value + 2 * n;
	s->empty = s->value + 3 * n;
	atomic_init(&s->min_ns, UINT64_MAX);
	s->key = name;
	if (fresh) {
		t->last->next = fresh;
		t->last = fresh;
	}
	/* Publish: a reader that sees the count sees the slot whole. */
	atomic_store_explicit(&t->nr_slots, idx + 1, memory_order_release);
	return s;
}

static struct slot *find_slot(struct thread_rec *t, const char *name)
{
	size_t nr = atomic_load_explicit(&t->nr_slots, memory_order_relaxed);
	struct chunk *c = &t->first;

	for (size_t i = 0; i < nr; i++) {
		struct slot *s = &c->slots[i % SLOTS_PER_CHUNK];

		/* the pointer first, then the text: a caller may format
		 * several names into one buffer */
		if (s->key == name && !strcmp(s->name, name))
			return s;
		if (i % SLOTS_PER_CHUNK == SLOTS_PER_CHUNK - 1)
			c = c->next;
	}
	c = &t->first;
	for (size_t i = 0; i < nr; i++) {
		struct slot *s = &c->slots[i % SLOTS_PER_CHUNK];

		if (!strcmp(s->name, name)) {
			s->key = name;	/* the next call takes the fast path */
			return s;
		}
		if (i % SLOTS_PER_CHUNK == SLOTS_PER_CHUNK - 1)
			c = c->next;
	}
	return new_slot(t, name);
}

/* ---- the hot path ---- */

HWP_API int hwp_region_begin(const char *name)
{
	struct thread_rec *t = self;
	struct frame *f;
	struct slot *s;
	int err;

	if (!t) {
		if (!name)
			return fail(-EINVAL, "hwp_region_begin: the name is NULL");
		err = ensure_ready();
		if (err)
			return err;
		err = thread_register(&t);
		if (err)
			return err;
	}
	if (t->error == -ESRCH)
		return fail(-ESRCH,
			    "regions: this thread is exiting: its counters are closed");
	if (t->error)
		return t->error;
	if (!name)
		return fail(-EINVAL, "hwp_region_begin: the name is NULL");
	if (t->depth == FRAMES_MAX)
		return fail(-E2BIG, "region '%s': regions nest at most %d deep", name,
				FRAMES_MAX);
	s = find_slot(t, name);
	if (!s)
		return fail(-ENOMEM, "out of memory");
	f = &t->frames[t->depth++];
	f->slot = s;
	f->measured = s->begins++ % regions.sample_every == 0;
	if (f->measured) {
		f->t0 = now_ns();
		err = session_read_raw(t->s, f->start);
		if (err) {
			t->depth--;
			return err;
		}
	}
	return 0;
}

/* Measured one call in N, the others are estimated as a measured call
 * less what an empty one counts (region_estimate()). Read again at once,
 * under the same conditions (a busy machine, cold caches) as the call: the
 * counts from this call's last read to that one are an empty call's (from
 * one read to the next), the wall time one read of its two. An interrupt
 * there must not take more than the call counted. */
static inline void add_empty(struct thread_rec *t, const struct frame *f, struct slot *s,
			     uint64_t ns, uint64_t call_ns)
{
	for (size_t i = 0; i < t->nr_items; i++) {
		const struct raw_item *it = &t->items[i];
		uint64_t empty = t->again[it->value] - t->now[it->value];
		uint64_t call = t->now[it->value] - f->start[it->value];

		add(&s->empty[it->event], empty < call ? empty : call);
	}
	add(&s->empty_ns, 2 * ns < call_ns ? 2 * ns : call_ns);
}

static inline int end_measured(struct thread_rec *t, struct frame *f, struct slot *s,
			       uint64_t ops)
{
	bool sparse = regions.sample_every > 1;
	int err = session_read_raw(t->s, t->now);
	uint64_t t1 = now_ns(), t2 = t1;
	unsigned int seq = atomic_load_explicit(&t->seq, memory_order_relaxed);

	if (!err && sparse) {
		err = session_read_raw(t->s, t->again);
		t2 = now_ns();
	}
	if (err)
		return err;
	atomic_store_explicit(&t->seq, seq + 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	for (size_t i = 0; i < t->nr_items; i++) {
		const struct raw_item *it = &t->items[i];

		add(&s->value[it->event], t->now[it->value] - f->start[it->value]);
		add(&s->enabled[it->event], t->now[it->enabled] - f->start[it->enabled]);
		add(&s->running[it->event], t->now[it->running] - f->start[it->running]);
	}
	if (sparse)
		add_empty(t, f, s, t2 - t1, t1 - f->t0);
	add(&s->ns, t1 - f->t0);
	if (t1 - f->t0 < load(&s->min_ns))
		atomic_store_explicit(&s->min_ns, t1 - f->t0, memory_order_relaxed);
	add(&s->measured, 1);
	add(&s->calls, 1);
	add(&s->ops, ops);
	atomic_store_explicit(&t->seq, seq + 2, memory_order_release);
	return 0;
}

HWP_API int hwp_region_end_ops(const char *name, uint64_t ops)
{
	struct thread_rec *t = self;
	struct frame *f;
	struct slot *s;

	if (!t || !t->depth)
		return fail(-EINVAL, "hwp_region_end('%s') without a hwp_region_begin() in this thread",
				name ? name : "(null)");
	f = &t->frames[t->depth - 1];
	s = f->slot;
	if (!name || strcmp(s->name, name))
		return fail(-EINVAL,
			    "hwp_region_end('%s'): the innermost open region is '%s'",
			    name ? name : "(null)", s->name);
	t->depth--;
	if (f->measured)
		return end_measured(t, f, s, ops);
	atomic_store_explicit(&t->seq,
			      atomic_load_explicit(&t->seq, memory_order_relaxed) + 1,
			      memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	add(&s->calls, 1);
	add(&s->ops, ops);
	atomic_store_explicit(&t->seq,
			      atomic_load_explicit(&t->seq, memory_order_relaxed) + 1,
			      memory_order_release);
	return 0;
}

HWP_API int hwp_region_end(const char *name)
{
	return hwp_region_end_ops(name, 0);
}
