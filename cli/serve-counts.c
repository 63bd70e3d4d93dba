// SPDX-License-Identifier: MIT
/* hwprof serve's counts: a session a cgroup (or one of every task), on
 * every CPU, split by CPU; read at each scrape and written by the
 * library's OpenMetrics writer. */
#include "serve.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct serve_target {
	char *cgroup;			/* NULL: every task */
	struct hwp_session *s;
	bool seen;			/* --cgroup-root: found at this scrape */
};

struct serve {
	struct hwp_evlist *evl;
	const char *cpus;
	const char *cgroup_root;
	struct serve_target *t;
	size_t nr_t, alloc_t;
	char host[256];
	struct hwpriv_om_count *om;	/* the last scrape's samples */
	size_t alloc_om;
	struct hwp_count *buf;		/* a session's counts, unit by unit */
	size_t alloc_buf;
};

static void target_close(struct serve_target *t)
{
	hwp_session_free(t->s);
	free(t->cgroup);
}

/* Open the counters of @cgroup (NULL: every task) and start them. */
static int target_add(struct serve *sv, const char *cgroup)
{
	HWP_OPTS(hwp_session_opts, o, .scope = HWP_SCOPE_CPUS, .cpus = sv->cpus,
		 .aggr = HWP_AGGR_CPU, .cgroup = cgroup);
	struct serve_target t = { .seen = true };
	int err;

	if (sv->nr_t == sv->alloc_t) {
		size_t n = sv->alloc_t ? 2 * sv->alloc_t : 8;
		struct serve_target *p = realloc(sv->t, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		sv->t = p;
		sv->alloc_t = n;
	}
	if (cgroup && !(t.cgroup = strdup(cgroup)))
		return -ENOMEM;
	err = hwp_session_new(sv->evl, &o, &t.s);
	if (!err)
		err = hwp_session_open(t.s);
	if (!err)
		err = hwp_session_enable(t.s);
	if (err) {
		target_close(&t);
		return err;
	}
	sv->t[sv->nr_t++] = t;
	return 0;
}

static int add_named_cgroups(struct serve *sv, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	int err = copy ? 0 : -ENOMEM;

	for (char *cg = copy ? strtok_r(copy, ",", &save) : NULL; cg && !err;
	     cg = strtok_r(NULL, ",", &save))
		err = target_add(sv, cg);
	free(copy);
	return err;
}

static int say_open_error(int err)
{
	cli_lib_error("serve", err);
	return cli_exit_for(err);
}

int serve_new(const struct serve_config *cfg, struct serve **out)
{
	struct serve *sv = calloc(1, sizeof(*sv));
	HWP_OPTS(hwp_evlist_opts, no_merge, .no_merge = true);
	int err;

	*out = sv;
	if (!sv)
		return cli_lib_error("serve", -ENOMEM);
	sv->cpus = cfg->cpus;
	sv->cgroup_root = cfg->cgroup_root;
	if (gethostname(sv->host, sizeof(sv->host) - 1))
		strcpy(sv->host, "localhost");
	/* A series an instance of an uncore PMU, each named by it: merged,
	 * they would be one event and CPU said once an instance. */
	err = hwp_evlist_parse(cfg->events, &no_merge, &sv->evl);
	if (err)
		return say_open_error(err);
	if (cfg->cgroups.buf)
		err = add_named_cgroups(sv, cfg->cgroups.buf);
	else if (cfg->cgroup_root)
		err = serve_render(sv, false, NULL, NULL);
	else
		err = target_add(sv, NULL);
	return err ? say_open_error(err) : 0;
}

void serve_free(struct serve *sv)
{
	if (!sv)
		return;
	for (size_t i = 0; i < sv->nr_t; i++)
		target_close(&sv->t[i]);
	free(sv->t);
	free(sv->om);
	free(sv->buf);
	hwp_evlist_free(sv->evl);
	free(sv);
}

static struct serve_target *target_find(struct serve *sv, const char *cgroup)
{
	for (size_t i = 0; i < sv->nr_t; i++)
		if (sv->t[i].cgroup && !strcmp(sv->t[i].cgroup, cgroup))
			return &sv->t[i];
	return NULL;
}

/* A cgroup under --cgroup-root: counted from the scrape that finds it. One
 * that cannot be counted is said once and kept, uncounted, while it exists. */
static int found_cgroup(const char *cgroup, void *ctx)
{
	struct serve *sv = ctx;
	struct serve_target *t = target_find(sv, cgroup);
	int err;

	if (t) {
		t->seen = true;
		return 0;
	}
	err = target_add(sv, cgroup);
	if (err == -ENOMEM)
		return err;
	if (err) {
		cli_warn("serve", "cgroup '%s' is not counted: %s", cgroup, hwp_errmsg());
		sv->t[sv->nr_t++] = (struct serve_target){ .cgroup = strdup(cgroup),
							   .seen = true };
	}
	return 0;
}

/* The cgroups under --cgroup-root now: new ones opened, gone ones closed. */
static int rediscover(struct serve *sv)
{
	size_t kept = 0;
	int err;

	for (size_t i = 0; i < sv->nr_t; i++)
		sv->t[i].seen = false;
	err = hwpriv_cgroup_foreach_child(sv->cgroup_root, found_cgroup, sv);
	if (err)
		return err;
	for (size_t i = 0; i < sv->nr_t; i++) {
		if (sv->t[i].seen)
			sv->t[kept++] = sv->t[i];
		else
			target_close(&sv->t[i]);
	}
	sv->nr_t = kept;
	return 0;
}

static int grow(void **p, size_t *alloc, size_t want, size_t size)
{
	void *n;

	if (want <= *alloc)
		return 0;
	n = realloc(*p, want * size);
	if (!n)
		return -ENOMEM;
	*p = n;
	*alloc = want;
	return 0;
}

/* Target @t's counts, CPU by CPU, appended to sv->om from *@nr. */
static int read_target(struct serve *sv, struct serve_target *t, size_t *nr)
{
	size_t ne = hwp_session_nr_events(t->s), nu = hwp_session_nr_units(t->s);
	const struct hwp_evlist *evl = hwp_session_evlist(t->s);
	int err;

	err = grow((void **)&sv->buf, &sv->alloc_buf, nu * ne, sizeof(*sv->buf));
	if (!err)
		err = grow((void **)&sv->om, &sv->alloc_om, *nr + nu * ne,
			   sizeof(*sv->om));
	if (!err)
		err = hwp_session_read_units(t->s, sv->buf, nu * ne);
	for (size_t u = 0; u < nu && !err; u++) {
		struct hwp_unit_info unit = { .sz = sizeof(unit) };

		err = hwp_session_unit(t->s, u, &unit);
		for (size_t e = 0; e < ne && !err; e++) {
			struct hwp_event_info ev = { .sz = sizeof(ev) };
			struct hwpriv_om_count *c = &sv->om[(*nr)++];

			err = hwp_evlist_event(evl, e, &ev);
			*c = (struct hwpriv_om_count){
				.event = ev.name,
				.clock = ev.unit && !strcmp(ev.unit, "ns"),
				.supported = hwp_session_event_status(t->s, e, NULL) !=
					     HWP_EVENT_NOT_SUPPORTED,
				.cpu = unit.id,
				.cgroup = t->cgroup,
				.count = sv->buf[u * ne + e],
			};
		}
	}
	return err;
}

int serve_render(struct serve *sv, bool openmetrics, char **body, size_t *len)
{
	size_t nr = 0;
	FILE *f;
	int err = 0;

	if (sv->cgroup_root)
		err = rediscover(sv);
	for (size_t i = 0; i < sv->nr_t && !err; i++)
		if (sv->t[i].s)
			err = read_target(sv, &sv->t[i], &nr);
	if (err || !body)
		return err;
	f = open_memstream(body, len);
	if (!f)
		return -errno;
	err = hwpriv_openmetrics_counts(f, sv->om, nr, sv->host,
					openmetrics ? HWP_FORMAT_OPENMETRICS :
						      HWP_FORMAT_PROMETHEUS);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err) {
		free(*body);
		*body = NULL;
	}
	return err;
}
