#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof record's behaviour as a wrapper: the command's exit status, Ctrl-C
(a complete file all the same), -p and -a targets, usage errors, and the
help text. Signals are sent once the command says it is ready."""
import os
import signal
import struct
import subprocess
import tempfile
import time

from common import (HAVE_LIBDW, HWPROF, WORKLOAD, WRAPPER, case, check, done, hwprof,
                    report_json, skip)

WORKLOAD_PATH = os.path.realpath(WORKLOAD)


def no_temporaries(d):
    return not [n for n in os.listdir(d) if ".tmp." in n]


def exit_statuses(d):
    out = os.path.join(d, "st.data")
    p = hwprof("record", "-o", out, "--", WORKLOAD, "exit", "3")
    check(p.returncode == 3, f"the command's status passes through: {p.returncode} {p.stderr}")
    p = hwprof("record", "-o", out, "--", WORKLOAD, "kill", "15")
    check(p.returncode == 143, f"killed by SIGTERM: {p.returncode}")
    p = hwprof("record", "-o", out, "--", "/nonexistent/command")
    check(p.returncode == 127 and "cannot run" in p.stderr, f"not found: {p.returncode} {p.stderr}")
    p = hwprof("record", "-o", os.path.join(d, "no/such/dir/x.data"), "--", WORKLOAD, "exit", "0")
    check(p.returncode == 1 and "its directory does not exist" in p.stderr,
          f"output in a missing directory: {p.returncode} {p.stderr}")
    # -o -: perf's pipe format on standard output; the status passes through
    p = subprocess.run([*WRAPPER, HWPROF, "record", "-o", "-", "--", WORKLOAD, "exit", "3"],
                       capture_output=True, timeout=60)
    check(p.returncode == 3 and p.stdout[:16] == b"PERFILE2" + struct.pack("<Q", 16),
          f"-o -: {p.returncode} {p.stdout[:16]!r} {p.stderr!r}")


def usage(d):
    for args, what in ((["record"], "no command to sample"),
                       (["record", "-F", "0", "--", "true"], "-F: '0'"),
                       (["record", "-F", "99", "-c", "1000", "--", "true"], "exclude each other"),
                       (["record", "-m", "3", "--", "true"], "power of two"),
                       (["record", "--call-graph", "lbr", "--", "true"], "fp or dwarf"),
                       (["record", "-e", "cache-mises", "--", "true"], "did you mean"),
                       (["report", "--sort", "bogus"],
                        "not a sort key: sym, rip, line, dso, cpu, comm or pid"),
                       (["report", "--format", "xml"],
                        "not text, csv, json, folded, speedscope, pprof or html"),
                       (["report", "--annotate", "f", "--format", "json"], "text only"),
                       (["report", "extra"], "unexpected argument")):
        p = hwprof(*args, cwd=d)
        check(p.returncode == 2 and what in p.stderr, f"{args}: {p.returncode} {p.stderr}")
    p = hwprof("record", "--call-graph", "dwarf,100", "-o", os.path.join(d, "x.data"), "--",
               "true")
    check(p.returncode == 2 and "multiple of 8" in p.stderr, f"dwarf,100: {p.stderr}")
    for cmd in ("record", "report"):
        a, b = hwprof(cmd, "--help"), hwprof("help", cmd)
        check(a.returncode == 0 and a.stdout == b.stdout and a.stdout.startswith("usage: hwprof " + cmd),
              f"hwprof {cmd} --help equals hwprof help {cmd}")
    p = hwprof("--help")
    check("record" in p.stdout and "report" in p.stdout, "the command list names record and report")


def interrupted(d, sig, code):
    """Ctrl-C (and SIGTERM) stop the command; the file is still complete.
    The command is ready after 0.2 s of CPU time: 800 samples at 4 kHz."""
    out = os.path.join(d, f"int-{sig}.data")
    h = subprocess.Popen([HWPROF, "record", "-g", "-o", out, "--", WORKLOAD,
                          "cpuspin", "0.2", "ready", "spin", "30"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = h.stdout.readline()
    check(line.strip() == "ready", f"the command says it is ready: {line!r}")
    t0 = time.monotonic()
    h.send_signal(sig)
    _, err = h.communicate(timeout=20)
    check(time.monotonic() - t0 < 5, "stopped promptly")
    check(h.returncode == code, f"{sig.name}: status {h.returncode}, want {code}: {err}")
    p, doc = report_json(out, "--top", "3")
    check(p.returncode == 0 and doc and doc["total_samples"] > 100,
          f"{sig.name}: the file reads: {p.stderr}")
    check(doc and doc["entries"][0]["dso"] == WORKLOAD_PATH,
          f"{sig.name}: the spinning workload is on top: {doc and doc['entries'][:1]}")
    check(no_temporaries(d), "no temporary file left")


def existing_process(d):
    """-p: the process's mappings are read from /proc, so its symbols resolve."""
    spin = subprocess.Popen([WORKLOAD, "ready", "spin", "20"], stdout=subprocess.PIPE, text=True)
    try:
        line = spin.stdout.readline()  # it runs the workload's code, mapped
        check(line.strip() == "ready", f"the process says it is ready: {line!r}")
        out = os.path.join(d, "pid.data")
        # The command says the CPU time the process had (its utime and
        # stime, in 1/100 s) as it starts and as it ends, within what is
        # recorded: 4,000 samples a second of it, on any machine, where a
        # loaded one gives the spinning process less than the second.
        cpu = f"cut -d ' ' -f 14,15 /proc/{spin.pid}/stat"
        p = hwprof("record", "-p", str(spin.pid), "-o", out, "--", "sh", "-c",
                   f"{cpu}; sleep 1; {cpu}")
        check(p.returncode == 0, f"-p: {p.returncode} {p.stderr}")
        ticks = [sum(map(int, line.split())) for line in p.stdout.splitlines()]
        if not check(len(ticks) == 2, f"the command's CPU times: {p.stdout!r}"):
            ticks = [0, 0]
        # 40 samples a tick, less one tick at each end; half of them
        least = max(1, (ticks[1] - ticks[0] - 2) * 40 // 2)
        p, doc = report_json(out, "--top", "1")
        top = doc["entries"][0] if doc and doc["entries"] else {}
        check(doc and doc["total_samples"] >= least and top.get("dso") == WORKLOAD_PATH and
              (top.get("symbol") or not HAVE_LIBDW),
              f"-p: the workload's own symbol on top, of {doc and doc['total_samples']} "
              f"samples ({least} at least, for {ticks} ticks): {top} {p.stderr}")
    finally:
        spin.kill()
        spin.wait()
    p = hwprof("record", "-p", "12ab", "-o", os.path.join(d, "x.data"), "--", "true")
    check(p.returncode == 2 and "not a process id" in p.stderr, f"bad -p: {p.stderr}")
    p = hwprof("record", "-p", "4000000", "-o", os.path.join(d, "x.data"))
    check(p.returncode == 1 and "no such process" in p.stderr, f"-p of no process: {p.stderr}")
    p = hwprof("record", "-p", "4000000", "-o", os.path.join(d, "x.data"), "--", "true")
    check(p.returncode == 1 and "process 4000000 does not exist" in p.stderr,
          f"-p of no process, with a command: {p.stderr}")


def system_wide(d):
    out = os.path.join(d, "all.data")
    p = hwprof("record", "-a", "-o", out, "--", WORKLOAD, "spin", "0.5")
    if p.returncode == 1 and "perf_event_paranoid" in p.stderr:
        skip(f"-a is not allowed here: {p.stderr.strip()}")
    check(p.returncode == 0, f"-a: {p.returncode} {p.stderr}")
    # Made once: every program of the machine is in it, whose files may
    # change before a second report (both ways, tests/cli/common.py).
    p, doc = report_json(out, "--sort", "dso", "--top", "0", both_ways=False)
    check(doc and any(e["dso"] == WORKLOAD_PATH for e in doc["entries"]),
          f"-a sees the workload: {doc and [e['dso'] for e in doc['entries']]}")


def nothing_left(d):
    check(no_temporaries(d), "no temporary file left")


with tempfile.TemporaryDirectory() as tmp:
    case(exit_statuses, tmp)
    case(usage, tmp)
    case(interrupted, tmp, signal.SIGINT, 130, name="interrupted by SIGINT")
    case(interrupted, tmp, signal.SIGTERM, 143, name="interrupted by SIGTERM")
    case(existing_process, tmp)
    case(system_wide, tmp)
    case(nothing_left, tmp)
done()
