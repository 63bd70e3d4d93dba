// SPDX-License-Identifier: MIT
/* The symbols of code generated at run time, from the map a JIT writes for
 * perf: /tmp/perf-PID.map, one line a function, "START SIZE NAME" (START
 * and SIZE in hex, NAME the rest of the line), as V8 and Node
 * (--perf-basic-prof), the JVM's perf-map-agent, LuaJIT and Python 3.12
 * (-X perf) write it. A JIT may put new code where old code was: of the
 * entries that cover an address, the last written wins. */
#include "profile/symbolize.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* No JIT map is this large (a million functions are some 60 MB). */
#define JIT_MAP_MAX (512u << 20)

struct jit_sym {
	uint64_t start, end;
	uint32_t name;		/* offset in text */
	uint32_t order;		/* its line, so that the last written wins */
};

struct jit_map {
	char *text;
	struct jit_sym *syms;
	size_t nr;
};

static bool parse_hex(char **p, uint64_t *v)
{
	char *end;

	if (!strncmp(*p, "0x", 2) || !strncmp(*p, "0X", 2))
		*p += 2;
	if (!isxdigit((unsigned char)**p))
		return false;
	*v = strtoull(*p, &end, 16);
	*p = end;
	return true;
}

/* "START SIZE NAME": false for a line that is not one (skipped, as perf does). */
static bool parse_line(char *line, struct jit_sym *js, const char *text)
{
	char *p = line;
	uint64_t size;

	if (!parse_hex(&p, &js->start) || *p != ' ')
		return false;
	p++;
	if (!parse_hex(&p, &size) || *p != ' ' || !p[1] || !size ||
	    js->start + size < js->start)
		return false;
	js->end = js->start + size;
	js->name = (uint32_t)(p + 1 - text);
	return true;
}

static int cmp_jit(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int read_all(int fd, size_t size, char **out)
{
	char *text = malloc(size + 1);
	size_t len = 0;
	ssize_t n;

	if (!text)
		return -ENOMEM;
	while (len < size && (n = read(fd, text + len, size - len)) > 0)
		len += (size_t)n;
	text[len] = '\0';
	*out = text;
	return 0;
}

static int parse_all(struct jit_map *j)
{
	size_t cap = 0, line = 0;

	for (char *p = j->text, *eol; *p; p = eol) {
		struct jit_sym js;

		eol = p + strcspn(p, "\n");
		if (*eol)
			*eol++ = '\0';
		if (!parse_line(p, &js, j->text))
			continue;
		js.order = (uint32_t)line++;
		if (vec_reserve(&j->syms, &cap, j->nr + 1, sizeof(*j->syms)))
			return -ENOMEM;
		j->syms[j->nr++] = js;
	}
	if (j->nr > 1)
		qsort(j->syms, j->nr, sizeof(*j->syms), cmp_jit);
	return 0;
}

int jit_map_open(const char *path, struct jit_map **out, const char **problem)
{
	struct jit_map *j;
	struct stat st;
	off_t size;
	int fd = open_regular(path, &size), err;

	*out = NULL;
	*problem = NULL;
	if (fd < 0) {
		*problem = fd == -ENOENT ?
			"JIT code, whose map is not there: a JIT writes it when asked (node --perf-basic-prof, python3 -X perf, the JVM's perf-map-agent), and it must be read where the program ran" :
			file_open_problem(fd);
		return fd;
	}
	/* As perf: a map that someone else could have written is not trusted. */
	if (fstat(fd, &st) || (st.st_uid != geteuid() && st.st_uid != 0)) {
		close(fd);
		*problem = "the map is owned by another user than you or root: not read (perf ignores it too)";
		return -EPERM;
	}
	if (size > (off_t)JIT_MAP_MAX) {
		close(fd);
		*problem = file_open_problem(-EFBIG);
		return -EFBIG;
	}
	j = calloc(1, sizeof(*j));
	err = j ? read_all(fd, (size_t)size, &j->text) : -ENOMEM;
	close(fd);
	if (!err)
		err = parse_all(j);
	if (err) {
		jit_map_close(j);
		*problem = "out of memory";
		return err;
	}
	if (!j->nr)
		*problem = "the map has no line of the form 'START SIZE NAME'";
	*out = j;
	return 0;
}

void jit_map_close(struct jit_map *j)
{
	if (!j)
		return;
	free(j->text);
	free(j->syms);
	free(j);
}

int jit_map_symbol(const struct jit_map *j, uint64_t addr, const char **name,
		   uint64_t *start, uint64_t *size)
{
	const struct jit_sym *best = NULL;
	size_t lo = 0, hi = j->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (j->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Entries starting at or before @addr, nearest first: the latest
	 * written that covers it. Functions rarely nest, so few are seen. */
	for (size_t i = lo; i-- > 0 && lo - i <= 64;)
		if (addr < j->syms[i].end && (!best || j->syms[i].order > best->order))
			best = &j->syms[i];
	if (!best)
		return -ENOENT;
	*name = j->text + best->name;
	*start = best->start;
	*size = best->end - best->start;
	return 0;
}
