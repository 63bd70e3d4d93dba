// SPDX-License-Identifier: MIT
/* A program that profiles itself: sample its own work on cpu-clock into
 * memory, then print its five hottest functions, as a benchmark can do to
 * say where its time went. Build with -g for source lines. */
#include <hwprof/hwprof.h>

#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void work(long n)
{
	double x = 0;

	for (long i = 1; i < n; i++)
		x += 1.0 / (double)i;
	sink = x;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "profile_self: %s: %s\n", what,
		*hwp_errmsg() ? hwp_errmsg() : hwp_strerror(err));
	return 1;
}

static int print_entry(const struct hwp_entry *e, void *ctx)
{
	(void)ctx;
	printf("%6.2f%%  %6llu samples  %s  (%s)\n", e->percent,
	       (unsigned long long)e->samples, e->name, e->dso);
	return 0;
}

int main(int argc, char **argv)
{
	/* The calling thread, in memory; cpu-clock works on every machine. */
	HWP_OPTS(hwp_record_opts, o, .freq = 2000);
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	struct hwp_profile_info info = { .sz = sizeof(info) };
	struct hwp_evlist *evl = NULL;
	struct hwp_record *rec = NULL;
	struct hwp_profile *prof = NULL;
	int err;

	err = hwp_evlist_parse("cpu-clock", NULL, &evl) ?:
	      hwp_record_new(evl, &o, &rec) ?: hwp_record_open(rec) ?:
	      hwp_record_enable(rec);
	hwp_evlist_free(evl);	/* the recording has its own copy */
	if (err)
		return fail("recording", err);

	/* What we measure; long runs call hwp_record_read() now and then. */
	work(n);

	err = hwp_record_finish(rec) ?: hwp_profile_from_record(rec, NULL, &prof);
	hwp_record_free(rec);
	if (err)
		return fail("reading the samples", err);
	hwp_profile_info(prof, &info);
	printf("%llu samples of %s; the hottest functions:\n",
	       (unsigned long long)info.samples, info.event);
	err = hwp_profile_foreach_entry(prof, HWP_SORT_SYM, 5, print_entry, NULL);
	hwp_profile_free(prof);
	return err ? fail("reporting", err) : 0;
}
