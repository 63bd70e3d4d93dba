// SPDX-License-Identifier: MIT
/* render-result FORMAT FILE: a saved result of hwprof stat --json written
 * again as hwprof stat writes it (hwp_result_write()), for the golden-output
 * tests: stat's writers, given a result that no machine changes. FORMAT:
 * text, text-no-big-num, text-per-run, csv, csv-semicolon, csv-per-run,
 * json, openmetrics or prometheus; sweep-text or sweep-json for a sweep
 * (hwprof stat --sweep --json: hwp_sweep_write()). */
#include <hwprof/hwprof.h>

#include <stdio.h>
#include <string.h>

struct style {
	const char *name;
	enum hwp_format format;
	const char *separator;
	bool no_big_num;
	bool per_run;
	bool sweep;
};

static const struct style styles[] = {
	{ "text", HWP_FORMAT_TEXT, NULL, false, false, false },
	{ "text-no-big-num", HWP_FORMAT_TEXT, NULL, true, false, false },
	{ "text-per-run", HWP_FORMAT_TEXT, NULL, false, true, false },
	{ "csv", HWP_FORMAT_CSV, ",", false, false, false },
	{ "csv-semicolon", HWP_FORMAT_CSV, ";", false, false, false },
	{ "csv-per-run", HWP_FORMAT_CSV, ",", false, true, false },
	{ "json", HWP_FORMAT_JSON, NULL, false, false, false },
	{ "openmetrics", HWP_FORMAT_OPENMETRICS, NULL, false, false, false },
	{ "prometheus", HWP_FORMAT_PROMETHEUS, NULL, false, false, false },
	{ "sweep-text", HWP_FORMAT_TEXT, NULL, false, false, true },
	{ "sweep-json", HWP_FORMAT_JSON, NULL, false, false, true },
};

static const struct style *find_style(const char *name)
{
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(styles[i].name, name))
			return &styles[i];
	return NULL;
}

static int render(const struct style *s, const char *path)
{
	struct hwp_write_opts o = {
		.sz = sizeof(o),
		.format = s->format,
		.separator = s->separator,
		.no_big_num = s->no_big_num,
		.per_run = s->per_run,
	};
	struct hwp_result *r;
	struct hwp_sweep *sw;
	int err;

	if (s->sweep) {
		err = hwp_sweep_load(path, &sw);
		if (err)
			return err;
		err = hwp_sweep_write(sw, stdout, &o);
		hwp_sweep_free(sw);
		return err;
	}
	err = hwp_result_load(path, &r);
	if (err)
		return err;
	err = hwp_result_write(r, stdout, &o);
	hwp_result_free(r);
	return err;
}

int main(int argc, char **argv)
{
	const struct style *s = argc == 3 ? find_style(argv[1]) : NULL;
	int err;

	if (!s) {
		fprintf(stderr,
			"usage: render-result FORMAT FILE (FORMAT: text, text-no-big-num, text-per-run, csv, csv-semicolon, csv-per-run, json, openmetrics, prometheus, sweep-text, sweep-json)\n");
		return 2;
	}
	err = render(s, argv[2]);
	if (err) {
		fprintf(stderr, "render-result: %s as %s: %s\n", argv[2], s->name,
			hwp_strerror(err));
		return 1;
	}
	return fflush(stdout) ? 1 : 0;
}
