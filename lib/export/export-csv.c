// SPDX-License-Identifier: MIT
/* CSV: a header row naming the columns, then one row an entry. The columns
 * depend on the sort key (README.md lists them). */
#include "export/export.h"
#include "util/format.h"

struct csv_ctx {
	FILE *f;
	const char *sep;
	enum hwp_sort sort;
};

static void field(struct csv_ctx *c, const char *s, bool last)
{
	csv_field(c->f, s ? s : "", c->sep);
	fputs(last ? "\n" : c->sep, c->f);
}

static int csv_row(const struct hwp_entry *e, void *arg)
{
	struct csv_ctx *c = arg;
	char num[64], src[256], bytes[64];

	fprintf(c->f, "%.2f%s%llu%s%llu%s", e->percent, c->sep,
		(unsigned long long)e->samples, c->sep, (unsigned long long)e->period,
		c->sep);
	format_source(e->file, e->line, src, sizeof(src));
	switch (c->sort) {
	case HWP_SORT_DSO:
		field(c, e->dso, true);
		break;
	case HWP_SORT_CPU:
		field(c, e->name, true);
		break;
	case HWP_SORT_SYM:
		field(c, e->name, false);
		field(c, e->dso, true);
		break;
	case HWP_SORT_LINE:
		field(c, src, false);
		field(c, e->symbol, false);
		field(c, e->dso, true);
		break;
	case HWP_SORT_RIP:
		snprintf(num, sizeof(num), "0x%llx", (unsigned long long)e->address);
		field(c, num, false);
		field(c, e->name, false);
		field(c, e->dso, false);
		field(c, src, false);
		format_bytes(e->bytes, e->bytes ? e->nr_bytes : 0, bytes, sizeof(bytes));
		field(c, bytes, false);
		field(c, e->disasm, true);
		break;
	}
	return 0;
}

int export_csv(struct hwp_profile *p, FILE *f, const struct hwp_write_opts *o)
{
	static const char *const headers[] = {
		[HWP_SORT_SYM] = "symbol,dso",
		[HWP_SORT_RIP] = "address,symbol,dso,source,bytes,disasm",
		[HWP_SORT_LINE] = "source,symbol,dso",
		[HWP_SORT_DSO] = "dso",
		[HWP_SORT_CPU] = "cpu",
	};
	struct csv_ctx c = { f, o->separator && *o->separator ? o->separator : ",",
			     o->sort };

	if ((unsigned int)o->sort >= ARRAY_SIZE(headers))
		return fail(-EINVAL, "unknown sort key %d", (int)o->sort);
	/* The header is written with the chosen separator. */
	fprintf(f, "percent%ssamples%speriod%s", c.sep, c.sep, c.sep);
	for (const char *h = headers[o->sort]; *h; h++) {
		if (*h == ',')
			fputs(c.sep, f);
		else
			fputc(*h, f);
	}
	fputc('\n', f);
	return hwp_profile_foreach_entry(p, o->sort, o->top, csv_row, &c);
}
