#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarize meson test logs (testlog*.json, one or more): the skips with
their reasons, the failures, then one last line 'N passed, N failed[, N
skipped]' over all of them. Exits 1 on any failure."""
import json
import sys

logs = sys.argv[1:] or ["build/meson-logs/testlog.json"]
counts = {"passed": 0, "failed": 0, "skipped": 0}
failed, skipped = [], []
try:
  for log in logs:
    with open(log) as f:
        for line in f:
            t = json.loads(line)
            r = t.get("result")
            name = t.get("name")
            if r in ("OK", "EXPECTEDFAIL"):
                counts["passed"] += 1
            elif r == "SKIP":
                counts["skipped"] += 1
                out = (t.get("stdout") or "").strip().splitlines()
                skipped.append((name, out[-1] if out else "no reason given"))
            else:
                counts["failed"] += 1
                failed.append((name, r))
except OSError as e:
    print(f"no test log: {e}")
    print("0 passed, 1 failed")
    sys.exit(1)

for name, why in skipped:
    print(f"SKIP {name}: {why}")
for name, r in failed:
    print(f"FAIL {name}: {r}")
line = f"{counts['passed']} passed, {counts['failed']} failed"
if counts["skipped"]:
    line += f", {counts['skipped']} skipped"
print(line)
sys.exit(1 if counts["failed"] else 0)
