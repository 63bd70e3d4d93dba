// SPDX-License-Identifier: MIT
/* One function's instructions with their samples, interleaved with the
 * source lines they came from, as perf annotate shows them. */
#include "profile.h"

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
	int fd = hwp_open_regular(path, &size);
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
					     : hwp_open_problem(err);
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

/* The module where function @name was sampled most. */
static int find_function(struct hwp_profile *p, const char *name, uint32_t *dso)
{
	uint64_t best = 0;

	for (size_t i = 0; i < p->nr_sites; i++) {
		struct site *s = &p->sites[i];
		uint64_t in_dso = 0;

		if (!s->samples)
			continue;
		site_resolve(p, i, false);
		if (!s->si.symbol || strcmp(s->si.symbol, name))
			continue;
		for (size_t j = 0; j < p->nr_sites; j++)
			if (p->sites[j].loc.dso == s->loc.dso &&
			    p->sites[j].si.symbol == s->si.symbol)
				in_dso += p->sites[j].samples;
		if (in_dso > best) {
			best = in_dso;
			*dso = s->loc.dso;
		}
	}
	return best ? 0 : -ENOENT;
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

	hwp_profile_top(p, HWP_SORT_SYM, 5, add_name, &sb);
	err = hwp_fail(-ENOENT, "no sample landed in a function named '%s'%s%s", name,
		       sb.len ? "; the hottest are: " : "", strbuf_str(&sb));
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
			return hwp_fail(-ENOMEM, "out of memory");
		w->hits[w->nr_hits++] = (struct hit){ s->si.vaddr, s->samples, s->period };
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
		struct hwp_annotate_line l = { .sz = sizeof(l), .address = w->start + off };
		const struct hit *h = hit_at(w->hits, w->nr_hits, l.address);
		struct symbol_info si;
		int n = disasm_one(w->p->dis, w->code + off, w->len - off, l.address, text,
				   sizeof(text));

		if (n <= 0) {
			snprintf(text, sizeof(text), "(bad)");
			n = 1;
		}
		symbolize_vaddr(w->p->sym, w->dso, l.address, true, &si);
		l.samples = h ? h->samples : 0;
		l.percent = h && w->period ? 100.0 * (double)h->period / (double)w->period : 0;
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

static int prepare_walk(struct walk *w, const char *symbol)
{
	struct hwp_profile *p = w->p;
	int machine, err;
	ssize_t n;

	if (find_function(p, symbol, &w->dso))
		return not_found(p, symbol);
	p->lines_used = true;
	if (machine_dso(p->m, w->dso)->kind == DSO_KERNEL)
		return hwp_fail(-EOPNOTSUPP, "'%s' is in the kernel, whose code hwprof does not read",
				symbol);
	err = symbolize_lookup(p->sym, w->dso, symbol, &w->start, &w->size);
	if (err)
		return hwp_fail(-ENOENT, "'%s' has samples but no symbol table entry in %s", symbol,
				machine_dso(p->m, w->dso)->path);
	if (!w->size || w->size > MAX_FUNCTION)
		w->size = w->size ? MAX_FUNCTION : 4096;
	machine = symbolize_elf_machine(p->sym, w->dso);
	if (machine != p->dis_machine) {
		disasm_close(p->dis);
		p->dis = NULL;
		p->dis_machine = disasm_open(machine, &p->dis) ? -1 : machine;
	}
	if (!p->dis)
		return hwp_fail(-EOPNOTSUPP, "cannot disassemble %s: hwprof was built without capstone, or capstone does not know its machine",
				machine_dso(p->m, w->dso)->path);
	w->code = malloc(w->size);
	if (!w->code)
		return hwp_fail(-ENOMEM, "out of memory");
	n = symbolize_read_code(p->sym, w->dso, w->start, w->code, w->size);
	if (n <= 0)
		return hwp_fail(-ENOENT, "cannot read the code of '%s' in %s", symbol,
				machine_dso(p->m, w->dso)->path);
	w->len = (size_t)n;
	return collect_hits(w, w->start + w->len);
}

HWP_API int hwp_profile_annotate(struct hwp_profile *p, const char *symbol,
				 hwp_annotate_fn fn, void *ctx)
{
	struct walk w = { .p = p };
	int err;

	hwp_clear_error();
	if (!p || !symbol || !fn)
		return hwp_fail(-EINVAL, "hwp_profile_annotate: NULL argument");
	err = prepare_walk(&w, symbol);
	if (!err)
		err = walk_instructions(&w, fn, ctx);
	source_release(&w.src);
	free(w.hits);
	free(w.code);
	return err;
}
