#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report --sort sym, as it chooses (--threads 0: two threads where
the load average leaves a CPU idle), by two threads (--threads 2) and by
one (--threads 1), against perf report --stdio --no-children --sort sym,
on one big perf.data file with call chains: rounds of the four in turn, each timed by /usr/bin/time (wall, user + system CPU, maximum RSS),
with the load average before each round. The ratios are hwprof's over
perf's of the same round. Issue 11's goal: <= 0.1 of perf's wall time,
every round.

Usage: bench/report-at-scale.py BUILD_DIR FILE [ROUNDS]
FILE is made by bench/perf-data-repeat.py (BENCHMARKS.md: "A report at
scale"); the page cache should hold it (a first round of each warms it).
"""
import os
import subprocess
import sys
import tempfile


def timed(argv):
    """(wall s, CPU s, max RSS KB) of one run of ARGV, its output dropped."""
    with tempfile.NamedTemporaryFile("r") as t:
        p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%e %U %S %M", *argv],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            sys.exit(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr[-2000:]}")
        wall, user, sys_, rss = t.read().split()[-4:]
    return float(wall), float(user) + float(sys_), int(rss)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, path = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    hwprof = os.path.join(build, "cli", "hwprof")
    runs = {
        "hwprof": [hwprof, "report", "-i", path, "--sort", "sym"],
        "hwprof-2": [hwprof, "report", "-i", path, "--sort", "sym", "--threads", "2"],
        "hwprof-1": [hwprof, "report", "-i", path, "--sort", "sym", "--threads", "1"],
        "perf": ["perf", "report", "--stdio", "--no-children", "--sort", "sym", "-i", path],
    }
    same = [subprocess.run(runs[k], capture_output=True).stdout for k in ("hwprof-2", "hwprof-1")]
    print(f"# {path}: {os.path.getsize(path) / 1e9:.2f} GB; {os.cpu_count()} CPUs; "
          f"the reports of two threads and one {'are' if same[0] == same[1] else 'ARE NOT'} "
          "byte-identical")
    for k in runs:      # the page cache warm for each
        timed(runs[k])
    print("| round | load (1 min) | hwprof wall, CPU | --threads 2 | --threads 1 | perf "
          "| ratio wall (2; 1) | ratio CPU (2; 1) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    worst = 0.0
    for r in range(rounds):
        load = os.getloadavg()[0]
        t = {k: timed(v) for k, v in runs.items()}
        ratio = t["hwprof"][0] / t["perf"][0]
        worst = max(worst, ratio)
        w = {k: t[k][0] / t["perf"][0] for k in ("hwprof-2", "hwprof-1")}
        c = {k: t[k][1] / t["perf"][1] for k in ("hwprof", "hwprof-2", "hwprof-1")}
        cells = " | ".join(f"{t[k][0]:.2f} s, {t[k][1]:.2f} s" for k in runs)
        print(f"| {r + 1} | {load:.1f} | {cells} | **{ratio:.3f}** ({w['hwprof-2']:.3f}; "
              f"{w['hwprof-1']:.3f}) | {c['hwprof']:.3f} ({c['hwprof-2']:.3f}; "
              f"{c['hwprof-1']:.3f}) |")
    print(f"# max. RSS of the last round: hwprof {t['hwprof'][2]:,} KB, --threads 2 "
          f"{t['hwprof-2'][2]:,} KB, --threads 1 {t['hwprof-1'][2]:,} KB, perf "
          f"{t['perf'][2]:,} KB; "
          f"the worst round's wall ratio {worst:.3f} (goal <= 0.1)")


if __name__ == "__main__":
    main()
