// SPDX-License-Identifier: MIT
/* The regions a measured program wrote (hwprof-regions/1, through
 * $HWPROF_OUTPUT), attached to the result that counted the whole program:
 * 'hwprof stat --regions' shows both, as likwid-perfctr -m does. The file
 * comes from another program: every field is checked before it is used. */
#include "hwprof-internal.h"
#include "result.h"
#include "util/format.h"
#include "util/json-reader.h"
#include "util/json-writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REGIONS_SCHEMA "hwprof-regions/1"

static const char *string_of(const struct json_value *obj, const char *key)
{
	const struct json_value *v = json_get(obj, key);

	return v && v->type == JSON_STRING ? v->u.string : NULL;
}

static double number_of(const struct json_value *obj, const char *key)
{
	const struct json_value *v = json_get(obj, key);

	return v && v->type == JSON_NUMBER ? v->u.number : NAN;
}

static int check_doc(const struct json_value *doc, const char *path)
{
	const struct json_value *regions = json_get(doc, "regions");
	const char *schema = doc->type == JSON_OBJECT ? string_of(doc, "schema") : NULL;

	if (!schema || strcmp(schema, REGIONS_SCHEMA))
		return hwp_fail(-HWP_ERR_FORMAT, "'%s' is not the regions of a program (schema '%s', not '%s')",
				path, schema ? schema : "none", REGIONS_SCHEMA);
	if (!regions || regions->type != JSON_ARRAY)
		return hwp_fail(-HWP_ERR_FORMAT, "'%s': \"regions\" is not an array", path);
	for (size_t i = 0; i < regions->u.array.n; i++) {
		const struct json_value *r = &regions->u.array.items[i];
		const struct json_value *events = json_get(r, "events");

		if (r->type != JSON_OBJECT || !string_of(r, "region"))
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: a region without a name",
					path, r->line);
		if (!events || events->type != JSON_ARRAY)
			return hwp_fail(-HWP_ERR_FORMAT, "'%s', line %u: region '%s' has no \"events\"",
					path, r->line, string_of(r, "region"));
	}
	return 0;
}

HWP_API int hwp_result_add_regions(struct hwp_result *r, const char *path)
{
	struct json_value *doc, **n;
	int err;

	hwp_clear_error();
	if (!r || !path)
		return hwp_fail(-EINVAL, "hwp_result_add_regions: NULL argument");
	err = hwp_json_read_file(path, &doc);
	if (err)
		return err;
	err = check_doc(doc, path);
	if (err) {
		json_free(doc);
		return err;
	}
	n = realloc(r->regions, (r->nr_regions + 1) * sizeof(*n));
	if (!n) {
		json_free(doc);
		return hwp_fail(-ENOMEM, "out of memory");
	}
	r->regions = n;
	r->regions[r->nr_regions++] = doc;
	return 0;
}

void hwp_result_regions_free(struct hwp_result *r)
{
	for (size_t i = 0; i < r->nr_regions; i++)
		json_free(r->regions[i]);
	free(r->regions);
	r->regions = NULL;
	r->nr_regions = 0;
}

/* ---- JSON: the documents as they came, one per run ---- */

static void write_value(struct json_writer *w, const struct json_value *v)
{
	switch (v->type) {
	case JSON_NULL:
		jw_null(w);
		break;
	case JSON_BOOL:
		jw_bool(w, v->u.boolean);
		break;
	case JSON_NUMBER:
		jw_number(w, v->u.number);
		break;
	case JSON_STRING:
		jw_string(w, v->u.string);
		break;
	case JSON_ARRAY:
		jw_array_begin(w, false);
		for (size_t i = 0; i < v->u.array.n; i++)
			write_value(w, &v->u.array.items[i]);
		jw_array_end(w);
		break;
	case JSON_OBJECT:
		jw_object_begin(w);
		for (size_t i = 0; i < v->u.object.n; i++) {
			jw_key(w, v->u.object.members[i].key);
			write_value(w, &v->u.object.members[i].value);
		}
		jw_object_end(w);
		break;
	}
}

void hwp_result_regions_json(const struct hwp_result *r, struct json_writer *w)
{
	if (!r->nr_regions)
		return;
	jw_key(w, "regions");
	jw_array_begin(w, false);
	for (size_t i = 0; i < r->nr_regions; i++)
		write_value(w, r->regions[i]);
	jw_array_end(w);
}

/* ---- text: a block per region of the last run ---- */

static void text_event(FILE *f, const struct json_value *ev, const struct json_value *region,
		       bool big)
{
	const char *name = string_of(ev, "event"), *unit = string_of(ev, "unit");
	const char *reason = string_of(ev, "reason");
	double count = number_of(ev, "count");
	double per_call = name ? number_of(json_get(region, "per_call"), name) : NAN;
	double per_op = name ? number_of(json_get(region, "per_op"), name) : NAN;
	const struct json_value *supported = json_get(ev, "supported");
	char value[64];

	if (supported && supported->type == JSON_BOOL && !supported->u.boolean)
		snprintf(value, sizeof(value), "<not supported>");
	else if (isnan(count))
		snprintf(value, sizeof(value), "<not counted>");
	else if (unit && !strcmp(unit, "ns"))
		snprintf(value, sizeof(value), "%.2f msec", count / 1e6);
	else
		fmt_grouped(count, big, value, sizeof(value));
	fprintf(f, "%23s  %-24s", value, name ? name : "?");
	/* Clocks count ns and show msec, per call and per op as well. */
	if (unit && !strcmp(unit, "ns")) {
		if (!isnan(per_call))
			fprintf(f, " %12.4g msec/call", per_call / 1e6);
		if (!isnan(per_op))
			fprintf(f, " %12.4g msec/op", per_op / 1e6);
	} else {
		if (!isnan(per_call))
			fprintf(f, " %12.4g /call", per_call);
		if (!isnan(per_op))
			fprintf(f, " %12.4g /op", per_op);
	}
	if (reason && isnan(count))
		fprintf(f, "  # %s", reason);
	fputc('\n', f);
}

static void text_region(FILE *f, const struct json_value *region, bool big)
{
	const struct json_value *events = json_get(region, "events");
	const struct json_value *metrics = json_get(region, "metrics");
	const struct json_value *too_short = json_get(region, "too_short");
	double calls = number_of(region, "calls"), measured = number_of(region, "measured_calls");
	double ops = number_of(region, "ops"), threads = number_of(region, "threads");

	fprintf(f, "\n Region '%s': %.0f thread%s, %.0f calls", string_of(region, "region"),
		threads, threads == 1 ? "" : "s", calls);
	if (!isnan(measured) && measured != calls)
		fprintf(f, " (%.0f measured, scaled)", measured);
	fprintf(f, ", %.6f s", number_of(region, "seconds"));
	if (ops > 0)
		fprintf(f, ", %.0f ops", ops);
	fprintf(f, "\n");
	for (size_t i = 0; i < events->u.array.n; i++)
		text_event(f, &events->u.array.items[i], region, big);
	if (metrics && metrics->type == JSON_ARRAY && metrics->u.array.n) {
		fprintf(f, "   metrics:");
		for (size_t i = 0; i < metrics->u.array.n; i++) {
			const struct json_value *m = &metrics->u.array.items[i];
			double v = number_of(m, "value");
			char num[64];

			if (isnan(v))
				snprintf(num, sizeof(num), "<undefined>");
			else
				hwp_fmt_metric(v, big, num, sizeof(num));
			fprintf(f, "%s %s %s", i ? "," : "",
				string_of(m, "metric") ? string_of(m, "metric") : "?", num);
		}
		fputc('\n', f);
	}
	if (too_short && too_short->type == JSON_BOOL && too_short->u.boolean)
		fprintf(f, "   warning: its calls last less than 20 reads of the counters: their counts are disturbed by the measurement\n");
}

void hwp_result_regions_text(const struct hwp_result *r, FILE *f, bool big)
{
	const struct json_value *doc, *regions;

	if (!r->nr_regions)
		return;
	doc = r->regions[r->nr_regions - 1];
	regions = json_get(doc, "regions");
	fprintf(f, " Regions");
	if (r->nr_regions > 1)
		fprintf(f, " of the last run (of %zu; --json keeps them all)", r->nr_regions);
	fprintf(f, ", events %s, a read costs %.0f ns:\n",
		string_of(doc, "event_spec") ? string_of(doc, "event_spec") : "?",
		number_of(doc, "read_cost_ns"));
	if (!regions->u.array.n)
		fprintf(f, "\n (none: the program entered no region)\n");
	for (size_t i = 0; i < regions->u.array.n; i++)
		text_region(f, &regions->u.array.items[i], big);
	fputc('\n', f);
}
