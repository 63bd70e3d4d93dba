// SPDX-License-Identifier: MIT
/* A session's user-space reads (count/rdpmc.c) of the calling thread's own
 * counters: whether to ask for them, the pages mapped, the groups read. */
#include "count/session.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static HWP_TLS pid_t cached_tid;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* The forking thread's cache would make the child take the parent's
 * counters for its own. */
static void forget_tid(void)
{
	cached_tid = 0;
}

static void watch_forks(void)
{
	pthread_atfork(NULL, NULL, forget_tid);
}

static pid_t current_tid(void)
{
	if (!cached_tid)
		cached_tid = (pid_t)syscall(SYS_gettid);
	return cached_tid;
}

/* rdpmc reads the counter of the CPU we run on: only for events counting
 * the calling thread itself, not inherited (their children's counts are
 * not on our counter), on the PMU, where the kernel allows it. */
bool session_want_user_read(const struct hwp_session *s)
{
	struct strbuf why = STRBUF_INIT;
	bool hardware = false;

	if (s->opts.no_rdpmc || s->opts.scope != HWP_SCOPE_THREAD || s->opts.pid != 0 ||
	    !s->opts.no_inherit)
		return false;
	for (size_t e = 0; e < s->evl->nr_events; e++) {
		hardware |= s->evl->events[e].is_hardware;
		/* rdpmc of the kernel's topdown-* gives the raw PERF_METRICS
		 * MSR, not the slots x fraction its read() computes. */
		if (s->evl->events[e].is_topdown)
			return false;
	}
	if (!hardware)
		return false;
	if (!rdpmc_allowed(&why)) {
		pr_debug("%s", strbuf_str(&why));
		strbuf_release(&why);
		return false;
	}
	return true;
}

int session_map_rdpmc(struct hwp_session *s)
{
	bool any = false;

	if (!s->user_read)
		return 0;
	pthread_once(&fork_once, watch_forks);
	s->pages = calloc(s->evl->nr_events, sizeof(*s->pages));
	if (!s->pages)
		return fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < s->evl->nr_events; e++)
		if (fds_get(&s->fds, 0, e) >= 0 && s->evl->events[e].is_hardware) {
			s->pages[e] = rdpmc_map(fds_get(&s->fds, 0, e));
			any |= s->pages[e] != NULL;
		}
	if (!any) {
		free(s->pages);
		s->pages = NULL;
	}
	s->owner_tid = current_tid();
	return 0;
}

void session_unmap_rdpmc(struct hwp_session *s)
{
	if (!s->pages)
		return;
	for (size_t e = 0; e < s->evl->nr_events; e++)
		rdpmc_unmap(s->pages[e]);
	free(s->pages);
	s->pages = NULL;
}

HWP_API bool hwp_session_rdpmc(const struct hwp_session *s)
{
	return s && s->open && s->pages;
}

/* Group @g through rdpmc: true when every member was read that way. A
 * member not on a counter, or multiplexed, sends the group to read(). */
bool session_read_group_rdpmc(const struct hwp_session *s, size_t g,
			      struct hwp_count *counts)
{
	size_t start = s->group_start[g], end = s->group_start[g + 1];

	if (current_tid() != s->owner_tid)
		return false;
	for (size_t e = start; e < end; e++)
		if (fds_get(&s->fds, 0, e) >= 0 && !s->pages[e])
			return false;
	for (size_t e = start; e < end; e++) {
		if (fds_get(&s->fds, 0, e) >= 0 && rdpmc_read(s->pages[e], &counts[e])) {
			for (size_t k = start; k <= e; k++)
				counts[k] = (struct hwp_count){ 0 };
			return false;
		}
		if (fds_get(&s->fds, 0, e) >= 0 && s->base)
			counts[e].value -= s->base[e] < counts[e].value ? s->base[e] :
					   counts[e].value;
	}
	((struct hwp_session *)s)->rdpmc_reads++;
	return true;
}

uint64_t session_rdpmc_reads(const struct hwp_session *s)
{
	return s->rdpmc_reads;
}

/* Group @g's members through rdpmc, into its raw buffer: false to read(). */
bool session_read_group_raw_rdpmc(const struct hwp_session *s, size_t g, uint64_t *buf)
{
	struct group_read *b = (struct group_read *)buf;
	struct hwp_count c;
	size_t j = 0;

	if (current_tid() != s->owner_tid)
		return false;
	for (size_t e = s->group_start[g]; e < s->group_start[g + 1]; e++) {
		if (fds_get(&s->fds, 0, e) < 0)
			continue;
		if (!s->pages[e] || rdpmc_read(s->pages[e], &c))
			return false;
		if (!j) {
			b->time_enabled = c.time_enabled;
			b->time_running = c.time_running;
		}
		b->member[j++ * s->member_words] = c.value;
	}
	b->nr = j;
	((struct hwp_session *)s)->rdpmc_reads++;
	return true;
}
