#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Events named every way: perf's names, libpfm4's (forced PMU), raw codes,
tracepoints (in a private mount namespace, so nothing is left mounted)."""
import json
import os
import shutil
import subprocess
import tempfile

from common import (HWPROF_SH as HW, WORKLOAD, case, check, done, event, have_hw_pmu,
                    hwprof, in_namespace, metric, skip, stat_json)

forced = dict(os.environ, LIBPFM_FORCE_PMU="icl")


def libpfm_names():
    """libpfm4 names are encoded; on a machine without that PMU, not
    supported, and the rest of the list still counts, exit status unaffected.
    With a PMU, each counts or says why not: never a fake 0."""
    p, doc = stat_json("-e", "INST_RETIRED:ANY_P,page-faults,r00c0",
                       "--", WORKLOAD, "pages", "1000", env=forced)
    check(p.returncode == 0, p.stderr)
    if not check(doc, "a JSON document"):
        return
    inst = event(doc, "INST_RETIRED:ANY_P")
    check(inst["canonical"] == "icl::INST_RETIRED:ANY_P", inst["canonical"])
    if not have_hw_pmu():
        check(not inst["supported"] and inst["count"] is None, "not supported here")
        check(not event(doc, "r00c0")["supported"], "raw: not supported here")
    else:
        for name in ("INST_RETIRED:ANY_P", "r00c0"):
            e = event(doc, name)
            check(e["count"] is not None if e["supported"] else
                  e["count"] is None and e["reason"],
                  f"{name}: a count, or not supported with a reason: {e}")
    check(event(doc, "page-faults")["count"] >= 1000, "the rest counts")


def perf_names():
    """libpfm4's perf:: names (hidden when a PMU is forced)."""
    p, doc = stat_json("-e", "perf::PERF_COUNT_SW_PAGE_FAULTS", "--", WORKLOAD, "pages", "1000")
    check(p.returncode == 0 and doc and event(doc, "perf::PERF_COUNT_SW_PAGE_FAULTS")["count"] >= 1000,
          f"perf:: name counts: {p.stderr}")


def inactive_pmu():
    """A PMU libpfm4 knows but this CPU is not is explained; on an Ice Lake
    CPU, whose PMU it is, the event counts instead."""
    p, doc = stat_json("-e", "icl::INST_RETIRED:ANY_P", "--", "true")
    if p.returncode == 0:
        e = doc and event(doc, "icl::INST_RETIRED:ANY_P")
        check(e and e["supported"] and e["count"] is not None,
              f"the PMU of this CPU: the event counts: {e}")
    else:
        check(p.returncode == 2 and "LIBPFM_FORCE_PMU=icl" in p.stderr,
              f"an inactive PMU is explained: {p.stderr}")


def unit_masks():
    p, doc = stat_json("-e", "MEM_LOAD_RETIRED", "--", "true", env=forced)
    check(p.returncode == 2 and "L3_MISS" in p.stderr, f"unit masks listed: {p.stderr}")


def nothing_countable():
    """No event of the list opens (the shim makes every hardware counter
    busy, PMU or not): the command runs all the same, as under perf, and
    each event says why it was not counted; a wrapper in a script must not
    skip the work it wraps. --strict asks for the error instead."""
    shim = os.environ.get("PERF_SHIM")
    if not shim:
        skip("$PERF_SHIM is not set (meson test sets it)")
    env = dict(os.environ, LD_PRELOAD=shim, HWPROF_SHIM="ebusy")
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "stat.json")
        p = hwprof("stat", "--json", "-o", out, "-e", "cycles,instructions", "--",
                   "sh", "-c", "echo ran; exit 3", env=env)
        check(p.returncode == 3, f"the command's status: {p.returncode}: {p.stderr}")
        check("ran" in p.stdout, "the command ran")
        check("none of the events can be counted here" in p.stderr and "--strict" in p.stderr,
              f"a warning says so: {p.stderr}")
        with open(out) as f:
            doc = json.load(f)
        check(all(not e["supported"] and e["reason"] for e in doc["events"]),
              f"every event not supported, with its reason: {doc['events']}")
    p = hwprof("stat", "--strict", "-e", "cycles,instructions", "--", "sh", "-c", "echo ran",
               env=env)
    check(p.returncode == 1 and "none of the events could be counted" in p.stderr,
          f"--strict: status 1: {p.stderr}")
    check("ran" not in p.stdout, "--strict: the command did not run")
    # Counts per thread of a command read the threads' exit records from a
    # ring of each CPU's counter: none opened, none mapped, none read.
    p = hwprof("stat", "--per-thread", "-e", "cycles,instructions", "--", "sh", "-c",
               "echo ran; exit 3", env=env)
    check(p.returncode == 3 and "ran" in p.stdout and
          "none of the events can be counted here" in p.stderr,
          f"--per-thread: status {p.returncode}: {p.stderr}")


def tracepoints():
    """Tracepoints: mount tracefs in a mount namespace of our own."""
    p = in_namespace("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true; "
                     f"exec {HW} stat --json -o - -e sched:sched_switch,cs -- {WORKLOAD} pingpong 500")
    if p.returncode != 0:
        skip(f"tracefs could not be used here: {p.stderr.strip()}")
    doc = json.loads(p.stdout)
    sw = event(doc, "sched:sched_switch")["count"]
    cs = event(doc, "cs")["count"]
    check(sw >= 1000 and abs(sw - cs) <= 0.05 * cs + 10,
          f"sched_switch {sw} ~ context switches {cs}")


def tracefs_not_mounted():
    p = in_namespace("umount /sys/kernel/tracing 2>/dev/null; "
                     "umount /sys/kernel/debug/tracing 2>/dev/null; "
                     f"exec {HW} stat -e sched:sched_switch -- true")
    if p.returncode == 0:
        skip("tracefs is still reachable here once unmounted")
    check(p.returncode == 2 and "tracefs is not mounted" in p.stderr, p.stderr)


def tracepoint_typo():
    p = in_namespace("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; "
                     f"exec {HW} stat -e sched:sched_swich -- true")
    check(p.returncode == 2 and ("sched:sched_switch" in p.stderr or "tracefs" in p.stderr),
          f"tracepoint typo suggests: {p.stderr}")


def msr_tsc():
    """The kernel's msr PMU by perf's syntax: msr/tsc/ counts the time-stamp
    counter while the task runs, so its ticks per task-clock nanosecond are
    the TSC's frequency, under hwprof as under perf in the same test; the
    built-in tsc-GHz metric is that ratio."""
    if not os.path.exists("/sys/bus/event_source/devices/msr/events/tsc"):
        skip("this kernel has no msr PMU with a tsc event")
    if not shutil.which("perf"):
        skip("perf is not installed")
    p, doc = stat_json("-e", "msr/tsc/,task-clock", "--", WORKLOAD, "cpuspin", "0.2")
    check(p.returncode == 0 and doc, f"msr/tsc/ counts: {p.stderr}")
    if not doc:
        return
    tsc = event(doc, "msr/tsc/")
    check(tsc["canonical"] == "msr/tsc/" and tsc["supported"], f"{tsc}")
    clock = event(doc, "task-clock")["count"]
    ours = tsc["count"] / clock
    q = subprocess.run(["perf", "stat", "-x", ",", "-e", "msr/tsc/,task-clock", "--",
                        WORKLOAD, "cpuspin", "0.2"], capture_output=True, text=True)
    rows = {l.split(",")[2]: float(l.split(",")[0]) for l in q.stderr.splitlines()
            if l.count(",") >= 3 and l.split(",")[0].replace(".", "").isdigit()}
    if q.returncode != 0 or "msr/tsc/" not in rows or "task-clock" not in rows:
        skip(f"perf stat -e msr/tsc/: {q.stderr.strip()}")
    # perf -x writes task-clock in msec.
    theirs = rows["msr/tsc/"] / (rows["task-clock"] * 1e6)
    check(0.1 < ours < 20 and abs(ours - theirs) <= 0.1 * theirs,
          f"TSC ticks per ns: hwprof {ours:.4f}, perf {theirs:.4f}")
    check(tsc["count"] >= 0.15 * 1e9 * 0.1, f"0.2 s of CPU: {tsc['count']} ticks")
    m = metric(doc, "tsc-GHz")
    check(m and abs(m["value"] - ours) <= 1e-9 * ours, f"tsc-GHz {m} = {ours}")


def pmu_errors():
    """A PMU, event or term this machine lacks, or a bad value: status 2
    and a message that names it and what there is."""
    for spec, want in (("nopmu/tsc/", "no PMU 'nopmu'; the kernel's PMUs"),
                       ("software/tsc/", "PMU 'software' has no event nor term 'tsc'"),
                       ("msr/event=0x10000000000000000/", "is not a number"),
                       ("msr/tsc/q", "'q' after the last '/' is not a modifier")):
        p = hwprof("stat", "-e", spec, "--", "true")
        check(p.returncode == 2 and want in p.stderr, f"{spec}: {p.returncode} {p.stderr}")


def fake_scaled_pmu(root):
    """A PMU in a sysfs tree of our own whose event counts page faults
    (software, config 2) in halves: NAME.scale 0.5, NAME.unit Halves."""
    d = os.path.join(root, "bus/event_source/devices/fake")
    os.makedirs(os.path.join(d, "events"))
    os.makedirs(os.path.join(d, "format"))
    for rel, text in (("type", "1"), ("format/config", "config:0-63"),
                      ("events/halfpages", "config=0x2"),
                      ("events/halfpages.scale", "0.5"),
                      ("events/halfpages.unit", "Halves")):
        with open(os.path.join(d, rel), "w") as f:
            f.write(text + "\n")


def pmu_scale():
    """A PMU event's NAME.scale and NAME.unit apply as perf applies them:
    the value is the count times the scale, in the unit, in the JSON, the
    CSV (perf's -x fields: value, unit, event), the text (2 decimals, then
    the unit) and compare."""
    with tempfile.TemporaryDirectory() as root:
        fake_scaled_pmu(root)
        env = dict(os.environ, HWPROF_SYSFS_ROOT=root)
        spec = ("-e", "fake/halfpages/,page-faults", "--", WORKLOAD, "pages", "2000")
        p, doc = stat_json(*spec, env=env)
        check(p.returncode == 0 and doc, p.stderr)
        if not doc:
            return
        half, faults = event(doc, "fake/halfpages/"), event(doc, "page-faults")
        check(half["unit"] == "Halves" and faults["count"] >= 2000, f"{half} {faults}")
        check(abs(half["count"] - faults["count"] / 2) <= 2,
              f"halves {half['count']} = page faults {faults['count']} / 2")
        p = hwprof("stat", "-x", ",", *spec, env=env)
        rows = [l.split(",") for l in p.stderr.splitlines() if "fake/" in l]
        check(p.returncode == 0 and len(rows) == 1 and rows[0][1:3] ==
              ["Halves", "fake/halfpages/"] and rows[0][0].split(".")[-1] in ("00", "50"),
              f"CSV: {p.stderr}")
        p = hwprof("stat", *spec, env=env)
        line = [l.split() for l in p.stderr.splitlines() if "fake/" in l]
        check(line and line[0][1:] == ["Halves", "fake/halfpages/"] and
              abs(float(line[0][0].replace(",", "")) - half["count"]) <= 0.01 * half["count"],
              f"text: {p.stderr}")
        a, b = os.path.join(root, "a.json"), os.path.join(root, "b.json")
        for out in (a, b):
            q = hwprof("stat", "-r", "2", "--json", "-o", out, *spec, env=env)
            check(q.returncode == 0, q.stderr)
        q = hwprof("compare", "--json", a, b, env=env)
        with open(a) as f:
            mean_a = event(json.load(f), "fake/halfpages/")["mean"]
        row = [r for r in json.loads(q.stdout or "{}").get("rows", [])
               if r["name"] == "fake/halfpages/"]
        check(q.returncode == 0 and row and row[0]["unit"] == "Halves" and
              row[0]["a_mean"] == mean_a, q.stdout + q.stderr)


def pmu_formula_over_runs():
    """A formula naming a PMU's event as pmu@event@ (as --topdown's and
    Memory_BW's do) over -r runs: the formula on the mean counts, in JSON,
    text and CSV, as with one run (it was <undefined>, "+- 0.00%")."""
    with tempfile.TemporaryDirectory() as root:
        fake_scaled_pmu(root)
        env = dict(os.environ, HWPROF_SYSFS_ROOT=root)
        # the fake event counts page faults: the formula reads counts, 1
        spec = ("-e", "fake/halfpages/,page-faults", "-M", "x=fake@halfpages@ / page-faults",
                "--", WORKLOAD, "pages", "500")
        for runs in ("1", "3"):
            p, doc = stat_json("-r", runs, *spec, env=env)
            m = [r for r in (doc or {}).get("metrics", []) if r["metric"] == "x"]
            check(p.returncode == 0 and m and m[0]["value"] is not None and
                  abs(m[0]["value"] - 1) < 1e-9, f"-r {runs}: {p.stderr} {m}")
        p = hwprof("stat", "-r", "3", *spec, env=env)
        line = [l.split() for l in p.stderr.splitlines() if l.rstrip().endswith(" x") or
                " x " in l]
        check(p.returncode == 0 and line and line[0][0] == "1.000" and
              "<undefined>" not in p.stderr, f"text: {p.stderr}")
        p = hwprof("stat", "-r", "3", "-x", ",", *spec, env=env)
        rows = [l.split(",") for l in p.stderr.splitlines() if l.endswith(",x")]
        # perf's -x fields of a metric: its value and name last
        check(p.returncode == 0 and rows and rows[0][-2] and
              abs(float(rows[0][-2]) - 1) < 1e-6, f"CSV: {p.stderr}")


for fn in (msr_tsc, pmu_errors, pmu_scale, pmu_formula_over_runs, libpfm_names, perf_names, inactive_pmu, unit_masks, nothing_countable, tracepoints,
           tracefs_not_mounted, tracepoint_typo):
    case(fn)
done()
