#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recording at a rate the kernel throttles: the throttling is reported,
by record and by report, and the file is still valid (perf reads it too).
The kernel throttles above kernel.perf_event_max_sample_rate; the test
lowers it for the recording and puts it back."""
import os
import shutil
import tempfile

from common import HWPROF, WORKLOAD, WRAPPER, check, done, run, skip

KNOB = "/proc/sys/kernel/perf_event_max_sample_rate"
if os.geteuid() != 0 or not os.access(KNOB, os.W_OK):
    skip(f"lowering {KNOB} needs root")
old = open(KNOB).read().strip()
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, "thr.data")
    try:
        with open(KNOB, "w") as f:
            f.write("1000")
        # cpu-clock every 20 us: 50,000 samples a second against 1,000.
        p = run([*WRAPPER, HWPROF, "record", "-e", "cpu-clock", "-c", "20000", "-o", out, "--",
                 WORKLOAD, "spin", "0.5"])
    finally:
        with open(KNOB, "w") as f:
            f.write(old)
    check(p.returncode == 0, p.stderr)
    check("sample rate throttled" in p.stderr and "1000 Hz" in p.stderr,
          f"record says so: {p.stderr}")
    r = run([*WRAPPER, HWPROF, "report", "-i", out, "--top", "3"])
    check(r.returncode == 0 and "sampling was throttled" in r.stdout, f"report says so: {r.stdout}")
    check("samples of event 'cpu-clock'" in r.stdout, "and reads the samples")
    if shutil.which("perf"):
        q = run(["perf", "report", "-i", out, "--stdio"])
        check(q.returncode == 0 and "Samples:" in q.stdout, f"perf reads it: {q.stderr[-300:]}")
check(open(KNOB).read().strip() == old, "the setting is back")
done()
