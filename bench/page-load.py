#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Load an HTML flame graph (report --format html) in headless Chromium,
RUNS times, and print the medians of the page's own times under
#selftest: its script starting (the file read and parsed up to it) and
the graph drawn, since the page was asked for.
Usage: page-load.py RUNS PAGE.html"""
import html
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile


def load(page):
    with tempfile.TemporaryDirectory() as profile:
        cmd = ["chromium", "--headless", "--disable-gpu", "--window-size=1280,800",
               f"--user-data-dir={profile}", "--dump-dom", f"file://{page}#selftest"]
        if os.geteuid() == 0:
            cmd.insert(1, "--no-sandbox")
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout
    m = re.search(r'<pre id="selftest"[^>]*>(.*?)</pre>', out, re.S)
    doc = json.loads(html.unescape(m.group(1)))
    if not doc.get("ok"):
        sys.exit(f"the page's self-test failed: {doc}")
    return doc["timing"]["script_ms"], doc["timing"]["ready_ms"], doc["events"][0]["drawn"]


runs, page = int(sys.argv[1]), os.path.abspath(sys.argv[2])
times = [load(page) for _ in range(runs)]
print(f"{os.path.getsize(page) / 1e6:8.2f} MB  script at {statistics.median(t[0] for t in times):6.0f} ms"
      f"  drawn at {statistics.median(t[1] for t in times):6.0f} ms  ({times[0][2]} frames drawn;"
      f" median of {runs} loads)  {os.path.basename(page)}")
