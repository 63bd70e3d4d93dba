#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof stat -p, -a and -C against running processes and CPUs."""
import os
import signal
import subprocess
import time

from common import HWPROF, WORKLOAD, WRAPPER, check, done, event, ncpus, stat_json

# -p PID -- CMD: count an existing process (all its threads) while CMD runs.
srv = subprocess.Popen([WORKLOAD, "serve", "200", "20"], stdout=subprocess.PIPE, text=True)
try:
    check(srv.stdout.readline().strip() == "ready", "workload serving")
    p, doc = stat_json("-p", str(srv.pid), "-e", "page-faults,task-clock", "--", "sleep", "0.5")
    check(p.returncode == 0, p.stderr)
    if doc:
        n = event(doc, "page-faults")["count"]
        # 200 pages every ~20 ms for 0.5 s: about 20 rounds.
        check(1000 <= n <= 6000, f"page faults of pid {srv.pid} over 0.5 s: {n}")
        check(doc["target"] == f"process id {srv.pid}", f"target {doc['target']}")
        check(0.45 < doc["seconds"]["values"][0] < 2, "timed by the command")

    # -p without a command: until Ctrl-C (here SIGINT from outside).
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "-p", str(srv.pid), "-e", "page-faults", "--json",
                          "-o", "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3 if WRAPPER else 0.4)  # valgrind starts slowly
    h.send_signal(signal.SIGINT)
    out, err = h.communicate(timeout=20)
    check(h.returncode == 0, f"status {h.returncode}: {err}")
    import json
    doc = json.loads(out) if out else None
    check(doc and event(doc, "page-faults")["count"] > 0, "counted until SIGINT")
    check(srv.poll() is None, "the counted process was not disturbed")
finally:
    srv.kill()
    srv.wait()

# -p of a process that exits: counting ends with it.
delay = "3" if WRAPPER else "0.3"  # hwprof must attach before the pages are touched
short = subprocess.Popen([WORKLOAD, "sleep", delay, "pages", "3000", "sleep", "0.2"])
p, doc = stat_json("-p", str(short.pid), "-e", "page-faults")
short.wait()
check(p.returncode == 0, p.stderr)
if doc:
    check(event(doc, "page-faults")["count"] >= 3000, f"until it exited: {doc['events']}")

# -p of nothing.
p, doc = stat_json("-p", "999999", "-e", "page-faults", "--", "true")
check(p.returncode == 1 and "999999" in p.stderr and "does not exist" in p.stderr, p.stderr)

# -a: every CPU, while the command runs.
p, doc = stat_json("-a", "-e", "context-switches,cpu-migrations", "--",
                   WORKLOAD, "pingpong", "1000")
if "perf_event_paranoid" in p.stderr:
    print("note: system-wide counting is not allowed here")
else:
    check(p.returncode == 0, p.stderr)
    if doc:
        check(event(doc, "context-switches")["count"] >= 2000, "system wide: >= 2K switches")
        check(doc["target"] == "system wide", doc["target"])
    # -C 0: the ping-pong is pinned to CPU 0.
    p, doc = stat_json("-C", "0", "-e", "context-switches", "--", WORKLOAD, "pingpong", "1000")
    check(p.returncode == 0, p.stderr)
    if doc:
        check(event(doc, "context-switches")["count"] >= 2000, "CPU 0 >= 2K switches")
        check(doc["target"] == "CPUs 0", doc["target"])
    if ncpus() >= 2:
        p, doc = stat_json("-C", "1", "-e", "context-switches", "--", WORKLOAD, "pingpong", "1000")
        if doc:
            check(event(doc, "context-switches")["count"] < 1000,
                  f"CPU 1 does not see CPU 0's ping-pong: {event(doc, 'context-switches')}")
    p, doc = stat_json("-C", "4095", "-e", "cs", "--", "true")
    check(p.returncode == 1 and "not online" in p.stderr, f"no such CPU: {p.stderr}")
    p, doc = stat_json("-C", "0-x", "-e", "cs", "--", "true")
    check(p.returncode == 2 and "position" in p.stderr, f"bad CPU list: {p.stderr}")
done()
