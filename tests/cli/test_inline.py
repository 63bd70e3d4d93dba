#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Inlined frames in call chains (report --inline): in tests/hotspots.c,
bump() is always inlined into hot(). With --inline, a sample in bump's
code has the frame "bump (inlined)" (perf's marking) between hot and
what it called; without it, the chains are the addresses' functions, as
perf report shows them. Which samples are in bump is checked against
binutils' addr2line -i, what perf runs for --inline, over the addresses
perf script reads from the same file.

tests/inlines.c nests them: leaf() in mid() in top() in deep(), and a
real call of callee() from relay_b() in relay_a() in via(). Every level
is a frame, at its line: the chains of folded (and of JSON, speedscope,
the text report's callers) are, sample by sample, those of the addresses
perf script reads, each expanded as addr2line -i -f expands it; pprof's
locations have addr2line's functions and lines, level by level. With
frame-pointer chains, and with DWARF chains where libunwind is there.

perf 6.1 here (Debian's, without libbfd) shows no inlined frame with
--inline: where a perf does, its inlined functions are to be ours."""
import collections
import json
import os
import re
import shutil
import tempfile

from common import (HAVE_LIBDW, HOTSPOTS, case, check, done, hwprof, marked_lines, note,
                    run, skip)
from profileproto import read_pprof

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


# ---- tests/inlines.c: chains of inlined functions ----

INLINES = os.environ.get("INLINES", "build/tests/inlines")
INLINES_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inlines.c")
HAVE_LIBUNWIND = os.environ.get("HWPROF_LIBUNWIND", "1") == "1"


def record_inlines(mode):
    """hwprof record of tests/inlines.c with MODE's call chains: the file."""
    data = os.path.join(tmp, f"inlines-{mode}.data")
    graph = ["-g"] if mode == "fp" else ["--call-graph", "dwarf"]
    p = hwprof("record", *graph, "-e", "cpu-clock", "-F", "2000", "-o", data, "--",
               INLINES, "60", timeout=240)
    if not check(p.returncode == 0, f"record {mode}: {p.stderr}"):
        return None
    return data


def function_ranges(path):
    """[start, end) of each function symbol of @path, as nm -S says; one
    without a size (crtstuff's __do_global_dtors_aux) runs to the next
    symbol, as perf and hwprof take it."""
    p = run(["nm", "-S", "--defined-only", "-n", path])
    check(p.returncode == 0, p.stderr)
    syms = []
    for ln in p.stdout.splitlines():
        f = ln.split()
        if len(f) in (3, 4) and f[-2] in "TtWw":
            syms.append((int(f[0], 16), int(f[1], 16) if len(f) == 4 else None))
    out = []
    for i, (start, size) in enumerate(syms):
        if size is not None:
            out.append((start, start + size))
        elif i + 1 < len(syms):
            out.append((start, syms[i + 1][0]))
    return out


def addr2line(addrs):
    """addr2line -i -f of tests/inlines.c's addresses: {addr: [(function,
    line)]}, the innermost first, as binutils reads DWARF."""
    p = run(["addr2line", "-i", "-f", "-a", "-e", INLINES] + [hex(a) for a in addrs])
    check(p.returncode == 0, p.stderr)
    out, cur, fn = {}, None, None
    for ln in p.stdout.splitlines():
        if re.fullmatch(r"0x[0-9a-f]+", ln):
            cur, fn = int(ln, 16), None
            out[cur] = []
        elif fn is None:
            fn = ln
        else:
            m = re.search(r":(\d+|\?)", ln.rsplit("/", 1)[-1])
            out[cur].append((fn, int(m.group(1)) if m and m.group(1) != "?" else 0))
            fn = None
    return out


def perf_chains(data):
    """The samples taken in tests/inlines.c, as perf script reads them:
    [[address, ...]], the sampled one first, then the callers' return
    addresses, up to main (its caller is libc's)."""
    p = run(["perf", "script", "-i", data, "-F", "ip,dso", "--no-inline"], timeout=180)
    check(p.returncode == 0, p.stderr)
    program = f"({os.path.realpath(INLINES)})"
    chains, frames = [], []
    for ln in p.stdout.splitlines() + [""]:
        if ln.strip():
            addr, _, dso = ln.strip().partition(" ")
            frames.append((int(addr, 16), dso.strip() == program))
            continue
        if frames and frames[0][1]:
            n = next((i for i, (_, ours) in enumerate(frames) if not ours), len(frames))
            chains.append([a for a, _ in frames[:n]])
        frames = []
    return chains


def expanded(levels):
    """An address's frames, the outermost first, as --inline names them."""
    names = [fn + " (inlined)" for fn, _ in levels[:-1]] + [levels[-1][0]]
    return names[::-1]


def expected_folded(chains, a2l):
    """{stack: samples} of the chains, each address expanded by addr2line
    (callers at their return address - 1, inside the call)."""
    out = collections.Counter()
    for c in chains:
        names = []
        for i, a in enumerate(c):
            names = expanded(a2l[a if i == 0 else a - 1]) + names
        out[";".join(names)] += 1
    return out


def program_folded(data, *args):
    """folded --inline of the samples taken in the program, from main in."""
    p = hwprof("report", "-i", data, "--format", "folded", "--inline", "--dsos",
               os.path.basename(INLINES), *args)
    check(p.returncode == 0, p.stderr)
    out = collections.Counter()
    for ln in p.stdout.splitlines():
        stack, _, n = ln.rpartition(" ")
        frames = stack.split(";")
        out[";".join(frames[frames.index("main"):] if "main" in frames else frames)] += int(n)
    return out


def check_chains(mode, data):
    chains = perf_chains(data)
    check(len(chains) > 100, f"{mode}: perf script reads {len(chains)} samples in the program")
    addrs = {a for c in chains for a in c[:1]} | {a - 1 for c in chains for a in c[1:]}
    a2l = addr2line(sorted(addrs))
    want = expected_folded(chains, a2l)
    got = program_folded(data)
    deep = ";".join(["main", "deep", "top (inlined)", "mid (inlined)", "leaf (inlined)"])
    via = ";".join(["main", "via", "relay_a (inlined)", "relay_b (inlined)", "callee"])
    check(want[deep] > 0 and want[via] > 0,
          f"{mode}: addr2line -i nests leaf, mid, top and the relays: {dict(want)}")
    check(got == want, f"{mode}: hwprof's chains {dict(got)}, "
                       f"perf script + addr2line -i {dict(want)}")
    return a2l


def check_pprof_lines(mode, data, a2l):
    """Each location of the program: its lines are addr2line's frames."""
    out = os.path.join(tmp, f"inlines-{mode}.pb.gz")
    p = hwprof("report", "-i", data, "--format", "pprof", "-o", out)
    if not check(p.returncode == 0, p.stderr):
        return
    prof = read_pprof(out)
    if prof is None:
        return
    strs = prof["string_table"]
    names = {f["id"]: strs[f.get("name", 0)] for f in prof["function"]}
    maps = {m["id"] for m in prof["mapping"]
            if strs[m.get("filename", 0)] == os.path.realpath(INLINES)}
    locs = {loc["address"]: [(names[ln["function_id"]], (ln["line"] or [0])[0])
                             for ln in loc["line"]]
            for loc in prof["location"] if loc.get("mapping_id") in maps}
    theirs = addr2line(sorted(locs))
    # addr2line names an address past a function's end (the padding before
    # the next, where a frame-pointer walk's stray return address lands) by
    # the function before it; hwprof, by the symbols' sizes, as module+offset
    funcs = function_ranges(INLINES)
    for a in locs:
        if not any(lo <= a < hi for lo, hi in funcs):
            theirs[a] = [(f"{os.path.basename(INLINES)}+{hex(a)}", 0)]
    bad = {hex(a): (locs[a], theirs.get(a)) for a in locs if locs[a] != theirs.get(a)}
    check(locs and not bad, f"{mode}: {len(bad)} of {len(locs)} locations differ from "
                            f"addr2line -i: {dict(list(bad.items())[:4])}")
    (leaf,) = marked_lines(INLINES_SRC, "LINE:leaf")
    (call_leaf,) = marked_lines(INLINES_SRC, "CALL:leaf")
    (call_mid,) = marked_lines(INLINES_SRC, "CALL:mid")
    (call_top,) = marked_lines(INLINES_SRC, "CALL:top")
    nested = [("leaf", leaf), ("mid", call_leaf), ("top", call_mid), ("deep", call_top)]
    check(nested in locs.values(), f"{mode}: a location in leaf, mid, top, deep at "
                                   f"{nested}: {list(locs.values())[:6]}")
    relays = [("relay_b", max(marked_lines(INLINES_SRC, "CALL:callee"))),
              ("relay_a", max(marked_lines(INLINES_SRC, "CALL:relay_b"))),
              ("via", max(marked_lines(INLINES_SRC, "CALL:relay_a")))]
    check(relays in locs.values(), f"{mode}: the call of callee in relay_b, relay_a, via "
                                   f"at {relays}: {list(locs.values())[:6]}")
    # a function's inlined frames and its own are written once a site
    check(any(len(v) == 4 for v in locs.values()), "locations of four lines")


def check_other_formats(mode, data):
    """The callers of the text report, JSON's and speedscope's chains."""
    folded = collections.Counter()
    p = hwprof("report", "-i", data, "--format", "folded", "--inline")
    for ln in p.stdout.splitlines():
        stack, _, n = ln.rpartition(" ")
        folded[stack] += int(n)
    p = hwprof("report", "-i", data, "--format", "json", "--inline")
    doc = json.loads(p.stdout) if p.returncode == 0 else {}
    check(p.returncode == 0, p.stderr)
    stacks = collections.Counter()
    for st in doc.get("stacks", []):	# those of DWARF profiles
        stacks[";".join(st["frames"])] += st["samples"]
    check(mode != "dwarf" or stacks == folded, f"{mode}: JSON's stacks are folded's")
    callee = next((e for e in doc.get("entries", []) if e["symbol"] == "callee"), None)
    check(callee and callee["callers"] and
          callee["callers"][0]["symbol"] == "relay_b (inlined)",
          f"{mode}: callee's caller is relay_b (inlined): {callee}")
    out = os.path.join(tmp, f"inlines-{mode}.speedscope.json")
    p = hwprof("report", "-i", data, "--format", "speedscope", "-o", out, "--inline")
    check(p.returncode == 0, p.stderr)
    with open(out) as f:
        sp = json.load(f)
    frames = [fr["name"] for fr in sp["shared"]["frames"]]
    chains = {";".join(frames[i] for i in s) for s in sp["profiles"][0]["samples"]}
    check(chains == set(folded), f"{mode}: speedscope's chains are folded's: "
                                 f"{sorted(chains - set(folded))[:3]}, "
                                 f"{sorted(set(folded) - chains)[:3]}")


def test_nested_inlines(mode):
    if not shutil.which("perf") or not shutil.which("addr2line"):
        skip("perf or addr2line missing")
    if mode == "dwarf" and not HAVE_LIBUNWIND:
        skip("hwprof was built without libunwind: no DWARF chains")
    data = record_inlines(mode)
    if data is None:
        return
    a2l = check_chains(mode, data)
    check_pprof_lines(mode, data, a2l)
    check_other_formats(mode, data)


def test_as_perf_report_inline():
    """perf report --inline's inlined frames, where this perf shows any."""
    data = os.path.join(tmp, "inlines-fp.data")
    if not shutil.which("perf") or not os.path.exists(data):
        skip("perf missing, or no recording")
    p = run(["perf", "report", "-i", data, "--inline", "--no-children", "--stdio",
             "--dsos", os.path.realpath(INLINES)], timeout=180)
    check(p.returncode == 0, p.stderr)
    theirs = set(re.findall(r"(\w+) \(inlined\)", p.stdout))
    if not theirs:
        skip("this perf report --inline shows no inlined frame (Debian's perf 6.1, "
             "built without libbfd)")
    ours = {f[:-len(" (inlined)")] for s in program_folded(data) for f in s.split(";")
            if f.endswith(" (inlined)")}
    note(f"perf report --inline: {sorted(theirs)}")
    check(theirs == ours, f"inlined functions: perf {sorted(theirs)}, hwprof {sorted(ours)}")


case(test_inlined_frame_between_caller_and_callee)
case(test_speedscope)
case(test_as_perf_and_addr2line_say)
case(test_nested_inlines, "fp", name="nested inlines, frame pointers")
case(test_nested_inlines, "dwarf", name="nested inlines, dwarf")
case(test_as_perf_report_inline)
shutil.rmtree(tmp, ignore_errors=True)
done()
