// SPDX-License-Identifier: MIT
/* A program built against 0.1 runs against this library: 0.1's names and
 * the 0.1 versions of the functions 0.2 reshaped are still exported
 * (lib/compat.c). Their prototypes are written here as 0.1's header had
 * them, and the reshaped ones are bound to version HWPROF_0.1 as a program
 * linked against 0.1 is. */
#include <hwprof/hwprof.h>

#include "harness.h"

/* 0.1's names, with 0.2's types of the same layout. */
int hwp_summarize(const double *values, size_t n, struct hwp_stats_summary *out);
int hwp_holm_adjust(const double *p, size_t n, double *adjusted);
int hwp_record_stats(const struct hwp_record *r, struct hwp_record_info *st);
const char *hwp_regions_events(void);
unsigned int hwp_regions_sample_every(void);

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

/* 0.1's options, whose fields lie elsewhere than 0.2's: the sort asked for
 * shows in the JSON only if the library read them as 0.1's. */
static void test_profile_write(void)
{
	HWP_OPTS(hwp_record_opts, ro, .events = "cpu-clock", .period = 100000);
	struct report_opts_0_1 o = { .sz = sizeof(o), .format = HWP_FORMAT_JSON,
				     .sort = HWP_SORT_DSO, .top = 1 };
	struct hwp_record_info st = { .sz = sizeof(st) };
	struct hwp_record *r = NULL;
	struct hwp_profile *prof = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CHECK_ERR(hwp_record_new(&ro, &r), 0);
	CHECK_ERR(hwp_record_open(r), 0);
	CHECK_ERR(hwp_record_enable(r), 0);
	for (volatile long i = 0; i < 50000000; i++)
		;
	CHECK_ERR(hwp_record_finish(r), 0);
	CHECK_ERR(hwp_record_stats(r, &st), 0);
	CHECK(st.samples > 0, "%llu samples", (unsigned long long)st.samples);
	CHECK_ERR(hwp_profile_from_record(r, NULL, &prof), 0);
	mem = open_memstream(&text, &len);
	CHECK_ERR(profile_write_0_1(prof, mem, &o), 0);
	fclose(mem);
	CHECK(text && strstr(text, "\"sort\": \"dso\""),
	      "the 0.1 options were read: %.200s", text ? text : "");
	free(text);
	hwp_profile_free(prof);
	hwp_record_free(r);
}

int main(void)
{
	t_init();
	t_run(test_renamed);
	t_run(test_workload_wait);
	t_run(test_profile_write);
	return t_done();
}
