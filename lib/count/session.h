/* SPDX-License-Identifier: MIT */
/*
 * The inside of a counting session, shared by the files that make it:
 * counter.c (new, open, enable, close), session-read.c (reads, metrics),
 * session-units.c (aggregation units), session-exits.c and session-first.c
 * (counts per thread of a command), session-rdpmc.c (user-space reads),
 * session-cgroup.c.
 * Its descriptors are event/fds.h matrices: events x instances, and for
 * counts per thread of a command, the events on its first thread alone.
 */
#ifndef HWPROF_COUNT_SESSION_H
#define HWPROF_COUNT_SESSION_H

#include "count/count.h"
#include "event/fds.h"
#include "event/ring.h"

#include <stddef.h>

#define READ_FORMAT \
	(PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/* What one read() of a group returns (READ_FORMAT): the times, then a
 * value and an id a member, leader first, in the order they joined; and
 * the records the member's ring had no room for, with PERF_FORMAT_LOST
 * (counts per thread of a command). */
struct group_read {
	uint64_t nr;
	uint64_t time_enabled;
	uint64_t time_running;
	uint64_t member[];	/* @stride words a member: value, id[, lost] */
};

#define WORD(field) (offsetof(struct group_read, field) / sizeof(uint64_t))
#define MEMBER_WORDS_MAX 3

/* The size in words of a group read of @members of @stride words, and
 * where member @j's value lies in it. */
static inline size_t group_read_words(size_t members, size_t stride)
{
	return WORD(member) + members * stride;
}

#define MEMBER_VALUE_WORD(j, stride) group_read_words(j, stride)

struct hwp_session {
	struct hwp_evlist *evl;
	struct hwp_session_opts opts;
	char *cpulist;
	struct targets t;	/* CPUs of HWP_SCOPE_CPUS, else -1; threads, else -1 */
	size_t nr_inst;		/* t.nr_cpus * t.nr_tids */
	struct perf_event_attr *attrs;	/* per event, as last opened (after fallbacks) */
	/* nr_groups + 1: the events of group g are [start[g], start[g+1]). */
	size_t *group_start;
	struct fds fds;		/* [inst][event], in the groups of the list */
	/* Per slot of fds: what the kernel still reports after the last reset (the
	 * counts exited children passed up), taken off each read; NULL: none */
	uint64_t *base;
	enum hwp_event_status *status;
	char **reason;
	/* Per event: an instance of a merged row whose cpumask the CPU list
	 * misses while another instance's it meets: not part of the row. */
	bool *left_out;
	uint64_t *buf;		/* one group read */
	size_t buf_words;
	void **pages;		/* rdpmc: the mmap'ed page of each slot, or NULL */
	pid_t owner_tid;	/* rdpmc reads only work on the counted thread itself */
	uint64_t rdpmc_reads;	/* groups read through rdpmc: for the tests */
	bool user_read;		/* open hardware events for user-space reads */
	int *raw_fd;		/* per group: its leader's fd on instance 0, or -1 */
	size_t *raw_words;	/* per group: the words of its read */
	bool open;
	/* Aggregation units (opts.aggr), built at the open. */
	struct unit *units;
	size_t nr_units, cap_units;
	size_t *unit_of;	/* per instance: its unit */
	char *cgroup;		/* opts.cgroup, copied */
	int cgroup_fd;		/* its directory, open while the session is */
	/* A command per thread: the threads' exit records (inherit_stat) in
	 * one ring; exited[u * nr_events + e] what unit u counted. */
	struct ring *rings;	/* one an instance (a CPU) */
	bool per_exit;
	struct hwp_count *exited;
	uint64_t lost;		/* records the ring had no room for */
	uint64_t read_lost;	/* the same, as the last read of the counters says */
	struct exit_reader *reader;	/* reads the rings while the command runs */
	struct fds first;	/* [0][event]: the first thread's own counters */
	struct targets first_t;	/* the first thread, on any CPU */
	size_t ring_pages;	/* each ring's data pages */
	bool ring_unread;	/* a test's: no reader, only the reads empty them */
	size_t member_words;	/* a member's words in a group read */
	struct tid_comm *comms;	/* each thread's name, from FORK and COMM */
	pid_t first_tid;	/* the command's first thread */
	size_t nr_comms, cap_comms;
};

struct tid_comm {
	pid_t tid, ptid;	/* ptid: its creator, from its FORK; 0 if unknown */
	char comm[16];		/* "" until a COMM record names it */
	uint32_t reads;		/* its exit's READ records */
};

/* session-read.c */
/* Add a group read's times to @c (a command per thread: its running time
 * for both, see hwp_session_read_units()). */
void session_add_times(const struct hwp_session *s, struct hwp_count *c, uint64_t enabled,
		       uint64_t running);
/* Every instance's groups into @counts; with @per_unit, instance i's into
 * its unit's row (counts + unit_of[i] * nr_events), else all into one.
 * With @take_base, into s->base instead (by read(): the same counts as
 * rdpmc's, children's included). */
int session_read_instances(struct hwp_session *s, struct hwp_count *counts, bool per_unit,
			   bool take_base);

/* session-rdpmc.c */
/* Whether to open the hardware events for user-space reads. */
bool session_want_user_read(const struct hwp_session *s);
/* Map the pages of instance 0's hardware events (s->user_read), or unmap. */
int session_map_rdpmc(struct hwp_session *s);
void session_unmap_rdpmc(struct hwp_session *s);
/* Group @g through rdpmc, into @counts or into its raw buffer @buf: false
 * when it must be read() instead. */
bool session_read_group_rdpmc(const struct hwp_session *s, size_t g,
			      struct hwp_count *counts);
bool session_read_group_raw_rdpmc(const struct hwp_session *s, size_t g, uint64_t *buf);

/* session-units.c */
/* The units of opts.aggr, once the instances are open. */
int session_units_build(struct hwp_session *s);
/* Name @x thread @tid's unit: comm-tid ("comm-running" for tid -1). */
int session_rename_unit(struct unit *x, const char *comm, pid_t tid);
/* A new unit for thread @tid. */
int session_thread_unit(struct hwp_session *s, pid_t tid, const char *comm);

/* session-exits.c: a command per thread (s->per_exit) */
/* The rings of the threads' exit records, one an instance (a CPU). */
int session_exit_rings_map(struct hwp_session *s);
void session_exit_rings_unmap(struct hwp_session *s);
/* Take the exit records read since the last take into the units. */
int session_take_exits(struct hwp_session *s);

/* session-first.c: a command per thread, its first thread's own counters
 * (which also keep the kernel from swapping the threads' counters), in
 * s->first: opened, closed, and read; ioctl'ed by fds_ioctl(). */
int session_first_open(struct hwp_session *s);
void session_first_close(struct hwp_session *s);
/* The first thread's counts into @row (one an event). */
int session_first_read(const struct hwp_session *s, struct hwp_count *row);

/* session-cgroup.c */
/* 0, or -EINVAL with why: @name is no cgroup perf's -G would take. */
int cgroup_check_name(const char *name);
/* Open s->cgroup's directory into s->cgroup_fd (none: 0, nothing done). */
int session_cgroup_open(struct hwp_session *s);

#endif
