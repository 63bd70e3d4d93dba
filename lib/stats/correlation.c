// SPDX-License-Identifier: MIT
/* Spearman's rank correlation: whether one measurement moves with another
 * across runs, whatever the shape of the relation. */
#include "core/core.h"
#include "stats/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct ranked_pair {
	double v;
	size_t i;
};

static int cmp_pair(const void *x, const void *y)
{
	double a = ((const struct ranked_pair *)x)->v;
	double b = ((const struct ranked_pair *)y)->v;

	return (a > b) - (a < b);
}

/* Average ranks (1-based, ties sharing their mean rank) of @v into @rank. */
static void ranks(const double *v, size_t n, struct ranked_pair *tmp, double *rank)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct ranked_pair){ v[i], i };
	qsort(tmp, n, sizeof(*tmp), cmp_pair);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && tmp[j].v == tmp[i].v; j++)
			;
		for (size_t k = i; k < j; k++)
			rank[tmp[k].i] = (double)(i + j + 1) / 2.0;
	}
}

static double pearson(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= (double)n;
	my /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

HWP_API int hwp_stats_spearman(const double *x, const double *y, size_t n, double *rho,
			       double *p_value)
{
	double *buf, *xs, *ys, *rx, *ry, r, t;
	struct ranked_pair *tmp;
	size_t m = 0;

	clear_error();
	if ((n && (!x || !y)) || !rho || !p_value)
		return fail(-EINVAL, "hwp_stats_spearman: NULL argument");
	*rho = *p_value = NAN;
	buf = malloc(4 * (n + 1) * sizeof(*buf));
	tmp = malloc((n + 1) * sizeof(*tmp));
	if (!buf || !tmp) {
		free(buf);
		free(tmp);
		return fail(-ENOMEM, "out of memory");
	}
	xs = buf;
	ys = xs + n + 1;
	rx = ys + n + 1;
	ry = rx + n + 1;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]) && !isnan(y[i])) {
			xs[m] = x[i];
			ys[m++] = y[i];
		}
	if (m >= 3) {
		ranks(xs, m, tmp, rx);
		ranks(ys, m, tmp, ry);
	}
	r = m >= 3 ? pearson(rx, ry, m) : NAN;
	free(buf);
	free(tmp);
	if (m < 3)
		return fail(-HWP_ERR_UNDEFINED,
			    "a rank correlation needs 3 runs where both are defined, not %zu",
			    m);
	if (isnan(r))
		return fail(-HWP_ERR_UNDEFINED,
			    "a rank correlation of values that do not vary is undefined");
	*rho = r;
	if (fabs(r) >= 1) {
		*p_value = 0;
		return 0;
	}
	t = r * sqrt((double)(m - 2) / (1 - r * r));
	*p_value = 2 * (1 - t_cdf(fabs(t), (double)(m - 2)));
	return 0;
}
