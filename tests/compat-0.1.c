// SPDX-License-Identifier: MIT
/* A program built against 0.1 runs against this library: 0.1's names and
 * the 0.1 versions of the functions 0.2 reshaped are still exported
 * (lib/compat.c). Their prototypes are written here as 0.1's header had
 * them, and the reshaped ones are bound to version HWPROF_0.1 as a program
 * linked against 0.1 is. */
#include <hwprof/hwprof.h>

#include "harness.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 0.1's names, with 0.2's types of the same layout. */
int hwp_summarize(const double *values, size_t n, struct hwp_stats_summary *out);
int hwp_holm_adjust(const double *p, size_t n, double *adjusted);
int hwp_record_stats(const struct hwp_record *r, struct hwp_record_info *st);
const char *hwp_regions_events(void);
unsigned int hwp_regions_sample_every(void);
int hwp_histogram(const double *values, size_t n, size_t *bins, size_t nr_bins,
		  double *lo, double *width);
int hwp_outliers_mad(const double *values, size_t n, double threshold, bool *outlier,
		     size_t *nr_outliers);
int hwp_sample_test(const double *a, size_t na, const double *b, size_t nb,
		    const struct hwp_stats_test_opts *opts,
		    struct hwp_stats_test_result *out);
int hwp_cpulist_parse(const char *list, int **cpus, size_t *nr);
int hwp_regions_init(const struct hwp_region_opts *opts);
int hwp_regions_foreach(hwp_region_fn fn, void *ctx);
int hwp_regions_write(FILE *f, const struct hwp_write_opts *opts);
int hwp_regions_save(const char *path);
double hwp_regions_read_cost(void);
int hwp_profile_top(struct hwp_profile *p, enum hwp_sort sort, size_t n, hwp_entry_fn fn,
		    void *ctx);
int hwp_profile_modules(struct hwp_profile *p, hwp_module_fn fn, void *ctx);
int hwp_profile_stacks(struct hwp_profile *p, hwp_stack_fn fn, void *ctx);

/* 0.1's names that 0.2 took out of the API (docs/api.md), still exported. */
struct hwp_ofile;
int hwp_ofile_open(const char *path, struct hwp_ofile **out);
FILE *hwp_ofile_stream(struct hwp_ofile *of);
int hwp_ofile_commit(struct hwp_ofile *of);
void hwp_ofile_abort(struct hwp_ofile *of);
const char *hwp_metric_unit(const struct hwp_metric *m);
const char *hwp_metric_expr(const struct hwp_metric *m);
const char *hwp_metric_desc(const struct hwp_metric *m);
const char *hwp_profile_event_name(const struct hwp_profile *p, size_t idx);
int hwp_profile_annotate(struct hwp_profile *p, const char *symbol, hwp_annotate_fn fn,
			 void *ctx);
int hwp_result_set_target(struct hwp_result *r, const char *target);
int hwp_result_add_regions(struct hwp_result *r, const char *path);
int hwp_sweep_new(const char *param, struct hwp_sweep **out);
int hwp_sweep_set_command(struct hwp_sweep *sw, char *const argv[]);
int hwp_sweep_add(struct hwp_sweep *sw, const char *value, struct hwp_result *r);

/* 0.1's names that 0.2 renamed (docs/api-renames.txt). */
int hwp_profile_open(const char *path, const struct hwp_profile_opts *opts,
		     struct hwp_profile **out);
int hwp_result_read(const char *path, struct hwp_result **out);
const char *hwp_verdict_name(enum hwp_verdict v);
int hwp_sweep_read(const char *path, struct hwp_sweep **out);
int hwp_compare_results(const struct hwp_result *a, const struct hwp_result *b,
			const struct hwp_compare_opts *opts, struct hwp_compare **out);
int hwp_compare_sweeps(const struct hwp_sweep *a, const struct hwp_sweep *b,
		       const struct hwp_compare_opts *opts, struct hwp_compare **out);

/* 0.1's hwp_profile_write() took these options. */
struct report_opts_0_1 {
	size_t sz;
	enum hwp_format format;
	enum hwp_sort sort;
	size_t top;
	const char *separator;
	const char *annotate;
};

int profile_write_0_1(struct hwp_profile *p, FILE *f, const struct report_opts_0_1 *opts);
__asm__(".symver profile_write_0_1, hwp_profile_write@HWPROF_0.1");
int workload_wait_0_1(struct hwp_workload *w, int *status, const volatile int *stop);
__asm__(".symver workload_wait_0_1, hwp_workload_wait@HWPROF_0.1");

/* 0.1's hwp_record_new() took the event list as a string, in its options. */
struct record_opts_0_1 {
	size_t sz;
	const char *events;
	uint64_t freq;
	uint64_t period;
	enum hwp_callchain callchain;
	enum hwp_scope scope;
	pid_t pid;
	const char *cpus;
	bool no_inherit;
	bool enable_on_exec;
	size_t mmap_pages;
	const char *output;
	char *const *argv;
};

int record_new_0_1(const struct record_opts_0_1 *opts, struct hwp_record **out);
__asm__(".symver record_new_0_1, hwp_record_new@HWPROF_0.1");

static void test_renamed(void)
{
	double v[] = { 1, 2, 3 }, p[] = { 0.01, 0.04 }, adj[2];
	struct hwp_stats_summary s = { .sz = sizeof(s) };

	CHECK_ERR(hwp_summarize(v, 3, &s), 0);
	CHECK(s.mean == 2, "mean %g", s.mean);
	CHECK_ERR(hwp_holm_adjust(p, 2, adj), 0);
	CHECK(adj[0] == 0.02 && adj[1] == 0.04, "Holm: %g %g", adj[0], adj[1]);
	CHECK(hwp_regions_events() == NULL && hwp_regions_sample_every() == 1,
	      "no regions configured");
}

static void test_workload_wait(void)
{
	char *argv[] = { "true", NULL };
	struct hwp_workload *w;
	int status = -1;

	CHECK_ERR(hwp_workload_new(argv, NULL, &w), 0);
	CHECK_ERR(hwp_workload_start(w), 0);
	CHECK_ERR(workload_wait_0_1(w, &status, NULL), 0);
	CHECK(status == 0, "true's status %d", status);
	hwp_workload_free(w);
}

static void test_stats_0_1(void)
{
	double v[] = { 1, 2, 3, 4, 100 }, lo = 0, width = 0;
	struct hwp_stats_test_result t = { .sz = sizeof(t) };
	size_t bins[2] = { 0 }, nr = 0, n = 0;
	bool flags[5] = { false };
	int *cpus = NULL;

	CHECK_ERR(hwp_histogram(v, 4, bins, 2, &lo, &width), 0);
	CHECK(bins[0] == 2 && bins[1] == 2 && lo == 1 && width == 1.5,
	      "bins %zu %zu from %g, %g wide", bins[0], bins[1], lo, width);
	CHECK_ERR(hwp_outliers_mad(v, 5, 3.5, flags, &nr), 0);
	CHECK(nr == 1 && flags[4] && !flags[0], "%zu outliers, 100 one of them: %d", nr,
	      flags[4]);
	CHECK_ERR(hwp_sample_test(v, 4, v, 4, NULL, &t), 0);
	CHECK(t.na == 4 && t.nb == 4 && t.diff == 0, "na %zu nb %zu diff %g", t.na, t.nb,
	      t.diff);
	/* Online CPUs only: CPU 0 always is. */
	CHECK(!strcmp(hwp_verdict_name(HWP_VERDICT_INCREASE), "increase") &&
	      !strcmp(hwp_verdict_name(HWP_VERDICT_NONE), "n/a") &&
	      !strcmp(hwp_verdict_name((enum hwp_verdict)99), "n/a"), "verdict names");
	CHECK_ERR(hwp_cpulist_parse("0", &cpus, &n), 0);
	CHECK(n == 1 && cpus && cpus[0] == 0, "%zu CPUs", n);
	free(cpus);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 65536);

	if (f && text)
		fread(text, 1, 65535, f);
	if (f)
		fclose(f);
	return text;
}

static void test_ofile_0_1(void)
{
	char dir[] = "/tmp/hwprof-compat-XXXXXX", path[64];
	struct hwp_ofile *of = NULL;
	char *text;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/out", dir);
	CHECK_ERR(hwp_ofile_open(path, &of), 0);
	fputs("kept\n", hwp_ofile_stream(of));
	CHECK_ERR(hwp_ofile_commit(of), 0);
	CHECK_ERR(hwp_ofile_open(path, &of), 0);
	fputs("dropped\n", hwp_ofile_stream(of));
	hwp_ofile_abort(of);
	text = slurp(path);
	CHECK(text && !strcmp(text, "kept\n"), "the file holds '%s'", text ? text : "");
	free(text);
	unlink(path);
	rmdir(dir);
}

static int region_calls(const struct hwp_region_info *info, void *ctx)
{
	if (!strcmp(info->name, "compat") && info->tid == 0)
		*(uint64_t *)ctx = info->calls;
	return 0;
}

/* Write @obj as JSON to @path with @write. */
static int json_to(const char *path, const void *obj,
		   int (*write)(const void *obj, FILE *f, const struct hwp_write_opts *o))
{
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	err = write(obj, f, &json);
	return fclose(f) || err ? -EIO : 0;
}

static int write_result(const void *r, FILE *f, const struct hwp_write_opts *o)
{
	return hwp_result_write(r, f, o);
}

static int write_sweep(const void *sw, FILE *f, const struct hwp_write_opts *o)
{
	return hwp_sweep_write(sw, f, o);
}

/* The files of a sweep and its result, read back and compared with 0.1's
 * names. */
static void read_back_0_1(const struct hwp_sweep *sw, const char *dir)
{
	struct hwp_profile *prof = (struct hwp_profile *)&prof;
	struct hwp_result *r = NULL;
	struct hwp_sweep *sw2 = NULL;
	struct hwp_compare *c = NULL;
	char rpath[64], spath[64];

	snprintf(rpath, sizeof(rpath), "%s/result.json", dir);
	snprintf(spath, sizeof(spath), "%s/sweep.json", dir);
	CHECK_ERR(json_to(rpath, hwp_sweep_result(sw, 0), write_result), 0);
	CHECK_ERR(json_to(spath, sw, write_sweep), 0);
	CHECK_ERR(hwp_result_read(rpath, &r), 0);
	CHECK(r && hwp_result_nr_runs(r) == 2, "the result read back has its runs");
	CHECK_ERR(hwp_compare_results(hwp_sweep_result(sw, 0), r, NULL, &c), 0);
	CHECK(c && hwp_compare_nr_rows(c) > 0, "a comparison of the result with itself");
	hwp_compare_free(c);
	c = NULL;
	CHECK_ERR(hwp_sweep_read(spath, &sw2), 0);
	CHECK(sw2 && hwp_sweep_nr_points(sw2) == 1, "the sweep read back has its point");
	CHECK_ERR(hwp_compare_sweeps(sw, sw2, NULL, &c), 0);
	CHECK(c && hwp_compare_nr_rows(c) > 0, "a comparison of the sweep with itself");
	hwp_compare_free(c);
	hwp_sweep_free(sw2);
	hwp_result_free(r);
	CHECK_ERR(hwp_profile_open(rpath, NULL, &prof), -HWP_ERR_FORMAT);
	CHECK(prof == NULL, "no profile of a JSON file");
	unlink(rpath);
	unlink(spath);
}

/* The regions of 0.1, in a thread of their own: its counters close when
 * it exits. */
static void *regions_0_1(void *path)
{
	HWP_OPTS(hwp_region_opts, ro, .events = "task-clock");
	HWP_OPTS(hwp_write_opts, json, .format = HWP_FORMAT_JSON);
	uint64_t calls = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CHECK_ERR(hwp_regions_init(&ro), 0);
	for (int i = 0; i < 3; i++) {
		CHECK_ERR(hwp_region_begin("compat"), 0);
		CHECK_ERR(hwp_region_end("compat"), 0);
	}
	CHECK_ERR(hwp_regions_foreach(region_calls, &calls), 0);
	CHECK(calls == 3, "%llu calls", (unsigned long long)calls);
	CHECK(hwp_regions_read_cost() >= 0, "read cost %g ns", hwp_regions_read_cost());
	mem = open_memstream(&text, &len);
	CHECK_ERR(hwp_regions_write(mem, &json), 0);
	fclose(mem);
	CHECK(text && strstr(text, "\"compat\""), "the regions written: %.200s", text);
	free(text);
	CHECK_ERR(hwp_regions_save(path), 0);
	return NULL;
}

/* A result and a sweep built with 0.1's names, with those regions. */
static void test_regions_result_0_1(void)
{
	char dir[] = "/tmp/hwprof-compat-XXXXXX", path[64], *argv[] = { "true", NULL };
	pthread_t th;
	struct hwp_evlist *evl = NULL;
	struct hwp_session *s = NULL;
	struct hwp_result *r = NULL;
	struct hwp_sweep *sw = NULL;
	const struct hwp_metric *m = NULL;
	struct hwp_count count;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/regions.json", dir);
	CHECK(pthread_create(&th, NULL, regions_0_1, path) == 0, "pthread_create");
	pthread_join(th, NULL);

	for (size_t i = 0; (m = hwp_metric_builtin(i)); i++)
		if (!strcmp(hwp_metric_name(m), "IPC"))
			break;
	CHECK(m && !strcmp(hwp_metric_unit(m), "insn/cycle"), "IPC's unit");
	CHECK(m && strstr(hwp_metric_expr(m), "instructions") && *hwp_metric_desc(m),
	      "IPC's formula and description");
	CHECK_ERR(hwp_evlist_parse("task-clock", NULL, &evl), 0);
	CHECK_ERR(hwp_session_new(evl, NULL, &s), 0);
	CHECK_ERR(hwp_session_open(s), 0);
	CHECK_ERR(hwp_session_enable(s), 0);
	for (volatile int i = 0; i < 1000000; i++)
		;
	CHECK_ERR(hwp_session_disable(s), 0);
	CHECK_ERR(hwp_session_read(s, &count, 1), 0);
	CHECK(count.value > 0, "task-clock counted %llu ns",
	      (unsigned long long)count.value);
	CHECK_ERR(hwp_result_new(&r), 0);
	CHECK_ERR(hwp_result_set_command(r, argv), 0);
	CHECK_ERR(hwp_result_set_target(r, "compat"), 0);
	CHECK_ERR(hwp_result_add_metric(r, m), 0);
	CHECK_ERR(hwp_result_add_run(r, s, &count, 0.5), 0);
	CHECK_ERR(hwp_result_add_run(r, s, &count, 0.5), 0);
	hwp_result_set_exit_status(r, 3);
	CHECK_ERR(hwp_result_add_regions(r, path), 0);
	CHECK(hwp_result_nr_runs(r) == 2 && hwp_result_nr_regionsets(r) == 1,
	      "%zu runs, %zu regionsets", hwp_result_nr_runs(r),
	      hwp_result_nr_regionsets(r));
	CHECK_ERR(hwp_sweep_new("n", &sw), 0);
	CHECK_ERR(hwp_sweep_set_command(sw, argv), 0);
	CHECK_ERR(hwp_sweep_add(sw, "1", r), 0);
	CHECK(hwp_sweep_nr_points(sw) == 1 && hwp_sweep_result(sw, 0) == r, "one point");
	read_back_0_1(sw, dir);
	hwp_sweep_free(sw);
	hwp_session_free(s);
	hwp_evlist_free(evl);
	unlink(path);
	rmdir(dir);
}

struct walked {
	uint64_t samples;
	char top[256];
};

static int entry_seen(const struct hwp_entry *e, void *ctx)
{
	struct walked *w = ctx;

	w->samples += e->samples;
	if (!w->top[0] && e->name)
		snprintf(w->top, sizeof(w->top), "%s", e->name);
	return 0;
}

static int module_seen(const struct hwp_module_info *m, void *ctx)
{
	((struct walked *)ctx)->samples += m->samples;
	return 0;
}

static int stack_seen(const struct hwp_stack *st, void *ctx)
{
	((struct walked *)ctx)->samples += st->samples;
	return 0;
}

static int line_seen(const struct hwp_annotate_line *l, void *ctx)
{
	((struct walked *)ctx)->samples += l->samples;
	return 0;
}

/* The walks of 0.1's names see the samples of the recording. */
static void profile_walks_0_1(struct hwp_profile *prof)
{
	struct walked top = { 0 }, mods = { 0 }, stacks = { 0 }, lines = { 0 };
	int err;

	CHECK(hwp_profile_event_name(prof, 0) &&
	      !strcmp(hwp_profile_event_name(prof, 0), "cpu-clock") &&
	      !hwp_profile_event_name(prof, 1), "the file's one event");
	CHECK_ERR(hwp_profile_top(prof, HWP_SORT_SYM, 0, entry_seen, &top), 0);
	CHECK_ERR(hwp_profile_modules(prof, module_seen, &mods), 0);
	CHECK_ERR(hwp_profile_stacks(prof, stack_seen, &stacks), 0);
	CHECK(top.samples > 0 && mods.samples == top.samples &&
	      stacks.samples == top.samples,
	      "samples: %llu by symbol, %llu by module, %llu by stack",
	      (unsigned long long)top.samples, (unsigned long long)mods.samples,
	      (unsigned long long)stacks.samples);
	err = hwp_profile_annotate(prof, top.top, line_seen, &lines);
	if (err != -EOPNOTSUPP) {
		CHECK_ERR(err, 0);
		CHECK(lines.samples > 0, "%llu samples in %s's lines",
		      (unsigned long long)lines.samples, top.top);
	}
}

/* 0.1's hwp_record_new(): the list is parsed from its string, with the
 * errors of a list; no string is the default event. */
static void test_record_new_0_1(void)
{
	struct record_opts_0_1 o = { .sz = sizeof(o), .events = "cpu-clok" };
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_record *r = NULL;

	CHECK_ERR(record_new_0_1(&o, &r), -HWP_ERR_UNKNOWN_EVENT);
	CHECK(!r && strstr(hwp_errmsg(), "cpu-clok"), "%s", hwp_errmsg());
	o = (struct record_opts_0_1){ .sz = sizeof(o), .freq = 10, .period = 10 };
	CHECK_ERR(record_new_0_1(&o, &r), -EINVAL);
	o = (struct record_opts_0_1){ .sz = sizeof(o) };
	CHECK_ERR(record_new_0_1(&o, &r), 0);
	CHECK_ERR(hwp_record_info(r, &st), 0);
	CHECK(st.event && !strcmp(st.event, "cycles"), "the default: %s", st.event);
	hwp_record_free(r);
	CHECK_ERR(record_new_0_1(NULL, &r), 0);
	hwp_record_free(r);
}

/* 0.1's options, whose fields lie elsewhere than 0.2's: the sort asked for
 * shows in the JSON only if the library read them as 0.1's. */
static void test_profile_write(void)
{
	struct record_opts_0_1 ro = { .sz = sizeof(ro), .events = "cpu-clock",
				      .period = 100000, .mmap_pages = 64 };
	struct report_opts_0_1 o = { .sz = sizeof(o), .format = HWP_FORMAT_JSON,
				     .sort = HWP_SORT_DSO, .top = 1 };
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_record *r = NULL;
	struct hwp_profile *prof = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CHECK_ERR(record_new_0_1(&ro, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	for (volatile long i = 0; i < 50000000; i++)
		;
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_record_stats(r, &st), 0);
	CHECK(st.samples > 0 && st.period == 100000 && st.event &&
	      !strcmp(st.event, "cpu-clock"),
	      "the 0.1 options were read: %llu samples of %s, period %llu",
	      (unsigned long long)st.samples, st.event ? st.event : "(none)",
	      (unsigned long long)st.period);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &prof), 0);
	mem = open_memstream(&text, &len);
	CHECK_ERR(profile_write_0_1(prof, mem, &o), 0);
	fclose(mem);
	CHECK(text && strstr(text, "\"sort\": \"dso\""),
	      "the 0.1 options were read: %.200s", text ? text : "");
	free(text);
	profile_walks_0_1(prof);
	hwp_profile_free(prof);
	hwp_record_free(r);
}

int main(void)
{
	t_init();
	t_run(test_renamed);
	t_run(test_workload_wait);
	t_run(test_record_new_0_1);
	t_run(test_profile_write);
	t_run(test_stats_0_1);
	t_run(test_ofile_0_1);
	t_run(test_regions_result_0_1);
	return t_done();
}
