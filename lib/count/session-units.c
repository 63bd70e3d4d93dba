// SPDX-License-Identifier: MIT
/* A session's aggregation units: CPUs grouped by the topology, or threads
 * named comm-tid. */
#include "count/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct unit *add_unit(struct hwp_session *s)
{
	if (s->nr_units == s->cap_units) {
		size_t cap = s->cap_units ? 2 * s->cap_units : 8;
		struct unit *u = realloc(s->units, cap * sizeof(*u));
		struct hwp_count *x = NULL;

		if (!u)
			return NULL;
		s->units = u;
		if (s->per_exit) {
			x = realloc(s->exited, cap * s->evl->nr_events * sizeof(*x));
			if (!x)
				return NULL;
			s->exited = x;
		}
		s->cap_units = cap;
	}
	if (s->per_exit)
		memset(&s->exited[s->nr_units * s->evl->nr_events], 0,
		       s->evl->nr_events * sizeof(*s->exited));
	memset(&s->units[s->nr_units], 0, sizeof(s->units[0]));
	s->units[s->nr_units].tid = -1;
	s->units[s->nr_units].package = s->units[s->nr_units].die = -1;
	return &s->units[s->nr_units++];
}

/* Thread @tid's unit, named comm-tid ("comm-running" for tid -1). */
int session_rename_unit(struct unit *x, const char *comm, pid_t tid)
{
	char *c = strdup(comm), *name;

	if (!c || (tid > 0 ? asprintf(&name, "%s-%d", comm, (int)tid) :
		   asprintf(&name, "%s-running", comm)) < 0) {
		free(c);
		return fail(-ENOMEM, "out of memory");
	}
	free(x->comm);
	free(x->name);
	x->comm = c;
	x->name = name;
	x->tid = tid;
	x->id = tid;
	return 0;
}

int session_thread_unit(struct hwp_session *s, pid_t tid, const char *comm)
{
	struct unit *u = add_unit(s);

	return u ? session_rename_unit(u, comm, tid) : fail(-ENOMEM, "out of memory");
}

static void read_comm(pid_t pid, pid_t tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f || !fgets(buf, (int)size, f))
		snprintf(buf, size, "?");
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The units of opts.aggr, once the instances are open. */
int session_units_build(struct hwp_session *s)
{
	struct hwp_topology *topo = NULL;
	size_t *unit_of_cpu = NULL;
	struct unit *u;
	int err = 0;

	s->unit_of = calloc(s->nr_inst, sizeof(*s->unit_of));
	if (!s->unit_of)
		return fail(-ENOMEM, "out of memory");
	switch (s->opts.aggr) {
	case HWP_AGGR_GLOBAL:
		if (!(u = add_unit(s)) || !(u->name = strdup("all")))
			return fail(-ENOMEM, "out of memory");
		return 0;
	case HWP_AGGR_THREAD:
		/* A command: its first thread's unit, on every CPU; the others
		 * come with their exits. */
		for (size_t i = 0; i < s->nr_inst && !err; i++) {
			if (s->per_exit && i) {
				s->unit_of[i] = 0;
				continue;
			}
			pid_t tid = s->t.tids[i % s->t.nr_tids];
			char comm[64];

			s->first_tid = tid;
			read_comm(s->opts.pid ? s->opts.pid : getpid(), tid, comm,
				  sizeof(comm));
			s->unit_of[i] = s->nr_units;
			err = session_thread_unit(s, tid, comm);
		}
		return err;
	default:
		break;
	}
	unit_of_cpu = calloc(s->t.nr_cpus, sizeof(*unit_of_cpu));
	if (!unit_of_cpu)
		return fail(-ENOMEM, "out of memory");
	err = hwp_topology_load(NULL, &topo);
	if (!err)
		err = units_of_cpus(topo, s->opts.aggr, s->t.cpus, s->t.nr_cpus,
				    &s->units, &s->nr_units, unit_of_cpu);
	s->cap_units = s->nr_units;
	for (size_t i = 0; !err && i < s->nr_inst; i++)
		s->unit_of[i] = unit_of_cpu[i / s->t.nr_tids];
	hwp_topology_free(topo);
	free(unit_of_cpu);
	return err;
}

HWP_API size_t hwp_session_nr_units(const struct hwp_session *s)
{
	return s && s->open ? s->nr_units : 0;
}

HWP_API int hwp_session_unit(const struct hwp_session *s, size_t idx,
			     struct hwp_unit_info *info)
{
	struct hwp_unit_info i;

	clear_error();
	if (!s || !info || !s->open || idx >= s->nr_units)
		return fail(-EINVAL, "hwp_session_unit: no unit %zu", idx);
	unit_info(&s->units[idx], s->opts.aggr, &i);
	return info_fill(info, &i, sizeof(i));
}
