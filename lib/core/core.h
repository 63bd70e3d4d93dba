/* SPDX-License-Identifier: MIT */
/*
 * The core every stage stands on: errors and their messages, the log, the
 * write dispatcher, opts and info structs, system facts (CPUs, threads,
 * files, perf_event_open itself, permissions) and running a command.
 */
#ifndef HWPROF_CORE_H
#define HWPROF_CORE_H

#include <hwprof/hwprof.h>
#include "private/hwprof-private.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HWP_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
/* For a function that a version reshaped, whose older version compat.c
 * keeps (libhwprof.sym): @impl is exported as @name, the default version,
 * of node @node. Linking against the library, or the tests against its
 * objects, @name is @impl. */
#define HWP_SYMVER_DEFAULT(impl, name, node) __asm__(".symver " #impl "," #name "@@" node)
/* Thread-local variables on the hot path: initial-exec avoids a call to
 * __tls_get_addr on each access from the shared library. */
#define HWP_TLS _Thread_local __attribute__((tls_model("initial-exec")))
/* For a rarely taken path with kilobytes of buffers on its stack: inlined,
 * they would push every call below its caller that much deeper, onto
 * stack pages touched for the first time (a page fault each, tens of
 * microseconds in a VM). */
#define COLD_FRAME __attribute__((noinline, cold))

/* error.c: the thread's detailed message; each returns -err unchanged. */
int fail(int err, const char *fmt, ...) HWP_PRINTF(2, 3);
void clear_error(void);
/* A failure's error and message, kept while the failing call cleans up
 * with functions that may set messages of their own, or kept by an object
 * whose every later call fails the same way. */
#define HWP_ERRMSG_MAX 4096
struct kept_error {
	int err;
	char msg[HWP_ERRMSG_MAX];
};
void error_keep(struct kept_error *k, int err);
/* Set the kept message again; returns the kept error. */
int error_restore(const struct kept_error *k);
/* The text of errno @err (either sign) for a message: never NULL, whatever
 * the code (0, unknown, or one of hwprof's own): strerrordesc_np() gives
 * NULL for those, which printf shows as "(null)". */
const char *errno_text(int err);
/* Keep the message a callee set, adding context in front: "ctx: old". */
int fail_prefix(int err, const char *fmt, ...) HWP_PRINTF(2, 3);
/* What to do when writing a file failed with @err (negative), for messages. */
const char *write_advice(int err);
/* ofile.c: whether a file can be created at @path (its directory exists
 * and takes new files), without creating one: 0, or the error and message
 * hwpriv_ofile_open() would give. Devices and pipes pass: only writing tells. */
int ofile_check(const char *path);
/* hwpriv_ofile_open() for a recording, which holds the program's memory: the
 * file is 0600 whatever the umask, and the commit keeps the non-empty file
 * it replaces as PATH.old, as perf record does. */
int ofile_open_recording(const char *path, struct hwpriv_ofile **out);
/* Flush @f and check it for errors (a full disk): 0 or -errno, with a
 * message that says what to do. */
int stream_check(FILE *f, const char *what);

/* write.c: the one dispatcher behind every hwp_*_write(). A writer is a
 * table of its formats; write_dispatch() checks the arguments, copies the
 * opts, calls the format's function and checks the stream. */
#define NR_FORMATS (HWP_FORMAT_HTML + 1)
/* @obj: the object written; @opts: the writer's opts type, copied. */
typedef int (*write_fn)(const void *obj, FILE *f, const void *opts);
struct writer {
	const char *fn;		/* the public function, for messages */
	const char *what;	/* "the sweep": what a failed write names */
	const char *subject;	/* "a sweep is": what a refused format names */
	/* The options as a whole, before any format is looked at; may be NULL. */
	int (*check)(const void *opts);
	/* NULL: a format this object is not written in (-EOPNOTSUPP). */
	write_fn format[NR_FORMATS];
};
int write_dispatch(const struct writer *w, const void *obj, FILE *f, const void *opts);

/* log.c */
void lib_log(enum hwp_log_level level, const char *fmt, ...) HWP_PRINTF(2, 3);
#define pr_warn(...) lib_log(HWP_LOG_WARN, __VA_ARGS__)
#define pr_info(...) lib_log(HWP_LOG_INFO, __VA_ARGS__)
#define pr_debug(...) lib_log(HWP_LOG_DEBUG, __VA_ARGS__)

/*
 * Copy a caller's opts struct of any size into ours, zero-filling. The bytes
 * past our last field (newer fields, or padding before them) must be zero:
 * a caller built against a newer header may have set them, and we cannot
 * honour what we do not know. OPTS_COPY names the last field from the list
 * below; a field added to an opts struct moves its line here too (test-util
 * checks that the named field is the last).
 */
int opts_copy(void *dst, size_t dst_sz, size_t known_end, const void *src,
	      const char *what);
#define offsetofend(TYPE, FIELD) (offsetof(TYPE, FIELD) + sizeof(((TYPE *)0)->FIELD))
#define OPTS_COPY(dst, src, TYPE) \
	opts_copy(dst, sizeof(*(dst)), offsetofend(struct TYPE, TYPE##__last_field), \
		  src, #TYPE)
#define hwp_evlist_opts__last_field all_kernel
#define hwp_session_opts__last_field cgroup
#define hwp_workload_opts__last_field spawn_at_start
#define hwp_stats_test_opts__last_field confidence
#define hwp_write_opts__last_field nr_sort_keys
#define hwp_compare_opts__last_field nr_fail_on
#define hwp_region_opts__last_field no_rdpmc
#define hwp_record_opts__last_field off_cpu
#define hwp_profile_opts__last_field threads
#define hwp_profile_diff_opts__last_field nr_map_modules
/* Fill an info struct of the caller's size from ours. */
int info_fill(void *dst, const void *src, size_t src_sz);

/* sys.c: system facts */
long sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
int read_paranoid(void);
/* The sysfs mount to read: @root if given, else $HWPROF_SYSFS_ROOT (a test's
 * fabricated tree), else "/sys". */
const char *sysfs_root(const char *root);
/* The first line of @dir/@rel (a sysfs file), without its newline, into
 * @buf: 0 or -errno (-EIO when empty). */
int read_first_line(const char *dir, const char *rel, char *buf, size_t size);
/* A sentence that explains a permission error and names the fix: of an
 * open for process @pid (0: ours), system-wide or not, that asked for user
 * space alone or not. */
void explain_permission(struct strbuf *sb, const char *what, int err, bool cpu_wide,
			    pid_t pid, bool user_only);
int online_cpus(int **cpus, size_t *nr);
/* Parse a CPU list such as "0-3,6" against the online CPUs: *@cpus, a
 * malloc'ed ascending array without duplicates, of *@nr. Errors:
 * -HWP_ERR_SYNTAX, -ENODEV for a CPU that is not online (the message lists
 * the online ones), -ENOMEM. */
int cpus_parse(const char *list, int **cpus, size_t *nr);
double now_seconds(void);	/* CLOCK_MONOTONIC seconds */
/* The threads of process @pid, from /proc: a malloc'ed array in *@tids
 * (free it, even on failure). -ESRCH when the process is gone. */
int list_threads(pid_t pid, pid_t **tids, size_t *nr);
/* Open @path read-only if it is a regular file, with its size in *@size
 * (@size may be NULL): the fd (blocking, close-on-exec), -EISDIR for a
 * directory, -ENODEV for a FIFO or a device (never waited on), or another
 * -errno. Every open of a path that a recording or a file it names gives
 * goes through here: a hostile perf.data must not hang its reader. */
int open_regular(const char *path, off_t *size);
/* Why a file could not be opened or read, for error @err (-ENODEV: not a
 * regular file, -EFBIG: too large...), as a static string. */
const char *file_open_problem(int err);
/* After the errno text of a failed system call, what to do about @err
 * (negative) when it is a limit (EMFILE, ENFILE): ": ... 'ulimit -n'"; else "". */
const char *resource_advice(int err);
/* Raise RLIMIT_NOFILE to its hard limit: whether it was raised. */
bool raise_nofile(void);

/* workload.c: the signals a /proc/PID/status text says have a handler
 * (SigCgt; bit N-1 is signal N), or UINT64_MAX (all) when it says nothing
 * sure: no such line, or not 16 hex digits to the line's end. No stdio,
 * no allocation: the vfork-style child calls it before its exec. */
uint64_t status_sigcgt(const char *status);
/* workload.c: hwp_workload_wait() as 0.1 had it, which compat.c keeps:
 * waitpid() interrupted by a signal gives -EINTR when *@stop is set. */
int workload_wait(struct hwp_workload *w, int *status, const volatile int *stop);

#endif
