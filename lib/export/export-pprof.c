// SPDX-License-Identifier: MIT
/* pprof's profile.proto, gzipped: what go tool pprof, Parca, Pyroscope and
 * Google Cloud Profiler read. One sample a distinct call chain of a
 * thread, labelled with its comm, pid, tid, the recording's host (and its
 * cgroup, where the recording has cgroup ids), its
 * locations the chain's module addresses, the sampled one first, valued by
 * the summed period of each event of the file (nanoseconds for the clocks,
 * a count for the others), the reported event's the default, so that
 * pprof's percentages are 'hwprof report's Overhead.
 * A location's lines are its source line and, where DWARF says functions
 * were inlined there, one line each, the innermost first and the enclosing
 * function's last, each at its call of the one before, as profile.proto
 * orders them.
 *
 * The encoder is our own (util/protobuf.c, 100 lines) rather than
 * protobuf-c: profile.proto is a flat schema of integers, strings and
 * packed integers, which the wire format's two cases (varints and
 * length-delimited fields) cover, and an encoder that small is read in
 * minutes, where protobuf-c would add a library, a code generator and
 * generated sources to the build for the same bytes. */
#include "export/export.h"
#include "util/gzip.h"
#include "util/hash.h"
#include "util/protobuf.h"
#include "util/utf8.h"

#include <stdlib.h>
#include <string.h>

/* profile.proto's field numbers, the one place they are written down, as
 * github.com/google/pprof's proto/profile.proto (package perftools.profiles)
 * numbers them. */
enum {
	PROFILE_SAMPLE_TYPE = 1,	/* repeated ValueType */
	PROFILE_SAMPLE = 2,		/* repeated Sample */
	PROFILE_MAPPING = 3,		/* repeated Mapping */
	PROFILE_LOCATION = 4,		/* repeated Location */
	PROFILE_FUNCTION = 5,		/* repeated Function */
	PROFILE_STRING_TABLE = 6,	/* repeated string, [0] = "" */
	PROFILE_DURATION_NANOS = 10,	/* int64 */
	PROFILE_PERIOD_TYPE = 11,	/* ValueType */
	PROFILE_PERIOD = 12,		/* int64 */
	PROFILE_COMMENT = 13,		/* repeated int64, into the string table */
	PROFILE_DEFAULT_SAMPLE_TYPE = 14,	/* int64, into the string table */

	VALUE_TYPE_TYPE = 1,		/* int64, into the string table */
	VALUE_TYPE_UNIT = 2,		/* int64, into the string table */

	SAMPLE_LOCATION_ID = 1,		/* repeated uint64, the leaf first */
	SAMPLE_VALUE = 2,		/* repeated int64, one per sample_type */
	SAMPLE_LABEL = 3,		/* repeated Label */

	LABEL_KEY = 1,			/* int64, into the string table */
	LABEL_STR = 2,			/* int64, into the string table */
	LABEL_NUM = 3,			/* int64 */

	MAPPING_ID = 1,			/* uint64 */
	MAPPING_MEMORY_START = 2,	/* uint64 */
	MAPPING_MEMORY_LIMIT = 3,	/* uint64 */
	MAPPING_FILE_OFFSET = 4,	/* uint64 */
	MAPPING_FILENAME = 5,		/* int64, into the string table */
	MAPPING_BUILD_ID = 6,		/* int64, into the string table */
	MAPPING_HAS_FUNCTIONS = 7,	/* bool */
	MAPPING_HAS_FILENAMES = 8,	/* bool */
	MAPPING_HAS_LINE_NUMBERS = 9,	/* bool */
	MAPPING_HAS_INLINE_FRAMES = 10,	/* bool */

	LOCATION_ID = 1,		/* uint64 */
	LOCATION_MAPPING_ID = 2,	/* uint64 */
	LOCATION_ADDRESS = 3,		/* uint64 */
	LOCATION_LINE = 4,		/* repeated Line, the innermost inline first */

	LINE_FUNCTION_ID = 1,		/* uint64 */
	LINE_LINE = 2,			/* int64 */

	FUNCTION_ID = 1,		/* uint64 */
	FUNCTION_NAME = 2,		/* int64, into the string table */
	FUNCTION_SYSTEM_NAME = 3,	/* int64, into the string table */
	FUNCTION_FILENAME = 4,		/* int64, into the string table */
	FUNCTION_START_LINE = 5,	/* int64 */
};

/* Compressed in pieces of this size: memory stays that of the profile. */
#define FLUSH_AT (256 * 1024)

struct pprof_function {
	const char *name, *file;	/* interned by the profile */
	unsigned int line;
};

struct pprof_mapping {
	uint32_t id;		/* 0: no location in this module */
	const char *path;	/* interned by the profile */
	const struct pd_build_id *build_id;	/* the recording's, or NULL */
	uint64_t limit;		/* past its highest address */
	uint64_t period;	/* of the samples taken in it */
	bool lines, inlines;
};

struct pprof {
	struct hwp_profile *p;
	struct gz_writer *gz;
	struct pb_buf out, msg, sub;
	struct strtab strs;
	struct strbuf clean;
	uint32_t *loc_of_site;	/* a site's location id, 0 before it has one */
	uint32_t *sites;	/* location id - 1 → its site */
	uint64_t *leaf_period;	/* location id - 1 → the period sampled there */
	size_t nr_locs;
	uint64_t *ids;		/* one sample's location ids */
	size_t cap_ids;
	struct pprof_function *funcs;
	size_t nr_funcs, cap_funcs;
	struct hidx func_idx;
	size_t nr_events, event;	/* the file's, and the reported one */
	const char *host;	/* where it was recorded, or NULL */
	struct pprof_mapping *maps;	/* by module */
	uint32_t nr_maps;
	int err;
};

/* A string's number in the table. profile.proto's strings are UTF-8, and
 * strict readers (Go's protobuf) refuse a profile with anything else, so
 * invalid bytes of a file's names are written as U+FFFD. */
static uint64_t str_id(struct pprof *pp, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, at = 0;
	long id;

	if (!s)
		return 0;
	len = strlen(s);
	while (at < len) {
		int n = utf8_char(u + at, len - at);

		if (n < 0)
			break;
		at += (size_t)n;
	}
	if (at < len) {
		strbuf_reset(&pp->clean);
		for (at = 0; at < len;) {
			int n = utf8_char(u + at, len - at);

			if (n > 0)
				strbuf_add(&pp->clean, s + at, (size_t)n);
			else
				strbuf_adds(&pp->clean, "\xef\xbf\xbd");
			at += (size_t)(n > 0 ? n : -n);
		}
		if (strbuf_failed(&pp->clean))
			goto nomem;
		s = strbuf_str(&pp->clean);
		len = pp->clean.len;
	}
	id = strtab_index(&pp->strs, s, len);
	if (id >= 0)
		return (uint64_t)id;
nomem:
	pp->err = -ENOMEM;
	return 0;
}

/* Hand the finished top-level fields to gzip once they are many. */
static void flush(struct pprof *pp, size_t at_least)
{
	int err;

	if (pp->err || pp->out.len < at_least)
		return;
	if (pp->out.failed) {
		pp->err = -ENOMEM;
		return;
	}
	err = gz_write(pp->gz, pp->out.b, pp->out.len);
	if (err)
		pp->err = err;
	pb_reset(&pp->out);
}

static void value_type(struct pprof *pp, uint32_t field, const char *type,
		       const char *unit)
{
	pb_reset(&pp->msg);
	pb_int(&pp->msg, VALUE_TYPE_TYPE, (int64_t)str_id(pp, type));
	pb_int(&pp->msg, VALUE_TYPE_UNIT, (int64_t)str_id(pp, unit));
	pb_message(&pp->out, field, &pp->msg);
}

static uint32_t location_of(struct pprof *pp, uint32_t site)
{
	if (!pp->loc_of_site[site]) {
		pp->sites[pp->nr_locs] = site;
		pp->loc_of_site[site] = (uint32_t)++pp->nr_locs;
	}
	return pp->loc_of_site[site];
}

static void label(struct pprof *pp, const char *key, const char *str, int64_t num)
{
	pb_reset(&pp->sub);
	pb_int(&pp->sub, LABEL_KEY, (int64_t)str_id(pp, key));
	if (str)
		pb_int(&pp->sub, LABEL_STR, (int64_t)str_id(pp, str));
	else
		pb_int(&pp->sub, LABEL_NUM, num);
	pb_message(&pp->msg, SAMPLE_LABEL, &pp->sub);
}

/* A sample's labels, as continuous-profiling backends group by them: the
 * thread's name, process and thread ids, the recording's host, and the
 * cgroup's path where the recording has it. */
static void labels(struct pprof *pp, const struct profile_labels *l)
{
	if (l->comm)
		label(pp, "comm", l->comm, 0);
	label(pp, "pid", NULL, l->pid);
	label(pp, "tid", NULL, l->tid);
	if (pp->host)
		label(pp, "host", pp->host, 0);
	if (l->cgroup)
		label(pp, "cgroup", l->cgroup, 0);
}

static int sample(const uint32_t *sites, size_t nr, const uint64_t *periods,
		  const struct profile_labels *l, void *ctx)
{
	struct pprof *pp = ctx;

	if (vec_reserve(&pp->ids, &pp->cap_ids, nr, sizeof(*pp->ids)))
		return pp->err = -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		pp->ids[i] = location_of(pp, sites[i]);
	if (nr)
		pp->leaf_period[pp->ids[0] - 1] += periods[pp->event];
	pb_reset(&pp->msg);
	pb_packed(&pp->msg, SAMPLE_LOCATION_ID, pp->ids, nr);
	pb_packed(&pp->msg, SAMPLE_VALUE, periods, pp->nr_events);
	labels(pp, l);
	pb_message(&pp->out, PROFILE_SAMPLE, &pp->msg);
	flush(pp, FLUSH_AT);
	return pp->err;
}

static bool func_eq(size_t idx, const void *key, const void *ctx)
{
	const struct pprof *pp = ctx;
	const struct pprof_function *a = &pp->funcs[idx], *b = key;

	/* Interned strings: equal strings are the same pointer. */
	return a->name == b->name && a->file == b->file && a->line == b->line;
}

/* The id of function (@name, @file, @line), numbered from 1 as first seen. */
static uint64_t function_id(struct pprof *pp, const char *name, const char *file,
			    unsigned int line)
{
	struct pprof_function k = { name, file, line };
	uint64_t h = hash_mix(hash_mix(hash_u64((uint64_t)(uintptr_t)name),
				       (uint64_t)(uintptr_t)file), line);
	long i = hidx_find(&pp->func_idx, h, func_eq, &k, pp);

	if (i >= 0)
		return (uint64_t)i + 1;
	if (vec_reserve(&pp->funcs, &pp->cap_funcs, pp->nr_funcs + 1,
			sizeof(*pp->funcs)) ||
	    hidx_add(&pp->func_idx, h, pp->nr_funcs)) {
		pp->err = -ENOMEM;
		return 0;
	}
	pp->funcs[pp->nr_funcs++] = k;
	return pp->nr_funcs;
}

static void line(struct pprof *pp, uint64_t function, unsigned int lineno)
{
	pb_reset(&pp->sub);
	pb_uint(&pp->sub, LINE_FUNCTION_ID, function);
	pb_int(&pp->sub, LINE_LINE, lineno);
	pb_message(&pp->msg, LOCATION_LINE, &pp->sub);
}

static uint32_t mapping_of(struct pprof *pp, const struct profile_site *s, uint64_t id)
{
	struct pprof_mapping *m = &pp->maps[s->module];

	m->period += pp->leaf_period[id - 1];
	if (!m->id)
		m->id = ++pp->nr_maps;
	m->path = s->module_path;
	m->build_id = s->build_id->size ? s->build_id : NULL;
	if (s->address >= m->limit)
		m->limit = s->address == UINT64_MAX ? UINT64_MAX : s->address + 1;
	m->lines |= s->file != NULL;
	m->inlines |= s->nr_frames > 1;
	return m->id;
}

/* A location's lines, the innermost first: one a frame of its site, the
 * functions inlined there (each in the file of its line), then its own. */
static void location_lines(struct pprof *pp, const struct profile_site *s)
{
	const struct profile_frame *own = &s->frames[s->nr_frames - 1];

	for (size_t i = 0; i + 1 < s->nr_frames; i++)
		line(pp, function_id(pp, s->frames[i].function, s->frames[i].file, 0),
		     s->frames[i].line);
	if (s->nr_frames == 1 && s->file && s->file != s->function_file) {
		/* A line of another file than the function's entry (code
		 * from a header, without DWARF's inline record): pprof takes
		 * a line's file from its function, so this function entry
		 * names that file. */
		line(pp, function_id(pp, s->function, s->file, 0), s->line);
		return;
	}
	line(pp, function_id(pp, s->function, s->function_file, s->function_line),
	     own->line);
}

static void location(struct pprof *pp, uint64_t id)
{
	struct profile_site s;

	if (profile_site_get(pp->p, pp->sites[id - 1], &s)) {
		pp->err = -ENOMEM;
		return;
	}
	pb_reset(&pp->msg);
	pb_uint(&pp->msg, LOCATION_ID, id);
	pb_uint(&pp->msg, LOCATION_MAPPING_ID, mapping_of(pp, &s, id));
	pb_uint(&pp->msg, LOCATION_ADDRESS, s.address);
	location_lines(pp, &s);
	pb_message(&pp->out, PROFILE_LOCATION, &pp->msg);
	flush(pp, FLUSH_AT);
}

static void functions(struct pprof *pp)
{
	for (size_t i = 0; i < pp->nr_funcs && !pp->err; i++) {
		const struct pprof_function *f = &pp->funcs[i];
		uint64_t name = str_id(pp, f->name);

		pb_reset(&pp->msg);
		pb_uint(&pp->msg, FUNCTION_ID, i + 1);
		pb_int(&pp->msg, FUNCTION_NAME, (int64_t)name);
		pb_int(&pp->msg, FUNCTION_SYSTEM_NAME, (int64_t)name);
		pb_int(&pp->msg, FUNCTION_FILENAME, (int64_t)str_id(pp, f->file));
		pb_int(&pp->msg, FUNCTION_START_LINE, f->line);
		pb_message(&pp->out, PROFILE_FUNCTION, &pp->msg);
		flush(pp, FLUSH_AT);
	}
}

/* A module's addresses are its own (objdump's, as 'report --sort rip'
 * shows them), whatever process mapped it where: its mapping starts at 0.
 * The profile names each module by its path, and by its build-id where the
 * recording has one. */
static void mapping(struct pprof *pp, const struct pprof_mapping *m)
{
	pb_reset(&pp->msg);
	pb_uint(&pp->msg, MAPPING_ID, m->id);
	pb_uint(&pp->msg, MAPPING_MEMORY_START, 0);
	pb_uint(&pp->msg, MAPPING_MEMORY_LIMIT, m->limit);
	pb_uint(&pp->msg, MAPPING_FILE_OFFSET, 0);
	pb_int(&pp->msg, MAPPING_FILENAME, (int64_t)str_id(pp, m->path));
	if (m->build_id) {
		char hex[2 * PD_BUILD_ID_MAX + 1];

		pd_build_id_hex(m->build_id, hex, sizeof(hex));
		pb_int(&pp->msg, MAPPING_BUILD_ID, (int64_t)str_id(pp, hex));
	}
	pb_uint(&pp->msg, MAPPING_HAS_FUNCTIONS, 1);
	pb_uint(&pp->msg, MAPPING_HAS_FILENAMES, m->lines);
	pb_uint(&pp->msg, MAPPING_HAS_LINE_NUMBERS, m->lines);
	pb_uint(&pp->msg, MAPPING_HAS_INLINE_FRAMES, m->inlines);
	pb_message(&pp->out, PROFILE_MAPPING, &pp->msg);
}

/* pprof names the first mapping as the profile's program ("File:"): the
 * file module of the most samples goes first, not the kernel's. */
static void mappings(struct pprof *pp, size_t nr_modules)
{
	size_t first = nr_modules;

	for (size_t i = 0; i < nr_modules; i++) {
		const struct pprof_mapping *m = &pp->maps[i];

		if (m->id && m->path[0] != '[' &&
		    (first == nr_modules || m->period > pp->maps[first].period))
			first = i;
	}
	if (first < nr_modules)
		mapping(pp, &pp->maps[first]);
	for (size_t i = 0; i < nr_modules; i++)
		if (pp->maps[i].id && i != first)
			mapping(pp, &pp->maps[i]);
}

static void comment(struct pprof *pp, const char *what, const char *s, const char *more)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s)
		return;
	strbuf_addf(&sb, "%s%s%s", what, s, more ? more : "");
	if (strbuf_failed(&sb))
		pp->err = -ENOMEM;
	else
		pb_int(&pp->out, PROFILE_COMMENT, (int64_t)str_id(pp, strbuf_str(&sb)));
	strbuf_release(&sb);
}

static const char *unit(const struct hwp_profile *p, const char *event)
{
	return event_in_ns(p, event) ? "nanoseconds" : "count";
}

/* A value a sample for each event of the file, in its order; pprof shows
 * the reported one (default_sample_type), the others with -sample_index. */
static void header(struct pprof *pp, const struct hwp_profile_info *info)
{
	struct profile_recording rec;
	char kernel[300] = "";

	profile_recording(pp->p, &rec);
	pp->nr_events = info->nr_events;
	pp->event = rec.event;
	pp->host = rec.hostname;
	str_id(pp, "");		/* string 0, as profile.proto requires */
	for (size_t i = 0; i < info->nr_events; i++) {
		const char *name = profile_event_name(pp->p, i);

		value_type(pp, PROFILE_SAMPLE_TYPE, name, unit(pp->p, name));
	}
	pb_int(&pp->out, PROFILE_DEFAULT_SAMPLE_TYPE, (int64_t)str_id(pp, info->event));
	value_type(pp, PROFILE_PERIOD_TYPE, info->event, unit(pp->p, info->event));
	pb_int(&pp->out, PROFILE_PERIOD, (int64_t)rec.sample_period);
	pb_int(&pp->out, PROFILE_DURATION_NANOS, (int64_t)rec.duration_ns);
	comment(pp, "hwprof " HWPROF_VERSION ": ", info->input, NULL);
	comment(pp, "command: ", rec.cmdline, NULL);
	if (rec.osrelease)
		snprintf(kernel, sizeof(kernel), " (kernel %s)", rec.osrelease);
	comment(pp, "host: ", rec.hostname, kernel);
	/* why kernel symbols are not named, and what may not match */
	comment(pp, "warning: ", info->host_warning, NULL);
}

static void strings(struct pprof *pp)
{
	for (size_t i = 0; i < pp->strs.nr && !pp->err; i++) {
		pb_bytes(&pp->out, PROFILE_STRING_TABLE, pp->strs.strs[i],
			 strlen(pp->strs.strs[i]));
		flush(pp, FLUSH_AT);
	}
}

static int write_profile(struct pprof *pp, const struct hwp_profile_info *info)
{
	size_t nr_sites = profile_nr_sites(pp->p), nr_modules = profile_nr_modules(pp->p);
	int err;

	pp->loc_of_site = calloc(nr_sites + 1, sizeof(*pp->loc_of_site));
	pp->sites = malloc((nr_sites + 1) * sizeof(*pp->sites));
	pp->leaf_period = calloc(nr_sites + 1, sizeof(*pp->leaf_period));
	pp->maps = calloc(nr_modules + 1, sizeof(*pp->maps));
	if (!pp->loc_of_site || !pp->sites || !pp->leaf_period || !pp->maps)
		return -ENOMEM;
	header(pp, info);
	err = profile_foreach_labelled_chain(pp->p, sample, pp);
	if (err)
		return err;
	for (size_t id = 1; id <= pp->nr_locs && !pp->err; id++)
		location(pp, id);
	functions(pp);
	mappings(pp, nr_modules);
	strings(pp);
	flush(pp, 0);
	return pp->err;
}

int export_pprof(struct hwp_profile *p, FILE *f)
{
	struct hwp_profile_info info = { .sz = sizeof(info) };
	struct pprof pp = { .p = p };
	int err = hwp_profile_info(p, &info), gz_err;

	if (err)
		return err;
	err = gz_begin(f, &pp.gz);
	if (err == -ELIBACC)
		return fail(err, "%s", gz_unavailable());
	if (err)
		return fail(err, "out of memory");
	err = write_profile(&pp, &info);
	gz_err = gz_finish(pp.gz);
	if (!err)
		err = gz_err;
	pb_release(&pp.out);
	pb_release(&pp.msg);
	pb_release(&pp.sub);
	strtab_release(&pp.strs);
	strbuf_release(&pp.clean);
	hidx_release(&pp.func_idx);
	free(pp.loc_of_site);
	free(pp.sites);
	free(pp.leaf_period);
	free(pp.ids);
	free(pp.funcs);
	free(pp.maps);
	if (err == -EIO)	/* the stream's error, which the dispatcher explains */
		return 0;
	if (err == -ENOMEM)
		return fail(-ENOMEM, "out of memory");
	return err;
}
