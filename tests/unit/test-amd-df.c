// SPDX-License-Identifier: MIT
/* The memory bandwidth of AMD Zen 3 and Zen 4 from the data fabric's PMU,
 * amd_df, whose sysfs folder has formats and a cpumask but no named
 * events: on a fabricated sysfs tree (HWPROF_SYSFS_ROOT) with the kernel's
 * format files of each (arch/x86/events/amd/uncore.c: event14 and umask8
 * before PerfMonV2, event14v2 and umask12 with it), each DF event perf
 * names (amdzen3/data-fabric.json, amdzen4/data-fabric.json) encoded into
 * the config worked out by hand here, an event code past 8 bits split as
 * the format says; the events listed and named where a name is wrong;
 * the metrics on synthetic counts (a beat is 64 bytes, MB/s of the wall
 * time); and, without amd_df, an error that names it.
 * libpfm4 reads LIBPFM_FORCE_PMU once a process: each model in a child. */
#include "core/core.h"
#include "event/event.h"
#include "count/count.h"
#include "harness.h"
#include "unit/models.h"

#include <math.h>

#define DEV "bus/event_source/devices/"
#define ZEN3 "amd64_fam19h_zen3"
#define ZEN4 "amd64_fam19h_zen4"

static char zen3_root[] = "/tmp/hwprof-amddf3-XXXXXX";
static char zen4_root[] = "/tmp/hwprof-amddf4-XXXXXX";
static char none_root[] = "/tmp/hwprof-amddf0-XXXXXX";

static void fabricate(const char *root, const char *event, const char *umask)
{
	t_put_file(root, DEV "amd_df/type", "25\n");
	t_put_file(root, DEV "amd_df/cpumask", "0\n");	/* one CPU a socket */
	t_put_file(root, DEV "amd_df/format/event", event);
	t_put_file(root, DEV "amd_df/format/umask", umask);
	/* a PMU of the machine, so that none_root is a sysfs tree */
	t_put_file(none_root, DEV "software/type", "1\n");
}

static const struct {
	const char *model, *event;
	unsigned long long config;	/* 0: not an event of the model */
} encoded[] = {
	/* EventCode 0x07, UMask 0x38 */
	{ ZEN3, "dram_channel_data_controller_0", 0x3807ULL },
	/* 0x1c7: 0xc7 in bits 0-7, 0x1 in 32-35 */
	{ ZEN3, "dram_channel_data_controller_7", 0x1000038c7ULL },
	{ ZEN3, "dram_channel_data_controller_8", 0 },
	{ ZEN3, "dram_channel_data_controller_01", 0 },
	{ ZEN3, "local_processor_read_data_beats_cs0", 0 },
	/* EventCode 0x1f, UMask 0x7fe: 0xfe in bits 8-15, 0x7 in 24-27 */
	{ ZEN4, "local_processor_read_data_beats_cs0", 0x700fe1fULL },
	/* 0x2df: 0xdf in bits 0-7, 0x2 in 32-37 */
	{ ZEN4, "local_processor_read_data_beats_cs11", 0x20700fedfULL },
	/* 0x11f, UMask 0x7ff */
	{ ZEN4, "local_processor_write_data_beats_cs4", 0x10700ff1fULL },
	/* 0x19f, UMask 0xbfe */
	{ ZEN4, "remote_processor_read_data_beats_cs6", 0x10b00fe9fULL },
	/* 0x29f, UMask 0xbff */
	{ ZEN4, "remote_processor_write_data_beats_cs10", 0x20b00ff9fULL },
	{ ZEN4, "local_processor_read_data_beats_cs12", 0 },
	{ ZEN4, "dram_channel_data_controller_0", 0 },
};

/* Row @i of encoded[] parsed for @model: 0 as worked out by hand, else 1. */
static int encode_one(const char *model, size_t i)
{
	struct hwp_evlist *evl = NULL;
	unsigned long long config;
	const struct event *ev;
	char spec[128];
	int err, bad;

	snprintf(spec, sizeof(spec), "amd_df/%s/", encoded[i].event);
	err = hwp_evlist_parse(spec, NULL, &evl);
	if (!encoded[i].config) {
		bad = err != -HWP_ERR_UNKNOWN_EVENT ||
		      !strstr(hwp_errmsg(), encoded[i].event);
		if (bad)
			fprintf(stderr, "# %s: '%s' is not %s's: %d %s\n", model, spec,
				model, err, hwp_errmsg());
		hwp_evlist_free(evl);
		return bad;
	}
	if (err) {
		fprintf(stderr, "# %s: '%s': %s\n", model, spec, hwp_errmsg());
		return 1;
	}
	ev = evlist_get(evl, 0);
	config = ev->attr.config;
	bad = ev->attr.type != 25 || config != encoded[i].config || ev->attr.config1 ||
	      ev->attr.config2 || !event_counts_on(ev, 0) || event_counts_on(ev, 1);
	if (bad)
		fprintf(stderr,
			"# %s: '%s': type %u, config %#llx, want %#llx, on CPU 0 only\n",
			model, spec, ev->attr.type, config, encoded[i].config);
	hwp_evlist_free(evl);
	return bad;
}

struct listed {
	size_t nr, named;	/* events listed; of them, the rows of encoded[] */
	const char *model;
};

static int count_listed(const struct hwp_event_desc *d, void *arg)
{
	struct listed *l = arg;

	l->nr++;
	for (size_t i = 0; i < ARRAY_SIZE(encoded); i++) {
		char want[128];

		snprintf(want, sizeof(want), "amd_df/%s/", encoded[i].event);
		if (!strcmp(d->name, want) && !strcmp(encoded[i].model, l->model) &&
		    encoded[i].config && !strcmp(d->pmu, "amd_df") && d->desc[0])
			l->named++;
	}
	return 0;
}

/* In a child forced to @model: amd_df's events that hwprof names, in a
 * list and where a name is wrong; the number of mismatches. */
static int list_model(const char *model, const void *root)
{
	struct hwp_evlist *evl = NULL;
	struct listed l = { .model = model };
	size_t want = strcmp(model, ZEN3) ? 48 : 8, rows = 0;
	const char *family = strcmp(model, ZEN3) ?
			     "remote_processor_write_data_beats_cs0..11" :
			     "dram_channel_data_controller_0..7";
	int bad = 0;

	setenv("HWPROF_SYSFS_ROOT", root, 1);
	for (size_t i = 0; i < ARRAY_SIZE(encoded); i++)
		rows += !strcmp(encoded[i].model, model) && encoded[i].config;
	hwp_events_foreach("amd_df/*", count_listed, &l);
	if (l.nr != want || l.named != rows) {
		fprintf(stderr, "# %s: %zu events listed, want %zu; %zu of %zu rows\n",
			model, l.nr, want, l.named, rows);
		bad++;
	}
	hwp_evlist_parse("amd_df/dram_read/", NULL, &evl);
	hwp_evlist_free(evl);
	if (!strstr(hwp_errmsg(), family)) {
		fprintf(stderr, "# %s: '%s' does not say '%s'\n", model, hwp_errmsg(),
			family);
		bad++;
	}
	return bad;
}

/* In a child forced to @model: its events on amd_df of the sysfs tree
 * @root; the number that differ. */
static int encode_model(const char *model, const void *root)
{
	int bad = 0;

	setenv("HWPROF_SYSFS_ROOT", root, 1);
	for (size_t i = 0; i < ARRAY_SIZE(encoded); i++)
		if (!strcmp(encoded[i].model, model))
			bad += encode_one(model, i);
	return bad;
}

/* In a child forced to Zen 4, no amd_df in @root: an error that names it. */
static int missing_pmu(const char *model, const void *root)
{
	struct hwp_evlist *evl = NULL;
	int err;

	(void)model;
	setenv("HWPROF_SYSFS_ROOT", root, 1);
	err = hwp_evlist_parse("amd_df/local_processor_read_data_beats_cs0/", NULL, &evl);
	hwp_evlist_free(evl);
	if (err == -HWP_ERR_UNKNOWN_EVENT && strstr(hwp_errmsg(), "no PMU 'amd_df'"))
		return 0;
	fprintf(stderr, "# %d %s\n", err, hwp_errmsg());
	return 1;
}

static void in_child(const char *what, int (*fn)(const char *, const void *),
		     const char *model, const char *root)
{
	int status;

	if (!t_case("%s", what))
		return;
	status = in_forced_child(model, fn, root);
	if (status != 77)
		CHECK(status == 0, "%s: %d not as worked out by hand (each said above)",
		      what, status);
}

/* Beats of channel (Coherent Station) N: 1000 (N + 1) on Zen 3; on Zen 4
 * 100 (N + 1) local reads, 10 remote reads, 50 local writes, 5 remote. */
static int lookup(const char *name, double *value, void *ctx)
{
	int n;

	(void)ctx;
	if (!strcmp(name, "seconds")) {
		*value = 2;
		return 0;
	}
	if (sscanf(name, "amd_df@dram_channel_data_controller_%d@", &n) == 1)
		*value = 1000.0 * (n + 1);
	else if (sscanf(name, "amd_df@local_processor_read_data_beats_cs%d@", &n) == 1)
		*value = 100.0 * (n + 1);
	else if (sscanf(name, "amd_df@remote_processor_read_data_beats_cs%d@", &n) == 1)
		*value = 10;
	else if (sscanf(name, "amd_df@local_processor_write_data_beats_cs%d@", &n) == 1)
		*value = 50;
	else if (sscanf(name, "amd_df@remote_processor_write_data_beats_cs%d@", &n) == 1)
		*value = 5;
	else
		return -ENOENT;
	return 0;
}

static void check_metric(const char *model, const char *name, double want, size_t inputs)
{
	const struct hwp_metric *m = model_metric(model, name);
	struct hwp_metric_info mi = { .sz = sizeof(mi) };
	double v = NAN;
	size_t n = 0;

	CHECK(m, "%s: %s", model, name);
	if (!m)
		return;
	CHECK_ERR(hwp_metric_eval(m, lookup, NULL, &v), 0);
	CHECK(fabs(v - want) < 1e-12, "%s %s: %.15g MB/s, want %g", model, name, v, want);
	while (hwpriv_metric_input(m, n))
		n++;
	CHECK(n == inputs, "%s %s: %zu inputs, want %zu", model, name, n, inputs);
	CHECK(!hwp_metric_info(m, &mi) && !strcmp(mi.unit, "MB/s") &&
	      !strcmp(mi.group, "Memory_BW") && strstr(mi.desc, "-a") &&
	      strstr(mi.source, "PPR"),
	      "%s %s: unit '%s', group '%s', source '%s'", model, name, mi.unit, mi.group,
	      mi.source);
}

static void test_bandwidth_on_synthetic_counts(void)
{
	/* 36000 beats of 64 bytes: 2.304 MB in 2 s */
	check_metric(ZEN3, "Memory_BW_Total", 1.152, 8);
	/* 7800 + 120 beats: 0.50688 MB in 2 s */
	check_metric(ZEN4, "Memory_BW_Read", 0.25344, 24);
	/* 600 + 60 beats: 0.04224 MB in 2 s */
	check_metric(ZEN4, "Memory_BW_Write", 0.02112, 24);
	CHECK(!model_metric(ZEN3, "Memory_BW_Read") &&
	      !model_metric(ZEN3, "Memory_BW_Write"),
	      "Zen 3's DF counts reads and writes together: no _Read nor _Write");
}

int main(void)
{
	t_init();
	t_mkdtemp(zen3_root);
	t_mkdtemp(zen4_root);
	t_mkdtemp(none_root);
	fabricate(zen3_root, "config:0-7,32-35,59-60\n", "config:8-15\n");
	fabricate(zen4_root, "config:0-7,32-37\n", "config:8-15,24-27\n");
	setenv("HWPROF_SYSFS_ROOT", zen4_root, 1);
	t_run(test_bandwidth_on_synthetic_counts);
	in_child("Zen 3's DF events encode", encode_model, ZEN3, zen3_root);
	in_child("Zen 4's DF events encode", encode_model, ZEN4, zen4_root);
	in_child("Zen 3's DF events listed", list_model, ZEN3, zen3_root);
	in_child("Zen 4's DF events listed", list_model, ZEN4, zen4_root);
	in_child("without amd_df, the error names it", missing_pmu, ZEN4, none_root);
	t_rm_tree(zen3_root);
	t_rm_tree(zen4_root);
	t_rm_tree(none_root);
	return t_done();
}
