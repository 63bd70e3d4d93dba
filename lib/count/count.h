/* SPDX-License-Identifier: MIT */
/*
 * Counting: sessions of counter groups on targets, their reads (read() or
 * user space, count/rdpmc.h), and metrics over the counts.
 */
#ifndef HWPROF_COUNT_H
#define HWPROF_COUNT_H

#include "core/core.h"

/* rdpmc.c: user-space reads of the calling thread's own counters (rdpmc on
 * x86, mrs on arm64) */
bool rdpmc_arch(void);
/* Whether the kernel lets user space read counters now; if not, why and
 * the fix into @why (may be NULL). */
bool rdpmc_allowed(struct strbuf *why);
/* Ask for user-space reads in @attr where the PMU must be asked (arm64:
 * its "rdpmc" format bit); a no-op elsewhere. */
void rdpmc_request(struct perf_event_attr *attr);
void *rdpmc_map(int fd);
void rdpmc_unmap(void *page);
/* 0 with @c filled, or -EAGAIN: read() instead. */
int rdpmc_read(const void *page, struct hwp_count *c);

/* session-rdpmc.c: how many group reads went through rdpmc (for the tests). */
uint64_t session_rdpmc_reads(const struct hwp_session *s);

/* Raw reads for regions, of a session with one instance (a thread): each
 * group's read() buffer (PERF_FORMAT_GROUP) back to back, and where each
 * open event's value and times are in it. The layout is fixed at the open. */
struct raw_item {
	size_t event;		/* index in the event list */
	size_t value, enabled, running;	/* word offsets in the buffer */
};
/* The number of items; @items (may be NULL) gets them, *@words the size. */
size_t session_raw_layout(const struct hwp_session *s, struct raw_item *items,
			      size_t *words);
int session_read_raw(struct hwp_session *s, uint64_t *buf);

/* The row of @s's events [@e, @e + @n): one event, or the instances of a
 * PMU merged into one (evlist_row_events()). Its status: counting when
 * each instance counts, else the first that does not (user space only
 * the least of them), *@reason (may be NULL) its reason. An instance that
 * the CPU list leaves out while another counts is no part of it. */
enum hwp_event_status session_row_status(const struct hwp_session *s, size_t e, size_t n,
					 const char **reason);
/* Its count in @counts, one an event: their values and times added up,
 * for the times (the percent running); not a value to scale. */
struct hwp_count session_row_count(const struct hwp_count *counts, size_t e, size_t n);
/* Its value: the sum of each instance's scaled count (an instance that
 * never ran adds 0), NAN when none ran. */
double session_row_scaled(const struct hwp_count *counts, size_t e, size_t n);

/* The events that formula operand @name reads (an event, or the instances of
 * its row, evlist_operand_events()): the first, or -1 when no event is named
 * so; *@n how many, *@st the status of them together (session_row_status()).
 * The one rule for whether a formula's input counts. */
long session_operand(const struct hwp_session *s, const char *name, size_t *n,
		     enum hwp_event_status *st);

/* hwp_session_metric(), asking @extra first (a result's scores): a name
 * it answers -ENOENT for is looked up among the events. */
int session_metric_with(const struct hwp_session *s, const struct hwp_count *counts,
			double seconds, const struct hwp_metric *m, hwp_value_fn extra,
			void *extra_ctx, double *value);

/* exit-reader.c: the exit records of a command counted per thread, read
 * from the rings while it runs (by a thread of its own where @threaded),
 * into a queue that exit_reader_take() hands on. */
struct exit_reader;
struct ring;
int exit_reader_new(bool threaded, struct exit_reader **out);
/* Read @rings (borrowed, until exit_reader_free()) from now on. */
int exit_reader_watch(struct exit_reader *r, struct ring *rings, size_t nr);
/* Empty the rings, then hand @fn every record read since the last take. */
int exit_reader_take(struct exit_reader *r,
		     int (*fn)(const struct perf_event_header *h, void *ctx), void *ctx);
void exit_reader_free(struct exit_reader *r);
/* Whether the tasks of every ring are gone, and their threads: the rings
 * have all they will ever hold. */
bool exit_rings_hup(const struct ring *rings, size_t nr);
/* Each ring's data pages: EXIT_RING_PAGES, or what HWPROF_EXIT_RING (a
 * test's) says: PAGES[,unread], where unread sets *@unread: no thread reads
 * the rings, only the session's reads. */
#define EXIT_RING_PAGES 128	/* 512 KiB a CPU, as perf record's */
#define EXIT_RING_MIN_PAGES 16
#define EXIT_RING_WAKE 16384	/* bytes written between wakes of the reader */
/* What ends each exit record (sample_id_all): its time, then the id of the
 * counter that wrote it (a group's record may hold the other members too). */
#define EXIT_SAMPLE_ID_ALL (PERF_SAMPLE_TIME | PERF_SAMPLE_ID)
#define EXIT_TRAILER_WORDS 2
size_t exit_ring_pages(bool *unread);
/* ring_map() of *@pages, or of half as many where the kernel refuses
 * (RLIMIT_MEMLOCK, kernel.perf_event_mlock_kb), down to EXIT_RING_MIN_PAGES;
 * *@pages gets what was mapped. */
int exit_ring_map(struct ring *r, int fd, size_t *pages);
/* Whether the kernel counts a ring's lost records in reads
 * (PERF_FORMAT_LOST, Linux 6.0). */
bool exit_lost_format(void);
size_t exit_ring_kib(size_t pages);
/* 0, or -EOVERFLOW with why, when @lost records did not fit rings of @pages. */
int exit_lost_error(uint64_t lost, size_t pages);

/* topology.c: what sysfs says of each online CPU. */
struct cpu_topo {
	int cpu, core, die, package, node;
};

struct hwp_topology {
	struct cpu_topo *cpus;	/* ascending by CPU */
	size_t nr;
};

/* An aggregation unit of a session: CPUs grouped by the topology, or a
 * thread. */
struct unit {
	char *name;		/* perf's: CPU3, S0-D0-C1, S0-D0, S1, N0; comm-tid */
	int id;			/* the CPU, core, die, package or node; the tid */
	int package, die;	/* of a CPU unit; -1 for threads */
	int *cpus;		/* the session's CPUs in it, ascending; NULL: threads */
	size_t nr_cpus;
	pid_t tid;		/* threads; else -1 */
	char *comm;		/* threads; else NULL */
};

/* Group @cpus into units of @aggr (not HWP_AGGR_THREAD), in perf's order
 * (by package, die, core; CPUs and nodes by number): *@units, and in
 * @unit_of (room for @nr_cpus) the unit of each CPU. -ENODEV for a CPU
 * the topology does not have. */
int units_of_cpus(const struct hwp_topology *t, enum hwp_aggr aggr, const int *cpus,
		  size_t nr_cpus, struct unit **units, size_t *nr_units, size_t *unit_of);
void unit_release(struct unit *u);
void units_release(struct unit *u, size_t nr);
/* Describe @u, a unit of @aggr, for the public API (strings borrowed). */
void unit_info(const struct unit *u, enum hwp_aggr aggr, struct hwp_unit_info *i);

/* metric.c */
/* Whether @s is a word a formula reads as one name (not "seconds"): what a
 * row that formulas can name, a score, is called. */
bool metric_is_name(const char *s);
/* A built-in metric perf stat prints after '#' on its event's line: the
 * event, perf's unit ("CPUs utilized", "/sec"), its decimals, and whether
 * the value is scaled to K, M, G as perf's rates are ("1.510 K/sec"). */
struct metric_beside {
	const char *event;
	const char *unit;
	int decimals;
	bool scaled;
};
/* Whether @m is one of the built-in metrics (hwp_metric_builtin()). */
bool metric_is_builtin(const struct hwp_metric *m);
/* @m's, or NULL: @m is not one of those. */
const struct metric_beside *metric_beside(const struct hwp_metric *m);
/* Where a name of @m's formula matches several events of @evl, none of
 * them without modifiers (instructions:k, instructions:u): which one it
 * reads, into @sb ("'instructions' is instructions:k, the first of
 * instructions:k, instructions:u"). Whether there was such a name. */
bool metric_operand_note(const struct hwp_metric *m, const struct hwp_evlist *evl,
			 struct strbuf *sb);
/* Calls @fn for every event name a metric reads ("seconds" excluded). */
int metric_foreach_input(const struct hwp_metric *m,
			     int (*fn)(const char *name, void *ctx), void *ctx);
/* How many built-in metrics there are (hwp_metric_builtin() parses each
 * at its first use); metric_foreach_input() of the built-in @idx, read from
 * its formula's text without parsing it, so that only those whose inputs
 * count are parsed; and how many have been parsed (for the tests). */
size_t metric_nr_builtins(void);
int metric_builtin_foreach_input(size_t idx, int (*fn)(const char *name, void *ctx),
				 void *ctx);
size_t metric_builtins_parsed(void);

/* The unit of @m's value ("" for a ratio), for the result's rows. */
const char *metric_unit(const struct hwp_metric *m);
/* 0.1's hwp_metric_expr() and hwp_metric_desc(), internal since 0.2
 * (hwp_metric_info() gives both): the formula's text, the description. */
const char *metric_expr(const struct hwp_metric *m);
const char *metric_desc(const struct hwp_metric *m);

/* A named metric of a CPU model's table (metric-model.c): the strings are
 * static; "" where there is none. */
struct metric_def {
	const char *model, *group, *name, *expr, *unit, *desc, *source;
};
/* Parse @d into a metric that lives as long as the process (NULL: out of
 * memory, or a formula of the tables that does not parse). */
struct hwp_metric *metric_new_static(const struct metric_def *d);
/* *@slot, made by @make(@d) at the first call (NULL: out of memory, or a
 * formula that does not parse) and published with release order, so that
 * a thread that sees the pointer sees the parse. Thread-safe. */
typedef struct hwp_metric *(*metric_make_fn)(const struct metric_def *d);
const struct hwp_metric *metric_static_once(struct hwp_metric **slot,
					    const struct metric_def *d,
					    metric_make_fn make);
/* metric-instances.c: @expr with each PMU@EVENT@ of a PMU that the kernel
 * registers once a device (PMU_0..N, no PMU itself) written out as the sum
 * of the instances, each times its scale file, into *@out (freed by the
 * caller); a machine without the PMU keeps the name. 0, or -ENOMEM or
 * -HWP_ERR_FORMAT (a bad scale file) with the message set. */
int metric_expand_instances(const char *expr, char **out);

/* metric-model.c: the named metrics of the CPU models, parsed at first use.
 * How many the tables hold, and the @idx-th of all models'. */
size_t metric_model_nr_all(void);
const struct hwp_metric *metric_model_all(size_t idx);
/* metric-topdown.c: TopdownL1 from the kernel's slots and topdown-* events.
 * The @idx-th of its table, and the metric that stands for @model's @name
 * where the core PMU "cpu" has every event it reads in sysfs (NULL: none,
 * or the events are not there). */
const struct hwp_metric *metric_topdown_all(size_t idx);
const struct hwp_metric *metric_topdown_for(const char *model, const char *name);

#endif
