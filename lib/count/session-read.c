// SPDX-License-Identifier: MIT
/* Reading a session: one read() a group and instance, matched to the events
 * by id, less the base of the last reset; raw reads for regions; counts
 * scaled; metrics over a reading. */
#include "count/session.h"

#include <math.h>
#include <string.h>

/* Add one group read to @counts. The kernel lists the leader, then the
 * members in the order they joined: match by position, check by id. */
void session_add_times(const struct hwp_session *s, struct hwp_count *c, uint64_t enabled,
		       uint64_t running)
{
	/* One task on every CPU (a command per thread): each CPU's counter
	 * runs while the task is on that CPU, and its enabled time counts
	 * other CPUs' time too, and that of exited threads that never ran
	 * there. The running times are what the counts cover: they are
	 * not scaled (see hwp_session_read_units()). */
	c->time_enabled += s->per_exit ? running : enabled;
	c->time_running += running;
}

/* Add one group read to @counts, less the base of the last reset; or,
 * with @take_base, make what it read the base. The records lost, into
 * s->read_lost. */
static void add_group_read(struct hwp_session *s, size_t inst, size_t g,
			   struct hwp_count *counts, bool take_base)
{
	const struct group_read *b = (const struct group_read *)s->buf;
	size_t e = s->group_start[g], end = s->group_start[g + 1];
	size_t stride = s->member_words;

	for (uint64_t j = 0; j < b->nr && group_read_words(j + 1, stride) <= s->buf_words;
	     j++) {
		uint64_t value = b->member[j * stride], id = b->member[j * stride + 1];
		uint64_t *base;
		size_t k;

		if (stride > 2)
			s->read_lost += b->member[j * stride + 2];

		while (e < end && fds_get(&s->fds, inst, e) < 0)
			e++;
		k = e;
		/* A group of one reads its own event, whose id was not asked
		 * for (open_req.no_lone_id). */
		if (k >= end || (end - s->group_start[g] > 1 &&
				 fds_id(&s->fds, inst, k) != id))
			for (k = s->group_start[g]; k < end; k++)
				if (fds_get(&s->fds, inst, k) >= 0 &&
				    fds_id(&s->fds, inst, k) == id)
					break;
		if (k >= end)
			continue;
		base = s->base ? &s->base[fds_slot(&s->fds, inst, k)] : NULL;
		if (take_base) {
			*base = value;
			e = k + 1;
			continue;
		}
		if (base)
			value -= *base < value ? *base : value;
		counts[k].value += value;
		session_add_times(s, &counts[k], b->time_enabled, b->time_running);
		e = k + 1;
	}
}

/* ---- raw reads, for regions: the groups' buffers back to back ---- */

size_t session_raw_layout(const struct hwp_session *s, struct raw_item *items,
			      size_t *words)
{
	size_t n = 0, off = 0;

	for (size_t g = 0; g < s->evl->nr_groups; g++) {
		size_t j = 0;

		for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++) {
			if (fds_get(&s->fds, 0, e) < 0)
				continue;
			if (items)
				items[n] = (struct raw_item){
					.event = e,
					.value = off +
						 MEMBER_VALUE_WORD(j, s->member_words),
					.enabled = off + WORD(time_enabled),
					.running = off + WORD(time_running),
				};
			n++;
			j++;
		}
		if (j)
			off += group_read_words(j, s->member_words);
	}
	*words = off;
	return n;
}

int session_read_raw(struct hwp_session *s, uint64_t *buf)
{
	if (!s->open)
		return fail(-EBADF, "reading the counters: the session is closed");
	for (size_t g = 0, off = 0; g < s->evl->nr_groups; g++) {
		int fd = s->raw_fd[g];
		ssize_t n;

		if (fd < 0)
			continue;
		if (!s->pages || !session_read_group_raw_rdpmc(s, g, buf + off)) {
			n = fds_read_fd(fd, buf + off, s->raw_words[g] * sizeof(*buf));
			if (n < 0)
				return fail((int)n, "reading the counters failed: %s",
					    errno_text((int)-n));
		}
		off += s->raw_words[g];
	}
	return 0;
}

/* Every instance's groups into @counts; with @per_unit, instance i's into
 * its unit's row (counts + unit_of[i] * nr_events), else all into one.
 * With @take_base, into s->base instead (by read(): the same counts as
 * rdpmc's, children's included). */
int session_read_instances(struct hwp_session *s, struct hwp_count *counts, bool per_unit,
			   bool take_base)
{
	for (size_t inst = 0; inst < s->nr_inst; inst++)
		for (size_t g = 0; g < s->evl->nr_groups; g++) {
			struct hwp_count *row = per_unit ?
				counts + s->unit_of[inst] * s->evl->nr_events : counts;
			int fd = fds_leader(&s->fds, inst, g);
			ssize_t n;

			if (fd < 0 || (!take_base && s->pages &&
				       session_read_group_rdpmc(s, g, row)))
				continue;
			n = fds_read_fd(fd, s->buf, s->buf_words * sizeof(*s->buf));
			if (n < 0)
				return fail((int)n, "reading the counters failed: %s",
					    errno_text((int)-n));
			/* Nothing left to read: the task is gone. */
			if ((size_t)n < 3 * sizeof(uint64_t))
				continue;
			add_group_read(s, inst, g, row, take_base);
		}
	return 0;
}

HWP_API int hwp_session_read(struct hwp_session *s, struct hwp_count *counts, size_t nr)
{
	if (!s || !s->open)
		return fail(-EBADF, "hwp_session_read: the session is not open");
	if (!counts || nr < s->evl->nr_events)
		return fail(-EINVAL, "hwp_session_read: room for %zu counts, %zu events",
			    nr, s->evl->nr_events);
	memset(counts, 0, s->evl->nr_events * sizeof(*counts));
	return session_read_instances(s, counts, false, false);
}

HWP_API double hwp_count_scaled(const struct hwp_count *c)
{
	if (!c || !c->time_running)
		return NAN;
	if (c->time_running >= c->time_enabled)
		return (double)c->value;
	return (double)c->value * ((double)c->time_enabled / (double)c->time_running);
}

HWP_API double hwp_count_percent_running(const struct hwp_count *c)
{
	if (!c || !c->time_enabled)
		return NAN;
	if (c->time_running >= c->time_enabled)
		return 100.0;
	return 100.0 * (double)c->time_running / (double)c->time_enabled;
}

enum hwp_event_status session_row_status(const struct hwp_session *s, size_t e, size_t n,
					 const char **reason)
{
	enum hwp_event_status st = HWP_EVENT_COUNTING;
	bool any = false;

	if (reason)
		*reason = NULL;
	/* Left out (-C misses its cpumask) is nothing to a row of instances
	 * that others count; a range of left-out instances alone (a formula's
	 * one instance) is what it is: not counted, saying why. */
	for (size_t k = e; k < e + n && k < s->evl->nr_events; k++)
		any |= !s->left_out[k];
	if (!any && e < s->evl->nr_events) {
		if (reason)
			*reason = s->reason[e];
		return s->status[e];
	}
	for (size_t k = e; k < e + n && k < s->evl->nr_events; k++) {
		if (s->left_out[k] || s->status[k] == HWP_EVENT_COUNTING ||
		    (st != HWP_EVENT_COUNTING && s->status[k] == HWP_EVENT_USER_ONLY) ||
		    (st != HWP_EVENT_COUNTING && st != HWP_EVENT_USER_ONLY))
			continue;
		st = s->status[k];
		if (reason)
			*reason = s->reason[k];
	}
	return st;
}

struct hwp_count session_row_count(const struct hwp_count *counts, size_t e, size_t n)
{
	struct hwp_count sum = { 0 };

	for (size_t k = e; k < e + n; k++) {
		sum.value += counts[k].value;
		sum.time_enabled += counts[k].time_enabled;
		sum.time_running += counts[k].time_running;
	}
	return sum;
}

double session_row_scaled(const struct hwp_count *counts, size_t e, size_t n)
{
	double sum = 0;
	bool ran = false;

	/* Each instance scaled by its own share of time, as perf stat does:
	 * one that never ran adds nothing rather than a guess. */
	for (size_t k = e; k < e + n; k++) {
		if (!counts[k].time_running)
			continue;
		sum += hwp_count_scaled(&counts[k]);
		ran = true;
	}
	return ran ? sum : NAN;
}

long session_operand(const struct hwp_session *s, const char *name, size_t *n,
		     enum hwp_event_status *st)
{
	const struct hwp_evlist *evl = s->evl;
	long e = event_find_operand(evl->events, evl->nr_events, name, NULL);

	if (e < 0)
		return -1;
	*n = evlist_operand_events(evl, (size_t)e, name);
	*st = session_row_status(s, (size_t)e, *n, NULL);
	return e;
}

/* ---- metrics over a session's reading ---- */

struct session_lookup {
	const struct hwp_session *s;
	const struct hwp_count *counts;
	double seconds;
	hwp_value_fn extra;	/* asked first; NULL: none */
	void *extra_ctx;
};

static int session_value(const char *name, double *value, void *arg)
{
	const struct session_lookup *sl = arg;
	enum hwp_event_status st;
	size_t e, n;
	long found;
	int err;

	if (sl->extra && (err = sl->extra(name, value, sl->extra_ctx)) != -ENOENT)
		return err;
	if (!strcmp(name, "seconds")) {
		*value = sl->seconds;
		return sl->seconds > 0 ? 0 : -HWP_ERR_UNDEFINED;
	}
	found = session_operand(sl->s, name, &n, &st);
	if (found < 0)
		return -ENOENT;
	e = (size_t)found;
	if (st == HWP_EVENT_NOT_SUPPORTED) {
		const char *why;

		session_row_status(sl->s, e, n, &why);
		return fail(-EOPNOTSUPP, "%s", why ? why : "its row says why");
	}
	if (st != HWP_EVENT_COUNTING && st != HWP_EVENT_USER_ONLY)
		return -HWP_ERR_UNDEFINED;
	*value = session_row_scaled(sl->counts, e, n);
	return isnan(*value) ? -HWP_ERR_UNDEFINED : 0;
}

HWP_API int hwp_session_metric(const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds,
			       const struct hwp_metric *m, double *value)
{
	clear_error();
	if (!s || !counts || !m || !value)
		return fail(-EINVAL, "hwp_session_metric: NULL argument");
	return session_metric_with(s, counts, seconds, m, NULL, NULL, value);
}

int session_metric_with(const struct hwp_session *s, const struct hwp_count *counts,
			double seconds, const struct hwp_metric *m, hwp_value_fn extra,
			void *extra_ctx, double *value)
{
	struct session_lookup sl = { s, counts, seconds, extra, extra_ctx };

	return hwp_metric_eval(m, session_value, &sl, value);
}
