/* SPDX-License-Identifier: MIT */
/* Private to the sampling pipeline: ring buffers, the perf.data format,
 * record decoding, address spaces, the kernel's symbols and modules. See
 * the diagram in CONVENTIONS.md: ring → records → perf.data → symbolize →
 * aggregate → exports; symbols, lines and code are the profile stage's
 * (profile/symbolize.h, profile/dwarf.h, profile/disasm.h). */
#ifndef HWPROF_SAMPLE_H
#define HWPROF_SAMPLE_H

#include "core/core.h"
#include "event/ring.h"
#include "sample/perf-data-format.h"
#include "util/hash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's module name, as perf's MMAP and build-id records spell it,
 * and where the running kernel gives its build-id. */
#define PD_KERNEL_NAME "[kernel.kallsyms]"
#define PD_KERNEL_NOTES "/sys/kernel/notes"

/* A pid of -1 in an MMAP record: the kernel's own mappings. */
#define PD_KERNEL_PID 0xffffffffu

/* ---- decode.c: one record of the kernel's format ---- */

/* What a sample says, for the fields hwprof reads. */
struct pd_sample {
	uint64_t id;		/* 0 when the event has neither ID nor IDENTIFIER */
	uint64_t ip;
	uint64_t time;
	uint64_t period;
	uint32_t pid, tid, cpu;
	uint16_t cpumode;	/* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	uint64_t nr_ips;
	/* the call chain, context markers included; in the record */
	const uint64_t *ips;
	/* PERF_SAMPLE_REGS_USER: the user registers when the sample was
	 * taken (also of a sample in the kernel), in the record; regs_abi
	 * is PERF_SAMPLE_REGS_ABI_*, 0 (NONE) for a kernel thread */
	uint64_t regs_abi, regs_mask, nr_regs;
	const uint64_t *regs;
	/* PERF_SAMPLE_STACK_USER: stack_size bytes copied from the user
	 * stack pointer up, of which stack_dyn_size hold the stack (fewer
	 * where the stack's top was nearer); in the record */
	uint64_t stack_size, stack_dyn_size;
	const unsigned char *stack;
	/* PERF_SAMPLE_CGROUP: the task's cgroup v2 id (its directory's
	 * file handle, as PERF_RECORD_CGROUP names it), or 0 */
	uint64_t cgroup;
};

/* Where a record's sample_id trailer puts the fields of non-sample records. */
struct pd_sample_id {
	bool has_time;
	uint64_t time;
	uint64_t id;
	uint32_t pid, tid, cpu;
};

/* Decode a PERF_RECORD_SAMPLE of an event opened with @attr: 0, or
 * -HWP_ERR_FORMAT when the record is shorter than its fields say. */
int pd_decode_sample(const struct perf_event_attr *attr,
		     const struct perf_event_header *h, struct pd_sample *s);
/* Decode the sample_id trailer of a non-sample record (sample_id_all). */
int pd_decode_sample_id(const struct perf_event_attr *attr,
			const struct perf_event_header *h, struct pd_sample_id *sid);
/* The u64 index of the ID field in a sample's body, or -1 without one. */
int pd_sample_id_pos(uint64_t sample_type);
/* The same for the TIME field. */
int pd_sample_time_pos(uint64_t sample_type);
/* Bytes of the sample_id trailer that @attr gives non-sample records. */
size_t pd_sample_id_size(const struct perf_event_attr *attr);

/* ---- kallsyms.c: the kernel's symbols, and the cache of them ---- */

/* A text symbol of kallsyms; the cache file holds an array of these. */
struct ksym {
	uint64_t addr, end;	/* end: where the next symbol begins, or a bound */
	uint32_t name;		/* offset into the names */
	uint32_t module;	/* 1: a module's ("NAME\t[MODULE]"): ksym_module() */
};

struct ksyms {
	const struct ksym *syms;	/* sorted by address, bounded */
	size_t nr;
	const char *names;
	bool cached;		/* read from the cache */
	const char *problem;	/* why there are none, for reports */
	char problem_buf[512];
	void *map;		/* what to unmap: kallsyms as read, or the cache */
	size_t map_len;
	struct ksym *owned;
};

/* The text symbols of @path (/proc/kallsyms or a copy of it; "" for none),
 * sorted and bounded; when none, ->problem says why. With @use_cache, those
 * of /proc/kallsyms come from the cache of the running kernel's
 * ($XDG_CACHE_HOME/hwprof, else ~/.cache/hwprof) when it matches, else are
 * read and the cache rewritten; a cache that cannot be read or written is
 * passed by without a word. Release with ksyms_release(). */
void ksyms_load(struct ksyms *k, const char *path, bool use_cache);
void ksyms_release(struct ksyms *k);
/* The module of @s, a symbol of @k, as kallsyms names it ("[e1000e]",
 * "[bpf]"), or NULL for the kernel's own. */
const char *ksym_module(const struct ksyms *k, const struct ksym *s);
/* The kernel's reference symbol, as perf's: _text, else _stext (arm64's
 * kallsyms has no _text), from the head of @path (NULL: /proc/kallsyms;
 * the rest is neither read nor formatted): 0 with its address and name (a
 * static string); -EACCES when addresses are hidden from this reader;
 * -ENOENT when the head has neither, or the open's error. */
int kallsyms_ref(const char *path, uint64_t *addr, const char **name);
/* The running kernel's identity as this reader sees its symbols: build-id,
 * boot, _text (or _stext), modules and BPF programs; an error where one is
 * unknown (then nothing is cached). */
int ksyms_cache_key(char *key, size_t size);
/* The modules loaded, from @path (/proc/modules): each one's name, state
 * and address, not its reference count, which moves as it is used (a
 * cache would be dropped for nothing). 0 without the file; 1 when it
 * cannot be read, or not as /proc/modules: a key never kept. */
uint64_t ksyms_modules_hash(const char *path);
/* $XDG_CACHE_HOME/hwprof/@name, else ~/.cache/hwprof/@name, in @path: 0,
 * -ENOENT when neither variable names an absolute folder, -ENAMETOOLONG. */
int cache_file_path(char *path, size_t size, const char *name);
/* The folder of the cache file @path (from cache_file_path()), opened if
 * it and the folders above it are this user's alone (@create: made if
 * missing): the fd, or -errno (-EPERM: a folder of another user). Make the
 * file's calls relative to it (openat, renameat), not by @path. */
int cache_dir_open(const char *path, bool create);
/* Write cache file @path by @fill(fd, @ctx) (0 or -errno) under a name of
 * this thread's, renamed into place once whole and synced (never a
 * half-written file, nor after a crash): 0, or the first error, and no
 * file. */
int cache_file_write(const char *path, int (*fill)(int fd, void *ctx), void *ctx);
/* Where the cache of the kernel of @key is. */
int ksyms_cache_path(char *path, size_t size, const char *key);
/* Whether @size bytes at @data are a whole cache file of @key (NULL: any):
 * 0, -ESTALE for another kernel's, -HWP_ERR_FORMAT. For tests and fuzzing. */
int ksyms_cache_check(const void *data, size_t size, const char *key);
int ksyms_cache_write(const struct ksyms *k, const char *path, const char *key);
/* The bytes ksyms_cache_write() writes, malloc'ed, of *@size; NULL for no
 * memory, or names past 4 GiB, or a key too long. */
void *ksyms_cache_image(const struct ksyms *k, const char *key, size_t *size);
uint64_t ksyms_checksum(const void *data, size_t len);

/* ---- kmodules.c: the kernel's loaded modules ---- */

/* One line of /proc/modules. */
struct kmodule {
	const char *name;	/* as the kernel names it: "e1000e" */
	const char *state;	/* "Live", "Loading", "Unloading" */
	uint64_t size, addr;	/* addr 0: hidden from this reader */
};

typedef int (*kmodule_fn)(const struct kmodule *km, void *ctx);

/* The folder the machine's modules are described under: DIR/proc/modules
 * and DIR/lib/modules/RELEASE/modules.dep, DIR being $HWPROF_MODULES_ROOT
 * (a test's fabricated tree), else "" (the machine's own). */
const char *kmodules_root(void);
/* @fn with each module of @path (/proc/modules, or a copy of it), the
 * strings valid for the call: 0; the open's -errno; -HWP_ERR_FORMAT at a
 * line that is not one of /proc/modules (nothing after it is read); -EIO;
 * or @fn's non-zero return. */
int kmodules_walk(const char *path, kmodule_fn fn, void *ctx);
/* Why kmodules_walk() failed with @err, as a static string. */
const char *kmodules_problem(int err);
/* A loaded module that shows its address, and the file it was loaded
 * from, where known. */
struct kmod_loaded {
	char name[132];		/* "[e1000e]" */
	uint64_t addr, size;
	char *path;		/* malloc'ed, or NULL: named "[e1000e]" */
};

struct kmod_list {
	struct kmod_loaded *m;
	size_t nr, cap;
};

/* The modules of @path (as kmodules_walk()) with code at an address shown
 * (not 0: kptr_restrict) that ends within the address space, by address,
 * ascending: /proc/modules lists the
 * newest first, and each of its whole size, so an older module's range can
 * run over a newer one's start, which a map by address gives back to the
 * newer (as perf's maps by address do). 0, or kmodules_walk()'s error or
 * -ENOMEM with @l empty. */
int kmodules_by_addr(const char *path, struct kmod_list *l);
/* @l by address again, ascending. */
void kmod_list_sort(struct kmod_list *l);
void kmod_list_free(struct kmod_list *l);
/* A kernel module's name as perf shows it, "[e1000e]", from the path of
 * its file (/lib/modules/.../e1000e.ko.xz: dashes as underscores, as the
 * kernel names it) or its name in brackets, into @buf; false for the
 * kernel itself, its other maps, and anything else. */
bool kmod_name(const char *path, char *buf, size_t size);

/* ---- perf-data-open.c, perf-data.c, perf-data-records.c: reading files ---- */

struct pd_event {
	struct perf_event_attr attr;
	char *name;		/* from the EVENT_DESC feature, or worked out from attr */
	uint64_t *ids;
	size_t nr_ids;
};

/* One record as the reader hands it out, in time order where the file allows. */
struct pd_record {
	/* valid during the callback only; h->size is checked */
	const struct perf_event_header *h;
	int event;		/* index into the file's events, or -1 when unknown */
	uint64_t time;		/* 0 when the record has none */
	uint64_t offset;	/* in the file, for messages */
};

struct pd_file;

typedef int (*pd_record_fn)(const struct pd_record *rec, void *ctx);

/* Open a perf.data file (@fd >= 0: that descriptor, borrowed: the caller
 * may close it once this returns; else @path, "-" for standard input).
 * A file's header and features are mapped and its records read with
 * pread(); a pipe (perf record -o -) is read as a stream, with read(), in a
 * buffer of bounded size. Every section is
 * checked against the file's size: a hostile file gives -HWP_ERR_FORMAT
 * with the reason, never a crash. */
int pd_open(const char *path, int fd, struct pd_file **out);
void pd_close(struct pd_file *f);
size_t pd_nr_events(const struct pd_file *f);
const struct pd_event *pd_event(const struct pd_file *f, size_t idx);
/* A string feature (PD_FEAT_HOSTNAME, ...; PD_FEAT_CMDLINE's strings
 * joined by spaces), or NULL. */
const char *pd_feature_string(const struct pd_file *f, enum pd_feature feat);
/* Walk the data section. Records between two FINISHED_ROUND records are
 * sorted by time as perf does, with memory bounded by one round. */
int pd_foreach(struct pd_file *f, pd_record_fn fn, void *ctx);
/* pd_foreach(), the same records in the same order and the same error,
 * with the records read and sorted on a thread of the library's while
 * @fn runs on the caller's, through a few batches of bounded size (a
 * MB in all). @threads: 1 for the caller's thread alone, 0 for two where
 * this process may run on two CPUs or more and the load average leaves
 * one of them idle (else one: on busy CPUs the second costs more than it
 * gives); a thread that cannot be
 * started (or its batches allocated) is no error: the caller's reads
 * alone, and the debug log says why. Nothing else may use @f meanwhile;
 * while @fn runs, pd_event() and pd_nr_events() may be called. */
int pd_foreach_threads(struct pd_file *f, unsigned int threads, pd_record_fn fn,
		       void *ctx);

/* Records of types the reader skipped (perf's own it does not use, and
 * any it does not know), and of those the AUXTRACE ones and their data. */
struct pd_stats {
	uint64_t skipped;
	uint64_t aux_records, aux_bytes;
	uint64_t compressed;	/* PERF_RECORD_COMPRESSED records read */
};

void pd_get_stats(const struct pd_file *f, struct pd_stats *st);

struct pd_build_id;

/* The build-id the file gives @path (its HEADER_BUILD_ID), or NULL. */
const struct pd_build_id *pd_file_build_id(const struct pd_file *f, const char *path);
/* The build-id the file gives the kernel (by whatever name), or NULL. */
const struct pd_build_id *pd_file_kernel_build_id(const struct pd_file *f);
/* Each module the file names a build-id of, in turn: 0 continues. */
typedef int (*pd_build_id_fn)(const char *path, const struct pd_build_id *id,
			      void *ctx);
int pd_foreach_build_id(const struct pd_file *f, pd_build_id_fn fn, void *ctx);

/* ---- file-id.c: a file without a build-id, as the recording knew it ---- */

/* What stat() said of a mapped file without a build-id when hwprof record
 * ended (PD_FEAT_HWPROF_FILES): another build has another inode, size or
 * modification time. */
struct pd_file_stat {
	uint64_t dev, ino, size;
	int64_t mtime_ns;
};

/* Each file the file's PD_FEAT_HWPROF_FILES names, in turn: 0 continues. */
typedef int (*pd_file_stat_fn)(const char *path, const struct pd_file_stat *st,
			       void *ctx);
int pd_foreach_file_stat(const struct pd_file *f, pd_file_stat_fn fn, void *ctx);
/* What stat() says of @path now; -errno when it fails. */
int pd_file_stat_of(const char *path, struct pd_file_stat *st);
struct dso;
/* Why the file at @d's path, which the recording names no build-id of,
 * is not the one recorded (in @buf), by what the MMAP2 records and
 * PD_FEAT_HWPROF_FILES say of it; NULL when nothing tells it apart. */
const char *file_other_build(const struct dso *d, char *buf, size_t size);

/* ---- build-id.c: an ELF file's GNU build-id ---- */

struct pd_build_id {
	uint8_t size;		/* 0: none */
	unsigned char data[PD_BUILD_ID_MAX];
};

/* 0; -ENODATA for a 64-bit ELF file that has none, -HWP_ERR_FORMAT for a
 * file that is not one (or is cut short), -errno when it cannot be read. */
int pd_build_id_of(const char *path, struct pd_build_id *id);
int pd_build_id_of_fd(int fd, struct pd_build_id *id);
/* The build-id among ELF notes as the kernel gives them, without an ELF
 * header (/sys/kernel/notes: the running kernel's): 0, -ENOENT, -errno. */
int pd_build_id_of_notes(const char *path, struct pd_build_id *id);
bool pd_build_id_eq(const struct pd_build_id *a, const struct pd_build_id *b);
/* @id in hex, as perf and the debug directories spell it. */
char *pd_build_id_hex(const struct pd_build_id *id, char *buf, size_t size);

/* ---- zstd.c (libzstd) or zstd-stub.c: perf record -z ---- */

struct pd_zstd;

/* -EOPNOTSUPP, with the message, without libzstd. */
int pd_zstd_new(struct pd_zstd **out);
void pd_zstd_free(struct pd_zstd *z);
/* Decompress from @in[*@in_pos, @in_len) into @out[*@out_len, @out_cap),
 * advancing both; -HWP_ERR_FORMAT for bytes that are not zstd's. */
int pd_zstd_step(struct pd_zstd *z, const void *in, size_t in_len, size_t *in_pos,
		 void *out, size_t out_cap, size_t *out_len);

/* ---- perf-data-write.c ---- */

struct pd_writer;

struct pd_write_event {
	const struct perf_event_attr *attr;
	const char *name;
	const uint64_t *ids;
	size_t nr_ids;
};

/* Start a perf.data file on @f (seekable): a placeholder header, then the
 * attributes with their ids. Records are then written with fwrite(). */
int pd_writer_begin(FILE *f, const struct pd_write_event *events, size_t nr,
		    struct pd_writer **out);
/* The same in perf's pipe format (perf record -o -), to a stream that
 * cannot seek: the events, their names and the features (@argv as for
 * pd_writer_finish()) go first, as records; finishing only flushes. */
int pd_writer_begin_pipe(FILE *f, const struct pd_write_event *events, size_t nr,
			 char *const argv[], struct pd_writer **out);
/* Name the build of a module the file's records map (@kernel: a kernel
 * module), for PD_FEAT_BUILD_ID (a pipe's HEADER_BUILD_ID records). */
int pd_writer_add_build_id(struct pd_writer *w, const char *path, bool kernel,
			   const struct pd_build_id *id);
/* Name what stat() says of @path, a mapped file without a build-id, for
 * PD_FEAT_HWPROF_FILES; nothing when stat() fails (gone). */
int pd_writer_add_file_stat(struct pd_writer *w, const char *path);
/* Where @f is now, relative to the data section: the bytes written. */
int64_t pd_writer_data_size(const struct pd_writer *w);
/* Write the feature sections and the final header; frees @w, but when
 * writing fails (then pd_writer_finish_at() or pd_writer_abort() frees it).
 * @argv is the command line to keep (PD_FEAT_CMDLINE), NULL-terminated, or
 * NULL. */
int pd_writer_finish(struct pd_writer *w, char *const argv[]);
/* The same, after writing failed: the data section ends @data_size bytes
 * in (what was complete), whatever @w's stream holds past it; without the
 * feature sections where there is no room for them. */
int pd_writer_finish_at(struct pd_writer *w, int64_t data_size, char *const argv[]);
void pd_writer_abort(struct pd_writer *w);

/* ---- ring buffers: event/ring.h (counting reads them too) ---- */

/* ---- record.c ---- */

/* The finished recording's file: its path, or the memory file's fd (-1). */
int record_file(const struct hwp_record *r, const char **path, int *fd);
/* The sum of the LOST records the rings gave (for the tests: the
 * recording reports it or the kernel's count, the larger). */
uint64_t record_lost_records(const struct hwp_record *r);

/* ---- synthesize.c: records for what existed before recording began ---- */

/* Called with each synthesized record (a perf_event_header and its body). */
typedef int (*synth_fn)(const struct perf_event_header *h, void *ctx);

/* The kernel's text as perf describes it: an MMAP of [kernel.kallsyms]_text
 * (_stext where the kernel has no _text). */
int synth_kernel_mmap(size_t id_size, synth_fn fn, void *ctx);
/* The kernel's modules as perf describes them: an MMAP of each loaded one
 * (kmodules_root()'s /proc/modules), named by its file in modules.dep or
 * "[name]". A machine without modules, or whose module addresses are
 * hidden, has none; one whose list cannot be read gets a warning. */
int synth_kernel_modules(size_t id_size, synth_fn fn, void *ctx);
/* COMM and MMAP2 records (executable mappings) of the process of thread
 * @tid, and of its threads. */
int synth_process(pid_t tid, size_t id_size, synth_fn fn, void *ctx);
/* The same for every process in /proc. */
int synth_all_processes(size_t id_size, synth_fn fn, void *ctx);
/* A PERF_RECORD_CGROUP for each cgroup of the v2 hierarchy (none where it
 * is not mounted): its id and its path under the mount, as perf record
 * --all-cgroups synthesizes them. */
int synth_cgroups(size_t id_size, synth_fn fn, void *ctx);

/* ---- machine.c: address spaces rebuilt from MMAP, COMM, FORK and EXIT records ---- */

enum dso_kind {
	DSO_FILE = 0,		/* an ELF file on disk */
	DSO_KERNEL,		/* resolved through kallsyms */
	DSO_VDSO,		/* the kernel's vDSO, read from our own process */
	DSO_ANON,		/* anonymous or special memory: heap, stack, memfd */
	/* a process's anonymous code (JIT), named by /tmp/perf-PID.map as
	 * perf names it; its addresses are the process's */
	DSO_JIT,
	DSO_UNKNOWN,		/* no mapping covered the address */
};

struct dso {
	const char *path;	/* interned */
	const char *name;	/* the last path component, for narrow columns */
	enum dso_kind kind;
	void *sym;		/* symbolize.c's state for it, opened on first use */
	bool tried;		/* symbolize.c tried to open it */
	bool has_symbols, has_debuginfo;
	const char *sym_problem;	/* why symbols are missing (static), or NULL */
	/* why source lines are missing (static), or NULL */
	const char *dbg_problem;
	struct pd_build_id build_id;	/* the recording's, when the file says */
	/* a kernel module's address where it was loaded (its last map): its
	 * addresses are shown as offsets in it, as perf shows them */
	uint64_t kmod_start;
	/* The copy of the recorded build read in place of @path, which is
	 * another build (interned), or NULL; from_debuginfod: fetched from
	 * debuginfod's servers, into their client's cache */
	const char *build_copy;
	bool from_debuginfod;
	/* The file as mapped (MMAP2's device, inode and the inode's
	 * generation, which tells a reused inode; ino 0: not said),
	 * @remapped when another file was mapped at its path too; and as
	 * hwprof record found it at the end (@stat_known): what tells
	 * another build where no build-id does (file_other_build()) */
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	bool remapped, stat_known;
	struct pd_file_stat stat;
};

struct map {
	uint64_t start, end, pgoff;
	uint32_t dso;
};

struct machine;

/* Where an address lands: a module and the address within it (the file
 * offset for files, the address itself for the kernel and unknown memory). */
struct location {
	uint32_t dso;
	uint64_t addr;
};

/* An MMAP's or MMAP2's fields, as far as hwprof reads them. */
struct mmap_fields {
	uint32_t pid;
	uint64_t start, len, pgoff;
	/* MMAP2's file's device, inode and its generation; ino 0: none */
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	const char *name;	/* in the record */
	bool exec;
};

/* Both MMAP and MMAP2: the fixed fields, then a NUL-terminated name that
 * must end inside the record; false when it does not. */
bool parse_mmap(const struct perf_event_header *h, struct mmap_fields *f);

int machine_new(struct machine **out);
void machine_free(struct machine *m);
/* Apply an MMAP, MMAP2, COMM, FORK or EXIT record; other types are ignored. */
int machine_apply(struct machine *m, const struct perf_event_header *h);
/* Where @ip of process @pid lands, in @cpumode (PERF_RECORD_MISC_*). */
int machine_resolve(struct machine *m, uint32_t pid, uint64_t ip, uint16_t cpumode,
		    struct location *loc);
/* Changes with each record applied, never 0: what machine_resolve() and
 * machine_comm() answered holds while it stays the same. */
uint64_t machine_generation(const struct machine *m);
size_t machine_nr_dsos(const struct machine *m);
/* Thread @tid's command name now (COMM records, inherited at FORK), or
 * NULL when no record named it; interned. */
const char *machine_comm(struct machine *m, uint32_t tid);
/* A module that stands for no memory ("[truncated]"), for frames that are
 * markers: its index. DSO_UNKNOWN, named by @name. */
int machine_pseudo_dso(struct machine *m, const char *name, uint32_t *out);
/* The build of @path that was recorded (the file's HEADER_BUILD_ID). */
int machine_set_build_id(struct machine *m, const char *path,
			 const struct pd_build_id *id);
/* What hwprof record found of @path, a file without a build-id. */
int machine_set_file_stat(struct machine *m, const char *path,
			  const struct pd_file_stat *st);
struct dso *machine_dso(struct machine *m, uint32_t idx);
/* The recording's kernel map's reference symbol and its address then
 * (perf's ref_reloc_sym): false when the file named none. */
bool machine_kernel_ref(const struct machine *m, const char **name, uint64_t *addr);
/* Place the kernel's modules by this machine's list of them
 * (kmodules_root()'s /proc/modules) if the recording maps none and its
 * kernel is where this one is: for a recording of this kernel (the caller
 * knows), at its first kernel address. */
void machine_use_running_modules(struct machine *m);
/* Whether any module is mapped: by the recording, or placed by this
 * machine's list (at the first kernel address resolved). A recording
 * without (hwprof's before 0.2, read with another kernel's symbols or on
 * another host) has its module addresses in the kernel's map. */
bool machine_maps_modules(const struct machine *m);
/* For the tests: the mappings held (a shared address space's once), and
 * the comparisons of mappings this thread's lookups made so far. */
size_t machine_nr_maps(const struct machine *m);
unsigned long machine_map_compares(void);

/* ---- regs.c: the user registers of DWARF (and arm64 -g) samples ---- */

struct regs_arch {
	int e_machine;		/* EM_X86_64, EM_AARCH64 */
	const char *name;	/* as uname -m says */
	uint64_t user_mask;	/* sample_regs_user: what perf asks for */
	/* sample_regs_user with frame-pointer chains, or 0: on arm64, where
	 * a leaf function keeps no frame record, its caller is the link
	 * register wherever its CFI says the return address is still there;
	 * on x86-64 it is on the stack, of which fp_stack bytes are copied */
	uint64_t fp_mask;
	uint32_t fp_stack;
	int sp, ip;		/* the stack pointer's and the IP's DWARF numbers */
	const int8_t *perf_of_dwarf;	/* DWARF register -> the kernel's number */
	size_t nr_dwarf;
};

/* The register set of ELF machine @e_machine, or NULL for one hwprof
 * does not unwind. */
const struct regs_arch *regs_arch_of(int e_machine);
/* The register set of the machine hwprof runs on, or NULL. */
const struct regs_arch *regs_arch_host(void);
/* The value of the kernel's register @perf_reg in sample @s: -ENOENT when
 * the sample does not have it. */
int regs_value(const struct regs_arch *a, const struct pd_sample *s, int perf_reg,
	       uint64_t *v);
/* The same by DWARF register number. */
int regs_dwarf_value(const struct regs_arch *a, const struct pd_sample *s, int dwarf_reg,
		     uint64_t *v);
/* Whether the user part of @attr's samples' chains is to be unwound from
 * their user registers and stack (perf's --call-graph dwarf): not that of
 * frame-pointer chains with a few words of the stack (x86-64's -g, whose
 * chains have their user part, leaf-caller.c). */
bool regs_unwound(const struct perf_event_attr *attr);

/* The largest stack copy the kernel takes (perf_event_attr.sample_stack_user
 * must fit a record's u16 size, rounded down to 8 bytes), and perf's default. */
#define STACK_USER_MAX 65528u
#define STACK_USER_DEFAULT 8192u

#endif
