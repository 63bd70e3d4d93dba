#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perf.data both ways, where perf is installed: perf report reads what
hwprof record writes and finds the same top symbols with the same shares,
and hwprof report reads what perf record writes (one event, several
events, call chains) and agrees with perf report on it."""
import json
import os
import re
import tempfile

from common import (HAVE_LIBDW, HOTSPOTS, case, check, done, entry, have_hw_pmu, hwprof,
                    perf_sampler, report_json, run, skip)

if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols to compare with perf's")
perf = perf_sampler()


def perf_report(path, event=None):
    """perf report's rows of @event (default: the first): symbol -> percent."""
    p = run([perf, "report", "--stdio", "--sort", "sym", "--no-children", "-g", "none", "-i",
             path], timeout=120)
    rows = {}
    sections = re.split(r"^# Samples: .* of event '([^']*)'$", p.stdout, flags=re.M)
    for name, text in zip(sections[1::2], sections[2::2]):
        if event and name != event:
            continue
        for m in re.finditer(r"^\s+([\d.]+)%\s+\[.\]\s+(\S+)", text, re.M):
            rows.setdefault(m.group(2), float(m.group(1)))
        break
    return p, rows


def agree(path, what, *args):
    """hwprof's and perf's reports of @path have the same top two symbols
    with the same shares."""
    hp, doc = report_json(path, "--top", "0", *args)
    pp, rows = perf_report(path, args[1] if args else None)
    if not check(hp.returncode == 0 and doc and pp.returncode == 0 and rows,
                 f"{what}: both read it: {hp.stderr} {pp.stderr[-500:]}"):
        return None
    ours = [e["symbol"] for e in doc["entries"][:2]]
    theirs = sorted(rows, key=rows.get, reverse=True)[:2]
    check(ours == ["hot", "cold"] and theirs == ours, f"{what}: top symbols {ours} vs perf {theirs}")
    for sym in ("hot", "cold"):
        e = entry(doc, sym)
        check(e and sym in rows and abs(e["percent"] - rows[sym]) <= 0.5,
              f"{what}: {sym} {e and e['percent']:.2f}% vs perf {rows.get(sym)}%")
    return doc


def perf_reads_ours(d):
    ours = os.path.join(d, "hwprof.data")
    p = hwprof("record", "-g", "-o", ours, "--", HOTSPOTS, "200", timeout=120)
    check(p.returncode == 0, f"hwprof record: {p.stderr}")
    agree(ours, "hwprof's file")
    p = run([perf, "report", "--stdio", "--header-only", "-i", ours])
    check(p.returncode == 0 and "cmdline : hwprof record -g" in p.stdout and
          re.search(r"event : name = (cpu-clock|cycles)", p.stdout),
          f"perf reads hwprof's header: {p.stdout[-800:]}")


def we_read_perfs(d):
    """One event with call chains."""
    theirs = os.path.join(d, "perf.data")
    p = run([perf, "record", "-e", "cpu-clock", "-g", "-o", theirs, HOTSPOTS, "200"], timeout=120)
    if check(p.returncode == 0, f"perf record: {p.stderr}"):
        doc = agree(theirs, "perf's file")
        hot = doc and entry(doc, "hot")
        check(hot and hot["callers"] and hot["callers"][0]["symbol"] == "main",
              f"perf's call chains: hot's callers {hot and hot['callers'][:2]}")
        p = hwprof("report", "-i", theirs, "--sort", "line", "--top", "1")
        check(p.returncode == 0 and "hotspots.c:" in p.stdout, f"lines of perf's file: {p.stdout}")
        speedscope_agrees(theirs, doc)


def speedscope_agrees(path, doc):
    """speedscope of the file: each function's self weight is its period in
    the report by symbol (test_speedscope.py checks the format itself)."""
    p = hwprof("report", "-i", path, "--format", "speedscope")
    if not check(p.returncode == 0 and doc, f"speedscope of {path}: {p.stderr}"):
        return
    ss = json.loads(p.stdout)
    frames, prof = ss["shared"]["frames"], ss["profiles"][0]
    got, want = {}, {}
    for stack, weight in zip(prof["samples"], prof["weights"]):
        name = frames[stack[-1]]["name"]
        got[name] = got.get(name, 0) + weight
    for e in doc["entries"]:
        want[e["name"]] = want.get(e["name"], 0) + e["period"]
    check(got == want, f"speedscope's self weights against the report: "
          f"{sorted(set(got.items()) ^ set(want.items()))[:6]}")


def we_read_perfs_two_events(d):
    two = os.path.join(d, "perf2.data")
    p = run([perf, "record", "-e", "cpu-clock,task-clock", "-o", two, HOTSPOTS, "200"], timeout=120)
    if check(p.returncode == 0, f"perf record of two events: {p.stderr}"):
        doc = agree(two, "perf's two events, first")
        check(doc and doc["event"] == "cpu-clock" and doc["other_samples"] > 1000,
              f"the first event, and the other's samples counted apart: {doc and doc['event']}")
        doc = agree(two, "perf's two events, second", "-e", "task-clock")
        check(doc and doc["event"] == "task-clock", "-e picks the second event")
        p = hwprof("report", "-i", two, "-e", "cycles")
        check(p.returncode == 1 and "has no event 'cycles'; it has: cpu-clock, task-clock" in p.stderr,
              f"-e of an event not in the file: {p.stderr}")


def we_read_perfs_cycles(d):
    if not have_hw_pmu():
        skip("no hardware PMU: perf cannot record cycles here")
    hw = os.path.join(d, "perf-hw.data")
    p = run([perf, "record", "-e", "cycles", "-o", hw, HOTSPOTS, "200"], timeout=120)
    if check(p.returncode == 0, f"perf record -e cycles: {p.stderr}"):
        agree(hw, "perf's cycles")


with tempfile.TemporaryDirectory() as tmp:
    case(perf_reads_ours, tmp, name="perf reads hwprof's file")
    case(we_read_perfs, tmp, name="hwprof reads perf's file")
    case(we_read_perfs_two_events, tmp, name="hwprof reads perf's file of two events")
    case(we_read_perfs_cycles, tmp, name="hwprof reads perf's file of cycles")
done()
