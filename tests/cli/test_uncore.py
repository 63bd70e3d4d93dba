#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""An event of an uncore PMU by the name of its instances' PMU, as perf stat
takes uncore_imc/cas_count_read/ for uncore_imc_0..N: counted on each
instance, one row of their sum named as written, or with --no-merge a row
an instance named by it. The PMUs are fabricated (HWPROF_SYSFS_ROOT) with
the software type, so that the kernel counts them (cpu-clock) on their
cpumask's CPU 0."""
import os
import re
import subprocess
import tempfile
import urllib.request

from common import (HWPROF, WORKLOAD, WRAPPER, case, check, done, event, hwprof,
                    need_system_wide, report_json, skip, stat_csv, stat_json)

NR = 3
ROOT = tempfile.TemporaryDirectory()
ENV = dict(os.environ, HWPROF_SYSFS_ROOT=ROOT.name)
INSTANCES = [f"uncore_sw_{i}/ticks/" for i in range(NR)]


def fabricate_pmu(name, cpumask):
    d = f"{ROOT.name}/bus/event_source/devices/{name}"
    for rel, text in [("type", "1"), ("cpumask", cpumask),
                      ("format/event", "config:0-63"), ("events/ticks", "event=0")]:
        os.makedirs(os.path.dirname(f"{d}/{rel}"), exist_ok=True)
        with open(f"{d}/{rel}", "w") as f:
            f.write(text + "\n")


def fabricate():
    # the machine's topology, which -A and serve read under the same root
    os.symlink("/sys/devices", f"{ROOT.name}/devices")
    for i in range(NR):
        fabricate_pmu(f"uncore_sw_{i}", "0")
    # a socket each: -C 0 meets uncore_cm_0's cpumask only
    fabricate_pmu("uncore_cm_0", "0")
    fabricate_pmu("uncore_cm_1", "1")


def merged():
    """-a: one row, named as written, counted on every instance."""
    need_system_wide()
    p, doc = stat_json("-a", "-e", "uncore_sw/ticks/,task-clock", "--",
                       WORKLOAD, "spin", "0.1", env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    names = [e["event"] for e in doc["events"]]
    check(names == ["uncore_sw/ticks/", "task-clock"], names)
    row = event(doc, "uncore_sw/ticks/")
    check(row and row["supported"] and row["values"][0] > 0, row)
    # the sum is no instance's: its canonical name is the PMU's
    check(row and row["canonical"] == "uncore_sw/ticks/", row)
    p, rows = stat_csv("-a", "-e", "uncore_sw/ticks/", "--", "true", env=ENV)
    check(p.returncode == 0 and [r[2] for r in rows if len(r) > 2] ==
          ["uncore_sw/ticks/"], f"{p.stderr} {rows}")


def no_merge():
    """--no-merge: a row an instance, named by it, as perf's."""
    need_system_wide()
    p, doc = stat_json("-a", "--no-merge", "-e", "uncore_sw/ticks/,task-clock", "--",
                       WORKLOAD, "spin", "0.1", env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    names = [e["event"] for e in doc["events"]]
    check(names == INSTANCES + ["task-clock"], names)
    for name in INSTANCES:
        row = event(doc, name)
        check(row and row["supported"] and row["values"][0] > 0, row)


def no_merge_formula_names_an_instance():
    """--no-merge: a formula of the merged name, which is no row here, is
    an error that names the instances' rows and how to write one."""
    p = hwprof("stat", "-a", "--no-merge", "-e", "uncore_sw/ticks/,task-clock", "-M",
               "r=uncore_sw@ticks@ / task-clock", "--", "true", env=ENV)
    check(p.returncode == 2 and "uncore_sw_0/ticks/" in p.stderr and
          "'uncore_sw_0@ticks@'" in p.stderr,
          f"{p.returncode} {p.stderr}")
    # merged, the same formula reads the merged row
    p = hwprof("stat", "-a", "-e", "uncore_sw/ticks/,task-clock", "-M",
               "r=uncore_sw@ticks@ / task-clock", "--", "true", env=ENV)
    check(p.returncode == 0 or "system-wide" in p.stderr or "paranoid" in p.stderr,
          f"{p.returncode} {p.stderr}")


def per_cpu():
    """-A: a CPU's row is the sum of the instances counted there (CPU 0,
    their cpumask's), and the units add up to the total."""
    need_system_wide()
    p, doc = stat_json("-a", "-A", "-e", "uncore_sw/ticks/", "--", WORKLOAD, "spin", "0.1",
                       env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    units = {u["unit"]: u["events"] for u in doc["units"]}
    check(all([e["event"] for e in ev] == ["uncore_sw/ticks/"] for ev in units.values()),
          units)
    cpu0 = units.get("CPU0", [{}])[0].get("values", [0])[0]
    check(cpu0 > 0 and cpu0 == doc["events"][0]["values"][0],
          f"CPU0 {cpu0}, total {doc['events'][0]['values']}")


def per_thread_says_a():
    """Of a command alone: one row, not supported, that says -a."""
    p, doc = stat_json("-e", "uncore_sw/ticks/,task-clock", "--", "true", env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    check([e["event"] for e in doc["events"]] == ["uncore_sw/ticks/", "task-clock"],
          doc["events"])
    row = event(doc, "uncore_sw/ticks/")
    check(row and not row["supported"] and "system-wide, with -a" in row["reason"], row)


def cpu_list_leaves_out():
    """-C 0: the instance on CPU 1 is left out of the row, which counts the
    one on CPU 0, as perf drops the instances -C misses; --no-merge shows
    the left-out one <not supported>, saying why."""
    need_system_wide()
    p, doc = stat_json("-a", "-C", "0", "-e", "uncore_cm/ticks/", "--", "true", env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    row = event(doc, "uncore_cm/ticks/")
    check(row and row["supported"] and row["values"][0] > 0, row)
    p, doc = stat_json("-a", "-C", "0", "--no-merge", "-e", "uncore_cm/ticks/", "--",
                       "true", env=ENV)
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    row = event(doc, "uncore_cm_1/ticks/")
    check(row and not row["supported"] and "leaves out" in row["reason"], row)


def in_a_group():
    """A group holds no PMU's instances together: the error names them."""
    p = hwprof("stat", "-e", "{uncore_sw/ticks/,task-clock}", "--", "true", env=ENV)
    check(p.returncode == 2 and "uncore_sw_0 to uncore_sw_2" in p.stderr and
          "uncore_sw_0/ticks/" in p.stderr, f"{p.returncode} {p.stderr}")


def serve_a_series_an_instance():
    """serve: a series an instance, named by it, as --no-merge: the same
    event and CPU twice would be one series said twice."""
    need_system_wide()
    sv = subprocess.Popen([*WRAPPER, HWPROF, "serve", "--listen", "127.0.0.1:0",
                           "-e", "uncore_sw/ticks/"], stderr=subprocess.PIPE, text=True,
                          env=ENV)
    try:
        line = sv.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/metrics", line)
        if not check(m, line):
            return
        with urllib.request.urlopen(f"http://127.0.0.1:{m.group(1)}/metrics",
                                    timeout=60) as r:
            body = r.read().decode()
    finally:
        sv.terminate()
        sv.wait(timeout=60)
        sv.stderr.close()
    series = re.findall(r'^hwprof_event_total\{event="([^"]*)",cpu="0"', body, re.M)
    check(sorted(series) == INSTANCES, f"{series}\n{body}")


def record_an_event_an_instance():
    """record -a: an event an instance in the file, each named by it (a
    sample is not a row to merge), so that report -e picks one; each opened
    on CPU 0 of its cpumask alone."""
    need_system_wide()
    data = f"{ROOT.name}/u.data"
    p = hwprof("record", "-a", "-F", "100", "-e", "uncore_sw/ticks/", "-o", data, "--",
               WORKLOAD, "spin", "0.1", env=ENV)
    if not check(p.returncode == 0, f"{p.returncode} {p.stderr}"):
        return
    p = hwprof("report", "-i", data, env=ENV)
    check(p.returncode == 0 and "of event 'uncore_sw_0/ticks/'" in p.stdout and
          "uncore_sw_1/ticks/" in p.stdout, f"{p.returncode} {p.stderr} {p.stdout[:400]}")
    p = hwprof("report", "-i", data, "-e", "uncore_sw_2/ticks/", env=ENV)
    check(p.returncode == 0 and "of event 'uncore_sw_2/ticks/'" in p.stdout,
          f"{p.returncode} {p.stderr} {p.stdout[:400]}")


def side_band_on_every_cpu():
    """record -a of an event of CPU 0 alone (its PMU's cpumask) and one of
    every CPU, the command kept on CPU 1: its exec and mappings there are
    recorded (by the first event open on each CPU's ring, not the list's
    first), so that its samples name it and its program, by its pid."""
    need_system_wide()
    if 1 not in os.sched_getaffinity(0):
        skip("CPU 1 is not one this test may run on")
    data, pidfile = f"{ROOT.name}/sb.data", f"{ROOT.name}/sb.pid"
    p = hwprof("record", "-a", "-F", "200", "-e", "uncore_sw_0/ticks/,cpu-clock",
               "-o", data, "--", "sh", "-c", f'echo $$ > {pidfile}; exec "$0" cpuspin 0.5',
               WORKLOAD, env=ENV, preexec_fn=lambda: os.sched_setaffinity(0, {1}))
    if not check(p.returncode == 0, f"{p.returncode} {p.stderr}"):
        return
    with open(pidfile) as f:
        pid = int(f.read())
    p, doc = report_json(data, "-e", "cpu-clock", "--sort", "pid,dso", env=ENV,
                         both_ways=False)
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    mine = {(e["comm"], e["dso"]): e["samples"] for e in doc["entries"] if e["pid"] == pid}
    # 0.5 s of CPU time at 200 Hz: about 100 samples, half at the least
    check(mine.get(("workload", os.path.realpath(WORKLOAD)), 0) >= 50,
          f"pid {pid}'s samples by comm and module: {mine}")


fabricate()
case(merged, name="-e uncore_sw/ticks/: one row of the instances")
case(no_merge, name="--no-merge: a row an instance")
case(no_merge_formula_names_an_instance, name="--no-merge: a formula of the merged name")
case(per_cpu, name="-A: a CPU's row sums the instances there")
case(per_thread_says_a, name="of a command alone: not supported, says -a")
case(cpu_list_leaves_out, name="-C 0: the instances -C misses are left out")
case(in_a_group, name="in a group: an error that names the instances")
case(serve_a_series_an_instance, name="serve: a series an instance")
case(record_an_event_an_instance, name="record -a: an event an instance")
case(side_band_on_every_cpu, name="record -a: comm and mmap records on every CPU")
ROOT.cleanup()
done()
