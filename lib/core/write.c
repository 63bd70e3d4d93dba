// SPDX-License-Identifier: MIT
/* The one write dispatcher behind every hwp_*_write(): the NULL check, the
 * copy of the caller's opts, the format's function from the writer's
 * table, and the check that the stream took it all (a full disk). */
#include "core/core.h"

#include <stddef.h>

static const char *const format_names[NR_FORMATS] = {
	[HWP_FORMAT_TEXT] = "text",
	[HWP_FORMAT_CSV] = "CSV",
	[HWP_FORMAT_JSON] = "JSON",
	[HWP_FORMAT_FOLDED] = "folded stacks",
};


/* "a sweep is written as text or JSON, not CSV": the formats come from the
 * table, so that the message cannot drift from what the writer does. */
static int refuse(const struct writer *w, enum hwp_format format)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, seen = 0;
	int err;

	for (size_t i = 0; i < NR_FORMATS; i++)
		n += w->format[i] != NULL;
	for (size_t i = 0; i < NR_FORMATS; i++) {
		if (!w->format[i])
			continue;
		seen++;
		strbuf_addf(&sb, "%s%s", seen == 1 ? "" : seen == n ? " or " : ", ",
			    format_names[i]);
	}
	err = fail(-EOPNOTSUPP, "%s written as %s, not %s", w->subject, strbuf_str(&sb),
		       format_names[format]);
	strbuf_release(&sb);
	return err;
}

int write_dispatch(const struct writer *w, const void *obj, FILE *f, const void *opts)
{
	struct hwp_write_opts o;
	enum hwp_format format;
	int err;

	clear_error();
	if (!obj || !f)
		return fail(-EINVAL, "%s: NULL argument", w->fn);
	err = OPTS_COPY(&o, opts, hwp_write_opts);
	if (err)
		return err;
	format = o.format;
	if (w->check && (err = w->check(&o)))
		return err;
	if ((unsigned int)format >= NR_FORMATS)
		return fail(-EINVAL, "%s: unknown format %d", w->fn, (int)format);
	if (!w->format[format])
		return refuse(w, format);
	err = w->format[format](obj, f, &o);
	return err ? err : stream_check(f, w->what);
}
