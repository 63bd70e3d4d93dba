#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cost of hwprof serve: 8 events on every CPU, of every task (and,
second, per cgroup for CGROUPS cgroups of --cgroup-root), scraped once a
second for SECONDS seconds; the CPU time hwprof serve used (its threads'
time on a CPU, in ns, from /proc/PID/task/*/schedstat: the clock ticks of
/proc/PID/stat are too coarse), in all and per scrape, and a scrape's size.
Usage: bench-serve.py BUILD_DIR SECONDS CGROUPS"""
import os
import re
import subprocess
import sys
import time
import urllib.request

build, seconds, nr_cgroups = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
hwprof = os.path.join(build, "cli", "hwprof")
EVENTS = ("cpu-clock,task-clock,context-switches,cpu-migrations,page-faults,minor-faults,"
          "major-faults,alignment-faults")


def cpu_seconds(pid):
    ns = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            ns += int(f.read().split()[0])
    return ns / 1e9


def measure(what, *args):
    p = subprocess.Popen([hwprof, "serve", "--listen", "127.0.0.1:0", "-e", EVENTS, *args],
                         stderr=subprocess.PIPE, text=True)
    port = int(re.search(r":(\d+)/metrics", p.stderr.readline()).group(1))
    start_cpu, size = cpu_seconds(p.pid), 0
    for _ in range(seconds):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as r:
            size = len(r.read())
        time.sleep(1)
    used = cpu_seconds(p.pid) - start_cpu
    start_cpu = cpu_seconds(p.pid)
    for _ in range(1000):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics") as r:
            r.read()
    burst = (cpu_seconds(p.pid) - start_cpu) / 1000
    p.terminate()
    p.wait()
    print(f"{what}: {used:.4f} s of CPU over {seconds} scrapes in {seconds} s "
          f"({100 * used / seconds:.2f}% of a CPU, {1000 * used / seconds:.2f} ms a scrape), "
          f"{size} bytes a scrape; 1000 scrapes back to back: {1e3 * burst:.3f} ms each")


print(f"{os.cpu_count()} CPUs, events {EVENTS}")
measure("every task")
if nr_cgroups:
    with open("/proc/self/mountinfo") as f:
        mnt = next(line.split()[4] for line in f if " - cgroup2 " in line)
    root = os.path.join(mnt, f"hwprof-bench-{os.getpid()}")
    os.mkdir(root)
    try:
        for i in range(nr_cgroups):
            os.mkdir(os.path.join(root, f"c{i}"))
        measure(f"{nr_cgroups} cgroups (--cgroup-root)", "--cgroup-root",
                os.path.basename(root))
    finally:
        for i in range(nr_cgroups):
            os.rmdir(os.path.join(root, f"c{i}"))
        os.rmdir(root)
