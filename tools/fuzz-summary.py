#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One line per libFuzzer log (a run with -print_final_stats=1): the
target, its executions and executions a second (stat::number_of_executed_units,
stat::average_exec_per_sec), the coverage it reached (cov: and ft: of its
last status line, 'DONE' when it ended normally), and how long it would
take at that speed to reach 10 million executions, the goal of each target.
The target is the log's name without '.log'; the result is 'ok', or the
input it saved on a crash, leak or timeout.
Usage: tools/fuzz-summary.py [--header] LOG...  (--header alone: the header)"""
import re
import sys

GOAL = 10_000_000
STATUS = re.compile(r"^#(\d+)\s+(\w+)\s+cov: (\d+) ft: (\d+)(?: corp: (\d+)/)?")
STAT = re.compile(r"^stat::(\w+):\s*(\d+)")
SAVED = re.compile(r"Test unit written to (\S+)")
COLUMNS = "%-10s %12s %8s %6s %7s %7s %10s  %s"


def duration(seconds):
    """A duration for people: 45s, 12m05s, 3h20m, 2d04h."""
    s = round(seconds)
    if s < 60:
        return "%ds" % s
    if s < 3600:
        return "%dm%02ds" % divmod(s, 60)
    if s < 86400:
        return "%dh%02dm" % (s // 3600, s % 3600 // 60)
    return "%dd%02dh" % (s // 86400, s % 86400 // 3600)


def summarize(path):
    stats, status, saved, done = {}, None, None, False
    with open(path, errors="replace") as log:
        for line in log:
            m = STATUS.match(line)
            if m:
                status = m
                done = m.group(2) == "DONE"
            m = STAT.match(line)
            if m:
                stats[m.group(1)] = int(m.group(2))
            m = SAVED.search(line)
            if m:
                saved = m.group(1)
    name = re.sub(r"\.log$", "", path.rsplit("/", 1)[-1])
    runs = stats.get("number_of_executed_units")
    rate = stats.get("average_exec_per_sec")
    if saved:
        result = "CRASH: " + saved
    elif runs is None:
        result = "no final stats (killed?): see " + path
    else:
        result = "ok" if done else "ok (no DONE line)"
    to_goal = "-"
    if runs is not None and runs >= GOAL:
        to_goal = "reached"
    elif rate:
        to_goal = duration(GOAL / rate)
    return COLUMNS % (name, "?" if runs is None else runs, "?" if rate is None else rate,
                      status.group(3) if status else "?", status.group(4) if status else "?",
                      status.group(5) or "?" if status else "?", to_goal, result)


def main(argv):
    header = "--header" in argv
    logs = [a for a in argv if a != "--header"]
    if header:
        print(COLUMNS % ("target", "executions", "exec/s", "cov", "ft", "corpus", "to 10M",
                         "result"))
    for log in logs:
        print(summarize(log), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
