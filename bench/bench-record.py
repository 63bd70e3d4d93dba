#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Recording overhead: the run time of a CPU-bound program as it measures it
itself (selftimed), alone, under hwprof record and under perf record at the
same frequency, alternating run after run; medians and slowdowns. perf's own
wall time is padded to whole seconds by its side-band thread, so the
program's own time is what compares. hwprof record --rotate 0.1 shows
what moving on to a new file ten times a second costs, and with --format
pprof, converting each file too; beside the program's time, the CPU time
of the whole run (the tool's and the program's, user + system).
Usage: bench-record.py BUILD_DIR RUNS FREQ ITERATIONS"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

build, runs, freq, iters = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
hwprof = os.path.join(build, "cli", "hwprof")
selftimed = os.path.join(build, "bench", "selftimed")
perf = shutil.which("perf")
with tempfile.TemporaryDirectory() as d:
    variants = {
        "alone": [],
        f"hwprof record -F {freq}": [hwprof, "record", "-F", freq, "-o", f"{d}/h.data", "--"],
        # A new file every 0.1 s, the two newest kept: the cost of rotating.
        f"hwprof record -F {freq} --rotate 0.1": [
            hwprof, "record", "-F", freq, "--rotate", "0.1", "--keep", "2", "--output-dir",
            f"{d}/rot", "--"],
        # The same, each finished file converted to a labelled pprof.
        f"hwprof record -F {freq} --rotate 0.1 --format pprof": [
            hwprof, "record", "-F", freq, "--rotate", "0.1", "--keep", "2", "--format",
            "pprof", "--output-dir", f"{d}/pprof", "--"],
    }
    os.mkdir(f"{d}/rot")
    os.mkdir(f"{d}/pprof")
    if perf:
        variants[f"perf record -F {freq}"] = [perf, "record", "-q", "-F", freq, "-o",
                                              f"{d}/p.data", "--"]
    times = {k: [] for k in variants}
    cpu = {k: [] for k in variants}
    for r in range(runs):
        for name, prefix in variants.items():
            out = f"{d}/{abs(hash(name))}.txt"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(prefix + [selftimed, iters, out], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime +
                             after.ru_stime - before.ru_stime)
            with open(out) as f:
                times[name].append(float(f.read().split()[-1]))
            os.unlink(out)
    base = statistics.median(times["alone"])
    cbase = statistics.median(cpu["alone"])
    print(f"# {runs} runs each, alternating; the program's own run time, median; "
          "the run's CPU time (user + system), median")
    for name, t in times.items():
        m, c = statistics.median(t), statistics.median(cpu[name])
        print(f"{m * 1e3:9.1f} ms  {100 * (m / base - 1):+6.2f}%  "
              f"{c * 1e3:9.1f} ms CPU  {100 * (c / cbase - 1):+7.2f}%  {name}")
