/* SPDX-License-Identifier: MIT */
/* Private to profiles: the aggregation (profile.c) and the queries built on
 * it (report.c, annotate.c). The formats (export-*.c) see only the queries:
 * report.h. */
#ifndef HWPROF_PROFILE_H
#define HWPROF_PROFILE_H

#include "profile/disasm.h"
#include "profile/dwarf.h"
#include "profile/report.h"
#include "profile/symbolize.h"
#include "sample/sample.h"

/* One distinct (module, address): an instruction that was sampled, or a
 * return address of a call chain. */
struct site {
	struct location loc;
	uint64_t samples, period;	/* as the sampled instruction */
	struct symbol_info si;
	const char *name;	/* the symbol, or module+0xaddress; set with si */
	/* where functions were inlined here (DWARF's, looked up once,
	 * report.c), its frames: nr_frames of hwp_profile.site_frames from
	 * @frames, those functions, the innermost first, then its own */
	uint32_t frames, nr_frames;
	bool inlines_done;	/* frames looked up (after resolved 2) */
	uint32_t labels;	/* its first label_row + 1 (samples without chains) */
	uint8_t resolved;	/* 0: not yet, 1: symbol, 2: symbol and line */
};

/* The most frames a call chain keeps, the sampled one included: profile.c
 * cuts longer chains, and the queries size their buffers by it. */
#define PROFILE_MAX_FRAMES 1024

struct stack {
	uint32_t first;		/* into hwp_profile.frames */
	uint32_t nr;		/* sites, the sampled one first */
	uint64_t samples, period;
	uint32_t labels;	/* its first label_row + 1, or 0 */
};

struct report;

/* offcpu.c: a thread that left the CPU at a sample of the off-CPU event,
 * until it runs again. */
struct offcpu_wait {
	uint32_t tid, cpu;
	int event;
	long site, stack;	/* stack: -1 without call chains */
	long label;		/* its label_row, or -1 */
	uint64_t since;		/* the sample's time, then the switch out's */
	bool waiting, out_seen;
};

struct offcpu {
	bool switches;		/* the file records switches (attr.context_switch) */
	bool *events;		/* each event of the file: its samples are timed */
	struct offcpu_wait *w;	/* one a thread seen */
	size_t nr, cap;
	struct hidx idx;
	uint64_t unmatched;	/* samples of the reported event never weighed */
};

/* cpus.c: the samples and periods by CPU, for HWP_SORT_CPU. */
struct cpu_total {
	uint64_t samples, period;
};

/* The samples and periods of a thread (its id, its name then) at a
 * site, for the sort keys comm and pid (report.c). */
struct thread_count {
	uint32_t tid;
	const char *comm;	/* interned by the machine, or NULL */
	uint32_t site;
	uint64_t samples, period;
};

/* A distinct (chain, process, thread, name) of samples, for pprof's
 * labels (profile-labels.c): @stack -1 where the samples have no chains. */
struct label_row {
	long stack;
	uint32_t site, pid, tid;
	const char *comm;	/* interned by the machine, or NULL */
	uint64_t cgroup;	/* the samples' cgroup id (PERF_SAMPLE_CGROUP), or 0 */
	uint32_t next;		/* the chain's next row + 1, or 0 */
};

/* A cgroup a PERF_RECORD_CGROUP named: its id and path (malloc'ed). */
struct cgroup_name {
	uint64_t id;
	char *path;
};

/* ---- unwind.c (libunwind) or unwind-stub.c: DWARF call chains ---- */

enum unwind_end {
	UNWIND_ENTRY,		/* up to the outermost frame (_start, a thread's start) */
	UNWIND_STACK_SHORT,	/* the stack's copy ended first */
	UNWIND_NO_INFO,		/* at a frame whose module has no unwind table for it */
	UNWIND_FAILED,		/* anything else */
};

struct unwind_result {
	enum unwind_end end;
	uint32_t dso;		/* UNWIND_NO_INFO: the frame's module */
	uint64_t need;		/* UNWIND_STACK_SHORT: the least copy it needed, bytes */
};

struct unwinder;

/* Why DWARF chains cannot be unwound in this build, or NULL when they can. */
const char *unwind_unavailable(void);
/* An unwinder of the samples of @m's processes, reading modules through
 * @sym: -EOPNOTSUPP where unwind_unavailable() says why, -ENOMEM. */
int unwinder_new(struct machine *m, struct symbolizer *sym, struct unwinder **out);
void unwinder_free(struct unwinder *u);
/* The mappings changed: forget what was learnt of addresses. */
void unwinder_flush(struct unwinder *u);
/* Unwind the user stack of @s into @ips, the innermost first (its user
 * IP, then return addresses), at most @max: the count, and in @res why it
 * stopped. Every input is the file's: nothing in it is trusted. */
size_t unwind_sample(struct unwinder *u, const struct pd_sample *s, uint64_t *ips,
		     size_t max, struct unwind_result *res);

/* ---- debug-frame.c: .debug_frame as .eh_frame, for libunwind ---- */

struct eh_rewrite {
	uint8_t *data;		/* .eh_frame's entries, then the table, then 8 zeros */
	size_t size;
	size_t table;		/* the table's offset: pairs of int32 (start - lo, FDE) */
	size_t nr;		/* its entries */
};

/* Rewrite the .debug_frame @section of a module whose addresses are
 * [@lo, @hi) and words @addr_size bytes. FDE addresses are written
 * DW_EH_PE_datarel: the unwinder's "gp" is to be the module's bias. The
 * table lists each FDE once, sorted. 0, -ENOENT (no FDE could be used),
 * -EFBIG (offsets past 32 bits), -ENOMEM. Free out->data. */
int debug_frame_rewrite(const void *section, size_t size, unsigned int addr_size,
			uint64_t lo, uint64_t hi, struct eh_rewrite *out);

/* ---- leaf-caller.c: the caller a frame-pointer chain skips ---- */

struct ra_site;

/* Where the CFI keeps the return address, by (module, address). */
struct leaf_callers {
	struct ra_site *v;
	size_t nr, cap;
	struct hidx idx;
};

/* The caller of the function at @pc, the first user frame of @s's
 * frame-pointer chain, at @loc: the register its return address is still
 * in by the module's CFI (arm64's link register), or the stack slot it is
 * in while the CFA is the stack pointer's (x86-64: no frame set up), as @s
 * recorded them; 0 where the CFI says it was saved in the function's own
 * frame, where there is none, or without the register or the stack's copy
 * (or libdw). The chain skips it unless its next frame is it. */
uint64_t leaf_caller(struct hwp_profile *p, const struct pd_sample *s, uint64_t pc,
		     const struct location *loc);
void leaf_callers_free(struct leaf_callers *lc);

/* Needed sizes of stack copies, in buckets of this, the last for all larger. */
#define STACK_NEED_BUCKET 1024u
#define STACK_NEED_BUCKETS 65

/* What the unwinding of DWARF samples came to. */
struct unwind_stats {
	uint64_t entry, stack_short, no_info, failed;
	uint64_t need[STACK_NEED_BUCKETS];
	uint64_t stack_size;	/* the largest copy the samples had */
	uint64_t *no_info_by_dso;	/* samples stopped in each module */
	size_t nr_no_info_by_dso;
	char *no_info_modules;	/* "module (N), ..." most first; built at the end */
};

/* An address of a process, where it landed: its site while the machine's
 * generation is @gen (0: an empty slot). */
struct site_cache {
	uint64_t ip, gen;
	uint32_t pid, site;
	uint16_t cpumode;
};

/* Slots of the cache of sites, a power of two: more than the addresses a
 * hot loop's samples and chains visit. */
#define SITE_CACHE_SLOTS 4096
/* Slots of the cache of thread_counts (report.c's thread_add()). */
#define THREAD_CACHE_SLOTS 256

struct hwp_profile {
	char *input;
	/* what the writers name as the input instead of @input, or NULL
	 * (hwpriv_profile_set_source(): a file that no longer exists) */
	char *source;
	/* how it was opened, for profile_open_event(): hwp_profile_opts'
	 * kallsyms (a copy, or NULL), and whether @input names no file */
	char *kallsyms;
	char *vmlinux;		/* hwp_profile_opts' vmlinux (a copy), or NULL */
	bool in_memory;		/* read once: a recording in memory, or standard input */
	bool no_demangle;
	bool inline_frames;	/* hwp_profile_opts' */
	bool no_kallsyms_cache;	/* hwp_profile_opts' */
	bool no_debug_cache;	/* hwp_profile_opts' */
	unsigned int read_threads;	/* hwp_profile_opts' threads */
	/* hwp_profile_opts' filters (copies, or NULL), and what they left out */
	char *comms, *pids, *tids, *dsos;
	bool filtering;
	uint64_t filtered_samples, filtered_period;
	struct pd_file *file;	/* while reading */
	/* where it was recorded (interned), or NULL */
	const char *hostname, *osrelease;
	const char *cmdline;	/* the recording's command line (interned), or NULL */
	/* the first and last sample's times (perf's clock), when they have them */
	uint64_t time_first, time_last;
	uint64_t sample_period;	/* the event's fixed period (-c), or 0 (-F) */
	/* why kernel symbols and module paths may not match, or NULL */
	char *host_warning;
	int event;
	size_t nr_events;
	const char **event_names;
	struct machine *m;
	struct symbolizer *sym;
	struct site *sites;
	size_t nr_sites, cap_sites;
	struct profile_frame *site_frames;	/* the sites' frames (site.frames) */
	size_t nr_site_frames, cap_site_frames;
	struct profile_frame own_frame;	/* profile_site_get()'s of a site alone */
	struct hidx site_idx;
	uint32_t *frames;
	size_t nr_frames, cap_frames;
	struct stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct hidx stack_idx;
	size_t nr_event_stacks;	/* the stacks with samples of the event */
	uint32_t *scratch;	/* one call chain being added */
	struct site_cache *site_cache;	/* while reading: SITE_CACHE_SLOTS */
	uint64_t samples, period, lost, throttled, skipped, other_samples;
	uint64_t lost_records, lost_samples;	/* LOST and LOST_SAMPLES, summed */
	bool callchains;
	bool dwarf;		/* the samples have user stacks to unwind */
	struct unwinder *unw;
	uint64_t *unw_ips;	/* one sample's unwound chain */
	/* "[truncated]": the end of chains that stopped early */
	uint32_t truncated_site;
	struct unwind_stats us;
	struct leaf_callers leaf_callers;
	/* the event's frame-pointer chains with a user part, and those whose
	 * walk found no caller of the first user frame in a module */
	uint64_t fp_chains, fp_one_frame;
	/* a report looked up lines: modules say if they have them */
	bool lines_used;
	struct report *reports[HWP_SORT_DSO + 1];	/* built on first use */
	/* Off-CPU time (offcpu.c): the reported event's periods are time off
	 * the CPU */
	struct offcpu oc;
	bool off_cpu;
	/* cpus.c: hwp_profile_opts' cpus as a bitmap (NULL: all), the
	 * reported event's samples left out by it, and the totals by CPU */
	bool cpu_known;		/* the reported event's samples say their CPU */
	uint8_t *cpu_filter;
	size_t nr_cpu_filter;
	uint64_t other_cpus;
	struct cpu_total *cpus;
	size_t nr_cpus, cap_cpus;
	/* report.c: the samples by thread and site (HWP_SORT_COMM, _PID) */
	struct thread_count *threads;
	size_t nr_threads, cap_threads;
	struct hidx thread_idx;
	/* the thread_count of a sample's (tid, site), most likely: its index
	 * + 1, or 0; checked against the entry */
	uint32_t thread_last[THREAD_CACHE_SLOTS];
	/* profile-labels.c: the samples by chain and thread, each row's
	 * summed period of each event (nr_events a row: the other events'
	 * samples are there too, in the shape of the event's); a chain's
	 * rows are a list from its stack's or site's @labels */
	struct label_row *labels;
	size_t nr_labels, cap_labels;
	uint64_t *label_values;
	size_t cap_label_values;
	/* the cgroups the file names, by id */
	struct cgroup_name *cgroups;
	size_t nr_cgroups, cap_cgroups;
	struct hidx cgroup_idx;
	/* the last sample's thread's name, at the machine's generation */
	uint32_t comm_tid;
	uint64_t comm_gen;
	const char *comm;
	struct disasm *dis;
	int dis_machine;	/* the ELF machine @dis decodes; -1 when it cannot */
};

/* ---- profile-chains.c ---- */

/* The site of @loc, added with no samples on first sight; -1 when out of memory. */
long profile_site(struct hwp_profile *p, const struct location *loc);
/* The site of @ip in process @pid, in @cpumode (cached); -1 when out of memory. */
long profile_site_of(struct hwp_profile *p, uint32_t pid, uint64_t ip, uint16_t cpumode);
/* The stack of sites @frames (@nr), its index in *@idx, added if new, with
 * @period added to @event's values: 0 or -ENOMEM. */
int profile_add_stack(struct hwp_profile *p, const uint32_t *frames, uint32_t nr,
		      uint64_t period, int event, long *idx);
/* Sample @s's call chain as sites, from @leaf, the sampled site (@dwarf:
 * its user part unwound), added as profile_add_stack() does: 0 or -ENOMEM. */
int profile_add_callchain(struct hwp_profile *p, const struct pd_sample *s,
			  uint32_t leaf, int event, bool dwarf, long *stack);
/* At the first DWARF sample of event @ev: an unwinder, where this build
 * has one. 0 or -ENOMEM (with the message). */
int profile_dwarf_begin(struct hwp_profile *p, const struct pd_event *ev);

/* ---- profile-labels.c ---- */

/* Count sample @s of @event, of thread name @comm, at @site and @stack
 * (-1: none) in its label_row, whose index *@row gets: 0, or -ENOMEM
 * (with the message). */
int labels_add(struct hwp_profile *p, const struct pd_sample *s, const char *comm,
	       long site, long stack, int event, long *row);
/* Add @period to @event's value of label_row @row (-1: none). */
void labels_add_period(struct hwp_profile *p, long row, int event, uint64_t period);
void labels_release(struct hwp_profile *p);
/* A PERF_RECORD_CGROUP: cgroup id's path, for the labels. 0 or -ENOMEM
 * (with the message); a record too short is skipped, and counted. */
int labels_cgroup(struct hwp_profile *p, const struct perf_event_header *h);

/* ---- offcpu.c ---- */

/* Whether samples of @ev weigh their time off the CPU. */
bool offcpu_event(const struct hwp_profile *p, const struct pd_event *ev);
/* Before the records: whether the file has switches, and the reported
 * event is timed by them (p->off_cpu). */
int offcpu_begin(struct hwp_profile *p);
/* A sample of an off-CPU event: its thread waits from now. */
int offcpu_sample(struct hwp_profile *p, const struct pd_sample *s, int event, long site,
		  long stack, long label);
/* A PERF_RECORD_SWITCH or _CPU_WIDE: a thread leaves, or runs again. */
int offcpu_switch(struct hwp_profile *p, const struct pd_record *rec);
/* After the records: the threads still waiting are counted, unweighed. */
void offcpu_end(struct hwp_profile *p);
void offcpu_release(struct hwp_profile *p);

/* ---- cpus.c ---- */

/* hwp_profile_opts' cpus: -EINVAL for a bad list, or for a file whose
 * samples do not say their CPU. */
int cpu_filter_set(struct hwp_profile *p, const char *list);
bool cpu_wanted(const struct hwp_profile *p, uint32_t cpu);
/* Count @samples and @period on @cpu: 0 or -ENOMEM (with the message). */
int cpu_add(struct hwp_profile *p, uint32_t cpu, uint64_t samples, uint64_t period);
void cpu_release(struct hwp_profile *p);
/* HWP_SORT_CPU: the entries by CPU, as hwp_profile_foreach_entry(). */
int cpu_foreach_entry(struct hwp_profile *p, size_t n, hwp_entry_fn fn, void *ctx);
/* ---- report-sites.c ---- */

/* Resolve site @i (with @lines, its source line too) once. */
void site_resolve(struct hwp_profile *p, size_t i, bool lines);
/* Look up the functions inlined at site @site, once: 0 or -ENOMEM. */
int site_inlines(struct hwp_profile *p, uint32_t site);
/* The innermost function inlined at @s (site_inlines() done), or NULL. */
const char *site_inlined(const struct hwp_profile *p, const struct site *s);
/* Site @site's frames, the innermost first, in *@out (@own where it has
 * only its own): with @inlines, the functions inlined there first. Returns
 * how many, valid until the next site is resolved, or -ENOMEM. */
long site_frames(struct hwp_profile *p, uint32_t site, bool inlines,
		 struct profile_frame *own, const struct profile_frame **out);
/* The source file and line of the first instruction of @s's function (NULL
 * and 0 when unknown). */
void function_source(struct hwp_profile *p, const struct site *s, const char **file,
		     unsigned int *line);

/* ---- report.c ---- */

/* Decode one instruction of @dso at @vaddr into @text and @bytes: its length. */
int profile_disasm(struct hwp_profile *p, uint32_t dso, uint64_t vaddr, uint8_t *bytes,
		   size_t nbytes, char *text, size_t size);
void report_cache_free(struct hwp_profile *p);
/* Count a sample of thread @tid, named @comm, at @site: 0 or -ENOMEM. */
int thread_add(struct hwp_profile *p, uint32_t tid, const char *comm, uint32_t site,
	       uint64_t period);

#endif
