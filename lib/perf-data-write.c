// SPDX-License-Identifier: MIT
/* Writing perf.data: the layout perf record writes, so that perf report
 * reads it. The header goes first as a placeholder and is written again at
 * the end, when the data's size and the feature sections are known:
 *   header | ids | attributes | data | feature table | feature sections */
#include "sample.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PERF_MAGIC2 0x32454c4946524550ULL
#define FILE_HEADER_SIZE 104
#define NAME_ALIGN 64		/* perf pads its strings to this */

enum {
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_VERSION = 5,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8,
	FEAT_TOTAL_MEM = 10,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_MAX = 13,
};

struct wevent {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
};

struct pd_writer {
	FILE *f;
	struct wevent *events;
	size_t nr_events;
	uint64_t attrs_offset;
	uint64_t data_offset;
};

struct file_section {
	uint64_t offset, size;
};

static int write_error(void)
{
	int err = errno ? -errno : -EIO;

	return hwp_fail(err, "writing the perf.data file failed: %s", strerrordesc_np(-err));
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
	free(w);
}

static int copy_events(struct pd_writer *w, const struct pd_write_event *events, size_t nr)
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

int pd_writer_begin(FILE *f, const struct pd_write_event *events, size_t nr,
		    struct pd_writer **out)
{
	unsigned char zero[FILE_HEADER_SIZE] = { 0 };
	struct pd_writer *w;
	uint64_t off = FILE_HEADER_SIZE;
	int err;

	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w || copy_events(w, events, nr)) {
		pd_writer_abort(w);
		return hwp_fail(-ENOMEM, "out of memory");
	}
	w->f = f;
	err = put(f, zero, sizeof(zero));
	for (size_t i = 0; !err && i < nr; i++) {
		err = put(f, w->events[i].ids, w->events[i].nr_ids * sizeof(uint64_t));
		off += w->events[i].nr_ids * sizeof(uint64_t);
	}
	w->attrs_offset = off;
	for (size_t i = 0, ids = FILE_HEADER_SIZE; !err && i < nr; i++) {
		struct file_section sec = { ids, w->events[i].nr_ids * sizeof(uint64_t) };

		err = put(f, &w->events[i].attr, sizeof(w->events[i].attr));
		if (!err)
			err = put(f, &sec, sizeof(sec));
		ids += sec.size;
		off += sizeof(w->events[i].attr) + sizeof(sec);
	}
	w->data_offset = off;
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

	return pos < 0 ? -errno : (int64_t)(pos - (off_t)w->data_offset);
}

/* ---- feature sections ---- */

static void add_string(struct strbuf *sb, const char *s)
{
	static const char pad[NAME_ALIGN];
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN);

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

static void feature(const struct pd_writer *w, int feat, char *const argv[], struct strbuf *sb)
{
	struct utsname u;
	char cpu[256];

	uname(&u);
	switch (feat) {
	case FEAT_HOSTNAME: add_string(sb, u.nodename); break;
	case FEAT_OSRELEASE: add_string(sb, u.release); break;
	case FEAT_VERSION: add_string(sb, "hwprof " HWPROF_VERSION); break;
	case FEAT_ARCH: add_string(sb, u.machine); break;
	case FEAT_NRCPUS: {
		long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

		add_u32(sb, (uint32_t)(conf > 0 ? conf : 1));
		add_u32(sb, (uint32_t)(onln > 0 ? onln : 1));
		break;
	}
	case FEAT_CPUDESC:
		cpu_description(cpu, sizeof(cpu));
		add_string(sb, cpu);
		break;
	case FEAT_TOTAL_MEM: {
		uint64_t kb = (uint64_t)sysconf(_SC_PHYS_PAGES) *
			      ((uint64_t)sysconf(_SC_PAGESIZE) / 1024);

		strbuf_add(sb, (const char *)&kb, sizeof(kb));
		break;
	}
	case FEAT_CMDLINE: feature_cmdline(argv, sb); break;
	case FEAT_EVENT_DESC: feature_event_desc(w, sb); break;
	}
}

static int write_features(struct pd_writer *w, uint64_t table, char *const argv[],
			  uint64_t *bits)
{
	struct file_section secs[FEAT_MAX];
	struct strbuf body = STRBUF_INIT;
	size_t n = 0;
	int err;

	for (int feat = FEAT_HOSTNAME; feat < FEAT_MAX; feat++) {
		size_t before = body.len;

		if (feat == 9)	/* CPUID: perf's vendor,family,model,stepping; not kept */
			continue;
		feature(w, feat, argv, &body);
		secs[n].offset = before;
		secs[n].size = body.len - before;
		n++;
		bits[feat / 64] |= 1ULL << (feat % 64);
	}
	if (strbuf_failed(&body)) {
		strbuf_release(&body);
		return hwp_fail(-ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++)
		secs[i].offset += table + n * sizeof(secs[0]);
	err = put(w->f, secs, n * sizeof(secs[0]));
	if (!err)
		err = put(w->f, body.buf, body.len);
	strbuf_release(&body);
	return err;
}

int pd_writer_finish(struct pd_writer *w, char *const argv[])
{
	uint64_t header[FILE_HEADER_SIZE / 8] = { 0 };
	int64_t data_size = pd_writer_data_size(w);
	int err;

	if (data_size < 0) {
		errno = (int)-data_size;
		err = write_error();
		goto out;
	}
	err = write_features(w, w->data_offset + (uint64_t)data_size, argv, &header[9]);
	if (err)
		goto out;
	header[0] = PERF_MAGIC2;
	header[1] = FILE_HEADER_SIZE;
	header[2] = sizeof(struct perf_event_attr) + sizeof(struct file_section);
	header[3] = w->attrs_offset;
	header[4] = w->data_offset - w->attrs_offset;
	header[5] = w->data_offset;
	header[6] = (uint64_t)data_size;
	/* header[7..8]: event_types, unused since 2013 */
	if (fseeko(w->f, 0, SEEK_SET))
		err = write_error();
	else
		err = put(w->f, header, sizeof(header));
	if (!err && fseeko(w->f, 0, SEEK_END))
		err = write_error();
out:
	pd_writer_abort(w);
	return err;
}
