#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The caller that a frame-pointer chain skips (record -g): in a leaf
function without a frame (tests/leaves.c, GCC's -O2 on x86-64 even with
-fno-omit-frame-pointer), the kernel's walk goes from the sampled address
to the caller's caller. hwprof finds the caller where the leaf's CFI says
its return address is, and its callers are those that --call-graph dwarf
finds in the same program; perf still reads the file. A program without
frame pointers at all (tests/calltree.c) gets chains one frame deep, and
the report says so and what to record instead."""
import os
import re
import shutil
import tempfile

from common import HAVE_LIBDW, case, check, done, hwprof, note, report_json, run, skip

LEAVES = os.environ.get("LEAVES", "build/tests/leaves")
CALLTREE = os.environ.get("CALLTREE", "build/tests/calltree")
if os.uname().machine != "x86_64":
    skip("leaves without a frame are x86-64's here (arm64's: tests/kernel/test-record.c)")
if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols, no CFI")

tmp = tempfile.mkdtemp(prefix="hwprof-leaf-")
perf = shutil.which("perf")
# About 0.3 ms of CPU a round here: some 4,000 samples of hot_dot at 4 kHz,
# whose split between its callers two recordings then give alike within
# 1.1 points (one standard deviation of the difference).
ROUNDS = "5000"
SPLIT = ("dot_twice", "dot_once")
recorded = {}


def record_into(name, args, *cmd):
    """CMD recorded with ARGS into NAME: its path, or None after saying why."""
    out = os.path.join(tmp, name)
    p = hwprof("record", "-e", "cpu-clock", "-F", "4000", *args, "-o", out, "--", *cmd,
               timeout=240)
    return out if check(p.returncode == 0, f"record {args} {cmd}: {p.stderr}") else None


def record(mode):
    """tests/leaves.c recorded with MODE's chains ("-g" or "dwarf"), once."""
    if mode not in recorded:
        args = ["-g"] if mode == "-g" else ["--call-graph", mode]
        recorded[mode] = record_into(f"leaves-{mode}.data", args, LEAVES, ROUNDS)
    return recorded[mode]


def folded(path):
    """PATH's report as folded chains: [(frames, samples)], and whether it worked."""
    p = hwprof("report", "-i", path, "--format", "folded")
    chains = []
    for line in p.stdout.splitlines():
        frames, n = line.rsplit(" ", 1)
        chains.append((frames.split(";"), int(n)))
    return chains, check(p.returncode == 0, p.stderr)


def callers(doc, symbol):
    """SYMBOL's callers in report DOC: {caller: percent of its samples}."""
    e = next((e for e in doc["entries"] if e["symbol"] == symbol), None)
    if not check(e is not None, f"no entry for {symbol}"):
        return {}
    by = {}
    for c in e["callers"]:
        by[c["symbol"]] = by.get(c["symbol"], 0.0) + c["percent"]
    return by


def main_callers(by):
    """The callers of 1% of the samples or more: not a rare chain that
    stopped early (a DWARF one at a stack it could not unwind)."""
    return {c for c, percent in by.items() if percent >= 1}


def report(mode):
    path = record(mode)
    if not path:
        return None
    p, doc = report_json(path)
    check(doc is not None, p.stderr)
    return doc


def fp_finds_the_caller():
    doc = report("-g")
    if not doc:
        return
    dot, chase = callers(doc, "hot_dot"), callers(doc, "cold_chase")
    note(f"-g: hot_dot <- {dot}, cold_chase <- {chase}")
    split = sum(dot.get(c, 0.0) for c in SPLIT)
    check(split >= 99, f"hot_dot is called by {SPLIT} alone, not {dot}")
    check(chase.get("chase", 0.0) >= 99, f"cold_chase is called by chase, not {chase}")
    # and the chains go on from the caller to main (the flame graph's paths)
    chains, ok = folded(record("-g"))
    paths = {}
    for frames, n in chains:
        if frames[-1] in ("hot_dot", "cold_chase") and "main" in frames:
            key = ";".join(frames[frames.index("main"):])
            paths[key] = paths.get(key, 0) + int(n)
    total = sum(paths.values())
    wanted = sum(paths.get(k, 0) for k in ("main;dot_twice;hot_dot", "main;dot_once;hot_dot",
                                             "main;chase;cold_chase"))
    note(f"-g: paths from main {paths}")
    check(ok and total > 1000 and wanted * 100 >= total * 99,
          f"main -> caller -> leaf in {wanted} of {total} samples: {paths}")


def syscall_caller():
    """Samples in the kernel: the user part starts in libc's getppid(),
    frameless, and its caller ask() comes from the stack the kernel copied
    at the system call."""
    out = record_into("syscall.data", ["-g"], LEAVES, "syscall", "1000000")
    if not out:
        return
    chains, ok = folded(out)
    kernel, asked = 0, 0
    for frames, n in chains:
        if "getppid" not in frames or frames[-1] == "getppid":
            continue    # in user space, or not the call
        kernel += n
        at = frames.index("getppid")
        asked += n if frames[at - 2:at] == ["main", "ask"] else 0
    note(f"samples in the kernel under getppid: {kernel}, main;ask;getppid in {asked}")
    check(ok and kernel >= 100 and asked * 100 >= kernel * 99,
          f"main -> ask -> getppid in {asked} of {kernel} samples in the kernel")


def dwarf_agrees():
    if os.environ.get("HWPROF_LIBUNWIND", "1") != "1":
        skip("hwprof was built without libunwind")
    fp, dwarf = report("-g"), report("dwarf")
    if not fp or not dwarf:
        return
    ours, theirs = callers(fp, "hot_dot"), callers(dwarf, "hot_dot")
    note(f"hot_dot <- -g: {ours}, dwarf: {theirs}")
    # two recordings of a 2:1 split, some 4,000 samples each: 5 points
    # are 4.5 standard deviations of their difference
    for c in SPLIT:
        check(abs(ours.get(c, 0.0) - theirs.get(c, 0.0)) <= 5,
              f"{c}'s share of hot_dot: {ours.get(c, 0.0):.1f}% with -g, "
              f"{theirs.get(c, 0.0):.1f}% with dwarf")
    check(main_callers(ours) == main_callers(theirs) == set(SPLIT),
          f"hot_dot's callers: -g {ours}, dwarf {theirs}")
    ours, theirs = callers(fp, "cold_chase"), callers(dwarf, "cold_chase")
    check(main_callers(ours) == main_callers(theirs) == {"chase"},
          f"cold_chase's callers: -g {ours}, dwarf {theirs}")


def sample_type():
    """What -g records on x86-64, as perf's own evlist reads the file: 128
    bytes of the user stack, and no user registers (with both, perf would
    take the samples for DWARF's, and add what it unwinds from them to
    the chains)."""
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    path = record("-g")
    if not path:
        return
    p = run([perf, "evlist", "-v", "-i", path])
    note(p.stdout.strip())
    check(p.returncode == 0 and "REGS_USER" not in p.stdout and "STACK_USER" in p.stdout
          and re.search(r"sample_stack_user: 128\b", p.stdout),
          f"perf evlist -v: {p.stdout} {p.stderr}")


def perf_reads_it():
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    path = record("-g")
    if not path:
        return
    p = run([perf, "report", "-i", path, "--no-children", "--stdio", "--sort", "sym",
             "-g", "folded,0,callee,count"], timeout=240)
    check(p.returncode == 0 and re.search(r"%\s+\[\.\] hot_dot", p.stdout),
          f"perf report: {p.returncode} {p.stdout[:1500]} {p.stderr[-1500:]}")
    # its chains are those of its own -g: read as frame pointers', not
    # unwound from the stack's copy (which would add a frame or more)
    chains = [line.split(" ", 1)[1] for line in p.stdout.splitlines()
              if re.match(r"\d+ hot_dot;", line)]
    twice = [c for c in chains if c.split(";").count("hot_dot") != 1]
    check(chains and not twice, f"perf's chains of hot_dot: {twice[:5] or p.stdout[:1500]}")
    p = run([perf, "script", "-i", path, "-F", "ip,sym"], timeout=240)
    check(p.returncode == 0 and " hot_dot" in p.stdout and " main" in p.stdout,
          f"perf script: {p.returncode} {p.stdout[:1500]} {p.stderr[-1500:]}")


def one_frame_said():
    out = record_into("calltree-fp.data", ["-g"], CALLTREE, "tree", "300")
    if not out:
        return
    p = hwprof("report", "-i", out, "--top", "3")
    header = [line for line in p.stdout.splitlines() if line.startswith("#")]
    note("\n".join(header))
    said = [line for line in header if "stop at their first user frame" in line]
    check(p.returncode == 0 and len(said) == 1 and "--call-graph dwarf" in said[0],
          f"calltree (no frame pointers) with -g: {header}")
    share = re.search(r"([\d.]+)% of the call chains", said[0] if said else "")
    check(share and float(share.group(1)) > 90, f"calltree's chains one frame deep: {said}")
    p, doc = report_json(out)
    fp = doc["frame_pointers"] if doc else {}
    check(fp and fp["one_frame"] * 10 > fp["chains"] * 9, f"calltree's JSON: {fp}")
    # a program with frame pointers: nothing said
    p = hwprof("report", "-i", record("-g"), "--top", "3")
    check(p.returncode == 0 and "first user frame" not in p.stdout,
          f"leaves with -g: {p.stdout[:1500]}")
    p, doc = report_json(record("-g"))
    fp = doc["frame_pointers"] if doc else {}
    check(fp and fp["chains"] > 1000 and fp["one_frame"] * 100 < fp["chains"],
          f"leaves' JSON: {fp}")


case(fp_finds_the_caller, name="-g finds a leaf's caller")
case(dwarf_agrees, name="the callers of --call-graph dwarf")
case(syscall_caller, name="a caller of samples in the kernel")
case(sample_type, name="what -g records")
case(perf_reads_it, name="perf reads the file")
case(one_frame_said, name="chains one frame deep are said")
done()
