#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Ctrl-C and SIGTERM during hwprof stat: the command is stopped, what was
counted is printed, and an output file is complete."""
import json
import os
import signal
import subprocess
import tempfile
import time

from common import HWPROF, WORKLOAD, check, done, event, under_valgrind

under_valgrind("the signals are sent at set times after the start")

with tempfile.TemporaryDirectory() as d:
    for sig, code in ((signal.SIGINT, 130), (signal.SIGTERM, 143)):
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

    # -r 100 interrupted: the runs done are reported, no more are started.
    h = subprocess.Popen([HWPROF, "stat", "-r", "100", "--json", "-o", "-", "-e", "page-faults",
                          "--", WORKLOAD, "sleep", "0.1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.65)
    h.send_signal(signal.SIGINT)
    out, err = h.communicate(timeout=20)
    doc = json.loads(out) if out.strip() else None
    check(doc is not None and 1 <= doc["runs"] < 100, f"runs before the stop: {doc and doc['runs']}")

    # A command that ignores SIGTERM: a second signal kills it.
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
done()
