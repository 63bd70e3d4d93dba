#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cost of recording off-CPU time: bench/switcher (two threads passing a
byte through pipes, two switches out a round trip) times its own loop,
alone, under hwprof record --off-cpu and under perf record -e
context-switches -c 1 -g --switch-events, which asks the kernel for the
same samples and records; alternating run after run; medians, slowdowns,
and what each file holds. Usage: bench-offcpu.py BUILD_DIR RUNS ROUNDS"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

build, runs, rounds = sys.argv[1], int(sys.argv[2]), sys.argv[3]
hwprof = os.path.join(build, "cli", "hwprof")
switcher = os.path.join(build, "bench", "switcher")
perf = shutil.which("perf")
with tempfile.TemporaryDirectory() as d:
    variants = {
        "alone": [],
        "hwprof record --off-cpu": [hwprof, "record", "--off-cpu", "-o", f"{d}/h.data",
                                    "--"],
    }
    if perf:
        variants["perf record -e context-switches -c 1 -g --switch-events"] = [
            perf, "record", "-q", "-e", "context-switches", "-c", "1", "-g",
            "--switch-events", "-o", f"{d}/p.data", "--"]
    times = {k: [] for k in variants}
    notes = {}
    for r in range(runs):
        for name, prefix in variants.items():
            out = f"{d}/t.txt"
            p = subprocess.run(prefix + [switcher, rounds, out], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            with open(out) as f:
                times[name].append(float(f.read().split()[-1]))
            os.unlink(out)
            if prefix:
                # what the file holds, as one reader counts it for both
                j = subprocess.run([hwprof, "report", "--format", "json", "-i",
                                    prefix[prefix.index("-o") + 1]],
                                   capture_output=True, text=True, check=True)
                doc = json.loads(j.stdout)
                n = notes.setdefault(name, [0, 0])
                n[0] += doc["total_samples"]
                n[1] += doc["lost_samples"]
    base = statistics.median(times["alone"])
    print(f"# {runs} runs each, alternating, {rounds} round trips; the program's own "
          "run time, median")
    for name, t in times.items():
        m = statistics.median(t)
        extra = (f"  ({notes[name][0]} samples written, {notes[name][1]} lost, "
                 "over all runs)") if name in notes else ""
        print(f"{m * 1e3:9.1f} ms  {100 * (m / base - 1):+7.2f}%  {name}{extra}")
    for name, path in (("hwprof", f"{d}/h.data"), ("perf", f"{d}/p.data")):
        if os.path.exists(path):
            print(f"# {name}'s last file: {os.path.getsize(path) / 1e6:.2f} MB")
