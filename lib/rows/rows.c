// SPDX-License-Identifier: MIT
/* What results, sweeps, comparisons and regions share, below all of them:
 * a row (an event or a metric, a value a run) in memory, what it shows,
 * its JSON, and the environment a measurement was made in. */
#include "core/core.h"
#include "rows/rows.h"
#include "util/format.h"
#include "util/json-writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

void series_release(struct series *sr)
{
	free(sr->name);
	free(sr->unit);
	free(sr->canonical);
	free(sr->expr);
	free(sr->reason);
	free(sr->note);
	free(sr->values);
	free(sr->pct);
	free(sr->running);
}

/* ---- what a row shows ---- */

double mean_defined(const double *v, size_t n)
{
	double s = 0;
	size_t k = 0;

	for (size_t i = 0; v && i < n; i++)
		if (!isnan(v[i])) {
			s += v[i];
			k++;
		}
	return k ? s / (double)k : NAN;
}

void row_init(const struct series *sr, size_t nr_runs, struct row *row)
{
	memset(row, 0, sizeof(*row));
	row->sr = sr;
	row->sum.sz = sizeof(row->sum);
	hwp_stats_summarize(sr->values, nr_runs, &row->sum);
	row->value = row->sum.n ? row->sum.mean : NAN;
	row->pct = sr->kind == HWP_SERIES_EVENT ? mean_defined(sr->pct, nr_runs) : NAN;
	row->running = sr->kind == HWP_SERIES_EVENT ?
		       mean_defined(sr->running, nr_runs) : NAN;
	row->clock = sr->kind == HWP_SERIES_EVENT && !strcmp(sr->unit, "ns");
	row->measure = sr->kind == HWP_SERIES_EVENT && *sr->unit && !row->clock;
}

const char *row_unit(const struct row *row)
{
	if (row->clock)
		return "msec";
	return row->measure ? row->sr->unit : "";
}

size_t series_occurrence(const struct series *rows, size_t idx)
{
	size_t nth = 0;

	for (size_t i = 0; i < idx; i++)
		nth += rows[i].kind == rows[idx].kind &&
		       !strcmp(rows[i].name, rows[idx].name);
	return nth;
}

long series_nth(const struct series *rows, size_t nr, enum hwp_series_kind kind,
		const char *name, size_t nth)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].kind == kind && !strcmp(rows[i].name, name) && nth-- == 0)
			return (long)i;
	return -1;
}

const char *kind_heading(enum hwp_series_kind kind)
{
	return kind == HWP_SERIES_METRIC ? "Metrics" :
	       kind == HWP_SERIES_SCORE ? "Scores" :
	       kind == HWP_SERIES_TIME ? "Times" : NULL;
}

const char *kind_name(enum hwp_series_kind kind)
{
	return kind == HWP_SERIES_EVENT ? "event" :
	       kind == HWP_SERIES_METRIC ? "metric" :
	       kind == HWP_SERIES_SCORE ? "score" : "time";
}

const char *row_placeholder(const struct row *row)
{
	/* A metric is not supported when one of its events is not. */
	if (!row->sr->supported)
		return "<not supported>";
	if (row->sum.n && !isnan(row->value))
		return NULL;
	return row->sr->kind == HWP_SERIES_EVENT ? "<not counted>" : "<undefined>";
}

void fmt_metric(double v, bool big, char *buf, size_t size)
{
	if (fabs(v) >= 1e5)
		fmt_grouped(v, big, buf, size);
	else if (fabs(v) >= 100)
		snprintf(buf, size, "%.1f", v);
	else if (v != 0 && fabs(v) < 0.01)
		snprintf(buf, size, "%.3g", v);	/* 7.69e-05, not 0.000 */
	else
		snprintf(buf, size, "%.3f", v);
}

void row_format(const struct row *row, bool big, char *buf, size_t size)
{
	const char *ph = row_placeholder(row);

	if (ph)
		snprintf(buf, size, "%s", ph);
	else if (row->clock)
		snprintf(buf, size, "%.2f", row->value / 1e6);
	else if (row->measure)
		snprintf(buf, size, "%.2f", row->value);
	else if (row->sr->kind == HWP_SERIES_EVENT)
		fmt_grouped(row->value, big, buf, size);
	else
		fmt_metric(row->value, big, buf, size);
	/* A rate in percent shows its sign, within the buffer (a huge value
	 * can fill it). */
	if (!ph && row->sr->kind == HWP_SERIES_METRIC && !strcmp(row->sr->unit, "%")) {
		size_t len = strnlen(buf, size);

		if (len + 1 < size) {
			buf[len] = '%';
			buf[len + 1] = '\0';
		}
	}
}

/* Which runs of a row are outliers (hwp_stats_outliers_mad()); NULL when none
 * or out of memory, which only costs the annotation. */
bool *series_outliers(const struct series *sr, size_t nr_runs, size_t *nr)
{
	bool *flags = nr_runs >= 3 ? calloc(nr_runs, sizeof(*flags)) : NULL;

	*nr = 0;
	if (flags &&
	    (hwp_stats_outliers_mad(sr->values, nr_runs, 0, flags, nr) || !*nr)) {
		free(flags);
		flags = NULL;
		*nr = 0;
	}
	return flags;
}

/* ---- JSON ---- */

void values_json(struct json_writer *w, const double *v, size_t n)
{
	jw_array_begin(w, true);
	for (size_t i = 0; v && i < n; i++)
		jw_number(w, v[i]);
	jw_array_end(w);
}

void summary_json(struct json_writer *w, const struct hwp_stats_summary *s)
{
	jw_key(w, "mean");
	jw_number(w, s->mean);
	jw_key(w, "median");
	jw_number(w, s->median);
	jw_key(w, "stddev");
	jw_number(w, s->stddev);
	jw_key(w, "cv");
	jw_number(w, s->cv);
	jw_key(w, "min");
	jw_number(w, s->min);
	jw_key(w, "max");
	jw_number(w, s->max);
	jw_key(w, "ci95");
	jw_array_begin(w, true);
	jw_number(w, s->ci_low);
	jw_number(w, s->ci_high);
	jw_array_end(w);
}

void command_line(char *const *argv, struct strbuf *sb)
{
	for (size_t i = 0; argv && argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
	if (!argv || !argv[0])
		strbuf_adds(sb, "(no command)");
}

/* ---- the environment ---- */

void environment_release(struct environment *env)
{
	free(env->host);
	free(env->kernel);
	free(env->cpu);
	free(env->date);
	free(env->version);
	hwp_topology_free(env->topology);
	for (size_t i = 0; i < env->nr_facts; i++) {
		free(env->facts[i].name);
		free(env->facts[i].value);
	}
	free(env->facts);
	memset(env, 0, sizeof(*env));
}

static char *cpu_model(void)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");
	char *model = NULL;

	if (!f)
		return strdup("unknown");
	while (!model && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (colon && (!strncmp(line, "model name", 10) ||
			      !strncmp(line, "Processor", 9) ||
			      !strncmp(line, "cpu model", 9))) {
			colon += 1 + (colon[1] == ' ');
			colon[strcspn(colon, "\n")] = '\0';
			model = strdup(colon);
		}
	}
	fclose(f);
	return model ? model : strdup("unknown");
}

int environment_read(struct environment *env, bool doctor)
{
	struct utsname u;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	memset(env, 0, sizeof(*env));
	if (uname(&u)) {
		snprintf(u.nodename, sizeof(u.nodename), "unknown");
		snprintf(u.release, sizeof(u.release), "unknown");
	}
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	env->host = strdup(u.nodename);
	env->kernel = strdup(u.release);
	env->cpu = cpu_model();
	env->date = strdup(date);
	env->version = strdup(HWPROF_VERSION);
	env->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* Without sysfs the environment goes without it: not a failure. */
	if (hwp_topology_load(NULL, &env->topology))
		clear_error();
	if (!env->host || !env->kernel || !env->cpu || !env->date || !env->version ||
	    (doctor && doctor_facts(&env->facts, &env->nr_facts))) {
		environment_release(env);
		return -ENOMEM;
	}
	return 0;
}

/* A result read from a file keeps where it was measured; a new one is
 * measured here, now. */
void json_environment(struct json_writer *w, const struct environment *saved)
{
	struct environment here = { 0 };
	const struct environment *env = saved;

	if (!env || !env->host) {
		environment_read(&here, false);
		env = &here;
	}
	jw_key(w, "environment");
	jw_object_begin(w);
	jw_key(w, "host");
	jw_string(w, env->host);
	jw_key(w, "kernel");
	jw_string(w, env->kernel);
	jw_key(w, "cpu");
	jw_string(w, env->cpu);
	jw_key(w, "nr_cpus");
	jw_int(w, env->nr_cpus);
	jw_key(w, "date");
	jw_string(w, env->date);
	jw_key(w, "hwprof_version");
	jw_string(w, env->version);
	if (env->topology) {
		jw_key(w, "topology");
		jw_array_begin(w, false);
		for (size_t i = 0; i < env->topology->nr; i++) {
			const struct cpu_topo *c = &env->topology->cpus[i];

			jw_object_begin(w);
			jw_key(w, "cpu");
			jw_int(w, c->cpu);
			jw_key(w, "core");
			jw_int(w, c->core);
			jw_key(w, "die");
			jw_int(w, c->die);
			jw_key(w, "socket");
			jw_int(w, c->package);
			jw_key(w, "node");
			jw_int(w, c->node);
			jw_object_end(w);
		}
		jw_array_end(w);
	}
	if (env->nr_facts) {
		jw_key(w, "doctor");
		jw_array_begin(w, false);
		for (size_t i = 0; i < env->nr_facts; i++) {
			jw_object_begin(w);
			jw_key(w, "name");
			jw_string(w, env->facts[i].name);
			jw_key(w, "value");
			jw_string(w, env->facts[i].value);
			jw_key(w, "noisy");
			jw_bool(w, env->facts[i].noisy);
			jw_object_end(w);
		}
		jw_array_end(w);
	}
	jw_object_end(w);
	environment_release(&here);
}
