#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two static functions of one name, work() in namesakes.c and in
namesakes-other.c: --sort sym keeps them apart, by module and address,
their callers are counted apart, and --annotate work shows the hotter
and names the other, which work@ADDRESS shows.
First on a file made by hand whose samples point into
the namesakes program, so every count is known; then on a recording of it,
where namesakes.c's work() has 75% of their time."""
import os
import re
import tempfile

from common import HAVE_LIBDW, case, check, done, hwprof, report_json, skip
from perfdata import PerfData, file_offset, functions, loads

NAMESAKES = os.path.realpath(os.environ.get("NAMESAKES", "build/tests/namesakes"))
PID = 4321
BASE = 0x555555554000	# where the file says the program is mapped
ANON = 0x7f0000000000	# and some anonymous memory


def by_address(doc, addr):
    return [e for e in doc["entries"] if e["address"] == f"{addr:#x}"]


def made_by_hand(d, fn):
    """Samples at known places: WORK_MAIN 8, WORK_OTHER 20 (the hotter, and
    the second in the symbol table), OTHER 45 called from both work()s and
    main, MAIN 2050 called from 2001 places of anonymous memory."""
    work_main, work_other = fn[("work", "namesakes.c")][0], fn[("work", "namesakes-other.c")][0]
    other, main = fn[("other", "namesakes-other.c")][0], fn[("main", "namesakes.c")][0]
    segs = loads(NAMESAKES)
    ip = lambda vaddr: BASE + file_offset(segs, vaddr)	# noqa: E731
    pd = PerfData(callchains=True)
    pd.mmap(PID, BASE, os.path.getsize(NAMESAKES) + 0x1000, 0, NAMESAKES.encode())
    pd.mmap(PID, ANON, 0x100000, 0, b"//anon")
    for _ in range(8):
        pd.sample(PID, ip(work_main + 4), [ip(main + 9)])
    for _ in range(20):
        pd.sample(PID, ip(work_other + 4), [ip(other + 9)])
    # Return addresses: the caller is looked up at the address before.
    for caller, n in ((work_main, 30), (work_other, 10), (main, 5)):
        for _ in range(n):
            pd.sample(PID, ip(other + 1), [ip(caller + 5)])
    for i in range(2000):
        pd.sample(PID, ip(main + 1), [ANON + 0x1000 + 16 * i])
    for _ in range(50):
        pd.sample(PID, ip(main + 1), [ANON + 0x11])
    path = os.path.join(d, "hand.data")
    pd.write(path)
    return path, work_main, work_other


def rows(data, work_main, work_other):
    p, doc = report_json(data, "--top", "0")
    if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        return
    works = sorted((e["samples"], e["address"]) for e in doc["entries"] if e["symbol"] == "work")
    check(works == [(8, f"{work_main:#x}"), (20, f"{work_other:#x}")],
          f"two rows named work, at their own addresses: {works}")
    p = hwprof("report", "-i", data, "--top", "0")
    text = [line.split() for line in p.stdout.splitlines() if not line.startswith("#")]
    check(sum(1 for f in text if len(f) == 4 and f[2] == "work") == 2,
          f"two rows named work in the text: {p.stdout[:600]}")


def caller_counts(data, fn):
    p, doc = report_json(data, "--top", "0")
    if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        return
    other = by_address(doc, fn[("other", "namesakes-other.c")][0])
    callers = other and [(c["symbol"], c["samples"]) for c in other[0]["callers"]]
    check(callers == [("work", 30), ("work", 10), ("main", 5)],
          f"other's callers, the two work()s apart: {callers}")
    check(other and abs(other[0]["callers"][0]["percent"] - 100 * 30 / 45) < 1e-9,
          f"the percent of other's first caller: {other and other[0]['callers'][:1]}")
    main = by_address(doc, fn[("main", "namesakes.c")][0])
    callers = main and main[0]["callers"]
    check(callers and len(callers) == 16 and main[0]["samples"] == 2050,
          f"main has 2001 callers, the 16 most frequent shown: {callers and len(callers)}")
    # anonymous code is the process's JIT map's, at the process's addresses, as in perf
    jit = f"perf-{PID}.map+"
    check(callers and callers[0]["symbol"] == f"{jit}{ANON + 0x10:#x}" and
          callers[0]["samples"] == 50 and all(c["samples"] == 1 for c in callers[1:]) and
          callers[1]["symbol"] == f"{jit}{ANON + 0xfff:#x}" and
          callers[0]["dso"] == f"/tmp/perf-{PID}.map",
          f"main's callers: {callers and callers[:3]}")


def annotate(data, hotter, colder, hot_samples, cold_samples):
    """--annotate work shows HOTTER and names COLDER; work@COLDER shows that."""
    p = hwprof("report", "-i", data, "--annotate", "work")
    lines = p.stdout.splitlines()
    addrs = [int(m, 16) for m in re.findall(r"^[^#]*?: +([0-9a-f]+):  ", p.stdout, re.M)]
    size = hotter[1]
    check(p.returncode == 0 and addrs and addrs[0] == hotter[0] and
          all(hotter[0] <= a < hotter[0] + size for a in addrs),
          f"annotate work shows the hotter, at {hotter[0]:#x}: {p.stdout[:500]} {p.stderr}")
    want = (f"# 2 sampled functions have this name; this one is at {hotter[0]:#x} in "
            f"{NAMESAKES}, with {hot_samples} samples (the most)")
    check(want in lines, f"the note says which one and why: {lines[:4]}")
    check(f"# the other: work@{colder[0]:#x} ({cold_samples} samples, {NAMESAKES})" in lines,
          f"the note names the other: {lines[:4]}")
    p = hwprof("report", "-i", data, "--annotate", f"work@{colder[0]:#x}")
    addrs = [int(m, 16) for m in re.findall(r"^[^#]*?: +([0-9a-f]+):  ", p.stdout, re.M)]
    check(p.returncode == 0 and addrs and addrs[0] == colder[0] and
          all(colder[0] <= a < colder[0] + colder[1] for a in addrs),
          f"work@{colder[0]:#x} shows that one: {p.stdout[:500]} {p.stderr}")
    p = hwprof("report", "-i", data, "--annotate", f"work@{colder[0] + 1:#x}")
    check(p.returncode == 1 and f"no sampled function named 'work' starts at {colder[0] + 1:#x}"
          in p.stderr and f"work@{colder[0]:#x}" in p.stderr, f"a wrong address: {p.stderr}")


def recorded(d, fn):
    data = os.path.join(d, "rec.data")
    p = hwprof("record", "-o", data, "--", NAMESAKES, "200", timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    p, doc = report_json(data, "--top", "0")
    works = {e["address"]: e["samples"] for e in doc["entries"] if e["symbol"] == "work"}
    main_work, other_work = fn[("work", "namesakes.c")], fn[("work", "namesakes-other.c")]
    a, b = works.get(f"{main_work[0]:#x}", 0), works.get(f"{other_work[0]:#x}", 0)
    check(len(works) == 2 and a + b > 500 and abs(a / (a + b) - 0.75) <= 0.06,
          f"namesakes.c's work() has 75% of both: {works}")
    if len(works) == 2:
        annotate(data, main_work, other_work, a, b)


def symbols_read():
    funcs = functions(NAMESAKES)
    if check(len(funcs) >= 4, f"nm reads the namesakes program's functions: {funcs}"):
        return funcs
    return None


if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols to tell apart")
FUNCS = case(symbols_read, name="nm reads the program's functions")
with tempfile.TemporaryDirectory() as tmp:
    if FUNCS:
        HAND, WM, WO = made_by_hand(tmp, FUNCS)
        case(rows, HAND, WM, WO, name="by hand: two rows named work")
        case(caller_counts, HAND, FUNCS, name="by hand: callers counted apart")
        case(annotate, HAND, FUNCS[("work", "namesakes-other.c")], FUNCS[("work", "namesakes.c")],
             20, 8, name="by hand: --annotate work")
    if FUNCS:
        case(recorded, tmp, FUNCS, name="a recording of the program")
done()
