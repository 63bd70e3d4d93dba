// SPDX-License-Identifier: MIT
/* Scores: a number taken from each run's output with a regular expression,
 * scanned a line at a time so that memory stays bounded whatever is printed. */
#include "core/core.h"
#include "count/count.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

struct hwpriv_score {
	char *name;
	char *regex;
	regex_t re;
	bool compiled;
	char line[HWP_SCORE_LINE_MAX + 1];
	size_t len;		/* bytes of the current line kept */
	bool cut;		/* the current line is longer than what is kept */
	size_t nr_lines, nr_cut;
	/* The last match: its line, and its value or the text that is none. */
	size_t match_line;
	bool matched, number;
	double value;
	char text[64];
};

HWP_API void hwpriv_score_free(struct hwpriv_score *sc)
{
	if (!sc)
		return;
	if (sc->compiled)
		regfree(&sc->re);
	free(sc->name);
	free(sc->regex);
	free(sc);
}

HWP_API int hwpriv_score_new(const char *def, struct hwpriv_score **out)
{
	struct hwpriv_score *sc;
	const char *eq;
	char msg[256];
	int rc;

	clear_error();
	if (!def || !out)
		return fail(-EINVAL, "hwpriv_score_new: NULL argument");
	*out = NULL;
	eq = strchr(def, '=');
	if (!eq || !eq[1])
		return fail(-HWP_ERR_SYNTAX,
			    "score '%s': write NAME=REGEX, e.g. 'tput=Throughput ([0-9.]+) MB/sec'",
			    def);
	sc = calloc(1, sizeof(*sc));
	if (!sc || !(sc->name = strndup(def, (size_t)(eq - def))) ||
	    !(sc->regex = strdup(eq + 1))) {
		hwpriv_score_free(sc);
		return fail(-ENOMEM, "out of memory");
	}
	if (!metric_is_name(sc->name) || strlen(sc->name) > 64) {
		fail(-HWP_ERR_SYNTAX,
		     "score '%s': the name '%s' is not one a metric formula can use: a letter or '_', then letters, digits, '_', '.', ':' or '-', at most 64, and not 'seconds'",
		     def, sc->name);
		hwpriv_score_free(sc);
		return -HWP_ERR_SYNTAX;
	}
	rc = regcomp(&sc->re, sc->regex, REG_EXTENDED);
	if (rc) {
		regerror(rc, &sc->re, msg, sizeof(msg));
		fail(-HWP_ERR_SYNTAX,
		     "score '%s': the regular expression '%s' is not valid: %s",
		     sc->name, sc->regex, msg);
		hwpriv_score_free(sc);
		return -HWP_ERR_SYNTAX;
	}
	sc->compiled = true;
	if (sc->re.re_nsub < 1) {
		fail(-HWP_ERR_SYNTAX,
		     "score '%s': the regular expression '%s' has no group: put the number in ( ), e.g. 'Throughput ([0-9.]+) MB/sec'",
		     sc->name, sc->regex);
		hwpriv_score_free(sc);
		return -HWP_ERR_SYNTAX;
	}
	*out = sc;
	return 0;
}

HWP_API const char *hwpriv_score_name(const struct hwpriv_score *sc)
{
	return sc ? sc->name : NULL;
}

HWP_API const char *hwpriv_score_regex(const struct hwpriv_score *sc)
{
	return sc ? sc->regex : NULL;
}

HWP_API void hwpriv_score_reset(struct hwpriv_score *sc)
{
	if (!sc)
		return;
	sc->len = 0;
	sc->cut = sc->matched = sc->number = false;
	sc->nr_lines = sc->nr_cut = sc->match_line = 0;
	sc->value = NAN;
	sc->text[0] = '\0';
}

/* A decimal number, whole: [+-] digits [. digits] [e [+-] digits]. */
static bool parse_number(const char *s, size_t n, double *out)
{
	char buf[128];
	size_t i = 0, digits = 0;
	char *end;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[i] == '+' || buf[i] == '-')
		i++;
	for (; isdigit((unsigned char)buf[i]); i++)
		digits++;
	if (buf[i] == '.')
		for (i++; isdigit((unsigned char)buf[i]); i++)
			digits++;
	if (!digits)
		return false;
	if (buf[i] == 'e' || buf[i] == 'E') {
		size_t e = ++i;

		if (buf[i] == '+' || buf[i] == '-')
			e = ++i;
		while (isdigit((unsigned char)buf[i]))
			i++;
		if (i == e)
			return false;
	}
	if (buf[i])
		return false;
	errno = 0;
	*out = strtod(buf, &end);
	return !errno && *end == '\0' && isfinite(*out);
}

/* Match the line kept, and start the next. */
static void end_line(struct hwpriv_score *sc)
{
	regmatch_t m[2];

	sc->line[sc->len] = '\0';
	sc->nr_lines++;
	sc->nr_cut += sc->cut;
	if (!regexec(&sc->re, sc->line, 2, m, 0)) {
		sc->matched = true;
		sc->match_line = sc->nr_lines;
		if (m[1].rm_so < 0) {
			sc->number = false;
			snprintf(sc->text, sizeof(sc->text),
				 "(the group matched nothing)");
		} else {
			size_t n = (size_t)(m[1].rm_eo - m[1].rm_so);

			sc->number = parse_number(sc->line + m[1].rm_so, n, &sc->value);
			snprintf(sc->text, sizeof(sc->text), "'%.*s%s'",
				 (int)(n > 48 ? 48 : n), sc->line + m[1].rm_so,
				 n > 48 ? "..." : "");
		}
	}
	sc->len = 0;
	sc->cut = false;
}

HWP_API int hwpriv_score_feed(struct hwpriv_score *sc, const void *buf, size_t len)
{
	const char *p = buf, *end = p + len;

	if (!sc || (!buf && len))
		return fail(-EINVAL, "hwpriv_score_feed: NULL argument");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		size_t room = HWP_SCORE_LINE_MAX - sc->len;

		if (n > room) {
			sc->cut = true;
			n = room;
		}
		memcpy(sc->line + sc->len, p, n);
		sc->len += n;
		if (!nl)
			break;
		end_line(sc);
		p = nl + 1;
	}
	return 0;
}

HWP_API int hwpriv_score_value(struct hwpriv_score *sc, double *value)
{
	if (!sc || !value)
		return fail(-EINVAL, "hwpriv_score_value: NULL argument");
	*value = NAN;
	if (sc->len || sc->cut)
		end_line(sc);
	if (!sc->matched) {
		char cut[128] = "";

		if (sc->nr_cut)
			snprintf(cut, sizeof(cut),
				 " (%zu of them longer than %d bytes: only their first %d bytes were matched)",
				 sc->nr_cut, HWP_SCORE_LINE_MAX, HWP_SCORE_LINE_MAX);
		return fail(-ENOENT,
			    "score '%s': no line of the output matches '%s' (%zu line%s scanned%s); check the benchmark's output, or where the score is read from",
			    sc->name, sc->regex, sc->nr_lines,
			    sc->nr_lines == 1 ? "" : "s", cut);
	}
	if (!sc->number)
		return fail(-HWP_ERR_UNDEFINED,
			    "score '%s': line %zu matches '%s', but its first group captured %s, which is not a number (digits with an optional sign, '.' and exponent)",
			    sc->name, sc->match_line, sc->regex, sc->text);
	*value = sc->value;
	return 0;
}
