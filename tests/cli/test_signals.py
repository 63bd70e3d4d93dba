#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Ctrl-C, SIGTERM and SIGHUP during hwprof stat and record: the command is
stopped, what was counted is printed, and an output file is complete. A
closed terminal (a hangup) stops hwprof record too, and leaves neither a
temporary file nor the command running."""
import fcntl
import json
import os
import signal
import subprocess
import tempfile
import termios
import time

from common import HWPROF, WORKLOAD, case, check, done, event, report_json, under_valgrind

under_valgrind("the signals are sent at set times after the start")


def stat_stopped(d, sig, code):
    out = os.path.join(d, f"out-{sig}.json")
    h = subprocess.Popen([HWPROF, "stat", "--json", "-o", out, "-e", "page-faults", "--",
                          WORKLOAD, "pages", "2000", "sleep", "30"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    t0 = time.monotonic()
    h.send_signal(sig)  # to hwprof alone, as kill(1) does: it forwards
    _, err = h.communicate(timeout=20)
    check(time.monotonic() - t0 < 5, "stopped promptly")
    check(h.returncode == code, f"{sig.name}: status {h.returncode}, want {code}: {err}")
    with open(out) as f:
        doc = json.load(f)
    check(event(doc, "page-faults")["count"] >= 2000, f"{sig.name}: counts kept")
    check(doc["exit_status"] == code, f"exit status in the file: {doc['exit_status']}")
    check(not [n for n in os.listdir(d) if ".tmp." in n], "no temporary file left")


def repeat_interrupted():
    """-r 100 interrupted: the runs done are reported, no more are started."""
    h = subprocess.Popen([HWPROF, "stat", "-r", "100", "--json", "-o", "-", "-e", "page-faults",
                          "--", WORKLOAD, "sleep", "0.1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.65)
    h.send_signal(signal.SIGINT)
    out, err = h.communicate(timeout=20)
    doc = json.loads(out) if out.strip() else None
    check(doc is not None and 1 <= doc["runs"] < 100, f"runs before the stop: {doc and doc['runs']}")


def second_signal_kills():
    """A command that ignores SIGTERM: a second signal kills it."""
    h = subprocess.Popen([HWPROF, "stat", "-e", "cs", "--", "sh", "-c",
                          "trap '' TERM; while :; do sleep 0.05; done"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.4)
    h.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    h.send_signal(signal.SIGTERM)
    _, err = h.communicate(timeout=20)
    check(h.returncode == 137, f"second signal: SIGKILL, status {h.returncode}")
    check("Performance counter stats" in err, "counts still printed")


def children(pid):
    """The processes whose parent is PID."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(name))
    return found


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


def record_hangup(d, how):
    """hwprof record of a spinning command, then a hangup: SIGHUP sent to
    hwprof alone ("kill"), or its terminal closed ("tty"), where hwprof is
    the session's leader, which alone gets the kernel's SIGHUP."""
    out = os.path.join(d, f"hup-{how}.data")
    master, slave = os.openpty()

    def take_terminal():
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    h = subprocess.Popen([HWPROF, "record", "-e", "cpu-clock", "-o", out, "--", WORKLOAD,
                          "spin", "30"], stdin=slave, stdout=slave, stderr=subprocess.PIPE,
                         text=True, start_new_session=True, preexec_fn=take_terminal)
    os.close(slave)
    time.sleep(1.0)
    command = children(h.pid)
    if how == "tty":
        os.close(master)
    else:
        h.send_signal(signal.SIGHUP)
    try:
        _, err = h.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        err = "hwprof did not stop"
    left = [pid for pid in command if alive(pid)]
    for pid in left + [h.pid]:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    h.wait()
    if how != "tty":
        os.close(master)
    check(len(command) == 1, f"{how}: the command ran under hwprof: {command}")
    check(not left, f"{how}: the command was left running: {left}")
    check(h.returncode == 129, f"{how}: status {h.returncode}, want 129: {err}")
    p, doc = report_json(out, "--top", "1")
    check(p.returncode == 0 and doc and doc["total_samples"] > 100,
          f"{how}: the file reads: {p.stderr}")
    check(not [n for n in os.listdir(d) if ".tmp." in n], f"{how}: no temporary file left")


with tempfile.TemporaryDirectory() as tmp:
    for s, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        case(stat_stopped, tmp, s, status, name=f"stat stopped by {s.name}")
    case(repeat_interrupted)
    case(second_signal_kills)
    case(record_hangup, tmp, "kill", name="record: SIGHUP")
    case(record_hangup, tmp, "tty", name="record: its terminal closed")
done()
