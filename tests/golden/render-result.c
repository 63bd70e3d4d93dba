// SPDX-License-Identifier: MIT
/* render-result FORMAT FILE: a saved result of hwprof stat --json written
 * again as hwprof stat writes it (hwp_result_write()), for the golden-output
 * tests: stat's writers, given a result that no machine changes. FORMAT:
 * text, text-no-big-num, text-per-run, csv, csv-semicolon, csv-per-run,
 * json, openmetrics or prometheus. */
#include <hwprof/hwprof.h>

#include <stdio.h>
#include <string.h>

struct style {
	const char *name;
	enum hwp_format format;
	const char *separator;
	bool no_big_num;
	bool per_run;
};

static const struct style styles[] = {
	{ "text", HWP_FORMAT_TEXT, NULL, false, false },
	{ "text-no-big-num", HWP_FORMAT_TEXT, NULL, true, false },
	{ "text-per-run", HWP_FORMAT_TEXT, NULL, false, true },
	{ "csv", HWP_FORMAT_CSV, ",", false, false },
	{ "csv-semicolon", HWP_FORMAT_CSV, ";", false, false },
	{ "csv-per-run", HWP_FORMAT_CSV, ",", false, true },
	{ "json", HWP_FORMAT_JSON, NULL, false, false },
	{ "openmetrics", HWP_FORMAT_OPENMETRICS, NULL, false, false },
	{ "prometheus", HWP_FORMAT_PROMETHEUS, NULL, false, false },
};

static const struct style *find_style(const char *name)
{
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(styles[i].name, name))
			return &styles[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct style *s = argc == 3 ? find_style(argv[1]) : NULL;
	struct hwp_write_opts o = { .sz = sizeof(o) };
	struct hwp_result *r;
	int err;

	if (!s) {
		fprintf(stderr,
			"usage: render-result FORMAT FILE (FORMAT: text, text-no-big-num, text-per-run, csv, csv-semicolon, csv-per-run, json, openmetrics, prometheus)\n");
		return 2;
	}
	err = hwp_result_read(argv[2], &r);
	if (err) {
		fprintf(stderr, "render-result: reading %s failed: %s\n", argv[2],
			hwp_strerror(err));
		return 1;
	}
	o.format = s->format;
	o.separator = s->separator;
	o.no_big_num = s->no_big_num;
	o.per_run = s->per_run;
	err = hwp_result_write(r, stdout, &o);
	hwp_result_free(r);
	if (err) {
		fprintf(stderr, "render-result: writing %s as %s failed: %s\n", argv[2],
			s->name, hwp_strerror(err));
		return 1;
	}
	return fflush(stdout) ? 1 : 0;
}
