// SPDX-License-Identifier: MIT
/* JSON, schema "hwprof-report/1" (hwprof-formats(5)): the totals, the entries of the
 * report with the fields of their sort key, and the modules that lacked
 * symbols or debug information. Addresses are strings ("0x1139"): a
 * kernel address does not fit a JSON number exactly. */
#include "export/export.h"
#include "util/json-writer.h"

#include <string.h>

struct json_ctx {
	struct json_writer *w;
	enum hwp_sort sort;
};

static void kv_hex(struct json_writer *w, const char *k, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	jw_kv_string(w, k, buf);
}

static void json_callers(struct json_writer *w, const struct hwp_entry *e)
{
	jw_key(w, "callers");
	jw_array_begin(w, false);
	for (size_t i = 0; i < e->nr_callers; i++) {
		jw_object_begin(w);
		jw_kv_string(w, "symbol", e->callers[i].name);
		jw_kv_string(w, "dso", e->callers[i].dso);
		jw_kv_uint(w, "samples", e->callers[i].samples);
		jw_key(w, "percent");
		jw_number(w, e->callers[i].percent);
		jw_object_end(w);
	}
	jw_array_end(w);
}

static void json_source(struct json_writer *w, const struct hwp_entry *e)
{
	char src[256];

	format_source(e->file, e->line, src, sizeof(src));
	jw_kv_string(w, "source", e->file ? src : NULL);
	jw_kv_string(w, "file", e->file);
	jw_key(w, "line");
	if (e->file)
		jw_int(w, e->line);
	else
		jw_null(w);
	jw_kv_string(w, "inlined", e->inlined);
}

static int json_entry(const struct hwp_entry *e, void *arg)
{
	struct json_ctx *c = arg;
	struct json_writer *w = c->w;
	char bytes[64];

	jw_object_begin(w);
	jw_kv_string(w, "name", e->name);
	jw_kv_string(w, "symbol", e->symbol);
	jw_kv_string(w, "dso", e->dso);
	if (e->comm)
		jw_kv_string(w, "comm", e->comm);
	if (e->tid >= 0) {
		jw_kv_uint(w, "pid", (uint64_t)e->tid);
		jw_kv_string(w, "pid_comm", e->thread_comm);
	}
	jw_kv_uint(w, "samples", e->samples);
	jw_kv_uint(w, "period", e->period);
	jw_key(w, "percent");
	jw_number(w, e->percent);
	if (c->sort == HWP_SORT_RIP) {
		if (!e->no_address)
			kv_hex(w, "address", e->address);
		jw_kv_uint(w, "offset", e->offset);
		format_bytes(e->bytes, e->bytes ? e->nr_bytes : 0, bytes, sizeof(bytes));
		jw_kv_string(w, "bytes", e->bytes ? bytes : NULL);
		jw_kv_string(w, "disasm", e->disasm);
	}
	if (c->sort == HWP_SORT_SYM && e->symbol)
		kv_hex(w, "address", e->address);
	if (c->sort == HWP_SORT_RIP || c->sort == HWP_SORT_LINE)
		json_source(w, e);
	json_callers(w, e);
	jw_object_end(w);
	return 0;
}

/* The lists of modules, by what they lack or where they were read from. */
enum json_module_list { NO_SYMBOLS, NO_DEBUGINFO, READ_FROM_COPIES };

struct json_modules {
	struct json_writer *w;
	enum json_module_list list;
};

static int json_module(const struct hwp_module_info *m, void *arg)
{
	struct json_modules *jm = arg;

	if (jm->list == READ_FROM_COPIES ? !m->read_from :
	    jm->list == NO_DEBUGINFO ? m->has_debuginfo : m->has_symbols)
		return 0;
	jw_object_begin(jm->w);
	jw_kv_string(jm->w, "dso", m->path);
	jw_kv_uint(jm->w, "samples", m->samples);
	if (jm->list == READ_FROM_COPIES) {
		jw_kv_string(jm->w, "read_from", m->read_from);
		jw_key(jm->w, "debuginfod");
		jw_bool(jm->w, m->from_debuginfod);
	} else {
		jw_kv_string(jm->w, "reason",
			     jm->list == NO_DEBUGINFO ? m->no_debuginfo : m->no_symbols);
	}
	jw_object_end(jm->w);
	return 0;
}

static void json_totals(struct json_writer *w, const struct hwp_profile_info *in,
			const char *sort)
{
	jw_kv_string(w, "schema", "hwprof-report/1");
	jw_kv_string(w, "input", in->input);
	jw_kv_string(w, "event", in->event);
	jw_kv_string(w, "sort", sort);
	jw_kv_uint(w, "total_samples", in->samples);
	jw_kv_uint(w, "total_period", in->period);
	jw_kv_uint(w, "filtered_samples", in->filtered_samples);
	jw_kv_uint(w, "lost_samples", in->lost);
	jw_key(w, "lost_percent");
	jw_number(w, export_lost_percent(in));
	jw_kv_uint(w, "throttled", in->throttled);
	jw_kv_uint(w, "skipped_records", in->skipped);
	jw_kv_uint(w, "other_samples", in->other_samples);
	jw_key(w, "callchains");
	jw_bool(w, in->callchains);
	jw_key(w, "off_cpu");
	jw_bool(w, in->off_cpu);
	if (in->off_cpu)
		jw_kv_uint(w, "off_cpu_unmatched", in->off_cpu_unmatched);
	jw_kv_uint(w, "other_cpus", in->other_cpus);
	if (in->callchains && !in->dwarf) {
		jw_key(w, "frame_pointers");
		jw_object_begin(w);
		jw_kv_uint(w, "chains", in->fp_chains);
		jw_kv_uint(w, "one_frame", in->fp_one_frame);
		jw_object_end(w);
	}
	if (!in->dwarf)
		return;
	jw_key(w, "unwind");
	jw_object_begin(w);
	jw_kv_string(w, "unavailable", in->unwind_unavailable);
	jw_kv_uint(w, "stack_size", in->stack_size);
	jw_kv_uint(w, "to_entry", in->unwind_entry);
	jw_kv_uint(w, "stack_short", in->unwind_stack_short);
	jw_kv_uint(w, "stack_size_needed", in->stack_size_needed);
	jw_kv_uint(w, "no_unwind_info", in->unwind_no_info);
	jw_kv_string(w, "no_unwind_info_modules", in->unwind_no_info_modules);
	jw_kv_uint(w, "failed", in->unwind_failed);
	jw_object_end(w);
}

/* The chains of a DWARF profile, each flagged when it stopped early. */
static int json_stack(const struct hwp_stack *st, void *arg)
{
	struct json_writer *w = arg;

	jw_object_begin(w);
	jw_key(w, "frames");
	jw_array_begin(w, true);
	for (size_t i = 0; i < st->nr_frames; i++)
		jw_string(w, st->frames[i]);
	jw_array_end(w);
	jw_kv_uint(w, "samples", st->samples);
	jw_kv_uint(w, "period", st->period);
	jw_key(w, "truncated");
	jw_bool(w, st->truncated);
	jw_object_end(w);
	return 0;
}

int export_json(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct json_writer w;
	struct json_ctx c = { &w, o->sort };
	struct json_modules jm = { &w, NO_SYMBOLS };
	struct sort_keys k;
	bool lines;
	int err = sort_keys_of(o, &k);

	if (err)
		return err;
	c.sort = k.site;
	lines = k.site == HWP_SORT_RIP || k.site == HWP_SORT_LINE;
	hwp_profile_info(p, &in);
	jw_init(&w, f, true);
	jw_object_begin(&w);
	json_totals(&w, &in, k.name);
	jw_key(&w, "entries");
	jw_array_begin(&w, false);
	err = sort_keys_foreach(p, &k, o->top, json_entry, &c);
	jw_array_end(&w);
	if (!err && in.dwarf) {
		jw_key(&w, "stacks");
		jw_array_begin(&w, false);
		err = hwp_profile_foreach_stack(p, json_stack, &w);
		jw_array_end(&w);
	}
	/* Debug information is looked for only by the reports that show lines. */
	for (int list = NO_SYMBOLS; !err && list <= READ_FROM_COPIES; list++) {
		static const char *const keys[] = {
			"modules_without_symbols", "modules_without_debuginfo",
			"modules_read_from_copies",
		};

		if (list == NO_DEBUGINFO && !lines)
			continue;
		jm.list = (enum json_module_list)list;
		jw_key(&w, keys[list]);
		jw_array_begin(&w, false);
		err = profile_foreach_module(p, json_module, &jm);
		jw_array_end(&w);
	}
	jw_object_end(&w);
	jw_finish(&w);
	return err;
}
