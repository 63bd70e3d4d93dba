#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof stat -p, -a and -C against running processes and CPUs."""
import json
import os
import signal
import subprocess
import time

from common import (HWPROF, WORKLOAD, WRAPPER, TestCgroup, case, check, done, event, ncpus,
                    skip, stat_json, wait_attached)


def faults_of(pid):
    """The page faults process @pid has taken (minor and major), as
    /proc/PID/stat says."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[7]) + int(fields[9])


def process_while_a_command_runs(srv, line):
    """-p PID -- CMD: count an existing process (all its threads) while CMD runs."""
    check(line.strip() == "ready", f"workload serving: {line!r}")
    before = faults_of(srv.pid)
    p, doc = stat_json("-p", str(srv.pid), "-e", "page-faults,task-clock", "--", "sleep", "0.5")
    during = faults_of(srv.pid) - before
    check(p.returncode == 0, p.stderr)
    if check(doc, "a JSON document"):
        n = event(doc, "page-faults")["count"]
        # 200 pages every ~20 ms for 0.5 s: about 20 rounds; at most the
        # pid's own faults while hwprof ran (not 6,000: 4,600 in one run
        # under valgrind, whose slower hwprof counts a little longer).
        check(1000 <= n <= during,
              f"page faults of pid {srv.pid} over 0.5 s: {n}, {during} while hwprof ran")
        check(doc["target"] == f"process id {srv.pid}", f"target {doc['target']}")
        check(0.45 < doc["seconds"]["values"][0] < 2, "timed by the command")


def process_until_sigint(srv):
    """-p without a command: until Ctrl-C (here SIGINT from outside)."""
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "-p", str(srv.pid), "-e", "page-faults", "--json",
                          "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(wait_attached(h.pid), "hwprof attached")
    time.sleep(0.4)
    h.send_signal(signal.SIGINT)
    out, err = h.communicate(timeout=20)
    check(h.returncode == 0, f"status {h.returncode}: {err}")
    doc = json.loads(out) if out else None
    check(doc and event(doc, "page-faults")["count"] > 0, "counted until SIGINT")
    check(srv.poll() is None, "the counted process was not disturbed")


def existing_process():
    srv = subprocess.Popen([WORKLOAD, "serve", "200", "20"], stdout=subprocess.PIPE, text=True)
    try:
        case(process_while_a_command_runs, srv, srv.stdout.readline())
        case(process_until_sigint, srv)
    finally:
        srv.kill()
        srv.wait()


def process_that_exits():
    """-p of a process that exits: counting ends with it."""
    # Stopped until hwprof is attached, so that it counts the pages
    # however slowly it starts (valgrind, a loaded machine).
    short = subprocess.Popen([WORKLOAD, "sleep", "0.3", "pages", "3000", "sleep", "0.2"])
    os.kill(short.pid, signal.SIGSTOP)
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "-p", str(short.pid), "-e", "page-faults",
                          "--json", "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    check(wait_attached(h.pid), "hwprof attached")
    os.kill(short.pid, signal.SIGCONT)
    out, err = h.communicate(timeout=120)
    short.wait()
    p = subprocess.CompletedProcess(h.args, h.returncode, out, err)
    doc = json.loads(out) if out else None
    check(p.returncode == 0, p.stderr)
    if check(doc, "a JSON document"):
        check(event(doc, "page-faults")["count"] >= 3000, f"until it exited: {doc['events']}")


def no_such_process():
    p, doc = stat_json("-p", "999999", "-e", "page-faults", "--", "true")
    check(p.returncode == 1 and "999999" in p.stderr and "does not exist" in p.stderr, p.stderr)


def refused(p):
    """Skip what follows where kernel.perf_event_paranoid forbids counting CPUs."""
    if p.returncode == 1 and "perf_event_paranoid" in p.stderr:
        skip(f"counting CPUs is not allowed here: {p.stderr.strip()}")


def system_wide():
    """-a: every CPU, while the command runs."""
    p, doc = stat_json("-a", "-e", "context-switches,cpu-migrations", "--",
                       WORKLOAD, "pingpong", "1000")
    refused(p)
    check(p.returncode == 0, p.stderr)
    if check(doc, "a JSON document"):
        check(event(doc, "context-switches")["count"] >= 2000, "system wide: >= 2K switches")
        check(doc["target"] == "system wide", doc["target"])


def one_cpu():
    """-C 0: the ping-pong is pinned to CPU 0."""
    p, doc = stat_json("-C", "0", "-e", "context-switches", "--", WORKLOAD, "pingpong", "1000")
    refused(p)
    check(p.returncode == 0, p.stderr)
    if check(doc, "a JSON document"):
        check(event(doc, "context-switches")["count"] >= 2000, "CPU 0 >= 2K switches")
        check(doc["target"] == "CPUs 0", doc["target"])


def another_cpu():
    """-C 1 does not see CPU 0's ping-pong, which -C 0 sees. Counted in a
    cgroup of the command's own (-G): CPU 1's own switches at a load of
    20 (under valgrind, 6,254 in one run) are not the command's."""
    if ncpus() < 2:
        skip(f"{ncpus()} CPU here: CPU 1 is needed")
    seen = {}
    with TestCgroup() as cg:
        for cpu in ("0", "1"):
            p, doc = stat_json("-C", cpu, "-G", cg.name, "-e", "context-switches", "--",
                               *cg.enter_and_run(WORKLOAD, "pingpong", "1000"))
            refused(p)
            if check(doc, f"a JSON document: {p.stderr}"):
                seen[cpu] = event(doc, "context-switches")["count"]
    # a cgroup that never ran on a CPU is not counted there: None, not 0
    check(len(seen) == 2 and (seen["0"] or 0) >= 2000 and (seen["1"] or 0) < 1000,
          f"CPU 1 does not see CPU 0's ping-pong, CPU 0 does: {seen}")


def bad_cpus():
    p, doc = stat_json("-C", "4095", "-e", "cs", "--", "true")
    check(p.returncode == 1 and "not online" in p.stderr, f"no such CPU: {p.stderr}")
    p, doc = stat_json("-C", "0-x", "-e", "cs", "--", "true")
    check(p.returncode == 2 and "position" in p.stderr, f"bad CPU list: {p.stderr}")


existing_process()
for fn in (process_that_exits, no_such_process, system_wide, one_cpu, another_cpu, bad_cpus):
    case(fn)
done()
