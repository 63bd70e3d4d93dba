// SPDX-License-Identifier: MIT
/* One function's instructions with their samples, interleaved with the
 * source lines they came from, as perf annotate shows them. */
#include "profile/profile.h"
#include "profile/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_FUNCTION (1u << 20)

struct hit {
	uint64_t vaddr;
	uint64_t samples, period;
};

/* Source files bigger than this are not read: a path from debug
 * information may name anything, and no source file is this large. */
#define MAX_SOURCE (16u << 20)

/* A source file's text, split into lines, for one file at a time. */
struct source {
	const char *path;	/* interned; NULL when none is loaded */
	char *text;
	size_t *starts;		/* where line i + 1 starts */
	size_t nr;
	const char *problem;	/* why the file is not shown (static), or NULL */
};

static void source_release(struct source *src)
{
	free(src->text);
	free(src->starts);
	memset(src, 0, sizeof(*src));
}

/* The whole of regular file @path, at most MAX_SOURCE bytes, NUL-terminated. */
static int read_source(const char *path, char **text, size_t *len)
{
	off_t size;
	int fd = open_regular(path, &size);
	size_t cap;
	ssize_t n;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	if (size > (off_t)MAX_SOURCE) {
		close(fd);
		return -EFBIG;
	}
	/* One byte more than its size: a file that grew is cut, not overrun. */
	cap = (size_t)size + 1;
	*text = malloc(cap + 1);
	if (!*text) {
		close(fd);
		return -ENOMEM;
	}
	while (*len < cap && (n = read(fd, *text + *len, cap - *len)) > 0)
		*len += (size_t)n;
	close(fd);
	(*text)[*len] = '\0';
	return 0;
}

static void source_load(struct source *src, const char *path)
{
	char *text;
	size_t len;
	int err;

	source_release(src);
	src->path = path;
	err = read_source(path, &text, &len);
	if (err) {
		src->problem = err == -EFBIG ? "the file is larger than 16 MiB: not read"
					     : file_open_problem(err);
		return;
	}
	src->text = text;
	for (size_t i = 0, cap_s = 0; i < len; i++) {
		if (i && text[i - 1] != '\0')
			continue;
		if (vec_reserve(&src->starts, &cap_s, src->nr + 1, sizeof(*src->starts)))
			break;
		src->starts[src->nr++] = i;
		/* Cut the line at its newline, so that it reads as a string. */
		i += strcspn(text + i, "\n");
		if (i < len)
			text[i] = '\0';
	}
}

/* Line @line of @path, or NULL with the reason in *@problem. */
static const char *source_line(struct source *src, const char *path, unsigned int line,
			       const char **problem)
{
	*problem = NULL;
	if (!path || !line)
		return NULL;
	if (src->path != path)
		source_load(src, path);
	*problem = src->problem;
	if (src->problem)
		return NULL;
	if (line > src->nr) {
		*problem = "the file is shorter than its debug information says: it changed since the build?";
		return NULL;
	}
	return src->text + src->starts[line - 1];
}

/* A sampled function of the name asked for: two static functions may
 * share one, in one module or in several. */
struct candidate {
	uint32_t dso;
	uint64_t start, size, samples;
};

struct candidates {
	struct candidate *v;
	size_t nr, cap;
};

/* What --annotate names: "NAME", or "NAME@0xADDRESS" for one of several
 * functions of that name (a symbol's own '@', as in "memcpy@GLIBC_2.14",
 * is never followed by a hexadecimal number alone). */
struct wanted {
	char *name;
	bool by_address;
	uint64_t address;
};

static int parse_wanted(const char *arg, struct wanted *wt)
{
	const char *at = strrchr(arg, '@');
	char *end;

	memset(wt, 0, sizeof(*wt));
	if (at && at > arg && !strncmp(at + 1, "0x", 2) && at[3]) {
		errno = 0;
		wt->address = strtoull(at + 1, &end, 16);
		wt->by_address = !*end && !errno;
	}
	wt->name = wt->by_address ? strndup(arg, (size_t)(at - arg)) : strdup(arg);
	return wt->name ? 0 : fail(-ENOMEM, "out of memory");
}

static int cmp_candidates(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->dso != b->dso)
		return a->dso < b->dso ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* The sampled functions named @name, one per module and start, the
 * hottest first. */
static int find_candidates(struct hwp_profile *p, const char *name, struct candidates *c)
{
	for (size_t i = 0; i < p->nr_sites; i++) {
		struct site *s = &p->sites[i];
		size_t j;

		if (!s->samples)
			continue;
		site_resolve(p, i, false);
		if (!s->si.symbol || strcmp(s->si.symbol, name))
			continue;
		for (j = 0; j < c->nr; j++)
			if (c->v[j].dso == s->loc.dso && c->v[j].start == s->si.sym_start)
				break;
		if (j == c->nr) {
			if (vec_reserve(&c->v, &c->cap, c->nr + 1, sizeof(*c->v)))
				return fail(-ENOMEM, "out of memory");
			c->v[c->nr++] = (struct candidate){ s->loc.dso, s->si.sym_start,
							    s->si.sym_size, 0 };
		}
		c->v[j].samples += s->samples;
	}
	if (c->nr > 1)
		qsort(c->v, c->nr, sizeof(*c->v), cmp_candidates);
	return 0;
}

/* "NAME@0xADDRESS (N samples, MODULE)" for each candidate but @skip. */
static void list_candidates(struct hwp_profile *p, const char *name,
			    const struct candidates *c, size_t skip, struct strbuf *sb)
{
	for (size_t i = 0; i < c->nr; i++)
		if (i != skip)
			strbuf_addf(sb, "%s%s@0x%" PRIx64 " (%" PRIu64 " samples, %s)",
				    sb->len ? ", " : "", name,
				    c->v[i].start, c->v[i].samples,
				    machine_dso(p->m, c->v[i].dso)->path);
}

static int add_name(const struct hwp_entry *e, void *arg)
{
	struct strbuf *sb = arg;

	if (e->symbol)
		strbuf_addf(sb, "%s%s", sb->len ? ", " : "", e->symbol);
	return 0;
}

static int not_found(struct hwp_profile *p, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	hwp_profile_foreach_entry(p, HWP_SORT_SYM, 5, add_name, &sb);
	err = fail(-ENOENT, "no sample landed in a function named '%s'%s%s", name,
		       sb.len ? "; the hottest are: " : "", strbuf_str(&sb));
	strbuf_release(&sb);
	return err;
}

static int no_such_address(struct hwp_profile *p, const struct wanted *wt,
			   const struct candidates *c)
{
	struct strbuf sb = STRBUF_INIT;
	int err;

	list_candidates(p, wt->name, c, SIZE_MAX, &sb);
	err = fail(-ENOENT, "no sampled function named '%s' starts at 0x%" PRIx64 "; those that were sampled: %s",
		       wt->name, wt->address, strbuf_str(&sb));
	strbuf_release(&sb);
	return err;
}

static int cmp_hits(const void *pa, const void *pb)
{
	const struct hit *a = pa, *b = pb;

	return a->vaddr < b->vaddr ? -1 : a->vaddr > b->vaddr;
}

struct walk {
	struct hwp_profile *p;
	uint32_t dso;
	uint64_t start, size;
	uint64_t samples;	/* the function's */
	size_t nr_namesakes;	/* other sampled functions of its name */
	struct strbuf namesakes;	/* those, hottest first */
	uint8_t *code;
	size_t len;
	struct hit *hits;
	size_t nr_hits;
	uint64_t period;
	struct source src;
};

/* The samples at each address of [start, end) in @w's module, sorted. */
static int collect_hits(struct walk *w, uint64_t end)
{
	size_t cap = 0;

	for (size_t i = 0; i < w->p->nr_sites; i++) {
		struct site *s = &w->p->sites[i];

		if (!s->samples || s->loc.dso != w->dso || s->si.vaddr < w->start ||
		    s->si.vaddr >= end)
			continue;
		if (vec_reserve(&w->hits, &cap, w->nr_hits + 1, sizeof(*w->hits)))
			return fail(-ENOMEM, "out of memory");
		w->hits[w->nr_hits++] =
			(struct hit){ s->si.vaddr, s->samples, s->period };
		w->period += s->period;
	}
	if (w->nr_hits)
		qsort(w->hits, w->nr_hits, sizeof(*w->hits), cmp_hits);
	return 0;
}

static const struct hit *hit_at(const struct hit *hits, size_t nr, uint64_t vaddr)
{
	struct hit key = { vaddr, 0, 0 };

	return nr ? bsearch(&key, hits, nr, sizeof(*hits), cmp_hits) : NULL;
}

static int walk_instructions(struct walk *w, hwp_annotate_fn fn, void *ctx)
{
	const char *last_file = NULL;
	unsigned int last_line = 0;
	char text[160];
	int err = 0;

	for (size_t off = 0; off < w->len && !err;) {
		struct hwp_annotate_line l = { .sz = sizeof(l), .address = w->start + off,
					       .dso = machine_dso(w->p->m, w->dso)->path,
					       .start = w->start,
					       .function_samples = w->samples,
					       .nr_namesakes = w->nr_namesakes,
					       .namesakes = !w->nr_namesakes ? NULL :
							    strbuf_str(&w->namesakes) };
		const struct hit *h = hit_at(w->hits, w->nr_hits, l.address);
		struct symbol_info si;
		int n = disasm_one(w->p->dis, w->code + off, w->len - off, l.address,
				   text, sizeof(text));

		if (n <= 0) {
			snprintf(text, sizeof(text), "(bad)");
			n = 1;
		}
		symbolize_vaddr(w->p->sym, w->dso, l.address, true, &si);
		l.samples = h ? h->samples : 0;
		l.percent = h && w->period ?
			    100.0 * (double)h->period / (double)w->period : 0;
		l.bytes = w->code + off;
		l.nr_bytes = (size_t)n;
		l.disasm = text;
		l.file = si.file;
		l.line = si.line;
		l.new_line = si.file && (si.file != last_file || si.line != last_line);
		if (l.new_line)
			l.source = source_line(&w->src, si.file, si.line, &l.no_source);
		last_file = si.file;
		last_line = si.line;
		err = fn(&l, ctx);
		off += (size_t)n;
	}
	return err;
}

/* The function @symbol names: the hottest of that name, or the one at the
 * address it gives. */
static int choose_function(struct walk *w, const char *symbol)
{
	struct candidates c = { 0 };
	struct wanted wt;
	size_t pick = 0;
	int err;

	err = parse_wanted(symbol, &wt);
	if (!err)
		err = find_candidates(w->p, wt.name, &c);
	if (!err && !c.nr)
		err = not_found(w->p, wt.name);
	while (!err && wt.by_address && pick < c.nr && c.v[pick].start != wt.address)
		pick++;
	if (!err && pick == c.nr)
		err = no_such_address(w->p, &wt, &c);
	if (!err) {
		w->dso = c.v[pick].dso;
		w->start = c.v[pick].start;
		w->size = c.v[pick].size;
		w->samples = c.v[pick].samples;
		w->nr_namesakes = c.nr - 1;
		list_candidates(w->p, wt.name, &c, pick, &w->namesakes);
	}
	free(c.v);
	free(wt.name);
	return err;
}

static int prepare_walk(struct walk *w, const char *symbol)
{
	struct hwp_profile *p = w->p;
	int machine, err;
	ssize_t n;

	err = choose_function(w, symbol);
	if (err)
		return err;
	p->lines_used = true;
	if (!w->size || w->size > MAX_FUNCTION)
		w->size = w->size ? MAX_FUNCTION : 4096;
	machine = symbolize_elf_machine(p->sym, w->dso);
	if (!machine && symbolize_code_problem(p->sym, w->dso))
		return fail(-ENOENT, "cannot read the code of '%s' in %s: %s", symbol,
			    machine_dso(p->m, w->dso)->path,
			    symbolize_code_problem(p->sym, w->dso));
	if (machine != p->dis_machine) {
		disasm_close(p->dis);
		p->dis = NULL;
		p->dis_machine = disasm_open(machine, &p->dis) ? -1 : machine;
	}
	if (!p->dis)
		return fail(-EOPNOTSUPP, "cannot disassemble %s: hwprof was built without capstone, or capstone does not know its machine",
				machine_dso(p->m, w->dso)->path);
	w->code = malloc(w->size);
	if (!w->code)
		return fail(-ENOMEM, "out of memory");
	n = symbolize_read_code(p->sym, w->dso, w->start, w->code, w->size);
	if (n <= 0)
		return fail(-ENOENT, "cannot read the code of '%s' in %s", symbol,
				machine_dso(p->m, w->dso)->path);
	w->len = (size_t)n;
	return collect_hits(w, w->start + w->len);
}

int profile_annotate(struct hwp_profile *p, const char *symbol,
				 hwp_annotate_fn fn, void *ctx)
{
	struct walk w = { .p = p };
	int err;

	clear_error();
	if (!p || !symbol || !fn)
		return fail(-EINVAL, "profile_annotate: NULL argument");
	err = prepare_walk(&w, symbol);
	if (!err)
		err = walk_instructions(&w, fn, ctx);
	source_release(&w.src);
	strbuf_release(&w.namesakes);
	free(w.hits);
	free(w.code);
	return err;
}
