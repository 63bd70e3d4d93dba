// SPDX-License-Identifier: MIT
/* Reading perf.data (tools/perf/Documentation/perf.data-file-format.txt).
 * The file is mapped read-only and every offset, size and count in it is
 * checked against the file's size before use: no allocation is sized by a
 * field that was not checked, and no read leaves the mapping. */
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
	size_t nr_ids;
	enum id_mode id_mode;
	bool ordered;		/* every record has a time: sort rounds as perf does */
	char *features[PD_FEAT_BITS];	/* the string features that were read */
	/* pd_foreach's state */
	struct queued *q;
	size_t nr_q, cap_q;
	uint64_t dropped;	/* bytes at the start of the mapping given back */
	/* The data section is read into a window rather than through the
	 * mapping: a page fault costs more than copying its page, and a
	 * DWARF sample is two pages (read(): 0.12 s for a 480 MB file here,
	 * a first touch of each of its pages: 0.46 s). The window holds
	 * [win_start, win_start + win_len): what is queued and not yet
	 * emitted, and what is read ahead. fd -1: the mapping is read. */
	int fd;
	unsigned char *win;
	uint64_t win_start, low;	/* low: the oldest queued record's offset */
	size_t win_len, win_cap;
};

/* What the window reads at a time. */
#define WINDOW_READ (1u << 20)

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
		if (start.size == PD_PIPE_HEADER_SIZE)
			return bad(f, "it is in perf's pipe format; record to a file (perf record -o FILE) to read it with hwprof");
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
	f->id_keys = malloc((total_ids + 1) * sizeof(*f->id_keys));
	f->id_event = malloc((total_ids + 1) * sizeof(*f->id_event));
	if (!f->id_keys || !f->id_event)
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
		if (bit == PD_FEAT_EVENT_DESC)
			read_event_desc(f, &c);
		else if (bit == PD_FEAT_CMDLINE)
			f->features[bit] = read_string_list(&c);
		else if (pd_feature_is_string(bit))
			f->features[bit] = feat_string(&c);
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

static int map_file(struct pd_file *f, const char *path, int fd)
{
	struct stat st;
	int own = -1, err = 0;

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
		/* the data section's reads; without it, the mapping's */
		f->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	}
	if (own >= 0)
		close(own);
	return err;
}

int pd_open(const char *path, int fd, struct pd_file **out)
{
	struct pd_file *f;
	int err;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path ? path : "(in memory)"))) {
		free(f);
		return fail(-ENOMEM, "out of memory");
	}
	f->fd = -1;
	err = map_file(f, path, fd);
	if (!err)
		err = read_header(f);
	if (!err)
		err = read_attrs(f);
	if (!err)
		err = choose_id_mode(f);
	if (!err)
		err = read_features(f);
	for (size_t i = 0; !err && i < f->nr_events; i++)
		if (!f->events[i].name)
			err = name_event(&f->events[i]);
	if (err) {
		pd_close(f);
		return err;
	}
	if (f->map)
		madvise((void *)f->map, f->size, MADV_SEQUENTIAL);
	*out = f;
	return 0;
}

void pd_close(struct pd_file *f)
{
	if (!f)
		return;
	if (f->map)
		munmap((void *)f->map, f->size);
	if (f->fd >= 0)
		close(f->fd);
	free(f->win);
	for (size_t i = 0; i < f->nr_events; i++) {
		free(f->events[i].ids);
		free(f->events[i].name);
	}
	for (size_t i = 0; i < PD_FEAT_BITS; i++)
		free(f->features[i]);
	free(f->events);
	free(f->id_keys);
	free(f->id_event);
	hidx_release(&f->id_idx);
	free(f->q);
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

/* ---- the data section, in order ---- */

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The bytes at @off, from the window when it holds them. */
static const unsigned char *file_at(const struct pd_file *f, uint64_t off)
{
	if (f->fd >= 0 && off >= f->win_start && off - f->win_start < f->win_len)
		return f->win + (off - f->win_start);
	return f->map + off;
}

/* Have the window hold [@off, @off + @len) (below @end), keeping what is
 * at or above @low and forgetting the rest. A read that fails leaves the
 * mapping to be read from then on. */
static void window_fill(struct pd_file *f, uint64_t off, size_t len, uint64_t low,
			uint64_t end)
{
	uint64_t want;

	if (f->fd < 0 || (off >= f->win_start && off + len <= f->win_start + f->win_len))
		return;
	if (!f->win_len || low < f->win_start || low > f->win_start + f->win_len) {
		f->win_start = low;	/* a new start: nothing kept */
		f->win_len = 0;
	} else if (low > f->win_start) {
		f->win_len -= (size_t)(low - f->win_start);
		memmove(f->win, f->win + (low - f->win_start), f->win_len);
		f->win_start = low;
	}
	want = off + len - f->win_start;
	if (want < f->win_len + WINDOW_READ)
		want = f->win_len + WINDOW_READ;
	if (want > end - f->win_start)
		want = end - f->win_start;
	if (vec_reserve(&f->win, &f->win_cap, (size_t)want, 1))
		goto map;
	while (f->win_len < want) {
		ssize_t n = pread(f->fd, f->win + f->win_len, (size_t)want - f->win_len,
				  (off_t)(f->win_start + f->win_len));

		if (n <= 0)
			goto map;
		f->win_len += (size_t)n;
	}
	if (off + len <= f->win_start + f->win_len)
		return;
map:
	close(f->fd);
	f->fd = -1;
}

static int emit(struct pd_file *f, uint64_t off, int event, uint64_t time,
		pd_record_fn fn, void *ctx)
{
	struct pd_record rec = {
		.h = (const struct perf_event_header *)file_at(f, off),
		.event = event,
		.time = time,
		.offset = off,
	};

	return fn(&rec, ctx);
}

/* Give the pages below @keep back: the report's memory follows what it
 * aggregates, not the size of the file. */
static void drop_read_pages(struct pd_file *f, uint64_t keep)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t upto = keep & ~(uint64_t)(page - 1);

	if (upto < f->dropped + DROP_STEP)
		return;
	madvise((void *)(f->map + f->dropped), upto - f->dropped, MADV_DONTNEED);
	f->dropped = upto;
}

/* Emit the queued records up to time @limit (all with @all, or the oldest
 * half when @half), in time order. */
static int flush_queue(struct pd_file *f, uint64_t limit, bool all, bool half,
		       uint64_t pos, pd_record_fn fn, void *ctx)
{
	size_t n = 0, keep_from;
	uint64_t low = pos;
	int err = 0;

	if (f->nr_q > 1)
		qsort(f->q, f->nr_q, sizeof(*f->q), cmp_queued);
	while (n < f->nr_q && (all || (half ? n < f->nr_q / 2 : f->q[n].time <= limit))) {
		err = emit(f, f->q[n].off, f->q[n].event, f->q[n].time, fn, ctx);
		n++;
		if (err)
			break;
	}
	keep_from = n;
	if (keep_from && f->nr_q > keep_from)	/* an empty queue may have no array yet */
		memmove(f->q, f->q + keep_from, (f->nr_q - keep_from) * sizeof(*f->q));
	f->nr_q -= keep_from;
	for (size_t i = 0; i < f->nr_q; i++)
		if (f->q[i].off < low)
			low = f->q[i].off;
	f->low = low;
	drop_read_pages(f, low);
	return err;
}

static int check_record(struct pd_file *f, uint64_t pos, uint64_t end,
			const struct perf_event_header **hp)
{
	const struct perf_event_header *h;
	uint64_t low = f->nr_q ? f->low : pos;

	if (end - pos < sizeof(*h))
		return bad(f, "a record at offset %llu is cut off by the end of the data section",
			   (unsigned long long)pos);
	window_fill(f, pos, sizeof(*h), low, end);
	h = (const struct perf_event_header *)file_at(f, pos);
	if (h->size >= sizeof(*h) && h->size <= end - pos) {
		window_fill(f, pos, h->size, low, end);
		h = (const struct perf_event_header *)file_at(f, pos);
	}
	if (h->size < sizeof(*h) || h->size % 8 || h->size > end - pos)
		return bad(f, "the record at offset %llu says it is %u bytes long (%llu bytes are left)",
			   (unsigned long long)pos, h->size,
			   (unsigned long long)(end - pos));
	*hp = h;
	return 0;
}

int pd_foreach(struct pd_file *f, pd_record_fn fn, void *ctx)
{
	uint64_t pos = f->hdr.data.offset, end = pos + f->hdr.data.size;
	uint64_t max_time = 0, flush_limit = 0;
	int err = 0;

	f->nr_q = 0;
	while (!err && pos < end) {
		const struct perf_event_header *h = NULL;
		uint64_t time;
		int event;

		err = check_record(f, pos, end, &h);
		if (err)
			break;
		if (h->type == PD_RECORD_FINISHED_ROUND) {
			/* What a later round holds is never older than the last
			 * round's newest record: flush up to that. */
			if (f->ordered)
				err = flush_queue(f, flush_limit, false, false, pos, fn,
						  ctx);
			flush_limit = max_time;
		} else {
			classify(f, h, &event, &time);
			if (!f->ordered) {
				err = emit(f, pos, event, time, fn, ctx);
				drop_read_pages(f, pos);
			} else if (vec_reserve(&f->q, &f->cap_q, f->nr_q + 1,
					       sizeof(*f->q))) {
				err = fail(-ENOMEM, "out of memory");
			} else {
				if (!f->nr_q)
					f->low = pos;
				f->q[f->nr_q++] = (struct queued){ time, pos, event };
				if (time > max_time)
					max_time = time;
				if (f->nr_q >= QUEUE_MAX)
					err = flush_queue(f, 0, false, true, pos, fn,
							  ctx);
			}
		}
		pos += h->size;
	}
	if (!err && f->nr_q)
		err = flush_queue(f, 0, true, false, pos, fn, ctx);
	f->nr_q = 0;
	return err;
}
