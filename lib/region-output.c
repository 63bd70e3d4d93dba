// SPDX-License-Identifier: MIT
/* Writing region results: a perf-stat-like block per region, or JSON. Each
 * region's counts become a one-run result, so events, built-in metrics
 * and their JSON rows are those of 'hwprof stat'. */
#include "hwprof-internal.h"
#include "result.h"
#include "util/json-writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The region's values as one run of a result. */
static int region_result(const struct hwp_region_info *info, const struct hwp_session *model,
			 struct hwp_result **out)
{
	struct hwp_count *c = calloc(info->nr_events ? info->nr_events : 1, sizeof(*c));
	char target[512];
	int err;

	*out = NULL;
	if (!c)
		return hwp_fail(-ENOMEM, "out of memory");
	for (size_t e = 0; e < info->nr_events; e++)
		if (!isnan(info->values[e]))
			c[e] = (struct hwp_count){ .value = (uint64_t)llround(info->values[e]),
						   .time_enabled = 1, .time_running = 1 };
	snprintf(target, sizeof(target), "region '%s' (%zu thread%s)", info->name,
		 info->nr_threads, info->nr_threads == 1 ? "" : "s");
	err = hwp_result_new(out);
	if (!err)
		err = hwp_result_set_target(*out, target);
	if (!err)
		err = hwp_result_add_run(*out, model, c, info->seconds);
	free(c);
	if (err) {
		hwp_result_free(*out);
		*out = NULL;
	}
	return err;
}

struct regions_out {
	FILE *f;
	struct hwp_write_opts o;
	struct json_writer w;
	bool in_region;		/* JSON: a region object is open */
	int err;
};

static const char *event_name(const struct hwp_region_info *info, size_t e)
{
	struct hwp_event_info ev = { .sz = sizeof(ev) };

	return hwp_evlist_event(info->evlist, e, &ev) ? "?" : ev.name;
}

static void json_per(struct json_writer *w, const char *key,
		     const struct hwp_region_info *info, double divisor)
{
	jw_key(w, key);
	jw_object_begin(w);
	for (size_t e = 0; e < info->nr_events; e++) {
		jw_key(w, event_name(info, e));
		jw_number(w, divisor > 0 ? info->values[e] / divisor : NAN);
	}
	jw_object_end(w);
}

static void json_counts(struct json_writer *w, const struct hwp_region_info *info)
{
	jw_key(w, "calls");
	jw_uint(w, info->calls);
	jw_key(w, "measured_calls");
	jw_uint(w, info->measured_calls);
	jw_key(w, "seconds");
	jw_number(w, info->seconds);
	jw_key(w, "ops");
	jw_uint(w, info->ops);
	jw_key(w, "too_short");
	jw_bool(w, info->too_short);
}

static int json_region(const struct hwp_region_info *info, const struct hwp_session *model,
		       void *arg)
{
	struct regions_out *wr = arg;
	struct json_writer *w = &wr->w;
	struct hwp_result *r;

	if (info->tid) {
		/* One thread's part: its counts, by event name. */
		jw_object_begin(w);
		jw_key(w, "tid");
		jw_int(w, info->tid);
		json_counts(w, info);
		jw_key(w, "counts");
		jw_object_begin(w);
		for (size_t e = 0; e < info->nr_events; e++) {
			jw_key(w, event_name(info, e));
			jw_number(w, info->values[e]);
		}
		jw_object_end(w);
		jw_object_end(w);
		return 0;
	}
	if (wr->in_region) {
		jw_array_end(w);
		jw_object_end(w);
	}
	wr->err = region_result(info, model, &r);
	if (wr->err)
		return wr->err;
	jw_object_begin(w);
	jw_key(w, "region");
	jw_string(w, info->name);
	jw_key(w, "threads");
	jw_int(w, (long long)info->nr_threads);
	json_counts(w, info);
	rows_json(w, r->series, r->nr_series, r->nr_runs, false);
	json_per(w, "per_call", info, (double)info->calls);
	json_per(w, "per_op", info, (double)info->ops);
	jw_key(w, "per_thread");
	jw_array_begin(w, false);
	wr->in_region = true;
	hwp_result_free(r);
	return 0;
}

static int write_json(const void *obj, FILE *f, const void *opts)
{
	struct regions_out wr = { .f = f };
	struct json_writer *w = &wr.w;
	double cost = hwp_regions_read_cost();
	int err;

	(void)obj;
	(void)opts;
	jw_init(w, f, true);
	jw_object_begin(w);
	jw_key(w, "schema");
	jw_string(w, "hwprof-regions/1");
	jw_key(w, "event_spec");
	jw_string(w, hwp_regions_events());
	jw_key(w, "sample_every");
	jw_int(w, hwp_regions_sample_every());
	jw_key(w, "read_cost_ns");
	jw_number(w, cost);
	jw_key(w, "regions");
	jw_array_begin(w, false);
	err = hwp_regions_walk(json_region, &wr);
	if (wr.in_region) {
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
	hwp_json_environment(w, NULL);
	jw_object_end(w);
	jw_finish(w);
	return err;
}

static int text_region(const struct hwp_region_info *info, const struct hwp_session *model,
		       void *arg)
{
	struct regions_out *wr = arg;
	struct hwp_result *r;
	int err;

	if (info->tid)
		return 0;
	err = region_result(info, model, &r);
	if (err)
		return err;
	err = hwp_result_write(r, wr->f, &wr->o);
	hwp_result_free(r);
	if (err)
		return err;
	fprintf(wr->f, " %llu calls", (unsigned long long)info->calls);
	if (info->measured_calls != info->calls)
		fprintf(wr->f, " (%llu measured, one in %u, and scaled)",
			(unsigned long long)info->measured_calls, hwp_regions_sample_every());
	if (info->ops)
		fprintf(wr->f, ", %llu ops", (unsigned long long)info->ops);
	fprintf(wr->f, "; per call:");
	for (size_t e = 0; e < info->nr_events; e++)
		if (!isnan(info->values[e]) && info->calls)
			fprintf(wr->f, " %s %.4g%s", event_name(info, e),
				info->values[e] / (double)info->calls,
				e + 1 < info->nr_events ? "," : "");
	fputc('\n', wr->f);
	if (info->too_short)
		fprintf(wr->f, " warning: a call lasts %.0f ns, less than 20 reads of the counters (%.0f ns each): its counts are disturbed by the measurement\n",
			info->seconds * 1e9 / (double)info->calls, hwp_regions_read_cost());
	return 0;
}

static int write_text(const void *obj, FILE *f, const void *opts)
{
	struct regions_out wr = { .f = f, .o = *(const struct hwp_write_opts *)opts };

	(void)obj;
	wr.o.sz = sizeof(wr.o);
	return hwp_regions_walk(text_region, &wr);
}

static const struct writer regions_writer = {
	.fn = "hwp_regions_write",
	.what = "the regions",
	.subject = "regions are",
	.opts_type = "hwp_write_opts",
	.opts_sz = sizeof(struct hwp_write_opts),
	.format = {
		[HWP_FORMAT_TEXT] = write_text,
		[HWP_FORMAT_JSON] = write_json,
	},
};

HWP_API int hwp_regions_write(FILE *f, const struct hwp_write_opts *opts)
{
	/* The regions written are this process's: they have no object. */
	static const char live;

	return write_dispatch(&regions_writer, &live, f, opts);
}

HWP_API int hwp_regions_save(const char *path)
{
	HWP_OPTS(hwp_write_opts, o, .format = HWP_FORMAT_JSON);
	struct hwp_ofile *of;
	int err;

	hwp_clear_error();
	err = hwp_ofile_open(path, &of);
	if (err)
		return err;
	err = hwp_regions_write(hwp_ofile_stream(of), &o);
	if (err) {
		hwp_ofile_abort(of);
		return err;
	}
	return hwp_ofile_commit(of);
}
