#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Under load: a command with 500 threads and a fork-heavy command count
what perf stat counts, within a few percent; counting a process of 500
threads needs more file descriptors than the default soft limit, which
hwprof raises, and says so when it cannot."""
import csv
import io
import json
import resource
import shutil
import subprocess

from common import (HWPROF, WORKLOAD, WRAPPER, case, check, done, event, run, skip, stat_json,
                    under_valgrind)

under_valgrind("it caps the descriptor limit, and 500 threads under it take minutes")


def perf_count(ev, cmd):
    p = run(["perf", "stat", "-x", ",", "-e", ev, "--", *cmd], timeout=120)
    for r in csv.reader(io.StringIO(p.stderr)):
        if len(r) > 2 and r[2] == ev and r[0].replace(".", "").isdigit():
            return float(r[0])
    return None


# Address-space randomization moves the stacks: each run's children fault
# one page more or less, a thousand times over. Without it, the counts are
# the same run after run, for perf and for hwprof.
NORAND = ["setarch", "-R"] if shutil.which("setarch") else []
CASES = [
    ("page-faults", [*NORAND, WORKLOAD, "threads", "500", "40"], 500 * 40),
    ("page-faults", [*NORAND, WORKLOAD, "forkwait", "1000", "5"], 1000 * 5),
    ("page-faults", [*NORAND, WORKLOAD, "fork", "1000", "5"], 1000 * 5),
]
PERF = shutil.which("perf")


def counted(ev, cmd, least):
    """hwprof's count of CMD: at least LEAST; None after a failed check."""
    p, doc = stat_json("-e", ev, "--", *cmd, timeout=120)
    if not check(p.returncode == 0 and doc, f"{cmd}: {p.stderr[-300:]}"):
        return None
    ours = event(doc, ev)["count"]
    check(ours >= least, f"{cmd[1:]}: {ours} >= {least}")
    return ours


def agrees_with_perf(ev, cmd, ours):
    if not PERF:
        skip("perf is not installed (Debian: linux-perf)")
    if not check(ours is not None, "hwprof counted it (the case before)"):
        return
    theirs = perf_count(ev, cmd)
    check(theirs and abs(ours - theirs) <= 0.03 * theirs,
          f"{cmd[1:]}: hwprof {ours}, perf {theirs}")


def limit(soft, hard):
    def pre():
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return pre


def crowd_ready(line):
    return check(line.strip() == "ready", f"500 threads running: {line!r}")


def soft_limit_raised(args, line):
    """500 threads x 3 events: 1500 descriptors, over a soft limit of 1024."""
    crowd_ready(line)
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard != resource.RLIM_INFINITY and hard < 2048:
        skip(f"the hard limit is {hard}: raising past 1024 is not tried")
    p = subprocess.run(args, capture_output=True, text=True, timeout=120,
                       preexec_fn=limit(1024, hard))
    check(p.returncode == 0, f"the soft limit is raised: {p.stderr[-300:]}")
    if p.returncode == 0:
        doc = json.loads(p.stdout)
        check(event(doc, "page-faults")["count"] > 0, "500 threads counted")


def hard_limit_too_low(args, line):
    crowd_ready(line)
    p = subprocess.run(args, capture_output=True, text=True, timeout=120,
                       preexec_fn=limit(1024, 1024))
    check(p.returncode == 1 and "too many open files" in p.stderr and "ulimit -n" in p.stderr,
          f"a hard limit too low is explained: {p.stderr[-400:]}")


def descriptor_limits():
    crowd = subprocess.Popen([WORKLOAD, "crowd", "500", "20"], stdout=subprocess.PIPE, text=True)
    try:
        line = crowd.stdout.readline()
        args = [*WRAPPER, HWPROF, "stat", "--json", "-o", "-", "-p", str(crowd.pid),
                "-e", "page-faults,cs,task-clock", "--", "sleep", "0.3"]
        case(soft_limit_raised, args, line, name="a soft descriptor limit is raised")
        case(hard_limit_too_low, args, line, name="a hard descriptor limit too low is explained")
    finally:
        crowd.kill()
        crowd.wait()


for ev, cmd, least in CASES:
    what = " ".join(cmd[len(NORAND) + 1:])
    ours = case(counted, ev, cmd, least, name=f"{ev} of workload {what}")
    # Concurrent children: the parent's copy-on-write faults depend on which
    # of the two runs first; only the serial case is compared with perf.
    # (The workload starts its frames at a page boundary: perf's larger
    # environment no longer moves its stack across one; see workload.c.)
    if "fork" not in cmd:
        case(agrees_with_perf, ev, cmd, ours, name=f"{ev} of workload {what}: as perf counts")
descriptor_limits()
done()
