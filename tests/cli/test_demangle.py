#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""C++ and Rust names demangled in every output of hwprof report, as perf
report shows them (no C++ parameters, no Rust hash), and kept as the symbol
tables spell them with --no-demangle. A C++ program (tests/demangle.cc,
built here with g++) and a C program whose functions carry Rust's legacy
and v0 symbol names (tests/rust-names.c, asm labels: no rustc needed).
First a file made by hand whose samples point into both, so every count is
known; then a recording of the C++ program, read by perf report too."""
import gzip
import os
import re
import shutil
import tempfile

from common import (HAVE_LIBDW, case, check, done, hwprof, perf_sampler, report_json, run,
                    skip)
from perfdata import PerfData, file_offset, loads

TESTS = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
PID = 4242
CC_BASE, RUST_BASE = 0x555555554000, 0x555555600000
# mangled symbol -> (demangled, samples)
WANT = {
    "_ZN5bench7mapworkEm": ("bench::mapwork", 30),
    "_ZN5bench5twiceImEET_S1_": ("bench::twice<unsigned long>", 12),
    "_ZN7mycrate6legacy4spin17h0123456789abcdefE": ("mycrate::legacy::spin", 7),
    "_RNvNtCs1234_7mycrate5inner4spin": ("mycrate::inner::spin", 5),
}
FORMATS = ("text", "csv", "json", "folded", "speedscope", "pprof", "html")


def build(d):
    """The two programs, or None after saying why."""
    gxx, gcc = shutil.which("g++"), shutil.which("gcc") or shutil.which("cc")
    if not gxx or not gcc:
        skip("g++ and gcc build the test's programs (Debian: g++; make test installs it)")
    cc, rust = os.path.join(d, "demangle-cc"), os.path.join(d, "rust-names")
    p = run([gxx, "-O1", "-g", "-o", cc, os.path.join(TESTS, "demangle.cc")])
    q = run([gcc, "-O1", "-g", "-o", rust, os.path.join(TESTS, "rust-names.c")])
    if check(p.returncode == 0 and q.returncode == 0, f"build: {p.stderr} {q.stderr}"):
        return cc, rust
    return None


def symbols(binary):
    """mangled name -> address, from nm (which does not demangle by default)."""
    out = run(["nm", "--defined-only", binary]).stdout
    return {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^([0-9a-f]+) [TtWw] (\S+)$", out, re.M)}


def made_by_hand(d, cc, rust):
    """WANT's samples, each function called from its program's main."""
    pd = PerfData(callchains=True)
    for binary, base in ((cc, CC_BASE), (rust, RUST_BASE)):
        pd.mmap(PID, base, os.path.getsize(binary) + 0x1000, 0, binary.encode())
    for binary, base in ((cc, CC_BASE), (rust, RUST_BASE)):
        syms, segs = symbols(binary), loads(binary)
        ip = lambda vaddr: base + file_offset(segs, vaddr)	# noqa: E731
        for mangled, (_, n) in WANT.items():
            if mangled in syms:
                for _ in range(n):
                    pd.sample(PID, ip(syms[mangled] + 4), [ip(syms["main"] + 5)])
    path = os.path.join(d, "hand.data")
    pd.write(path)
    return path


def output(data, fmt, d, *args):
    """Report DATA in format FMT as text (pprof's gunzipped, as bytes read
    as Latin-1: its strings are in its string table)."""
    out = os.path.join(d, "out." + fmt)
    p = hwprof("report", "-i", data, "--top", "0", "--format", fmt, "-o", out, *args)
    if not check(p.returncode == 0, f"report --format {fmt} {args}: {p.stderr}"):
        return ""
    with open(out, "rb") as f:
        raw = f.read()
    return (gzip.decompress(raw) if fmt == "pprof" else raw).decode("latin-1")


def every_format(data, d):
    for fmt in FORMATS:
        text = output(data, fmt, d)
        for mangled, (name, _) in WANT.items():
            # HTML escapes '<' and '>' of the template's name
            shown = name.replace("<", "\\u003c").replace(">", "\\u003e") \
                if fmt == "html" and name not in text else name
            check(shown in text, f"{fmt}: {name} is shown: {text[:400]!r}")
            check(mangled not in text, f"{fmt}: {mangled} is not: {text[:400]!r}")


def no_demangle(data, d):
    for fmt in FORMATS:
        text = output(data, fmt, d, "--no-demangle")
        for mangled, (name, _) in WANT.items():
            check(mangled in text, f"{fmt} --no-demangle: {mangled} is shown: {text[:300]!r}")
        check("bench::mapwork" not in text, f"{fmt} --no-demangle: {text[:300]!r}")


def counts(data):
    p, doc = report_json(data, "--top", "0")
    if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        return
    got = {e["symbol"]: e["samples"] for e in doc["entries"]}
    check(got == {name: n for name, n in WANT.values()}, f"rows and samples: {got}")
    callers = {e["symbol"]: [c["symbol"] for c in e["callers"]] for e in doc["entries"]}
    check(all(c == ["main"] for c in callers.values()), f"each called from main: {callers}")


def annotate(data, cc):
    """--annotate takes the name as the report shows it."""
    start = symbols(cc)["_ZN5bench7mapworkEm"]
    p = hwprof("report", "-i", data, "--annotate", "bench::mapwork")
    addrs = [int(m, 16) for m in re.findall(r"^[^#]*?: +([0-9a-f]+):  ", p.stdout, re.M)]
    check(p.returncode == 0 and addrs and addrs[0] == start and "of bench::mapwork" in p.stdout,
          f"--annotate bench::mapwork: {p.stdout[:400]} {p.stderr}")
    p = hwprof("report", "-i", data, "--annotate", "_ZN5bench7mapworkEm", "--no-demangle")
    check(p.returncode == 0 and "of _ZN5bench7mapworkEm" in p.stdout,
          f"--annotate of the mangled name with --no-demangle: {p.stdout[:200]} {p.stderr}")


def diff(data):
    p = hwprof("diff", data, data)
    check(p.returncode == 0 and "bench::mapwork" in p.stdout and "_ZN5bench" not in p.stdout,
          f"diff shows the demangled names: {p.stdout[:400]} {p.stderr}")


def recorded(d, cc):
    """A recording of the C++ program: hwprof and perf name its functions alike."""
    perf = perf_sampler()
    data = os.path.join(d, "rec.data")
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", cc, "300000000", timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    p, doc = report_json(data, "--top", "0")
    ours = {e["symbol"] for e in doc["entries"] if e["dso"] == cc} if doc else set()
    check("bench::mapwork" in ours, f"hwprof: {ours}")
    p = run([perf, "report", "-i", data, "--stdio", "--no-children", "--sort", "dso,sym"])
    theirs = set(re.findall(r"demangle-cc\s+\[\.\] (.+?)\s*$", p.stdout, re.M))
    check(ours and ours == theirs, f"the same names as perf report's: {ours} {theirs}")


if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols to demangle")
with tempfile.TemporaryDirectory() as tmp:
    BUILT = case(build, tmp, name="g++ and gcc build the programs")
    if BUILT:
        HAND = made_by_hand(tmp, *BUILT)
        case(counts, HAND, name="by hand: demangled rows, counts and callers")
        case(every_format, HAND, tmp, name="by hand: demangled in every format")
        case(no_demangle, HAND, tmp, name="by hand: --no-demangle")
        case(annotate, HAND, BUILT[0], name="by hand: --annotate bench::mapwork")
        case(diff, HAND, name="by hand: diff")
        case(recorded, tmp, BUILT[0], name="a recording, as perf report names it")
done()
