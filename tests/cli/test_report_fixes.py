#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The small things of the report (issue 11 point 12): the lost samples'
share is of the samples the losses are of (all events'), a kernel row of
--sort line has its symbol in the Symbol column, the vDSO is not said to
lack a -dbg package, and annotate's lines without samples align with the
others."""
import os
import re
import tempfile

import perfdata
import perfedit
from common import (HOTSPOTS, WORKLOAD, case, check, done, hwprof, report_json, skip)


def lost_share(d):
    """A recording of two events with 1000 samples lost: the share is of
    both events' samples, in text and JSON, not of one event's."""
    two = os.path.join(d, "two.data")
    p = hwprof("record", "-e", "cpu-clock,task-clock", "-o", two, "--", WORKLOAD, "cpuspin",
               "0.2", timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    lost = os.path.join(d, "lost.data")
    perfedit.add_lost(two, lost, 1000)
    p, doc = report_json(lost)
    if not check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        return
    every = doc["total_samples"] + doc["other_samples"]
    want = 100.0 * 1000 / (every + 1000)
    check(doc["lost_samples"] == 1000 and doc["other_samples"] > 0 and
          abs(doc["lost_percent"] - want) < 1e-9,
          f"JSON: {doc['lost_percent']} of {every} samples, want {want}")
    p = hwprof("report", "-i", lost)
    check(p.returncode == 0 and
          f"# lost 1,000 samples ({want:.2f}% of all events' samples" in p.stdout,
          f"text, {want:.2f}%: {p.stdout[:400]}")


def kernel_line_rows(d):
    """--sort line: a kernel row (no source line) shows its symbol in the
    Symbol column, and '?' as its source."""
    base = 0xffffffff81000000
    ksyms = os.path.join(d, "kallsyms")
    with open(ksyms, "w") as f:
        f.write(f"{base:x} T _text\n{base + 0x100:x} T kernel_fn\n{base + 0x1000:x} T _etext\n")
    pd = perfdata.PerfData()
    pd.kernel_mmap(base, 0x1000000, b"[kernel.kallsyms]_text")
    pd.sample(1, base + 0x110, kernel=True)
    path = os.path.join(d, "kline.data")
    pd.write(path)
    p = hwprof("report", "-i", path, "--sort", "line", "--kallsyms", ksyms)
    rows = [line.split() for line in p.stdout.splitlines() if not line.startswith("#")]
    check(p.returncode == 0 and rows == [["100.00%", "1", "?", "kernel_fn", "[kernel.kallsyms]"]],
          f"Source ?, Symbol kernel_fn: {p.stdout}")


def vdso_debuginfo(d):
    """The vDSO lacks debug information, but no package installs it: the
    report does not tell to install one."""
    pd = perfdata.PerfData()
    pd.comm(7, b"clock")
    pd.mmap(7, 0x7fff00000000, 0x2000, 0, b"[vdso]")
    pd.sample(7, 0x7fff00000100)
    path = os.path.join(d, "vdso.data")
    pd.write(path)
    p = hwprof("report", "-i", path, "--sort", "line")
    why = [line for line in p.stdout.splitlines() if line.startswith("#   [vdso]")]
    check(p.returncode == 0 and why, f"the vDSO listed without debug information: {p.stdout}")
    check(why and "-dbg" not in why[0] and "vDSO" in why[0], f"no -dbg package: {why}")


def annotate_aligned(d):
    """Annotate's columns: a line without samples, a source line and the
    header have their ':' where a sampled line has it."""
    data = os.path.join(d, "hot.data")
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", HOTSPOTS, "60", timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    p = hwprof("report", "-i", data, "--annotate", "hot")
    lines = [line for line in p.stdout.splitlines()[1:] if " : " in line or ": " in line]
    sampled = [line for line in lines if re.match(r"\s+[\d.]+%", line)]
    quiet = [line for line in lines if line.startswith("   ") and line not in sampled]
    if not check(p.returncode == 0 and sampled and quiet, f"annotate: {p.stdout[:800]}"):
        return
    col = sampled[0].index(":")
    bad = [line for line in lines if line.index(":") != col]
    check(not bad, f"':' at column {col} in every line: {bad[:4]}")


with tempfile.TemporaryDirectory() as tmp:
    case(lost_share, tmp)
    case(kernel_line_rows, tmp)
    case(vdso_debuginfo, tmp)
    case(annotate_aligned, tmp)
done()
