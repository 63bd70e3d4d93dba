// SPDX-License-Identifier: MIT
/* A profile's sites resolved, each once: their symbol and source line, the
 * functions DWARF says were inlined there, and what a site is for the
 * formats (profile_site_get()); the modules they are in, by samples. */
#include "profile/profile.h"
#include "profile/report.h"

#include <stdlib.h>
#include <string.h>

void site_resolve(struct hwp_profile *p, size_t i, bool lines)
{
	struct site *s = &p->sites[i];
	uint8_t want;
	char buf[512];
	struct dso *d;
	uint64_t at;

	lines = lines || p->inline_frames;	/* the inlined functions are DWARF's */
	want = lines ? 2 : 1;
	if (s->resolved >= want)
		return;
	symbolize(p->sym, &s->loc, lines, &s->si);
	s->resolved = want;
	if (s->si.symbol) {
		s->name = s->si.symbol;
		return;
	}
	if (machine_dso(p->m, s->loc.dso)->kind == DSO_UNKNOWN) {
		/* "[unknown]": one name for all */
		s->name = machine_dso(p->m, s->loc.dso)->path;
		return;
	}
	d = machine_dso(p->m, s->loc.dso);
	/* A file's: the offset in it, the number perf report shows as
	 * [.] 0x... and the same whether the file can be read or not (its
	 * address as objdump shows it is another number: the Address). */
	at = s->si.vaddr >= d->kmod_start ? s->si.vaddr - d->kmod_start : s->si.vaddr;
	if (d->kind == DSO_FILE)
		at = s->loc.addr;
	snprintf(buf, sizeof(buf), "%s+0x%llx", d->name, (unsigned long long)at);
	s->name = symbolize_intern(p->sym, buf);
}

/* The frames of the functions DWARF says were inlined at @s, then its own,
 * added to p->site_frames; none where nothing was inlined there. */
static int add_site_frames(struct hwp_profile *p, struct site *s,
			   const struct inline_frame *in, size_t n)
{
	const char *file = s->si.file;
	unsigned int line = s->si.line;
	struct profile_frame *f;
	char buf[512];

	if (p->nr_site_frames + n + 1 > UINT32_MAX ||
	    vec_reserve(&p->site_frames, &p->cap_site_frames, p->nr_site_frames + n + 1,
			sizeof(*p->site_frames)))
		return -ENOMEM;
	f = p->site_frames + p->nr_site_frames;
	for (size_t i = 0; i < n; i++) {
		/* perf report --inline's marking */
		snprintf(buf, sizeof(buf), "%s (inlined)", in[i].name);
		f[i] = (struct profile_frame){ symbolize_intern(p->sym, buf), in[i].name,
					       file, line };
		if (!f[i].name)
			return -ENOMEM;
		file = in[i].call_file;
		line = in[i].call_line;
	}
	f[n] = (struct profile_frame){ s->name, s->name, file, line };
	s->frames = (uint32_t)p->nr_site_frames;
	s->nr_frames = (uint32_t)n + 1;
	p->nr_site_frames += n + 1;
	return 0;
}

/* Look up the functions inlined at site @site, once: 0 or -ENOMEM. */
int site_inlines(struct hwp_profile *p, uint32_t site)
{
	struct site *s = &p->sites[site];
	struct inline_frame *in;
	size_t n;
	int err;

	site_resolve(p, site, true);
	if (s->inlines_done)
		return 0;
	s->nr_frames = 0;
	/* without a line, an address DWARF does not cover, or not the
	 * module's (outside its segments): nothing inlined there */
	if (!s->si.file) {
		s->inlines_done = true;
		return 0;
	}
	err = symbolize_inlines(p->sym, s->loc.dso, s->si.vaddr, &in, &n);
	if (!err && n)
		err = add_site_frames(p, s, in, n);
	free(in);
	s->inlines_done = !err;
	return err;
}

/* The innermost function inlined at site @site (site_inlines() done), or NULL. */
const char *site_inlined(const struct hwp_profile *p, const struct site *s)
{
	return s->inlines_done && s->nr_frames > 1 ? p->site_frames[s->frames].function :
						     NULL;
}

/* Site @site's frames, the innermost first, in *@out: with @inlines, the
 * functions DWARF says were inlined there, then always its own (in @own
 * where it is the only one). Returns how many, valid until the next site is
 * resolved, or -ENOMEM. The one place chains are expanded. */
long site_frames(struct hwp_profile *p, uint32_t site, bool inlines,
			struct profile_frame *own, const struct profile_frame **out)
{
	const struct site *s = &p->sites[site];
	int err;

	site_resolve(p, site, false);
	if (inlines && (err = site_inlines(p, site)))
		return err;
	if (inlines && s->nr_frames) {
		*out = p->site_frames + s->frames;
		return s->nr_frames;
	}
	*own = (struct profile_frame){ s->name, s->name, s->si.file, s->si.line };
	*out = own;
	return 1;
}
/* The source file and line of the first instruction of @s's function (NULL
 * and 0 when unknown). */
void function_source(struct hwp_profile *p, const struct site *s,
			    const char **file, unsigned int *line)
{
	struct symbol_info entry;

	if (s->si.symbol &&
	    !symbolize_vaddr(p->sym, s->loc.dso, s->si.sym_start, true, &entry) &&
	    entry.file) {
		*file = entry.file;
		*line = entry.line;
	}
}
void profile_recording(const struct hwp_profile *p, struct profile_recording *out)
{
	*out = (struct profile_recording){
		.cmdline = p->cmdline,
		.hostname = p->hostname,
		.osrelease = p->osrelease,
		.duration_ns = p->time_last - p->time_first,
		.sample_period = p->sample_period,
		.event = (size_t)p->event,
	};
}

size_t profile_nr_sites(const struct hwp_profile *p)
{
	return p->nr_sites;
}

size_t profile_nr_modules(const struct hwp_profile *p)
{
	return machine_nr_dsos(p->m);
}

int profile_site_get(struct hwp_profile *p, uint32_t site, struct profile_site *out)
{
	const struct site *s = &p->sites[site];
	const struct dso *d = machine_dso(p->m, s->loc.dso);
	const struct profile_frame *f;
	long n;

	site_resolve(p, site, true);
	p->lines_used = true;
	n = site_frames(p, site, true, &p->own_frame, &f);
	if (n < 0)
		return fail(-ENOMEM, "out of memory");
	*out = (struct profile_site){
		.module = s->loc.dso,
		.module_path = d->path,
		.build_id = &d->build_id,
		.address = s->si.vaddr,
		.function = s->name,
		.has_symbol = s->si.symbol != NULL,
		.file = s->si.file,
		.line = s->si.line,
		.frames = f,
		.nr_frames = (size_t)n,
	};
	function_source(p, s, &out->function_file, &out->function_line);
	return 0;
}

/* ---- modules ---- */

struct module_row {
	uint32_t dso;
	uint64_t samples;
};

static int cmp_modules(const void *pa, const void *pb)
{
	const struct module_row *a = pa, *b = pb;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->dso < b->dso ? -1 : a->dso > b->dso;
}

int profile_foreach_module(struct hwp_profile *p, hwp_module_fn fn, void *ctx)
{
	size_t nd;
	struct module_row *rows;
	int err = 0;

	clear_error();
	if (!p || !fn)
		return fail(-EINVAL, "profile_foreach_module: NULL argument");
	nd = machine_nr_dsos(p->m);
	rows = calloc(nd + 1, sizeof(*rows));
	if (!rows)
		return fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nd; i++)
		rows[i].dso = (uint32_t)i;
	for (size_t i = 0; i < p->nr_sites; i++)
		rows[p->sites[i].loc.dso].samples += p->sites[i].samples;
	qsort(rows, nd, sizeof(*rows), cmp_modules);
	for (size_t i = 0; i < nd && rows[i].samples && !err; i++) {
		struct dso *d = machine_dso(p->m, rows[i].dso);
		struct hwp_module_info mi = { .sz = sizeof(mi) };

		symbolize_check(p->sym, rows[i].dso, p->lines_used);
		mi.path = d->path;
		mi.samples = rows[i].samples;
		mi.has_symbols = d->has_symbols;
		mi.has_debuginfo = d->has_debuginfo;
		mi.no_symbols = d->has_symbols ? NULL : d->sym_problem;
		mi.no_debuginfo = d->has_debuginfo ? NULL : d->dbg_problem;
		mi.no_code = symbolize_code_problem(p->sym, rows[i].dso);
		mi.read_from = d->build_copy;
		mi.from_debuginfod = d->from_debuginfod;
		err = fn(&mi, ctx);
	}
	free(rows);
	return err;
}
