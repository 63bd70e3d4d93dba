// SPDX-License-Identifier: MIT
/* The text report: perf report --stdio's layout, one row an entry, the
 * callers below each row when there are call chains, and what the report
 * could not resolve at the end. Written through the public walks. */
#include "export/export.h"
#include "util/format.h"
#include "util/text.h"

#include <inttypes.h>
#include <string.h>

#define MAX_NAME_WIDTH 48
#define TEXT_CALLERS 3

/* Names and paths come from the perf.data file, and may hold any byte
 * but NUL: an escape sequence or a newline in one would reach the terminal
 * or break the rows. The text escapes each control character (\x1b), as
 * messages do, before the columns are measured (a source line keeps its
 * tabs). */
struct printable {
	struct strbuf sb[6];	/* the strings last made printable */
	unsigned int next;
};

static const char *printable_as(struct printable *pr, const char *s, bool tabs_ok)
{
	struct strbuf *sb;

	if (!s)
		return s;
	sb = &pr->sb[pr->next++ % ARRAY_SIZE(pr->sb)];
	strbuf_reset(sb);
	if (!strbuf_add_escaped(sb, s, tabs_ok))
		return s;
	return strbuf_failed(sb) ? "?" : strbuf_str(sb);
}

static const char *printable(struct printable *pr, const char *s)
{
	return printable_as(pr, s, false);
}

static void printable_release(struct printable *pr)
{
	for (size_t i = 0; i < ARRAY_SIZE(pr->sb); i++)
		strbuf_release(&pr->sb[i]);
}

struct columns {
	int name, sym, source, bytes, dso, comm;
};

struct text_ctx {
	FILE *f;
	enum hwp_sort sort;	/* the key of sites, or comm or pid alone */
	bool comm, pid;		/* columns of thread keys, first */
	struct columns w;
	bool measure;		/* first pass: widths only */
	bool off_cpu;		/* periods are nanoseconds off the CPU: a column */
	struct printable pr;
};

static int clamp_width(size_t n)
{
	return n > MAX_NAME_WIDTH ? MAX_NAME_WIDTH : (int)n;
}

static void widen(int *w, const char *s)
{
	int n = s ? clamp_width(strlen(s)) : 0;

	if (n > *w)
		*w = n;
}

/* Modules by their file name, as perf's Shared Object column. */
static const char *short_dso(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* The comm and pid columns, as perf's Command and Pid:Command. */
static void text_thread(struct text_ctx *t, const struct hwp_entry *e)
{
	const char *comm = printable(&t->pr, e->comm ? e->comm : "?");
	/* the last column: no padding after it */
	bool alone = t->sort == HWP_SORT_COMM || t->sort == HWP_SORT_PID;

	if (t->comm)
		fprintf(t->f, "%-*s%s", alone && !t->pid ? 0 : t->w.comm, comm,
			alone && !t->pid ? "" : "  ");
	if (t->pid)
		fprintf(t->f, "%7lld:%-*s%s", (long long)e->tid, alone ? 0 : t->w.comm,
			printable(&t->pr, e->thread_comm ? e->thread_comm : "?"),
			alone ? "" : "  ");
}

static int text_row(const struct hwp_entry *e, void *arg)
{
	struct text_ctx *t = arg;
	const char *dso = printable(&t->pr, short_dso(e->dso));
	const char *name = printable(&t->pr, e->name);
	char samples[32], source[256] = "", bytes[64] = "", sym[256];
	bool lineless = t->sort == HWP_SORT_LINE && !e->file;

	/* Where DWARF says a function was inlined, the line is its. */
	if (e->inlined)
		snprintf(sym, sizeof(sym), "%s (inlined %s)", e->symbol ? e->symbol : "?",
			 e->inlined);
	else
		snprintf(sym, sizeof(sym), "%s", e->symbol ? e->symbol : "");
	format_source(e->file, e->line, source, sizeof(source));
	if (e->bytes)
		format_bytes(e->bytes, e->nr_bytes, bytes, sizeof(bytes));
	if (t->measure) {
		widen(&t->w.name, lineless ? "?" : name);
		widen(&t->w.sym, lineless && !sym[0] ? name : printable(&t->pr, sym));
		widen(&t->w.source, printable(&t->pr, source));
		widen(&t->w.bytes, bytes);
		widen(&t->w.dso, dso);
		widen(&t->w.comm, e->comm ? printable(&t->pr, e->comm) : NULL);
		if (e->thread_comm)
			widen(&t->w.comm, printable(&t->pr, e->thread_comm));
		return 0;
	}
	fmt_grouped((double)e->samples, true, samples, sizeof(samples));
	fprintf(t->f, "  %7.2f%%  %10s  ", e->percent, samples);
	if (t->off_cpu)
		fprintf(t->f, "%12.3f  ", (double)e->period / 1e6);
	text_thread(t, e);
	switch (t->sort) {
	case HWP_SORT_COMM:
	case HWP_SORT_PID:
		fputc('\n', t->f);
		break;
	case HWP_SORT_DSO:
		fprintf(t->f, "%s\n", printable(&t->pr, e->dso));
		break;
	case HWP_SORT_CPU:
		fprintf(t->f, "%s\n", e->name);
		break;
	case HWP_SORT_SYM:
		fprintf(t->f, "%-*s  %s\n", t->w.name, name, dso);
		break;
	case HWP_SORT_LINE:
		/* A row without a line (the kernel's, a module without debug
		 * information) is its symbol's, or its address's: in the
		 * Symbol column, the Source one unknown. */
		fprintf(t->f, "%-*s  %-*s  %s\n", t->w.name, lineless ? "?" : name,
			t->w.sym, lineless && !sym[0] ? name : printable(&t->pr, sym),
			dso);
		break;
	case HWP_SORT_RIP:
		/* a module not read: no address as objdump shows it */
		if (e->no_address)
			fprintf(t->f, "%18s", "?");
		else
			fprintf(t->f, "%18llx", (unsigned long long)e->address);
		fprintf(t->f, "  %-*s  %-*s  %-*s  %-*s  %s\n", t->w.name, name, t->w.dso,
			dso, t->w.source, printable(&t->pr, source), t->w.bytes, bytes,
			e->disasm ? e->disasm : "?");
		break;
	}
	for (size_t i = 0; i < e->nr_callers && i < TEXT_CALLERS; i++)
		fprintf(t->f, "%25s%s %s (%.1f%%)\n", "", i ? "  " : "<-",
			printable(&t->pr, e->callers[i].name), e->callers[i].percent);
	return 0;
}

static void text_columns(struct text_ctx *t)
{
	static const char dots[] = "................................................";
	bool alone = t->sort == HWP_SORT_COMM || t->sort == HWP_SORT_PID;

	fprintf(t->f, "# %8s  %10s  ", "Overhead", "Samples");
	if (t->off_cpu)
		fprintf(t->f, "%12s  ", "Off-CPU ms");
	if (t->comm)
		fprintf(t->f, "%-*s%s", alone && !t->pid ? 0 : t->w.comm, "Command",
			alone && !t->pid ? "" : "  ");
	if (t->pid)
		fprintf(t->f, "%*s%s", 8 + t->w.comm, "Pid:Command", alone ? "" : "  ");
	switch (t->sort) {
	case HWP_SORT_COMM:
	case HWP_SORT_PID:
		fputc('\n', t->f);
		break;
	case HWP_SORT_DSO:
		fprintf(t->f, "Module\n");
		break;
	case HWP_SORT_CPU:
		fprintf(t->f, "CPU\n");
		break;
	case HWP_SORT_SYM:
		fprintf(t->f, "%-*s  Module\n", t->w.name, "Symbol");
		break;
	case HWP_SORT_LINE:
		fprintf(t->f, "%-*s  %-*s  Module\n", t->w.name, "Source", t->w.sym,
			"Symbol");
		break;
	case HWP_SORT_RIP:
		fprintf(t->f, "%18s  %-*s  %-*s  %-*s  %-*s  Disassembly\n", "Address",
			t->w.name, "Symbol+offset", t->w.dso, "Module", t->w.source,
			"Source", t->w.bytes, "Bytes");
		break;
	}
	fprintf(t->f, "# %.8s  %.10s  %s%.*s%s%.*s%s%.*s\n", dots, dots,
		t->off_cpu ? "............  " : "", t->comm ? t->w.comm : 0, dots,
		t->comm && (t->pid || !alone) ? "  " : "", t->pid ? 8 + t->w.comm : 0,
		dots, t->pid && !alone ? "  " : "",
		t->sort == HWP_SORT_RIP ? 18 : t->sort == HWP_SORT_DSO ? 6 :
		t->sort == HWP_SORT_CPU ? 3 :
		alone ? 0 : t->w.name, dots);
}

/* How the DWARF chains unwound: a chain that stopped early is not the
 * whole story, and the header says how many, and why. */
static void text_unwind(FILE *f, const struct hwp_profile_info *in, struct printable *pr)
{
	uint64_t all = in->unwind_entry + in->unwind_stack_short + in->unwind_no_info +
		       in->unwind_failed;
	char n[32], m[32];

	if (in->unwind_unavailable) {
		fprintf(f, "# DWARF call chains: not unwound, only their kernel part is shown: %s\n",
			in->unwind_unavailable);
		return;
	}
	fmt_grouped((double)in->unwind_entry, true, n, sizeof(n));
	fmt_grouped((double)all, true, m, sizeof(m));
	fprintf(f, "# DWARF call chains (%llu-byte stack copies): %.1f%% unwound to the entry (%s of %s)\n",
		(unsigned long long)in->stack_size,
		all ? 100.0 * (double)in->unwind_entry / (double)all : 100.0, n, m);
	if (in->unwind_stack_short)
		fprintf(f, "#   %llu stopped where the stack copy ended (marked [truncated]): "
			   "--call-graph dwarf,%llu would have been enough for 95%% of them, at least\n",
			(unsigned long long)in->unwind_stack_short,
			(unsigned long long)in->stack_size_needed);
	if (in->unwind_no_info)
		fprintf(f, "#   %llu stopped at a frame without unwind information (marked [truncated]): %s\n",
			(unsigned long long)in->unwind_no_info,
			printable(pr, in->unwind_no_info_modules));
	if (in->unwind_failed)
		fprintf(f, "#   %llu stopped for other reasons (marked [truncated]): a stack or registers that do not unwind\n",
			(unsigned long long)in->unwind_failed);
}

/* Frame-pointer chains that most often stop at once: the code has no
 * frame pointers, and DWARF's would have its callers. */
static void text_one_frame(FILE *f, const struct hwp_profile_info *in)
{
	char n[32], m[32];

	fmt_grouped((double)in->fp_one_frame, true, n, sizeof(n));
	fmt_grouped((double)in->fp_chains, true, m, sizeof(m));
	fprintf(f, "# frame pointers: %.1f%% of the call chains stop at their first user frame (%s of %s), as in code built without frame pointers: record with --call-graph dwarf for the callers\n",
		100.0 * (double)in->fp_one_frame / (double)in->fp_chains, n, m);
}

static void text_header(struct hwp_profile *p, FILE *f, const char *sort,
			struct printable *pr)
{
	struct hwp_profile_info in = { .sz = sizeof(in) };
	char n[32], lost[32];

	hwp_profile_info(p, &in);
	fmt_grouped((double)in.samples, true, n, sizeof(n));
	fmt_grouped((double)in.lost, true, lost, sizeof(lost));
	fprintf(f, "# hwprof report of %s, sorted by %s\n", printable(pr, in.input),
		sort);
	fprintf(f, "# %s samples of event '%s'%s\n", n, printable(pr, in.event),
		in.callchains ? ", with call chains" : "");
	fprintf(f, "# lost %s samples (%.2f%%%s)\n", lost, export_lost_percent(&in),
		in.nr_events > 1 ? " of all events' samples: losses are the rings', whatever the event" :
				   "");
	if (in.filtered_samples) {
		double share = in.period ?
			100.0 * (double)in.filtered_period / (double)in.period : 0;

		fmt_grouped((double)in.filtered_samples, true, n, sizeof(n));
		fprintf(f, "# %s of them left out by --comm, --pid, --tid or --dso (%.2f%% of the period); percentages are of all, as perf's\n",
			n, share);
	}
	if (in.throttled)
		fprintf(f, "# sampling was throttled %llu times: the kernel lowered the sample rate to stay under kernel.perf_event_max_sample_rate\n",
			(unsigned long long)in.throttled);
	if (in.dwarf)
		text_unwind(f, &in, pr);
	if (in.fp_one_frame * 2 > in.fp_chains)
		text_one_frame(f, &in);
	if (in.off_cpu)
		fprintf(f, "# off-CPU time: %.3f ms, each sample weighing the time from its thread's switch out to its switch back in; %llu samples whose thread did not run again in the recording weigh nothing\n",
			(double)in.period / 1e6,
			(unsigned long long)in.off_cpu_unmatched);
	if (in.other_cpus)
		fprintf(f, "# %llu samples on the CPUs not chosen (--cpu) left out\n",
			(unsigned long long)in.other_cpus);
	if (in.nr_events > 1) {
		fprintf(f, "# other events in the file (hwprof report -e NAME):");
		for (size_t i = 0; profile_event_name(p, i); i++)
			if (strcmp(profile_event_name(p, i), in.event))
				fprintf(f, " %s",
					printable(pr, profile_event_name(p, i)));
		fprintf(f, "\n");
	}
	fprintf(f, "#\n");
}

struct module_lists {
	FILE *f;
	bool lines, code;
	/* 0: without symbols, 1: without debug info, 2: without code, 3: read
	 * from a copy of the recorded build */
	int pass;
	bool titled;
	struct printable *pr;
};

static int text_copy(struct module_lists *ml, const struct hwp_module_info *m)
{
	char n[32];

	if (!m->read_from)
		return 0;
	if (!ml->titled)
		fprintf(ml->f, "#\n# Modules read from a copy of the recorded build (the file at their path is another build):\n");
	ml->titled = true;
	fmt_grouped((double)m->samples, true, n, sizeof(n));
	fprintf(ml->f, "#   %s (%s samples): %s%s\n", printable(ml->pr, m->path), n,
		m->from_debuginfod ? "from debuginfod, " : "",
		printable(ml->pr, m->read_from));
	return 0;
}

static int text_module(const struct hwp_module_info *m, void *arg)
{
	struct module_lists *ml = arg;
	static const char *const titles[] = {
		"symbols (their addresses show as module+0xoffset)",
		"debug information (no source lines)",
		"code (their bytes and disassembly show as ?)",
	};
	const char *why;
	char n[32];

	if (ml->pass == 3)
		return text_copy(ml, m);
	why = ml->pass == 2 ? m->no_code :
			  ml->pass ? m->no_debuginfo : m->no_symbols;

	if (ml->pass == 2 ? !m->no_code || !ml->code :
	    (ml->pass ? m->has_debuginfo : m->has_symbols) || (ml->pass && !ml->lines))
		return 0;
	if (!ml->titled)
		fprintf(ml->f, "#\n# Modules without %s:\n", titles[ml->pass]);
	ml->titled = true;
	fmt_grouped((double)m->samples, true, n, sizeof(n));
	fprintf(ml->f, "#   %s (%s samples): %s\n", printable(ml->pr, m->path), n,
		why ? why : "unknown reason");
	return 0;
}

int export_text(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o)
{
	struct text_ctx t = { .f = f, .measure = true };
	struct module_lists ml = { .f = f, .pr = &t.pr };
	struct hwp_profile_info in = { .sz = sizeof(in) };
	struct sort_keys k;
	int err;

	err = sort_keys_of(o, &k);
	if (err)
		return err;
	t.sort = k.site;
	t.comm = k.comm;
	t.pid = k.pid;
	t.w.comm = (int)strlen("Command");
	if (!hwp_profile_info(p, &in))
		t.off_cpu = in.off_cpu;

	ml.lines = t.sort == HWP_SORT_RIP || t.sort == HWP_SORT_LINE;
	ml.code = t.sort == HWP_SORT_RIP;
	t.w.name = (int)strlen(t.sort == HWP_SORT_RIP ? "Symbol+offset" : "Symbol");
	t.w.source = (int)strlen("Source");
	t.w.bytes = (int)strlen("Bytes");
	t.w.sym = (int)strlen("Symbol");
	t.w.dso = (int)strlen("Module");
	err = sort_keys_foreach(p, &k, o->top, text_row, &t);
	if (!err) {
		text_header(p, f, k.name, &t.pr);
		text_columns(&t);
		t.measure = false;
		err = sort_keys_foreach(p, &k, o->top, text_row, &t);
	}
	for (ml.pass = 0; !err && ml.pass < 4; ml.pass++) {
		ml.titled = false;
		err = profile_foreach_module(p, text_module, &ml);
	}
	printable_release(&t.pr);
	return err;
}

/* ---- --annotate ---- */

struct annotate_ctx {
	struct hwp_profile *p;
	FILE *f;
	const char *symbol;
	size_t lines;
	const char *unshown;	/* the last file whose text was said to be missing */
	struct printable pr;
};

/* Static functions may share a name: which one this is, and the others. */
static void annotate_namesakes(struct annotate_ctx *a, const struct hwp_annotate_line *l)
{
	bool chosen = strchr(a->symbol, '@') != NULL;

	fprintf(a->f, "# %zu sampled functions have this name; this one is at 0x%" PRIx64 " in %s, with %" PRIu64 " samples%s\n",
		l->nr_namesakes + 1, l->start, printable(&a->pr, l->dso),
		l->function_samples, chosen ? "" : " (the most)");
	fprintf(a->f, "# the other%s: %s\n", l->nr_namesakes > 1 ? "s" : "",
		printable(&a->pr, l->namesakes));
	fprintf(a->f, "# annotate another with --annotate NAME@0xADDRESS, as listed\n");
}

static int annotate_line(const struct hwp_annotate_line *l, void *arg)
{
	struct annotate_ctx *a = arg;
	char bytes[64];

	/* The title waits for the first line: a function not found prints none. */
	if (!a->lines) {
		struct hwp_profile_info in = { .sz = sizeof(in) };

		hwp_profile_info(a->p, &in);
		fprintf(a->f, "# hwprof annotate of %s in %s (event '%s')\n",
			printable(&a->pr, a->symbol), printable(&a->pr, in.input),
			printable(&a->pr, in.event));
		if (l->nr_namesakes)
			annotate_namesakes(a, l);
		fprintf(a->f,
			"#%8s  %8s : %8s   source lines, then bytes and disassembly\n",
			"Percent", "Samples", "Address");
	}
	if (l->new_line) {
		char src[256];

		format_source(l->file, l->line, src, sizeof(src));
		/* Why a file's text is missing, once a file. */
		if (!l->source && l->no_source && l->file != a->unshown) {
			fprintf(a->f, "%20s: (the text of %s is not shown: %s)\n", "",
				printable(&a->pr, l->file), l->no_source);
			a->unshown = l->file;
		}
		fprintf(a->f, "%20s: %s  %s\n", "", printable(&a->pr, src),
			l->source ? printable_as(&a->pr, l->source, true) : "");
	}
	format_bytes(l->bytes, l->nr_bytes, bytes, sizeof(bytes));
	if (l->samples)
		fprintf(a->f, "%8.2f%%  %8llu : ", l->percent,
			(unsigned long long)l->samples);
	else
		fprintf(a->f, "%20s: ", "");
	fprintf(a->f, "%8llx:  %-30s %s\n", (unsigned long long)l->address, bytes,
		l->disasm);
	a->lines++;
	return 0;
}

int export_annotate(struct hwp_profile *p, FILE *f, const char *symbol)
{
	struct annotate_ctx a = { .p = p, .f = f, .symbol = symbol };
	int err = profile_annotate(p, symbol, annotate_line, &a);

	printable_release(&a.pr);
	return err;
}
