#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stat --per-thread of a command: each thread's row holds its own counts.

The workload's threads (tests/workload.c, tcounts) are busy at once, then
each touches a known number of fresh pages (a page fault each) and sleeps
a known number of times (a voluntary context switch each), and they end
one after the other. The kernel switches between them on a CPU: what it
does to inherited counters there must not move counts between threads or
between events. A context switch more than the sleeps is a preemption, as
many as the load makes: each thread says how many times it was switched
out in all (getrusage, on stderr), the most its row may hold."""
import os
import re
import sys

from common import WORKLOAD, case, check, done, hwprof, skip, stat_csv, stat_json

# name: (page faults, sleeps); tcI touch and sleep, the first thread
# (named after the workload) does its part once they have ended.
THREADS = {"tc1": (1000, 50), "tc2": (2000, 300), "tc3": (3000, 1000)}
FIRST = ("workload", 500, 30)
COMMAND = ["--", WORKLOAD, "tcounts", "0.15",
           ",".join(f"{p}:{s}" for p, s in THREADS.values()),
           "pages", str(FIRST[1]), "naps", str(FIRST[2]), "rusage"]
# What a thread faults beyond its pages: the program's start (the first
# thread: exec, the loader, libc), thread stacks.
FAULTS_MORE = {"workload": 300}
# What a thread may be switched out after its getrusage(): its print.
SWITCHES_AFTER = 3


def said(stderr):
    """{thread name: context switches it said it had} from the workload."""
    out = {}
    for line in stderr.splitlines():
        m = re.fullmatch(r"rusage (\S+) switches (\d+) faults (\d+)", line.strip())
        if m:
            out[m.group(1)] = int(m.group(2))
    check(sorted(out) == sorted([FIRST[0], *THREADS]), f"the threads' rusage: {stderr}")
    return out


def expected(name, ev, switches):
    """[lowest, highest] count of thread NAME (comm) for event EV."""
    pages, naps = (FIRST[1], FIRST[2]) if name == FIRST[0] else THREADS[name]
    if ev == "page-faults":
        return pages, pages + FAULTS_MORE.get(name, 50) - 1
    return naps, switches.get(name, naps) + SWITCHES_AFTER


def split_unit(unit):
    m = re.fullmatch(r"(.+)-(\d+)", unit)
    return (m.group(1), int(m.group(2))) if m else (unit, None)


def check_rows(rows, events, switches, what):
    """ROWS: {(unit, event): value}. Every thread once, with its own tid,
    for each event; each count its own."""
    units = sorted({u for u, _ in rows})
    names = sorted(split_unit(u)[0] for u in units)
    tids = [split_unit(u)[1] for u in units]
    ok = check(names == sorted([FIRST[0], *THREADS]), f"{what}: one row a thread: {units}")
    ok &= check(None not in tids and len(set(tids)) == len(tids), f"{what}: tids {units}")
    for u in units:
        for ev in events:
            v = rows.get((u, ev))
            v = v if isinstance(v, (int, float)) else None if v is None else repr(v)
            num = isinstance(v, (int, float))
            if ev == "task-clock":
                ok &= check(num and 0 < v < 60e3, f"{what}: {u} {ev} = {v} msec")
                continue
            lo, hi = expected(split_unit(u)[0], ev, switches)
            ok &= check(num and lo <= v <= hi,
                        f"{what}: {u} {ev} = {v}, not in [{lo}, {hi}]")
    return ok


def csv_rows(args):
    """({(unit, event): value}, {thread: context switches it said})."""
    p, rows = stat_csv("--per-thread", *args, *COMMAND)
    check(p.returncode == 0, p.stderr)
    out = {}
    for r in rows:
        if len(r) < 4:
            continue
        check((r[0], r[3]) not in out, f"{r[0]} {r[3]} twice")
        try:
            out[(r[0], r[3])] = float(r[1])
        except ValueError:
            out[(r[0], r[3])] = r[1]
    return out, said(p.stderr)


def known_counts():
    """Three events, each its own group, on threads that the kernel
    switches between: task-clock's nanoseconds were read as page faults
    and context switches (tens of millions of them)."""
    events = ["task-clock", "page-faults", "context-switches"]
    for i in range(2):
        rows, switches = csv_rows(["-e", ",".join(events)])
        check_rows(rows, events, switches, f"run {i + 1}")


def known_counts_group():
    """A group: every member's count is the thread's, not only the
    leader's (the members had <not counted> or the leader's twice)."""
    events = ["page-faults", "context-switches", "task-clock"]
    rows, switches = csv_rows(["-e", "{page-faults,context-switches},task-clock"])
    check_rows(rows, events, switches, "a group")


def pingpong():
    """Two threads on one CPU that pass a byte back and forth K times: the
    kernel switches from one straight to the other 2K times (on main, one
    thread had 78 million page faults, the other 43 million switches).
    Each has K switches and more, few page faults, and the rows sum to
    the total."""
    k = 20000
    p, doc = stat_json("--per-thread", "-e", "task-clock,page-faults,context-switches",
                       "--", WORKLOAD, "pingpong", str(k))
    if not check(p.returncode == 0 and doc and len(doc["units"]) == 2, p.stderr):
        return
    for i, e in enumerate(doc["events"]):
        total = e["values"][0]
        vals = [u["events"][i]["values"][0] for u in doc["units"]]
        check(sum(vals) == total, f"{e['event']}: {vals} sum to {sum(vals)}, not {total}")
        if e["event"] == "context-switches":
            check(all(k <= v <= total - k for v in vals), f"context switches {vals}")
        elif e["event"] == "page-faults":
            check(all(v < 500 for v in vals), f"page faults {vals}")


def sums_to_total():
    """The rows sum to the whole command's count of the same run (JSON's
    aggregate), which is what a run without --per-thread counts too."""
    p, doc = stat_json("--per-thread", "-e", "page-faults,context-switches", *COMMAND)
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    rows = {}
    for u in doc["units"]:
        for i, e in enumerate(doc["events"]):
            rows[(u["unit"], e["event"])] = u["events"][i]["values"][0]
        check(u["unit"] == f"{u['comm']}-{u['tid']}", u["unit"])
    check_rows(rows, ["page-faults", "context-switches"], said(p.stderr), "json")
    p2, whole = stat_json("-e", "page-faults,context-switches", *COMMAND)
    check(p2.returncode == 0 and whole, p2.stderr)
    switches2 = said(p2.stderr)
    for i, e in enumerate(doc["events"]):
        total = e["values"][0]
        units = sum(u["events"][i]["values"][0] for u in doc["units"])
        check(units == total, f"{e['event']}: the rows sum to {units}, the total is {total}")
        if not whole:
            continue
        # The other run's: within the bounds of its own threads.
        other = whole["events"][i]["values"][0]
        bounds = [expected(n, e["event"], switches2) for n in [FIRST[0], *THREADS]]
        lo, hi = sum(b[0] for b in bounds), sum(b[1] for b in bounds)
        check(lo <= other <= hi and lo <= total,
              f"{e['event']}: {total} per thread, {other} without --per-thread, "
              f"which is not in [{lo}, {hi}]")


def intervals():
    """-I: each thread once, with its own tid; every interval's deltas are
    counts (never a wrapped one: 18446744073709551616); a thread's shows
    whole in the interval it ends in, and the intervals sum to its count."""
    events = ["page-faults", "context-switches"]
    p, rows = stat_csv("--per-thread", "-I", "100", "-e", ",".join(events), *COMMAND)
    check(p.returncode == 0, p.stderr)
    switches = said(p.stderr)
    series = {}
    for r in rows:
        if len(r) < 5 or not re.fullmatch(r"[0-9.]+", r[0]):
            continue
        series.setdefault((r[1], r[4]), []).append((float(r[0]), r[2]))
    sums = {}
    for (unit, ev), vals in series.items():
        times = [t for t, _ in vals]
        check(times == sorted(set(times)), f"{unit} {ev}: a row an interval: {times}")
        nums = [float(v) for _, v in vals if re.fullmatch(r"[0-9.]+", v)]
        check(all(0 <= v < 1e7 for v in nums), f"{unit} {ev}: deltas {vals}")
        name = split_unit(unit)[0]
        if name in THREADS:
            # Its first row is the interval where it ended: all of it.
            first = vals[0][1]
            lo, hi = expected(name, ev, switches)
            check(re.fullmatch(r"[0-9.]+", first) and lo <= float(first) <= hi,
                  f"{unit} {ev}: its first row {first!r}, its count is in [{lo}, {hi}]")
        sums[(unit, ev)] = sum(nums)
    check_rows(sums, events, switches, "the intervals' sums")


def pinned():
    """Pinned events (:D): the first thread's row is its known work. Its
    own copies of the events were pinned too, and a pinned counter the
    kernel cannot put on the PMU beside its per-CPU twin (a hardware
    group on a PMU with too few counters for both) goes into error
    state, where every read returns nothing: the row said <not counted>
    for a thread that ran. The shim gives such reads on any machine."""
    shim = os.environ.get("PERF_SHIM")
    if not shim:
        skip("$PERF_SHIM is not set (meson test sets it)")
    env = dict(os.environ, LD_PRELOAD=shim, HWPROF_SHIM="pinned-full")
    events = ["page-faults:D", "context-switches:D", "task-clock:D"]
    p, rows = stat_csv("--per-thread", "-e", ",".join(events), *COMMAND, env=env)
    check(p.returncode == 0, p.stderr)
    out = {(r[0], r[3].removesuffix(":D")): r[1] for r in rows if len(r) >= 4}
    for k, v in out.items():
        try:
            out[k] = float(v)
        except ValueError:
            pass
    check_rows(out, [e.removesuffix(":D") for e in events], said(p.stderr), "pinned")


def leader_not_supported():
    """A group whose leader cannot be counted (the shim makes every
    hardware counter busy, PMU or not): the group's first event that
    opened leads the first thread's own copies, and every row is its
    thread's counts."""
    shim = os.environ.get("PERF_SHIM")
    if not shim:
        skip("$PERF_SHIM is not set (meson test sets it)")
    env = dict(os.environ, LD_PRELOAD=shim, HWPROF_SHIM="ebusy")
    p, rows = stat_csv("--per-thread", "-e", "{cycles,page-faults,context-switches},task-clock",
                       *COMMAND, env=env)
    check(p.returncode == 0, p.stderr)
    out = {}
    for r in rows:
        if len(r) >= 4:
            try:
                out[(r[0], r[3])] = float(r[1])
            except ValueError:
                out[(r[0], r[3])] = r[1]
    cycles = [v for (_, ev), v in out.items() if ev == "cycles"]
    check(cycles and all(v == "<not supported>" for v in cycles), f"cycles: {cycles}")
    check_rows(out, ["page-faults", "context-switches", "task-clock"], said(p.stderr),
               "a group led by its second event")


EXEC_FROM_A_THREAD = """
import os, threading, time
def spin():
    end = time.time() + 0.2
    while time.time() < end:
        pass
for _ in range(2):
    threading.Thread(target=spin).start()
def run():
    time.sleep(0.05)
    os.execv("/bin/sh", ["sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"])
threading.Thread(target=run).start()
time.sleep(5)
"""


def exec_from_a_thread():
    """A thread other than the first calls exec and takes the first
    thread's tid: its records come under that tid. Said, with what to
    do, not a lost record blamed on the kernel nor rows that leave its
    counts out (a Go program's syscall.Exec does this)."""
    p = hwprof("stat", "--per-thread", "-e", "task-clock", "--", sys.executable, "-c",
               EXEC_FROM_A_THREAD)
    check(p.returncode != 0 and "called exec" in p.stderr and
          "without counts per thread" in p.stderr and "lost" not in p.stderr,
          f"{p.returncode}: {p.stderr}")
    p = hwprof("stat", "-e", "task-clock", "--", sys.executable, "-c", EXEC_FROM_A_THREAD)
    check(p.returncode == 0 and "task-clock" in p.stderr, f"together: {p.stderr}")


case(known_counts)
case(known_counts_group)
case(pingpong)
case(sums_to_total)
case(intervals)
case(exec_from_a_thread, name="a thread that calls exec")
case(pinned, name="pinned events")
case(leader_not_supported, name="a group whose leader is not supported")
done()
