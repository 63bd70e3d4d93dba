# SPDX-License-Identifier: MIT
"""What the CLI tests share: running hwprof, checks that go on after a
failure, and meson's exit codes (77 = skipped, with the reason)."""
import csv
import io
import json
import os
import subprocess
import sys

HWPROF = os.environ.get("HWPROF", "build/cli/hwprof")
# "valgrind ...": every hwprof run goes through it (meson test --setup valgrindcli).
WRAPPER = os.environ.get("HWPROF_WRAPPER", "").split()
WORKLOAD = os.environ.get("WORKLOAD", "build/tests/workload")
HOTSPOTS = os.environ.get("HOTSPOTS", "build/tests/hotspots")
# Whether hwprof was built with libdw, which symbols and source lines need.
HAVE_LIBDW = os.environ.get("HWPROF_LIBDW", "1") == "1"

_checks = 0
_failures = 0


def check(cond, msg):
    global _checks, _failures
    _checks += 1
    if not cond:
        _failures += 1
        frame = sys._getframe(1)
        print(f"FAIL {os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}: {msg}")
    return cond


def done():
    print(f"{_checks} checks, {_failures} failed")
    sys.exit(1 if _failures else 0)


def skip(reason):
    print(f"SKIP: {reason}")
    sys.exit(77)


def run(args, timeout=60, **kw):
    """Run a command; returns CompletedProcess with text stdout/stderr."""
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


def hwprof(*args, **kw):
    return run([*WRAPPER, HWPROF, *args], **kw)


def under_valgrind(why):
    """Skip a test whose timing valgrind would upset, saying so."""
    if WRAPPER:
        skip(f"under {os.path.basename(WRAPPER[0])}: {why}")


def parsed_json(p):
    """(process, its stdout parsed as JSON, or None after saying why)."""
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        print(f"not JSON (status {p.returncode}): stdout={p.stdout!r} stderr={p.stderr!r}")
        return p, None


def stat_json(*args, **kw):
    """hwprof stat --json -o - ARGS; returns (process, parsed JSON or None)."""
    return parsed_json(hwprof("stat", "--json", "-o", "-", *args, **kw))


def report_json(path, *args, **kw):
    """hwprof report --format json -i PATH ARGS; returns (process, parsed JSON or None)."""
    return parsed_json(hwprof("report", "--format", "json", "-i", path, *args, **kw))


def entry(doc, symbol):
    """The entry of a report whose symbol is SYMBOL, or None."""
    return next((e for e in doc["entries"] if e["symbol"] == symbol), None)


def marked_lines(path, mark):
    """The line numbers of PATH that carry the comment mark, e.g. LINE:hot."""
    with open(path) as f:
        return {i for i, line in enumerate(f, 1) if mark in line}


def stat_csv(*args, sep=",", **kw):
    p = hwprof("stat", "-x", sep, "-o", "-", *args, **kw)
    return p, list(csv.reader(io.StringIO(p.stdout), delimiter=sep))


def event(doc, name):
    for e in doc["events"]:
        if e["event"] == name:
            return e
    return None


def metric(doc, name):
    for m in doc["metrics"]:
        if m["metric"] == name:
            return m
    return None


def have_hw_pmu():
    """What the library decides too: a PMU of type PERF_TYPE_RAW in sysfs."""
    base = "/sys/bus/event_source/devices"
    try:
        for d in os.listdir(base):
            if d.startswith("cpu_") or d.startswith("armv"):
                return True
            try:
                with open(f"{base}/{d}/type") as f:
                    if f.read().strip() == "4":
                        return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def ncpus():
    return len(os.sched_getaffinity(0))
