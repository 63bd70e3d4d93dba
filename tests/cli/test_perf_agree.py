#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where perf is installed, hwprof stat agrees with perf stat on workloads
with known counts, within a few percent."""
import csv
import io
import shutil

from common import WORKLOAD, case, check, done, event, run, skip, stat_json

perf = shutil.which("perf")
if not perf or run([perf, "stat", "-e", "page-faults", "true"]).returncode != 0:
    skip("perf is not installed (Debian: linux-perf) or cannot count here")

# Without address-space randomization (see test_load.py), page faults are
# the same from run to run.
NORAND = ["setarch", "-R"] if shutil.which("setarch") else []
CASES = [
    ("page-faults", ["pages", "20000"]),
    ("context-switches", ["pingpong", "2000"]),
    ("cpu-migrations", ["migrate", "300"]),
    ("page-faults", ["forkwait", "4", "3000"]),
    ("page-faults", ["threads", "4", "3000"]),
]

def agree(ev, work):
    pp = run([perf, "stat", "-x", ",", "-e", ev, "--", *NORAND, WORKLOAD, *work])
    rows = [r for r in csv.reader(io.StringIO(pp.stderr)) if len(r) > 2 and r[2] == ev]
    if not check(rows and rows[0][0].replace(".", "").isdigit(), f"perf: {pp.stderr}"):
        return
    theirs = float(rows[0][0])
    p, doc = stat_json("-e", ev, "--", *NORAND, WORKLOAD, *work)
    if not check(doc is not None, p.stderr):
        return
    ours = event(doc, ev)["count"]
    # Migrations and switches vary from run to run on a busy machine; the
    # workloads make them large enough that 5% (or 30 events) covers it.
    tol = max(0.05 * theirs, 30)
    check(abs(ours - theirs) <= tol, f"{ev} on {work}: hwprof {ours}, perf {theirs}")


for ev, work in CASES:
    case(agree, ev, work, name=f"{ev} of workload {' '.join(work)}")
done()
