/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/count.h>: counting: sessions of counters, counts, the CPU topology, metrics.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_COUNT_H
#define HWPROF_API_COUNT_H

#include <hwprof/core.h>
#include <hwprof/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Counting sessions
 */

/* What a session counts. */
enum hwp_scope {
	/* One thread: opts.pid's (0: the calling thread). With inheritance,
	 * also the threads and children it creates after the open. */
	HWP_SCOPE_THREAD = 0,
	/* Every thread that process opts.pid (0: the calling process) has at
	 * the open, and with inheritance those created later. */
	HWP_SCOPE_PROCESS,
	/* Every task on the CPUs of opts.cpus (NULL: all online CPUs). Needs
	 * perf_event_paranoid <= 0 or CAP_PERFMON. */
	HWP_SCOPE_CPUS,
};

/*
 * Aggregation: how a session's counts are split into units, as perf stat's
 * -A, --per-core, --per-die, --per-socket, --per-node and --per-thread
 * split them. Since: 0.2
 */
enum hwp_aggr {
	HWP_AGGR_GLOBAL = 0,	/* one unit: everything counted */
	HWP_AGGR_CPU,		/* one unit a CPU ("CPU3"); HWP_SCOPE_CPUS */
	HWP_AGGR_CORE,		/* a core's CPUs ("S0-D0-C1"); HWP_SCOPE_CPUS */
	HWP_AGGR_DIE,		/* a die's ("S0-D0"); HWP_SCOPE_CPUS */
	HWP_AGGR_SOCKET,	/* a package's ("S1"); HWP_SCOPE_CPUS */
	HWP_AGGR_NODE,		/* a NUMA node's ("N0"); HWP_SCOPE_CPUS */
	/* One unit a thread ("comm-tid"): HWP_SCOPE_PROCESS (the threads it
	 * has at the open; a thread created later counts in its creator's
	 * unit unless no_inherit), or HWP_SCOPE_THREAD with inheritance (a
	 * command: every thread and child process it creates gets its own
	 * unit when it exits, see hwp_session_read_units()). */
	HWP_AGGR_THREAD,
};

struct hwp_session_opts {
	size_t sz;
	enum hwp_scope scope;
	pid_t pid;		/* see enum hwp_scope */
	const char *cpus;	/* HWP_SCOPE_CPUS: a CPU list such as "0-3,6" */
	bool no_inherit;	/* do not count threads and children created later */
	bool enable_on_exec;	/* start counting when the task calls exec() */
	/* Read with read() even where user space could read the counters
	 * (rdpmc on x86, mrs on arm64; see hwp_session_rdpmc()). */
	bool no_rdpmc;
	/* The units hwp_session_read_units() splits the counts into. Since: 0.2 */
	enum hwp_aggr aggr;
	/* HWP_SCOPE_CPUS: count only the tasks of this cgroup v2 (a path
	 * under the cgroup2 mount, as perf's -G takes it: "user.slice/x"; a
	 * path with "..", or the root ("", "/"), is -EINVAL). Since: 0.2 */
	const char *cgroup;
	size_t :0;
};

/* One event's reading. A frozen value type. */
struct hwp_count {
	uint64_t value;		/* the raw count */
	uint64_t time_enabled;	/* ns the event was enabled */
	uint64_t time_running;	/* ns it was on a counter (less when multiplexed) */
};

/* What became of an event at the open. */
enum hwp_event_status {
	HWP_EVENT_COUNTING = 0,		/* opened as asked */
	HWP_EVENT_NOT_SUPPORTED,	/* not on this machine; the reason says why */
	HWP_EVENT_USER_ONLY,		/* counts user space only (permission fallback) */
	HWP_EVENT_NOT_OPENED,		/* the session is not open */
};

struct hwp_session;

/*
 * hwp_session_new - a session that will count @evl's events
 * @evl: the events; the session keeps its own copy
 * @opts: NULL (the calling thread, inherited) or options
 * @out: the session; free it with hwp_session_free()
 *
 * Opens nothing yet. Errors: -HWP_ERR_SYNTAX for a bad CPU list, -ENODEV
 * for a CPU that does not exist (the message lists the online ones),
 * -EINVAL for a bad scope, -ENOMEM. Since: 0.1
 */
HWP_API int hwp_session_new(const struct hwp_evlist *evl,
			    const struct hwp_session_opts *opts,
			    struct hwp_session **out);

/*
 * hwp_session_open - open the counters, disabled
 *
 * Failures are sorted per event, as perf does: an event the machine does
 * not support (no PMU, unknown to the kernel) is marked
 * HWP_EVENT_NOT_SUPPORTED and the rest go on; when the member of a group is
 * unsupported, the group goes on without it, and when its leader is, the
 * next member leads. An event refused for permission is retried counting
 * user space only (HWP_EVENT_USER_ONLY, with a warning); if that fails too
 * the open fails with -EACCES or -EPERM and a message that names
 * perf_event_paranoid and the fix. -EMFILE raises RLIMIT_NOFILE to its
 * hard limit once and retries. -ESRCH: the process is gone.
 * -HWP_ERR_NOTHING_COUNTED when no event could be opened.
 * Opening an open session closes it first. Since: 0.1
 */
HWP_API int hwp_session_open(struct hwp_session *s);

/* hwp_session_close - close the counters; the session can be opened again. Since: 0.1 */
HWP_API void hwp_session_close(struct hwp_session *s);

/* hwp_session_free - close and free. Since: 0.1 */
HWP_API void hwp_session_free(struct hwp_session *s);

/*
 * hwp_session_enable, hwp_session_disable, hwp_session_reset - start, stop,
 * zero every counter. One ioctl per group and instance. Errors: -EBADF when
 * the session is not open. Since: 0.1
 *
 * hwp_session_reset zeroes what inherited children that have exited
 * counted too (the kernel's reset leaves it: the session reads it once,
 * and takes it off every later read), and the counts of the threads that
 * exited (HWP_AGGR_THREAD). It reads every counter, once, by read(); it
 * may return the errors of hwp_session_read(), and -ENOMEM. Since: 0.2
 */
HWP_API int hwp_session_enable(struct hwp_session *s);
HWP_API int hwp_session_disable(struct hwp_session *s);
HWP_API int hwp_session_reset(struct hwp_session *s);

/* hwp_session_nr_events - the number of events, as in the event list. Since: 0.1 */
HWP_API size_t hwp_session_nr_events(const struct hwp_session *s);

/* hwp_session_evlist - the session's copy of the event list. Since: 0.1 */
HWP_API const struct hwp_evlist *hwp_session_evlist(const struct hwp_session *s);

/*
 * hwp_session_read - read every event: one read() per group and instance
 * @counts: an array of @nr entries; entry i receives event i, summed over
 *	    the session's threads or CPUs. An event that is not supported
 *	    reads as all zeros (see hwp_session_event_status()).
 * @nr: at least hwp_session_nr_events()
 *
 * Reads every group before returning, so ratios within a group are
 * consistent. Allocates nothing and takes no lock. See hwp_session_rdpmc()
 * for the reads that need no system call. Errors: -EBADF when not
 * open, -EINVAL when @nr is too small, or the read()'s errno. Since: 0.1
 */
HWP_API int hwp_session_read(struct hwp_session *s, struct hwp_count *counts, size_t nr);

/*
 * hwp_session_rdpmc - whether reads may go through user space
 *
 * True when the session counts the calling thread alone (HWP_SCOPE_THREAD,
 * pid 0, no_inherit) on x86 or arm64, the kernel lets user space read
 * counters, and at least one hardware event's page could be mapped.
 * hwp_session_read() then reads such a group from the page and the
 * counter itself (rdpmc on x86, mrs on arm64), without a system call, when
 * it runs on the thread that opened the session and every member is on a
 * hardware counter and not multiplexed; any other group, thread or moment
 * uses read(). Members of a group are then read one after the other, not
 * atomically. The kernel allows it by default on x86 (unless
 * /sys/bus/event_source/devices/cpu/rdpmc is 0), on arm64 only with
 * sysctl kernel.perf_user_access=1 (Linux 5.17 or later); where it does
 * not, this is false and the debug log says why. Since: 0.1
 */
HWP_API bool hwp_session_rdpmc(const struct hwp_session *s);

/*
 * hwp_session_event_status - what became of event @idx at the open
 * @reason: NULL, or set to a sentence (borrowed) saying why the event is
 *	    not supported or counts user space only; NULL when counting
 * Since: 0.1
 */
HWP_API enum hwp_event_status hwp_session_event_status(const struct hwp_session *s,
							size_t idx, const char **reason);

/* One aggregation unit of a session (or a result). Since: 0.2 */
struct hwp_unit_info {
	size_t sz;
	const char *name;	/* "CPU3", "S0-D0-C1", "S0-D0", "S1", "N0", "comm-tid";
				 * "all" for HWP_AGGR_GLOBAL */
	enum hwp_aggr aggr;
	int id;			/* the CPU, core, die, package or node number; the tid */
	int package, die;	/* for CPU units; -1 for threads */
	size_t nr_cpus;		/* the session's CPUs in the unit; 0 for threads */
	const int *cpus;	/* those CPUs, ascending; NULL for threads */
	pid_t tid;		/* threads; else -1 */
	const char *comm;	/* threads: the name at the open; else NULL */
};

/*
 * hwp_session_nr_units - the units of the open session: 1 for
 * HWP_AGGR_GLOBAL, else as opts.aggr groups the CPUs or threads. For a
 * command counted per thread (HWP_SCOPE_THREAD, HWP_AGGR_THREAD) the units
 * grow as its threads exit: each read adds those that ended since. 0 when
 * the session is not open. Since: 0.2
 */
HWP_API size_t hwp_session_nr_units(const struct hwp_session *s);

/*
 * hwp_session_unit - describe unit @idx (below hwp_session_nr_units())
 *
 * Its strings are borrowed from @s, valid until the session is closed.
 * Errors: -EINVAL for @idx past the last or a NULL argument. Since: 0.2
 */
HWP_API int hwp_session_unit(const struct hwp_session *s, size_t idx,
			     struct hwp_unit_info *info);

/*
 * hwp_session_read_units - read every event, unit by unit
 * @counts: room for @nr counts; entry u * nr_events + e receives event e
 *	    of unit u, for u below hwp_session_nr_units() *after* the read
 * @nr: at least hwp_session_nr_units() * nr_events; with -ENOSPC, the
 *	read found new units (threads that exited): hwp_session_nr_units()
 *	says how many there are now; read again with room for them
 *
 * As hwp_session_read(), every group read before it returns; the units
 * sum to what hwp_session_read() gives (a command per thread: once it has
 * ended, see below). A command per thread
 * (HWP_SCOPE_THREAD, HWP_AGGR_THREAD): the events are opened on every
 * CPU with inherit_stat, and each thread or child that exits is a unit
 * with what it counted (the kernel's PERF_RECORD_READ at its exit, one a
 * CPU and counter, read from a ring a CPU; its name from the
 * PERF_RECORD_COMM and FORK records). Unit 0 is the first thread, counted
 * by counters of its own that no thread inherits (which also keep the
 * kernel from swapping counters between the threads). A unit keeps its
 * thread and its counts never fall from one read to the next; the counts
 * of threads still running (but the first) are in hwp_session_read()'s
 * total and in no unit until they end, so the units sum to the total
 * once the command is gone. In this mode the counts are
 * not scaled for multiplexing (each CPU's counter's enabled time covers
 * other CPUs' too): keep hardware events in groups the PMU holds at once.
 * A thread of the session's own reads the rings while the command runs
 * (started at hwp_session_open(), before the counters open, with every
 * signal blocked; joined at hwp_session_close()).
 * Errors: as hwp_session_read(); -ENOSPC (see @nr); -EOVERFLOW when exit
 * records were lost: a ring was full (the message says how many), or,
 * once the command is gone, a thread lacks the record of a CPU or a record
 * was never finished (the kernel's ring is made for one writer, and every
 * CPU writes to each CPU's ring at threads' exits): the units are
 * wrong, whatever it filled in @counts. Since: 0.2
 */
HWP_API int hwp_session_read_units(struct hwp_session *s, struct hwp_count *counts,
				   size_t nr);

/* ------------------------------------------------------------------------
 * Topology: which core, die, package and NUMA node each CPU is on
 */

/* One CPU's place. Since: 0.2 */
struct hwp_cpu_info {
	size_t sz;
	int cpu;
	int core;		/* core_id: unique within its package and die */
	int die;		/* die_id within the package (0 before Linux 5.2) */
	int package;		/* physical_package_id: the socket */
	int node;		/* NUMA node (0 when the kernel has no NUMA) */
};

struct hwp_topology;

/*
 * hwp_topology_load - read the topology of the online CPUs from sysfs
 * @root: the sysfs mount to read (NULL: $HWPROF_SYSFS_ROOT if set, else
 *	  "/sys"); a directory laid out as sysfs is, for tests and for
 *	  reading another machine's saved tree
 * @out: free it with hwp_topology_free()
 *
 * Reads devices/system/cpu/online, each CPU's topology/core_id,
 * die_id and physical_package_id, and devices/system/node/nodeN/cpulist.
 * Errors: the errno of a file that cannot be read, -HWP_ERR_FORMAT for
 * one that holds no number, -ENOMEM. Thread-safe. Since: 0.2
 */
HWP_API int hwp_topology_load(const char *root, struct hwp_topology **out);

/* hwp_topology_free - NULL is a no-op. Since: 0.2 */
HWP_API void hwp_topology_free(struct hwp_topology *t);

/* hwp_topology_nr_cpus - the online CPUs; 0 for NULL. Since: 0.2 */
HWP_API size_t hwp_topology_nr_cpus(const struct hwp_topology *t);

/* hwp_topology_cpu - the @idx-th online CPU, ascending. Errors: -EINVAL.
 * Since: 0.2 */
HWP_API int hwp_topology_cpu(const struct hwp_topology *t, size_t idx,
			     struct hwp_cpu_info *info);

/* hwp_topology_find - CPU number @cpu. Errors: -ENODEV when it is not
 * online, -EINVAL. Since: 0.2 */
HWP_API int hwp_topology_find(const struct hwp_topology *t, int cpu,
			      struct hwp_cpu_info *info);

/*
 * hwp_topology_shared - the smallest unit that holds every CPU of @cpulist
 * @cpulist: "0,15", "0-3"...; its CPUs must be online
 * @level: HWP_AGGR_CPU (one CPU), HWP_AGGR_CORE (SMT siblings of one
 *	   core), HWP_AGGR_DIE (one die, different cores), HWP_AGGR_SOCKET
 *	   (one package, different dies), or HWP_AGGR_GLOBAL (more than one
 *	   package). This is what 'hwprof stat --pin 0,15' says.
 *
 * Errors: -HWP_ERR_SYNTAX for a bad list, -ENODEV for a CPU that is not
 * online or not in @t, -EINVAL. Since: 0.2
 */
HWP_API int hwp_topology_shared(const struct hwp_topology *t, const char *cpulist,
				enum hwp_aggr *level);

/*
 * hwp_count_scaled - the count scaled for multiplexing
 *
 * value * time_enabled / time_running, in floating point. NAN when the
 * event never ran (time_running == 0): it was "not counted", which is not 0.
 * Since: 0.1
 */
HWP_API double hwp_count_scaled(const struct hwp_count *c);

/* hwp_count_percent_running - 100 * time_running / time_enabled; NAN if never
 * enabled. Since: 0.1 */
HWP_API double hwp_count_percent_running(const struct hwp_count *c);

/* ------------------------------------------------------------------------
 * Metrics: formulas over counts
 *
 * A formula has + - * / ( ), max(a, b) and min(a, b) (since 0.2), decimal
 * numbers (1e9 too), event names and `seconds` (the wall time). An event
 * name matches an event of the list as written ("cpu-migrations:u"), by
 * its canonical name, by an alias ("migrations"), or ignoring case, '-' and
 * '_' ("cachemisses"). A '-' between two letters with no space is part of a
 * name: write "a - b" to subtract.
 */

struct hwp_metric;

/*
 * hwp_metric_parse - parse "NAME=EXPR", or EXPR alone (then NAME is EXPR)
 * @out: free it with hwp_metric_free()
 *
 * Errors: -HWP_ERR_SYNTAX with the position in hwp_errmsg(), -ENOMEM.
 * Formulas nest at most 64 deep and are at most 4096 bytes. Since: 0.1
 */
HWP_API int hwp_metric_parse(const char *def, struct hwp_metric **out);

/* hwp_metric_free - free a metric (never a built-in one). Since: 0.1 */
HWP_API void hwp_metric_free(struct hwp_metric *m);

/* hwp_metric_name - the metric's name. Since: 0.1 (0.1's hwp_metric_expr
 * and hwp_metric_desc: hwp_metric_info() gives them since 0.2) */
HWP_API const char *hwp_metric_name(const struct hwp_metric *m);

/*
 * A value lookup for hwp_metric_eval(): set *value and return 0; return
 * -ENOENT when @name is unknown, -HWP_ERR_UNDEFINED when it is known but
 * has no value (not counted), -EOPNOTSUPP (since 0.2) when it cannot be
 * counted on this machine: hwp_metric_eval() then says so in hwp_errmsg().
 */
typedef int (*hwp_value_fn)(const char *name, double *value, void *ctx);

/*
 * hwp_metric_eval - evaluate a formula
 *
 * Errors: -HWP_ERR_UNKNOWN_NAME (a name @lookup does not know),
 * -HWP_ERR_UNDEFINED (an input without value, a division by zero, or a
 * result that is not finite). hwp_errmsg() names the input. A metric is
 * never 0 or infinite in place of undefined. Since: 0.1
 */
HWP_API int hwp_metric_eval(const struct hwp_metric *m, hwp_value_fn lookup, void *ctx,
			    double *value);

/*
 * hwp_metric_check - whether every name in @m is an event of @evl or "seconds"
 *
 * Run it before measuring, so that a typo is reported before the command
 * runs. Errors: -HWP_ERR_UNKNOWN_NAME naming the first unknown name and
 * the events it could have meant. Since: 0.1
 */
HWP_API int hwp_metric_check(const struct hwp_metric *m, const struct hwp_evlist *evl);

/*
 * hwp_metric_check_names - hwp_metric_check(), with @names (the scores of a
 * result, 'hwprof stat --score') known too, as a formula may read them
 * (matched as hwp_result_find() matches a metric's name). Since: 0.2
 */
HWP_API int hwp_metric_check_names(const struct hwp_metric *m,
				   const struct hwp_evlist *evl,
				   const char *const *names, size_t nr_names);

/*
 * hwp_metric_builtin - built-in metric @idx, or NULL past the last
 *
 * The built-ins: LLC misses per CPU migration, IPC, LLC MPKI, CPUs
 * utilized, migrations/sec, cs/sec, faults/sec (per second of task-clock,
 * as perf stat's K/sec; in 0.1, migrations/s, cs/s and faults/s were per
 * second of wall time), and miss rates. Borrowed, static. Since: 0.1
 */
HWP_API const struct hwp_metric *hwp_metric_builtin(size_t idx);

/*
 * hwp_metric_model - named metric @idx of this machine's CPU model, or NULL
 * past the last
 *
 * The vendors' published formulas (Intel's TMA, AMD's PPR, Arm's Neoverse
 * telemetry specifications) over libpfm4's event names, for the core PMU
 * libpfm4 detects (LIBPFM_FORCE_PMU=icl chooses one): Intel Ice Lake (icl)
 * and Sapphire Rapids (spr), AMD Zen 3 (amd64_fam19h_zen3) and Zen 4
 * (amd64_fam19h_zen4), Arm Neoverse N1 (arm_n1) and V1 (arm_v1). Each is
 * a percentage or a ratio; hwp_metric_info() gives its group (TopdownL1),
 * unit and source. Also, from the kernel's sysfs events: memory bandwidth
 * (Memory_BW_Read/_Write, MB/s, the sum of every uncore_imc_N) of Intel
 * servers (skx, icx, spr); and, where the core PMU has the kernel's slots
 * and topdown-* events, TopdownL1 of icl and spr from those (formulas
 * over cpu@topdown-retiring@...), as perf. NULL at 0 on other CPUs, or
 * when libpfm4 is missing.
 * Borrowed, static, parsed at the first call. Thread-safe. Since: 0.2
 */
HWP_API const struct hwp_metric *hwp_metric_model(size_t idx);

/* What hwp_metric_info() says of a metric; strings borrowed from it, "" for
 * none. */
struct hwp_metric_info {
	size_t sz;
	const char *name;
	const char *expr;
	const char *unit;	/* "%", "insn/cycle"... */
	const char *desc;
	const char *group;	/* "TopdownL1": what -M GROUP selects */
	const char *model;	/* libpfm4's PMU: "icl" (hwp_metric_model()) */
	const char *source;	/* the published document of the formula */
	bool builtin;		/* hwp_metric_builtin() or hwp_metric_model() */
	size_t :0;
};

/*
 * hwp_metric_info - describe @m into @info (set info->sz first)
 *
 * Errors: -EINVAL for a NULL argument. Thread-safe for a built-in @m.
 * Since: 0.2
 */
HWP_API int hwp_metric_info(const struct hwp_metric *m, struct hwp_metric_info *info);

/*
 * hwp_metric_event_spec - the event list that counts @base and @metrics,
 * as hwprof stat -M NAME... builds it
 * @base: an event list ("cycles,{a,b}"), or NULL for none
 * @metrics: @nr metrics (hwp_metric_builtin(), hwp_metric_model(), or
 *	     hwp_metric_parse()'s), none NULL
 * @spec: set to @base, then ',' and each event the metrics read that
 *	  @base does not count yet, once ("" for none of either)
 *
 * A formula's msr@aperf@ is written msr/aperf/. The events of a run of
 * CPU-model metrics of one group (hwp_metric_info()'s group, TopdownL1),
 * or of one such metric, are one group "{...}", as their formulas divide
 * counts taken together, where the kernel can count them so: at most 7
 * events (more multiplex), of one PMU (not uncore_imc_0 with uncore_imc_1).
 * The kernel's slots and topdown-* events are always one group led by
 * slots; a later level's topdown-* join it. A @base that does not parse is
 * not looked into: hwp_evlist_parse() of *@spec says why.
 *
 * Returns 0, -EINVAL (a NULL argument) or -ENOMEM. *@spec is the caller's
 * to free(). Thread-safe (model metrics: as hwp_metric_model()).
 * Since: 0.2
 */
HWP_API int hwp_metric_event_spec(const char *base,
				  const struct hwp_metric *const *metrics, size_t nr,
				  char **spec);

/*
 * hwp_session_metric - evaluate @m on a reading of @s
 * @counts: from hwp_session_read()
 * @seconds: the wall time the counts cover (for "seconds" and the rates)
 *
 * Names resolve against the session's events (see above). An event that is
 * not supported or never ran makes the metric -HWP_ERR_UNDEFINED.
 * Since: 0.1
 */
HWP_API int hwp_session_metric(const struct hwp_session *s,
			       const struct hwp_count *counts, double seconds,
			       const struct hwp_metric *m, double *value);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_COUNT_H */
