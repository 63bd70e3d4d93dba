// SPDX-License-Identifier: MIT
/* speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json):
 * the functions as shared frames with their source file and line, and one
 * "sampled" profile whose samples are the distinct call chains, outermost
 * frame first, weighted by their summed periods (the Overhead of 'hwprof
 * report', in nanoseconds for the clocks). A profile aggregates every
 * process and thread of the file (the filters of a report keep one apart). */
#include "export/export.h"
#include "util/hash.h"
#include "util/json-writer.h"

#include <stdlib.h>
#include <string.h>

struct speedscope_ctx {
	struct json_writer *w;
	uint64_t *weights;
	size_t nr, cap;
};

static int chain(const uint32_t *funcs, size_t nr, uint64_t samples, uint64_t period,
		 void *arg)
{
	struct speedscope_ctx *c = arg;

	(void)samples;
	if (vec_reserve(&c->weights, &c->cap, c->nr + 1, sizeof(*c->weights)))
		return -ENOMEM;
	c->weights[c->nr++] = period;
	jw_array_begin(c->w, true);
	for (size_t i = 0; i < nr; i++)
		jw_uint(c->w, funcs[i]);
	jw_array_end(c->w);
	return 0;
}

static void frames(struct json_writer *w, const struct profile_function *funcs, size_t n)
{
	jw_key(w, "shared");
	jw_object_begin(w);
	jw_key(w, "frames");
	jw_array_begin(w, false);
	for (size_t i = 0; i < n; i++) {
		jw_object_begin(w);
		jw_key(w, "name");
		jw_string(w, funcs[i].name);
		if (funcs[i].file) {
			jw_key(w, "file");
			jw_string(w, funcs[i].file);
			jw_key(w, "line");
			jw_uint(w, funcs[i].line);
		}
		jw_object_end(w);
	}
	jw_array_end(w);
	jw_object_end(w);
}

int export_speedscope(struct hwp_profile *p, FILE *f)
{
	struct hwp_profile_info info = { .sz = sizeof(info) };
	struct json_writer w;
	struct speedscope_ctx c = { .w = &w };
	struct profile_function *funcs = NULL;
	char name[512];
	size_t nr_funcs = 0;
	int err = hwp_profile_info(p, &info);

	if (err)
		return err;
	snprintf(name, sizeof(name), "%s of %s", info.event, info.input);
	jw_init(&w, f, true);
	jw_object_begin(&w);
	jw_key(&w, "$schema");
	jw_string(&w, "https://www.speedscope.app/file-format-schema.json");
	jw_key(&w, "name");
	jw_string(&w, name);
	jw_key(&w, "exporter");
	jw_string(&w, "hwprof " HWPROF_VERSION);
	jw_key(&w, "activeProfileIndex");
	jw_int(&w, 0);
	jw_key(&w, "profiles");
	jw_array_begin(&w, false);
	jw_object_begin(&w);
	jw_key(&w, "type");
	jw_string(&w, "sampled");
	jw_key(&w, "name");
	jw_string(&w, name);
	jw_key(&w, "unit");
	jw_string(&w, event_in_ns(p, info.event) ? "nanoseconds" : "none");
	jw_key(&w, "startValue");
	jw_int(&w, 0);
	jw_key(&w, "endValue");
	jw_uint(&w, info.period);
	jw_key(&w, "samples");
	jw_array_begin(&w, false);
	err = profile_foreach_chain(p, chain, &c, &funcs, &nr_funcs);
	jw_array_end(&w);
	jw_key(&w, "weights");
	jw_array_begin(&w, false);
	for (size_t i = 0; i < c.nr; i++)
		jw_uint(&w, c.weights[i]);
	jw_array_end(&w);
	jw_object_end(&w);
	jw_array_end(&w);
	frames(&w, funcs, nr_funcs);
	jw_object_end(&w);
	jw_finish(&w);
	free(c.weights);
	free(funcs);
	if (err == -ENOMEM)
		return fail(-ENOMEM, "out of memory");
	return err;
}
