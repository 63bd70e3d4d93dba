#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report --comm, --pid, --tid and --dso, as perf report's --comms, --pids,
--tids and --dsos: comma-separated lists, a sample kept when it matches
every list given, percentages of all the event's samples (perf's default,
--percentage absolute). First a file made by hand, where every count is
known (a thread that renames itself, kernel samples, two modules); then a
recording of two programs, against perf report."""
import os
import re
import shutil
import tempfile

from common import case, check, done, hwprof, perf_sampler, report_json, run
from perfdata import PerfData

ALPHA, BETA = 100, 200
KERNEL_IP = 0xffffffff81000100


def made_by_hand(d):
    """alpha (pid 100): 10 samples in /x/alpha-bin, 2 in the kernel; beta
    (pid 200): 5 in /x/libshared.so, then it renames itself gamma: 3 more."""
    pd = PerfData()
    pd.comm(ALPHA, b"alpha")
    pd.comm(BETA, b"beta")
    pd.mmap(ALPHA, 0x400000, 0x10000, 0, b"/x/alpha-bin")
    pd.mmap(BETA, 0x500000, 0x10000, 0, b"/x/libshared.so")
    for i in range(10):
        pd.sample(ALPHA, 0x400100 + i)
    for _ in range(2):
        pd.sample(ALPHA, KERNEL_IP, kernel=True)
    for _ in range(5):
        pd.sample(BETA, 0x500100)
    pd.comm(BETA, b"gamma")
    for _ in range(3):
        pd.sample(BETA, 0x500200)
    path = os.path.join(d, "hand.data")
    pd.write(path)
    return path


def modules(doc):
    """module -> samples, summed over the rows."""
    out = {}
    for e in doc["entries"]:
        out[e["dso"]] = out.get(e["dso"], 0) + e["samples"]
    return out


def kept(data):
    cases = [
        (["--comm", "alpha"], {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--comm", "beta"], {"/x/libshared.so": 5}),
        (["--comm", "gamma"], {"/x/libshared.so": 3}),
        (["--comms", "beta,gamma"], {"/x/libshared.so": 8}),
        (["--pid", "200"], {"/x/libshared.so": 8}),
        (["--tid", "100,999"], {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--dso", "libshared.so"], {"/x/libshared.so": 8}),
        (["--dsos", "/x/alpha-bin,[kernel.kallsyms]"],
         {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--comm", "alpha", "--dso", "[kernel.kallsyms]"], {"[kernel.kallsyms]": 2}),
        (["--comm", "alpha", "--pid", "200"], {}),
        (["--comm", "nobody"], {}),
    ]
    for args, want in cases:
        p, doc = report_json(data, "--top", "0", *args)
        if not check(p.returncode == 0 and doc, f"{args}: {p.stderr}"):
            continue
        got = modules(doc)
        check(got == want, f"{args}: {got}, want {want}")
        check(doc["total_samples"] == 20 and doc["filtered_samples"] == 20 - sum(want.values()),
              f"{args}: totals {doc['total_samples']} {doc['filtered_samples']}")
        # percentages of all 20 samples, as perf's default
        check(all(abs(e["percent"] - 100 * e["samples"] / 20) < 1e-9 for e in doc["entries"]),
              f"{args}: percent of all: {doc['entries'][:2]}")


def every_format(data, d):
    p = hwprof("report", "-i", data, "--comm", "gamma", "--format", "folded")
    check(p.returncode == 0 and p.stdout == "libshared.so+0x200 3\n", f"folded: {p.stdout!r}")
    p = hwprof("report", "-i", data, "--pid", "100")
    check(p.returncode == 0 and "# 8 of them left out by --comm, --pid, --tid or --dso" in p.stdout,
          f"text says what was left out: {p.stdout[:400]}")
    out = os.path.join(d, "f.html")
    p = hwprof("report", "-i", data, "--comm", "alpha", "--format", "html", "-o", out)
    with open(out) as f:
        page = f.read() if p.returncode == 0 else ""
    check("alpha-bin" in page and "libshared" not in page, f"html: {p.stderr}")


def bad_lists(data):
    for args in (["--pid", "abc"], ["--tid", "1,,2"], ["--pid", "12x"]):
        p = hwprof("report", "-i", data, *args)
        check(p.returncode == 1 and f"'{args[1]}' is not a list of" in p.stderr and not p.stdout,
              f"{args}: {p.returncode} {p.stderr}")


def against_perf(d):
    """Two programs under sh: each one's share, as perf report gives it."""
    perf = perf_sampler()
    spin = os.path.join(d, "spin")
    cc = shutil.which("gcc") or shutil.which("cc")
    src = os.path.join(d, "spin.c")
    with open(src, "w") as f:
        f.write("#include <stdlib.h>\nint main(int c, char **v) { volatile unsigned long x = 0;"
                " unsigned long n = strtoul(v[1], 0, 10);"
                " for (unsigned long i = 0; i < n; i++) x += i; return 0; }\n")
    p = run([cc, "-O1", "-o", spin, src])
    if not check(p.returncode == 0, f"build: {p.stderr}"):
        return
    shutil.copy(spin, spin + "A")
    shutil.copy(spin, spin + "B")
    data = os.path.join(d, "two.data")
    p = run([perf, "record", "-q", "-e", "cpu-clock", "-o", data, "--", "sh", "-c",
             f"{spin}A 200000000; {spin}B 100000000"], timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    for args in (["--comm", "spinB"], ["--dso", "spinA,spinB"], ["--comm", "spinA,sh"]):
        p, doc = report_json(data, "--top", "0", *args)
        # perf filters its rows (hist entries) by their first sample's
        # thread: sorted by comm too, as by default, that is each sample's
        # (it leaves out the Command column when one name is asked for)
        q = run([perf, "report", "-i", data, "--stdio", "--no-children", "-n", "--sort",
                 "comm,dso,sym", args[0] + "s", args[1]])
        theirs = {}
        for m in re.finditer(r"^\s+[\d.]+%\s+(\d+)\s+(?:\S+\s+)?(\S+)\s+\[[.k]\] ",
                             q.stdout, re.M):
            theirs[m.group(2)] = theirs.get(m.group(2), 0) + int(m.group(1))
        # by module: of two names of one address (index, strchr), perf and
        # hwprof may pick others
        ours = {}
        for e in doc["entries"] if doc else []:
            dso = e["dso"].rsplit("/", 1)[-1]
            ours[dso] = ours.get(dso, 0) + e["samples"]
        check(ours and ours == theirs, f"{args}: {ours} {theirs}")
        check(doc and doc["total_samples"] - doc["filtered_samples"] == sum(theirs.values()),
              f"{args}: samples kept")


with tempfile.TemporaryDirectory() as tmp:
    HAND = made_by_hand(tmp)
    case(kept, HAND, name="by hand: what each filter keeps")
    case(every_format, HAND, tmp, name="by hand: filtered in every format")
    case(bad_lists, HAND, name="by hand: lists that are not ids")
    case(against_perf, tmp, name="a recording of two programs, against perf report")
done()
