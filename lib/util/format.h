/* SPDX-License-Identifier: MIT */
#ifndef HWPROF_UTIL_FORMAT_H
#define HWPROF_UTIL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* 1234567.4 -> "1,234,567" (with @big; "1234567" without); from 1e21 up
 * "1.797e+308". */
void fmt_grouped(double v, bool big, char *buf, size_t size);
/* Four significant digits, grouped (with @big) from 10,000 up; an exponent
 * from 1e15 up and below 1e-3; with @sign a "+" before what is not
 * negative; "-" for NAN. */
void fmt_num(double v, bool big, bool sign, char *buf, size_t size);
/* One CSV field, the one way every CSV writer writes a name: its control
 * characters escaped as text shows them (\x1b, \x0a, \u009b: an ESC from
 * a thread name or a JIT's symbol would drive the terminal, a newline
 * would split the row), then quoted when it holds @sep or a quote. */
void csv_field(FILE *f, const char *s, const char *sep);

#endif
