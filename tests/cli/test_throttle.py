#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recording at a rate the kernel throttles: the throttling is reported,
by record and by report, and the file is still valid (perf reads it too).
The kernel throttles above kernel.perf_event_max_sample_rate; the test
lowers it for the recording and puts it back."""
import os
import shutil
import tempfile

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, run, skip

KNOB = "/proc/sys/kernel/perf_event_max_sample_rate"
if os.geteuid() != 0 or not os.access(KNOB, os.W_OK):
    skip(f"lowering {KNOB} needs root")
OLD = open(KNOB).read().strip()


def recorded_throttled(out):
    try:
        with open(KNOB, "w") as f:
            f.write("1000")
        # cpu-clock every 20 us: 50,000 samples a second against 1,000.
        p = run([*WRAPPER, HWPROF, "record", "-e", "cpu-clock", "-c", "20000", "-o", out, "--",
                 WORKLOAD, "spin", "0.5"])
    finally:
        with open(KNOB, "w") as f:
            f.write(OLD)
    check(p.returncode == 0, p.stderr)
    check("sample rate throttled" in p.stderr and "1000 Hz" in p.stderr,
          f"record says so: {p.stderr}")
    check(open(KNOB).read().strip() == OLD, "the setting is back")


def reported(out):
    r = run([*WRAPPER, HWPROF, "report", "-i", out, "--top", "3"])
    check(r.returncode == 0 and "sampling was throttled" in r.stdout, f"report says so: {r.stdout}")
    check("samples of event 'cpu-clock'" in r.stdout, "and reads the samples")


def perf_reads_it(out):
    if not shutil.which("perf"):
        skip("perf is not installed (Debian: linux-perf)")
    q = run(["perf", "report", "-i", out, "--stdio"])
    check(q.returncode == 0 and "Samples:" in q.stdout, f"perf reads it: {q.stderr[-300:]}")


with tempfile.TemporaryDirectory() as d:
    data = os.path.join(d, "thr.data")
    case(recorded_throttled, data, name="record says it was throttled")
    case(reported, data, name="report says it was throttled")
    case(perf_reads_it, data, name="perf reads the file")
done()
