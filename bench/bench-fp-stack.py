#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What -g's copy of the user stack costs on x86-64 (128 bytes a sample,
for a frameless leaf's caller): a CPU-bound program that times itself
(selftimed) alone, under a build's hwprof record -g without the copy (BASE:
a build of the commit before it), under this build's -g, and under its
--call-graph dwarf for scale, alternating run after run; medians of the
program's own time, of the CPU time of the recorder and the program
together (user and system: on a loaded machine, what the wall clock
hides in waits) and of the file's bytes a sample, as ratios to BASE's.
Usage: bench-fp-stack.py BUILD_DIR BASE_BUILD_DIR RUNS FREQ ITERATIONS"""
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile

build, base, runs, freq, iters = (sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4],
                                  sys.argv[5])
selftimed = os.path.join(build, "bench", "selftimed")


def recorder(hwprof, *args):
    return [os.path.join(hwprof, "cli", "hwprof"), "record", "-e", "cpu-clock", "-F", freq,
            *args]


variants = {
    "alone": None,
    "-g, no stack copy (base)": recorder(base, "-g"),
    "-g, 128-byte stack copy": recorder(build, "-g"),
    "--call-graph dwarf (8192)": recorder(build, "--call-graph", "dwarf"),
}
times = {k: [] for k in variants}
cpu = {k: [] for k in variants}
per_sample = {k: [] for k in variants}
with tempfile.TemporaryDirectory() as d:
    for r in range(runs):
        for name, rec in variants.items():
            out, data = f"{d}/t.txt", f"{d}/r.data"
            cmd = [selftimed, iters, out]
            if rec:
                cmd = rec + ["-o", data, "--"] + cmd
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
            with open(out) as f:
                times[name].append(float(f.read().split()[-1]))
            os.unlink(out)
            if rec:
                n = int(re.search(r"(\d+) samples", p.stderr).group(1))
                per_sample[name].append(os.path.getsize(data) / max(n, 1))
                os.unlink(data)
alone = statistics.median(times["alone"])
ref = "-g, no stack copy (base)"
t_ref = statistics.median(times[ref])
c_ref = statistics.median(cpu[ref])
b_ref = statistics.median(per_sample[ref])
print(f"# {runs} runs each, alternating, -F {freq}; the program's own time, the CPU "
      "time of all, the file's bytes a sample: medians (quartiles of the own time)")
for name in variants:
    t = times[name]
    q = statistics.quantiles(t, n=4)
    line = (f"{statistics.median(t) * 1e3:9.1f} ms [{q[0] * 1e3:.1f}-{q[2] * 1e3:.1f}] "
            f"{100 * (statistics.median(t) / alone - 1):+6.2f}% of alone, "
            f"x{statistics.median(t) / t_ref:.3f} of base -g; "
            f"CPU {statistics.median(cpu[name]) * 1e3:.1f} ms, "
            f"x{statistics.median(cpu[name]) / c_ref:.3f}")
    if per_sample[name]:
        b = statistics.median(per_sample[name])
        line += f"; {b:8.1f} B/sample, x{b / b_ref:.2f} of base -g"
    print(f"{line}  {name}")
