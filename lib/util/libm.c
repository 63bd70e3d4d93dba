// SPDX-License-Identifier: MIT
/* The library's calls of libm, without libm linked: a linked libm costs
 * every start of hwprof its mapping, relocation and constructors (9 page
 * faults of a 'stat -- true', at 15-40 us each in a VM), for functions that
 * only statistics over runs and comparisons call. These definitions (hidden,
 * as everything of the library) take the calls: the exact ones here, the
 * rest forwarded to glibc's own libm, loaded at the first call, so that
 * every result keeps glibc's last bits. Optimized, sqrt() needs neither: the
 * library is built with -fno-math-errno, so the compiler's square root
 * instruction (correctly rounded, as libm's) is the whole call. */
#include "util/dynlib.h"

#include <math.h>

#define LIBM_FUNCS(X) X(erfc) X(exp) X(floor) X(lgamma_r) X(log) X(log10) X(log1p) X(sqrt)

/* libm is glibc's, of the same package as libc: it cannot be missing where
 * the library runs. Should dlopen() fail anyway, each call returns NAN, a
 * value no output shows as a number, rather than a plausible wrong one. */
DYNLIB(LIBM_FUNCS, "libm.so.6", "libm", "libc6")

/* Each function of one double, forwarded. floor() and sqrt() are
 * instructions at -O2 (floor a short inline sequence without SSE4.1); an
 * unoptimized build (-O0, the sanitizers' debug builds) calls them. */
#define FORWARD(fn)                                      \
	double fn(double x)                              \
	{                                                \
		return dl_load() ? NAN : dl.fn(x);       \
	}
FORWARD(erfc)
FORWARD(exp)
FORWARD(floor)
FORWARD(log)
FORWARD(log10)
FORWARD(log1p)
FORWARD(sqrt)

double lgamma_r(double x, int *sign)
{
	return dl_load() ? NAN : dl.lgamma_r(x, sign);
}

/* As glibc's x86-64 fmin and fmax (minsd, maxsd after a NAN check), to the
 * sign of a zero: the number over a NAN, else the first if it is below
 * (above) the second, else the second. */
double fmin(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a < b ? a : b;
}

double fmax(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	return a > b ? a : b;
}
