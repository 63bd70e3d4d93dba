#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof record and report on a program with a known profile (hotspots.c):
70% of its time in hot(), 30% in cold() through mid(). Sampled with
cpu-clock (the default here, without a PMU), every report must find that
split, the hot instructions inside hot() with the bytes objdump shows, the
marked source lines, and the call chains main;hot and main;mid;cold."""
import csv
import io
import os
import re
import subprocess
import tempfile

from common import (HAVE_LIBDW, HOTSPOTS, case, check, done, entry, have_hw_pmu, hwprof,
                    marked_lines, report_json, run, skip)

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hotspots.c")
HOT_LINES = marked_lines(SRC, "LINE:hot")
BUMP_LINE = marked_lines(SRC, "LINE:bump").pop()
COLD_LINES = marked_lines(SRC, "LINE:cold")
BINARY = os.path.realpath(HOTSPOTS)


def symbol_ranges(binary):
    """name -> (start, end) of the functions, as nm reads them."""
    out = run(["nm", "-S", "--defined-only", binary]).stdout
    ranges = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "Tt":
            ranges[f[3]] = (int(f[0], 16), int(f[0], 16) + int(f[1], 16))
    return ranges


def objdump_bytes(binary, addr):
    """The bytes of the instruction at ADDR, as objdump decodes it."""
    out = run(["objdump", "-d", f"--start-address={addr:#x}", f"--stop-address={addr + 16:#x}",
               binary]).stdout
    m = re.search(rf"^\s*{addr:x}:\s+((?:[0-9a-f]{{2}} )+)", out, re.M)
    return m.group(1).strip() if m else None


def by_symbol(data):
    p, doc = report_json(data, "--sort", "sym", "--top", "0")
    if not check(p.returncode == 0 and doc, f"report --sort sym: {p.stderr}"):
        return None
    hot, cold = entry(doc, "hot"), entry(doc, "cold")
    if not check(hot and cold, f"hot and cold are in the report: {doc['entries'][:4]}"):
        return None
    check(doc["schema"] == "hwprof-report/1" and doc["sort"] == "sym", "schema and sort")
    check(doc["total_samples"] >= 1000, f"enough samples: {doc['total_samples']}")
    check(doc["entries"][0]["symbol"] == "hot", "hot() is the top symbol")
    check(sum(e["samples"] for e in doc["entries"]) == doc["total_samples"],
          "the entries add up to the total")
    check(abs(sum(e["percent"] for e in doc["entries"]) - 100) < 0.01, "percentages add up to 100")
    share = hot["percent"] / (hot["percent"] + cold["percent"])
    check(abs(share - 0.70) <= 0.05, f"hot:cold split {share:.3f}, want 0.70 +- 0.05")
    check(hot["percent"] + cold["percent"] >= 90, f"hot+cold {hot['percent'] + cold['percent']:.1f}%")
    check(hot["dso"] == BINARY, f"hot's module: {hot['dso']}")
    check(0 <= doc["lost_percent"] < 5 and isinstance(doc["lost_samples"], int),
          f"lost accounting: {doc['lost_samples']}")
    # Call chains: hot is called from main, cold from mid.
    check(hot["callers"] and hot["callers"][0]["symbol"] == "main" and
          hot["callers"][0]["percent"] >= 90, f"hot's callers: {hot['callers'][:3]}")
    check(cold["callers"] and cold["callers"][0]["symbol"] == "mid" and
          cold["callers"][0]["percent"] >= 90, f"cold's callers: {cold['callers'][:3]}")
    return doc


def by_rip(data):
    p, doc = report_json(data, "--sort", "rip", "--top", "8")
    if not check(p.returncode == 0 and doc, f"report --sort rip: {p.stderr}"):
        return
    ranges = symbol_ranges(BINARY)
    top = doc["entries"][0]
    check(top["symbol"] == "hot", f"the hottest instruction is in hot(): {top}")
    for e in doc["entries"]:
        if e["symbol"] not in ("hot", "cold"):
            continue
        addr = int(e["address"], 16)
        lo, hi = ranges[e["symbol"]]
        check(lo <= addr < hi, f"{e['name']} at {addr:#x} inside {e['symbol']} [{lo:#x}, {hi:#x})")
        check(e["offset"] == addr - lo, f"offset {e['offset']} of {e['name']}")
        check(e["name"] == f"{e['symbol']}+{addr - lo:#x}", f"name {e['name']}")
        check(e["bytes"] == objdump_bytes(BINARY, addr),
              f"bytes at {addr:#x}: {e['bytes']} vs objdump {objdump_bytes(BINARY, addr)}")
        check(e["disasm"] and re.match(r"^[a-z]", e["disasm"]), f"disassembly: {e['disasm']}")
        lines = HOT_LINES if e["symbol"] == "hot" else COLD_LINES
        check(e["source"] and e["source"].startswith("hotspots.c:") and e["line"] in lines,
              f"{e['name']}: source {e['source']}, want a line of {sorted(lines)}")


def by_line(data, sym):
    p, doc = report_json(data, "--sort", "line", "--top", "0")
    if not check(p.returncode == 0 and doc, f"report --sort line: {p.stderr}"):
        return
    ours = [e for e in doc["entries"] if e["file"] and e["file"].endswith("/hotspots.c")]
    top = doc["entries"][0]
    check(top["line"] in HOT_LINES and top["symbol"] == "hot",
          f"the hottest line is one of hot's {sorted(HOT_LINES)}: {top['source']}")
    for name, lines in (("hot", HOT_LINES), ("cold", COLD_LINES)):
        on_lines = sum(e["percent"] for e in ours if e["line"] in lines)
        want = entry(sym, name)["percent"]
        check(abs(on_lines - want) <= 1.0,
              f"{name}'s marked lines hold {on_lines:.2f}%, its function {want:.2f}%")
    # hot() adds through bump(), always inlined: DWARF says so on its line.
    bump = [e for e in ours if e["line"] == BUMP_LINE]
    check(bump and bump[0]["inlined"] == "bump" and bump[0]["symbol"] == "hot",
          f"line {BUMP_LINE} is bump() inlined in hot(): {bump[:1]}")
    check(all(e["inlined"] is None for e in ours if e["line"] in COLD_LINES),
          "nothing is inlined in cold()")


def by_dso(data):
    p, doc = report_json(data, "--sort", "dso")
    if check(p.returncode == 0 and doc, f"report --sort dso: {p.stderr}"):
        check(doc["entries"][0]["dso"] == BINARY and doc["entries"][0]["percent"] >= 90,
              f"top module: {doc['entries'][0]}")


def folded(data, sym):
    p = hwprof("report", "-i", data, "--format", "folded")
    if not check(p.returncode == 0, f"folded: {p.stderr}"):
        return
    stacks = {}
    for line in p.stdout.splitlines():
        stack, _, n = line.rpartition(" ")
        stacks[stack] = stacks.get(stack, 0) + int(n)
    check(sum(stacks.values()) == sym["total_samples"], "every sample is in a stack")
    for leaf, chain in (("hot", "main;hot"), ("cold", "main;mid;cold")):
        n = sum(v for k, v in stacks.items() if k == chain or k.endswith(";" + chain))
        want = entry(sym, leaf)["samples"]
        check(n >= 0.9 * want, f"{n} of {leaf}'s {want} samples have the chain {chain}")


def csv_and_text(data):
    # How many symbols and addresses a loaded machine's samples reach varies:
    # --top N gives N rows, or all there are when fewer.
    _, doc = report_json(data, "--top", "0")
    _, rips = report_json(data, "--sort", "rip", "--top", "0")
    if not check(doc and rips, "the JSON reports"):
        return
    p = hwprof("report", "-i", data, "--format", "csv", "--top", "5")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    check(rows and rows[0] == ["percent", "samples", "period", "symbol", "dso"],
          f"CSV header: {rows[:1]}")
    check(len(rows) == 1 + min(5, len(doc["entries"])) and rows[1][3] == "hot" and
          float(rows[1][0]) > 50, f"CSV rows ({len(doc['entries'])} symbols): {rows[:3]}")
    p = hwprof("report", "-i", data, "-x", ";", "--sort", "rip", "--top", "3")
    rows = list(csv.reader(io.StringIO(p.stdout), delimiter=";"))
    check(rows and rows[0][:5] == ["percent", "samples", "period", "address", "symbol"] and
          len(rows) == 1 + min(3, len(rips["entries"])) and rows[1][4].startswith("hot+0x"),
          f"-x ';' --sort rip: {rows[:2]}")
    p = hwprof("report", "-i", data)
    check(p.returncode == 0 and re.search(r"^# lost \d+ samples \(\d+\.\d\d%\)$", p.stdout, re.M),
          f"text names the lost samples: {p.stdout[:300]}")
    first = [line for line in p.stdout.splitlines() if not line.startswith("#")][0].split()
    check(first[2] == "hot" and first[0].endswith("%"), f"text's first row: {first}")


def annotate(data):
    p = hwprof("report", "-i", data, "--annotate", "hot")
    check(p.returncode == 0 and "acc += i;" in p.stdout, f"annotate shows the source: {p.stdout[:400]}")
    pct = [float(m) for m in re.findall(r"^\s+(\d+\.\d\d)%", p.stdout, re.M)]
    check(pct and abs(sum(pct) - 100) < 0.1, f"annotate's percentages add up: {sum(pct)}")
    check(re.search(r": +[0-9a-f]+:  (?:[0-9a-f]{2} )+ *[a-z]+", p.stdout),
          "annotate shows addresses, bytes and instructions")
    p = hwprof("report", "-i", data, "--annotate", "no_such_function")
    check(p.returncode == 1 and "no sample landed in a function named 'no_such_function'" in p.stderr
          and "hot" in p.stderr, f"unknown function: {p.returncode} {p.stderr}")


def recording(d, data):
    p = hwprof("record", "-g", "-o", data, "--", HOTSPOTS, "300", timeout=180)
    check(p.returncode == 0, f"record: status {p.returncode}: {p.stderr}")
    check(re.search(r"^\[ hwprof record: \d+ samples of \S+ written to ", p.stderr, re.M),
          f"record's summary: {p.stderr}")
    fallback = "cycles cannot be sampled here (no hardware PMU): sampling cpu-clock instead"
    if have_hw_pmu():
        check(fallback not in p.stderr, f"no fallback for want of a PMU, with one: {p.stderr}")
    else:
        check(fallback in p.stderr, f"the fallback is said in one line: {p.stderr}")
    check(not [n for n in os.listdir(d) if ".tmp." in n], "no temporary file left")


if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols or source lines to check")

with tempfile.TemporaryDirectory() as tmp:
    DATA = os.path.join(tmp, "hot.data")
    case(recording, tmp, DATA)
    SYM = case(by_symbol, DATA, name="by symbol")
    if SYM:
        case(by_rip, DATA, name="by instruction")
        case(by_line, DATA, SYM, name="by source line")
        case(by_dso, DATA, name="by module")
        case(folded, DATA, SYM, name="folded stacks")
        case(csv_and_text, DATA, name="CSV and text")
        case(annotate, DATA)
done()
