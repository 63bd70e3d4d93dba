// SPDX-License-Identifier: MIT
/* hwp_profile_write(): the profile's formats in the one write dispatcher's
 * table. */
#include "export/export.h"

/* Writing a profile queries it, which fills its caches: the table's
 * functions take it as const, as every writer's do, and cast that away. */
static int write_text(const void *obj, FILE *f, const void *opts)
{
	struct hwp_profile *p = (struct hwp_profile *)obj;
	const struct hwp_write_opts *o = opts;

	return o->annotate ? export_annotate(p, f, o->annotate) : export_text(p, f, o);
}

static int write_csv(const void *obj, FILE *f, const void *opts)
{
	return export_csv((struct hwp_profile *)obj, f, opts);
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	return export_json((struct hwp_profile *)obj, f, opts);
}

static int write_folded(const void *obj, FILE *f, const void *opts)
{
	(void)opts;
	return export_folded((struct hwp_profile *)obj, f);
}

static int write_speedscope(const void *obj, FILE *f, const void *opts)
{
	(void)opts;
	return export_speedscope((struct hwp_profile *)obj, f);
}

static int write_pprof(const void *obj, FILE *f, const void *opts)
{
	(void)opts;
	return export_pprof((struct hwp_profile *)obj, f);
}

static int write_html(const void *obj, FILE *f, const void *opts)
{
	(void)opts;
	return export_html((struct hwp_profile *)obj, f);
}

static int check_annotate(const void *opts)
{
	const struct hwp_write_opts *o = opts;

	struct sort_keys k;
	int err;

	if (o->annotate && o->format != HWP_FORMAT_TEXT)
		return fail(-EINVAL, "an annotated function is written as text only");
	err = sort_keys_of(o, &k);
	if (!err && (k.comm || k.pid) && o->format != HWP_FORMAT_TEXT &&
	    o->format != HWP_FORMAT_CSV && o->format != HWP_FORMAT_JSON)
		return fail(-EINVAL, "sort keys '%s': rows by comm or pid are written as text, csv or json only (this format is by call chain)",
			    k.name);
	return err;
}

static const struct writer profile_writer = {
	.fn = "hwp_profile_write",
	.what = "the report",
	.subject = "a report is",
	.check = check_annotate,
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_CSV] = write_csv,
		[HWP_FORMAT_JSON] = write_json,
		[HWP_FORMAT_FOLDED] = write_folded,
		[HWP_FORMAT_SPEEDSCOPE] = write_speedscope,
		[HWP_FORMAT_PPROF] = write_pprof,
		[HWP_FORMAT_HTML] = write_html,
	},
};

HWP_API int hwp_profile_write_0_2(struct hwp_profile *p, FILE *f,
				  const struct hwp_write_opts *opts);
HWP_SYMVER_DEFAULT(hwp_profile_write_0_2, hwp_profile_write, "HWPROF_0.2");

HWP_API int hwp_profile_write_0_2(struct hwp_profile *p, FILE *f,
			      const struct hwp_write_opts *opts)
{
	return write_dispatch(&profile_writer, p, f, opts);
}
