#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report --comm, --pid, --tid and --dso, as perf report's --comms, --pids,
--tids and --dsos: comma-separated lists, a sample kept when it matches
every list given, percentages of all the event's samples (perf's default,
--percentage absolute). First a file made by hand, where every count is
known (a thread that renames itself, kernel samples, two modules); then a
recording of two programs, against perf report."""
import os
import re
import tempfile

from common import case, check, done, hwprof, report_json, run
from threads import made_by_hand, two_programs


def modules(doc):
    """module -> samples, summed over the rows."""
    out = {}
    for e in doc["entries"]:
        out[e["dso"]] = out.get(e["dso"], 0) + e["samples"]
    return out


def kept(data):
    cases = [
        (["--comm", "alpha"], {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--comm", "beta"], {"/x/libshared.so": 5}),
        (["--comm", "gamma"], {"/x/libshared.so": 3}),
        (["--comms", "beta,gamma"], {"/x/libshared.so": 8}),
        (["--pid", "200"], {"/x/libshared.so": 8}),
        (["--tid", "100,999"], {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--dso", "libshared.so"], {"/x/libshared.so": 8}),
        (["--dsos", "/x/alpha-bin,[kernel.kallsyms]"],
         {"/x/alpha-bin": 10, "[kernel.kallsyms]": 2}),
        (["--comm", "alpha", "--dso", "[kernel.kallsyms]"], {"[kernel.kallsyms]": 2}),
        (["--comm", "alpha", "--pid", "200"], {}),
        (["--comm", "nobody"], {}),
    ]
    for args, want in cases:
        p, doc = report_json(data, "--top", "0", *args)
        if not check(p.returncode == 0 and doc, f"{args}: {p.stderr}"):
            continue
        got = modules(doc)
        check(got == want, f"{args}: {got}, want {want}")
        check(doc["total_samples"] == 20 and doc["filtered_samples"] == 20 - sum(want.values()),
              f"{args}: totals {doc['total_samples']} {doc['filtered_samples']}")
        # percentages of all 20 samples, as perf's default
        check(all(abs(e["percent"] - 100 * e["samples"] / 20) < 1e-9 for e in doc["entries"]),
              f"{args}: percent of all: {doc['entries'][:2]}")


def every_format(data, d):
    p = hwprof("report", "-i", data, "--comm", "gamma", "--format", "folded")
    check(p.returncode == 0 and p.stdout == "libshared.so+0x200 3\n", f"folded: {p.stdout!r}")
    p = hwprof("report", "-i", data, "--pid", "100")
    check(p.returncode == 0 and "# 8 of them left out by --comm, --pid, --tid or --dso" in p.stdout,
          f"text says what was left out: {p.stdout[:400]}")
    out = os.path.join(d, "f.html")
    p = hwprof("report", "-i", data, "--comm", "alpha", "--format", "html", "-o", out)
    with open(out) as f:
        page = f.read() if p.returncode == 0 else ""
    check("alpha-bin" in page and "libshared" not in page, f"html: {p.stderr}")


def bad_lists(data):
    for args in (["--pid", "abc"], ["--tid", "1,,2"], ["--pid", "12x"]):
        p = hwprof("report", "-i", data, *args)
        check(p.returncode == 1 and f"'{args[1]}' is not a list of" in p.stderr and not p.stdout,
              f"{args}: {p.returncode} {p.stderr}")


def against_perf(d):
    """Two programs under sh: each one's share, as perf report gives it."""
    made = two_programs(d)
    if not made:
        return
    perf, data = made
    for args in (["--comm", "spinB"], ["--dso", "spinA,spinB"], ["--comm", "spinA,sh"]):
        p, doc = report_json(data, "--top", "0", *args)
        # perf filters its rows (hist entries) by their first sample's
        # thread: sorted by comm too, as by default, that is each sample's
        # (it leaves out the Command column when one name is asked for)
        q = run([perf, "report", "-i", data, "--stdio", "--no-children", "-n", "--sort",
                 "comm,dso,sym", args[0] + "s", args[1]])
        theirs = {}
        for m in re.finditer(r"^\s+[\d.]+%\s+(\d+)\s+(?:\S+\s+)?(\S+)\s+\[[.k]\] ",
                             q.stdout, re.M):
            theirs[m.group(2)] = theirs.get(m.group(2), 0) + int(m.group(1))
        # by module: of two names of one address (index, strchr), perf and
        # hwprof may pick others
        ours = {}
        for e in doc["entries"] if doc else []:
            dso = e["dso"].rsplit("/", 1)[-1]
            ours[dso] = ours.get(dso, 0) + e["samples"]
        check(ours and ours == theirs, f"{args}: {ours} {theirs}")
        check(doc and doc["total_samples"] - doc["filtered_samples"] == sum(theirs.values()),
              f"{args}: samples kept")


with tempfile.TemporaryDirectory() as tmp:
    HAND = made_by_hand(tmp)
    case(kept, HAND, name="by hand: what each filter keeps")
    case(every_format, HAND, tmp, name="by hand: filtered in every format")
    case(bad_lists, HAND, name="by hand: lists that are not ids")
    case(against_perf, tmp, name="a recording of two programs, against perf report")
done()
