/* SPDX-License-Identifier: MIT */
/* perf.data as it lies on disk, the one description that the reader
 * (perf-data.c), the writer (perf-data-write.c) and the recorder share, so
 * that what hwprof writes and what it reads cannot drift apart. The names
 * and numbers are perf's (tools/perf/util/header.h, tools/perf/util/event.h,
 * tools/perf/Documentation/perf.data-file-format.txt): a file perf writes
 * must read here, and one written here must read in perf report. Only
 * what hwprof uses is described. Numbers are in the byte order of the
 * machine that wrote the file; hwprof reads only its own. */
#ifndef HWPROF_PERF_DATA_FORMAT_H
#define HWPROF_PERF_DATA_FORMAT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

/* "PERFILE2" read as a little-endian u64: the format perf has written since 2012. */
#define PD_MAGIC 0x32454c4946524550ULL
/* The same bytes, as a machine of the other byte order writes them. */
#define PD_MAGIC_SWAPPED 0x50455246494c4532ULL
/* The first 8 bytes of perf's first format, which PERFILE2 replaced. */
#define PD_MAGIC_V1 "PERFFILE"

#define PD_FILE_HEADER_SIZE 104
/* A pipe's header is the magic and its own size, nothing else: that size
 * is how a pipe's stream is told from a file. */
#define PD_PIPE_HEADER_SIZE 16
/* The header's bitmap of feature sections. */
#define PD_FEAT_BITS 256
/* perf pads the strings of its feature sections to this. */
#define PD_NAME_ALIGN 64

struct pd_file_section {
	uint64_t offset, size;
};

struct pd_file_header {
	uint64_t magic;
	uint64_t size;		/* of this header */
	uint64_t attr_size;	/* of one entry of the attribute section */
	struct pd_file_section attrs, data;
	struct pd_file_section event_types;	/* unused since 2013 */
	/* Which feature sections follow the data, a table of their
	 * pd_file_section first, in the order of their bits. */
	uint64_t features[PD_FEAT_BITS / 64];
};

struct pd_pipe_header {
	uint64_t magic;
	uint64_t size;
};

/* An entry of the attribute section as this perf_event_attr writes it;
 * older writers' attributes are shorter (see attr_size). */
struct pd_file_attr {
	struct perf_event_attr attr;
	struct pd_file_section ids;	/* the event's sample ids, u64 each */
};

_Static_assert(sizeof(struct pd_file_section) == 16, "perf_file_section is two u64");
_Static_assert(sizeof(struct pd_file_header) == PD_FILE_HEADER_SIZE,
	       "perf_file_header is 104 bytes on disk");
_Static_assert(sizeof(struct pd_pipe_header) == PD_PIPE_HEADER_SIZE,
	       "perf_pipe_file_header is 16 bytes on disk");
_Static_assert(sizeof(struct pd_file_attr) ==
		       sizeof(struct perf_event_attr) + sizeof(struct pd_file_section),
	       "an attribute entry has no padding");

/* Record types perf's tools add to the kernel's, above any the kernel uses
 * (enum perf_user_event_type of perf 6.x's tools/lib/perf/include/perf/event.h).
 * A reader skips, by their size, those it does not use: perf adds types. */
enum pd_user_record {
	PD_RECORD_USER_TYPE_START = 64,
	/* A pipe's attributes: a perf_event_attr (attr.size bytes), then the
	 * event's ids, u64 each, to the end of the record. */
	PD_RECORD_HEADER_ATTR = 64,
	PD_RECORD_HEADER_EVENT_TYPE = 65,	/* perf 3.x's event names; unused */
	/* A u32 size (and u32 padding); that many bytes of tracing data,
	 * padded to 8, follow the record and are not counted in its size. */
	PD_RECORD_HEADER_TRACING_DATA = 66,
	PD_RECORD_HEADER_BUILD_ID = 67,
	PD_RECORD_FINISHED_ROUND = 68,
	PD_RECORD_ID_INDEX = 69,
	PD_RECORD_AUXTRACE_INFO = 70,
	/* A u64 size, then offset, reference, idx/tid, cpu/reserved: size
	 * bytes of AUX area data (Intel PT, CoreSight) follow the record and
	 * are not counted in its size. */
	PD_RECORD_AUXTRACE = 71,
	PD_RECORD_AUXTRACE_ERROR = 72,
	PD_RECORD_THREAD_MAP = 73,
	PD_RECORD_CPU_MAP = 74,
	PD_RECORD_STAT_CONFIG = 75,
	PD_RECORD_STAT = 76,
	PD_RECORD_STAT_ROUND = 77,
	/* A u64 kind (PD_EVENT_UPDATE_*), the u64 id of an event, its data. */
	PD_RECORD_EVENT_UPDATE = 78,
	PD_RECORD_TIME_CONV = 79,
	/* A pipe's feature sections: a u64 feature id, the section's bytes. */
	PD_RECORD_HEADER_FEATURE = 80,
	/* perf record -z: the rest of the record is zstd data; the records
	 * of all of them are one stream, and a record may span two. */
	PD_RECORD_COMPRESSED = 81,
	PD_RECORD_FINISHED_INIT = 82,
	/* The same with a u64 count of the zstd bytes first (perf 6.15+). */
	PD_RECORD_COMPRESSED2 = 83,
};

/* PD_RECORD_EVENT_UPDATE's kinds: the one hwprof uses. */
#define PD_EVENT_UPDATE_NAME 2

/* Bytes of a record's header and the fixed fields before a payload. */
#define PD_AUXTRACE_FIXED 48	/* header, size, offset, reference, 4 u32 */
#define PD_TRACING_DATA_FIXED 16	/* header, u32 size, u32 padding */

/* Feature ids: bits of pd_file_header.features (perf's HEADER_*). */
enum pd_feature {
	PD_FEAT_RESERVED = 0,	/* always clear */
	PD_FEAT_FIRST = 1,
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,	/* two u32: CPUs configured, online */
	PD_FEAT_CPUDESC = 8,
	PD_FEAT_CPUID = 9,	/* vendor,family,model,stepping */
	PD_FEAT_TOTAL_MEM = 10,	/* a u64, in KiB */
	PD_FEAT_CMDLINE = 11,	/* a u32 count, then that many strings */
	PD_FEAT_EVENT_DESC = 12,
	/* u32 version, u32 type (PD_COMP_ZSTD), u32 level, u32 ratio, u64
	 * mmap_len: the data section holds PD_RECORD_COMPRESSED records. */
	PD_FEAT_COMPRESSED = 27,
	/* hwprof's own, far above perf's (which skips the bits it does not
	 * know): the mapped files without a build-id, as stat() saw them
	 * when the recording ended. One entry a file, until the section
	 * ends: u32 its size, u32 0, u64 st_dev, st_ino, st_size, s64
	 * st_mtime in ns, then the file's name, NUL-padded to 8 bytes. */
	PD_FEAT_HWPROF_FILES = 192,
};

#define PD_FILE_STAT_FIXED 40

/* PD_FEAT_BUILD_ID's section (and a pipe's HEADER_BUILD_ID records): one
 * record of perf_record_header_build_id a module, until the section ends:
 * header (misc: the cpumode, with PD_BUILD_ID_MISC_SIZE when the size
 * byte is set), s32 pid (-1: the host), 20 bytes of build-id, u8 size, 3
 * bytes of padding, then the file's name, NUL-padded to PD_NAME_ALIGN. */
#define PD_BUILD_ID_FIXED 36
#define PD_BUILD_ID_MAX 20
#define PD_BUILD_ID_MISC_SIZE (1u << 15)

/* PD_FEAT_COMPRESSED's type of compression: the only one perf writes. */
#define PD_COMP_ZSTD 1

/* Whether @feat's section is one string (perf's perf_header_string: a u32
 * length, then the string, NUL-padded to that length). */
static inline bool pd_feature_is_string(enum pd_feature feat)
{
	switch (feat) {
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		return true;
	default:
		return false;
	}
}

static inline bool pd_feature_test(const uint64_t *bits, enum pd_feature feat)
{
	return bits[feat / 64] >> (feat % 64) & 1;
}

static inline void pd_feature_set(uint64_t *bits, enum pd_feature feat)
{
	bits[feat / 64] |= 1ULL << (feat % 64);
}

#endif
