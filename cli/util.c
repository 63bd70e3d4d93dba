// SPDX-License-Identifier: MIT
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Whether a progress line is on stderr now. One, like stderr itself. */
static bool progress_shown;

void cli_progress_show(const char *line)
{
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	progress_shown = true;
}

void cli_progress_clear(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}

static void message(const char *cmd, const char *kind, const char *fmt, va_list ap)
{
	char *text = NULL;

	cli_progress_clear();
	fflush(stdout);
	fprintf(stderr, "hwprof%s%s: %s: ", cmd ? " " : "", cmd ? cmd : "", kind);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	/* It quotes what the user typed and what files hold: escaped. */
	hwpriv_fputs_escaped(text ? text : "(out of memory for the message)", stderr);
	free(text);
	fputc('\n', stderr);
	fflush(stderr);
}

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(cmd, "error", fmt, ap);
	va_end(ap);
}

void cli_note(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(cmd, "note", fmt, ap);
	va_end(ap);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(cmd, "warning", fmt, ap);
	va_end(ap);
}

int cli_lib_error(const char *cmd, int err)
{
	const char *msg = hwp_errmsg();

	cli_error(cmd, "%s", msg && *msg ? msg : hwp_strerror(err));
	return CLI_EXIT_FAILURE;
}

int cli_exit_for(int err)
{
	switch (-err) {
	case HWP_ERR_SYNTAX:
	case HWP_ERR_UNKNOWN_EVENT:
	case HWP_ERR_UNKNOWN_NAME:
	case HWP_ERR_NO_PMU:
		return CLI_EXIT_USAGE;
	default:
		return CLI_EXIT_FAILURE;
	}
}

int cli_flush_stdout(const char *cmd)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	cli_error(cmd, "writing to standard output failed: %s",
		  errno ? strerror(errno) : "I/O error");
	return CLI_EXIT_FAILURE;
}

bool cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

double cli_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int cli_list_add(struct cli_list *l, const char *item)
{
	size_t n = strlen(item);
	char *p = realloc(l->buf, l->len + n + 2);

	if (!p)
		return -ENOMEM;
	l->buf = p;
	if (l->len)
		p[l->len++] = ',';
	memcpy(p + l->len, item, n + 1);
	l->len += n;
	return 0;
}

/* Whether @s names one of the @n formats @offered (the library's names,
 * hwp_enum_name()), and which. */
static bool format_offered(const enum hwp_format *offered, size_t n, const char *s,
			   enum hwp_format *out)
{
	int v;

	if (hwp_enum_parse(HWP_ENUM_FORMAT, s, &v))
		return false;
	for (size_t i = 0; i < n; i++)
		if (offered[i] == (enum hwp_format)v) {
			*out = offered[i];
			return true;
		}
	return false;
}

bool cli_output_option(const char *cmd, int opt, const char *arg,
		       struct hwp_write_opts *o, size_t nr_formats, int *ret)
{
	static enum hwp_sort keys[8];	/* o->sort_keys: the options' life */
	size_t nr_keys;
	/* The first @nr_formats of these. */
	static const enum hwp_format format_of[] = {
		HWP_FORMAT_TEXT, HWP_FORMAT_CSV, HWP_FORMAT_JSON, HWP_FORMAT_FOLDED,
		HWP_FORMAT_SPEEDSCOPE, HWP_FORMAT_PPROF, HWP_FORMAT_HTML,
	};
	char names[128] = "";
	size_t nr_known = sizeof(format_of) / sizeof(format_of[0]);
	long n;

	*ret = 0;
	nr_formats = nr_formats < nr_known ? nr_formats : nr_known;
	switch (opt) {
	case 'x':
		o->separator = arg;
		o->format = HWP_FORMAT_CSV;
		return true;
	case 's':
		if (hwp_sort_parse(arg, keys, sizeof(keys) / sizeof(keys[0]), &nr_keys)) {
			*ret = CLI_EXIT_USAGE;
			cli_error(cmd, "--sort: %s", hwp_errmsg());
			return true;
		}
		o->sort = keys[0];
		o->sort_keys = nr_keys > 1 ? keys : NULL;
		o->nr_sort_keys = nr_keys > 1 ? nr_keys : 0;
		return true;
	case 'f':
		if (format_offered(format_of, nr_formats, arg, &o->format))
			return true;
		*ret = CLI_EXIT_USAGE;
		for (size_t i = 0; i < nr_formats; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names),
				 "%s%s",
				 i == 0 ? "" : i + 1 == nr_formats ? " or " : ", ",
				 hwp_enum_name(HWP_ENUM_FORMAT, format_of[i]));
		cli_error(cmd, "--format: '%s' is not %s", arg, names);
		return true;
	case 'n':
		if (cli_parse_long(arg, 0, 0x7fffffff, &n))
			o->top = (size_t)n;
		else
			*ret = CLI_EXIT_USAGE;
		if (*ret)
			cli_error(cmd, "--top: '%s' is not a number of rows (0: all)",
				  arg);
		return true;
	default:
		return false;
	}
}

int cli_alpha_option(const char *cmd, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!errno && end != s && !*end && v > 0 && v < 1) {
		*out = v;
		return 0;
	}
	cli_error(cmd, "--alpha: '%s' is not a level between 0 and 1, such as 0.05", s);
	return CLI_EXIT_USAGE;
}

/* Why an event does not open, in words that fit the status column; the
 * library's whole sentence is what 'hwprof stat -e NAME' prints. */
void list_short_reason(int err, char *buf, size_t size)
{
	const char *why;

	switch (-err) {
	case HWP_ERR_NO_PMU: why = "no hardware PMU"; break;
	case EACCES:
	case EPERM: why = "permission"; break;
	case ENOENT: why = "unknown to this CPU"; break;
	case EOPNOTSUPP: why = "not supported"; break;
	case EINVAL: why = "rejected (EINVAL)"; break;
	case ENODEV: why = "no such PMU"; break;
	case EBUSY: why = "counter busy"; break;
	default: why = hwp_strerror(err);
	}
	snprintf(buf, size, "no: %.22s", why);
}
