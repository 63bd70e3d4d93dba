#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Golden outputs: what hwprof prints for committed inputs, compared with
committed expected files (tests/golden/expected/), as elfutils'
testrun_compare and kmod's correct-*.txt do, so that a change of output is a
reviewed diff. A mismatch fails its case with a unified diff.

The inputs (tests/golden/input/, written by tests/golden/make-inputs.py)
give the same output on any machine: their samples are named by a committed
kallsyms file or lie in files that exist nowhere, and they name no host,
kernel or date of this machine. Each output is made twice, the second time
from another directory under another time zone, locale and home (and
host name, where a UTS namespace can be made), on one CPU: the two must
agree, so that no machine's facts reach the expected files.

An intended change: HWPROF_GOLDEN_UPDATE=1 meson test -C build cli-golden
(or make golden-update) rewrites the expected files; review and commit
their diff. JSON is compared parsed, its numbers to 12 significant digits
(the last digits of a double may differ between libms); the version of
hwprof stands as @VERSION@, so that a release changes no expected file."""
import difflib
import gzip
import json
import os
import shutil
import sys
import tempfile

from common import (HAVE_LIBDW, HWPROF, SRC, WRAPPER, case, check, done, hwprof, note, run,
                    skip)
import profileproto

GOLDEN = os.path.join(SRC, "tests", "golden")
INPUT = os.path.join(GOLDEN, "input")
EXPECTED = os.path.join(GOLDEN, "expected")
UPDATE = os.environ.get("HWPROF_GOLDEN_UPDATE") == "1"
RENDER_RESULT = os.environ.get("RENDER_RESULT", "build/tests/render-result")
KSYMS = ["--kallsyms", "kallsyms"]

# expected file: the command (hwprof's arguments, or render-result's after
# "render-result"), and the exit status it must have
REPORT = [
    ("report-sym.txt", ["report", "-i", "a.data", *KSYMS], 0),
    ("report-sym-top3.txt", ["report", "-i", "a.data", *KSYMS, "--top", "3"], 0),
    ("report-rip.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "rip", "--top", "0"], 0),
    ("report-line.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "line", "--top", "4"], 0),
    ("report-dso.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "dso"], 0),
    ("report-comm.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "comm"], 0),
    ("report-pid.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "pid"], 0),
    ("report-cpu.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "cpu"], 0),
    ("report-comm-sym.txt", ["report", "-i", "a.data", *KSYMS, "--sort", "comm,sym",
                             "--top", "0"], 0),
    ("report-filtered.txt", ["report", "-i", "a.data", *KSYMS, "--comm", "worker"], 0),
    ("report-no-kallsyms.txt", ["report", "-i", "a.data", "--kallsyms", "/dev/null",
                                "--top", "4"], 0),
    ("report-annotate-no-code.txt", ["report", "-i", "a.data", *KSYMS,
                                     "--annotate", "clear_page_erms"], 1),
    ("report-sym.csv", ["report", "-i", "a.data", *KSYMS, "--format", "csv", "--top", "0"], 0),
    ("report-rip.csv", ["report", "-i", "a.data", *KSYMS, "--format", "csv", "--sort", "rip",
                        "--top", "5"], 0),
    ("report-comm-sym-semicolon.csv", ["report", "-i", "a.data", *KSYMS, "-x", ";",
                                       "--sort", "comm,sym", "--top", "0"], 0),
    ("report-dso.csv", ["report", "-i", "a.data", *KSYMS, "--format", "csv", "--sort", "dso"],
     0),
    ("report.folded", ["report", "-i", "a.data", *KSYMS, "--format", "folded"], 0),
    ("report-worker.folded", ["report", "-i", "a.data", *KSYMS, "--format", "folded",
                              "--pid", "200"], 0),
    ("report-sym.json", ["report", "-i", "a.data", *KSYMS, "--format", "json", "--top", "0"],
     0),
    ("report-comm-sym.json", ["report", "-i", "a.data", *KSYMS, "--format", "json",
                              "--sort", "comm,sym", "--top", "3"], 0),
    ("report.speedscope.json", ["report", "-i", "a.data", *KSYMS, "--format", "speedscope"],
     0),
    ("report.pprof.json", ["report", "-i", "a.data", *KSYMS, "--format", "pprof",
                           "-o", "out.pb.gz"], 0),
]
DIFF = [
    ("diff-sym.txt", ["diff", *KSYMS, "a.data", "b.data"], 0),
    ("diff-dso-count.txt", ["diff", *KSYMS, "--sort", "dso", "--mode", "count", "a.data",
                            "b.data"], 0),
    ("diff-rip-top3.txt", ["diff", *KSYMS, "--sort", "rip", "--top", "3", "a.data", "b.data"],
     0),
    ("diff-sym.csv", ["diff", *KSYMS, "--format", "csv", "--top", "0", "a.data", "b.data"], 0),
    ("diff-sym.json", ["diff", *KSYMS, "--format", "json", "a.data", "b.data"], 0),
]
COMPARE = [
    ("compare.txt", ["compare", "a.json", "b.json"], 0),
    ("compare-no-big-num.txt", ["compare", "--no-big-num", "a.json", "b.json"], 0),
    ("compare-mann-whitney.txt", ["compare", "--test", "mann-whitney", "a.json", "b.json"], 0),
    ("compare-fail-on.txt", ["compare", "--fail-on", "page-faults:increase>5", "a.json",
                             "b.json"], 3),
    ("compare.csv", ["compare", "--csv", "a.json", "b.json"], 0),
    ("compare-semicolon.csv", ["compare", "-x", ";", "a.json", "b.json"], 0),
    ("compare.json", ["compare", "--json", "a.json", "b.json"], 0),
    ("compare-sweep.txt", ["compare", "sweep-a.json", "sweep-b.json"], 0),
    ("compare-sweep.csv", ["compare", "--csv", "sweep-a.json", "sweep-b.json"], 0),
]
STAT = [(f"stat-{style}.{ext}", ["render-result", style, "a.json"], 0)
        for style, ext in (("text", "txt"), ("text-no-big-num", "txt"),
                           ("text-per-run", "txt"), ("csv", "csv"),
                           ("csv-semicolon", "csv"), ("csv-per-run", "csv"),
                           ("json", "json"), ("openmetrics", "txt"), ("prometheus", "txt"))]
STAT += [("stat-sweep.txt", ["render-result", "sweep-text", "sweep-a.json"], 0),
         ("stat-sweep.json", ["render-result", "sweep-json", "sweep-a.json"], 0)]
# stat --regions -r 5: each run's regions, their means over the runs, and
# compare's rows of the regions both sides entered.
REGIONS = [(f"stat-regions{suffix}", ["render-result", style, "regions-a.json"], 0)
           for style, suffix in (("text", ".txt"), ("json", ".json"),
                                 ("openmetrics", "-openmetrics.txt"),
                                 ("prometheus", "-prometheus.txt"))]
REGIONS += [("compare-regions.txt", ["compare", "regions-a.json", "regions-b.json"], 0),
            ("compare-regions.json", ["compare", "--json", "regions-a.json",
                                      "regions-b.json"], 0)]
CASES = REPORT + DIFF + COMPARE + STAT + REGIONS


def version():
    """hwprof's version, which the expected files write @VERSION@."""
    p = run([HWPROF, "--version"])
    return p.stdout.split()[-1] if p.returncode == 0 and p.stdout.split() else None


VERSION = version()


def rounded(v):
    if isinstance(v, float):
        return float(f"{v:.12g}")
    if isinstance(v, list):
        return [rounded(x) for x in v]
    if isinstance(v, dict):
        return {k: rounded(x) for k, x in v.items()}
    return v


def as_json(text):
    """JSON text as the expected files keep it: parsed, numbers rounded,
    written again, one member a line."""
    return json.dumps(rounded(json.loads(text)), indent=1, ensure_ascii=False) + "\n"


def produce(name, args, where, env):
    """(exit status, the output as its expected file keeps it) of one case,
    run in WHERE (a copy of the inputs) with ENV."""
    if args[0] == "render-result":
        p = run([RENDER_RESULT, *args[1:]], cwd=where, env=env)
    else:
        p = hwprof(*args, cwd=where, env=env)
    out = p.stdout
    if name.endswith(".pprof.json"):
        with open(os.path.join(where, "out.pb.gz"), "rb") as f:
            out = json.dumps(profileproto.decode(gzip.decompress(f.read())))
    if name.endswith(".json") and p.returncode == 0:
        try:
            out = as_json(out)
        except ValueError as e:
            out = f"(not JSON: {e})\n{out}"
    if p.stderr:
        out += "# standard error:\n" + p.stderr
    if VERSION:
        out = out.replace(f"hwprof {VERSION}", "hwprof @VERSION@")
    return p.returncode, out


def inputs_copy(parent, name):
    where = os.path.join(parent, name)
    shutil.copytree(INPUT, where)
    return where


def environment(**more):
    env = dict(os.environ)
    for k in ("LANG", "LANGUAGE", "LC_ALL", "LC_NUMERIC", "LC_TIME", "TZ", "DEBUGINFOD_URLS"):
        env.pop(k, None)
    env.update(more)
    return env


def render_elsewhere(tmp):
    """Every case's output, made by this script again (--render) as if on
    another machine: from another directory, with another home, time zone
    and locale, on one CPU, and under another host name where a UTS
    namespace can be made (root and unshare(1)). {name: [status, output]}."""
    there = inputs_copy(os.path.join(tmp, "another", "machine"), "elsewhere")
    env = environment(TZ="Pacific/Chatham", LANG="de_DE.UTF-8", LC_ALL="de_DE.UTF-8",
                      HOME=there)
    cmd = ["python3", os.path.abspath(__file__), "--render", there, os.path.join(tmp, "there")]
    if os.geteuid() == 0 and shutil.which("unshare") and run(
            ["unshare", "--uts", "true"]).returncode == 0:
        cmd = ["unshare", "--uts", "sh", "-c", 'hostname golden-elsewhere && exec "$@"', "sh",
               *cmd]
    else:
        note("no UTS namespace here (root and unshare(1)): the host name stays this one's")
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", "0", *cmd]
    p = run(cmd, cwd=there, env=env, timeout=600)
    if not check(p.returncode == 0, f"rendering elsewhere: {p.stderr[-2000:]}"):
        return {}
    with open(os.path.join(tmp, "there")) as f:
        return json.load(f)


def compare(name, args, status, here, there):
    """One case: the output here matches the expected file (or becomes it),
    and the output from elsewhere is the same."""
    rc, out = produce(name, args, here, environment(TZ="UTC", LC_ALL="C"))
    check(rc == status, f"{' '.join(args)}: exit status {rc}, not {status}:\n{out[-1500:]}")
    if name in there and there[name] != [rc, out]:
        diff = difflib.unified_diff(out.splitlines(), there[name][1].splitlines(), "here",
                                    "elsewhere", lineterm="", n=2)
        check(False, f"{' '.join(args)}: the output depends on the machine (status {rc} "
              f"here, {there[name][0]} elsewhere):\n" + "\n".join(list(diff)[:60]))
    path = os.path.join(EXPECTED, name)
    if UPDATE:
        with open(path, "w") as f:
            f.write(out)
        note(f"updated {os.path.relpath(path, SRC)}")
        check(True, "updated")
        return
    try:
        with open(path) as f:
            want = f.read()
    except FileNotFoundError:
        check(False, f"{os.path.relpath(path, SRC)} is missing: make golden-update writes it")
        return
    diff = list(difflib.unified_diff(want.splitlines(), out.splitlines(),
                                     f"expected/{name}", f"{' '.join(args)}", lineterm=""))
    check(not diff, f"the output differs from tests/golden/expected/{name} "
          "(an intended change: make golden-update, and commit the diff):\n" + "\n".join(diff))


def no_stale_files():
    """Every expected file belongs to a case (update mode removes the others)."""
    names = {c[0] for c in CASES}
    stale = sorted(set(os.listdir(EXPECTED)) - names)
    if UPDATE:
        for s in stale:
            os.remove(os.path.join(EXPECTED, s))
            note(f"removed tests/golden/expected/{s}")
        stale = []
    check(not stale, f"expected files of no case: {stale}")


def inputs_are_generated(tmp):
    """The committed inputs are what tests/golden/make-inputs.py writes."""
    out = os.path.join(tmp, "generated")
    p = run(["python3", os.path.join(GOLDEN, "make-inputs.py"), out])
    if not check(p.returncode == 0, f"make-inputs.py: {p.stderr}"):
        return
    for name in sorted(os.listdir(INPUT)):
        with open(os.path.join(INPUT, name), "rb") as a, \
                open(os.path.join(out, name), "rb") as b:
            check(a.read() == b.read(), f"input/{name} is not what make-inputs.py writes: "
                  "run it and commit what it wrote")
    check(sorted(os.listdir(out)) == sorted(os.listdir(INPUT)),
          f"inputs: {sorted(os.listdir(INPUT))}, generated: {sorted(os.listdir(out))}")


def render(where, out):
    """--render WHERE OUT: every case's output, made in WHERE, into OUT (JSON)."""
    outputs = {name: produce(name, args, where, dict(os.environ)) for name, args, _ in CASES}
    with open(out, "w") as f:
        json.dump(outputs, f)
    os._exit(0)     # not the TAP harness's plan: this run is the parent's tool


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--render":
        render(sys.argv[2], sys.argv[3])
    if not HAVE_LIBDW:
        skip("hwprof was built without libdw (-Dlibdw=disabled): its reports name modules "
             "differently")
    if WRAPPER and UPDATE:
        skip("HWPROF_GOLDEN_UPDATE=1 under valgrind: update with a plain build")
    os.makedirs(EXPECTED, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="hwprof-golden.") as tmp:
        here = inputs_copy(tmp, "golden")
        case(inputs_are_generated, tmp, name="inputs are generated")
        there = case(render_elsewhere, tmp, name="rendered elsewhere") or {}
        for name, args, status in CASES:
            case(compare, name, args, status, here, there, name=name)
        case(no_stale_files, name="no stale expected files")
    done()


main()
