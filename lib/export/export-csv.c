// SPDX-License-Identifier: MIT
/* CSV: a header row naming the columns, then one row an entry. The columns
 * depend on the sort key (hwprof-formats(5) lists them). */
#include "export/export.h"
#include "util/format.h"

struct csv_ctx {
	FILE *f;
	const char *sep;
	enum hwp_sort sort;	/* the key of sites, or comm or pid alone */
	bool comm, pid;
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
	if (c->comm)
		field(c, e->comm, c->sort == HWP_SORT_COMM);
	if (c->pid) {
		snprintf(num, sizeof(num), "%lld", (long long)e->tid);
		field(c, num, false);
		field(c, e->thread_comm, c->sort == HWP_SORT_PID);
	}
	switch (c->sort) {
	case HWP_SORT_COMM:
	case HWP_SORT_PID:
		break;
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
		snprintf(num, sizeof(num), e->no_address ? "" : "0x%llx",
			 (unsigned long long)e->address);
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
		[HWP_SORT_COMM] = "",
		[HWP_SORT_PID] = "",
	};
	struct csv_ctx c = { f, o->separator && *o->separator ? o->separator : ",",
			     o->sort, false, false };
	struct sort_keys k;
	char head[128];
	int err = sort_keys_of(o, &k);

	if (err)
		return err;
	c.sort = k.site;
	c.comm = k.comm;
	c.pid = k.pid;
	snprintf(head, sizeof(head), "%s%s%s", k.comm ? "comm," : "",
		 k.pid ? "pid,pid_comm," : "", headers[k.site]);
	if (!headers[k.site][0])
		head[strlen(head) - 1] = '\0';	/* thread keys alone: no last ',' */
	/* The header is written with the chosen separator. */
	fprintf(f, "percent%ssamples%speriod%s", c.sep, c.sep, c.sep);
	for (const char *h = head; *h; h++) {
		if (*h == ',')
			fputs(c.sep, f);
		else
			fputc(*h, f);
	}
	fputc('\n', f);
	return sort_keys_foreach(p, &k, o->top, csv_row, &c);
}
