#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""record -c N: a fixed period means one sample every N events, as perf.
With a software event (page-faults) the kernel writes a sample for every
event when the attribute asks for the period field: hwprof leaves it out
(as perf does), and readers take each sample's period from the attribute.
The workload touches a known number of pages, so the counts are known;
perf, run side by side on the same workload, takes the same samples and
reads hwprof's file with the same totals. cpu-clock (the hrtimer's path)
and tracepoints (every hit, as perf) are as before."""
import os
import re
import tempfile

from common import WORKLOAD, case, check, done, hwprof, report_json, run, skip, under_valgrind

PAGES = 3000
PERIOD = 10
# Faults beyond the pages touched: the loader, libc, the stack; a few
# hundred at most, whatever the load (counts, not times).
EXTRA = 1000


def hwprof_record(path, *args):
    p = hwprof("record", *args, "-o", path, "--", WORKLOAD, "pages", str(PAGES), timeout=120)
    check(p.returncode == 0, f"hwprof record {args}: {p.returncode} {p.stderr}")
    return p


def perf_totals(perf, path):
    """perf report's (samples, event count) of @path, or None."""
    p = run([perf, "report", "-i", path, "--stdio", "--sort", "comm"], timeout=120)
    s = re.search(r"^# Samples: (\d+)\s+of event", p.stdout, re.M)
    n = re.search(r"^# Event count \(approx\.\): (\d+)", p.stdout, re.M)
    if not check(p.returncode == 0 and s and n, f"perf report -i {path}: {p.stdout}{p.stderr}"):
        return None
    return int(s.group(1)), int(n.group(1))


def software_fixed_period(d):
    """-c 10 -e page-faults: one sample per 10 faults, each of period 10."""
    path = os.path.join(d, "pf.data")
    hwprof_record(path, "-c", str(PERIOD), "-e", "page-faults")
    p, doc = report_json(path, "--top", "0")
    if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        return None
    samples, period = doc["total_samples"], doc["total_period"]
    check(period == samples * PERIOD,
          f"every sample stands for {PERIOD} faults: {samples} samples, period {period}")
    check(PAGES - PERIOD < period <= PAGES + EXTRA,
          f"the periods sum to the faults ({PAGES} pages touched): {period}")
    check(PAGES // PERIOD - 1 <= samples <= (PAGES + EXTRA) // PERIOD,
          f"about {PAGES // PERIOD} samples for {PAGES} faults: {samples}")
    return path, samples, period


def perf_side_by_side(d, perf, ours):
    """perf record -c 10 on the same workload takes as many samples, and
    perf report reads hwprof's file with hwprof's totals."""
    if not ours:
        skip("hwprof's recording failed")
    path, samples, period = ours
    theirs = os.path.join(d, "perf.data")
    p = run([perf, "record", "-q", "-c", str(PERIOD), "-e", "page-faults", "-o", theirs, "--",
             WORKLOAD, "pages", str(PAGES)], timeout=120)
    if not check(p.returncode == 0, f"perf record: {p.stderr}"):
        return
    t = perf_totals(perf, theirs)
    # The same faults within the loader's few: the same samples within 10%.
    check(t and abs(t[0] - samples) <= t[0] // 10,
          f"perf took {t} (samples, event count), hwprof {samples} samples")
    mine = perf_totals(perf, path)
    check(mine == (samples, period),
          f"perf report reads hwprof's file as {mine}, hwprof as {(samples, period)}")


def cpu_clock_fixed_period(d):
    """-c with cpu-clock (the hrtimer's path): each sample's period is the
    one asked for, as before."""
    path = os.path.join(d, "clk.data")
    p = hwprof("record", "-c", "1000000", "-e", "cpu-clock", "-o", path, "--", WORKLOAD,
               "cpuspin", "0.2", timeout=120)
    check(p.returncode == 0, f"hwprof record: {p.stderr}")
    p, doc = report_json(path, "--top", "0")
    if check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        check(doc["total_samples"] > 0 and
              doc["total_period"] == doc["total_samples"] * 1000000,
              f"{doc['total_samples']} samples of 1 ms each: {doc['total_period']}")


def tracepoint_fixed_period(d):
    """-c with a tracepoint: every hit, as perf (the field stays: a hit's
    count is its period), not one in 10."""
    path = os.path.join(d, "tp.data")
    p = hwprof("record", "-c", str(PERIOD), "-e", "sched:sched_switch", "-o", path, "--",
               WORKLOAD, "naps", "200", timeout=120)
    if p.returncode and "sched:sched_switch" in p.stderr:
        skip(f"no sched:sched_switch tracepoint here: {p.stderr.strip()}")
    check(p.returncode == 0, f"hwprof record: {p.stderr}")
    p, doc = report_json(path, "--top", "0")
    if check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        # 200 naps are 200 switches out at least, each a hit of count 1
        check(doc["total_samples"] >= 200 and doc["total_period"] == doc["total_samples"],
              f"every switch a sample of period 1: {doc['total_samples']} samples, "
              f"period {doc['total_period']}")


under_valgrind("the workload's faults under valgrind are not those perf counts")
perf = run(["which", "perf"]).stdout.strip()
with tempfile.TemporaryDirectory() as tmp:
    res = case(software_fixed_period, tmp, name="-c 10 -e page-faults: a sample per 10 faults")
    if perf:
        case(perf_side_by_side, tmp, perf, res, name="perf agrees on -c 10 -e page-faults")
    else:
        case(skip, "perf is not installed", name="perf agrees on -c 10 -e page-faults")
    case(cpu_clock_fixed_period, tmp, name="-c with cpu-clock: each sample is one period")
    case(tracepoint_fixed_period, tmp, name="-c with a tracepoint: every hit, as perf")
done()
