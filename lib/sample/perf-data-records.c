// SPDX-License-Identifier: MIT
/* Reading perf.data's records, in time order. A file's data section and
 * a pipe's stream are read alike, through one buffer: a file's with
 * pread() at the records' offsets, a pipe's with read() in turn. Not
 * through the file's mapping: the first touch of a page costs more than
 * copying it (7.7 us a page in a VM; a DWARF sample is two pages), and
 * read() can give a pipe's bytes only once. The records waiting to be
 * sorted stay where they were read, in the buffer, which keeps them until
 * they are handed out: it holds a round or two of records, whatever the
 * size of the file. */
#include "sample/perf-data-read.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Records held back for sorting, at most: a round of a busy machine fits. */
#define QUEUE_MAX (1u << 18)
/* What the buffer reads at a time, at least, and holds at first. */
#define SRC_READ (256u << 10)
/* What the buffer keeps for the records waiting to be sorted, at most:
 * past it they are copied out, each to its own allocation, and the
 * buffer goes on without them (a record whose time is far ahead of the
 * others' would otherwise keep the rest of the file in memory). */
#define SRC_KEEP_MAX (64u << 20)
/* What one step of decompression writes, at most. */
#define DECOMP_BUF (1u << 20)

/* ---- where the records come from ---- */

static struct perf_event_header *copy_record(const struct perf_event_header *h)
{
	struct perf_event_header *c = malloc(h->size);

	if (c)
		memcpy(c, h, h->size);
	return c;
}

/* Copy the queued records that are in the buffer out of it. */
static int own_queued(struct pd_file *f)
{
	for (size_t i = 0; i < f->nr_q; i++) {
		struct queued *q = &f->q[i];

		if (q->owned)
			continue;
		q->h = copy_record((const struct perf_event_header *)
				   (f->buf + (q->off - f->buf_base)));
		if (!q->h)
			return fail(-ENOMEM, "out of memory");
		q->owned = true;
	}
	f->low = UINT64_MAX;
	return 0;
}

/* Read what follows the buffer's bytes, to hold at least @need of them;
 * fewer only at the end of the records. */
static int src_read(struct pd_file *f, size_t need)
{
	while (f->buf_len < need) {
		uint64_t at = f->buf_base + f->buf_len;
		size_t room = f->buf_cap - f->buf_len;
		ssize_t r;

		if (!f->stream) {
			if (at >= f->end)
				break;
			if (room > f->end - at)
				room = (size_t)(f->end - at);
			r = pread(f->fd, f->buf + f->buf_len, room, (off_t)at);
		} else {
			r = read(f->fd, f->buf + f->buf_len, room);
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return fail(-errno, "cannot read '%s': %s", f->path,
				    errno_text(errno));
		if (!r) {
			if (!f->stream)	/* the file shrank under us */
				return pd_bad(f, "it ends at %llu, inside its data section (to %llu): the file was truncated while it was read",
					      (unsigned long long)at,
					      (unsigned long long)f->end);
			break;
		}
		f->buf_len += (size_t)r;
	}
	return 0;
}

/* Make up to @n bytes at f->pos readable at *@p: *@got says how many are
 * (fewer only at the end of the records). The buffer keeps what it holds
 * from the oldest queued record on; to make room it forgets what is
 * before, and it grows to twice what it must hold, so that each byte is
 * moved a bounded number of times. */
static int src_get(struct pd_file *f, size_t n, const unsigned char **p, size_t *got)
{
	uint64_t buf_end = f->buf_base + f->buf_len;
	size_t have = f->pos < buf_end ? (size_t)(buf_end - f->pos) : 0;

	if (have < n) {
		uint64_t keep = f->low < f->pos ? f->low : f->pos;
		size_t need, keep_max = f->keep_max ? f->keep_max : SRC_KEEP_MAX;
		int err;

		if (f->pos + n - keep > keep_max && keep < f->pos) {
			err = own_queued(f);
			if (err)
				return err;
			keep = f->pos;
		}
		/* 8-aligned: a record can be read as a struct where it lies
		 * when its offset is a multiple of 8. */
		keep &= ~(uint64_t)7;
		need = (size_t)(f->pos - keep) + n;
		if (keep >= buf_end) {
			f->buf_base = keep;	/* nothing to keep */
			f->buf_len = 0;
		} else if (f->buf_cap - (size_t)(keep - f->buf_base) < need + SRC_READ) {
			size_t drop = (size_t)(keep - f->buf_base);

			memmove(f->buf, f->buf + drop, f->buf_len - drop);
			f->buf_len -= drop;
			f->buf_base = keep;
		}
		if (f->buf_cap - (size_t)(keep - f->buf_base) < need + SRC_READ) {
			size_t cap = 2 * (need > SRC_READ ? need : SRC_READ);
			unsigned char *nb = realloc(f->buf, cap);

			if (!nb)
				return fail(-ENOMEM, "out of memory");
			f->buf = nb;
			f->buf_cap = cap;
		}
		err = src_read(f, (size_t)(f->pos - f->buf_base) + n);
		if (err)
			return err;
		buf_end = f->buf_base + f->buf_len;
		have = f->pos < buf_end ? (size_t)(buf_end - f->pos) : 0;
	}
	*p = f->buf + (f->pos - f->buf_base);
	*got = have < n ? have : n;
	return 0;
}

/* Pass over @n bytes: the payload a record's size does not count. */
static int src_skip(struct pd_file *f, uint64_t n, const char *what, uint64_t at)
{
	if (!f->stream && f->low == UINT64_MAX) {
		/* a file's: no need to read them */
		uint64_t left = f->end - f->pos;

		if (n > left)
			return pd_bad(f, "the %llu bytes of %s that follow the record at offset %llu are cut off by the end of the data: the file is truncated",
				      (unsigned long long)n, what,
				      (unsigned long long)at);
		f->pos += n;
		return 0;
	}
	while (n) {
		const unsigned char *p;
		size_t got, step = n > SRC_READ ? SRC_READ : (size_t)n;
		int err = src_get(f, step, &p, &got);

		if (err)
			return err;
		if (!got)
			return pd_bad(f, "the %llu bytes of %s that follow the record at offset %llu are cut off by the end of the data: the file is truncated",
				      (unsigned long long)n, what,
				      (unsigned long long)at);
		f->pos += got;
		n -= got;
	}
	return 0;
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
 * buffer or the scratch copy): 1 at the end. */
static int next_record(struct pd_file *f, const struct perf_event_header **hp)
{
	uint64_t buf_end = f->buf_base + f->buf_len;
	const unsigned char *p;
	struct perf_event_header h;
	size_t got;
	int err;

	/* Most records lie whole in the buffer already: one look at them. */
	if (f->pos >= f->buf_base && f->pos + sizeof(h) <= buf_end) {
		p = f->buf + (f->pos - f->buf_base);
		memcpy(&h, p, sizeof(h));
		if (h.size >= sizeof(h) && h.size <= buf_end - f->pos &&
		    (h.type >= PD_RECORD_USER_TYPE_START || h.size % 8 == 0))
			return aligned(&f->scratch, p, h.size, hp);
	}
	err = src_get(f, sizeof(h), &p, &got);

	if (err)
		return err;
	if (!got)
		return 1;
	if (got < sizeof(h))
		return pd_bad(f,
			      "a record at offset %llu is cut off by the end of the data",
			      (unsigned long long)f->pos);
	memcpy(&h, p, sizeof(h));
	/* perf's own records need not be a multiple of 8 long (a pipe's
	 * features are not); the kernel's always are. */
	if (h.size < sizeof(h) || (h.type < PD_RECORD_USER_TYPE_START && h.size % 8))
		return pd_bad(f, "the record at offset %llu says it is %u bytes long",
			      (unsigned long long)f->pos, h.size);
	err = src_get(f, h.size, &p, &got);
	if (err)
		return err;
	if (got < h.size)
		return pd_bad(f, "the record at offset %llu says it is %u bytes long (%zu bytes are left)",
			      (unsigned long long)f->pos, h.size, got);
	return aligned(&f->scratch, p, h.size, hp);
}

/* PERF_RECORD_HEADER_ATTR: a pipe's event, its attributes and its ids. */
static int add_event(struct pd_file *f, const struct perf_event_header *h, uint64_t off)
{
	size_t body = h->size - sizeof(*h), nr_ids;
	struct pd_event *ev, *events;
	uint32_t attr_size;

	if (body < PERF_ATTR_SIZE_VER0)
		return pd_bad(f, "the attribute record at offset %llu is %zu bytes long, too short for an event's attributes",
			      (unsigned long long)off, body);
	memcpy(&attr_size, (const char *)(h + 1) + offsetof(struct perf_event_attr, size),
	       sizeof(attr_size));
	if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > body || attr_size % 8)
		return pd_bad(f, "the attribute record at offset %llu says its attributes are %u bytes long",
			      (unsigned long long)off, attr_size);
	if (f->nr_events >= MAX_EVENTS)
		return pd_bad(f, "it describes more than %d events", MAX_EVENTS);
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
		int err = pd_add_id(f, ev->ids[j], f->nr_events - 1);

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
	ev = pd_event_of_id(f, id);
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
		pd_read_feature(f, (int)feat, &c);
}

/* ---- the data section, in order ---- */

static bool queued_before(const struct queued *x, const struct queued *y)
{
	return x->time < y->time || (x->time == y->time && x->off < y->off);
}

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	return queued_before(x, y) ? -1 : queued_before(y, x);
}

/* The end of the run of records in order that starts at @from. */
static size_t run_end(const struct queued *q, size_t from, size_t n)
{
	while (++from < n && !queued_before(&q[from], &q[from - 1]))
		;
	return from;
}

static void merge(const struct queued *a, size_t na, const struct queued *b, size_t nb,
		  struct queued *out)
{
	while (na && nb) {
		if (queued_before(b, a)) {
			*out++ = *b++;
			nb--;
		} else {
			*out++ = *a++;
			na--;
		}
	}
	memcpy(out, na ? a : b, (na ? na : nb) * sizeof(*a));
}

/* The queue in time order. Each ring's records come in time order, so a
 * round is a few runs in order (one, from one CPU): merging the runs
 * costs a pass per doubling of them, and nothing when the queue is in
 * order already, which most are. */
static void sort_queue(struct pd_file *f)
{
	size_t n = f->nr_q, runs;

	if (!f->q_unsorted)
		return;
	f->q_unsorted = false;
	if (vec_reserve(&f->q_tmp, &f->cap_q_tmp, n, sizeof(*f->q_tmp))) {
		qsort(f->q, n, sizeof(*f->q), cmp_queued);	/* no room to merge */
		return;
	}
	do {
		struct queued *t = f->q_tmp;
		size_t cap = f->cap_q_tmp;

		runs = 0;
		for (size_t i = 0, mid, end; i < n; i = end, runs++) {
			mid = run_end(f->q, i, n);
			end = mid < n ? run_end(f->q, mid, n) : n;
			merge(f->q + i, mid - i, f->q + mid, end - mid, t + i);
		}
		f->q_tmp = f->q;
		f->cap_q_tmp = f->cap_q;
		f->q = t;
		f->cap_q = cap;
	} while (runs > 1);
}

static int emit(struct pd_file *f, const struct queued *q, pd_record_fn fn, void *ctx)
{
	struct pd_record rec = {
		.h = q->h ? q->h : (const struct perf_event_header *)
				   (f->buf + (q->off - f->buf_base)),
		.event = q->event,
		.time = q->time,
		.offset = q->off,
	};
	int err = fn(&rec, ctx);

	if (q->owned)
		free((void *)q->h);
	return err;
}

/* Emit the queued records up to time @limit (all with @all, or the oldest
 * half when @half), in time order. */
static int flush_queue(struct pd_file *f, uint64_t limit, bool all, bool half,
		       pd_record_fn fn, void *ctx)
{
	size_t n = 0, keep_from;
	uint64_t low = UINT64_MAX;
	int err = 0;

	sort_queue(f);
	while (n < f->nr_q && (all || (half ? n < f->nr_q / 2 : f->q[n].time <= limit))) {
		err = emit(f, &f->q[n], fn, ctx);
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
	f->low = low;
	return err;
}

/* A kernel's record (or one of an unknown type): sorted, or handed out
 * now. @stable: @h is in the source's buffer, at @off, and stays there
 * while it is queued; else it is copied to be queued. */
static int queue_record(struct pd_file *f, const struct perf_event_header *h,
			uint64_t off, bool stable, pd_record_fn fn, void *ctx)
{
	struct queued q = { .off = off, .h = h };
	int event;

	pd_classify(f, h, &event, &q.time);
	q.event = event;
	if (!f->ordered)
		return emit(f, &q, fn, ctx);
	if (vec_reserve(&f->q, &f->cap_q, f->nr_q + 1, sizeof(*f->q)))
		return fail(-ENOMEM, "out of memory");
	if (stable) {
		q.h = NULL;
		if (f->low == UINT64_MAX)	/* the records come in offset order */
			f->low = off;
	} else {
		q.h = copy_record(h);
		q.owned = true;
		if (!q.h)
			return fail(-ENOMEM, "out of memory");
	}
	if (f->nr_q && queued_before(&q, &f->q[f->nr_q - 1]))
		f->q_unsorted = true;
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
			return pd_bad(f, "a record in the compressed data of the record at offset %llu says it is %u bytes long",
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
			return pd_bad(f,
				      "the compressed record at offset %llu is too short",
				      (unsigned long long)off);
		memcpy(&data_size, in, 8);
		in += 8;
		len -= 8;
		if (data_size > len)
			return pd_bad(f, "the compressed record at offset %llu says it holds %llu bytes, in %zu",
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
		err = f->pl ? f->drain(f->pl) : 0;
		if (!err)
			err = add_event(f, h, off);
		if (!err)
			err = pd_choose_id_mode(f);
		return err ? err : pd_check_event_names(f, f->nr_events - 1);
	case PD_RECORD_HEADER_FEATURE:
		header_feature(f, h);
		return 0;
	case PD_RECORD_EVENT_UPDATE:
		err = f->pl ? f->drain(f->pl) : 0;
		if (!err)
			update_event(f, h);
		return err;
	case PD_RECORD_COMPRESSED:
	case PD_RECORD_COMPRESSED2:
		return decompress(f, h, off, fn, ctx);
	case PD_RECORD_FINISHED_INIT:
		return 0;
	case PD_RECORD_HEADER_BUILD_ID:
		pd_read_build_id(f, (const unsigned char *)h, h->size);
		return 0;
	case PD_RECORD_AUXTRACE:
		if (h->size < PD_AUXTRACE_FIXED)
			return pd_bad(f, "the AUXTRACE record at offset %llu is %u bytes long, too short",
				      (unsigned long long)off, h->size);
		memcpy(&v, h + 1, 8);
		f->stats.aux_records++;
		f->stats.aux_bytes += v;
		*payload = v;
		break;
	case PD_RECORD_HEADER_TRACING_DATA: {
		uint32_t size;

		if (h->size < PD_TRACING_DATA_FIXED - 4)
			return pd_bad(f, "the tracing data record at offset %llu is %u bytes long, too short",
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
int pd_read_pipe_header(struct pd_file *f)
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
	pd_free_queued(f->pending, f->nr_pending);
	f->nr_pending = 0;
	while (!err) {
		const struct perf_event_header *h = NULL;
		uint64_t off = f->pos, payload = 0;
		uint32_t type;

		err = next_record(f, &h);
		if (err)
			break;
		type = h->type;
		/* in the buffer, or (not 8-aligned there) in the scratch copy */
		err = handle_record(f, h, off,
				    (const void *)h != (const void *)f->scratch, &payload,
				    fn, ctx);
		f->pos += h->size;
		if (!err && payload)
			err = src_skip(f, payload, payload_name(type), off);
	}
	if (err > 0)
		err = 0;
	if (!err && f->nr_q)
		err = flush_queue(f, 0, true, false, fn, ctx);
	pd_free_queued(f->q, f->nr_q);
	f->nr_q = 0;
	return err;
}

