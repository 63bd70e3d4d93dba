#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the Python package costs: enter+exit of hwprof.count() and of a
hwprof.region(), against a bare Python call and the C API's (bench-read's
enable+disable+read, bench-region's begin+end), side by side in one run.
Python's rounds alternate; the C programs run between them, on the same
group {task-clock,page-faults,context-switches}. Also: what an empty
counted block counts (task-clock, ns), which is the part of the cost that
lands inside the counted interval.

    bench/bench-python.py BUILD [ROUNDS] [ITERATIONS]
"""
import os
import statistics
import subprocess
import sys
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 21
iters = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
sys.path.insert(0, os.path.join(build, "python"))
import hwprof  # noqa: E402

EVENTS = "{task-clock,page-faults,context-switches}"


def bare():
    pass


class Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def timed(fn):
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) / iters


def loop_call():
    for _ in range(iters):
        bare()


def loop_with(cm):
    def run():
        for _ in range(iters):
            with cm:
                pass
    return run


def loop_fresh():
    for _ in range(iters // 10):
        with hwprof.count(EVENTS):
            pass


kept = hwprof.count(EVENTS).open()
hwprof.region_setup(events=EVENTS)
reg = hwprof.region("bench")
cases = [("bare Python call f()", loop_call),
         ("with on a no-op context manager", loop_with(Nothing())),
         ("hwprof.count() kept open: with c", loop_with(kept)),
         ("hwprof.region(): with r", loop_with(reg))]
times = {name: [] for name, _ in cases}
fresh = []
inside = []
inside_raw = []
_lib = hwprof._count._lib
raw_sess, raw_buf = kept._sess, kept._buf
load = [os.getloadavg()[0]]
for r in range(rounds):
    for name, fn in cases:
        times[name].append(timed(fn))
    fresh.append(timed(loop_fresh) * 10)
    with kept:
        pass
    inside.append(kept.counts["task-clock"].raw)
    # The same interval with the two calls back to back and nothing of the
    # package's between them: the floor ctypes allows.
    _lib.lib.hwp_session_reset(raw_sess)
    _lib.lib.hwp_session_enable(raw_sess)
    _lib.lib.hwp_session_disable(raw_sess)
    _lib.lib.hwp_session_read(raw_sess, raw_buf, 3)
    inside_raw.append(raw_buf[0].value)
load.append(os.getloadavg()[0])


def c_bench(prog, *args):
    out = subprocess.run([os.path.join(build, "bench", prog), *map(str, args)],
                         capture_output=True, text=True, check=True).stdout
    return out


c_read = c_bench("bench-read", rounds, iters)
c_region = c_bench("bench-region", rounds, iters)
load.append(os.getloadavg()[0])


def c_line(out, label):
    for line in out.splitlines():
        if line.startswith(label):
            return float(line[len(label):].split()[0])
    return float("nan")


print(f"# {rounds} rounds of {iters}, Python's alternating; median ns per enter+exit; "
      f"events {EVENTS}")
print(f"# load average (1 min) at start, after Python, after C: "
      f"{', '.join(f'{x:.2f}' for x in load)}; {os.cpu_count()} CPUs")
for name, _ in cases:
    print(f"{name:44s} {statistics.median(times[name]):9.1f} ns")
print(f"{'hwprof.count() opened and closed each time':44s} {statistics.median(fresh):9.1f} ns")
print(f"{'C: hwp_session enable+disable+read':44s} "
      f"{c_line(c_read, 'api enable+disable+read'):9.1f} ns")
print(f"{'C: hwp_region_begin+end':44s} {c_line(c_region, 'hwprof region begin+end'):9.1f} ns")
print(f"{'inside the counted interval (task-clock of an empty with c)':60s} "
      f"{statistics.median(inside):9.0f} ns")
print(f"{'the same, enable and disable called back to back (ctypes)':60s} "
      f"{statistics.median(inside_raw):9.0f} ns")
