// SPDX-License-Identifier: MIT
/* The machine's topology from sysfs, read once: which core, die, package
 * and NUMA node each online CPU belongs to; and the aggregation units
 * (perf stat's -A, --per-core...) that group a session's CPUs by it. */
#include "count/count.h"
#include "util/cpulist.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_id(const char *root, int cpu, const char *name, int missing, int *out)
{
	char rel[128], buf[64], *end;
	long v;
	int err;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, name);
	err = read_first_line(root, rel, buf, sizeof(buf));
	if (err == -ENOENT) {	/* die_id before Linux 5.2: one die a package */
		*out = missing;
		return missing >= 0 ? 0 : err;
	}
	if (err)
		return err;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || v < -1 || v > 1 << 20)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static struct cpu_topo *find_cpu(const struct hwp_topology *t, int cpu)
{
	for (size_t i = 0; i < t->nr; i++)
		if (t->cpus[i].cpu == cpu)
			return &t->cpus[i];
	return NULL;
}

/* Each node's CPU list; a kernel without NUMA has no node directory, and
 * its one node is 0. */
static int read_nodes(struct hwp_topology *t, const char *root)
{
	char path[4096];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices/system/node", root);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char rel[512], buf[4096], *end;
		int *cpus = NULL;
		size_t nr = 0, bad;
		long node;

		if (strncmp(d->d_name, "node", 4))
			continue;
		node = strtol(d->d_name + 4, &end, 10);
		if (end == d->d_name + 4 || *end || node < 0)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/node/%s/cpulist", d->d_name);
		if (read_first_line(root, rel, buf, sizeof(buf)) || !*buf)
			continue;
		if (cpulist_parse(buf, &cpus, &nr, &bad)) {
			free(cpus);
			continue;
		}
		for (size_t i = 0; i < nr; i++) {
			struct cpu_topo *c = find_cpu(t, cpus[i]);

			if (c)
				c->node = (int)node;
		}
		free(cpus);
	}
	closedir(dir);
	return 0;
}

HWP_API int hwp_topology_load(const char *root, struct hwp_topology **out)
{
	struct hwp_topology *t;
	char buf[4096];
	int *cpus = NULL;
	size_t nr = 0, bad;
	int err;

	clear_error();
	if (!out)
		return fail(-EINVAL, "hwp_topology_load: out is NULL");
	*out = NULL;
	root = sysfs_root(root);
	err = read_first_line(root, "devices/system/cpu/online", buf, sizeof(buf));
	if (err)
		return fail(err, "%s/devices/system/cpu/online: %s: the topology is read from sysfs; mount it (mount -t sysfs sysfs /sys)",
			    root, errno_text(-err));
	if (cpulist_parse(buf, &cpus, &nr, &bad) || !nr) {
		free(cpus);
		return fail(-HWP_ERR_FORMAT,
			    "%s/devices/system/cpu/online: '%s' is not a CPU list",
			    root, buf);
	}
	t = calloc(1, sizeof(*t));
	if (!t || !(t->cpus = calloc(nr, sizeof(*t->cpus)))) {
		free(t);
		free(cpus);
		return fail(-ENOMEM, "out of memory");
	}
	t->nr = nr;
	for (size_t i = 0; i < nr; i++) {
		struct cpu_topo *c = &t->cpus[i];

		c->cpu = cpus[i];
		c->node = 0;
		err = read_id(root, c->cpu, "core_id", -1, &c->core) ?:
		      read_id(root, c->cpu, "physical_package_id", -1, &c->package) ?:
		      read_id(root, c->cpu, "die_id", 0, &c->die);
		if (err) {
			fail(err == -EINVAL ? -HWP_ERR_FORMAT : err,
			     "%s/devices/system/cpu/cpu%d/topology: %s: cannot tell which core and package CPU %d is on",
			     root, c->cpu, err == -EINVAL ? "a number that is not an id" :
			     errno_text(-err), c->cpu);
			goto err;
		}
	}
	read_nodes(t, root);
	free(cpus);
	*out = t;
	return 0;
err:
	free(cpus);
	hwp_topology_free(t);
	return err == -EINVAL ? -HWP_ERR_FORMAT : err;
}

HWP_API void hwp_topology_free(struct hwp_topology *t)
{
	if (!t)
		return;
	free(t->cpus);
	free(t);
}

HWP_API size_t hwp_topology_nr_cpus(const struct hwp_topology *t)
{
	return t ? t->nr : 0;
}

static void cpu_info(const struct cpu_topo *c, struct hwp_cpu_info *i)
{
	*i = (struct hwp_cpu_info){
		.sz = sizeof(*i),
		.cpu = c->cpu,
		.core = c->core,
		.die = c->die,
		.package = c->package,
		.node = c->node,
	};
}

HWP_API int hwp_topology_cpu(const struct hwp_topology *t, size_t idx,
			     struct hwp_cpu_info *info)
{
	struct hwp_cpu_info i;

	clear_error();
	if (!t || !info || idx >= t->nr)
		return fail(-EINVAL, "hwp_topology_cpu: no CPU %zu", idx);
	cpu_info(&t->cpus[idx], &i);
	return info_fill(info, &i, sizeof(i));
}

HWP_API int hwp_topology_find(const struct hwp_topology *t, int cpu,
			      struct hwp_cpu_info *info)
{
	const struct cpu_topo *c;
	struct hwp_cpu_info i;

	clear_error();
	if (!t || !info)
		return fail(-EINVAL, "hwp_topology_find: NULL argument");
	c = find_cpu(t, cpu);
	if (!c)
		return fail(-ENODEV, "CPU %d is not in the topology (not online)", cpu);
	cpu_info(c, &i);
	return info_fill(info, &i, sizeof(i));
}

HWP_API int hwp_topology_shared(const struct hwp_topology *t, const char *cpulist,
				enum hwp_aggr *level)
{
	const struct cpu_topo *first = NULL;
	enum hwp_aggr l = HWP_AGGR_CPU;
	int *cpus = NULL;
	size_t nr = 0;
	int err;

	clear_error();
	if (!t || !cpulist || !level)
		return fail(-EINVAL, "hwp_topology_shared: NULL argument");
	err = cpus_parse(cpulist, &cpus, &nr);
	for (size_t i = 0; !err && i < nr; i++) {
		const struct cpu_topo *c = find_cpu(t, cpus[i]);

		if (!c) {
			err = fail(-ENODEV, "CPU %d is not in the topology", cpus[i]);
			break;
		}
		if (!first) {
			first = c;
			continue;
		}
		/* The smallest unit that holds both, and all before */
		if (c->package != first->package)
			l = HWP_AGGR_GLOBAL;
		else if (c->die != first->die && l != HWP_AGGR_GLOBAL)
			l = HWP_AGGR_SOCKET;
		else if (c->core != first->core &&
			 (l == HWP_AGGR_CPU || l == HWP_AGGR_CORE))
			l = HWP_AGGR_DIE;
		else if (c->cpu != first->cpu && l == HWP_AGGR_CPU)
			l = HWP_AGGR_CORE;
	}
	free(cpus);
	if (!err)
		*level = l;
	return err;
}

/* ---- aggregation units ---- */

/* The unit of @c as perf stat names it: CPU3, S0-D0-C1, S0-D0, S1, N0. */
static void unit_name(enum hwp_aggr aggr, const struct cpu_topo *c, char *buf,
		      size_t size)
{
	switch (aggr) {
	case HWP_AGGR_CPU:
		snprintf(buf, size, "CPU%d", c->cpu);
		break;
	case HWP_AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%d", c->package, c->die, c->core);
		break;
	case HWP_AGGR_DIE:
		snprintf(buf, size, "S%d-D%d", c->package, c->die);
		break;
	case HWP_AGGR_SOCKET:
		snprintf(buf, size, "S%d", c->package);
		break;
	case HWP_AGGR_NODE:
		snprintf(buf, size, "N%d", c->node);
		break;
	default:
		snprintf(buf, size, "all");
		break;
	}
}

static bool same_unit(enum hwp_aggr aggr, const struct cpu_topo *a,
		      const struct cpu_topo *b)
{
	switch (aggr) {
	case HWP_AGGR_CPU:
		return a->cpu == b->cpu;
	case HWP_AGGR_CORE:
		return a->package == b->package && a->die == b->die && a->core == b->core;
	case HWP_AGGR_DIE:
		return a->package == b->package && a->die == b->die;
	case HWP_AGGR_SOCKET:
		return a->package == b->package;
	case HWP_AGGR_NODE:
		return a->node == b->node;
	default:
		return true;
	}
}

/* Sort order of units: by package, die, core (node first for nodes). */
static long unit_key(enum hwp_aggr aggr, const struct cpu_topo *c)
{
	switch (aggr) {
	case HWP_AGGR_CPU:
		return c->cpu;
	case HWP_AGGR_NODE:
		return c->node;
	default:
		return ((long)c->package << 40) |
		       (aggr == HWP_AGGR_SOCKET ? 0 : (long)(c->die & 0xfffff) << 20) |
		       (aggr == HWP_AGGR_CORE ? (long)(c->core & 0xfffff) : 0);
	}
}

void unit_release(struct unit *u)
{
	free(u->name);
	free(u->cpus);
	free(u->comm);
}

void units_release(struct unit *u, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		unit_release(&u[i]);
	free(u);
}

void unit_info(const struct unit *u, enum hwp_aggr aggr, struct hwp_unit_info *i)
{
	*i = (struct hwp_unit_info){
		.sz = sizeof(*i),
		.name = u->name,
		.aggr = aggr,
		.id = u->id,
		.package = u->package,
		.die = u->die,
		.nr_cpus = u->nr_cpus,
		.cpus = u->cpus,
		.tid = u->tid,
		.comm = u->comm,
	};
}

/* A unit for CPU @c, inserted into @u (of *@n, @rep their first CPUs) in
 * key order, moving later units, and the CPUs before @i already mapped to
 * them (@unit_of), up by one: its index, or -ENOMEM. */
static long insert_unit(enum hwp_aggr aggr, const struct cpu_topo *c, struct unit *u,
			const struct cpu_topo **rep, size_t *n, size_t *unit_of, size_t i)
{
	long key = unit_key(aggr, c);
	size_t at = *n;
	char name[64];

	while (at > 0 && unit_key(aggr, rep[at - 1]) > key)
		at--;
	memmove(&u[at + 1], &u[at], (*n - at) * sizeof(*u));
	memmove(&rep[at + 1], &rep[at], (*n - at) * sizeof(*rep));
	for (size_t j = 0; j < i; j++)
		if (unit_of[j] >= at)
			unit_of[j]++;
	unit_name(aggr, c, name, sizeof(name));
	u[at] = (struct unit){ .name = strdup(name), .tid = -1 };
	rep[at] = c;
	(*n)++;
	if (!u[at].name)
		return fail(-ENOMEM, "out of memory");
	return (long)at;
}

/* Each unit's CPUs, from @unit_of: 0 or -ENOMEM. */
static int add_unit_cpus(struct unit *u, const size_t *unit_of, const int *cpus,
			 size_t nr_cpus)
{
	for (size_t i = 0; i < nr_cpus; i++) {
		struct unit *x = &u[unit_of[i]];
		int *grown = realloc(x->cpus, (x->nr_cpus + 1) * sizeof(*grown));

		if (!grown)
			return fail(-ENOMEM, "out of memory");
		x->cpus = grown;
		x->cpus[x->nr_cpus++] = cpus[i];
	}
	return 0;
}

/* The id, package and die of each of the @n units, from its first CPU. */
static void set_unit_ids(enum hwp_aggr aggr, struct unit *u, const struct cpu_topo **rep,
			 size_t n)
{
	for (size_t k = 0; k < n; k++) {
		switch (aggr) {
		case HWP_AGGR_CPU: u[k].id = rep[k]->cpu; break;
		case HWP_AGGR_CORE: u[k].id = rep[k]->core; break;
		case HWP_AGGR_DIE: u[k].id = rep[k]->die; break;
		case HWP_AGGR_NODE: u[k].id = rep[k]->node; break;
		default: u[k].id = rep[k]->package; break;
		}
		u[k].package = rep[k]->package;
		u[k].die = rep[k]->die;
	}
}

int units_of_cpus(const struct hwp_topology *t, enum hwp_aggr aggr, const int *cpus,
		  size_t nr_cpus, struct unit **units, size_t *nr_units, size_t *unit_of)
{
	struct unit *u = calloc(nr_cpus ? nr_cpus : 1, sizeof(*u));
	const struct cpu_topo **rep = calloc(nr_cpus ? nr_cpus : 1, sizeof(*rep));
	size_t n = 0;
	int err = 0;

	*units = NULL;
	*nr_units = 0;
	if (!u || !rep) {
		err = fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr_cpus; i++) {
		const struct cpu_topo *c = find_cpu(t, cpus[i]);
		long k;

		if (!c) {
			err = fail(-ENODEV, "CPU %d is not in the topology read from sysfs: it went offline, or HWPROF_SYSFS_ROOT names another machine's tree",
				   cpus[i]);
			goto out;
		}
		for (k = 0; k < (long)n; k++)
			if (same_unit(aggr, rep[k], c))
				break;
		if (k == (long)n)
			k = insert_unit(aggr, c, u, rep, &n, unit_of, i);
		if (k < 0) {
			err = (int)k;
			goto out;
		}
		unit_of[i] = (size_t)k;
	}
	err = add_unit_cpus(u, unit_of, cpus, nr_cpus);
	if (!err)
		set_unit_ids(aggr, u, rep, n);
out:
	free(rep);
	if (err) {
		units_release(u, n);
		return err;
	}
	*units = u;
	*nr_units = n;
	return 0;
}
