// SPDX-License-Identifier: MIT
/* hwprof stat: the progress line of repeated runs, --histogram, and the
 * intervals of -I. */
#include "stat.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* -I --format openmetrics or prometheus -o FILE: a textfile collector
 * (node_exporter's) reads the latest exposition, so FILE holds one,
 * replaced whole each interval (written aside and renamed into place).
 * Standard output, a pipe or a device gets one after the other. */
bool stat_replaced_each_interval(const struct stat_config *c)
{
	const char *path = c->output;
	struct stat st;

	if ((c->format != HWP_FORMAT_OPENMETRICS && c->format != HWP_FORMAT_PROMETHEUS) ||
	    !path || !strcmp(path, "-"))
		return false;
	return stat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode);
}

struct interval_out {
	const struct hwp_result *res;
	const struct hwp_write_opts *o;
};

static int write_interval(void *ctx, FILE *f)
{
	const struct interval_out *out = ctx;

	return hwp_result_write(out->res, f, out->o);
}

int interval_write(struct stat_ctx *sc, const struct hwp_result *res,
		   struct hwp_write_opts *o)
{
	struct interval_out out;
	FILE *f;
	int err;

	if (!stat_replaced_each_interval(sc->cfg)) {
		err = hwp_result_write(res, sc->stream, o);
		/* Said by the caller, once: the output is dropped, not committed. */
		sc->write_failed |= err != 0;
		return err;
	}
	/* The first interval's file is open already: see prepare(). */
	if (!sc->out) {
		err = cli_ofile_open(sc->cfg->output, &sc->out, &f);
		if (err)
			return err;
	}
	o->no_header = false;
	out = (struct interval_out){ res, o };
	err = cli_ofile_write(sc->out, write_interval, &out);
	/* Each file is whole: what finish_output() flushes is stderr. */
	sc->out = NULL;
	sc->stream = stderr;
	return err;
}

#define MAX_BINS 20
#define BAR_WIDTH 40

void progress_init(struct progress *p, const struct stat_config *c)
{
	memset(p, 0, sizeof(*p));
	/* Only people watching a terminal want it; a log file does not.
	 * Asked last: one run has no progress to show (an ioctl saved). */
	p->on = !c->interval_ms && (c->repeat + c->warmup > 1 || c->sweep) &&
		isatty(STDERR_FILENO);
}

void progress_show(struct progress *p, const char *label, bool warmup, long i, long n)
{
	double t = cli_now();
	char line[320];
	int len;

	if (!p->on)
		return;
	if (i == 0)
		p->t_start = t;
	len = snprintf(line, sizeof(line), "[hwprof stat] %s%s%s %ld/%ld",
		       label ? label : "", label ? ": " : "",
		       warmup ? "warm-up run" : "run", i + 1, n);
	if (i > 0 && len > 0 && (size_t)len < sizeof(line))
		snprintf(line + len, sizeof(line) - (size_t)len, ", about %.0f s left",
			 (t - p->t_start) / (double)i * (double)(n - i));
	cli_progress_show(line);
}

/* As the library matches names in formulas: case, '-' and '_' aside. */
static bool same_name(const char *a, const char *b)
{
	while (*a || *b) {
		if (*a == '-' || *a == '_') {
			a++;
		} else if (*b == '-' || *b == '_') {
			b++;
		} else if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
			return false;
		} else {
			a++;
			b++;
		}
	}
	return true;
}

int histogram_check(const struct stat_ctx *sc)
{
	const char *name = sc->cfg->histogram;

	for (size_t i = 0; i < hwp_evlist_nr_events(sc->evl); i++) {
		struct hwp_event_info ei = { .sz = sizeof(ei) };

		if (!hwp_evlist_event(sc->evl, i, &ei) &&
		    (same_name(name, ei.name) || same_name(name, ei.canonical)))
			return 0;
	}
	for (size_t i = 0; i < sc->cfg->nr_metrics; i++)
		if (same_name(name, hwp_metric_name(sc->metrics[i])))
			return 0;
	for (size_t i = 0; hwp_metric_builtin(i); i++)
		if (same_name(name, hwp_metric_name(hwp_metric_builtin(i))))
			return 0;
	for (size_t i = 0; i < sc->nr_scores; i++)
		if (same_name(name, hwpriv_score_name(sc->scores[i])))
			return 0;
	cli_error("stat",
		  "--histogram: '%s' is neither an event of the list (%s) nor a metric nor a score",
		  name, hwp_evlist_spec(sc->evl));
	return CLI_EXIT_USAGE;
}

/* Whether @v, not a NAN, is a whole number: floor() without libm, which
 * the CLI does not link (an unoptimized build would call it). */
static bool is_whole(double v)
{
	return !(v < 0x1p52 && v > -0x1p52) || v == (double)(long long)v;
}

/* Whole numbers over a short range get a bin each; the rest, Sturges'
 * ceil(log2 n) + 1 bins. */
static size_t nr_bins_for(const double *v, size_t n, bool *whole)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t k = 0, bins;

	*whole = true;
	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		lo = lo < v[i] ? lo : v[i];	/* fmin() without libm: no NAN here */
		hi = hi > v[i] ? hi : v[i];
		*whole &= is_whole(v[i]);
		k++;
	}
	if (!k)
		return 1;	/* no value: one empty bin, not a cast of -inf */
	if (*whole && hi - lo < MAX_BINS)
		return (size_t)(hi - lo) + 1;
	*whole = false;
	for (bins = 1; k > 1; k = (k + 1) / 2)	/* ceil(log2 k) + 1, in integers */
		bins++;
	return bins > MAX_BINS ? MAX_BINS : bins;
}

/* floor(log10(@v)) of a positive @v, as printf's exponent (the CLI links
 * no libm: its start would pay for it); a @v within 5e-15 below a power of
 * ten counts as that power. */
static int decimal_exponent(double v)
{
	char s[32], *e;

	snprintf(s, sizeof(s), "%.14e", v);
	e = strchr(s, 'e');
	return e ? atoi(e + 1) : 0;	/* "inf" */
}

static void draw(FILE *f, const size_t *bins, size_t nr, double lo, double width,
		 bool whole, const char *unit)
{
	size_t most = 1;
	int decimals = width > 0 ? 2 - decimal_exponent(width) : 0;

	decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
	for (size_t b = 0; b < nr; b++)
		most = bins[b] > most ? bins[b] : most;
	for (size_t b = 0; b < nr; b++) {
		char label[96], bar[BAR_WIDTH + 1];
		size_t len = bins[b] ? (bins[b] * BAR_WIDTH + most - 1) / most : 0;

		if (whole)
			snprintf(label, sizeof(label), "%.0f%s", lo + (double)b, unit);
		else
			snprintf(label, sizeof(label), "%.*f - %.*f%s", decimals,
				 lo + (double)b * width, decimals,
				 lo + (double)(b + 1) * width, unit);
		memset(bar, '#', len);
		bar[len] = '\0';
		fprintf(f, " %28s  %-*s %zu\n", label, BAR_WIDTH, bar, bins[b]);
	}
}

int histogram_print(const struct hwp_result *r, const char *name, FILE *f)
{
	struct hwp_series_info si = { .sz = sizeof(si) };
	bool clock, whole;
	size_t idx, nr, bins[MAX_BINS], outliers = 0;
	double *v, lo, width;
	int err;

	err = hwp_result_find(r, name, &idx) ?: hwp_result_series(r, idx, &si);
	if (err)
		return err;
	v = malloc((si.nr_runs ? si.nr_runs : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	/* Clocks count ns; the report shows msec. */
	clock = si.kind == HWP_SERIES_EVENT && !strcmp(si.unit, "ns");
	for (size_t i = 0; i < si.nr_runs; i++)
		v[i] = clock ? si.values[i] / 1e6 : si.values[i];
	nr = nr_bins_for(v, si.nr_runs, &whole);
	err = hwp_stats_histogram(v, si.nr_runs, bins, nr, &lo, &width) ?:
	      hwp_stats_outliers_mad(si.values, si.nr_runs, 0, NULL, &outliers);
	if (!err) {
		fprintf(f, " Histogram of %s, %zu run%s", si.name, si.nr_runs,
			si.nr_runs == 1 ? "" : "s");
		if (outliers)
			fprintf(f, " (%zu outlier%s)", outliers,
				outliers == 1 ? "" : "s");
		fprintf(f, ":\n");
		if (isnan(lo))
			fprintf(f, " %28s\n\n", "(no value)");
		else
			draw(f, bins, nr, lo, width, whole, clock ? " msec" : "");
		fputc('\n', f);
	}
	free(v);
	return err;
}
