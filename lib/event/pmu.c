// SPDX-License-Identifier: MIT
/* Every PMU the kernel has, named as perf names them: "msr/tsc/",
 * "cpu/event=0x3c,umask=0x01/", "cstate_core/c6-residency/". The PMU's
 * type, its format fields (format/umask: "config:8-15") and its event
 * aliases (events/tsc: "event=0x00", with tsc.scale and tsc.unit) come
 * from sysfs, under sysfs_root() so that a test can fabricate a PMU. This
 * file is the one reader of the PMUs' sysfs folders: the rdpmc knob and
 * format of count/rdpmc.c and have_hw_pmu() read them through it. */
#include "event/event.h"
#include "util/cpulist.h"
#include "util/text.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PMU_DIR "bus/event_source/devices"
#define TERMS_MAX 64
#define RANGES_MAX 8

/* A format field: "config:0-7,32-35" is two ranges of config. */
struct field {
	unsigned nr;
	struct {
		unsigned char cfg;	/* 0 config, 1 config1, 2 config2 */
		unsigned char lo, hi;
	} r[RANGES_MAX];
};

struct pmu_ctx {
	const char *spec;	/* as written, for messages */
	char pmu[128];
	char dir[4096];
	uint64_t *cfg[3];
	/* Terms an alias leaves to the user ("umask=?"), not yet given. */
	char need[8][64];
	unsigned nr_need;
};

/* The names in @dir/@sub, comma-separated into @sb (files without a dot:
 * "tsc", not "tsc.scale"). */
static void list_names(const char *dir, const char *sub, struct strbuf *sb)
{
	char path[4352];
	struct dirent **de;
	int n;
	size_t k = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	n = scandir(path, &de, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		if (de[i]->d_name[0] != '.' && !strchr(de[i]->d_name, '.'))
			strbuf_addf(sb, "%s%s", k++ ? ", " : "", de[i]->d_name);
		free(de[i]);
	}
	if (n >= 0)
		free(de);
}

/* "config1:0-15" or "config:0-3,32-35" into @f: 0, or -EINVAL. */
static int field_parse(const char *text, struct field *f)
{
	const char *s = text;

	memset(f, 0, sizeof(*f));
	if (strncmp(s, "config", 6))
		return -EINVAL;
	s += 6;
	if (*s == '1' || *s == '2')
		f->r[0].cfg = (unsigned char)(*s++ - '0');
	if (*s++ != ':')
		return -EINVAL;
	for (;;) {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			hi = strtoul(++s, &end, 10);
			if (end == s)
				return -EINVAL;
			s = end;
		}
		if (lo > hi || hi > 63 || f->nr == RANGES_MAX)
			return -EINVAL;
		f->r[f->nr].cfg = f->r[0].cfg;
		f->r[f->nr].lo = (unsigned char)lo;
		f->r[f->nr].hi = (unsigned char)hi;
		f->nr++;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* ---- the reader of the PMUs' folders ---- */

void pmu_path(char *buf, size_t size, const char *pmu)
{
	snprintf(buf, size, "%s/" PMU_DIR "%s%s", sysfs_root(NULL), pmu ? "/" : "",
		 pmu ? pmu : "");
}

/* The path made once, in one buffer: the walk of have_hw_pmu() calls this
 * from under its own buffers, on every stat of a machine without a PMU;
 * each 4 KiB deeper is a stack page touched for the first time. */
int pmu_read(const char *pmu, const char *rel, char *buf, size_t size)
{
	char path[4352];
	size_t len;

	pmu_path(path, sizeof(path), pmu);
	len = strlen(path);
	snprintf(path + len, sizeof(path) - len, "/%s", rel);
	return read_line_of(path, buf, size);
}

/* A type file's text: a number from 0 to UINT32_MAX, or -EINVAL. */
static int type_parse(const char *text, uint32_t *type)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (end == text || *end || errno || v < 0 || v > UINT32_MAX)
		return -EINVAL;
	*type = (uint32_t)v;
	return 0;
}

int pmu_type(const char *pmu, uint32_t *type)
{
	char buf[64];
	int err = pmu_read(pmu, "type", buf, sizeof(buf));

	return err ? err : type_parse(buf, type);
}

int pmu_format(const char *pmu, const char *name, int *word, uint64_t *mask)
{
	char rel[512], buf[256];
	struct field f;
	int err;

	if (strlen(name) > 256)
		return -ENOENT;
	snprintf(rel, sizeof(rel), "format/%s", name);
	err = pmu_read(pmu, rel, buf, sizeof(buf));
	if (!err)
		err = field_parse(buf, &f);
	if (err)
		return err;
	*word = f.r[0].cfg;
	*mask = 0;
	for (unsigned i = 0; i < f.nr; i++)
		*mask |= (f.r[i].hi == 63 ? ~0ull : (1ull << (f.r[i].hi + 1)) - 1) &
			 ~((1ull << f.r[i].lo) - 1);
	return 0;
}

/* Out of line: its path is not on the stack while the walk calls @fn. */
OWN_FRAME static int pmus_open(void)
{
	char path[4096];

	pmu_path(path, sizeof(path), NULL);
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Read with getdents64() into a buffer on the stack: opendir() would
 * allocate 32 KiB, and its first touch costs a page fault. */
int pmu_foreach_pmu(int (*fn)(const char *pmu, void *ctx), void *ctx)
{
	_Alignas(8) char buf[2048];
	int dfd = pmus_open(), ret = 0;
	ssize_t n;

	if (dfd < 0)
		return 0;
	while (!ret && (n = getdents64(dfd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n && !ret;) {
			const struct dirent64 *de = (const struct dirent64 *)(buf + off);

			if (de->d_name[0] != '.')
				ret = fn(de->d_name, ctx);
			off += de->d_reclen;
		}
	close(dfd);
	return ret;
}

/* The PMUs of the kernel itself, whose types are fixed or dynamic (from
 * PERF_TYPE_MAX up) and never PERF_TYPE_RAW: no need to read them. */
static bool kernel_pmu(const char *name)
{
	static const char *const names[] = {
		"software", "tracepoint", "breakpoint", "kprobe", "uprobe",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* Whether the PMU @name is a CPU's: 1 stops the walk. */
static int core_pmu(const char *name, void *ctx)
{
	uint32_t type;

	(void)ctx;
	/* Hybrid core PMUs (cpu_core, cpu_atom) take dynamic types but keep
	 * their names; Arm's are armv8_pmuv3_0 and the like. */
	if (!strncmp(name, "cpu_", 4) || !strncmp(name, "armv", 4))
		return 1;
	if (kernel_pmu(name))
		return 0;
	/* Core PMUs register as PERF_TYPE_RAW. */
	return !pmu_type(name, &type) && type == PERF_TYPE_RAW;
}

bool have_hw_pmu(void)
{
	/* Any thread may ask first (hwp_doctor_new() is thread-safe): two
	 * that race both read sysfs and store the same answer. */
	static _Atomic int cached = -1;
	int found = atomic_load_explicit(&cached, memory_order_relaxed);

	if (found >= 0)
		return found;
	found = pmu_foreach_pmu(core_pmu, NULL) > 0;
	atomic_store_explicit(&cached, found, memory_order_relaxed);
	return found;
}

/* ---- uncore PMUs: their instances and the CPUs that count them ---- */

/* The kernel registers an uncore PMU once a device (uncore_imc_0 ..
 * uncore_imc_N, a memory controller each), with a cpumask file naming the
 * one CPU of each package or die that counts for it: an event opened on
 * another CPU is moved to that one, so that counting on every CPU would add
 * the same count once a CPU. perf writes uncore_imc/EVENT/ for all. */
struct inst_ctx {
	const char *base;
	long *nrs;
	size_t nr, cap;
	int err;
};

/* Whether @pmu is "@base_N", N into *@nr. */
static bool instance_of(const char *pmu, const char *base, long *nr)
{
	size_t n = strlen(base);
	char *end;

	if (strncmp(pmu, base, n) || pmu[n] != '_' ||
	    !isdigit((unsigned char)pmu[n + 1]))
		return false;
	errno = 0;
	*nr = strtol(pmu + n + 1, &end, 10);
	return !*end && !errno;
}

static int collect(const char *pmu, void *arg)
{
	struct inst_ctx *ic = arg;
	long nr;

	if (!instance_of(pmu, ic->base, &nr))
		return 0;
	if (ic->nr == ic->cap) {
		size_t cap = ic->cap ? 2 * ic->cap : 8;
		long *l = realloc(ic->nrs, cap * sizeof(*l));

		if (!l) {
			ic->err = -ENOMEM;
			return 1;
		}
		ic->nrs = l;
		ic->cap = cap;
	}
	ic->nrs[ic->nr++] = nr;
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

int pmu_instances(const char *base, long **nrs, size_t *nr)
{
	struct inst_ctx ic = { .base = base };

	*nrs = NULL;
	*nr = 0;
	pmu_foreach_pmu(collect, &ic);
	if (ic.err) {
		free(ic.nrs);
		return fail(ic.err, "out of memory");
	}
	if (ic.nr)
		qsort(ic.nrs, ic.nr, sizeof(*ic.nrs), cmp_long);
	*nrs = ic.nrs;
	*nr = ic.nr;
	return 0;
}

int pmu_cpumask(const char *pmu, struct event *ev)
{
	char buf[256];
	int *cpus = NULL;
	size_t nr = 0, bad;
	int err = pmu_read(pmu, "cpumask", buf, sizeof(buf));

	ev->nr_cpumask = 0;
	if (err == -ENOENT)
		return 0;
	if (!err)
		err = cpulist_parse(buf, &cpus, &nr, &bad);
	if (err == -ENOMEM)
		return fail(err, "out of memory");
	for (size_t i = 0; !err && i < nr; i++)
		if (cpus[i] < 0 || cpus[i] >= EVENT_CPUMASK_MAX)
			err = -ERANGE;
	if (err) {
		free(cpus);
		return fail(-HWP_ERR_FORMAT,
			    "PMU '%s': its cpumask file is '%s', not a list of CPUs below %d; the kernel's sysfs is not what hwprof expects",
			    pmu, err == -ERANGE ? buf : "unreadable", EVENT_CPUMASK_MAX);
	}
	memset(ev->cpumask, 0, sizeof(ev->cpumask));
	for (size_t i = 0; i < nr; i++)
		ev->cpumask[cpus[i] / 64] |= 1ULL << (cpus[i] % 64);
	ev->cpumask_first = nr ? cpus[0] : -1;
	ev->nr_cpumask = (unsigned)nr;
	free(cpus);
	return 0;
}

void event_cpumask_format(const struct event *ev, char *buf, size_t size)
{
	int *cpus = malloc((ev->nr_cpumask ? ev->nr_cpumask : 1) * sizeof(*cpus));
	size_t n = 0;

	if (!cpus) {
		snprintf(buf, size, "%d and others", ev->cpumask_first);
		return;
	}
	for (int c = 0; c < EVENT_CPUMASK_MAX && n < ev->nr_cpumask; c++)
		if (event_counts_on(ev, c))
			cpus[n++] = c;
	cpulist_format(cpus, n, buf, size);
	free(cpus);
}

bool event_counts_on(const struct event *ev, int cpu)
{
	if (!ev->nr_cpumask)
		return true;
	return cpu >= 0 && cpu < EVENT_CPUMASK_MAX &&
	       (ev->cpumask[cpu / 64] >> (cpu % 64) & 1);
}

/* ---- pmu/event/ and pmu/term=value/ into an attr ---- */

static unsigned field_width(const struct field *f)
{
	unsigned w = 0;

	for (unsigned i = 0; i < f->nr; i++)
		w += f->r[i].hi - f->r[i].lo + 1u;
	return w;
}

/* The field's bits take @v's, low bits first, as perf places them. */
static void field_set(const struct pmu_ctx *pc, const struct field *f, uint64_t v)
{
	for (unsigned i = 0; i < f->nr; i++) {
		unsigned len = f->r[i].hi - f->r[i].lo + 1u;
		uint64_t mask = len == 64 ? ~0ull : ((1ull << len) - 1);
		uint64_t *c = pc->cfg[f->r[i].cfg];

		*c = (*c & ~(mask << f->r[i].lo)) | ((v & mask) << f->r[i].lo);
		v = len == 64 ? 0 : v >> len;
	}
}

static int parse_value(const struct pmu_ctx *pc, const char *term, const char *val,
		       uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(val, &end, 0);
	if (!*val || *end || errno || *val == '-' || *val == '+')
		return fail(-HWP_ERR_SYNTAX,
			    "event '%s': term '%s=%s': '%s' is not a number (write 123 or 0x7b, at most 64 bits)",
			    pc->spec, term, val, val);
	return 0;
}

static int apply_terms(struct pmu_ctx *pc, const char *terms, bool from_alias,
		       struct event *ev);

/* An event alias: events/NAME holds terms, NAME.scale and NAME.unit; else
 * one that perf names and sysfs does not (amd_df's: pmu-known.c). */
static int apply_alias(struct pmu_ctx *pc, const char *name, struct event *ev,
		       bool *found)
{
	char rel[512], buf[1024];
	int err;

	*found = false;
	if (strlen(name) > 256)
		return 0;
	snprintf(rel, sizeof(rel), "events/%s", name);
	if (read_first_line(pc->dir, rel, buf, sizeof(buf)) &&
	    pmu_known_event(pc->pmu, name, buf, sizeof(buf)))
		return 0;
	*found = true;
	err = apply_terms(pc, buf, true, ev);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "events/%s.scale", name);
	if (!read_first_line(pc->dir, rel, buf, sizeof(buf))) {
		char *end;
		double scale = strtod(buf, &end);

		if (end == buf || *end || !(scale > 0))
			return fail(-HWP_ERR_FORMAT,
				    "event '%s': %s/%s is '%s', not a positive number",
				    pc->spec, pc->dir, rel, buf);
		ev->scale = scale;
	}
	snprintf(rel, sizeof(rel), "events/%s.unit", name);
	if (!read_first_line(pc->dir, rel, buf, sizeof(buf))) {
		free(ev->unit_own);
		ev->unit_own = strdup(buf);
		if (!ev->unit_own)
			return fail(-ENOMEM, "out of memory");
	}
	return 0;
}

static int unknown_term(const struct pmu_ctx *pc, const char *key)
{
	struct strbuf ev = STRBUF_INIT, fmt = STRBUF_INIT;

	list_names(pc->dir, "events", &ev);
	pmu_known_names(pc->pmu, &ev);
	list_names(pc->dir, "format", &fmt);
	fail(-HWP_ERR_UNKNOWN_EVENT,
	     "event '%s': PMU '%s' has no event nor term '%s'; its events: %s; its terms: %s%sconfig, config1, config2",
	     pc->spec, pc->pmu, key, ev.len ? strbuf_str(&ev) : "none",
	     strbuf_str(&fmt), fmt.len ? ", " : "");
	strbuf_release(&ev);
	strbuf_release(&fmt);
	return -HWP_ERR_UNKNOWN_EVENT;
}

static int apply_term(struct pmu_ctx *pc, char *term, bool from_alias, struct event *ev)
{
	char *eq = strchr(term, '=');
	const char *key = term, *val = NULL;
	char rel[512], buf[256];
	struct field f;
	uint64_t v = 1;
	unsigned width;
	int err;

	if (eq) {
		*eq = '\0';
		val = eq + 1;
	}
	if (!*key)
		return fail(-HWP_ERR_SYNTAX,
			    "event '%s': an empty term (two commas, or one at an end); write %s/EVENT/ or %s/TERM=VALUE,.../",
			    pc->spec, pc->pmu, pc->pmu);
	if (val && !strcmp(val, "?") && from_alias) {
		if (pc->nr_need == ARRAY_SIZE(pc->need) ||
		    strlen(key) >= sizeof(pc->need[0]))
			return fail(-HWP_ERR_FORMAT,
				    "event '%s': too many terms left to the user",
				    pc->spec);
		snprintf(pc->need[pc->nr_need++], sizeof(pc->need[0]), "%s", key);
		return 0;
	}
	for (unsigned i = 0; i < pc->nr_need; i++)
		if (!strcmp(pc->need[i], key))
			pc->need[i][0] = '\0';
	if (val) {
		err = parse_value(pc, key, val, &v);
		if (err)
			return err;
	}
	for (int i = 0; i < 3; i++) {
		static const char *const names[] = { "config", "config1", "config2" };

		if (!strcmp(key, names[i])) {
			if (!val)
				return fail(-HWP_ERR_SYNTAX, "event '%s': term '%s' needs a value: %s=0x...",
					    pc->spec, key, key);
			*pc->cfg[i] = v;
			return 0;
		}
	}
	if (strlen(key) < 200) {
		snprintf(rel, sizeof(rel), "format/%s", key);
		if (!read_first_line(pc->dir, rel, buf, sizeof(buf))) {
			if (field_parse(buf, &f))
				return fail(-HWP_ERR_FORMAT,
					    "event '%s': the format of term '%s' in %s/format/%s is '%s', not configN:LO-HI[,LO-HI]; the kernel's sysfs is not what hwprof expects",
					    pc->spec, key, pc->dir, key, buf);
			width = field_width(&f);
			if (width < 64 && v >> width)
				return fail(-HWP_ERR_SYNTAX,
					    "event '%s': term '%s=%s' is out of range: %s is %s (%u bits), at most %#llx",
					    pc->spec, key, val ? val : "1", key, buf,
					    width,
					    (1ull << width) - 1);
			field_set(pc, &f, v);
			return 0;
		}
	}
	if (!val && !from_alias) {
		bool found;

		err = apply_alias(pc, key, ev, &found);
		if (err || found)
			return err;
	}
	return unknown_term(pc, key);
}

static int apply_terms(struct pmu_ctx *pc, const char *terms, bool from_alias,
		       struct event *ev)
{
	char *copy = strdup(terms), *t, *comma;
	unsigned n = 0;
	int err = 0;

	if (!copy)
		return fail(-ENOMEM, "out of memory");
	for (t = copy; t && !err; t = comma ? comma + 1 : NULL) {
		comma = strchr(t, ',');
		if (comma)
			*comma = '\0';
		if (++n > TERMS_MAX)
			err = fail(-HWP_ERR_SYNTAX, "event '%s': more than %d terms",
				   pc->spec, TERMS_MAX);
		else
			err = apply_term(pc, t, from_alias, ev);
	}
	free(copy);
	return err;
}

static int unknown_pmu(const struct pmu_ctx *pc)
{
	struct strbuf sb = STRBUF_INIT;
	char path[4096];

	struct strbuf inst = STRBUF_INIT;
	long *nrs = NULL;
	size_t nr = 0;

	pmu_path(path, sizeof(path), NULL);
	list_names(path, ".", &sb);
	pmu_instances(pc->pmu, &nrs, &nr);
	if (nr)
		strbuf_addf(&inst, "; it has the instances %s_%ld to %s_%ld, one a device: name one, as %s_%ld/EVENT/",
			    pc->pmu, nrs[0], pc->pmu, nrs[nr - 1], pc->pmu, nrs[0]);
	else
		strbuf_addf(&inst, ", nor any instance of it (%s_0, %s_1...)", pc->pmu,
			    pc->pmu);
	fail(-HWP_ERR_UNKNOWN_EVENT,
	     "event '%s': this machine has no PMU '%s'; the kernel's PMUs (%s): %s%s",
	     pc->spec, pc->pmu, path, sb.len ? strbuf_str(&sb) : "none",
	     strbuf_str(&inst));
	strbuf_release(&inst);
	free(nrs);
	strbuf_release(&sb);
	return -HWP_ERR_UNKNOWN_EVENT;
}

bool pmu_syntax(const char *name)
{
	const char *slash = strchr(name, '/');

	return slash && slash > name && strrchr(name, '/') > slash;
}

/*
 * Whether @a on PMU @pmu is one of the kernel's topdown events, as its
 * arch/x86/events/intel/core.c tells them (the core PMU's events/slots and
 * events/topdown-* give these encodings): event code 0, which no real
 * event has, with umask 0x04 (slots, a fixed counter) or 0x80 and up (the
 * fields of PERF_METRICS). An Atom's topdown-* are generic events.
 */
static bool kernel_topdown(const char *pmu, const struct perf_event_attr *a)
{
	unsigned umask = (unsigned)(a->config >> 8) & 0xff;

	if (strcmp(pmu, "cpu") && strcmp(pmu, "cpu_core"))
		return false;
	return a->type == PERF_TYPE_RAW && (a->config & 0xff) == 0 &&
	       (umask == 0x04 || umask >= 0x80);
}

/* Out of line: its 9 KiB of paths and terms would be on the stack of every
 * name that is no pmu/.../ too, under the calls that find out. */
OWN_FRAME static int pmu_spec_resolve(const char *spec, struct event *ev,
				      struct event_names *n)
{
	struct pmu_ctx pc = { .spec = spec };
	const char *slash = strchr(spec, '/'), *last = strrchr(spec, '/');
	char buf[64], *terms = NULL;
	uint32_t type;
	int err;

	if (last[1])
		return fail(-HWP_ERR_SYNTAX,
			    "event '%s': '%s' after the last '/' is not a modifier (letters of u k h H G I p P D, p at most 3 times)",
			    spec, last + 1);
	if ((size_t)(slash - spec) >= sizeof(pc.pmu) ||
	    memchr(spec, '.', (size_t)(slash - spec)))
		return fail(-HWP_ERR_UNKNOWN_EVENT,
			    "event '%s': '%.*s' is not a PMU's name",
			    spec, (int)(slash - spec), spec);
	memcpy(pc.pmu, spec, (size_t)(slash - spec));
	pmu_path(pc.dir, sizeof(pc.dir), pc.pmu);
	err = read_first_line(pc.dir, "type", buf, sizeof(buf));
	if (err == -ENOENT || err == -ENOTDIR)
		return unknown_pmu(&pc);
	if (err)
		return fail(err, "event '%s': cannot read %s/type: %s", spec, pc.dir,
			    errno_text(-err));
	if (type_parse(buf, &type))
		return fail(-HWP_ERR_FORMAT,
			    "event '%s': %s/type is '%s', not a PMU type",
			    spec, pc.dir, buf);

	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = type;
	ev->scale = 1.0;
	pc.cfg[0] = (uint64_t *)&ev->attr.config;
	pc.cfg[1] = (uint64_t *)&ev->attr.config1;
	pc.cfg[2] = (uint64_t *)&ev->attr.config2;
	terms = strndup(slash + 1, (size_t)(last - slash - 1));
	if (!terms)
		return fail(-ENOMEM, "out of memory");
	if (!*terms)
		err = fail(-HWP_ERR_SYNTAX,
			   "event '%s': no event between the slashes; write %s/EVENT/ (its events: 'hwprof list %s/')",
			   spec, pc.pmu, pc.pmu);
	else
		err = apply_terms(&pc, terms, false, ev);
	free(terms);
	for (unsigned i = 0; i < pc.nr_need && !err; i++)
		if (pc.need[i][0])
			err = fail(-HWP_ERR_SYNTAX,
				   "event '%s': term '%s' has no value; the PMU's event needs one: write %s/...,%s=VALUE/",
				   spec, pc.need[i], pc.pmu, pc.need[i]);
	if (!err)
		err = pmu_cpumask(pc.pmu, ev);
	if (err)
		return err;
	ev->is_topdown = kernel_topdown(pc.pmu, &ev->attr);
	ev->source = HWP_SOURCE_PMU;
	/* A core PMU's events (PERF_TYPE_RAW, hybrid cpu_*) need the
	 * hardware; msr, cstate, power and uncore PMUs do not. */
	ev->is_hardware = type == PERF_TYPE_RAW || type == PERF_TYPE_HARDWARE ||
			  type == PERF_TYPE_HW_CACHE || !strncmp(pc.pmu, "cpu", 3);
	/* Counts stay unscaled: a unit that needs the scale would label a
	 * raw count wrong. */
	ev->unit = ev->unit_own && ev->scale == 1.0 ? ev->unit_own : "";
	snprintf(n->buf, sizeof(n->buf), "Event of the kernel's PMU '%.32s'", pc.pmu);
	n->canonical = spec;
	n->desc = n->buf;
	return 0;
}

int pmu_resolve(const char *spec, struct event *ev, struct event_names *n)
{
	return pmu_syntax(spec) ? pmu_spec_resolve(spec, ev, n) : -ENOENT;
}

struct pmu_walk {
	const char *pattern, *pmu;
	hwp_event_fn fn;
	void *ctx;
};

/* @w's callback with the event @e of its PMU, where its pattern matches. */
static int walk_event(const char *e, const char *desc, void *arg)
{
	const struct pmu_walk *w = arg;
	char name[1024];
	struct hwp_event_desc d = {
		.name = name, .desc = desc, .pmu = w->pmu, .source = HWP_SOURCE_PMU,
	};

	snprintf(name, sizeof(name), "%s/%s/", w->pmu, e);
	if (w->pattern && !pattern_match(w->pattern, name) &&
	    !pattern_match(w->pattern, e))
		return 0;
	return w->fn(&d, w->ctx);
}

int pmu_foreach(const char *pattern, hwp_event_fn fn, void *ctx)
{
	struct pmu_walk w = { .pattern = pattern, .fn = fn, .ctx = ctx };
	char path[2048];
	struct dirent **pmus;
	int n, ret = 0;

	pmu_path(path, sizeof(path), NULL);
	n = scandir(path, &pmus, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char dir[4352];
		struct dirent **evs;
		int m;

		w.pmu = pmus[i]->d_name;
		snprintf(dir, sizeof(dir), "%s/%s/events", path, w.pmu);
		m = w.pmu[0] == '.' || ret ? -1 : scandir(dir, &evs, NULL, alphasort);
		for (int j = 0; j < m; j++) {
			const char *e = evs[j]->d_name;

			if (!ret && e[0] != '.' && !strchr(e, '.'))
				ret = walk_event(e, "PMU event (sysfs)", &w);
			free(evs[j]);
		}
		if (m >= 0)
			free(evs);
		/* amd_df's, which sysfs does not name */
		if (!ret && w.pmu[0] != '.')
			ret = pmu_known_foreach(w.pmu, walk_event, &w);
		free(pmus[i]);
	}
	if (n >= 0)
		free(pmus);
	return ret;
}
