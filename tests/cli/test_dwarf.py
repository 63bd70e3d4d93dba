#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""DWARF call chains (record --call-graph dwarf): a program built without
frame pointers (tests/calltree.c) gets its callers, in the split its
source gives; perf and hwprof read each other's files alike; and a chain
that stops early is counted, said and marked, never shown as whole."""
import os
import re
import shutil
import tempfile

from common import case, check, done, hwprof, note, report_json, run, skip

CALLTREE = os.environ.get("CALLTREE", "build/tests/calltree")
if os.environ.get("HWPROF_LIBUNWIND", "1") != "1":
    skip("hwprof was built without libunwind")
if os.uname().machine not in ("x86_64", "aarch64"):
    skip("DWARF chains are unwound on x86-64 and arm64 only")

tmp = tempfile.mkdtemp(prefix="hwprof-dwarf-")
perf = shutil.which("perf")
# ~1 ms a round here: a few thousand samples at 4 kHz, enough that the
# sampled split is within a point of the source's (2/3, 1/3) but for noise
# of some 0.6 points.
ROUNDS = "1500"


def record(name, *args, work=("tree", ROUNDS)):
    out = os.path.join(tmp, name)
    p = hwprof("record", "-e", "cpu-clock", "-F", "4000", *args, "-o", out, "--",
               CALLTREE, *work, timeout=240)
    check(p.returncode == 0, f"record {args}: {p.stderr}")
    return out


def unwind_rate(doc):
    u = doc["unwind"]
    total = u["to_entry"] + u["stack_short"] + u["no_unwind_info"] + u["failed"]
    return 100.0 * u["to_entry"] / total if total else 0.0


def caller_shares(doc):
    """leaf's callers, in percent of its samples: (b, c)."""
    leaf = next((e for e in doc["entries"] if e["symbol"] == "leaf"), None)
    if not check(leaf is not None, "no entry for leaf"):
        return None
    by = {c["symbol"]: c["percent"] for c in leaf["callers"]}
    return by.get("b", 0.0), by.get("c", 0.0)


def folded_paths(path):
    """Samples of leaf by the path from main to it: {'a;b;leaf': N, ...}."""
    p = hwprof("report", "-i", path, "--format", "folded")
    check(p.returncode == 0, p.stderr)
    paths = {}
    for line in p.stdout.splitlines():
        frames, n = line.rsplit(" ", 1)
        frames = frames.split(";")
        if frames[-1] != "leaf" or "main" not in frames:
            continue
        key = ";".join(frames[frames.index("main") + 1:])
        paths[key] = paths.get(key, 0) + int(n)
    return paths


def tree_split(work=("tree", ROUNDS), via=("tree;a;b;leaf", "tree;c;leaf")):
    path = record("tree.data", "--call-graph", "dwarf", work=work)
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return
    rate = unwind_rate(doc)
    note(f"unwind: {doc['unwind']}, {rate:.2f}% to the entry")
    check(rate > 99.0, f"only {rate:.2f}% of the chains unwound to the entry: {doc['unwind']}")
    check(doc["unwind"]["stack_size"] == 8192, f"copy size {doc['unwind']}")
    paths = folded_paths(path)
    total = sum(paths.values())
    ab, c = paths.get(via[0], 0), paths.get(via[1], 0)
    note(f"paths to leaf: {paths}")
    if not check(total > 1000, f"too few samples of leaf under main: {paths}"):
        return
    check(abs(100.0 * ab / total - 200 / 3) <= 2,
          f"main->a->b->leaf has {100.0 * ab / total:.1f}% of leaf, not 66.7%: {paths}")
    check(abs(100.0 * c / total - 100 / 3) <= 2,
          f"main->c->leaf has {100.0 * c / total:.1f}% of leaf, not 33.3%: {paths}")


def frame_pointers_miss_it():
    # The same program with -g (frame pointers): the walk cannot follow
    # code without them, which is why DWARF chains exist.
    path = record("fp.data", "-g")
    paths = folded_paths(path)
    total = sum(paths.values())
    ab = paths.get("tree;a;b;leaf", 0)
    check(total == 0 or ab / total < 0.5,
          f"frame pointers found main->a->b->leaf in {ab} of {total}: the program has them?")


def thread_start():
    # On a thread the chain ends at the thread's start (clone3), not main.
    path = record("thread.data", "--call-graph", "dwarf", work=("thread", "800"))
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return
    rate = unwind_rate(doc)
    check(rate > 99.0, f"{rate:.2f}% to the entry on a thread: {doc['unwind']}")
    leaf = [s for s in doc["stacks"] if s["frames"][-1] == "leaf"]
    check(leaf and all(s["frames"][0] in ("clone3", "clone", "__clone", "__clone3")
                       for s in leaf if not s["truncated"]),
          f"a thread's chains start at clone3: {[s['frames'] for s in leaf][:3]}")
    shares = caller_shares(doc)
    if shares:
        check(abs(shares[0] - 200 / 3) <= 2, f"leaf's callers on a thread: {shares}")


def signal_handler():
    # leaf() in a SIGPROF handler: the chains cross the kernel's signal
    # frame, or stop there marked [truncated]; never a false root.
    path = record("signal.data", "--call-graph", "dwarf", work=("signal", "600"))
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return
    note(f"unwind: {doc['unwind']}")
    handler = [s for s in doc["stacks"] if "on_prof" in s["frames"]]
    check(handler, "samples in the handler")
    check(all(s["frames"][0] in ("_start", "[truncated]") and
              (s["frames"][0] == "[truncated]") == s["truncated"] for s in handler),
          f"the handler's chains start at _start or [truncated]: {[s['frames'] for s in handler][:4]}")


def deep_stack_truncated():
    # 1,000 frames of ~100 bytes: deeper than the 8 KB copy.
    path = record("deep.data", "--call-graph", "dwarf", work=("deep", "300"))
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return
    u = doc["unwind"]
    total = u["to_entry"] + u["stack_short"] + u["no_unwind_info"] + u["failed"]
    note(f"unwind: {u}")
    check(u["stack_short"] >= 0.9 * total, f"the chains stopped at the copy's end: {u}")
    check(8192 < u["stack_size_needed"] <= 65528,
          f"a size larger than the copy is suggested: {u}")
    deep = [s for s in doc["stacks"] if s["frames"][-1] == "leaf"]
    check(deep and all(s["truncated"] and s["frames"][0] == "[truncated]" for s in deep),
          f"every chain of leaf is flagged truncated: {[s['frames'][:2] for s in deep][:3]}")
    check(all(s["frames"][1] == "recurse" for s in deep), "the frames kept are recurse's")
    folded = hwprof("report", "-i", path, "--format", "folded").stdout
    leaf_lines = [ln for ln in folded.splitlines() if ln.rsplit(" ", 1)[0].endswith(";leaf")]
    check(leaf_lines and all(ln.startswith("[truncated];recurse;") for ln in leaf_lines),
          f"folded: chains of leaf start with [truncated]: {leaf_lines[:2]}")
    text = hwprof("report", "-i", path).stdout
    check(re.search(r"stopped where the stack copy ended .*--call-graph dwarf,\d+", text),
          f"the header says why, and what size: {text[:800]}")


def deep_largest_copy():
    # The kernel's largest copy, 1,000 frames: no crash, still truncated.
    path = record("deep64.data", "--call-graph", "dwarf,65528", work=("deep", "100"))
    p, doc = report_json(path)
    if not check(doc is not None, f"{p.returncode}: {p.stderr}"):
        return
    # The kernel trims the copy so that the record's size fits 16 bits.
    check(doc["unwind"]["stack_size"] > 60000 and doc["unwind"]["stack_short"] > 0,
          f"{doc['unwind']}")


NOUNWIND_LIB = """
unsigned long spin(unsigned long n);
unsigned long spin(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n; i++)
		acc += i;
	return acc;
}
"""
NOUNWIND_MAIN = """
unsigned long spin(unsigned long n);
int main(void)
{
	unsigned long s = 0;

	for (int r = 0; r < 300; r++)
		s += spin(1000000);
	return (int)(s & 1);
}
"""


def library_without_tables():
    # A library built without unwind tables (no .eh_frame, hence no
    # .eh_frame_hdr): its chains stop there, and the header names it.
    cc = os.environ.get("CC", "cc").split()
    lib, main = os.path.join(tmp, "libnounwind.so"), os.path.join(tmp, "nounwind")
    for name, text in (("nounwind.c", NOUNWIND_LIB), ("main.c", NOUNWIND_MAIN)):
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    p = run([*cc, "-O2", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables", "-shared",
             "-fPIC", "-nostartfiles", "-o", lib, os.path.join(tmp, "nounwind.c")])
    if p.returncode != 0:
        skip(f"cannot build a library without unwind tables here: {p.stderr[-300:]}")
    p = run([*cc, "-O2", os.path.join(tmp, "main.c"), "-L", tmp, "-lnounwind",
             f"-Wl,-rpath,{tmp}", "-o", main])
    if not check(p.returncode == 0, p.stderr):
        return
    out = os.path.join(tmp, "nounwind.data")
    p = hwprof("record", "-e", "cpu-clock", "--call-graph", "dwarf", "-o", out, "--", main,
               timeout=240)
    if not check(p.returncode == 0, p.stderr):
        return
    p, doc = report_json(out)
    if not check(doc is not None, p.stderr):
        return
    u = doc["unwind"]
    note(f"unwind: {u}")
    spin = next((e for e in doc["entries"] if e["symbol"] == "spin"), None)
    check(spin and u["no_unwind_info"] >= 0.9 * spin["samples"],
          f"the chains of spin stopped for want of tables: {u}, spin {spin}")
    check(re.match(re.escape(lib) + r" \(\d+\)", u["no_unwind_info_modules"] or ""),
          f"the library is named first: {u['no_unwind_info_modules']}")
    text = hwprof("report", "-i", out).stdout
    check(f"without unwind information (marked [truncated]): {lib}" in text,
          f"the text header names it: {text[:600]}")


def bad_sizes():
    for arg in ("dwarf,12", "dwarf,70000", "dwarf,", "dwarf,x"):
        p = hwprof("record", "--call-graph", arg, "-o", os.path.join(tmp, "x"), "--", "true")
        check(p.returncode == 2 and "dwarf,SIZE" in p.stderr, f"{arg}: {p.returncode} {p.stderr}")


def perf_leaf_callers(path):
    """perf report's split of leaf's samples by caller, in percent: (b, c)."""
    p = run([perf, "report", "-i", path, "--no-children", "--stdio", "--sort", "sym",
             "-g", "folded,0,callee,count"], timeout=240)
    if not check(p.returncode == 0, p.stderr):
        return None
    counts, in_leaf = {}, False
    for line in p.stdout.splitlines():
        if re.match(r"\s+[\d.]+%\s", line):
            in_leaf = line.split()[-1] == "leaf"
            continue
        m = re.match(r"(\d+) (.*)", line)
        if in_leaf and m:
            frames = m.group(2).split(";")
            caller = frames[1] if len(frames) > 1 else ""
            counts[caller] = counts.get(caller, 0) + int(m.group(1))
    total = sum(counts.values())
    note(f"perf: leaf's callers {counts}")
    if not check(total > 0, f"perf shows no callers of leaf: {p.stdout[:2000]}"):
        return None
    return 100.0 * counts.get("b", 0) / total, 100.0 * counts.get("c", 0) / total


def agree(path, who):
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    theirs = perf_leaf_callers(path)
    p, doc = report_json(path)
    if not theirs or not check(doc is not None, p.stderr):
        return
    ours = caller_shares(doc)
    note(f"{who}'s file: hwprof {ours}, perf {theirs}")
    check(ours and sum(ours) > 95 and sum(theirs) > 95,
          f"b and c are leaf's callers in {who}'s file: hwprof {ours}, perf {theirs}")
    check(ours and all(abs(o - t) <= 2 for o, t in zip(ours, theirs)),
          f"leaf's callers (b, c) in {who}'s file: hwprof {ours}, perf {theirs}")


def perf_reads_ours():
    agree(record("ours.data", "--call-graph", "dwarf", work=("tree", "600")), "hwprof")


def we_read_perfs():
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    out = os.path.join(tmp, "perf.data")
    p = run([perf, "record", "-e", "cpu-clock", "-F", "4000", "--call-graph", "dwarf", "-o",
             out, "--", CALLTREE, "tree", "600"], timeout=240)
    if p.returncode != 0:
        skip(f"perf record --call-graph dwarf does not work here: {p.stderr[-300:]}")
    agree(out, "perf")


case(tree_split)
case(frame_pointers_miss_it)
case(thread_start)
case(signal_handler)
case(deep_stack_truncated)
case(deep_largest_copy)
case(library_without_tables)
case(bad_sizes)
case(perf_reads_ours)
case(we_read_perfs)
shutil.rmtree(tmp, ignore_errors=True)
done()
