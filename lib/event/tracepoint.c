// SPDX-License-Identifier: MIT
/* Tracepoints, "subsystem:name", from tracefs. */
#include "core/core.h"
#include "event/event.h"
#include "util/text.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *const tracefs_roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };

/* The first tracefs with an events directory, or NULL when none is mounted. */
static const char *tracefs_root(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tracefs_roots); i++) {
		char path[256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/events", tracefs_roots[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return tracefs_roots[i];
	}
	return NULL;
}

bool tracefs_mounted(void)
{
	return tracefs_root() != NULL;
}

bool tracepoint_syntax(const char *name)
{
	const char *colon = strchr(name, ':');

	if (!colon || colon == name || !colon[1] || strchr(colon + 1, ':'))
		return false;
	for (const char *p = name; *p; p++)
		if (p != colon && !isalnum((unsigned char)*p) && *p != '_' && *p != '-' &&
		    *p != '.')
			return false;
	return true;
}

int tracepoint_resolve(const char *name, struct event *ev, struct event_names *names)
{
	const char *root, *colon = strchr(name, ':');
	struct perf_event_attr *attr = &ev->attr;
	char path[1024];
	unsigned long long id;
	FILE *f;
	int n;

	if (!tracepoint_syntax(name))
		return -ENOENT;
	root = tracefs_root();
	if (!root)
		return -ENOENT;	/* the unknown-event message says to mount it */
	snprintf(path, sizeof(path), "%s/events/%.*s/%s/id", root, (int)(colon - name),
		 name, colon + 1);
	f = fopen(path, "re");
	if (!f) {
		if (errno == EACCES || errno == EPERM)
			return fail(-errno,
					"tracepoint '%s': cannot read %s: %s; tracepoints need root, or read access to tracefs",
					name, path, errno_text(errno));
		return -ENOENT;
	}
	n = fscanf(f, "%llu", &id);
	fclose(f);
	if (n != 1)
		return fail(-EIO, "tracepoint '%s': %s does not hold an id", name, path);
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	ev->source = HWP_SOURCE_TRACEPOINT;
	ev->is_hardware = false;
	names->canonical = name;
	names->desc = "Tracepoint";
	return 0;
}

int tracepoint_foreach(const char *pattern, hwp_event_fn fn, void *ctx)
{
	const char *root = tracefs_root();
	char path[1024];
	struct dirent *sys;
	DIR *d;
	int ret = 0;

	if (!root)
		return 0;
	snprintf(path, sizeof(path), "%s/events", root);
	d = opendir(path);
	if (!d)
		return 0;
	while (!ret && (sys = readdir(d))) {
		struct dirent *ev;
		DIR *sd;

		if (sys->d_name[0] == '.' || sys->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", root, sys->d_name);
		sd = opendir(path);
		if (!sd)
			continue;
		while (!ret && (ev = readdir(sd))) {
			char name[512];
			struct hwp_event_desc desc = {
				.name = name,
				.desc = "Tracepoint",
				.pmu = "tracepoint",
				.source = HWP_SOURCE_TRACEPOINT,
			};

			char id[1024];

			if (ev->d_name[0] == '.' || ev->d_type != DT_DIR)
				continue;
			snprintf(name, sizeof(name), "%s:%s", sys->d_name, ev->d_name);
			if (pattern && !pattern_match(pattern, name))
				continue;
			/* Without an id, perf_event_open cannot name it (ftrace's
			 * own events mostly): perf does not list those either. */
			snprintf(id, sizeof(id), "%s/events/%s/%s/id", root, sys->d_name,
				 ev->d_name);
			if (access(id, F_OK))
				continue;
			ret = fn(&desc, ctx);
		}
		closedir(sd);
	}
	closedir(d);
	return ret;
}
