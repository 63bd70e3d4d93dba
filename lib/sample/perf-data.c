// SPDX-License-Identifier: MIT
/* Reading perf.data (tools/perf/Documentation/perf.data-file-format.txt).
 * A file is mapped read-only and every offset, size and count in it is
 * checked against the file's size before use: no allocation is sized by a
 * field that was not checked, and no read leaves the mapping. A pipe's
 * stream (perf record -o -) is read through a buffer of bounded size: its
 * attributes and features come as records (HEADER_ATTR, HEADER_FEATURE),
 * and the records are copied only while they wait to be sorted. */
#include "event/event.h"
#include "sample/sample.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_EVENTS 4096
/* Records held back for sorting, at most: a round of a busy machine fits. */
#define QUEUE_MAX (1u << 18)
/* Give back the pages of what was read in steps of this many bytes. */
#define DROP_STEP (8u << 20)
/* A stream's buffer: a record is at most 64 KiB (its size is a u16). */
#define STREAM_BUF (256u << 10)
/* What one step of decompression writes, at most. */
#define DECOMP_BUF (1u << 20)
/* Records of a pipe held at open, while its events are named. */
#define PENDING_MAX 4096

/* How the event of a record is found (see find_event()). */
enum id_mode {
	ID_SINGLE,		/* one event: every record is its */
	ID_IDENTIFIER,		/* first u64 of samples, last of other records */
	ID_POSITION,		/* PERF_SAMPLE_ID, the same layout for every event */
};

struct queued {
	uint64_t time;
	uint64_t off;
	int32_t event;
	bool owned;		/* h is a copy of the reader's, freed once emitted */
	const struct perf_event_header *h;
};

struct pd_file {
	const unsigned char *map;
	size_t size;
	char *path;
	struct pd_file_header hdr;
	struct pd_event *events;
	size_t nr_events;
	struct hidx id_idx;	/* id → index into id_keys/id_event */
	uint64_t *id_keys;
	uint32_t *id_event;
	size_t nr_ids, cap_keys, cap_event;
	enum id_mode id_mode;
	bool ordered;		/* every record has a time: sort rounds as perf does */
	bool pipe;		/* perf's pipe format: the header is in records */
	char *features[PD_FEAT_BITS];	/* the string features that were read */
	/* Where the records are: [pos, end) of the mapping, or a stream read
	 * from fd (end UINT64_MAX) into buf, which holds the stream's bytes
	 * from offset buf_base on. */
	uint64_t pos, end;
	int fd;
	unsigned char *buf;
	size_t buf_cap, buf_len;
	uint64_t buf_base;
	/* perf record -z: the decompressed stream, what of it is not read yet */
	struct pd_zstd *zstd;
	unsigned char *dbuf;
	size_t dbuf_len;
	uint64_t dskip;		/* a decompressed record's payload still to skip */
	/* Records that are not 8-aligned where they lie, copied to be read:
	 * perf's own records need not keep the next one aligned. */
	uint64_t *scratch, *dscratch;
	/* a pipe's records read at open, before its first sample */
	struct queued *pending;
	size_t nr_pending, cap_pending;
	struct pd_stats stats;
	/* the modules' build-ids (PD_FEAT_BUILD_ID, HEADER_BUILD_ID) */
	struct file_build_id {
		char *path;
		struct pd_build_id id;
		bool kernel;	/* the kernel's own, not a module's */
	} *bids;
	size_t nr_bids, cap_bids;
	/* pd_foreach's state */
	struct queued *q;
	size_t nr_q, cap_q;
	uint64_t max_time, flush_limit;
	uint64_t dropped;	/* bytes at the start of the mapping given back */
};

static int bad(const struct pd_file *f, const char *fmt, ...) HWP_PRINTF(2, 3);

static int bad(const struct pd_file *f, const char *fmt, ...)
{
	char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return fail(-HWP_ERR_FORMAT, "'%s' is not a valid perf.data file: %s", f->path,
		    why);
}

/* Whether [off, off + size) lies inside the file. */
static bool in_file(const struct pd_file *f, uint64_t off, uint64_t size)
{
	return off <= f->size && size <= f->size - off;
}

static int read_header(struct pd_file *f)
{
	struct pd_file_header *h = &f->hdr;
	struct pd_pipe_header start;

	if (f->size == 0)
		return bad(f, "the file is empty");
	if (f->size < sizeof(start.magic))
		return bad(f, "the file is %zu bytes long, too short for a header",
			   f->size);
	memcpy(&start.magic, f->map, sizeof(start.magic));
	if (!memcmp(f->map, PD_MAGIC_V1, sizeof(start.magic)))
		return bad(f, "it is in perf's first format (PERFFILE), which perf replaced in 2012; convert it with a current 'perf inject'");
	if (start.magic == PD_MAGIC_SWAPPED)
		return bad(f, "it was written on a machine of the other byte order, which hwprof does not read");
	if (start.magic != PD_MAGIC)
		return bad(f, "wrong magic number (not PERFILE2)");
	/* A file's header and a pipe's begin alike: magic, then their size. */
	if (f->size >= sizeof(start)) {
		memcpy(&start, f->map, sizeof(start));
		if (start.size == PD_PIPE_HEADER_SIZE) {
			f->pipe = true;	/* a pipe's stream, saved to a file */
			f->pos = sizeof(start);
			f->end = f->size;
			return 0;
		}
	}
	if (f->size < PD_FILE_HEADER_SIZE)
		return bad(f, "the file is %zu bytes long, too short for a header of %d bytes",
			   f->size, PD_FILE_HEADER_SIZE);
	memcpy(h, f->map, sizeof(*h));
	if (h->size < PD_FILE_HEADER_SIZE || h->size > f->size)
		return bad(f, "the header says it is %llu bytes long",
			   (unsigned long long)h->size);
	if (!in_file(f, h->attrs.offset, h->attrs.size))
		return bad(f, "the attribute section (%llu bytes at %llu) lies outside the file of %zu bytes",
			   (unsigned long long)h->attrs.size,
			   (unsigned long long)h->attrs.offset, f->size);
	if (!in_file(f, h->data.offset, h->data.size))
		return bad(f, "the data section (%llu bytes at %llu) lies outside the file of %zu bytes: the file is truncated",
			   (unsigned long long)h->data.size,
			   (unsigned long long)h->data.offset, f->size);
	if (h->data.offset % 8)
		return bad(f, "the data section starts at %llu, which is not a multiple of 8",
			   (unsigned long long)h->data.offset);
	f->pos = h->data.offset;
	f->end = h->data.offset + h->data.size;
	return 0;
}

static bool id_eq(size_t idx, const void *key, const void *ctx)
{
	const struct pd_file *f = ctx;

	return f->id_keys[idx] == *(const uint64_t *)key;
}

static int add_id(struct pd_file *f, uint64_t id, size_t ev)
{
	uint64_t h = hash_u64(id);

	if (hidx_find(&f->id_idx, h, id_eq, &id, f) >= 0)
		return bad(f, "the sample id %llu belongs to two events",
			   (unsigned long long)id);
	if (vec_reserve(&f->id_keys, &f->cap_keys, f->nr_ids + 1, sizeof(*f->id_keys)) ||
	    vec_reserve(&f->id_event, &f->cap_event, f->nr_ids + 1, sizeof(*f->id_event)))
		return fail(-ENOMEM, "out of memory");
	f->id_keys[f->nr_ids] = id;
	f->id_event[f->nr_ids] = (uint32_t)ev;
	if (hidx_add(&f->id_idx, h, f->nr_ids))
		return fail(-ENOMEM, "out of memory");
	f->nr_ids++;
	return 0;
}

static bool overlap(const struct pd_file_section *a, const struct pd_file_section *b)
{
	return a->size && b->size && a->offset < b->offset + b->size &&
	       b->offset < a->offset + a->size;
}

static int cmp_section(const void *a, const void *b)
{
	const struct pd_file_section *x = *(const struct pd_file_section *const *)a;
	const struct pd_file_section *y = *(const struct pd_file_section *const *)b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x < y ? -1 : x > y;	/* the first event first, for the message */
}

static int overlap_error(const struct pd_file *f, const struct pd_file_section *ids,
			 size_t ev, const char *what, const struct pd_file_section *other)
{
	return bad(f, "the ids of event %zu (%llu bytes at %llu) overlap %s (%llu bytes at %llu)",
		   ev, (unsigned long long)ids->size, (unsigned long long)ids->offset,
		   what, (unsigned long long)other->size,
		   (unsigned long long)other->offset);
}

/* Each event's ids lie inside the file, apart from the header, the
 * attributes, the data and each other's: what is copied of them is then
 * at most the file's size, however many events point at the same bytes. */
static int check_id_sections(const struct pd_file *f, const struct pd_file_section *ids,
			     size_t nr)
{
	const struct pd_file_section header = { 0, f->hdr.size };
	const struct pd_file_section *fixed[] = { &header, &f->hdr.attrs, &f->hdr.data };
	static const char *const fixed_name[] = { "the header", "the attribute section",
						  "the data section" };
	const struct pd_file_section **sorted;
	size_t n = 0;
	int err = 0;

	for (size_t i = 0; i < nr; i++) {
		if (!in_file(f, ids[i].offset, ids[i].size) || ids[i].size % 8)
			return bad(f, "the ids of event %zu (%llu bytes at %llu) lie outside the file",
				   i, (unsigned long long)ids[i].size,
				   (unsigned long long)ids[i].offset);
		for (size_t j = 0; j < ARRAY_SIZE(fixed); j++)
			if (overlap(&ids[i], fixed[j]))
				return overlap_error(f, &ids[i], i, fixed_name[j],
						     fixed[j]);
	}
	sorted = malloc(nr * sizeof(*sorted));
	if (!sorted)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++)
		if (ids[i].size)
			sorted[n++] = &ids[i];
	qsort(sorted, n, sizeof(*sorted), cmp_section);
	/* Sorted by offset, two sections overlap only if two neighbours do. */
	for (size_t i = 1; i < n && !err; i++)
		if (overlap(sorted[i - 1], sorted[i])) {
			char what[64];

			snprintf(what, sizeof(what), "those of event %zu",
				 (size_t)(sorted[i] - ids));
			err = overlap_error(f, sorted[i - 1],
					    (size_t)(sorted[i - 1] - ids), what,
					    sorted[i]);
		}
	free(sorted);
	return err;
}

static int read_attrs(struct pd_file *f)
{
	const struct pd_file_header *h = &f->hdr;
	uint64_t entry = h->attr_size, nr, total_ids = 0;
	struct pd_file_section *ids;
	size_t attr_bytes;
	int err;

	if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_file_section) ||
	    entry > 4096 || entry % 8)
		return bad(f, "the attribute size is %llu bytes",
			   (unsigned long long)entry);
	if (h->attrs.size % entry)
		return bad(f, "the attribute section of %llu bytes does not hold whole attributes of %llu",
			   (unsigned long long)h->attrs.size, (unsigned long long)entry);
	nr = h->attrs.size / entry;
	if (!nr)
		return bad(f, "it describes no event");
	if (nr > MAX_EVENTS)
		return bad(f, "it describes %llu events; hwprof reads at most %d",
			   (unsigned long long)nr, MAX_EVENTS);
	attr_bytes = entry - sizeof(struct pd_file_section);
	if (attr_bytes > sizeof(struct perf_event_attr))
		attr_bytes = sizeof(struct perf_event_attr);
	f->events = calloc(nr, sizeof(*f->events));
	ids = calloc(nr, sizeof(*ids));
	if (!f->events || !ids) {
		free(ids);
		return fail(-ENOMEM, "out of memory");
	}
	f->nr_events = nr;
	for (size_t i = 0; i < nr; i++) {
		const unsigned char *p = f->map + h->attrs.offset + i * entry;

		memcpy(&f->events[i].attr, p, attr_bytes);
		f->events[i].attr.size = sizeof(f->events[i].attr);
		memcpy(&ids[i], p + entry - sizeof(ids[i]), sizeof(ids[i]));
	}
	err = check_id_sections(f, ids, nr);
	for (size_t i = 0; !err && i < nr; i++) {
		struct pd_event *ev = &f->events[i];

		ev->nr_ids = ids[i].size / 8;
		total_ids += ev->nr_ids;
		if (!ev->nr_ids)
			continue;
		ev->ids = malloc(ids[i].size);
		if (!ev->ids)
			err = fail(-ENOMEM, "out of memory");
		else
			memcpy(ev->ids, f->map + ids[i].offset, ids[i].size);
	}
	free(ids);
	if (err)
		return err;
	/* Bounded by the file's size: each id was 8 bytes of it, and no two
	 * events' ids share a byte. */
	if (vec_reserve(&f->id_keys, &f->cap_keys, total_ids + 1, sizeof(*f->id_keys)) ||
	    vec_reserve(&f->id_event, &f->cap_event, total_ids + 1, sizeof(*f->id_event)))
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nr && !err; i++)
		for (size_t j = 0; j < f->events[i].nr_ids && !err; j++)
			err = add_id(f, f->events[i].ids[j], i);
	return err;
}

static int choose_id_mode(struct pd_file *f)
{
	const struct perf_event_attr *a0 = &f->events[0].attr;
	bool all_identifier = true, same = true;

	f->ordered = true;
	for (size_t i = 0; i < f->nr_events; i++) {
		const struct perf_event_attr *a = &f->events[i].attr;

		all_identifier &= !!(a->sample_type & PERF_SAMPLE_IDENTIFIER);
		same &= a->sample_type == a0->sample_type &&
			a->sample_id_all == a0->sample_id_all &&
			a->read_format == a0->read_format;
		f->ordered &= a->sample_id_all && (a->sample_type & PERF_SAMPLE_TIME);
	}
	if (f->nr_events == 1)
		f->id_mode = ID_SINGLE;
	else if (all_identifier)
		f->id_mode = ID_IDENTIFIER;
	else if (same && (a0->sample_type & PERF_SAMPLE_ID))
		f->id_mode = ID_POSITION;
	else
		return bad(f, "its %zu events have records that cannot be told apart (no sample id)",
			   f->nr_events);
	return 0;
}

static int event_of_id(const struct pd_file *f, uint64_t id)
{
	long i = hidx_find(&f->id_idx, hash_u64(id), id_eq, &id, f);

	return i < 0 ? -1 : (int)f->id_event[i];
}

/* The event a record belongs to (-1: unknown id) and its time (0: none). */
static void classify(const struct pd_file *f, const struct perf_event_header *h,
		     int *event, uint64_t *time)
{
	const struct perf_event_attr *a0 = &f->events[0].attr;
	struct pd_sample_id sid;
	uint64_t id;
	int pos;

	*event = 0;
	*time = 0;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (f->id_mode != ID_SINGLE) {
			pos = pd_sample_id_pos(a0->sample_type);
			if (h->size < sizeof(*h) + 8 * (size_t)(pos + 1)) {
				*event = -1;
				return;
			}
			memcpy(&id, (const unsigned char *)(h + 1) + 8 * pos, 8);
			*event = event_of_id(f, id);
		}
		/* Only the time is needed here: no need to decode it all. */
		pos = *event < 0 ? -1 :
		      pd_sample_time_pos(f->events[*event].attr.sample_type);
		if (pos >= 0 && h->size >= sizeof(*h) + 8 * (size_t)(pos + 1))
			memcpy(time, (const unsigned char *)(h + 1) + 8 * pos, 8);
		return;
	}
	if (h->type >= PERF_RECORD_MAX || !a0->sample_id_all)
		return;		/* perf's own records carry no sample_id */
	if (f->id_mode == ID_IDENTIFIER) {
		if (h->size < sizeof(*h) + 8)
			return;
		memcpy(&id, (const unsigned char *)h + h->size - 8, 8);
		*event = event_of_id(f, id);
		if (*event < 0)
			*event = 0;	/* synthesized records may carry id 0 */
	}
	if (!pd_decode_sample_id(&f->events[*event].attr, h, &sid) && sid.has_time)
		*time = sid.time;
	if (f->id_mode == ID_POSITION && sid.id) {
		int e = event_of_id(f, sid.id);

		*event = e < 0 ? 0 : e;
	}
}

/* ---- feature sections ---- */

struct feat_cursor {
	const unsigned char *p, *end;
};

static bool feat_u32(struct feat_cursor *c, uint32_t *v)
{
	if (c->end - c->p < 4)
		return false;
	memcpy(v, c->p, 4);
	c->p += 4;
	return true;
}

/* A perf_header_string: u32 length, then that many bytes with a NUL. */
static char *feat_string(struct feat_cursor *c)
{
	uint32_t len;
	char *s;

	if (!feat_u32(c, &len) || len > (size_t)(c->end - c->p))
		return NULL;
	s = strndup((const char *)c->p, len);
	c->p += len;
	return s;
}

static void read_event_desc(struct pd_file *f, struct feat_cursor *c)
{
	uint32_t nr, attr_size;

	if (!feat_u32(c, &nr) || !feat_u32(c, &attr_size) || nr != f->nr_events)
		return;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t nr_ids;
		char *name;

		if (attr_size > (size_t)(c->end - c->p))
			return;
		c->p += attr_size;
		if (!feat_u32(c, &nr_ids) || !(name = feat_string(c)))
			return;
		if (nr_ids > (size_t)(c->end - c->p) / 8) {
			free(name);
			return;
		}
		c->p += 8 * (size_t)nr_ids;
		if (*name && !f->events[i].name)
			f->events[i].name = name;
		else
			free(name);
	}
}

static char *read_string_list(struct feat_cursor *c)
{
	struct strbuf sb = STRBUF_INIT;
	uint32_t nr;

	if (!feat_u32(c, &nr))
		return NULL;
	for (uint32_t i = 0; i < nr; i++) {
		char *s = feat_string(c);

		if (!s)
			break;
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_adds(&sb, s);
		free(s);
	}
	return strbuf_detach(&sb);
}

/* One perf_record_header_build_id at @p, @len bytes: its size, or 0 when
 * it is not whole. */
static size_t read_build_id(struct pd_file *f, const unsigned char *p, size_t len)
{
	struct perf_event_header h;
	struct file_build_id b = { 0 };
	const char *name = (const char *)p + PD_BUILD_ID_FIXED;

	if (len < PD_BUILD_ID_FIXED)
		return 0;
	memcpy(&h, p, sizeof(h));
	if (h.size < PD_BUILD_ID_FIXED || h.size > len)
		return 0;
	b.id.size = h.misc & PD_BUILD_ID_MISC_SIZE ? p[12 + PD_BUILD_ID_MAX] :
						     PD_BUILD_ID_MAX;
	if (!b.id.size || b.id.size > PD_BUILD_ID_MAX ||
	    !memchr(name, '\0', h.size - PD_BUILD_ID_FIXED))
		return h.size;	/* nothing to use: the next one may be */
	memcpy(b.id.data, p + 12, b.id.size);
	/* perf names the kernel "[kernel.kallsyms]", "vmlinux" or its image's
	 * path: a kernel-mode entry that is not a module's (NAME.ko[.xz],
	 * "[name]") */
	b.kernel = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL &&
		   !strstr(name, ".ko") &&
		   (name[0] != '[' || !strcmp(name, PD_KERNEL_NAME));
	if (vec_reserve(&f->bids, &f->cap_bids, f->nr_bids + 1, sizeof(b)) ||
	    !(b.path = strdup(name)))
		return h.size;	/* out of memory: the build-ids are not checked */
	f->bids[f->nr_bids++] = b;
	return h.size;
}

static void read_build_ids(struct pd_file *f, struct feat_cursor *c)
{
	size_t n;

	while ((n = read_build_id(f, c->p, (size_t)(c->end - c->p))))
		c->p += n;
}

static void read_feature(struct pd_file *f, int bit, struct feat_cursor *c)
{
	if (bit == PD_FEAT_BUILD_ID) {
		read_build_ids(f, c);
	} else if (bit == PD_FEAT_EVENT_DESC) {
		read_event_desc(f, c);
	} else if (bit == PD_FEAT_CMDLINE) {
		free(f->features[bit]);
		f->features[bit] = read_string_list(c);
	} else if (pd_feature_is_string(bit)) {
		free(f->features[bit]);
		f->features[bit] = feat_string(c);
	}
}

static int read_features(struct pd_file *f)
{
	uint64_t table = f->hdr.data.offset + f->hdr.data.size;
	size_t n = 0;

	for (int bit = PD_FEAT_FIRST; bit < PD_FEAT_BITS; bit++) {
		struct pd_file_section sec;
		struct feat_cursor c;

		if (!pd_feature_test(f->hdr.features, bit))
			continue;
		if (!in_file(f, table + n * sizeof(sec), sizeof(sec)))
			return bad(f, "the table of feature sections ends past the end of the file: the file is truncated");
		memcpy(&sec, f->map + table + n * sizeof(sec), sizeof(sec));
		n++;
		if (!in_file(f, sec.offset, sec.size))
			return bad(f, "feature section %d (%llu bytes at %llu) lies outside the file: the file is truncated",
				   bit, (unsigned long long)sec.size,
				   (unsigned long long)sec.offset);
		c.p = f->map + sec.offset;
		c.end = c.p + sec.size;
		read_feature(f, bit, &c);
	}
	return 0;
}

static const char *modifier_suffix(const struct perf_event_attr *a, char *buf,
				   size_t size)
{
	size_t n = 0;

	if (a->exclude_kernel && !a->exclude_user)
		buf[n++] = 'u';
	else if (a->exclude_user && !a->exclude_kernel)
		buf[n++] = 'k';
	for (unsigned int i = 0; i < a->precise_ip && n + 1 < size; i++)
		buf[n++] = 'p';
	buf[n] = '\0';
	return buf;
}

/* perf's name for an event the file did not name. */
static int name_event(struct pd_event *ev)
{
	const struct perf_event_attr *a = &ev->attr;
	const char *base = NULL;
	char mod[8], raw[32];

	for (size_t i = 0; i < generic_nr() && !base; i++) {
		const struct generic_event *g = generic_get(i);

		if (g->type == a->type && g->config == a->config)
			base = g->name;
	}
	if (!base) {
		if (a->type == PERF_TYPE_RAW)
			snprintf(raw, sizeof(raw), "r%llx",
				 (unsigned long long)a->config);
		else
			snprintf(raw, sizeof(raw), "type%u/0x%llx", a->type,
				 (unsigned long long)a->config);
		base = raw;
	}
	modifier_suffix(a, mod, sizeof(mod));
	if (asprintf(&ev->name, "%s%s%s", base, *mod ? ":" : "", mod) < 0) {
		ev->name = NULL;
		return fail(-ENOMEM, "out of memory");
	}
	return 0;
}

/* ---- where the records come from: the mapping, or a stream ---- */

/* Make up to @n bytes at f->pos readable at *@p: *@got says how many are
 * (fewer only at the end of the records). */
static int src_get(struct pd_file *f, size_t n, const unsigned char **p, size_t *got)
{
	size_t have;

	if (f->fd < 0) {
		*p = f->map + f->pos;
		*got = f->end - f->pos < n ? (size_t)(f->end - f->pos) : n;
		return 0;
	}
	have = f->buf_len - (size_t)(f->pos - f->buf_base);
	if (have < n) {
		memmove(f->buf, f->buf + (f->pos - f->buf_base), have);
		f->buf_base = f->pos;
		f->buf_len = have;
		if (n > f->buf_cap) {
			unsigned char *nb = realloc(f->buf, n);

			if (!nb)
				return fail(-ENOMEM, "out of memory");
			f->buf = nb;
			f->buf_cap = n;
		}
		while (f->buf_len < n) {
			ssize_t r = read(f->fd, f->buf + f->buf_len,
					 f->buf_cap - f->buf_len);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return fail(-errno, "cannot read '%s': %s", f->path,
					    strerrordesc_np(errno));
			if (!r)
				break;
			f->buf_len += (size_t)r;
		}
		have = f->buf_len;
	}
	*p = f->buf + (f->pos - f->buf_base);
	*got = have < n ? have : n;
	return 0;
}

/* Pass over @n bytes: the payload a record's size does not count. */
static int src_skip(struct pd_file *f, uint64_t n, const char *what, uint64_t at)
{
	while (n) {
		const unsigned char *p;
		size_t got, step = n > STREAM_BUF ? STREAM_BUF : (size_t)n;
		int err = src_get(f, step, &p, &got);

		if (err)
			return err;
		if (!got)
			return bad(f, "the %llu bytes of %s that follow the record at offset %llu are cut off by the end of the data: the file is truncated",
				   (unsigned long long)n, what, (unsigned long long)at);
		f->pos += got;
		n -= got;
	}
	return 0;
}

static int read_fd(int fd, void *p, size_t n, size_t *got)
{
	*got = 0;
	while (*got < n) {
		ssize_t r = read(fd, (char *)p + *got, n - *got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		*got += (size_t)r;
	}
	return 0;
}

/* A pipe (perf record -o - | hwprof report -i -): only its header is read
 * here, the rest as a stream. */
static int open_stream(struct pd_file *f, int fd)
{
	struct pd_pipe_header start;
	size_t got;
	int err;

	f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (f->fd < 0)
		return fail(-errno, "cannot read '%s': %s", f->path,
			    strerrordesc_np(errno));
	err = read_fd(f->fd, &start, sizeof(start), &got);
	if (err)
		return fail(err, "cannot read '%s': %s", f->path, strerrordesc_np(-err));
	if (!got)
		return bad(f, "the stream is empty");
	if (got < sizeof(start))
		return bad(f, "the stream ends after %zu bytes, before its header", got);
	if (!memcmp(&start.magic, PD_MAGIC_V1, sizeof(start.magic)) ||
	    start.magic == PD_MAGIC_SWAPPED || start.magic != PD_MAGIC) {
		/* The same words as for a file. */
		f->map = (const unsigned char *)&start;
		f->size = sizeof(start);
		err = read_header(f);
		f->map = NULL;
		f->size = 0;
		return err;
	}
	if (start.size != PD_PIPE_HEADER_SIZE)
		return bad(f, "it is a perf.data file in file format, which cannot be read from a pipe: give its name (report -i FILE) or redirect it (< FILE)");
	f->pipe = true;
	f->pos = f->buf_base = sizeof(start);
	f->end = UINT64_MAX;
	f->buf = malloc(STREAM_BUF);
	f->buf_cap = STREAM_BUF;
	return f->buf ? 0 : fail(-ENOMEM, "out of memory");
}

static int map_file(struct pd_file *f, const char *path, int fd)
{
	struct stat st;
	int own = -1, err = 0;

	if (fd < 0 && path && !strcmp(path, "-"))
		fd = STDIN_FILENO;
	if (fd < 0) {
		own = fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return fail(-errno, "cannot open '%s': %s", path,
				    strerrordesc_np(errno));
	}
	if (fstat(fd, &st)) {
		err = fail(-errno, "cannot read '%s': %s", f->path,
			   strerrordesc_np(errno));
	} else if (S_ISDIR(st.st_mode)) {
		err = fail(-HWP_ERR_FORMAT,
			   "'%s' is a directory: name the perf.data file in it", f->path);
	} else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode)) {
		err = open_stream(f, fd);
	} else if (!S_ISREG(st.st_mode)) {
		err = fail(-HWP_ERR_FORMAT, "'%s' is not a regular file", f->path);
	} else if (st.st_size > 0) {
		f->size = (size_t)st.st_size;
		f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (f->map == MAP_FAILED) {
			f->map = NULL;
			err = fail(-errno, "cannot map '%s': %s", f->path,
				   strerrordesc_np(errno));
		}
	}
	if (own >= 0)
		close(own);
	return err;
}

/* ---- records ---- */

/* The record of @size bytes at @p, where it can be read as a struct. */
static int aligned(uint64_t **scratch, const unsigned char *p, size_t size,
		   const struct perf_event_header **hp)
{
	if ((uintptr_t)p % 8 == 0) {
		*hp = (const struct perf_event_header *)p;
		return 0;
	}
	if (!*scratch && !(*scratch = malloc(UINT16_MAX + 1)))
		return fail(-ENOMEM, "out of memory");
	memcpy(*scratch, p, size);
	*hp = (const struct perf_event_header *)*scratch;
	return 0;
}

/* The record at f->pos, whole and readable at *@hp (8-aligned, in the
 * mapping, the stream's buffer or the scratch copy): 1 at the end. */
static int next_record(struct pd_file *f, const struct perf_event_header **hp)
{
	const unsigned char *p;
	struct perf_event_header h;
	size_t got;
	int err = src_get(f, sizeof(h), &p, &got);

	if (err)
		return err;
	if (!got)
		return 1;
	if (got < sizeof(h))
		return bad(f, "a record at offset %llu is cut off by the end of the data",
			   (unsigned long long)f->pos);
	memcpy(&h, p, sizeof(h));
	/* perf's own records need not be a multiple of 8 long (a pipe's
	 * features are not); the kernel's always are. */
	if (h.size < sizeof(h) || (h.type < PD_RECORD_USER_TYPE_START && h.size % 8))
		return bad(f, "the record at offset %llu says it is %u bytes long",
			   (unsigned long long)f->pos, h.size);
	err = src_get(f, h.size, &p, &got);
	if (err)
		return err;
	if (got < h.size)
		return bad(f, "the record at offset %llu says it is %u bytes long (%zu bytes are left)",
			   (unsigned long long)f->pos, h.size, got);
	return aligned(&f->scratch, p, h.size, hp);
}

static struct perf_event_header *copy_record(const struct perf_event_header *h)
{
	struct perf_event_header *c = malloc(h->size);

	if (c)
		memcpy(c, h, h->size);
	return c;
}

static int check_event_names(struct pd_file *f, size_t from);
static int choose_id_mode(struct pd_file *f);

/* PERF_RECORD_HEADER_ATTR: a pipe's event, its attributes and its ids. */
static int add_event(struct pd_file *f, const struct perf_event_header *h, uint64_t off)
{
	size_t body = h->size - sizeof(*h), nr_ids;
	struct pd_event *ev, *events;
	uint32_t attr_size;

	if (body < PERF_ATTR_SIZE_VER0)
		return bad(f, "the attribute record at offset %llu is %zu bytes long, too short for an event's attributes",
			   (unsigned long long)off, body);
	memcpy(&attr_size, (const char *)(h + 1) + offsetof(struct perf_event_attr, size),
	       sizeof(attr_size));
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > body || attr_size % 8)
		return bad(f, "the attribute record at offset %llu says its attributes are %u bytes long",
			   (unsigned long long)off, attr_size);
	if (f->nr_events >= MAX_EVENTS)
		return bad(f, "it describes more than %d events", MAX_EVENTS);
	events = realloc(f->events, (f->nr_events + 1) * sizeof(*events));
	if (!events)
		return fail(-ENOMEM, "out of memory");
	f->events = events;
	ev = memset(&events[f->nr_events++], 0, sizeof(*ev));
	memcpy(&ev->attr, h + 1,
	       attr_size < sizeof(ev->attr) ? attr_size : sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	nr_ids = (body - attr_size) / 8;
	if (nr_ids) {
		ev->ids = malloc(nr_ids * 8);
		if (!ev->ids)
			return fail(-ENOMEM, "out of memory");
		memcpy(ev->ids, (const char *)(h + 1) + attr_size, nr_ids * 8);
		ev->nr_ids = nr_ids;
	}
	for (size_t j = 0; j < nr_ids; j++) {
		int err = add_id(f, ev->ids[j], f->nr_events - 1);

		if (err)
			return err;
	}
	return 0;
}

/* PERF_RECORD_EVENT_UPDATE of a name: the name perf gave the event. */
static void update_event(struct pd_file *f, const struct perf_event_header *h)
{
	size_t body = h->size - sizeof(*h);
	uint64_t kind, id;
	const char *name = (const char *)(h + 1) + 16;
	int ev;

	if (body <= 16)
		return;
	memcpy(&kind, h + 1, 8);
	memcpy(&id, (const char *)(h + 1) + 8, 8);
	ev = event_of_id(f, id);
	if (kind != PD_EVENT_UPDATE_NAME || ev < 0)
		return;
	name = strndup(name, body - 16);
	if (!name || !*name) {
		free((char *)name);
		return;
	}
	free(f->events[ev].name);
	f->events[ev].name = (char *)name;
}

/* PERF_RECORD_HEADER_FEATURE: a pipe's feature section. */
static void header_feature(struct pd_file *f, const struct perf_event_header *h)
{
	struct feat_cursor c;
	uint64_t feat;

	if (h->size < sizeof(*h) + 8)
		return;
	memcpy(&feat, h + 1, 8);
	c.p = (const unsigned char *)(h + 1) + 8;
	c.end = (const unsigned char *)h + h->size;
	if (feat >= PD_FEAT_FIRST && feat < PD_FEAT_BITS)
		read_feature(f, (int)feat, &c);
}

/* ---- the data section, in order ---- */

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int emit(const struct queued *q, pd_record_fn fn, void *ctx)
{
	struct pd_record rec = {
		.h = q->h,
		.event = q->event,
		.time = q->time,
		.offset = q->off,
	};
	int err = fn(&rec, ctx);

	if (q->owned)
		free((void *)q->h);
	return err;
}

/* Give the pages below @keep back: the report's memory follows what it
 * aggregates, not the size of the file. */
static void drop_read_pages(struct pd_file *f, uint64_t keep)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t upto = keep & ~(uint64_t)(page - 1);

	if (f->fd >= 0 || !f->map || upto < f->dropped + DROP_STEP)
		return;
	madvise((void *)(f->map + f->dropped), upto - f->dropped, MADV_DONTNEED);
	f->dropped = upto;
}

/* Emit the queued records up to time @limit (all with @all, or the oldest
 * half when @half), in time order. */
static int flush_queue(struct pd_file *f, uint64_t limit, bool all, bool half,
		       pd_record_fn fn, void *ctx)
{
	size_t n = 0, keep_from;
	uint64_t low = f->pos;
	int err = 0;

	if (f->nr_q > 1)
		qsort(f->q, f->nr_q, sizeof(*f->q), cmp_queued);
	while (n < f->nr_q && (all || (half ? n < f->nr_q / 2 : f->q[n].time <= limit))) {
		err = emit(&f->q[n], fn, ctx);
		n++;
		if (err)
			break;
	}
	keep_from = n;
	if (keep_from && f->nr_q > keep_from)	/* an empty queue may have no array yet */
		memmove(f->q, f->q + keep_from, (f->nr_q - keep_from) * sizeof(*f->q));
	f->nr_q -= keep_from;
	for (size_t i = 0; i < f->nr_q; i++)
		if (!f->q[i].owned && f->q[i].off < low)
			low = f->q[i].off;
	drop_read_pages(f, low);
	return err;
}

/* A kernel's record (or one of an unknown type): sorted, or handed out now. */
static int queue_record(struct pd_file *f, const struct perf_event_header *h,
			uint64_t off, bool stable, pd_record_fn fn, void *ctx)
{
	struct queued q = { .off = off, .h = h };
	int event;

	/* What is not the mapping's is copied, aligned, even to be handed
	 * out at once: a stream's buffer holds records where they fall. */
	if (!stable) {
		q.h = copy_record(h);
		q.owned = true;
		if (!q.h)
			return fail(-ENOMEM, "out of memory");
	}
	classify(f, q.h, &event, &q.time);
	q.event = event;
	if (!f->ordered) {
		int err = emit(&q, fn, ctx);

		drop_read_pages(f, off);
		return err;
	}
	if (vec_reserve(&f->q, &f->cap_q, f->nr_q + 1, sizeof(*f->q))) {
		if (q.owned)
			free((void *)q.h);
		return fail(-ENOMEM, "out of memory");
	}
	f->q[f->nr_q++] = q;
	if (q.time > f->max_time)
		f->max_time = q.time;
	if (f->nr_q >= QUEUE_MAX)
		return flush_queue(f, 0, false, true, fn, ctx);
	return 0;
}

static int handle_record(struct pd_file *f, const struct perf_event_header *h,
			 uint64_t off, bool stable, uint64_t *payload, pd_record_fn fn,
			 void *ctx);

/* Hand out the whole records of the decompressed stream; keep the rest,
 * the start of a record that the next compressed record continues. */
static int drain_decompressed(struct pd_file *f, uint64_t off, pd_record_fn fn, void *ctx)
{
	size_t pos = 0;
	int err = 0;

	while (!err) {
		struct perf_event_header h;
		uint64_t payload = 0;

		if (f->dskip) {
			size_t n = f->dbuf_len - pos < f->dskip ? f->dbuf_len - pos :
								  (size_t)f->dskip;

			pos += n;
			f->dskip -= n;
			if (f->dskip)
				break;
		}
		if (f->dbuf_len - pos < sizeof(h))
			break;
		memcpy(&h, f->dbuf + pos, sizeof(h));
		if (h.size < sizeof(h))
			return bad(f, "a record in the compressed data of the record at offset %llu says it is %u bytes long",
				   (unsigned long long)off, h.size);
		if (f->dbuf_len - pos < h.size)
			break;
		if (h.type == PD_RECORD_COMPRESSED || h.type == PD_RECORD_COMPRESSED2) {
			f->stats.skipped++;	/* compressed twice: perf never does */
		} else {
			const struct perf_event_header *rec = NULL;

			err = aligned(&f->dscratch, f->dbuf + pos, h.size, &rec);
			if (!err)
				err = handle_record(f, rec, off, false, &payload, fn,
						    ctx);
			f->dskip = payload;
		}
		pos += h.size;
	}
	memmove(f->dbuf, f->dbuf + pos, f->dbuf_len - pos);
	f->dbuf_len -= pos;
	return err;
}

/* PERF_RECORD_COMPRESSED: more of the one zstd stream of the file. */
static int decompress(struct pd_file *f, const struct perf_event_header *h, uint64_t off,
		      pd_record_fn fn, void *ctx)
{
	const unsigned char *in = (const unsigned char *)(h + 1);
	size_t len = h->size - sizeof(*h), in_pos = 0;
	int err = 0;

	if (h->type == PD_RECORD_COMPRESSED2) {
		uint64_t data_size;

		if (len < 8)
			return bad(f, "the compressed record at offset %llu is too short",
				   (unsigned long long)off);
		memcpy(&data_size, in, 8);
		in += 8;
		len -= 8;
		if (data_size > len)
			return bad(f, "the compressed record at offset %llu says it holds %llu bytes, in %zu",
				   (unsigned long long)off,
				   (unsigned long long)data_size, len);
		len = (size_t)data_size;
	}
	if (!f->zstd) {
		err = pd_zstd_new(&f->zstd);
		if (err)
			return fail_prefix(err, "'%s'", f->path);
		f->dbuf = malloc(DECOMP_BUF);
		if (!f->dbuf)
			return fail(-ENOMEM, "out of memory");
	}
	f->stats.compressed++;
	while (!err && in_pos < len) {
		size_t before = in_pos, was = f->dbuf_len;

		err = pd_zstd_step(f->zstd, in, len, &in_pos, f->dbuf, DECOMP_BUF,
				   &f->dbuf_len);
		if (err)
			return fail_prefix(err, "'%s' is not a valid perf.data file: the compressed record at offset %llu",
					   f->path, (unsigned long long)off);
		if (!err)
			err = drain_decompressed(f, off, fn, ctx);
		if (!err && in_pos == before && f->dbuf_len == was)
			break;	/* no progress: the output is flushed below */
	}
	/* What zstd holds back, that needs no more input. */
	while (!err) {
		size_t was = f->dbuf_len;

		err = pd_zstd_step(f->zstd, in, len, &in_pos, f->dbuf, DECOMP_BUF,
				   &f->dbuf_len);
		if (err || f->dbuf_len == was)
			break;
		err = drain_decompressed(f, off, fn, ctx);
	}
	return err;
}

/* One record: perf's own are used or skipped here; *@payload is set to the
 * bytes that follow the record and its size does not count. */
static int handle_record(struct pd_file *f, const struct perf_event_header *h,
			 uint64_t off, bool stable, uint64_t *payload, pd_record_fn fn,
			 void *ctx)
{
	uint64_t v = 0;
	int err = 0;

	*payload = 0;
	if (h->type < PD_RECORD_USER_TYPE_START)
		return queue_record(f, h, off, stable, fn, ctx);
	switch (h->type) {
	case PD_RECORD_FINISHED_ROUND:
		/* What a later round holds is never older than the last
		 * round's newest record: flush up to that. */
		if (f->ordered)
			err = flush_queue(f, f->flush_limit, false, false, fn, ctx);
		f->flush_limit = f->max_time;
		return err;
	case PD_RECORD_HEADER_ATTR:
		err = add_event(f, h, off);
		if (!err)
			err = choose_id_mode(f);
		return err ? err : check_event_names(f, f->nr_events - 1);
	case PD_RECORD_HEADER_FEATURE:
		header_feature(f, h);
		return 0;
	case PD_RECORD_EVENT_UPDATE:
		update_event(f, h);
		return 0;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		return decompress(f, h, off, fn, ctx);
	case PD_RECORD_FINISHED_INIT:
		return 0;
	case PD_RECORD_HEADER_BUILD_ID:
		read_build_id(f, (const unsigned char *)h, h->size);
		return 0;
	case PD_RECORD_AUXTRACE:
		if (h->size < PD_AUXTRACE_FIXED)
			return bad(f, "the AUXTRACE record at offset %llu is %u bytes long, too short",
				   (unsigned long long)off, h->size);
		memcpy(&v, h + 1, 8);
		f->stats.aux_records++;
		f->stats.aux_bytes += v;
		*payload = v;
		break;
	case PD_RECORD_HEADER_TRACING_DATA: {
		uint32_t size;

		if (h->size < PD_TRACING_DATA_FIXED - 4)
			return bad(f, "the tracing data record at offset %llu is %u bytes long, too short",
				   (unsigned long long)off, h->size);
		memcpy(&size, h + 1, 4);
		*payload = ((uint64_t)size + 7) & ~(uint64_t)7;
		break;
	}
	default:
		break;
	}
	f->stats.skipped++;
	return 0;
}

static const char *payload_name(uint32_t type)
{
	return type == PD_RECORD_AUXTRACE ? "AUX area trace data" : "tracing data";
}

/* A pipe's start: its events and features, up to its first sample. The
 * records between (the kernel's map, the first COMMs) are kept, copied. */
static int read_pipe_header(struct pd_file *f)
{
	int err = 0;

	while (!err && f->nr_pending < PENDING_MAX) {
		const struct perf_event_header *h;
		uint64_t off = f->pos, payload = 0;
		uint32_t type;

		err = next_record(f, &h);
		if (err)
			return err < 0 ? err : 0;
		type = h->type;
		if (type == PERF_RECORD_SAMPLE || type == PD_RECORD_FINISHED_ROUND ||
		    type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2 ||
		    type == PD_RECORD_AUXTRACE)
			break;
		if (type < PD_RECORD_USER_TYPE_START) {
			struct queued q = {
				.off = off, .owned = true, .h = copy_record(h)
			};

			if (!q.h || vec_reserve(&f->pending, &f->cap_pending,
						f->nr_pending + 1, sizeof(q))) {
				free((void *)q.h);
				return fail(-ENOMEM, "out of memory");
			}
			f->pending[f->nr_pending++] = q;
		} else if (type == PD_RECORD_HEADER_ATTR) {
			err = add_event(f, h, off);
		} else {
			/* ignores fn: none of these hands out records */
			err = handle_record(f, h, off, false, &payload, NULL, NULL);
		}
		f->pos += h->size;
		if (!err && payload)
			err = src_skip(f, payload, payload_name(type), off);
		if (type == PD_RECORD_FINISHED_INIT)
			break;
	}
	return err;
}

int pd_open(const char *path, int fd, struct pd_file **out)
{
	struct pd_file *f;
	int err;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(!path ? "(in memory)" :
				     !strcmp(path, "-") && fd < 0 ? "(standard input)" :
				     path))) {
		free(f);
		return fail(-ENOMEM, "out of memory");
	}
	f->fd = -1;
	err = map_file(f, path, fd);
	if (!err && f->fd < 0)
		err = read_header(f);
	if (!err && f->pipe) {
		err = read_pipe_header(f);
		if (!err && !f->nr_events)
			err = bad(f, "its stream describes no event (no PERF_RECORD_HEADER_ATTR before its first sample)");
	} else if (!err) {
		err = read_attrs(f);
	}
	if (!err)
		err = choose_id_mode(f);
	if (!err && !f->pipe)
		err = read_features(f);
	if (!err)
		err = check_event_names(f, 0);
	if (err) {
		pd_close(f);
		return err;
	}
	if (f->map && !f->pipe)
		madvise((void *)f->map, f->size, MADV_SEQUENTIAL);
	*out = f;
	return 0;
}

/* Name the events from @from on that the file did not name. */
static int check_event_names(struct pd_file *f, size_t from)
{
	for (size_t i = from; i < f->nr_events; i++)
		if (!f->events[i].name) {
			int err = name_event(&f->events[i]);

			if (err)
				return err;
		}
	return 0;
}

static void free_queued(struct queued *q, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (q[i].owned)
			free((void *)q[i].h);
}

void pd_close(struct pd_file *f)
{
	if (!f)
		return;
	if (f->map)
		munmap((void *)f->map, f->size);
	if (f->fd >= 0)
		close(f->fd);
	for (size_t i = 0; i < f->nr_events; i++) {
		free(f->events[i].ids);
		free(f->events[i].name);
	}
	for (size_t i = 0; i < PD_FEAT_BITS; i++)
		free(f->features[i]);
	free_queued(f->pending, f->nr_pending);
	free_queued(f->q, f->nr_q);
	for (size_t i = 0; i < f->nr_bids; i++)
		free(f->bids[i].path);
	free(f->bids);
	free(f->pending);
	free(f->events);
	free(f->id_keys);
	free(f->id_event);
	hidx_release(&f->id_idx);
	free(f->q);
	free(f->buf);
	free(f->dbuf);
	free(f->scratch);
	free(f->dscratch);
	pd_zstd_free(f->zstd);
	free(f->path);
	free(f);
}

size_t pd_nr_events(const struct pd_file *f)
{
	return f->nr_events;
}

const struct pd_event *pd_event(const struct pd_file *f, size_t idx)
{
	return idx < f->nr_events ? &f->events[idx] : NULL;
}

const char *pd_feature_string(const struct pd_file *f, enum pd_feature feat)
{
	return feat >= PD_FEAT_FIRST && feat < PD_FEAT_BITS ? f->features[feat] : NULL;
}

const struct pd_build_id *pd_file_build_id(const struct pd_file *f, const char *path)
{
	for (size_t i = f->nr_bids; i-- > 0;)	/* the last word wins */
		if (!strcmp(f->bids[i].path, path))
			return &f->bids[i].id;
	return NULL;
}

const struct pd_build_id *pd_file_kernel_build_id(const struct pd_file *f)
{
	for (size_t i = f->nr_bids; i-- > 0;)	/* the last word wins */
		if (f->bids[i].kernel)
			return &f->bids[i].id;
	return NULL;
}

int pd_foreach_build_id(const struct pd_file *f, pd_build_id_fn fn, void *ctx)
{
	for (size_t i = 0; i < f->nr_bids; i++) {
		int err = fn(f->bids[i].path, &f->bids[i].id, ctx);

		if (err)
			return err;
	}
	return 0;
}

void pd_get_stats(const struct pd_file *f, struct pd_stats *st)
{
	*st = f->stats;
}

int pd_foreach(struct pd_file *f, pd_record_fn fn, void *ctx)
{
	int err = 0;

	f->max_time = f->flush_limit = 0;
	/* A pipe's first records, read at open. */
	for (size_t i = 0; !err && i < f->nr_pending; i++) {
		uint64_t payload;

		err = handle_record(f, f->pending[i].h, f->pending[i].off, false,
				    &payload, fn, ctx);
	}
	free_queued(f->pending, f->nr_pending);
	f->nr_pending = 0;
	while (!err) {
		const struct perf_event_header *h = NULL;
		uint64_t off = f->pos, payload = 0;
		uint32_t type;

		err = next_record(f, &h);
		if (err)
			break;
		type = h->type;
		err = handle_record(f, h, off, f->fd < 0 && off % 8 == 0, &payload, fn,
				    ctx);
		f->pos += h->size;
		if (!err && payload)
			err = src_skip(f, payload, payload_name(type), off);
	}
	if (err > 0)
		err = 0;
	if (!err && f->nr_q)
		err = flush_queue(f, 0, true, false, fn, ctx);
	free_queued(f->q, f->nr_q);
	f->nr_q = 0;
	return err;
}
