#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarize meson test logs (testlog*.json, one or more): the skips with
their reasons, a skipped test's or a skipped case's of a TAP test, the
failures with their failed cases, then one last line 'N passed, N failed[,
N skipped]' over all of them (tests, not cases). Exits 1 on any failure."""
import json
import re
import sys

TAP_CASE = re.compile(r"^(ok|not ok)\b\s*\d*\s*(?:- )?([^#]*?)\s*(?:#\s*(SKIP\S*|TODO)\b\s*(.*))?$",
                      re.I)
TAP_SKIPPED_PLAN = re.compile(r"^1\.\.0\s*#\s*SKIP\S*\s*(.*)$", re.I)


def skip_reason(out):
    """Why a test was skipped: its TAP plan's reason, else its last line."""
    for line in out:
        m = TAP_SKIPPED_PLAN.match(line)
        if m:
            return m.group(1) or "no reason given"
    return out[-1] if out else "no reason given"


def failure_lines(out, most=6, width=400):
    """What a failed test said of its failures: its '# FAIL' notes (a
    case that raised: the last line of its traceback), so that a log that
    keeps only this summary still says what went wrong."""
    said, raised = [], False
    for line in out:
        if line.startswith("#") and "FAIL" in line:
            said.append(line)
            raised = "the case raised" in line
        elif raised and line.startswith("#"):
            said[-1] = said[-1].split(":", 1)[0] + ": raised: " + line.lstrip("# ")
        else:
            raised = False
    cut = [s if len(s) <= width else s[:width] + " [...]" for s in said[:most]]
    if len(said) > most:
        cut.append(f"# ... and {len(said) - most} more")
    return cut


def tap_cases(out):
    """(result, name, directive, reason) of each case of a TAP stream."""
    if not out or not out[0].startswith("TAP version"):
        return []
    return [m.groups() for m in map(TAP_CASE.match, out) if m]


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
                out = (t.get("stdout") or "").strip().splitlines()
                cases = tap_cases(out)
                if r in ("OK", "EXPECTEDFAIL"):
                    counts["passed"] += 1
                elif r == "SKIP":
                    counts["skipped"] += 1
                    skipped.append((name, skip_reason(out)))
                    continue
                else:
                    counts["failed"] += 1
                    bad = [c[1] for c in cases if c[0].lower() == "not ok"]
                    failed.append((name, r + (f": {', '.join(bad)}" if bad else ""),
                                   failure_lines(out)))
                # Partial skips: the cases of a test that ran that could not.
                skipped += [(f"{name} / {c[1]}", c[3] or "no reason given") for c in cases
                            if c[0].lower() == "ok" and (c[2] or "").upper().startswith("SKIP")]
except OSError as e:
    print(f"no test log: {e}")
    print("0 passed, 1 failed")
    sys.exit(1)

for name, why in skipped:
    print(f"SKIP {name}: {why}")
for name, r, said in failed:
    print(f"FAIL {name}: {r}")
    for line in said:
        print(f"    {line}")
line = f"{counts['passed']} passed, {counts['failed']} failed"
if counts["skipped"]:
    line += f", {counts['skipped']} skipped"
print(line)
sys.exit(1 if counts["failed"] else 0)
