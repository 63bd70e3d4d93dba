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
 * (enum perf_user_event_type). */
#define PD_RECORD_FINISHED_ROUND 68

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
};

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
