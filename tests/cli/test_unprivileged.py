#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof as an unprivileged user (nobody, through setpriv): what works
falls back and says so, and what is refused says the real cause and a fix
that would help (issue 15, items 8 and 9)."""
import atexit
import json
import os
import shutil
import tempfile

from common import (HWPROF, SETPRIV, WORKLOAD, case, check, done, run_as_nobody, skip,
                    stage_for_nobody)

SHIM = os.environ.get("PERF_SHIM")


def stage():
    """hwprof, the workload and the shim where nobody can run them."""
    global HWPROF, WORKLOAD, SHIM
    HWPROF, (WORKLOAD, SHIM) = stage_for_nobody([WORKLOAD, SHIM])


def as_nobody(*args, **kw):
    return run_as_nobody(HWPROF, *args, **kw)


def paranoid():
    with open("/proc/sys/kernel/perf_event_paranoid") as f:
        return int(f.read())


def record_falls_back():
    """record, as stat does, samples user space where the kernel may not be
    sampled, and says how to ask for that (:u)."""
    if paranoid() < 2:
        skip(f"kernel.perf_event_paranoid is {paranoid()}: nothing to fall back from")
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o777)
        out = os.path.join(d, "u.data")
        p = as_nobody("record", "-e", "cpu-clock", "-o", out, "--", WORKLOAD, "spin", "0.05")
        check(p.returncode == 0, f"record as nobody: {p.returncode}: {p.stderr}")
        check("user space only" in p.stderr and "cpu-clock:u" in p.stderr,
              f"says so, and how to ask for it: {p.stderr}")


def off_cpu_refused():
    """record --off-cpu where only user space may be sampled: the switches
    are the kernel's, so a user-space fallback would record nothing; the
    refusal says why and what would allow it, and leaves no file."""
    if paranoid() < 2:
        skip(f"kernel.perf_event_paranoid is {paranoid()}: the kernel may be sampled")
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o777)
        out = os.path.join(d, "off.data")
        p = as_nobody("record", "--off-cpu", "-o", out, "--", WORKLOAD, "spin", "0.05")
        check(p.returncode == 1, f"status {p.returncode}: {p.stderr}")
        check("off-CPU time needs samples of the kernel" in p.stderr and
              "perf_event_paranoid is" in p.stderr and "CAP_PERFMON" in p.stderr,
              p.stderr)
        check(not os.path.exists(out), "a file was left")


def another_users_process():
    """-p of another user's process: the cause is the right to trace it,
    which no perf_event_paranoid value gives; the advice says so."""
    shim = SHIM
    # Where there are no pidfds (Linux < 5.3, valgrind), the process is
    # still found, and the refusal has the same cause.
    for env in [None] + ([dict(os.environ, LD_PRELOAD=shim, HWPROF_SHIM="no-pidfd")]
                         if shim else []):
        how = "without pidfds" if env else "with pidfds"
        p = as_nobody("stat", "-e", "cs", "-p", "1", env=env)
        check(p.returncode == 1, f"{how}: status {p.returncode}: {p.stderr}")
        check("another user" in p.stderr and "CAP_PERFMON" in p.stderr, f"{how}: {p.stderr}")
        check("sysctl -w kernel.perf_event_paranoid" not in p.stderr,
              f"{how}: no advice that would not help: {p.stderr}")


def kernel_only_event():
    """An event of the kernel alone, where only user space may be counted:
    not supported, and the reason says that user space (:u) is allowed."""
    if paranoid() < 2:
        skip(f"kernel.perf_event_paranoid is {paranoid()}: the kernel may be counted")
    p = as_nobody("stat", "-e", "page-faults:k,page-faults:u", "--", "true")
    check(p.returncode == 0, f"status {p.returncode}: {p.stderr}")
    check("<not supported>" in p.stderr and "user space" in p.stderr
          and "forbids performance monitoring" not in p.stderr, p.stderr)


def setuid_command_not_counted():
    """A setuid-root program run by nobody: the kernel detaches the counters
    at its exec (its credentials change), so nothing after it is counted.
    Not a 0: <not counted>, in text, CSV and JSON, and why, and what to do
    (issue 24). The same program without the bit is counted."""
    d = tempfile.mkdtemp(prefix="hwprof-setuid.")
    atexit.register(shutil.rmtree, d, True)
    os.chmod(d, 0o755)
    suid = shutil.copy(WORKLOAD, os.path.join(d, "suid-workload"))
    plain = shutil.copy(WORKLOAD, os.path.join(d, "plain-workload"))
    os.chmod(suid, 0o4755)
    os.chmod(plain, 0o755)
    ev = "page-faults,task-clock"
    p = as_nobody("stat", "-e", ev, "--", suid, "cpuspin", "0.1", "pages", "100")
    check(p.returncode == 0, f"the command's status: {p.returncode}: {p.stderr}")
    for name in ("page-faults", "task-clock"):
        check(any("<not counted>" in line and name in line for line in p.stderr.splitlines()),
              f"{name} not counted: {p.stderr}")
    check("credentials" in p.stderr and "root" in p.stderr, f"why and what to do: {p.stderr}")
    p = as_nobody("stat", "-x", ",", "-o", "-", "-e", ev, "--", suid, "cpuspin", "0.1")
    rows = [r.split(",") for r in p.stdout.splitlines() if "," in r]
    check(len(rows) >= 2 and all(r[0] == "<not counted>" for r in rows[:2]), p.stdout)
    p = as_nobody("stat", "--json", "-o", "-", "-e", ev, "--", suid, "cpuspin", "0.1")
    try:
        doc = json.loads(p.stdout)
        values = [e["values"][0] for e in doc["events"]]
    except (ValueError, KeyError, IndexError):
        values = p.stdout
    check(values == [None, None], f"JSON values: {values}")
    p = as_nobody("stat", "-x", ",", "-o", "-", "-e", ev, "--", plain, "cpuspin", "0.1",
                  "pages", "100")
    rows = [r.split(",") for r in p.stdout.splitlines() if "," in r]
    check(p.returncode == 0 and len(rows) >= 2 and float(rows[0][0]) >= 100 and
          float(rows[1][0]) >= 50, f"without the bit: {p.stdout} {p.stderr}")
    check("credentials" not in p.stderr, p.stderr)


if not SETPRIV or os.geteuid() != 0:
    case(skip, "becoming another user needs root and setpriv(1)", name="unprivileged")
else:
    stage()
    for fn in (record_falls_back, off_cpu_refused, another_users_process,
               kernel_only_event, setuid_command_not_counted):
        case(fn)
done()
