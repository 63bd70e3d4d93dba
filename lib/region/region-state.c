// SPDX-License-Identifier: MIT
/* The state of the regions, which the hot path (region.c) writes and the
 * reports (region-report.c) read, and what the reports ask of a thread's
 * record. */
#include "region/region-state.h"

#include <math.h>
#include <pthread.h>

struct regions_state regions = { .lock = PTHREAD_MUTEX_INITIALIZER,
				 .read_cost_ns = NAN, .tail = &regions.threads };

/* The wall and CPU time of thread @t since its first region. Called with
 * regions.lock held: a thread that has not ended is alive (its exit waits
 * for the lock), so its CPU clock can be read. */
void region_thread_window(const struct thread_rec *t, double *wall, double *cpu)
{
	clockid_t id;

	if (t->ended) {
		*wall = (double)(t->wall_end - t->wall0);
		*cpu = (double)(t->cpu_end - t->cpu0);
		return;
	}
	*wall = (double)(now_ns() - t->wall0);
	*cpu = pthread_getcpuclockid(t->thread, &id) ? INFINITY :
	       (double)(cpu_ns(id) - t->cpu0);
}
