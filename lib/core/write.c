// SPDX-License-Identifier: MIT
/* The one write dispatcher behind every hwp_*_write(): the NULL check, the
 * copy of the caller's opts, the format's function from the writer's
 * table, and the check that the stream took it all (a full disk). */
#include "core/core.h"
#include "util/text.h"

#include <stddef.h>
#include <stdio.h>

static const char *const format_names[NR_FORMATS] = {
	[HWP_FORMAT_TEXT] = "text",
	[HWP_FORMAT_CSV] = "CSV",
	[HWP_FORMAT_JSON] = "JSON",
	[HWP_FORMAT_FOLDED] = "folded stacks",
	[HWP_FORMAT_OPENMETRICS] = "OpenMetrics",
	[HWP_FORMAT_PROMETHEUS] = "Prometheus text",
	[HWP_FORMAT_SPEEDSCOPE] = "speedscope",
	[HWP_FORMAT_PPROF] = "pprof",
	[HWP_FORMAT_HTML] = "HTML",
};


/* Text is for a terminal: it goes through a stream that escapes the
 * control characters of what it quotes (argv, file names, perf.data
 * strings), as JSON escapes them, wherever in a writer they come from. */
struct escaping {
	FILE *out;
	struct escaper e;
};

static ssize_t escaping_write(void *cookie, const char *buf, size_t size)
{
	struct escaping *es = cookie;

	escape_put(&es->e, es->out, buf, size);
	return ferror(es->out) ? -1 : (ssize_t)size;
}

static int escaping_close(void *cookie)
{
	struct escaping *es = cookie;

	escape_end(&es->e, es->out);
	return ferror(es->out) ? EOF : 0;
}

static int write_text(const struct writer *w, const void *obj, FILE *f,
		      const struct hwp_write_opts *o)
{
	struct escaping es = { .out = f };
	FILE *text = fopencookie(&es, "w", (cookie_io_functions_t){
		.write = escaping_write,
		.close = escaping_close,
	});
	/* The stream's own buffer would be 8 KiB of fresh heap, two page
	 * faults (tens of microseconds each in a VM) for a report of 1 KiB
	 * that @f buffers again: a small one on the stack does. */
	char buf[1024];
	int err;

	if (!text)
		return fail(-ENOMEM, "out of memory");
	setvbuf(text, buf, _IOFBF, sizeof(buf));
	err = w->format[HWP_FORMAT_TEXT](obj, text, o);
	fclose(text);
	return err;
}

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
	if (format == HWP_FORMAT_TEXT)
		err = write_text(w, obj, f, &o);
	else
		err = w->format[format](obj, f, &o);
	return err ? err : stream_check(f, w->what);
}

HWP_API int hwpriv_fputs_escaped(const char *s, FILE *f)
{
	struct escaper e = { 0 };

	/* No clear_error() first: @s is hwp_errmsg() more often than not. */
	if (!s || !f)
		return fail(-EINVAL, "hwpriv_fputs_escaped: NULL argument");
	escape_put(&e, f, s, strlen(s));
	escape_end(&e, f);
	if (ferror(f))
		return fail(-EIO, "hwpriv_fputs_escaped: the stream has an error");
	return 0;
}
