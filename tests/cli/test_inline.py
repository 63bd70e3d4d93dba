#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Inlined frames in call chains (report --inline): in tests/hotspots.c,
bump() is always inlined into hot(). With --inline, a sample in bump's
code has the frame "bump (inlined)" (perf's marking) between hot and
what it called; without it, the chains are the addresses' functions, as
perf report shows them. Which samples are in bump is checked against
binutils' addr2line -i, what perf runs for --inline, over the addresses
perf script reads from the same file."""
import collections
import json
import os
import shutil
import tempfile

from common import HAVE_LIBDW, HOTSPOTS, case, check, done, hwprof, run, skip

if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no DWARF, no inlined functions")
tmp = tempfile.mkdtemp(prefix="hwprof-inline-")
DATA = os.path.join(tmp, "fp.data")
INLINED = "bump (inlined)"

p = hwprof("record", "-g", "-e", "cpu-clock", "-F", "2000", "-o", DATA, "--",
           HOTSPOTS, "20", timeout=240)
if p.returncode != 0:
    skip(f"record failed: {p.stderr}")


def folded(*args):
    """hwprof report --format folded ARGS: {stack: samples}."""
    p = hwprof("report", "-i", DATA, "--format", "folded", *args)
    check(p.returncode == 0, p.stderr)
    out = collections.Counter()
    for ln in p.stdout.splitlines():
        stack, _, n = ln.rpartition(" ")
        out[stack] += int(n)
    return out


def test_inlined_frame_between_caller_and_callee():
    plain, inl = folded(), folded("--inline")
    check(not any("(inlined)" in s for s in plain),
          "without --inline, no inlined frame")
    at_bump = [s for s in inl if INLINED in s.split(";")]
    check(at_bump, f"--inline shows {INLINED}: {list(inl)[:5]}")
    for s in at_bump:
        f = s.split(";")
        i = f.index(INLINED)
        check(i > 0 and f[i - 1] == "hot", f"{INLINED} right after hot: {s}")
    # Without the inlined frames, the same chains with the same samples.
    stripped = collections.Counter()
    for s, n in inl.items():
        stripped[";".join(x for x in s.split(";") if not x.endswith(" (inlined)"))] += n
    check(stripped == plain, "--inline adds frames, and changes nothing else")
    check(folded("--inline", "--no-inline") == plain, "--no-inline undoes --inline")


def perf_leaves():
    """The samples' innermost frames as perf script reads them: [(addr, sym)]."""
    p = run(["perf", "script", "-i", DATA, "-F", "ip,sym", "--no-inline"],
            timeout=120)
    check(p.returncode == 0, p.stderr)
    leaves, first = [], True
    for ln in p.stdout.splitlines():
        if not ln.strip():
            first = True
            continue
        if first:
            addr, _, sym = ln.strip().partition(" ")
            leaves.append((int(addr, 16), sym.strip()))
            first = False
    return leaves


def test_as_perf_and_addr2line_say():
    if not shutil.which("perf") or not shutil.which("addr2line"):
        skip("perf or addr2line missing")
    leaves = [(a, s) for a, s in perf_leaves() if s == "hot"]
    check(leaves, "perf script: samples in hot")
    addrs = sorted({a for a, _ in leaves})
    # addr2line -i -f: the innermost function first, then where it was inlined.
    p = run(["addr2line", "-i", "-f", "-a", "-e", HOTSPOTS] + [hex(a) for a in addrs])
    check(p.returncode == 0, p.stderr)
    innermost, cur, want = {}, None, False
    for ln in p.stdout.splitlines():
        if ln.startswith("0x"):
            cur, want = int(ln, 16), True
        elif want and not ln.startswith(("/", "?")) and ":" not in ln:
            innermost[cur], want = ln, False
    in_bump = sum(1 for a, _ in leaves if innermost.get(a) == "bump")
    in_hot = len(leaves) - in_bump
    check(in_bump > 0, f"addr2line -i: samples in bump ({innermost})")
    inl = folded("--inline")
    ours_bump = sum(n for s, n in inl.items() if s.endswith(";hot;" + INLINED))
    ours_hot = sum(n for s, n in inl.items() if s.endswith(";hot"))
    check((ours_bump, ours_hot) == (in_bump, in_hot),
          f"samples in bump, in hot itself: hwprof {ours_bump}, {ours_hot}; "
          f"perf script + addr2line -i {in_bump}, {in_hot}")


def test_speedscope():
    names = {}
    for args in ((), ("--inline",)):
        out = os.path.join(tmp, "s.json")
        p = hwprof("report", "-i", DATA, "--format", "speedscope", "-o", out, *args)
        check(p.returncode == 0, p.stderr)
        with open(out) as f:
            names[args] = [fr["name"] for fr in json.load(f)["shared"]["frames"]]
    check(INLINED not in names[()], "speedscope without --inline: no inlined frame")
    check(INLINED in names[("--inline",)], "speedscope --inline: the inlined frame")


case(test_inlined_frame_between_caller_and_callee)
case(test_speedscope)
case(test_as_perf_and_addr2line_say)
shutil.rmtree(tmp, ignore_errors=True)
done()
