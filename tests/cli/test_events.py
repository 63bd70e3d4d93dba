#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Events named every way: perf's names, libpfm4's (forced PMU), raw codes,
tracepoints (in a private mount namespace, so nothing is left mounted)."""
import json
import os
import tempfile

from common import (HWPROF_SH as HW, WORKLOAD, case, check, done, event, have_hw_pmu,
                    hwprof, in_namespace, skip, stat_json)

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


for fn in (libpfm_names, perf_names, inactive_pmu, unit_masks, nothing_countable, tracepoints,
           tracefs_not_mounted, tracepoint_typo):
    case(fn)
done()
