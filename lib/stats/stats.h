/* SPDX-License-Identifier: MIT */
/* Distributions for the statistics; private to the library and its tests. */
#ifndef HWPROF_STATS_H
#define HWPROF_STATS_H

#include <stddef.h>

/* The regularized incomplete Beta function I_x(a, b). */
double incbeta(double a, double b, double x);
/* Student's t distribution: P(T <= t) with @df degrees of freedom. */
double t_cdf(double t, double df);
/* Its inverse. */
double t_quantile(double p, double df);
/* The standard normal distribution: P(Z <= z). */
double normal_cdf(double z);
/* The median of @n sorted values; NAN when n is 0. */
double median_sorted(const double *v, size_t n);
/* Copy the values that are not NAN into a new sorted array (*out, free it). */
size_t sorted_defined(const double *values, size_t n, double **out);

#endif
