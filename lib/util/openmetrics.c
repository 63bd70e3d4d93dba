// SPDX-License-Identifier: MIT
/* The OpenMetrics and Prometheus text formats' pieces (openmetrics.h): each
 * family once, its samples together; the writers of results and regions
 * say which families there are. */
#include "util/openmetrics.h"
#include "util/utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void om_label_add(struct om_labels *l, const char *key, const char *value)
{
	if (l->n < OM_MAX_LABELS && value) {
		l->key[l->n] = key;
		l->value[l->n++] = value;
	}
}

/* Text in the exposition is UTF-8 (both formats say so, and a scraper
 * refuses the whole of it otherwise): an invalid sequence in a command line
 * or a name is written as U+FFFD. Backslash and line feed are escaped, and
 * with @quote the double quote too (label values; the spec's ABNF). */
static void om_text(FILE *f, const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);

	while (left) {
		int n = utf8_char(p, left);

		if (n < 0) {
			fputs("\xef\xbf\xbd", f);
			n = -n;
		} else if (*p == '\\') {
			fputs("\\\\", f);
		} else if (*p == '"' && quote) {
			fputs("\\\"", f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else {
			fwrite(p, 1, (size_t)n, f);
		}
		p += n;
		left -= (size_t)n;
	}
}

void om_label_value(FILE *f, const char *s)
{
	fputc('"', f);
	om_text(f, s, true);
	fputc('"', f);
}

/* A HELP text escapes backslash and line feed. */
static void help_text(FILE *f, const char *s)
{
	om_text(f, s, false);
}

static bool is_counter(const struct om_family *fam)
{
	return !strcmp(fam->type, "counter");
}

void om_family_begin(FILE *f, const struct om_family *fam, bool prom)
{
	const char *total = prom && is_counter(fam) ? "_total" : "";

	fprintf(f, "# TYPE %s%s %s\n", fam->name, total, fam->type);
	if (fam->unit && !prom)
		fprintf(f, "# UNIT %s %s\n", fam->name, fam->unit);
	fprintf(f, "# HELP %s%s ", fam->name, total);
	help_text(f, fam->help);
	fputc('\n', f);
}

/* The fewest digits that read back as @v. */
static const char *shortest(double v, char *buf, size_t size)
{
	for (int digits = 15; digits < 17; digits++) {
		snprintf(buf, size, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

/* Integers as integers; else enough digits to tell doubles apart. */
static void om_number(FILE *f, double v)
{
	char buf[32];

	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%s", shortest(v, buf, sizeof(buf)));
}

void om_sample(FILE *f, const struct om_family *fam, const struct om_labels *l, double v)
{
	fputs(fam->name, f);
	if (is_counter(fam))
		fputs("_total", f);
	if (l->n) {
		fputc('{', f);
		for (size_t i = 0; i < l->n; i++) {
			fprintf(f, "%s%s=", i ? "," : "", l->key[i]);
			om_label_value(f, l->value[i]);
		}
		fputc('}', f);
	}
	fputc(' ', f);
	om_number(f, v);
	fputc('\n', f);
}

