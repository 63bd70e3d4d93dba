// SPDX-License-Identifier: MIT
/* Number and field formatting shared by the report writers. */
#include "format.h"
#include "util/strbuf.h"
#include "util/text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 1234567.4 -> "1,234,567"; from 1e21 up, past any 64-bit count, with an
 * exponent: "%.0f" of 1.797e308 is 309 digits, which cut to the buffer
 * made a number that looked right and was not. */
void fmt_grouped(double v, bool big, char *buf, size_t size)
{
	char digits[64];
	size_t len, out = 0, lead;
	const char *d = digits;

	if (fabs(v) >= 1e21) {
		snprintf(buf, size, "%.3e", v);
		return;
	}
	snprintf(digits, sizeof(digits), "%.0f", v);
	if (!big) {
		snprintf(buf, size, "%s", digits);
		return;
	}
	if (*d == '-') {
		if (out + 1 < size)
			buf[out++] = '-';
		d++;
	}
	len = strlen(d);
	lead = len % 3 ? len % 3 : 3;
	for (size_t i = 0; i < len && out + 2 < size; i++) {
		if (i && (i - lead) % 3 == 0 && i >= lead)
			buf[out++] = ',';
		buf[out++] = d[i];
	}
	buf[out] = '\0';
}

/* Four significant digits, grouped from 10,000 up; an exponent from 1e15
 * up and below 1e-3, where digits would run across the table or round to
 * nothing. */
void fmt_num(double v, bool big, bool sign, char *buf, size_t size)
{
	char digits[48];

	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	if (v != 0 && (fabs(v) >= 1e15 || fabs(v) < 1e-3)) {
		snprintf(digits, sizeof(digits), "%.3e", v);
	} else if (fabs(v) >= 1e4) {
		fmt_grouped(v, big, digits, sizeof(digits));
	} else {
		int decimals = v == 0 ? 0 : 3 - (int)floor(log10(fabs(v)));

		decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
		snprintf(digits, sizeof(digits), "%.*f", decimals, v);
	}
	snprintf(buf, size, "%s%s", sign && v >= 0 ? "+" : "", digits);
}

/* Whether @s may hold a control character: C0, DEL, or the lead byte of
 * C1 in UTF-8. */
static bool may_have_controls(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == 0xc2)
			return true;
	return false;
}

void csv_field(FILE *f, const char *s, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;

	if (may_have_controls(s) && strbuf_add_escaped(&sb, s, false))
		s = strbuf_str(&sb);
	if (!strstr(s, sep) && !strchr(s, '"')) {
		fputs(s, f);
	} else {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	}
	strbuf_release(&sb);
}
