/* SPDX-License-Identifier: MIT */
/*
 * <hwprof/profile.h>: profiles: a recording or a perf.data file, as
 * `hwprof report` reads it.
 *
 * One of the headers <hwprof/hwprof.h> includes; it compiles alone. The
 * conventions every function follows are in <hwprof/core.h>.
 */
#ifndef HWPROF_API_PROFILE_H
#define HWPROF_API_PROFILE_H

#include <hwprof/core.h>
#include <hwprof/record.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Profiles: hwprof report
 *
 * A profile reads a perf.data file (hwprof's or perf's: cpu-clock and
 * hardware events, the IP, TID, TIME, CPU, PERIOD, ID, IDENTIFIER and
 * CALLCHAIN sample fields) and aggregates the samples of one event by
 * instruction address. Addresses are resolved when a report asks, each
 * distinct address once: symbols and source lines through libdw (with
 * separate debug files found by build-id and .gnu_debuglink under
 * /usr/lib/debug), the kernel through /proc/kallsyms. Its memory grows
 * with the distinct addresses and call chains, not with the samples.
 * Percentages are of the summed sample periods, as perf's "Overhead".
 */

struct hwp_profile;


struct hwp_profile_opts {
	size_t sz;
	const char *event;	/* the event to report, by name; NULL: the file's first */
	/* The kernel's symbols: NULL for this machine's /proc/kallsyms when
	 * the recording's kernel is this one (its build-id in the file, as
	 * perf decides; since 0.2), else the copy perf's build-id cache keeps
	 * of that kernel's (~/.debug/[kernel.kallsyms]/ID/kallsyms), else
	 * none, and the writers' list of modules says why; the path of a copy
	 * saved where the file was recorded ('cat /proc/kallsyms > FILE' as
	 * root there), always used; "" for none (kernel samples stay
	 * [kernel.kallsyms]+0x...). Either is placed at the recording's
	 * kernel by the reference symbol of its kernel map (another boot,
	 * another KASLR offset; since 0.2). Since: 0.1 */
	const char *kallsyms;
	/* The kernel's code, for the bytes and disassembly of kernel
	 * addresses (HWP_SORT_RIP, annotate): the path of its uncompressed
	 * image (vmlinux, an ELF file), placed at the recording's kernel by
	 * the reference symbol of the file's kernel map; NULL: this
	 * machine's /proc/kcore, when the recording's kernel is this one and
	 * kcore is readable (root). Since: 0.2 */
	const char *vmlinux;
	/* Show symbols as their ELF symbol tables spell them: C++ (Itanium
	 * ABI) and Rust (legacy and v0) names are demangled by default, as
	 * perf report shows them (without C++ parameters or Rust hashes),
	 * where hwprof was built with libiberty. Since: 0.2 */
	bool no_demangle;
	/* Only the samples of these, as perf report's --comms, --pids, --tids
	 * and --dsos: comma-separated lists of command names (a thread's name
	 * when sampled, from COMM records), process ids, thread ids, modules
	 * (by path or file name: "libc.so.6", "[kernel.kallsyms]"); NULL for
	 * all. A sample must match each list given. The others are left out
	 * of every report but counted (hwp_profile_info.filtered_samples),
	 * and percentages stay of all the event's samples, as perf's
	 * default (--percentage absolute). Since: 0.2 */
	const char *comms;
	const char *pids;
	const char *tids;
	const char *dsos;
	/* Only the samples taken on these CPUs (a CPU list, "0-3,6"); NULL:
	 * all. The file's samples must carry their CPU (PERF_SAMPLE_CPU:
	 * hwprof record always asks for it, perf record with -a, -C or
	 * --sample-cpu), else hwp_profile_load() fails with -EINVAL. The
	 * others are counted in hwp_profile_info's other_cpus. Since: 0.2 */
	const char *cpus;
	/* Inlined frames in call chains, as perf report --inline shows them:
	 * where DWARF (libdw) says functions were inlined at a frame's
	 * address, each level is a frame of its own, named "NAME (inlined)",
	 * between the frame's function and its callee, the outermost first
	 * (for code of leaf() inlined into mid() inlined into outer():
	 * "outer", "mid (inlined)", "leaf (inlined)"), as addr2line -i
	 * nests them; in the callers of hwp_entry (a caller is the innermost
	 * function at the call), in hwp_profile_foreach_stack() (and so in
	 * the folded and JSON stacks; without call chains, a sampled
	 * function's chain of one gets its inlined frames too), and in the
	 * speedscope and HTML formats' chains. Each address is looked up
	 * once. Needs debug information (else no change); false: the chains
	 * as the samples' addresses give them. The pprof format always
	 * writes every level, as lines of a location. Since: 0.2 */
	bool inline_frames;
	/* Read this machine's /proc/kallsyms, not the cache of its parsed
	 * symbols. By default the kernel's symbols are kept between profiles
	 * in $XDG_CACHE_HOME/hwprof (else ~/.cache/hwprof), one file a
	 * kernel build, used while its key matches: the kernel's build-id,
	 * the boot (another KASLR offset), _text as this reader sees it
	 * (kptr_restrict), /proc/modules and the BPF programs and links
	 * loaded; anything else (another kernel, a damaged or truncated
	 * file, one not owned by this user) reads /proc/kallsyms and
	 * rewrites the cache; a cache that cannot be written is no error.
	 * The kernel formats /proc/kallsyms anew on each read (tens of
	 * milliseconds); the cache is mapped. Not used without a build-id
	 * in /sys/kernel/notes, where addresses are hidden, or where the BPF
	 * programs cannot be listed (without CAP_SYS_ADMIN). Since: 0.2 */
	bool no_kallsyms_cache;
	/* Read each module's separate debug file itself, not the copy of it
	 * kept with its compressed sections stored decompressed: no copy is
	 * read, none is written. By default, the first profile that reads
	 * DWARF (source lines, inlined frames) from a debug file whose
	 * sections are compressed (as Debian's -dbg packages ship them)
	 * keeps such a copy in $XDG_CACHE_HOME/hwprof (else
	 * ~/.cache/hwprof), named by the module's build-id, and later
	 * profiles read it: libelf maps its sections where it would inflate
	 * the original's anew each time. A copy not of the module's
	 * build-id, cut short, or in a folder not this user's alone is
	 * passed by (and written anew where it can be); a copy that cannot
	 * be written is no error. Since: 0.2 */
	bool no_debug_cache;
	/* The threads that read the file: 1, the caller's alone; 2, one
	 * the library starts reads the records, checks them and puts them
	 * in time order while the caller's aggregates the ones before (a
	 * MB of them in flight at most); 0 (the default), two where the
	 * process may run on two CPUs or more, the load average (1 minute)
	 * leaves one of them idle, the file has 64 MiB of records or more
	 * and its samples carry no stack copies (--call-graph dwarf), else
	 * one: on busy CPUs, for fewer records, or for stack copies (KBs a
	 * sample, copied again), the second thread costs more than it
	 * saves. The profile is the same,
	 * and so is an error in the file, whatever the number; more than 2
	 * is 2 today. A pipe (standard input that is one, a FIFO) is read by
	 * the caller's thread alone, whatever the number: a read that waits
	 * on a quiet writer could not be stopped when the profile fails.
	 * So is a file where the thread cannot be started (no error: the
	 * debug log, HWPROF_LOG_LEVEL=debug, says why). The thread is
	 * joined before hwp_profile_load() returns, whatever it returns; it
	 * blocks every signal. Since: 0.2 */
	unsigned int threads;
	size_t :0;
};

/*
 * hwp_profile_load - read and aggregate a perf.data file
 * @path: the file; "-" reads standard input (since 0.2)
 * @out: free it with hwp_profile_free()
 *
 * Files in perf's pipe format (perf record -o -, to a pipe or saved) are
 * read as a stream, in bounded memory, since 0.2; so are compressed ones
 * (perf record -z), when hwprof was built with libzstd (else
 * -EOPNOTSUPP, and the message says how to build it). Every size and
 * offset in the file is checked: a file that is empty, truncated, not
 * perf.data, or in big-endian format gives -HWP_ERR_FORMAT with the reason
 * in hwp_errmsg(). Records of types hwprof does not use or know, and the
 * AUX area data that follows AUXTRACE records, are skipped and counted
 * (hwp_profile_info.skipped). Errors also: the open's errno, -ENOENT for
 * an event the file does not have (the message lists them), -ENOMEM.
 * Since: 0.1 (as hwp_profile_open)
 */
HWP_API int hwp_profile_load(const char *path, const struct hwp_profile_opts *opts,
			     struct hwp_profile **out);

/*
 * hwp_profile_from_record - aggregate a finished recording (in memory or
 * on disk). Errors as hwp_profile_load(), and -EINVAL when @r is not
 * finished or its hwp_record_finish() failed. @r may be freed afterwards.
 * Since: 0.1
 */
HWP_API int hwp_profile_from_record(const struct hwp_record *r,
				    const struct hwp_profile_opts *opts,
				    struct hwp_profile **out);

/* hwp_profile_free. Since: 0.1 */
HWP_API void hwp_profile_free(struct hwp_profile *p);

/* The totals of a profile. Filled by hwp_profile_info(). */
struct hwp_profile_info {
	size_t sz;
	/* the file's path, "(standard input)" (since 0.2; was "-"), or
	 * "(in memory)" */
	const char *input;
	const char *event;	/* the event reported */
	uint64_t samples;	/* of that event */
	uint64_t period;	/* their summed periods: what percentages are of */
	/* Samples the kernel dropped in the whole file, whatever event they
	 * were of: the LOST records' counts summed, or where larger the
	 * LOST_SAMPLES records' (two counts of the same drops, not added). */
	uint64_t lost;
	uint64_t throttled;	/* THROTTLE records */
	uint64_t skipped;	/* records hwprof does not use, or of unknown events */
	uint64_t other_samples;	/* samples of the file's other events */
	size_t nr_events;	/* events in the file */
	size_t addresses;	/* distinct (module, address) pairs */
	size_t stacks;		/* distinct call chains */
	bool callchains;	/* the samples have call chains */
	/* Where the file was recorded, from its header (HEADER_HOSTNAME,
	 * HEADER_OSRELEASE), or NULL when it does not say */
	const char *hostname;
	const char *osrelease;
	/* When that host or kernel is not this machine's: a sentence saying so,
	 * and that kernel symbols and module paths, which the report reads
	 * here, may not match the recording's; NULL otherwise */
	const char *host_warning;
	/* The samples have DWARF user stacks (perf record --call-graph
	 * dwarf, HWP_CALLCHAIN_DWARF), unwound when the profile was read:
	 * how that went, by sample with a user stack. Since: 0.2 */
	bool dwarf;
	uint64_t unwind_entry;		/* unwound to the outermost frame */
	/* stopped where the stack's copy ended: the chain is deeper */
	uint64_t unwind_stack_short;
	uint64_t unwind_no_info;	/* stopped at a frame without unwind tables */
	uint64_t unwind_failed;		/* stopped for another reason */
	uint64_t stack_size;		/* the stack copy the samples had, bytes */
	/* A copy that would have been enough for 95% of the unwind_stack_short
	 * samples, at least (what they read past the copy, rounded up to a
	 * kilobyte; 65528, the kernel's most, when even that is too small):
	 * record with --call-graph dwarf,SIZE. 0 without such samples. */
	uint64_t stack_size_needed;
	/* The modules of the unwind_no_info stops, "path (N), ...", most
	 * first, or NULL */
	const char *unwind_no_info_modules;
	/* Why no chain could be unwound (hwprof built without libunwind, an
	 * architecture it does not know), or NULL */
	const char *unwind_unavailable;
	/* Samples of the event that hwp_profile_opts' comms, pids, tids or
	 * dsos left out (counted in samples and period), and their summed
	 * period. Since: 0.2 */
	uint64_t filtered_samples;
	uint64_t filtered_period;
	/* The reported event is context-switches in a file with switch
	 * records (hwp_record_opts' off_cpu, perf record -e context-switches
	 * -c 1 -g --switch-events): each sample, taken where a thread left
	 * the CPU, weighs the nanoseconds until that thread ran again, and
	 * every period (entries, stacks, percentages) is time off the CPU.
	 * The idle task's switches are not weighed (its time off the CPU is
	 * the CPU's busy time). off_cpu_unmatched counts the samples whose
	 * thread did not run again before the recording ended (or whose
	 * switch back was lost): they weigh 0. Since: 0.2 */
	bool off_cpu;
	uint64_t off_cpu_unmatched;
	/* Samples of the reported event left out by hwp_profile_opts' cpus.
	 * Since: 0.2 */
	uint64_t other_cpus;
	/* The reported event's frame-pointer chains (-g) with a user part,
	 * and those of them whose walk found no caller of the first user
	 * frame in a module: most are, from code built without frame
	 * pointers, whose callers --call-graph dwarf finds. Since: 0.2 */
	uint64_t fp_chains;
	uint64_t fp_one_frame;
};

/* hwp_profile_info - fill @info; its strings are borrowed from @p. Since: 0.1 */
HWP_API int hwp_profile_info(const struct hwp_profile *p, struct hwp_profile_info *info);

/* One caller of an entry, from the call chains: an element of an array.
 * Frozen at 0.2: it has no sz, and a later version that needs more adds a
 * type, not a field (docs/api.md). */
struct hwp_caller {
	const char *name;	/* its symbol, or module+0xoffset */
	const char *dso;
	uint64_t samples;	/* of the entry's samples, those called from here */
	/* of the entry's samples; in an off-CPU profile (hwp_profile_info's
	 * off_cpu), of its time off the CPU, and the callers are ranked by
	 * it (since 0.2) */
	double percent;
};

/* One row of a report. */
struct hwp_entry {
	size_t sz;
	size_t rank;		/* 0 for the hottest */
	/* What the row stands for: "hot", "hot+0x1b", "file.c:12", a module. */
	const char *name;
	const char *symbol;	/* the function; NULL: no symbol covers the address */
	/* The module's path, "[kernel.kallsyms]", "[vdso]" or "[unknown]". */
	const char *dso;
	uint64_t samples;
	uint64_t period;
	double percent;		/* of the profile's period */
	/* RIP: the instruction's address in its module (as objdump shows it);
	 * SYM: the symbol's */
	uint64_t address;
	uint64_t offset;	/* RIP: the address's offset in its symbol */
	const char *file;	/* RIP, LINE: the source file, or NULL */
	unsigned int line;
	/* RIP, LINE: the innermost function inlined there, or NULL */
	const char *inlined;
	const uint8_t *bytes;	/* RIP: the instruction's bytes, or NULL */
	size_t nr_bytes;
	const char *disasm;	/* RIP: its disassembly (AT&T syntax on x86), or NULL */
	/* With call chains, the most frequent first. */
	const struct hwp_caller *callers;
	size_t nr_callers;
	/* HWP_SORT_COMM, HWP_SORT_PID: the thread's name (for pid, its last),
	 * else NULL. Since: 0.2 */
	const char *comm;
	/* HWP_SORT_PID: the thread's id; -1 otherwise. Since: 0.2 */
	int64_t tid;
	/* HWP_SORT_PID: the thread's last name (with HWP_SORT_COMM too, where
	 * @comm is the row's: "sh" before the exec, "yes" here), else NULL.
	 * Since: 0.2 */
	const char *thread_comm;
	/* HWP_SORT_RIP: the instruction's module could not be read (its
	 * segments say where its offsets load): @address is unknown, 0, and
	 * @name's +0xOFFSET its offset in the file. Since: 0.2 */
	bool no_address;
};

/* A walk callback: return 0 to go on, anything else to stop (it is returned). */
typedef int (*hwp_entry_fn)(const struct hwp_entry *e, void *ctx);

/*
 * hwp_profile_foreach_entry - walk the @n hottest entries (0: all), hottest first
 * @fn, @ctx: called once an entry; @e and what it points to live during
 *	      the call, except symbol, dso, file and inlined, which live as
 *	      long as @p
 *
 * Ties are broken by name, so the order is stable. Returns 0, what @fn
 * returned to stop, or a negative error. Since: 0.1 (as hwp_profile_top)
 */
HWP_API int hwp_profile_foreach_entry(struct hwp_profile *p, enum hwp_sort sort, size_t n,
			    hwp_entry_fn fn, void *ctx);

/* A module that samples landed in, and what hwprof could read of it. */
struct hwp_module_info {
	size_t sz;
	const char *path;
	uint64_t samples;
	bool has_symbols;
	/* Source lines were found. Debug information is looked for only once
	 * a report needed lines (HWP_SORT_RIP, HWP_SORT_LINE, annotate), as
	 * loading it costs more than a report by symbol: false, with
	 * no_debuginfo NULL, until then. */
	bool has_debuginfo;
	const char *no_symbols;		/* why there are no symbols, or NULL */
	const char *no_debuginfo;	/* why there are no source lines, or NULL */
	/* Why the code of a kernel module (the kernel's, a kernel module's)
	 * cannot be read for bytes and disassembly, or NULL. Since: 0.2 */
	const char *no_code;
	/* The file read for this module, where the one at path is another
	 * build than the recording's (its build-id differs: rebuilt or
	 * replaced since): a copy of the recorded build, found by build-id
	 * in perf's build-id cache (~/.debug/.build-id), in
	 * /usr/lib/debug/.build-id (a debug file: symbols and lines, no
	 * code), or fetched from the debuginfod servers DEBUGINFOD_URLS
	 * names into their client's cache ($DEBUGINFOD_CACHE_PATH, else
	 * ~/.cache/debuginfod_client; the module, and its debug file for
	 * lines; a file whose build-id is another is not used). NULL where path
	 * itself was read, and until symbols were looked for. Without a
	 * copy, no_symbols says where hwprof looked. Since: 0.2 */
	const char *read_from;
	bool from_debuginfod;	/* read_from came from debuginfod. Since: 0.2 */
};

typedef int (*hwp_module_fn)(const struct hwp_module_info *m, void *ctx);

/* A call chain, with its samples. */
struct hwp_stack {
	size_t sz;
	const char *const *frames;	/* function names, the outermost first */
	size_t nr_frames;
	uint64_t samples;
	uint64_t period;
	/* A DWARF chain whose unwinding stopped early: its outermost frame
	 * is "[truncated]", not the program's entry. Since: 0.2 */
	bool truncated;
};

typedef int (*hwp_stack_fn)(const struct hwp_stack *st, void *ctx);

/*
 * hwp_profile_foreach_stack - walk the distinct call chains by function, most
 * samples first; chains that differ only in addresses within the same
 * functions are one. Without call chains, each sampled function is a
 * chain of one (with hwp_profile_opts' inline_frames, with the functions
 * inlined where it was sampled). Since: 0.1 (as hwp_profile_stacks)
 */
HWP_API int hwp_profile_foreach_stack(struct hwp_profile *p, hwp_stack_fn fn, void *ctx);

/* One instruction of an annotated function. */
struct hwp_annotate_line {
	size_t sz;
	uint64_t address;
	uint64_t samples;
	double percent;		/* of the function's period */
	const uint8_t *bytes;
	size_t nr_bytes;
	const char *disasm;
	const char *file;	/* its source line, or NULL */
	unsigned int line;
	bool new_line;		/* the first instruction of another line than the last */
	const char *source;	/* that line's text, when the file can be read, or NULL */
	/* with new_line and no source: why the text is not shown (the file is
	 * missing, not a regular file, too large...), or NULL */
	const char *no_source;
	/* The function, the same on every line: */
	const char *dso;	/* its module */
	uint64_t start;		/* its address there (objdump's) */
	uint64_t function_samples;	/* all its samples */
	size_t nr_namesakes;	/* other sampled functions of the same name */
	/* those, the hottest first: "NAME@0xADDRESS (N samples, MODULE), ...",
	 * or NULL when there are none */
	const char *namesakes;
};

typedef int (*hwp_annotate_fn)(const struct hwp_annotate_line *l, void *ctx);

/*
 * hwp_profile_write - write a report of @p to @f
 * @opts: NULL for text, sorted by symbol, every entry; else its format
 *	  (TEXT, CSV, JSON, FOLDED or, since 0.2, SPEEDSCOPE, PPROF and HTML),
 *	  sort, top, separator and annotate
 *
 * The formats are in hwprof-report(1), the JSON schema in hwprof-formats(5).
 * Errors: those of hwp_profile_foreach_entry() and of reading the binary
 * to annotate, and
 * the write's errno (-ENOSPC), found by flushing @f. Since: 0.1; 0.2 takes
 * struct hwp_write_opts, as every writer does (0.1 took struct hwp_report_opts)
 */
HWP_API int hwp_profile_write(struct hwp_profile *p, FILE *f,
			      const struct hwp_write_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* HWPROF_API_PROFILE_H */
