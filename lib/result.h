/* SPDX-License-Identifier: MIT */
/* The inside of struct hwp_result, shared by result.c and its writers. */
#ifndef HWPROF_RESULT_H
#define HWPROF_RESULT_H

#include "hwprof-internal.h"

struct hwp_environment {
	char *host;
	char *kernel;
	char *cpu;
	char *date;
	char *version;
	long nr_cpus;
};

struct series {
	enum hwp_series_kind kind;
	char *name;
	char *unit;
	char *canonical;	/* events */
	char *expr;		/* metrics */
	char *reason;
	bool supported;
	bool user_only;
	bool builtin;
	const struct hwp_metric *metric;	/* borrowed: a built-in or one of result->user */
	double *values;		/* nr_runs */
	double *pct;		/* events: percent running, nr_runs */
	double *running;	/* events: ns running, nr_runs */
};

struct hwp_result {
	char **argv;		/* NULL-terminated, or NULL */
	char *spec;
	char *target;		/* NULL: the command */
	struct series *series;	/* events first, in list order, then metrics */
	size_t nr_series;
	size_t nr_events;
	size_t nr_runs;
	double *seconds;
	struct hwp_metric **user;
	size_t nr_user;
	int exit_code;		/* -1: not set */
	struct hwp_environment env;
};

struct json_writer;

int hwp_environment_read(struct hwp_environment *env);
/* result-output.c: the "events" and "metrics" members of a JSON object. */
void hwp_result_json_rows(const struct hwp_result *r, struct json_writer *w, bool all_runs);
/* An "environment" member: @saved's, or this machine's now when NULL. */
void hwp_json_environment(struct json_writer *w, const struct hwp_environment *saved);
void hwp_environment_release(struct hwp_environment *env);

#endif
