#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""report --sort comm, --sort pid and keys combined with sym or dso
(comm,sym, pid,dso...), as perf report's: a row for each distinct value of
all the keys, shares of the event's period. First a file made by hand,
where every count is known (a thread that renames itself: comm splits it,
pid names it by its last name, as perf does); then a recording of two
programs, against perf report on the same file."""
import re
import tempfile

from common import case, check, done, hwprof, report_json, run
from threads import made_by_hand, two_programs


def rows(doc, *fields):
    return {tuple(e[f] for f in fields): e["samples"] for e in doc["entries"]}


def by_hand(data):
    cases = [
        ("comm", ("comm",), {("alpha",): 12, ("beta",): 5, ("gamma",): 3}),
        ("pid", ("pid", "pid_comm"), {(100, "alpha"): 12, (200, "gamma"): 8}),
        ("comm,dso", ("comm", "dso"),
         {("alpha", "/x/alpha-bin"): 10, ("alpha", "[kernel.kallsyms]"): 2,
          ("beta", "/x/libshared.so"): 5, ("gamma", "/x/libshared.so"): 3}),
        ("dso,pid", ("pid", "dso"),
         {(100, "/x/alpha-bin"): 10, (100, "[kernel.kallsyms]"): 2,
          (200, "/x/libshared.so"): 8}),
        ("pid,sym", ("pid", "name"),
         {(100, f"alpha-bin+0x{0x100 + i:x}"): 1 for i in range(10)}
         | {(100, "[kernel.kallsyms]+0xffffffff81000100"): 2,
            (200, "libshared.so+0x100"): 5, (200, "libshared.so+0x200"): 3}),
        # beta's samples are pid 200's, named by its last name, as perf's
        ("comm,pid", ("comm", "pid", "pid_comm"),
         {("alpha", 100, "alpha"): 12, ("beta", 200, "gamma"): 5,
          ("gamma", 200, "gamma"): 3}),
    ]
    for keys, fields, want in cases:
        p, doc = report_json(data, "--top", "0", "--sort", keys)
        if not check(p.returncode == 0 and doc, f"{keys}: {p.stderr}"):
            continue
        got = rows(doc, *fields) if all(f in e for e in doc["entries"] for f in fields) else {}
        if keys == "pid,sym":   # the kernel's name depends on this machine's symbols
            got = {k: v for k, v in got.items() if k[0] != 100 or "alpha-bin" in k[1]}
            want = {k: v for k, v in want.items() if k[0] != 100 or "alpha-bin" in k[1]}
        check(got == want, f"{keys}: {got}, want {want}")
        check(doc["sort"] == keys, f"{keys}: sort {doc['sort']}")
        check(all(abs(e["percent"] - 100 * e["samples"] / 20) < 1e-9 for e in doc["entries"]),
              f"{keys}: percent of all: {doc['entries'][:2]}")


def text_and_csv(data):
    p = hwprof("report", "-i", data, "--sort", "pid")
    check(p.returncode == 0 and re.search(r"Pid:Command\n", p.stdout)
          and re.search(r"^ +60\.00% +12 +100:alpha *$", p.stdout, re.M)
          and re.search(r"^ +40\.00% +8 +200:gamma *$", p.stdout, re.M),
          f"text pid: {p.stdout}")
    p = hwprof("report", "-i", data, "--sort", "comm,dso")
    check(p.returncode == 0 and "Command  Module" in p.stdout
          and re.search(r"^ +50\.00% +10 +alpha +/x/alpha-bin$", p.stdout, re.M),
          f"text comm,dso: {p.stdout}")
    p = hwprof("report", "-i", data, "--sort", "comm,pid,dso", "-f", "csv")
    lines = p.stdout.splitlines()
    check(p.returncode == 0 and lines[0] == "percent,samples,period,comm,pid,pid_comm,dso"
          and "50.00,10,10,alpha,100,alpha,/x/alpha-bin" in lines,
          f"csv: {p.stdout} {p.stderr}")
    p = hwprof("report", "-i", data, "--sort", "comm", "-f", "csv")
    check(p.returncode == 0 and p.stdout.splitlines()[:2] == ["percent,samples,period,comm",
                                                            "60.00,12,12,alpha"],
          f"csv comm: {p.stdout}")


def refused(data):
    for args, rc, says in (
            (["--sort", "comm,rip"], 1, "'rip' does not combine with comm or pid"),
            (["--sort", "comm,sym,dso"], 1, "does not combine with comm or pid"),
            (["--sort", "sym,dso"], 1, "only comm and pid combine"),
            (["--sort", "comm,comm"], 2, "'comm' is given twice"),
            (["--sort", "comm,bogus"], 2, "'bogus' is not a sort key"),
            (["--sort", "pid", "-f", "folded"], 1, "written as text, csv or json only")):
        p = hwprof("report", "-i", data, *args)
        check(p.returncode == rc and says in p.stderr and not p.stdout,
              f"{args}: {p.returncode} {p.stderr} {p.stdout[:200]}")
    # a diff is by one key of sites: never another key than asked for
    for keys, rc, says in (("comm", 1, "a diff by comm is not supported"),
                           ("pid", 1, "a diff by pid is not supported"),
                           ("sym,dso", 2, "a diff is by one key")):
        p = hwprof("diff", "--sort", keys, data, data)
        check(p.returncode == rc and says in p.stderr and not p.stdout,
              f"diff {keys}: {p.returncode} {p.stderr} {p.stdout[:200]}")


def perf_rows(perf, data, keys, pattern):
    q = run([perf, "report", "-i", data, "--stdio", "--no-children", "-n", "--sort", keys])
    out = {}
    for m in re.finditer(pattern, q.stdout, re.M):
        out[m.group(2, 3) if m.lastindex == 3 else m.group(2)] = int(m.group(1))
    return out


def against_perf(d):
    """Two programs under sh: each one's samples by comm, by pid, by comm
    and module, as perf report counts them."""
    made = two_programs(d)
    if not made:
        return
    perf, data = made
    row = r"^\s+[\d.]+%\s+(\d+)\s+"
    theirs = perf_rows(perf, data, "comm", row + r"(\S+)\s*$")
    p, doc = report_json(data, "--top", "0", "--sort", "comm")
    ours = rows(doc, "comm") if doc else {}
    check(len(theirs) >= 2 and {k[0]: v for k, v in ours.items()} == theirs,
          f"comm: {ours} {theirs} {p.stderr}")
    theirs = perf_rows(perf, data, "pid", row + r"(\d+):(\S+)\s*$")
    p, doc = report_json(data, "--top", "0", "--sort", "pid")
    ours = {(str(k[0]), k[1]): v
            for k, v in (rows(doc, "pid", "pid_comm") if doc else {}).items()}
    check(len(theirs) >= 2 and ours == theirs, f"pid: {ours} {theirs} {p.stderr}")
    theirs = perf_rows(perf, data, "comm,dso", row + r"(\S+)\s+(\S+)\s*$")
    p, doc = report_json(data, "--top", "0", "--sort", "comm,dso")
    ours = {(c, m.rsplit("/", 1)[-1]): v
            for (c, m), v in (rows(doc, "comm", "dso") if doc else {}).items()}
    check(len(theirs) >= 3 and ours == theirs, f"comm,dso: {ours} {theirs} {p.stderr}")


with tempfile.TemporaryDirectory() as tmp:
    HAND = made_by_hand(tmp)
    case(by_hand, HAND, name="by hand: rows of each key and combination")
    case(text_and_csv, HAND, name="by hand: text and csv columns")
    case(refused, HAND, name="by hand: keys that do not combine, formats without rows")
    case(against_perf, tmp, name="a recording of two programs, against perf report")
done()
