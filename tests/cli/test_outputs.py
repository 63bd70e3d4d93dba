#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The output files of every command (stat -o, stat -I to OpenMetrics,
stat --save, compare -o, report -o, diff -o) go through the CLI's one
output-file helper: a file is written whole under its name, or not at
all, and a write that fails (past ulimit -f) leaves the file that was
there as it was, and nothing else beside it."""
import json
import os
import re
import resource
import tempfile

from common import SRC, WORKLOAD, case, check, done, hwprof, under_valgrind

# Smaller than any report, larger than nothing: every write of one fails.
LIMIT = 64
OLD = "old\n"


def limited():
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def one_helper():
    """cli/output.c is the one file of the CLI that opens, commits or drops
    an output file (the private hwpriv_ofile_*, 0.1's hwp_ofile_*): the
    others call it."""
    cli = os.path.join(SRC, "cli")
    calls = re.compile(r"\bhwp(riv)?_ofile_\w+\(")
    others = sorted(name for name in os.listdir(cli) if name.endswith(".c") and
                    name != "output.c" and
                    calls.search(open(os.path.join(cli, name)).read()))
    check(not others, f"{others} write output files themselves: use cli/output.c")
    # the pattern still finds the helper's own calls: it looks for the right name
    with open(os.path.join(cli, "output.c")) as f:
        check(calls.search(f.read()), "cli/output.c calls no ofile function: is the "
              "pattern of this test out of date?")


def inputs(d):
    """Two stat results and a recording, for compare, report and diff."""
    for name in ("a", "b"):
        p = hwprof("stat", "-e", "task-clock", "-r", "2", "--json", "-o",
                   os.path.join(d, f"{name}.json"), "--", WORKLOAD, "spin", "0.01")
        check(p.returncode == 0, f"stat --json: {p.stderr}")
    p = hwprof("record", "-e", "cpu-clock", "-o", os.path.join(d, "a.data"), "--",
               WORKLOAD, "spin", "0.05")
    check(p.returncode == 0, f"record: {p.stderr}")


def commands(d, out):
    """(what, argv) of each command that writes @out."""
    a, b, data = (os.path.join(d, n) for n in ("a.json", "b.json", "a.data"))
    return [
        ("stat -o", ["stat", "-e", "task-clock", "-o", out, "--", "true"]),
        ("stat -I openmetrics -o", ["stat", "-e", "task-clock", "-I", "100", "--format",
                                    "openmetrics", "-o", out, "--", WORKLOAD, "spin",
                                    "0.3"]),
        ("compare -o", ["compare", "-o", out, a, b]),
        ("report -o", ["report", "-i", data, "-o", out]),
        ("diff -o", ["diff", "-o", out, data, data]),
    ]


def written_whole(d):
    """Without a limit, each command's file is there, whole, and alone."""
    for what, argv in commands(d, os.path.join(d, "out", "o")):
        os.makedirs(os.path.join(d, "out"), exist_ok=True)
        p = hwprof(*argv)
        got = sorted(os.listdir(os.path.join(d, "out")))
        check(p.returncode == 0 and got == ["o"], f"{what}: {p.returncode} {got} {p.stderr}")
        text = open(os.path.join(d, "out", "o")).read() if got == ["o"] else ""
        check(len(text) > LIMIT and ("task-clock" in text or "cpu-clock" in text or
                                    "task_clock" in text),
              f"{what}: the file holds the report: {text[:200]!r}")
        if got == ["o"]:
            os.unlink(os.path.join(d, "out", "o"))


def old_kept(d):
    """A write that fails past ulimit -f: status 1, the reason said, the old
    file as it was and no temporary file left."""
    under_valgrind("its own log passes a 64-byte ulimit -f, and SIGXFSZ ends it")
    for what, argv in commands(d, os.path.join(d, "keep", "o")):
        os.makedirs(os.path.join(d, "keep"), exist_ok=True)
        with open(os.path.join(d, "keep", "o"), "w") as f:
            f.write(OLD)
        p = hwprof(*argv, preexec_fn=limited)
        check(p.returncode == 1 and "File too large" in p.stderr,
              f"{what} past ulimit -f: status {p.returncode}: {p.stderr}")
        got = sorted(os.listdir(os.path.join(d, "keep")))
        check(got == ["o"], f"{what}: the old file alone is left: {got}")
        check(open(os.path.join(d, "keep", "o")).read() == OLD, f"{what}: the old file is kept")


def save_kept(d):
    """stat --save DIR: each variant's file written whole; past ulimit -f,
    the one it could not write names its path, and the old one is kept."""
    under_valgrind("its own log passes a 64-byte ulimit -f, and SIGXFSZ ends it")
    save = os.path.join(d, "save")
    argv = ["stat", "-e", "task-clock", "-r", "2", "--save", save, "--", "true", ":::",
            "true"]
    p = hwprof(*argv)
    got = sorted(os.listdir(save)) if os.path.isdir(save) else []
    check(p.returncode == 0 and got == ["A.json", "B.json"], f"--save: {got} {p.stderr}")
    for name in got:
        with open(os.path.join(save, name)) as f:
            check(json.load(f)["runs"] == 2, f"{name}: the variant's two runs")
    with open(os.path.join(save, "A.json"), "w") as f:
        f.write(OLD)
    p = hwprof(*argv, preexec_fn=limited)
    check(p.returncode == 1 and f"--save: '{save}/A.json'" in p.stderr,
          f"--save past ulimit -f: status {p.returncode}: {p.stderr}")
    check(open(os.path.join(save, "A.json")).read() == OLD, "A.json is kept")
    check(sorted(os.listdir(save)) == ["A.json", "B.json"], f"{os.listdir(save)}")


case(one_helper)
with tempfile.TemporaryDirectory() as tmp:
    case(inputs, tmp)
    case(written_whole, tmp)
    case(old_kept, tmp)
    case(save_kept, tmp)
done()
