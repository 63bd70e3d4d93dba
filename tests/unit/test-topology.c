// SPDX-License-Identifier: MIT
/* The topology reader on fabricated sysfs trees, and the units it groups
 * CPUs into: a 2-package machine of 16 CPUs (4 cores of 2 threads each,
 * numbered as x86 Linux numbers SMT siblings: CPU n and n + 8 share a
 * core), one with dies, and trees that are wrong. */
#include "count/count.h"
#include "harness.h"

#include <stdlib.h>
#include <sys/stat.h>

static char root[] = "/tmp/hwprof-topo-XXXXXX";

static void put(const char *rel, const char *text)
{
	t_put_file(root, rel, text);
}

static void put_cpu(int cpu, int core, int die, int package)
{
	char rel[128], v[32];

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", cpu);
	snprintf(v, sizeof(v), "%d\n", core);
	put(rel, v);
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/die_id", cpu);
	snprintf(v, sizeof(v), "%d\n", die);
	put(rel, v);
	snprintf(rel, sizeof(rel),
		 "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	snprintf(v, sizeof(v), "%d\n", package);
	put(rel, v);
}

static void sixteen(void)
{
	put("devices/system/cpu/online", "0-15\n");
	for (int c = 0; c < 16; c++)
		put_cpu(c, c % 4, 0, (c / 4) % 2);
	put("devices/system/node/node0/cpulist", "0-3,8-11\n");
	put("devices/system/node/node1/cpulist", "4-7,12-15\n");
}

/* The units of @aggr over all 16 CPUs, as "name:cpus name:cpus ...". */
static void grouped(const struct hwp_topology *t, enum hwp_aggr aggr, char *out,
		    size_t size)
{
	int cpus[16];
	size_t unit_of[16], nr = 0, len = 0;
	struct unit *u = NULL;

	for (int c = 0; c < 16; c++)
		cpus[c] = c;
	*out = '\0';
	if (units_of_cpus(t, aggr, cpus, 16, &u, &nr, unit_of)) {
		snprintf(out, size, "error: %s", hwp_errmsg());
		return;
	}
	for (size_t i = 0; i < nr; i++) {
		len += (size_t)snprintf(out + len, size - len, "%s%s:", i ? " " : "",
					u[i].name);
		for (size_t k = 0; k < u[i].nr_cpus; k++)
			len += (size_t)snprintf(out + len, size - len, "%s%d",
						k ? "," : "", u[i].cpus[k]);
	}
	for (int c = 0; c < 16; c++) {
		bool in = false;

		for (size_t k = 0; k < u[unit_of[c]].nr_cpus; k++)
			in |= u[unit_of[c]].cpus[k] == c;
		CHECK(in, "CPU %d is in the unit it is mapped to", c);
	}
	units_release(u, nr);
}

static void test_read_sixteen(void)
{
	struct hwp_topology *t;
	struct hwp_cpu_info c = { .sz = sizeof(c) };

	CHECK_ERR(hwp_topology_load(root, &t), 0);
	if (!t)
		return;
	CHECK(hwp_topology_nr_cpus(t) == 16, "%zu CPUs", hwp_topology_nr_cpus(t));
	for (size_t i = 0; i < 16; i++) {
		CHECK_ERR(hwp_topology_cpu(t, i, &c), 0);
		CHECK(c.cpu == (int)i && c.core == (int)i % 4 && c.die == 0 &&
		      c.package == ((int)i / 4) % 2 && c.node == c.package,
		      "CPU %zu: core %d die %d package %d node %d", i, c.core, c.die,
		      c.package, c.node);
	}
	CHECK_ERR(hwp_topology_find(t, 13, &c), 0);
	CHECK(c.cpu == 13 && c.core == 1 && c.package == 1, "CPU 13: core %d package %d",
	      c.core, c.package);
	CHECK_ERR(hwp_topology_find(t, 16, &c), -ENODEV);
	CHECK_ERR(hwp_topology_cpu(t, 16, &c), -EINVAL);
	hwp_topology_free(t);
}

static void test_group_sixteen(void)
{
	struct hwp_topology *t;
	char got[1024];

	CHECK_ERR(hwp_topology_load(root, &t), 0);
	if (!t)
		return;
	grouped(t, HWP_AGGR_SOCKET, got, sizeof(got));
	CHECK(!strcmp(got, "S0:0,1,2,3,8,9,10,11 S1:4,5,6,7,12,13,14,15"), "%s", got);
	grouped(t, HWP_AGGR_CORE, got, sizeof(got));
	CHECK(!strcmp(got, "S0-D0-C0:0,8 S0-D0-C1:1,9 S0-D0-C2:2,10 S0-D0-C3:3,11 "
			   "S1-D0-C0:4,12 S1-D0-C1:5,13 S1-D0-C2:6,14 S1-D0-C3:7,15"),
	      "%s", got);
	grouped(t, HWP_AGGR_DIE, got, sizeof(got));
	CHECK(!strcmp(got, "S0-D0:0,1,2,3,8,9,10,11 S1-D0:4,5,6,7,12,13,14,15"), "%s",
	      got);
	grouped(t, HWP_AGGR_NODE, got, sizeof(got));
	CHECK(!strcmp(got, "N0:0,1,2,3,8,9,10,11 N1:4,5,6,7,12,13,14,15"), "%s", got);
	grouped(t, HWP_AGGR_CPU, got, sizeof(got));
	CHECK(!strncmp(got, "CPU0:0 CPU1:1 CPU2:2 ", 21) && strstr(got, " CPU15:15"),
	      "%s", got);
	hwp_topology_free(t);
}

/* What --pin 0,15 asks: the smallest unit that holds the CPUs. The list
 * is checked against this machine's online CPUs: only 0 and 1 are sure. */
static void test_shared(void)
{
	struct hwp_topology *t;
	enum hwp_aggr l = HWP_AGGR_NODE;

	CHECK_ERR(hwp_topology_load(root, &t), 0);
	if (!t)
		return;
	CHECK_ERR(hwp_topology_shared(t, "0", &l), 0);
	CHECK(l == HWP_AGGR_CPU, "one CPU: %d", (int)l);
	CHECK_ERR(hwp_topology_shared(t, "0,1", &l), 0);
	CHECK(l == HWP_AGGR_DIE, "cores 0 and 1 of package 0: %d", (int)l);
	CHECK_ERR(hwp_topology_shared(t, "0,x", &l), -HWP_ERR_SYNTAX);
	hwp_topology_free(t);
	/* CPUs 0 and 1 as SMT siblings, then on two packages */
	put_cpu(1, 0, 0, 0);
	CHECK_ERR(hwp_topology_load(root, &t), 0);
	CHECK_ERR(t ? hwp_topology_shared(t, "0-1", &l) : -1, 0);
	CHECK(l == HWP_AGGR_CORE, "siblings: %d", (int)l);
	hwp_topology_free(t);
	put_cpu(1, 0, 0, 1);
	CHECK_ERR(hwp_topology_load(root, &t), 0);
	CHECK_ERR(t ? hwp_topology_shared(t, "0,1", &l) : -1, 0);
	CHECK(l == HWP_AGGR_GLOBAL, "two packages: %d", (int)l);
	hwp_topology_free(t);
	put_cpu(1, 1, 0, 0);
}

static void test_dies(void)
{
	struct hwp_topology *t;
	char got[1024], cmd[128];

	/* package 0 of two dies (CPUs 0-7: die 0, 8-15: die 1); no node
	 * directory (a kernel without NUMA: node 0) */
	for (int c = 0; c < 16; c++)
		put_cpu(c, c % 4, c / 8, 0);
	snprintf(cmd, sizeof(cmd), "rm -r %s/devices/system/node", root);
	CHECK_ERR(system(cmd), 0);
	CHECK_ERR(hwp_topology_load(root, &t), 0);
	if (!t)
		return;
	grouped(t, HWP_AGGR_DIE, got, sizeof(got));
	CHECK(!strcmp(got, "S0-D0:0,1,2,3,4,5,6,7 S0-D1:8,9,10,11,12,13,14,15"), "%s",
	      got);
	grouped(t, HWP_AGGR_CORE, got, sizeof(got));
	CHECK(!strncmp(got, "S0-D0-C0:0,4 S0-D0-C1:1,5 ", 26), "%s", got);
	grouped(t, HWP_AGGR_NODE, got, sizeof(got));
	CHECK(!strcmp(got, "N0:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"), "%s", got);
	hwp_topology_free(t);
}

static void test_bad_trees(void)
{
	struct hwp_topology *t = NULL;

	put("devices/system/cpu/cpu3/topology/core_id", "three\n");
	CHECK_ERR(hwp_topology_load(root, &t), -HWP_ERR_FORMAT);
	CHECK(!t && strstr(hwp_errmsg(), "cpu3/topology"), "%s", hwp_errmsg());
	put("devices/system/cpu/cpu3/topology/core_id", "3\n");
	put("devices/system/cpu/online", "0-16\n");
	CHECK_ERR(hwp_topology_load(root, &t), -ENOENT);
	CHECK(strstr(hwp_errmsg(), "cpu16/topology") && strstr(hwp_errmsg(), "CPU 16"),
	      "%s", hwp_errmsg());
	put("devices/system/cpu/online", "zero\n");
	CHECK_ERR(hwp_topology_load(root, &t), -HWP_ERR_FORMAT);
	CHECK(strstr(hwp_errmsg(), "not a CPU list"), "%s", hwp_errmsg());
	CHECK_ERR(hwp_topology_load("/nonexistent-sysfs", &t), -ENOENT);
	CHECK(strstr(hwp_errmsg(), "/nonexistent-sysfs/devices/system/cpu/online"), "%s",
	      hwp_errmsg());
	CHECK(hwp_enum_name(HWP_ENUM_AGGR, HWP_AGGR_SOCKET) &&
	      !strcmp(hwp_enum_name(HWP_ENUM_AGGR, HWP_AGGR_SOCKET), "socket"), "names");
	CHECK(!hwp_enum_name(HWP_ENUM_AGGR, (enum hwp_aggr)99), "no name past the last");
}

int main(void)
{
	t_init();
	t_mkdtemp(root);
	sixteen();
	t_run(test_read_sixteen);
	t_run(test_group_sixteen);
	t_run(test_shared);
	t_run(test_dies);
	t_run(test_bad_trees);
	t_rm_tree(root);
	return t_done();
}
