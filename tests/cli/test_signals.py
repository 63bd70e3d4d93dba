#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Ctrl-C, SIGTERM and SIGHUP during hwprof stat and record: the command is
stopped, what was counted is printed, and an output file is complete. A
closed terminal (a hangup) stops hwprof record too, and leaves neither a
temporary file nor the command running. Each signal is sent once the
command says it is ready, never after a set time; so hwprof runs under
valgrind too (meson test --setup valgrindcli)."""
import fcntl
import json
import os
import select
import signal
import subprocess
import tempfile
import termios
import time

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, event, report_json


def ready(stream, what="ready"):
    """Wait for the line WHAT on STREAM (a pipe of text): the command is ready."""
    line = stream.readline()
    return check(line.strip() == what, f"the command says {what!r}: {line!r}")


def stat_stopped(d, sig, code):
    out = os.path.join(d, f"out-{sig}.json")
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "--json", "-o", out, "-e", "page-faults", "--",
                          WORKLOAD, "pages", "2000", "ready", "sleep", "30"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready(h.stdout)
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


def gone(pid, bound=20):
    """Whether process PID ends within BOUND seconds (a bound on waiting
    for the condition, not a timing that decides the test)."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(")")[-1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def killed(d, cmd):
    """hwprof killed outright (SIGKILL, which it cannot catch): nothing is
    left under the output's name or beside it, and the command ends too
    rather than run on as an orphan."""
    d = os.path.join(d, f"killed-{cmd}")
    os.mkdir(d)
    args = ["--json"] if cmd == "stat" else []
    h = subprocess.Popen([*WRAPPER, HWPROF, cmd, *args, "-o", os.path.join(d, "out"), "-e",
                          "page-faults", "--", "sh", "-c", f"echo $$; exec {WORKLOAD} ready sleep 30"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pid = int(h.stdout.readline())
    ready(h.stdout)
    h.kill()
    h.wait(timeout=20)
    h.stdout.close()
    if not check(gone(pid), f"the command ({pid}) ended with hwprof"):
        os.kill(pid, signal.SIGKILL)
    check(not os.listdir(d), f"nothing left behind: {os.listdir(d)}")


def repeat_interrupted(d):
    """-r 100 interrupted in its second run: the runs done are reported, no
    more are started."""
    out = os.path.join(d, "runs.json")
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "-r", "100", "--json", "-o", out, "-e", "page-faults",
                          "--", WORKLOAD, "ready", "sleep", "0.1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready(h.stdout)
    ready(h.stdout)  # the second run's: the first is done
    h.send_signal(signal.SIGINT)
    _, err = h.communicate(timeout=20)
    with open(out) as f:
        doc = json.load(f)
    check(1 <= doc["runs"] < 100, f"runs before the stop: {doc['runs']}: {err}")


def second_signal_kills():
    """A command that outlives SIGTERM (it traps it, says so, and goes on):
    a second signal kills it."""
    h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "-e", "cs", "--", "sh", "-c",
                          "trap 'echo term' TERM; echo ready; while :; do sleep 0.05; done"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ready(h.stdout)
    h.send_signal(signal.SIGTERM)
    ready(h.stdout, "term")  # hwprof passed the first on, and the command lives
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


def tty_ready(master, timeout=60):
    """Wait for "ready" on the terminal of MASTER; the timeout only bounds a
    failure."""
    seen, end = b"", time.monotonic() + timeout
    while b"ready" not in seen and time.monotonic() < end:
        if select.select([master], [], [], end - time.monotonic())[0]:
            try:
                chunk = os.read(master, 1024)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return check(b"ready" in seen, f"the command says it is ready: {seen!r}")


def record_hangup(d, how):
    """hwprof record of a spinning command, then a hangup: SIGHUP sent to
    hwprof alone ("kill"), or its terminal closed ("tty"), where hwprof is
    the session's leader, which alone gets the kernel's SIGHUP. The command
    is ready after 0.2 s of CPU time: 800 samples at 4 kHz."""
    out = os.path.join(d, f"hup-{how}.data")
    master, slave = os.openpty()

    def take_terminal():
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    h = subprocess.Popen([*WRAPPER, HWPROF, "record", "-e", "cpu-clock", "-o", out, "--", WORKLOAD,
                          "cpuspin", "0.2", "ready", "spin", "30"], stdin=slave, stdout=slave,
                         stderr=subprocess.PIPE, text=True, start_new_session=True,
                         preexec_fn=take_terminal)
    os.close(slave)
    tty_ready(master)
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


# A suite started under nohup passes its ignored SIGHUP on to hwprof, which
# then keeps it ignored, as it should (cli/signals.c): the cases below are
# of a terminal's hangup, so hwprof starts with the default action.
signal.signal(signal.SIGHUP, signal.SIG_DFL)
with tempfile.TemporaryDirectory() as tmp:
    for s, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        case(stat_stopped, tmp, s, status, name=f"stat stopped by {s.name}")
    case(repeat_interrupted, tmp)
    case(killed, tmp, "stat", name="stat killed")
    case(killed, tmp, "record", name="record killed")
    case(second_signal_kills)
    case(record_hangup, tmp, "kill", name="record: SIGHUP")
    case(record_hangup, tmp, "tty", name="record: its terminal closed")
done()
