// SPDX-License-Identifier: MIT
/* Summaries of repeated measurements, and the distributions behind them. */
#include "core/core.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* log of the Beta function (exact to ~1e-15 here), through lgamma_r: plain
 * lgamma() writes the global signgam, and the statistics are thread-safe. */
static double log_beta(double a, double b)
{
	int sign;

	return lgamma_r(a, &sign) + lgamma_r(b, &sign) - lgamma_r(a + b, &sign);
}

/* One step of the modified Lentz algorithm: returns the factor for h. */
static double lentz_step(double num, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1.0 + num * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1.0 + num / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1.0 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete Beta function. */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0, h;

	/* The leading term sets d alone; c starts again from 1. */
	lentz_step(-(a + b) * x / (a + 1.0), &c, &d);
	c = 1.0;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
				 &c, &d);
		h *= del;
		if (fabs(del - 1.0) < 1e-15)
			break;
	}
	return h;
}

double incbeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) - log_beta(a, b));
	/* The fraction converges fast on one side of the mean; use symmetry. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* The lower tail P(T < -|t|). Near 0, df / (df + t^2) rounds to 1:
	 * work with its complement instead. */
	if (t * t < df)
		tail = 0.5 * (1.0 - incbeta(0.5, df / 2.0, t * t / (df + t * t)));
	else
		tail = 0.5 * incbeta(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail : tail;
}

double t_quantile(double p, double df)
{
	double lo = -1.0, hi = 1.0;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	while (t_cdf(lo, df) > p)
		lo *= 2;
	while (t_cdf(hi, df) < p)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + fabs(lo)); i++) {
		double mid = 0.5 * (lo + hi);

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The defined values of @values, sorted, into a new array. */
size_t sorted_defined(const double *values, size_t n, double **out)
{
	size_t k = 0;
	double *v = malloc((n ? n : 1) * sizeof(*v));

	*out = v;
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(values[i]))
			v[k++] = values[i];
	qsort(v, k, sizeof(*v), cmp_double);
	return k;
}

HWP_API int hwp_stats_summarize(const double *values, size_t n,
				struct hwp_stats_summary *out)
{
	struct hwp_stats_summary s = { .sz = sizeof(s) };
	double *v = NULL, mean = 0, m2 = 0;
	size_t k;

	if (!out)
		return fail(-EINVAL, "hwp_stats_summarize: out is NULL");
	if (n && !values)
		return fail(-EINVAL, "hwp_stats_summarize: values is NULL");
	k = sorted_defined(values, n, &v);
	if (!v)
		return fail(-ENOMEM, "out of memory");
	/* Welford's update: stable for values far from zero. */
	for (size_t i = 0; i < k; i++) {
		double d = v[i] - mean;

		mean += d / (double)(i + 1);
		m2 += d * (v[i] - mean);
	}
	s.n = k;
	s.mean = k ? mean : NAN;
	s.median = median_sorted(v, k);
	s.min = k ? v[0] : NAN;
	s.max = k ? v[k - 1] : NAN;
	s.stddev = k > 1 ? sqrt(m2 / (double)(k - 1)) : NAN;
	s.cv = k > 1 && mean != 0 ? s.stddev / fabs(mean) : NAN;
	s.rel_stderr = k > 1 && mean != 0 ? s.stddev / sqrt((double)k) / fabs(mean) : NAN;
	if (k > 1) {
		double half = t_quantile(0.975, (double)(k - 1)) * s.stddev /
			      sqrt((double)k);

		s.ci_low = mean - half;
		s.ci_high = mean + half;
	} else {
		s.ci_low = s.ci_high = NAN;
	}
	free(v);
	return info_fill(out, &s, sizeof(s));
}

/* The median of |v[i] - median| over the sorted @v, and the mean of the same. */
static int abs_deviations(const double *v, size_t k, double median, double *mad,
			  double *mean_ad)
{
	double *dev = malloc(k * sizeof(*dev)), sum = 0;

	if (!dev)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		dev[i] = fabs(v[i] - median);
		sum += dev[i];
	}
	qsort(dev, k, sizeof(*dev), cmp_double);
	*mad = median_sorted(dev, k);
	*mean_ad = sum / (double)k;
	free(dev);
	return 0;
}

HWP_API int hwp_stats_outliers_mad(const double *values, size_t n, double threshold,
			     bool *flags, size_t *nr)
{
	double *v = NULL, median, mad, mean_ad, scale;
	size_t k, count = 0;

	clear_error();
	if (n && !values)
		return fail(-EINVAL, "hwp_stats_outliers_mad: values is NULL");
	if (threshold < 0 || isnan(threshold))
		return fail(-EINVAL, "hwp_stats_outliers_mad: threshold %g is negative",
			    threshold);
	if (!threshold)
		threshold = 3.5;
	for (size_t i = 0; flags && i < n; i++)
		flags[i] = false;
	if (nr)
		*nr = 0;
	k = sorted_defined(values, n, &v);
	if (!v)
		return fail(-ENOMEM, "out of memory");
	if (k < 3)
		goto out;
	median = median_sorted(v, k);
	if (abs_deviations(v, k, median, &mad, &mean_ad)) {
		free(v);
		return fail(-ENOMEM, "out of memory");
	}
	/* 0.6745 makes the MAD of a normal sample estimate its sigma; 1.2533
	 * (sqrt(pi / 2)) does the same for the mean absolute deviation. */
	scale = mad > 0 ? mad / 0.6745 : 1.2533 * mean_ad;
	if (scale == 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		double dev = fabs(values[i] - median);

		if (isnan(values[i]) || dev / scale <= threshold)
			continue;
		/* Real runs wobble by a few counts; that is not "far". */
		if (dev <= 0.01 * fabs(median))
			continue;
		if (flags)
			flags[i] = true;
		count++;
	}
	if (nr)
		*nr = count;
out:
	free(v);
	return 0;
}

HWP_API int hwp_stats_histogram(const double *values, size_t n, size_t *bins,
				size_t nr_bins, double *lo, double *width)
{
	double min = INFINITY, max = -INFINITY, w;

	clear_error();
	if ((n && !values) || !bins || !nr_bins || !lo || !width)
		return fail(-EINVAL, "hwp_stats_histogram: NULL argument or no bin");
	memset(bins, 0, nr_bins * sizeof(*bins));
	for (size_t i = 0; i < n; i++)
		if (isfinite(values[i])) {
			min = fmin(min, values[i]);
			max = fmax(max, values[i]);
		}
	if (min > max) {
		*lo = NAN;
		*width = 0;
		return 0;
	}
	w = (max - min) / (double)nr_bins;
	for (size_t i = 0; i < n; i++) {
		double q = 0;

		if (!isfinite(values[i]))
			continue;
		if (w > 0) {
			q = (values[i] - min) / w;
			/* -1e308 and 1e308: the width overflows; halve both sides. */
			if (!isfinite(q))
				q = (values[i] / 2 - min / 2) / (max / 2 - min / 2) *
				    (double)nr_bins;
		}
		/* Rounding may put the largest value one past the end. */
		if (!(q >= 0))
			q = 0;
		bins[q < (double)nr_bins ? (size_t)q : nr_bins - 1]++;
	}
	*lo = min;
	*width = w;
	return 0;
}
