// SPDX-License-Identifier: MIT
/* Reading perf.data (tools/perf/Documentation/perf.data-file-format.txt):
 * its header, attributes, features and events' names, for
 * perf-data-open.c, which opens the file; and closing it. A file is mapped
 * read-only for these and every offset, size and count in it is checked
 * against the file's size before use: no allocation is sized by a field
 * that was not checked, and no read leaves the mapping. A pipe's stream
 * (perf record -o -) has its attributes and features in records
 * (HEADER_ATTR, HEADER_FEATURE), read by perf-data-records.c, as are the
 * records of both. */
#include "event/event.h"
#include "sample/perf-data-read.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int pd_bad(const struct pd_file *f, const char *fmt, ...)
{
	   char why[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return fail(-HWP_ERR_FORMAT, "'%s' is not a valid perf.data file: %s", f->path,
		    why);
}

/* A header the recording has not written yet: perf's says the data section
 * is empty (and lists features past nothing) until perf record ends,
 * hwprof's is zeros. Said as such, not as a garbled file. */
static int unfinished(const struct pd_file *f, const char *why)
{
	return fail(-HWP_ERR_FORMAT,
		    "'%s' is still being written, or its recording did not finish (%s); wait for the recording to end, or record again if it was killed or the machine stopped",
		    f->path, why);
}

static bool all_zeros(const unsigned char *p, size_t n)
{
	while (n && !*p)
		p++, n--;
	return !n;
}

/* Whether [off, off + size) lies inside the file. */
static bool in_file(const struct pd_file *f, uint64_t off, uint64_t size)
{
	return off <= f->size && size <= f->size - off;
}

int pd_read_header(struct pd_file *f)
{
	struct pd_file_header *h = &f->hdr;
	struct pd_pipe_header start;

	if (f->size == 0)
		return pd_bad(f, "the file is empty");
	if (f->size < sizeof(start.magic))
		return pd_bad(f, "the file is %zu bytes long, too short for a header",
			      f->size);
	memcpy(&start.magic, f->map, sizeof(start.magic));
	if (!memcmp(f->map, PD_MAGIC_V1, sizeof(start.magic)))
		return pd_bad(f, "it is in perf's first format (PERFFILE), which perf replaced in 2012; convert it with a current 'perf inject'");
	if (start.magic == PD_MAGIC_SWAPPED)
		return pd_bad(f, "it was written on a machine of the other byte order, which hwprof does not read");
	if (f->size >= PD_FILE_HEADER_SIZE && all_zeros(f->map, PD_FILE_HEADER_SIZE))
		return unfinished(f, "its header is all zeros, as hwprof record leaves it until the end");
	if (start.magic != PD_MAGIC)
		return pd_bad(f, "wrong magic number (not PERFILE2)");
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
		return pd_bad(f, "the file is %zu bytes long, too short for a header of %d bytes",
			      f->size, PD_FILE_HEADER_SIZE);
	memcpy(h, f->map, sizeof(*h));
	if (h->size < PD_FILE_HEADER_SIZE || h->size > f->size)
		return pd_bad(f, "the header says it is %llu bytes long",
			      (unsigned long long)h->size);
	if (!in_file(f, h->attrs.offset, h->attrs.size))
		return pd_bad(f, "the attribute section (%llu bytes at %llu) lies outside the file of %zu bytes",
			      (unsigned long long)h->attrs.size,
			      (unsigned long long)h->attrs.offset, f->size);
	if (!in_file(f, h->data.offset, h->data.size))
		return pd_bad(f, "the data section (%llu bytes at %llu) lies outside the file of %zu bytes: the file is truncated",
			      (unsigned long long)h->data.size,
			      (unsigned long long)h->data.offset, f->size);
	if (h->data.offset % 8)
		return pd_bad(f, "the data section starts at %llu, which is not a multiple of 8",
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

int pd_add_id(struct pd_file *f, uint64_t id, size_t ev)
{
	uint64_t h = hash_u64(id);

	if (hidx_find(&f->id_idx, h, id_eq, &id, f) >= 0)
		return pd_bad(f, "the sample id %llu belongs to two events",
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
	return pd_bad(f, "the ids of event %zu (%llu bytes at %llu) overlap %s (%llu bytes at %llu)",
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
			return pd_bad(f, "the ids of event %zu (%llu bytes at %llu) lie outside the file",
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

int pd_read_attrs(struct pd_file *f)
{
	const struct pd_file_header *h = &f->hdr;
	uint64_t entry = h->attr_size, nr, total_ids = 0;
	struct pd_file_section *ids;
	size_t attr_bytes;
	int err;

	if (entry < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_file_section) ||
	    entry > 4096 || entry % 8)
		return pd_bad(f, "the attribute size is %llu bytes",
			      (unsigned long long)entry);
	if (h->attrs.size % entry)
		return pd_bad(f, "the attribute section of %llu bytes does not hold whole attributes of %llu",
			      (unsigned long long)h->attrs.size,
			      (unsigned long long)entry);
	nr = h->attrs.size / entry;
	if (!nr)
		return pd_bad(f, "it describes no event");
	if (nr > MAX_EVENTS)
		return pd_bad(f, "it describes %llu events; hwprof reads at most %d",
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
			err = pd_add_id(f, f->events[i].ids[j], i);
	return err;
}

int pd_choose_id_mode(struct pd_file *f)
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
		return pd_bad(f, "its %zu events have records that cannot be told apart (no sample id)",
			      f->nr_events);
	return 0;
}

int pd_event_of_id(const struct pd_file *f, uint64_t id)
{
	long i = hidx_find(&f->id_idx, hash_u64(id), id_eq, &id, f);

	return i < 0 ? -1 : (int)f->id_event[i];
}

void pd_classify(const struct pd_file *f, const struct perf_event_header *h,
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
			*event = pd_event_of_id(f, id);
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
		*event = pd_event_of_id(f, id);
		if (*event < 0)
			*event = 0;	/* synthesized records may carry id 0 */
	}
	if (!pd_decode_sample_id(&f->events[*event].attr, h, &sid) && sid.has_time)
		*time = sid.time;
	if (f->id_mode == ID_POSITION && sid.id) {
		int e = pd_event_of_id(f, sid.id);

		*event = e < 0 ? 0 : e;
	}
}

/* ---- feature sections ---- */

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
size_t pd_read_build_id(struct pd_file *f, const unsigned char *p, size_t len)
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

	while ((n = pd_read_build_id(f, c->p, (size_t)(c->end - c->p))))
		c->p += n;
}

void pd_read_feature(struct pd_file *f, int bit, struct feat_cursor *c)
{
	if (bit == PD_FEAT_BUILD_ID) {
		read_build_ids(f, c);
	} else if (bit == PD_FEAT_EVENT_DESC) {
		read_event_desc(f, c);
	} else if (bit == PD_FEAT_HWPROF_FILES) {
		pd_read_file_stats(f, c);
	} else if (bit == PD_FEAT_CMDLINE) {
		free(f->features[bit]);
		f->features[bit] = read_string_list(c);
	} else if (pd_feature_is_string(bit)) {
		free(f->features[bit]);
		f->features[bit] = feat_string(c);
	}
}

int pd_read_features(struct pd_file *f)
{
	uint64_t table = f->hdr.data.offset + f->hdr.data.size;
	size_t n = 0;

	for (int bit = PD_FEAT_FIRST; bit < PD_FEAT_BITS; bit++) {
		struct pd_file_section sec;
		struct feat_cursor c;

		if (!pd_feature_test(f->hdr.features, bit))
			continue;
		if (!in_file(f, table + n * sizeof(sec), sizeof(sec)))
			return pd_bad(f, "the table of feature sections ends past the end of the file: the file is truncated");
		memcpy(&sec, f->map + table + n * sizeof(sec), sizeof(sec));
		n++;
		if (!in_file(f, sec.offset, sec.size) && !f->hdr.data.size)
			return unfinished(f, "its header says the data section is empty, and what follows it is not a table of features, as perf record leaves it until the end");
		if (!in_file(f, sec.offset, sec.size))
			return pd_bad(f, "feature section %d (%llu bytes at %llu) lies outside the file: the file is truncated",
				      bit, (unsigned long long)sec.size,
				      (unsigned long long)sec.offset);
		c.p = f->map + sec.offset;
		c.end = c.p + sec.size;
		pd_read_feature(f, bit, &c);
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

/* Name the events from @from on that the file did not name. */
int pd_check_event_names(struct pd_file *f, size_t from)
{
	for (size_t i = from; i < f->nr_events; i++)
		if (!f->events[i].name) {
			int err = name_event(&f->events[i]);

			if (err)
				return err;
		}
	return 0;
}

void pd_free_queued(struct queued *q, size_t nr)
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
	pd_free_queued(f->pending, f->nr_pending);
	pd_free_queued(f->q, f->nr_q);
	for (size_t i = 0; i < f->nr_bids; i++)
		free(f->bids[i].path);
	free(f->bids);
	for (size_t i = 0; i < f->nr_fstats; i++)
		free(f->fstats[i].path);
	free(f->fstats);
	free(f->pending);
	free(f->events);
	free(f->id_keys);
	free(f->id_event);
	hidx_release(&f->id_idx);
	free(f->q);
	free(f->q_tmp);
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

