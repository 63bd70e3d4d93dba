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

from common import HWPROF, case, check, done, entry, hwprof, note, report_json, run, skip

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


def record(name, *args, work=("tree", ROUNDS), cmd=None):
    """calltree WORK (or CMD) recorded with ARGS into NAME: its path."""
    out = os.path.join(tmp, name)
    p = hwprof("record", "-e", "cpu-clock", "-F", "4000", *args, "-o", out, "--",
               *(cmd or [CALLTREE, *work]), timeout=240)
    check(p.returncode == 0, f"record {args}: {p.stderr}")
    return out


def recorded(name, work=None, cmd=None):
    """calltree WORK (or CMD) recorded --call-graph dwarf, reported as JSON:
    the report, or None after saying why; its unwind figures noted."""
    path = record(name, "--call-graph", "dwarf", work=work or ("tree", ROUNDS), cmd=cmd)
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return None
    note(f"{name}: unwind {doc['unwind']}")
    return doc


def unwind_rate(doc):
    u = doc["unwind"]
    total = u["to_entry"] + u["stack_short"] + u["no_unwind_info"] + u["failed"]
    return 100.0 * u["to_entry"] / total if total else 0.0


def demangler(names):
    """A function from C++ symbols to what perf shows (c++filt -p: no
    parameters); hwprof shows them as the ELF file has them."""
    names = sorted(set(names))
    p = run(["c++filt", "-p"], input="\n".join(names))
    out = p.stdout.splitlines() if p.returncode == 0 else []
    if len(out) != len(names):
        skip(f"c++filt (binutils) does not work here: {p.stderr}")
    table = dict(zip(names, out))
    return lambda name: table.get(name, name)


def caller_shares(doc, leaf="leaf", callers=("b", "c"), name=lambda s: s):
    """leaf's callers, in percent of its samples: (b, c)."""
    e = next((e for e in doc["entries"] if name(e["symbol"]) == leaf), None)
    if not check(e is not None, f"no entry for {leaf}"):
        return None
    by = {}
    for c in e["callers"]:
        by[name(c["symbol"])] = by.get(name(c["symbol"]), 0.0) + c["percent"]
    return tuple(by.get(c, 0.0) for c in callers)


def folded_paths(path, leaf="leaf", demangle=False):
    """Samples of leaf by the path from main to it: {'a;b;leaf': N, ...}."""
    p = hwprof("report", "-i", path, "--format", "folded")
    check(p.returncode == 0, p.stderr)
    lines = [line.rsplit(" ", 1) for line in p.stdout.splitlines()]
    name = (demangler(f for frames, _ in lines for f in frames.split(";"))
            if demangle else (lambda s: s))
    paths = {}
    for frames, n in lines:
        frames = [name(f) for f in frames.split(";")]
        if frames[-1] != leaf or "main" not in frames:
            continue
        key = ";".join(frames[frames.index("main") + 1:])
        paths[key] = paths.get(key, 0) + int(n)
    return paths


def check_split(path, via, leaf="leaf", demangle=False):
    """PATH's chains unwound to the entry (> 99%), and leaf's samples under
    main split 2:1 between the paths VIA, within 2 points."""
    p, doc = report_json(path)
    if not check(doc is not None, p.stderr):
        return
    rate = unwind_rate(doc)
    note(f"unwind: {doc['unwind']}, {rate:.2f}% to the entry")
    check(rate > 99.0, f"only {rate:.2f}% of the chains unwound to the entry: {doc['unwind']}")
    check(doc["unwind"]["stack_size"] == 8192, f"copy size {doc['unwind']}")
    paths = folded_paths(path, leaf, demangle)
    total = sum(paths.values())
    ab, c = paths.get(via[0], 0), paths.get(via[1], 0)
    note(f"paths to leaf: {paths}")
    if not check(total > 1000, f"too few samples of leaf under main: {paths}"):
        return
    check(abs(100.0 * ab / total - 200 / 3) <= 2,
          f"main->a->b->leaf has {100.0 * ab / total:.1f}% of leaf, not 66.7%: {paths}")
    check(abs(100.0 * c / total - 100 / 3) <= 2,
          f"main->c->leaf has {100.0 * c / total:.1f}% of leaf, not 33.3%: {paths}")


def tree_split():
    path = record("tree.data", "--call-graph", "dwarf")
    check_split(path, ("tree;a;b;leaf", "tree;c;leaf"))
    # By default its records are read by one thread: the stack copies.
    p = run([HWPROF, "report", "-i", path, "--top", "1"],
            env=dict(os.environ, HWPROF_LOG_LEVEL="debug"), timeout=240)
    check(p.returncode == 0 and "read on one thread: copies of the stack" in p.stderr,
          f"the default for DWARF samples: {p.stderr[-600:]}")


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
    # frame (libc's __restore_rt, whose rules are DWARF expressions in
    # .eh_frame) to the code it interrupted, as perf's do; one that stops
    # is marked [truncated], never a false root.
    doc = recorded("signal.data", ("signal", "600"))
    if not doc:
        return
    handler = [s for s in doc["stacks"] if "on_prof" in s["frames"]]
    check(handler, "samples in the handler")
    check(all(s["frames"][0] in ("_start", "[truncated]") and
              (s["frames"][0] == "[truncated]") == s["truncated"] for s in handler),
          f"the handler's chains start at _start or [truncated]: {[s['frames'] for s in handler][:4]}")

    def crossed(f):
        i = f.index("on_prof")
        return f[0] == "_start" and "main" in f[:i - 1] and "tree" in f[:i - 1]

    total = sum(s["samples"] for s in handler)
    whole = sum(s["samples"] for s in handler if crossed(s["frames"]))
    check(total and whole >= 0.95 * total,
          f"{whole} of the handler's {total} samples unwound through the signal frame to "
          f"main: {[s['frames'] for s in handler if not crossed(s['frames'])][:3]}")


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


def build_spin(name, *cflags):
    """libNAME.so of NOUNWIND_LIB built with CFLAGS and without .eh_frame
    (nor crt files that bring theirs), and a program that calls it: their
    paths."""
    cc = os.environ.get("CC", "cc").split()
    d = os.path.join(tmp, name)
    os.makedirs(d, exist_ok=True)
    lib, main = os.path.join(d, f"lib{name}.so"), os.path.join(d, name)
    for src, text in (("spin.c", NOUNWIND_LIB), ("main.c", NOUNWIND_MAIN)):
        with open(os.path.join(d, src), "w") as f:
            f.write(text)
    p = run([*cc, "-O2", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables", *cflags,
             "-shared", "-fPIC", "-nostartfiles", "-o", lib, os.path.join(d, "spin.c")])
    if p.returncode != 0:
        skip(f"cannot build a library without unwind tables here: {p.stderr[-300:]}")
    p = run([*cc, "-O2", os.path.join(d, "main.c"), "-L", d, f"-l{name}",
             f"-Wl,-rpath,{d}", "-o", main])
    if p.returncode != 0:
        skip(f"cannot link a program with {lib}: {p.stderr[-300:]}")
    return lib, main


def sections(path):
    """The names of PATH's sections that hold bytes (the linker leaves an
    empty .eh_frame in a library without tables)."""
    p = run(["readelf", "-SW", path])
    return {m.group(1) for m in re.finditer(
        r"\]\s+(\.\S+)\s+PROGBITS\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", p.stdout)
        if int(m.group(2), 16)}


def library_without_tables():
    # A library built without unwind tables (no .eh_frame, hence no
    # .eh_frame_hdr): its chains stop there, and the header names it.
    lib, main = build_spin("nounwind")
    doc = recorded("nounwind.data", cmd=[main])
    if not doc:
        return
    u = doc["unwind"]
    spin = next((e for e in doc["entries"] if e["symbol"] == "spin"), None)
    check(spin and u["no_unwind_info"] >= 0.9 * spin["samples"],
          f"the chains of spin stopped for want of tables: {u}, spin {spin}")
    check(re.match(re.escape(lib) + r" \(\d+\)", u["no_unwind_info_modules"] or ""),
          f"the library is named first: {u['no_unwind_info_modules']}")
    text = hwprof("report", "-i", os.path.join(tmp, "nounwind.data")).stdout
    check(f"without unwind information (marked [truncated]): {lib}" in text,
          f"the text header names it: {text[:600]}")


CXXTREE_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cxxtree.cc")
CXX_LEAF, CXX_CALLERS = "cxxtree::leaf", ("cxxtree::b", "cxxtree::c")
cxxtree_exe = []


def cxxtree():
    """tests/cxxtree.cc built -O2 -fomit-frame-pointer, once."""
    if cxxtree_exe:
        return cxxtree_exe[0]
    cxx = os.environ.get("CXX", "c++").split()
    exe = os.path.join(tmp, "cxxtree")
    p = run([*cxx, "-O2", "-g", "-fomit-frame-pointer", "-o", exe, CXXTREE_SRC])
    if p.returncode != 0:
        skip(f"cannot build tests/cxxtree.cc with {cxx[0]}: {p.stderr[-300:]}")
    cxxtree_exe.append(exe)
    return exe


def cxx_tree_split():
    # C++: namespaces, inlined methods, try/catch and cleanups (CIEs with
    # a personality and an LSDA), and exceptions thrown on one path.
    out = record("cxx.data", "--call-graph", "dwarf", cmd=[cxxtree(), "600"])
    check_split(out, ("cxxtree::a;cxxtree::b;cxxtree::leaf", "cxxtree::c;cxxtree::leaf"),
                CXX_LEAF, demangle=True)
    agree(out, "hwprof (C++)", CXX_LEAF, CXX_CALLERS, demangle=True)


def cxx_perf_file():
    agree(perf_record("cxx-perf.data", cxxtree(), "600"), "perf (C++)", CXX_LEAF, CXX_CALLERS,
          demangle=True)


def kernel_samples():
    # A program in getppid() and read(): most samples are taken in the
    # kernel, and the user part of their chains is unwound from the user
    # registers the kernel saved at the system call.
    doc = recorded("syscall.data", ("syscall", "150"))
    if not doc:
        return
    kernel = {e["symbol"] for e in doc["entries"] if e["dso"] == "[kernel.kallsyms]"}
    stacks = [s for s in doc["stacks"] if s["frames"][-1] in kernel]
    total = sum(s["samples"] for s in doc["stacks"])
    ksamples = sum(s["samples"] for s in stacks)
    if not check(ksamples >= total / 2, f"{ksamples} of {total} samples in the kernel"):
        return

    def sensible(f):
        # _start ... main, in_kernel, then libc's getppid or read, then
        # the kernel's frames, the sampled one last
        if "in_kernel" not in f or f[0] != "_start":
            return False
        i = f.index("in_kernel")
        return f[i - 1] == "main" and all(k not in kernel for k in f[:i + 1])

    good = sum(s["samples"] for s in stacks if sensible(s["frames"]))
    check(good >= 0.95 * ksamples,
          f"{good} of {ksamples} kernel samples have _start..main;in_kernel above "
          f"the kernel's frames: {[s['frames'] for s in stacks if not sensible(s['frames'])][:4]}")


def spin_unwinds(main, what):
    """main -> spin, recorded: spin's chains unwind to the entry, with main
    as the caller, by the library's .debug_frame. Only spin's chains are
    judged: the few samples taken in execve, before the program has a
    mapping (their user part is [unknown]), are as many as exec's kernel
    work lasts on a busy machine (1 to 7 against some 500 of spin), and
    one at exit may stop in the program's own __do_global_dtors_aux."""
    doc = recorded(os.path.basename(main) + ".data", cmd=[main])
    if not doc:
        return
    u = doc["unwind"]
    spin = entry(doc, "spin")
    if not check(spin and spin["samples"] > 100, f"{what}: samples of spin: {spin}"):
        return
    lib = f"lib{os.path.basename(main)}.so"
    check(lib not in (u["no_unwind_info_modules"] or ""),
          f"{what}: no chain stopped for want of {lib}'s tables: {u}")
    callers = {c["symbol"]: c["percent"] for c in spin["callers"]}
    check(callers.get("main", 0) > 99.0, f"{what}: spin's caller is main: {callers}")
    # spin's chains, the user leaf's and those with the kernel's frames of
    # an interrupt above spin
    stacks = [s for s in doc["stacks"] if "spin" in s["frames"]]
    whole = [s for s in stacks if not s["truncated"] and s["frames"][0] == "_start" and
             s["frames"][s["frames"].index("spin") - 1] == "main"]
    n, good = (sum(s["samples"] for s in ss) for ss in (stacks, whole))
    check(n >= spin["samples"] and good == n,
          f"{what}: {good} of {n} chains through spin are _start ... main;spin: "
          f"{[s['frames'] for s in stacks if s not in whole][:3]}")


def library_with_debug_frame():
    # -g without unwind tables: gcc writes the CFI to .debug_frame only.
    lib, main = build_spin("debugframe", "-g")
    have = sections(lib)
    if not check(".debug_frame" in have and ".eh_frame" not in have,
                 f"{lib}: .debug_frame and no .eh_frame: {sorted(have)}"):
        return
    spin_unwinds(main, ".debug_frame in the library")


def debug_frame_in_debug_file():
    # The same, stripped: its .debug_frame lives only in the separate
    # debug file that .gnu_debuglink names, next to it.
    lib, main = build_spin("debuglink", "-g")
    debug = lib + ".debug"
    for args in (["--only-keep-debug", lib, debug],
                 ["--strip-debug", f"--add-gnu-debuglink={debug}", lib]):
        p = run(["objcopy", *args])
        if not check(p.returncode == 0, f"objcopy {args}: {p.stderr}"):
            return
    have = sections(lib)
    if not check(".debug_frame" not in have and ".eh_frame" not in have and
                 ".gnu_debuglink" in have, f"{lib}: stripped, with a debuglink: {sorted(have)}"):
        return
    spin_unwinds(main, ".debug_frame in the debug file")
    # without the debug file, its chains stop there, and it is named
    os.rename(debug, debug + ".gone")
    doc = recorded("debuglink-gone.data", cmd=[main])
    if doc:
        check((doc["unwind"]["no_unwind_info_modules"] or "").startswith(lib),
              f"without its debug file the library is named: {doc['unwind']}")


def bad_sizes():
    for arg in ("dwarf,12", "dwarf,70000", "dwarf,", "dwarf,x"):
        p = hwprof("record", "--call-graph", arg, "-o", os.path.join(tmp, "x"), "--", "true")
        check(p.returncode == 2 and "dwarf,SIZE" in p.stderr, f"{arg}: {p.returncode} {p.stderr}")


def perf_leaf_callers(path, leaf="leaf", callers=("b", "c")):
    """perf report's split of leaf's samples by caller, in percent: (b, c)."""
    p = run([perf, "report", "-i", path, "--no-children", "--stdio", "--sort", "sym",
             "-g", "folded,0,callee,count"], timeout=240)
    if not check(p.returncode == 0, p.stderr):
        return None
    counts, in_leaf = {}, False
    for line in p.stdout.splitlines():
        if re.match(r"\s+[\d.]+%\s", line):
            in_leaf = line.split()[-1] == leaf
            continue
        m = re.match(r"(\d+) (.*)", line)
        if in_leaf and m:
            # perf shows inlined functions as frames of their own
            # ("f (inlined)") and C++ names without their parameters
            frames = [re.sub(r"\(.*\)$", "", f) for f in m.group(2).split(";")
                      if not f.endswith(" (inlined)")]
            caller = frames[1] if len(frames) > 1 else ""
            counts[caller] = counts.get(caller, 0) + int(m.group(1))
    total = sum(counts.values())
    note(f"perf: leaf's callers {counts}")
    if not check(total > 0, f"perf shows no callers of leaf: {p.stdout[:2000]}"):
        return None
    return tuple(100.0 * counts.get(c, 0) / total for c in callers)


def agree(path, who, leaf="leaf", callers=("b", "c"), demangle=False):
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    theirs = perf_leaf_callers(path, leaf, callers)
    p, doc = report_json(path)
    if not theirs or not check(doc is not None, p.stderr):
        return
    name = (demangler([e["symbol"] for e in doc["entries"] if e["symbol"]] +
                      [c["symbol"] for e in doc["entries"] for c in e["callers"]
                       if c["symbol"]])
            if demangle else (lambda s: s))
    ours = caller_shares(doc, leaf, callers, name)
    note(f"{who}'s file: hwprof {ours}, perf {theirs}")
    check(ours and sum(ours) > 95 and sum(theirs) > 95,
          f"b and c are leaf's callers in {who}'s file: hwprof {ours}, perf {theirs}")
    check(ours and all(abs(o - t) <= 2 for o, t in zip(ours, theirs)),
          f"leaf's callers (b, c) in {who}'s file: hwprof {ours}, perf {theirs}")


def perf_reads_ours():
    agree(record("ours.data", "--call-graph", "dwarf", work=("tree", "600")), "hwprof")


def perf_record(name, *cmd):
    """perf record --call-graph dwarf of CMD into NAME: its path."""
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    out = os.path.join(tmp, name)
    p = run([perf, "record", "-e", "cpu-clock", "-F", "4000", "--call-graph", "dwarf", "-o",
             out, "--", *cmd], timeout=240)
    if p.returncode != 0:
        skip(f"perf record --call-graph dwarf does not work here: {p.stderr[-300:]}")
    return out


def we_read_perfs():
    agree(perf_record("perf.data", CALLTREE, "tree", "600"), "perf")


case(tree_split)
case(frame_pointers_miss_it)
case(thread_start)
case(signal_handler)
case(deep_stack_truncated)
case(deep_largest_copy)
case(library_without_tables)
case(library_with_debug_frame)
case(debug_frame_in_debug_file)
case(bad_sizes)
case(perf_reads_ours)
case(we_read_perfs)
case(cxx_tree_split)
case(cxx_perf_file)
case(kernel_samples)
shutil.rmtree(tmp, ignore_errors=True)
done()
