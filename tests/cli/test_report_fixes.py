#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The small things of the report (issue 11 point 12): the lost samples'
share is of the samples the losses are of (all events'), a kernel row of
--sort line has its symbol in the Symbol column, the vDSO is not said to
lack a -dbg package, and annotate's lines without samples align with the
others. An address no symbol covers is named module+0xOFFSET, OFFSET its
offset in the module's file, the number perf report shows as [.] 0xOFFSET,
whether or not the file can still be read."""
import os
import re
import shutil
import tempfile

import perfdata
import perfedit
from common import (HOTSPOTS, WORKLOAD, case, check, done, hwprof, report_json, run, skip)


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


SPIN = """volatile unsigned long sink;
__attribute__((noinline)) static void hot(void)
{
	for (unsigned long i = 0; i < 100000000UL; i++)
		sink += i;
}
int main(void) { hot(); return 0; }
"""


def text_delta(exe):
    """p_vaddr - p_offset of EXE's executable LOAD segment (readelf -lW)."""
    p = run(["readelf", "-lW", exe])
    for line in p.stdout.splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            return int(f[2], 16) - int(f[1], 16)
    return None


def perf_offsets(data):
    """perf report --sort dso,sym's unresolved rows: {offset: percent}."""
    p = run(["perf", "report", "-i", data, "--sort", "dso,sym", "--stdio"])
    rows = re.findall(r"^\s+([\d.]+)%\s+\S+\s+\[\.\] 0x([0-9a-f]+)\s*$", p.stdout, re.M)
    return {int(o, 16): float(pct) for pct, o in rows}


def unresolved_offset(d):
    """A stripped program linked at 0x400000 (no PIE: its addresses are not
    its file's offsets): --sort rip and sym name each address spin+0xOFFSET,
    OFFSET the file's, as perf report's [.] 0xOFFSET; rip's Address is
    objdump's, OFFSET + the text segment's p_vaddr - p_offset. The file
    renamed away, the names stay."""
    for tool in ("cc", "strip", "readelf", "perf"):
        if not shutil.which(tool):
            skip(f"{tool} is not installed")
    src, exe, data = (os.path.join(d, n) for n in ("spin.c", "spin", "spin.data"))
    with open(src, "w") as f:
        f.write(SPIN)
    p = run(["cc", "-O1", "-no-pie", "-o", exe, src])
    if p.returncode:
        skip(f"cc -no-pie: {p.stderr[-300:]}")
    check(run(["strip", "-s", exe]).returncode == 0, "strip")
    delta = text_delta(exe)
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", exe, timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    perf = perf_offsets(data)
    for readable in (True, False):
        if not readable:
            os.rename(exe, exe + ".away")
        p, doc = report_json(data, "--sort", "rip", "--top", "0")
        if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
            return
        mine = [e for e in doc["entries"] if e["dso"] == exe]
        named = {}
        for e in mine:
            m = re.fullmatch(r"spin\+0x([0-9a-f]+)", e["name"])
            check(e["symbol"] is None and m, f"unresolved: {e}")
            if not m:
                continue
            off = int(m.group(1), 16)
            named[off] = e["percent"]
            if readable:
                check(int(e.get("address", "0x0"), 16) == off + delta,
                      f"objdump's address: {e}, offset {off:#x} + {delta:#x}")
            else:
                check("address" not in e, f"no objdump address without the file: {e}")
        check(delta and mine and set(named) <= set(perf) and
              all(abs(named[o] - perf[o]) < 0.01 for o in named),
              f"readable {readable}: {named} as perf's {perf}")
        p = hwprof("report", "-i", data, "--sort", "rip")
        rows = re.findall(r"^\s+[\d.]+%\s+\d+\s+(\S+)\s+spin\+0x([0-9a-f]+)\s", p.stdout, re.M)
        check(rows and all(a == (f"{o + delta:x}" if readable else "?") for a, o in
                           ((a, int(o, 16)) for a, o in rows)),
              f"text, the Address column: {rows}: {p.stdout[:600]}")
        p, doc = report_json(data, "--top", "0")
        sym = {e["name"] for e in doc["entries"] if e["dso"] == exe} if doc else set()
        check(sym == {f"spin+0x{o:x}" for o in named},
              f"--sort sym: {sorted(sym)}, rip: {sorted(named)}")


with tempfile.TemporaryDirectory() as tmp:
    case(lost_share, tmp)
    case(kernel_line_rows, tmp)
    case(vdso_debuginfo, tmp)
    case(annotate_aligned, tmp)
    case(unresolved_offset, tmp)
done()
