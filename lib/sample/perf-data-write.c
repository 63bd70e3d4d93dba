// SPDX-License-Identifier: MIT
/* Writing perf.data: the layout perf record writes, so that perf report
 * reads it. The header goes first as a placeholder and is written again at
 * the end, when the data's size and the feature sections are known:
 *   header | ids | attributes | data | feature table | feature sections
 * or, to a pipe (perf record -o -), all of it as records, in one pass:
 *   pipe header | HEADER_ATTR, EVENT_UPDATE, HEADER_FEATURE records | data */
#include "sample/sample.h"

#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The features written, in the order of their bits, as their table must
 * be. CPUID is perf's vendor,family,model,stepping, which hwprof does not
 * work out. */
static const enum pd_feature written_features[] = {
	PD_FEAT_BUILD_ID, PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION,
	PD_FEAT_ARCH, PD_FEAT_NRCPUS, PD_FEAT_CPUDESC, PD_FEAT_TOTAL_MEM, PD_FEAT_CMDLINE,
	PD_FEAT_EVENT_DESC, PD_FEAT_HWPROF_FILES,
};

struct wevent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_writer {
	FILE *f;
	bool pipe;		/* perf's pipe format: no header to write at the end */
	struct wevent *events;
	size_t nr_events;
	uint64_t attrs_offset;
	uint64_t data_offset;
	struct strbuf build_ids;	/* PD_FEAT_BUILD_ID's records */
	struct strbuf file_stats;	/* PD_FEAT_HWPROF_FILES's entries */
};

static int write_error(void)
{
	int err = errno ? -errno : -EIO;

	return fail(err, "writing the perf.data file failed: %s", errno_text(-err));
}

static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : write_error();
}

static void free_events(struct wevent *ev, size_t nr)
{
	for (size_t i = 0; ev && i < nr; i++) {
		free(ev[i].name);
		free(ev[i].ids);
	}
	free(ev);
}

void pd_writer_abort(struct pd_writer *w)
{
	if (!w)
		return;
	free_events(w->events, w->nr_events);
	strbuf_release(&w->build_ids);
	strbuf_release(&w->file_stats);
	free(w);
}

int pd_writer_add_build_id(struct pd_writer *w, const char *path, bool kernel,
			   const struct pd_build_id *id)
{
	uint16_t mode = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	struct perf_event_header h = { .misc = (uint16_t)(PD_BUILD_ID_MISC_SIZE | mode) };
	unsigned char fixed[PD_BUILD_ID_FIXED - sizeof(h)] = { 0 };
	static const char pad[PD_NAME_ALIGN];
	size_t n = strlen(path) + 1;
	size_t len = (n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN;
	int32_t pid = -1;	/* the host */

	if (!id->size || id->size > PD_BUILD_ID_MAX ||
	    PD_BUILD_ID_FIXED + len > UINT16_MAX)
		return 0;	/* nothing perf could read */
	h.size = (uint16_t)(PD_BUILD_ID_FIXED + len);
	memcpy(fixed, &pid, sizeof(pid));
	memcpy(fixed + 4, id->data, id->size);
	fixed[4 + PD_BUILD_ID_MAX] = id->size;
	strbuf_add(&w->build_ids, (const char *)&h, sizeof(h));
	strbuf_add(&w->build_ids, (const char *)fixed, sizeof(fixed));
	strbuf_add(&w->build_ids, path, n);
	strbuf_add(&w->build_ids, pad, len - n);
	return strbuf_failed(&w->build_ids) ? fail(-ENOMEM, "out of memory") : 0;
}

int pd_writer_add_file_stat(struct pd_writer *w, const char *path)
{
	static const char pad[8];
	struct pd_file_stat st;
	size_t n = strlen(path) + 1, len = (n + 7) & ~(size_t)7;
	uint32_t head[2] = { (uint32_t)(PD_FILE_STAT_FIXED + len), 0 };

	if (pd_file_stat_of(path, &st) || PD_FILE_STAT_FIXED + len > UINT32_MAX)
		return 0;	/* gone: nothing to say */
	strbuf_add(&w->file_stats, (const char *)head, sizeof(head));
	strbuf_add(&w->file_stats, (const char *)&st, sizeof(st));
	strbuf_add(&w->file_stats, path, n);
	strbuf_add(&w->file_stats, pad, len - n);
	return strbuf_failed(&w->file_stats) ? fail(-ENOMEM, "out of memory") : 0;
}

static int copy_events(struct pd_writer *w, const struct pd_write_event *events,
		       size_t nr)
{
	w->events = calloc(nr, sizeof(*w->events));
	if (!w->events)
		return -ENOMEM;
	w->nr_events = nr;
	for (size_t i = 0; i < nr; i++) {
		struct wevent *e = &w->events[i];

		e->attr = *events[i].attr;
		e->attr.size = sizeof(e->attr);
		e->name = strdup(events[i].name ? events[i].name : "");
		e->ids = malloc((events[i].nr_ids + 1) * sizeof(*e->ids));
		if (!e->name || !e->ids)
			return -ENOMEM;
		if (events[i].nr_ids)
			memcpy(e->ids, events[i].ids, events[i].nr_ids * sizeof(*e->ids));
		e->nr_ids = events[i].nr_ids;
	}
	return 0;
}

/* A writer of @events to @f, or NULL when out of memory. */
static struct pd_writer *writer_new(FILE *f, const struct pd_write_event *events,
				    size_t nr)
{
	struct pd_writer *w = calloc(1, sizeof(*w));

	if (!w || copy_events(w, events, nr)) {
		pd_writer_abort(w);
		return NULL;
	}
	w->f = f;
	return w;
}

int pd_writer_begin(FILE *f, const struct pd_write_event *events, size_t nr,
		    struct pd_writer **out)
{
	const struct pd_file_header placeholder = { 0 };
	struct pd_writer *w;
	uint64_t off = PD_FILE_HEADER_SIZE;
	int err;

	*out = NULL;
	w = writer_new(f, events, nr);
	if (!w)
		return fail(-ENOMEM, "out of memory");
	err = put(f, &placeholder, sizeof(placeholder));
	for (size_t i = 0; !err && i < nr; i++) {
		err = put(f, w->events[i].ids, w->events[i].nr_ids * sizeof(uint64_t));
		off += w->events[i].nr_ids * sizeof(uint64_t);
	}
	w->attrs_offset = off;
	for (size_t i = 0, ids = PD_FILE_HEADER_SIZE; !err && i < nr; i++) {
		struct pd_file_attr entry = {
			.attr = w->events[i].attr,
			.ids = { ids, w->events[i].nr_ids * sizeof(uint64_t) },
		};

		err = put(f, &entry, sizeof(entry));
		ids += entry.ids.size;
		off += sizeof(entry);
	}
	w->data_offset = off;
	if (err) {
		pd_writer_abort(w);
		return err;
	}
	*out = w;
	return 0;
}

/* A record of perf's own: header, @a, then @b. */
static int put_record(FILE *f, uint32_t type, const void *a, size_t na, const void *b,
		      size_t nb)
{
	struct perf_event_header h = {
		.type = type,
		.size = (uint16_t)(sizeof(h) + na + nb),
	};

	if (sizeof(h) + na + nb > UINT16_MAX)
		return fail(-E2BIG, "a record of %zu bytes does not fit perf's format (64 KiB at most)",
			    sizeof(h) + na + nb);
	return put(f, &h, sizeof(h)) ?: put(f, a, na) ?: put(f, b, nb);
}

static void feature(const struct pd_writer *w, enum pd_feature feat, char *const argv[],
		    struct strbuf *sb);

/* What perf record -o - writes before the data: each event's attributes
 * and ids, its name, and the features (but EVENT_DESC, which the first
 * two records say, as perf's pipe mode does). */
static int pipe_header(struct pd_writer *w, char *const argv[])
{
	const struct pd_pipe_header ph = { PD_MAGIC, PD_PIPE_HEADER_SIZE };
	int err = put(w->f, &ph, sizeof(ph));

	for (size_t i = 0; !err && i < w->nr_events; i++) {
		const struct wevent *e = &w->events[i];

		err = put_record(w->f, PD_RECORD_HEADER_ATTR, &e->attr, sizeof(e->attr),
				 e->ids, e->nr_ids * sizeof(uint64_t));
	}
	for (size_t i = 0; !err && i < w->nr_events; i++) {
		const struct wevent *e = &w->events[i];
		uint64_t head[2] = { PD_EVENT_UPDATE_NAME, e->nr_ids ? e->ids[0] : 0 };
		char name[256] = "";

		if (!e->nr_ids || !*e->name)
			continue;
		snprintf(name, sizeof(name), "%s", e->name);
		err = put_record(w->f, PD_RECORD_EVENT_UPDATE, head, sizeof(head), name,
				 (strlen(name) + 8) & ~(size_t)7);
	}
	for (size_t i = 0; !err && i < ARRAY_SIZE(written_features); i++) {
		uint64_t feat = written_features[i];
		struct strbuf body = STRBUF_INIT;

		/* EVENT_DESC: the records above say it; BUILD_ID: at the end;
		 * HWPROF_FILES: perf would warn of a feature it does not know */
		if (feat == PD_FEAT_EVENT_DESC || feat == PD_FEAT_BUILD_ID ||
		    feat == PD_FEAT_HWPROF_FILES)
			continue;
		feature(w, feat, argv, &body);
		err = strbuf_failed(&body) ? fail(-ENOMEM, "out of memory") :
		      put_record(w->f, PD_RECORD_HEADER_FEATURE, &feat, sizeof(feat),
				 body.buf, body.len);
		strbuf_release(&body);
	}
	return err;
}

int pd_writer_begin_pipe(FILE *f, const struct pd_write_event *events, size_t nr,
			 char *const argv[], struct pd_writer **out)
{
	struct pd_writer *w;
	int err;

	*out = NULL;
	w = writer_new(f, events, nr);
	if (!w)
		return fail(-ENOMEM, "out of memory");
	w->pipe = true;
	err = pipe_header(w, argv);
	if (err) {
		pd_writer_abort(w);
		return err;
	}
	*out = w;
	return 0;
}

int64_t pd_writer_data_size(const struct pd_writer *w)
{
	off_t pos = ftello(w->f);

	if (pos < 0)
		return -errno;
	/* a device that takes writes and keeps no position (/dev/null) */
	if (pos < (off_t)w->data_offset)
		return -ESPIPE;
	return (int64_t)(pos - (off_t)w->data_offset);
}

/* ---- feature sections ---- */

static void add_string(struct strbuf *sb, const char *s)
{
	static const char pad[PD_NAME_ALIGN];
	size_t n = strlen(s) + 1;
	uint32_t len =
		(uint32_t)((n + PD_NAME_ALIGN - 1) / PD_NAME_ALIGN * PD_NAME_ALIGN);

	strbuf_add(sb, (const char *)&len, sizeof(len));
	strbuf_add(sb, s, n);
	strbuf_add(sb, pad, len - n);
}

static void add_u32(struct strbuf *sb, uint32_t v)
{
	strbuf_add(sb, (const char *)&v, sizeof(v));
}

static void cpu_description(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && !strncmp(line, "model name", 10)) {
			colon += 1 + strspn(colon + 1, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, size, "%s", colon);
			break;
		}
	}
	fclose(f);
}

static void feature_event_desc(const struct pd_writer *w, struct strbuf *sb)
{
	add_u32(sb, (uint32_t)w->nr_events);
	add_u32(sb, (uint32_t)sizeof(struct perf_event_attr));
	for (size_t i = 0; i < w->nr_events; i++) {
		const struct wevent *e = &w->events[i];

		strbuf_add(sb, (const char *)&e->attr, sizeof(e->attr));
		add_u32(sb, (uint32_t)e->nr_ids);
		add_string(sb, e->name);
		strbuf_add(sb, (const char *)e->ids, e->nr_ids * sizeof(uint64_t));
	}
}

static void feature_cmdline(char *const argv[], struct strbuf *sb)
{
	uint32_t n = 0;

	while (argv && argv[n])
		n++;
	add_u32(sb, n + 1);
	add_string(sb, "hwprof");
	for (uint32_t i = 0; i < n; i++)
		add_string(sb, argv[i]);
}

static void feature(const struct pd_writer *w, enum pd_feature feat, char *const argv[],
		    struct strbuf *sb)
{
	struct utsname u;
	char cpu[256];

	uname(&u);
	switch (feat) {
	case PD_FEAT_HOSTNAME: add_string(sb, u.nodename); break;
	case PD_FEAT_OSRELEASE: add_string(sb, u.release); break;
	case PD_FEAT_VERSION: add_string(sb, "hwprof " HWPROF_VERSION); break;
	case PD_FEAT_ARCH: add_string(sb, u.machine); break;
	case PD_FEAT_NRCPUS: {
		long conf = sysconf(_SC_NPROCESSORS_CONF);
		long onln = sysconf(_SC_NPROCESSORS_ONLN);

		add_u32(sb, (uint32_t)(conf > 0 ? conf : 1));
		add_u32(sb, (uint32_t)(onln > 0 ? onln : 1));
		break;
	}
	case PD_FEAT_CPUDESC:
		cpu_description(cpu, sizeof(cpu));
		add_string(sb, cpu);
		break;
	case PD_FEAT_TOTAL_MEM: {
		uint64_t kb = (uint64_t)sysconf(_SC_PHYS_PAGES) *
			      ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);

		strbuf_add(sb, (const char *)&kb, sizeof(kb));
		break;
	}
	case PD_FEAT_BUILD_ID:
		strbuf_add(sb, w->build_ids.buf ? w->build_ids.buf : "",
			   w->build_ids.len);
		break;
	case PD_FEAT_CMDLINE: feature_cmdline(argv, sb); break;
	case PD_FEAT_EVENT_DESC: feature_event_desc(w, sb); break;
	case PD_FEAT_HWPROF_FILES:
		strbuf_add(sb, w->file_stats.buf ? w->file_stats.buf : "",
			   w->file_stats.len);
		break;
	default: break;
	}
}

static int write_features(struct pd_writer *w, uint64_t table, char *const argv[],
			  uint64_t *bits)
{
	struct pd_file_section secs[ARRAY_SIZE(written_features)];
	struct strbuf body = STRBUF_INIT;
	size_t n = 0;
	int err;

	for (size_t i = 0; i < ARRAY_SIZE(written_features); i++) {
		enum pd_feature feat = written_features[i];
		size_t before = body.len;

		feature(w, feat, argv, &body);
		secs[n].offset = before;
		secs[n].size = body.len - before;
		n++;
		pd_feature_set(bits, feat);
	}
	if (strbuf_failed(&body)) {
		strbuf_release(&body);
		return fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		secs[i].offset += table + n * sizeof(secs[0]);
	err = put(w->f, secs, n * sizeof(secs[0]));
	if (!err)
		err = put(w->f, body.buf, body.len);
	strbuf_release(&body);
	return err;
}

/* The header, at the start of the file: it takes no space of its own. */
static int write_header(struct pd_writer *w, struct pd_file_header *h, int64_t data_size)
{
	h->magic = PD_MAGIC;
	h->size = PD_FILE_HEADER_SIZE;
	h->attr_size = sizeof(struct pd_file_attr);
	h->attrs.offset = w->attrs_offset;
	h->attrs.size = w->data_offset - w->attrs_offset;
	h->data.offset = w->data_offset;
	h->data.size = (uint64_t)data_size;
	if (fseeko(w->f, 0, SEEK_SET))
		return write_error();
	return put(w->f, h, sizeof(*h));
}

/* Drop what the stream holds past @end, in its buffer and in the file. */
static int cut_at(FILE *f, off_t end)
{
	__fpurge(f);
	clearerr(f);
	if (ftruncate(fileno(f), end) || fseeko(f, end, SEEK_SET))
		return write_error();
	return 0;
}

int pd_writer_finish_at(struct pd_writer *w, int64_t data_size, char *const argv[])
{
	struct pd_file_header h = { 0 };
	off_t end = (off_t)(w->data_offset + (uint64_t)data_size);
	int err;

	if (w->pipe) {	/* what went down a pipe cannot be taken back */
		pd_writer_abort(w);
		return fail(-ESPIPE,
			    "a pipe's stream cannot be cut back to its last whole round");
	}
	err = cut_at(w->f, end);
	/* Flushed here: a failure must show before the header goes in. */
	if (!err &&
	    (write_features(w, (uint64_t)end, argv, h.features) || fflush(w->f))) {
		/* No room even for them: a file without features is whole too. */
		memset(h.features, 0, sizeof(h.features));
		err = cut_at(w->f, end);
	}
	if (!err)
		err = write_header(w, &h, data_size);
	if (!err && fflush(w->f))
		err = write_error();
	pd_writer_abort(w);
	return err;
}

int pd_writer_finish(struct pd_writer *w, char *const argv[])
{
	struct pd_file_header h = { 0 };
	int64_t data_size;
	int err;

	if (w->pipe) {	/* a pipe's stream ends where its records do */
		/* as perf inject does: the modules' build-ids, as records */
		err = 0;
		for (size_t at = 0; !err && at < w->build_ids.len;) {
			struct perf_event_header rh;

			memcpy(&rh, w->build_ids.buf + at, sizeof(rh));
			rh.type = PD_RECORD_HEADER_BUILD_ID;
			err = put(w->f, &rh, sizeof(rh)) ?:
			      put(w->f, w->build_ids.buf + at + sizeof(rh),
				  rh.size - sizeof(rh));
			at += rh.size;
		}
		if (!err && fflush(w->f))
			err = write_error();
		if (!err)
			pd_writer_abort(w);
		return err;
	}
	data_size = pd_writer_data_size(w);

	if (data_size < 0) {
		errno = (int)-data_size;
		err = write_error();
		goto out;
	}
	err = write_features(w, w->data_offset + (uint64_t)data_size, argv, h.features) ?:
	      write_header(w, &h, data_size);
	if (!err && fseeko(w->f, 0, SEEK_END))
		err = write_error();
out:
	/* A failed write keeps @w, for pd_writer_finish_at() to end the file
	 * after its data. */
	if (!err)
		pd_writer_abort(w);
	return err;
}
