// SPDX-License-Identifier: MIT
/* hwprof record --rotate: the recording moves on to a new file each
 * interval (hwp_record_rotate(), which loses no sample between two), in
 * --output-dir, and the oldest finished files are removed past --keep.
 * With --format pprof, each finished perf.data becomes a .pb.gz
 * (record-rotate-pprof.c). */
#include "record-rotate.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* DIR/perf-HOST-YYYYMMDDTHHMMSSZ-NNNNNN.data: sorted by name, in order. */
static int next_path(struct rotate *r, char **out)
{
	char host[256] = "localhost", stamp[32], *p;
	time_t now = time(NULL);
	struct tm tm;
	int n;

	gethostname(host, sizeof(host) - 1);
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	n = asprintf(&p, "%s/perf-%s-%s-%06u.data", r->dir, host, stamp, r->seq++);
	if (n < 0)
		return -ENOMEM;
	*out = p;
	return 0;
}

int rotate_parse_every(struct rotate *r, const char *arg)
{
	char *end;

	r->every = strtod(arg, &end);
	if (end == arg || *end || !(r->every >= 0.1 && r->every <= 1e7)) {
		cli_error("record",
			  "--rotate: '%s' is not a number of seconds (0.1 or more)", arg);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int rotate_parse_keep(struct rotate *r, const char *arg)
{
	if (!cli_parse_long(arg, 1, 1000000, &r->keep)) {
		cli_error("record", "--keep: '%s' is not a number of files (1 or more)",
			  arg);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int rotate_parse_format(struct rotate *r, const char *arg)
{
	r->format_set = true;
	r->pprof = !strcmp(arg, "pprof");
	if (r->pprof || !strcmp(arg, "perf.data"))
		return 0;
	cli_error("record", "--format: '%s' is not perf.data or pprof", arg);
	return CLI_EXIT_USAGE;
}

int rotate_check(const struct rotate *r, bool output_set)
{
	const char *why = NULL;

	if (r->every > 0 && !r->dir)
		why = "--rotate writes its files in a directory: add --output-dir DIR";
	else if (r->every > 0 && output_set)
		why = "--rotate names its files itself, in --output-dir: not with -o";
	else if (!(r->every > 0) && (r->dir || r->keep || r->format_set))
		why = "--output-dir, --keep and --format are --rotate's: add --rotate SECONDS";
	if (why) {
		cli_error("record", "%s", why);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

int rotate_begin(struct rotate *r)
{
	struct stat st;

	if (stat(r->dir, &st)) {
		cli_error("record", "--output-dir %s: %s (create it first)", r->dir,
			  strerror(errno));
		return CLI_EXIT_FAILURE;
	}
	if (!S_ISDIR(st.st_mode)) {
		cli_error("record", "--output-dir %s: not a directory", r->dir);
		return CLI_EXIT_USAGE;
	}
	if (next_path(r, &r->path))
		return cli_lib_error("record", -ENOMEM);
	if (r->pprof && pprof_worker_start(r))
		return CLI_EXIT_FAILURE;
	r->nr_files = 1;
	r->next = cli_now() + r->every;
	return 0;
}

double rotate_next(const struct rotate *r)
{
	return r->every > 0 ? r->next : INFINITY;
}

/* @path is finished: kept, or first made pprof (by the worker). */
static void finished(struct rotate *r, char *path, long keep)
{
	if (r->pprof)
		pprof_worker_push(r, path);
	else
		rotate_keep(r, path, keep);
}

int rotate_maybe(struct rotate *r, struct hwp_record *rec)
{
	char *path;
	int err;

	if (r->every <= 0 || cli_now() < r->next)
		return 0;
	err = next_path(r, &path);
	if (err)
		return err;
	err = hwp_record_rotate(rec, path);
	if (err) {
		free(path);
		return err;
	}
	finished(r, r->path, r->keep);
	r->path = path;
	r->nr_files++;
	/* From now: a late wake does not make a burst of short files. */
	r->next = cli_now() + r->every;
	return 0;
}

void rotate_end(struct rotate *r)
{
	if (!r->path)
		return;
	finished(r, r->path, r->keep);
	r->path = NULL;
	pprof_worker_stop(r);
}

const char *rotate_last(const struct rotate *r)
{
	return r->nr_done ? r->done[r->nr_done - 1] : NULL;
}

void rotate_release(struct rotate *r)
{
	pprof_worker_stop(r);
	for (size_t i = 0; i < r->nr_done; i++)
		free(r->done[i]);
	free(r->done);
	free(r->path);
}

void rotate_print_files(const struct rotate *r, FILE *f)
{
	if (!(r->every > 0))
		return;
	fprintf(f, "%u file%s in ", r->nr_files, r->nr_files == 1 ? "" : "s");
	hwpriv_fputs_escaped(r->dir, f);
	if (r->nr_done < r->nr_files)
		fprintf(f, " (%zu kept)", r->nr_done);
	fputs(", the last ", f);
}
