#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Events named every way: perf's names, libpfm4's (forced PMU), raw codes,
tracepoints (in a private mount namespace, so nothing is left mounted)."""
import json
import os
import shutil

from common import (HWPROF, WORKLOAD, WRAPPER, case, check, done, event, have_hw_pmu, run, skip,
                    stat_json)

HW = " ".join([*WRAPPER, HWPROF])

forced = dict(os.environ, LIBPFM_FORCE_PMU="icl")


def libpfm_names():
    """libpfm4 names are encoded; on a machine without that PMU, not
    supported, and the rest of the list still counts, exit status unaffected."""
    p, doc = stat_json("-e", "INST_RETIRED:ANY_P,page-faults,r00c0",
                       "--", WORKLOAD, "pages", "1000", env=forced)
    check(p.returncode == 0, p.stderr)
    if not doc:
        return
    inst = event(doc, "INST_RETIRED:ANY_P")
    check(inst["canonical"] == "icl::INST_RETIRED:ANY_P", inst["canonical"])
    if not have_hw_pmu():
        check(not inst["supported"] and inst["count"] is None, "not supported here")
        check(not event(doc, "r00c0")["supported"], "raw: not supported here")
    check(event(doc, "page-faults")["count"] >= 1000, "the rest counts")


def perf_names():
    """libpfm4's perf:: names (hidden when a PMU is forced)."""
    p, doc = stat_json("-e", "perf::PERF_COUNT_SW_PAGE_FAULTS", "--", WORKLOAD, "pages", "1000")
    check(p.returncode == 0 and doc and event(doc, "perf::PERF_COUNT_SW_PAGE_FAULTS")["count"] >= 1000,
          f"perf:: name counts: {p.stderr}")


def inactive_pmu():
    p, doc = stat_json("-e", "icl::INST_RETIRED:ANY_P", "--", "true")
    check(p.returncode == 2 and "LIBPFM_FORCE_PMU=icl" in p.stderr or p.returncode == 0,
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


def in_namespace(script):
    """SCRIPT run by sh in a mount namespace of our own."""
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or not unshare:
        skip("tracefs is mounted in a namespace of our own: that needs root and unshare(1)")
    return run([unshare, "--mount", "--propagation", "private", "sh", "-c", script])


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
    if "tracefs is not mounted" in p.stderr or p.returncode == 0:
        check(p.returncode in (0, 2), p.stderr)


def tracepoint_typo():
    p = in_namespace("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; "
                     f"exec {HW} stat -e sched:sched_swich -- true")
    check(p.returncode == 2 and ("sched:sched_switch" in p.stderr or "tracefs" in p.stderr),
          f"tracepoint typo suggests: {p.stderr}")


for fn in (libpfm_names, perf_names, inactive_pmu, unit_masks, nothing_countable, tracepoints,
           tracefs_not_mounted, tracepoint_typo):
    case(fn)
done()
