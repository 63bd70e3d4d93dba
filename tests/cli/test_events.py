#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Events named every way: perf's names, libpfm4's (forced PMU), raw codes,
tracepoints (in a private mount namespace, so nothing is left mounted)."""
import json
import os

from common import (HWPROF_SH as HW, WORKLOAD, case, check, done, event, have_hw_pmu,
                    in_namespace, skip, stat_json)

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
    """An error listing each event's reason, status 1."""
    if have_hw_pmu():
        skip("this machine has a hardware PMU: cycles and instructions count")
    p, doc = stat_json("-e", "cycles,instructions", "--", "true")
    check(p.returncode == 1 and "none of the events could be counted" in p.stderr, p.stderr)


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
