#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""JIT code named by the map a JIT writes for perf, /tmp/perf-PID.map
("START SIZE NAME" a line), as perf report names it: first a file made by
hand whose samples land in anonymous code that a map written here names
(entries that overlap, a name with spaces, a line that is not an entry,
a map that is missing or someone else's); then a small JIT (tests/jit.c:
code written into anonymous memory, made executable and run), recorded,
whose rows hwprof and perf report count alike."""
import os
import platform
import re
import shutil
import tempfile

from common import case, check, done, hwprof, perf_sampler, report_json, run, skip
from perfdata import PerfData

TESTS = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# pids whose maps the test writes: the highest a kernel gives (pid_max 2^22)
PID, PID_MISSING, PID_OTHER = 4194301, 4194302, 4194303
ANON = 0x7f1200000000
ENTRIES = [
    f"{ANON:x} 40 first",
    f"0x{ANON + 0x40:x} 0x40 second name, with spaces",
    "not an entry",
    f"{ANON + 0x80:x} 40 old",
    f"{ANON + 0x80:x} 20 new",	# written later: it wins where both cover
]
SAMPLES = [(0x4, 10, "first"), (0x44, 6, "second name, with spaces"), (0x90, 3, "new"),
           (0xb0, 2, "old"), (0x200, 1, None)]


def map_path(pid):
    return f"/tmp/perf-{pid}.map"


def made_by_hand(d, pid):
    pd = PerfData()
    pd.mmap(pid, ANON, 0x1000, 0, b"//anon")
    for off, n, _ in SAMPLES:
        for _ in range(n):
            pd.sample(pid, ANON + off)
    path = os.path.join(d, f"hand-{pid}.data")
    pd.write(path)
    return path


def rows(data):
    p, doc = report_json(data, "--top", "0")
    if not check(p.returncode == 0 and doc, f"report: {p.stderr}"):
        return None, None
    return {e["symbol"] or e["name"]: (e["samples"], e["dso"]) for e in doc["entries"]}, doc


def named(d):
    with open(map_path(PID), "w") as f:
        f.write("\n".join(ENTRIES) + "\n")
    got, _ = rows(made_by_hand(d, PID))
    want = {name or f"perf-{PID}.map+{ANON + off:#x}": (n, map_path(PID))
            for off, n, name in SAMPLES}
    check(got == want, f"JIT rows: {got}, want {want}")
    p = hwprof("report", "-i", made_by_hand(d, PID), "--format", "folded")
    check(p.returncode == 0 and "second name, with spaces 6" in p.stdout.splitlines(),
          f"folded: {p.stdout}")


def missing(d):
    """No map: the addresses stay the map's, and the footer says why."""
    if os.path.exists(map_path(PID_MISSING)):
        os.unlink(map_path(PID_MISSING))
    data = made_by_hand(d, PID_MISSING)
    got, _ = rows(data)
    check(got and all(k.startswith(f"perf-{PID_MISSING}.map+0x") for k in got) and
          sum(n for n, _ in got.values()) == 22, f"unnamed rows: {got}")
    p = hwprof("report", "-i", data)
    check(f"{map_path(PID_MISSING)} (22 samples): JIT code, whose map is not there" in p.stdout,
          f"the footer says why: {p.stdout[-500:]}")


def not_ours(d):
    """A map someone else owns is not read, as perf does not."""
    if os.geteuid() != 0:
        skip("giving the map to another user needs root")
    with open(map_path(PID_OTHER), "w") as f:
        f.write("\n".join(ENTRIES) + "\n")
    os.chown(map_path(PID_OTHER), 65534, 65534)
    data = made_by_hand(d, PID_OTHER)
    got, _ = rows(data)
    check(got and all(k.startswith(f"perf-{PID_OTHER}.map+0x") for k in got), f"{got}")
    p = hwprof("report", "-i", data)
    check("owned by another user than you or root: not read" in p.stdout,
          f"the footer says why: {p.stdout[-500:]}")


def build(d):
    if platform.machine() != "x86_64":
        skip(f"tests/jit.c writes x86-64 code; this is {platform.machine()}")
    gcc = shutil.which("gcc") or shutil.which("cc")
    if not gcc:
        skip("no C compiler (Debian: gcc)")
    exe = os.path.join(d, "jit")
    p = run([gcc, "-O1", "-o", exe, os.path.join(TESTS, "jit.c")])
    return exe if check(p.returncode == 0, f"build: {p.stderr}") else None


def recorded(d, exe):
    perf = perf_sampler()
    data = os.path.join(d, "jit.data")
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", exe, "400000000", timeout=120)
    m = re.search(r"^(/tmp/perf-(\d+)\.map)$", p.stdout + p.stderr, re.M)
    if not check(p.returncode == 0 and m, f"record: {p.stdout} {p.stderr}"):
        return
    try:
        got, _ = rows(data)
        mod = f"perf-{m.group(2)}.map"
        ours = {k: n for k, (n, dso) in (got or {}).items() if dso == m.group(1)}
        check(ours.get("jit::hot", 0) > 0 and ours.get("LazyCompile:~cold bench.js:12", 0) > 0,
              f"the JIT's functions by their names: {ours}")
        check(any(k.startswith(mod + "+0x") for k in ours), f"the unnamed one: {ours}")
        p = run([perf, "report", "-i", data, "--stdio", "--no-children", "-n", "--sort",
                 "dso,sym"])
        theirs = {name: int(n) for n, name in
                  re.findall(r"^\s+\S+%\s+(\d+)\s+\[JIT\] tid \d+\s+\[\.\] (.+?)\s*$",
                             p.stdout, re.M) if not name.startswith("0x")}
        named_ours = {k: n for k, n in ours.items() if not k.startswith(mod)}
        check(named_ours and named_ours == theirs,
              f"the same rows and samples as perf report's: {named_ours} {theirs}")
    finally:
        os.unlink(m.group(1))


with tempfile.TemporaryDirectory() as tmp:
    try:
        case(named, tmp, name="by hand: the map names the JIT's code")
        case(missing, tmp, name="by hand: no map")
        case(not_ours, tmp, name="by hand: another user's map")
        EXE = case(build, tmp, name="the JIT builds")
        if EXE:
            case(recorded, tmp, EXE, name="a recording of a JIT, as perf report names it")
    finally:
        for pid in (PID, PID_OTHER):
            if os.path.exists(map_path(pid)):
                os.unlink(map_path(pid))
done()
