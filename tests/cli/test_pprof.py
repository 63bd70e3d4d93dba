#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report --format pprof, checked by the consumer users run, go tool
pprof (Debian's golang-go): -top lists the functions of 'report --sort sym'
with the same flat percentages, -lines the lines of 'report --sort line',
-traces the call chains of the speedscope export (period by chain, to the
nanosecond), and pprof's own re-encoding of the file (-proto) gives the
same -top; on hwprof's files and on perf's. And by a decoder of our own,
of the wire format: string 0 is "", every id referenced exists, every
string is UTF-8, also for hand-made files of no samples, no symbols,
addresses near 2^64 and names of invalid UTF-8."""
import gzip
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import tempfile

import perfdata
from common import (GO, HAVE_LIBDW, HOTSPOTS, HWPROF, WORKLOAD, WRAPPER, case, check, done,
                    hwprof, marked_lines, note, perf_sampler, pprof, report_json, run, skip)
from profileproto import read_pprof


def check_ids(prof):
    """String 0 is "", every string index and id referenced exists, ids are
    unique and not 0, each sample has a value per sample type."""
    strs = prof["string_table"]
    if not check(strs and strs[0] == "", f"string 0 is '': {strs[:1]}"):
        return False
    ok = True

    def string(i, what):
        nonlocal ok
        if not (0 <= i < len(strs)):
            ok = check(False, f"{what}: string {i} of {len(strs)}")

    def ids(items, what):
        nonlocal ok
        got = [x.get("id", 0) for x in items]
        if 0 in got or len(set(got)) != len(got):
            ok = check(False, f"{what} ids not unique and non-zero: {got[:20]}")
        return set(got)

    for vt in prof["sample_type"] + ([prof["period_type"]] if "period_type" in prof else []):
        string(vt.get("type", 0), "value type")
        string(vt.get("unit", 0), "value unit")
    string(prof.get("default_sample_type", 0), "default sample type")
    for c in prof["comment"]:
        string(c, "comment")
    mappings, functions = ids(prof["mapping"], "mapping"), ids(prof["function"], "function")
    locations = ids(prof["location"], "location")
    for m in prof["mapping"]:
        string(m.get("filename", 0), "mapping filename")
    for f in prof["function"]:
        for k in ("name", "system_name", "filename"):
            string(f.get(k, 0), f"function {k}")
    for loc in prof["location"]:
        if loc.get("mapping_id", 0) not in mappings:
            ok = check(False, f"location {loc.get('id')}: no mapping {loc.get('mapping_id')}")
        for ln in loc["line"]:
            if ln.get("function_id", 0) not in functions:
                ok = check(False, f"location {loc.get('id')}: no function "
                                  f"{ln.get('function_id')}")
    for s in prof["sample"]:
        if not set(s["location_id"]) <= locations or not s["location_id"]:
            ok = check(False, f"a sample's locations {s['location_id']} not all defined")
        if len(s["value"]) != len(prof["sample_type"]):
            ok = check(False, f"a sample of {len(s['value'])} values, "
                              f"{len(prof['sample_type'])} types")
    return ok


def hwprof_bytes(*args):
    """hwprof ARGS, its output as bytes (binary, or names that are not UTF-8)."""
    return subprocess.run([*WRAPPER, HWPROF, *args], capture_output=True, timeout=120)


def write_pprof(data, out, *args):
    p = hwprof_bytes("report", "-i", data, "--format", "pprof", "-o", out, *args)
    check(p.returncode == 0 and not p.stdout, f"report --format pprof: {p.stderr}")
    return p.returncode == 0

# ---- go tool pprof ----

HOTSPOTS_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hotspots.c")


ROW = re.compile(r"^\s*(\S+)\s+([\d.]+)%\s+([\d.]+)%\s+(\S+)\s+([\d.]+)%\s+(.+?)\s*$")


def top_rows(text):
    """-top's rows of a flat value (not callers only): (name, flat percent)."""
    return [(m.group(6), float(m.group(2))) for m in map(ROW.match, text.splitlines())
            if m and m.group(1) not in ("0", "0ns")]


ALL = ["-nodecount=0", "-nodefraction=0", "-edgefraction=0"]


def same_top(path, data, d, what, event=None):
    """-top -noinlines against report --sort sym (of EVENT, with pprof's
    -sample_index): every function, its flat percent within 0.1 point, the
    same top two shares. -noinlines, as the report by symbol counts an inlined
    function's samples to the function it was inlined into."""
    pick = [f"-sample_index={event}"] if event else []
    out = pprof(d, "-top", "-noinlines", *pick, *ALL, path)
    p, rep = report_json(data, "--sort", "sym", "-n", "0", *(["-e", event] if event else []))
    if out is None or not check(rep is not None, p.stderr):
        return None
    want = {}
    for e in rep["entries"]:
        want[e["name"]] = want.get(e["name"], 0) + e["percent"]
    got = dict(top_rows(out))
    check(set(got) == set(want), f"{what}: functions {sorted(set(got) ^ set(want))[:8]}")
    bad = [(n, got[n], want[n]) for n in got if n in want and abs(got[n] - want[n]) > 0.1]
    check(not bad, f"{what}: flat% against report --sort sym: {bad[:8]}")
    # The top two by their shares: functions of equal shares (a page
    # fault each) come in either order, pprof's by name, the report's not.
    order = [n for n, _ in top_rows(out)]
    ranked = sorted(want, key=lambda n: -want[n])
    check([want.get(n) for n in order[:2]] == [want[n] for n in ranked[:2]],
          f"{what}: top two {order[:2]} vs report {ranked[:2]}"
          f" ({[want.get(n) for n in order[:2]]} vs {[want[n] for n in ranked[:2]]})")
    return out


def same_lines(path, data, d, what):
    """-lines -top against report --sort line: each row's file:line (its
    name without a source) and flat percent."""
    out = pprof(d, "-top", "-lines", *ALL, path)
    p, rep = report_json(data, "--sort", "line", "-n", "0")
    if out is None or not check(rep is not None, p.stderr):
        return
    want = {}
    for e in rep["entries"]:
        want[e["name"]] = want.get(e["name"], 0) + e["percent"]
    got = {}
    for name, pct in top_rows(out):
        name = re.sub(r" \(inline\)$", "", name)
        m = re.match(r"^.* (\S+):(\d+)$", name)
        key = f"{os.path.basename(m.group(1))}:{m.group(2)}" if m else name
        got[key] = got.get(key, 0) + pct
    check(set(got) == set(want), f"{what}: lines {sorted(set(got) ^ set(want))[:8]}")
    bad = [(n, got[n], want[n]) for n in got if n in want and abs(got[n] - want[n]) > 0.1]
    check(not bad, f"{what}: -lines flat% against report --sort line: {bad[:8]}")


# a sample's label, before its frames (hwprof labels comm, pid, tid, host)
LABEL = re.compile(r"^\s*(comm|pid|tid|host|cgroup):\s")


def traces(text):
    """-traces -unit=ns: chain (outermost first) -> summed nanoseconds."""
    out = {}
    for block in text.split("-----------+")[1:]:
        lines = [ln for ln in block.splitlines()[1:] if ln.strip() and not LABEL.match(ln)]
        if not lines:
            continue
        m = re.match(r"^\s*(\d+)ns\s+(.*)$", lines[0])
        if not check(m, f"a trace's first line: {lines[0]!r}"):
            continue
        frames = [m.group(2).strip()] + [ln.strip() for ln in lines[1:]]
        key = tuple(reversed(frames))
        out[key] = out.get(key, 0) + int(m.group(1))
    return out


def same_traces(path, data, d, what):
    """-traces against the chains of report --format speedscope, each
    chain's period summed, to the nanosecond (or the count)."""
    out = pprof(d, "-traces", "-noinlines", "-unit=ns", path)
    p = hwprof("report", "-i", data, "--format", "speedscope", timeout=120)
    if out is None or not check(p.returncode == 0, p.stderr):
        return
    ss = json.loads(p.stdout)
    frames, prof = ss["shared"]["frames"], ss["profiles"][0]
    want = {}
    for s, w in zip(prof["samples"], prof["weights"]):
        key = tuple(frames[i]["name"] for i in s)
        want[key] = want.get(key, 0) + w
    if prof["unit"] != "nanoseconds":
        # counts: pprof prints them as they are, with no unit
        out = re.sub(r"^(\s*\d+)(\s)", r"\1ns\2", out, flags=re.M)
    got = traces(out)
    check(got == want, f"{what}: -traces against speedscope's chains: "
          f"{sorted(set(got.items()) ^ set(want.items()))[:4]}")
    check(any(len(k) > 1 for k in got), f"{what}: call chains in -traces")


def round_trip(path, d, what):
    """pprof re-encodes the file (-proto); its -top of that is the same."""
    again = os.path.join(d, "again.pb.gz")
    out = pprof(d, "-proto", "-output", again, path)
    if out is None:
        return
    first = pprof(d, "-top", "-unit=ns", *ALL, path)
    second = pprof(d, "-top", "-unit=ns", *ALL, again)
    if first is None or second is None:
        return
    check(top_rows(first) == top_rows(second) and top_rows(first),
          f"{what}: -top after -proto: {top_rows(first)[:3]} vs {top_rows(second)[:3]}")
    prof = read_pprof(again)
    check(prof is not None and check_ids(prof), f"{what}: pprof's re-encoding decodes")


def all_checks(data, d, name, what):
    path = os.path.join(d, f"{name}.pb.gz")
    if not write_pprof(data, path):
        return None
    prof = read_pprof(path)
    if prof is None or not check_ids(prof):
        return None
    same_top(path, data, d, what)
    same_lines(path, data, d, what)
    same_traces(path, data, d, what)
    round_trip(path, d, what)
    return prof

# ---- the cases ----


def strings_of(prof, *idx):
    return [prof["string_table"][i] for i in idx]


def inline_call_line(prof, path, d):
    """Where bump() was inlined into hot(), a location's lines are bump's
    line, then hot's line of the call (DWARF's DW_AT_call_line), as the
    decoder and go tool pprof -raw read them."""
    (call,) = marked_lines(HOTSPOTS_SRC, "CALL:bump")
    names = {f["id"]: prof["string_table"][f.get("name", 0)] for f in prof["function"]}
    inl = [loc["line"] for loc in prof["location"] if len(loc.get("line", [])) == 2 and
           names[loc["line"][0]["function_id"]] == "bump"]
    if not check(inl, "locations where bump() was inlined, with two lines"):
        return
    bad = [ln for ln in inl if names[ln[1]["function_id"]] != "hot" or
           ln[1].get("line", [0]) != [call]]
    check(not bad, f"hot's line of the call to bump is {call}: {bad[:3]}")
    out = pprof(d, "-raw", path)
    if out is not None:
        calls = re.findall(r"^\s+hot \S*hotspots\.c:(\d+)", out, re.M)
        check(calls and f"{call}" in calls and "0" not in calls,
              f"pprof -raw: hot's lines under bump: {sorted(set(calls))}")


def hwprof_file(d):
    data = os.path.join(d, "g.data")
    p = hwprof("record", "-g", "-o", data, "--", HOTSPOTS, "80", timeout=180)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    prof = all_checks(data, d, "g", "hwprof's file")
    if prof is None:
        return
    st = prof["sample_type"]
    check(len(st) == 1 and strings_of(prof, st[0]["type"], st[0]["unit"]) in
          (["cpu-clock", "nanoseconds"], ["cycles", "count"]),
          f"the sample type is the event's: {[strings_of(prof, v['type'], v['unit']) for v in st]}")
    comments = strings_of(prof, *prof["comment"])
    check(any(c.startswith("command: hwprof record -g") for c in comments) and
          any(c.startswith("host: ") for c in comments), f"comments: {comments}")
    check(prof.get("duration_nanos", 0) > 0, "a duration")
    hot = [f for f in prof["function"] if prof["string_table"][f.get("name", 0)] == "hot"]
    if HAVE_LIBDW:
        check(len(hot) == 1 and prof["string_table"][hot[0].get("filename", 0)]
              .endswith("hotspots.c") and hot[0].get("start_line", 0) > 0,
              f"hot's file and line: {hot}")
    addrs = [loc.get("address", 0) for loc in prof["location"]]
    check(all(addrs) and len(prof["mapping"]) >= 2, f"addresses {addrs[:4]}, "
          f"{len(prof['mapping'])} mappings")
    if HAVE_LIBDW:
        inline_call_line(prof, os.path.join(d, "g.pb.gz"), d)
    first = prof["string_table"][prof["mapping"][0].get("filename", 0)]
    check(first.endswith("/hotspots"), f"the program's mapping first (pprof's File:): {first}")
    # The build the file recorded (HEADER_BUILD_ID), as readelf names it.
    elf = subprocess.run(["readelf", "-n", HOTSPOTS], capture_output=True, text=True).stdout
    want = re.search(r"Build ID: ([0-9a-f]+)", elf)
    got = prof["string_table"][prof["mapping"][0].get("build_id", 0)]
    check(want and got == want.group(1), f"the program's build-id: {got!r}, readelf: {want}")


def without_chains(d):
    data = os.path.join(d, "flat.data")
    p = hwprof("record", "-c", "100000", "-o", data, "--", HOTSPOTS, "80", timeout=180)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    path = os.path.join(d, "flat.pb.gz")
    if not write_pprof(data, path):
        return
    prof = read_pprof(path)
    if prof is None or not check_ids(prof):
        return
    check(all(len(s["location_id"]) == 1 for s in prof["sample"]), "a location a sample")
    check(prof.get("period") == 100000, f"the fixed period: {prof.get('period')}")
    same_top(path, data, d, "without call chains")


def several_events(d):
    """A file of two events: a value a sample for each, in the file's order,
    each summing to that event's period; pprof's -sample_index=EVENT -top
    is report -e EVENT's; report -e EVENT makes EVENT the default."""
    files = []
    data = os.path.join(d, "two-hw.data")
    p = hwprof("record", "-g", "-e", "cpu-clock,page-faults", "-o", data, "--", HOTSPOTS,
               "80", timeout=180)
    if check(p.returncode == 0, f"record: {p.stderr}"):
        files.append((data, ["cpu-clock", "page-faults"]))
    perf = shutil.which("perf")
    if perf and not run([perf, "record", "-e", "cpu-clock", "-o", "/dev/null",
                         "true"]).returncode:
        data = os.path.join(d, "two-perf.data")
        p = run([perf, "record", "-e", "cpu-clock,task-clock", "-g", "-o", data, HOTSPOTS, "80"],
                timeout=180)
        if check(p.returncode == 0, f"perf record: {p.stderr}"):
            files.append((data, ["cpu-clock", "task-clock"]))
    else:
        note("perf is not installed: the two events of perf's file are not tried")
    for data, events in files:
        path = data + ".pb.gz"
        if not write_pprof(data, path):
            continue
        prof = read_pprof(path)
        if prof is None or not check_ids(prof):
            continue
        s = prof["string_table"]
        types = [(s[v["type"]], s[v["unit"]]) for v in prof["sample_type"]]
        want = [(e, "nanoseconds" if e.endswith("-clock") else "count") for e in events]
        check(types == want and s[prof["default_sample_type"]] == events[0],
              f"{data}: sample types {types}, default {s[prof['default_sample_type']]}")
        for i, e in enumerate(events):
            p, rep = report_json(data, "-e", e, "-n", "1")
            total = sum(smp["value"][i] for smp in prof["sample"] if len(smp["value"]) > i)
            check(rep and rep["total_period"] == total and total > 0,
                  f"{data}: {e}'s values sum to {total}, its period "
                  f"{rep and rep['total_period']}")
            if GO:
                same_top(path, data, d, f"{os.path.basename(data)} {e}", event=e)
        other = path + ".second.pb.gz"
        if write_pprof(data, other, "-e", events[1]):
            prof = read_pprof(other)
            check(prof and prof["string_table"][prof["default_sample_type"]] == events[1],
                  f"report -e {events[1]}: the default sample type")


def perfs_file(d):
    perf = perf_sampler()
    data = os.path.join(d, "perf.data")
    p = run([perf, "record", "-e", "cpu-clock", "-g", "-o", data, HOTSPOTS, "80"], timeout=180)
    if check(p.returncode == 0, f"perf record: {p.stderr}"):
        all_checks(data, d, "perf", "perf's file")


def hostile(d):
    """Hand-made files: no samples; samples nowhere known, at addresses
    near 2^64, in modules whose names are not UTF-8: every string of the
    file UTF-8 (the decoder refuses others), every id there, and pprof
    reads them."""
    empty = perfdata.PerfData(callchains=True)
    empty.comm(7, b"nothing")
    empty.write(os.path.join(d, "empty.data"))
    junk = perfdata.PerfData(callchains=True)
    junk.comm(8, b"j\xffunk")
    junk.mmap(8, 0x400000, 0x1000, 0, b"/no/such/\xc3\x28dir/\xf0\x9f\x98lib\x80.so")
    junk.mmap(8, 2**64 - 0x2000, 0x1000, 0, b"/\xed\xa0\x80high")
    for i in range(50):
        junk.sample(8, 0x400010 + i % 5, callers=[2**64 - 0x1800 + i % 3, 0x400800])
        junk.sample(8, 2**64 - 0x1001, callers=[0x123456789])
        junk.sample(8, 2**64 - 0x10000 + i)	# in no mapping: the address itself
    junk.feature_string(perfdata.HEADER_HOSTNAME, b"h\xc0st")
    junk.write(os.path.join(d, "junk.data"))
    for name in ("empty", "junk"):
        path = os.path.join(d, f"{name}.pb.gz")
        if not write_pprof(os.path.join(d, f"{name}.data"), path, "--kallsyms", ""):
            continue
        prof = read_pprof(path)
        if prof is None or not check_ids(prof):
            continue
        want = 0 if name == "empty" else 150
        check(len(prof["sample"]) <= want and sum(s["value"][0] for s in prof["sample"]) == want,
              f"{name}: the samples' values sum to {want}")
        if name == "junk":
            check(any("\ufffd" in s for s in prof["string_table"]),
                  "invalid UTF-8 written as U+FFFD")
            check(any(loc.get("address", 0) >= 2**64 - 0x10000 for loc in prof["location"]),
                  "addresses near 2^64 kept")
        if GO:
            pprof(d, "-top", path)


def usage(d):
    """Binary output refuses a terminal; --help and the format list name it."""
    data = os.path.join(d, "g.data")
    master, slave = pty.openpty()
    try:
        p = subprocess.run([*WRAPPER, HWPROF, "report", "-i", data, "--format", "pprof"],
                           stdout=slave, stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(slave)
        os.close(master)
    check(p.returncode == 2 and "binary" in p.stderr and "-o FILE.pb.gz" in p.stderr,
          f"a terminal refused: {p.returncode} {p.stderr}")
    p = hwprof_bytes("report", "-i", data, "--format", "pprof")
    check(p.returncode == 0 and p.stdout[:2] == b"\x1f\x8b", f"gzip to a pipe: {p.stderr}")
    p = hwprof("report", "--help")
    check("pprof" in p.stdout, "--help names pprof")
    for cmd in ("report", "diff"):
        p = hwprof(cmd, "--help")
        check("--no-debug-cache" in p.stdout, f"{cmd} --help names --no-debug-cache")
    p = hwprof("report", "--format", "xml", "-i", data)
    check(p.returncode == 2 and "speedscope, pprof or html" in p.stderr, p.stderr)


def elf_sections(path):
    """PATH's sections: name -> flags (readelf's letters)."""
    p = run(["readelf", "-SW", path])
    return {m.group(1): m.group(2) for m in re.finditer(
        r"\]\s+(\.\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+([A-Za-z]*)",
        p.stdout)}


def build_id(path):
    m = re.search(r"Build ID: ([0-9a-f]+)", run(["readelf", "-n", path]).stdout)
    return m.group(1) if m else None


def source_functions(path):
    """The functions of PATH's pprof file that name hotspots.c as their file."""
    prof = read_pprof(path)
    strs = prof["string_table"]
    return sorted(strs[f.get("name", 0)] for f in prof["function"]
                  if strs[f.get("filename", 0)].endswith("hotspots.c"))


def torn_copy(elf):
    """The first half of ELF64 file ELF and its section header table after
    it: headers whole, sections that run past the file's end."""
    shoff, = struct.unpack_from("=Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("=HH", elf, 0x3a)
    half = elf[:len(elf) // 2]
    half += b"\0" * (-len(half) % 8)
    torn = bytearray(half + elf[shoff:shoff + shentsize * shnum])
    struct.pack_into("=Q", torn, 0x28, len(half))
    return bytes(torn)


def debug_copy(d):
    """A separate debug file with compressed sections (the way Debian ships
    libc6-dbg's) is read by the first report and kept decompressed in the
    cache by build-id; later reports read the copy, for the same bytes; a
    copy of another build-id, or cut short, is passed by and replaced.
    --no-debug-cache neither reads nor writes one."""
    if not HAVE_LIBDW:
        skip("built without libdw: no source lines")
    for tool in ("readelf", "objcopy"):
        if not shutil.which(tool):
            skip(f"no {tool} (binutils) to make a separate debug file")
    w = os.path.join(d, "debugcopy")
    os.makedirs(w, exist_ok=True)
    prog, debug = os.path.join(w, "hotspots"), os.path.join(w, "hotspots.debug")
    shutil.copy(HOTSPOTS, prog)
    for args in (["--only-keep-debug", "--compress-debug-sections=zlib", prog, debug],
                 ["--strip-debug", f"--add-gnu-debuglink={debug}", prog]):
        p = run(["objcopy", *args])
        if not check(p.returncode == 0, f"objcopy {args}: {p.stderr}"):
            return
    bid = build_id(prog)
    if not check(bid and "C" in elf_sections(debug).get(".debug_info", ""),
                 f"{debug}: a build-id ({bid}) and .debug_info compressed: "
                 f"{elf_sections(debug)}"):
        return
    data = os.path.join(w, "hw.data")
    p = hwprof("record", "-g", "-c", "100000", "-o", data, "--", prog, "100", timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    cache = os.path.join(w, "cache")
    copy = os.path.join(cache, "hwprof", f"debug-{bid}")

    def report(out, *args, **env):
        e = dict(os.environ, XDG_CACHE_HOME=cache)
        e.update(env)
        p = subprocess.run([*WRAPPER, HWPROF, "report", "-i", data, "--format", "pprof",
                            "-o", out, *args], capture_output=True, timeout=120, env=e)
        check(p.returncode == 0, f"report --format pprof: {p.stderr}")
        with open(out, "rb") as f:
            return gzip.decompress(f.read())

    plain = report(os.path.join(w, "plain.pb.gz"), XDG_CACHE_HOME="", HOME="")
    funcs = source_functions(os.path.join(w, "plain.pb.gz"))
    check("hot" in funcs, f"the lines come from the debug file: {funcs}")
    check(not os.path.exists(copy), f"no cache folder, no copy: {copy}")
    p = hwprof("report", "-i", data, "--sort", "sym", timeout=120,
               env=dict(os.environ, XDG_CACHE_HOME=cache))
    check(p.returncode == 0 and " hot" in p.stdout and not os.path.exists(copy),
          f"a report by symbol, which reads no line, makes no copy: {p.stderr}")
    check(report(os.path.join(w, "off.pb.gz"), "--no-debug-cache") == plain and
          not os.path.exists(copy), "--no-debug-cache: the same profile, no copy written")
    first = report(os.path.join(w, "first.pb.gz"))
    check(first == plain, "the report that writes the copy: the same profile")
    if not check(os.path.exists(copy), f"the copy is kept: {copy}"):
        return
    have = elf_sections(copy)
    check(build_id(copy) == bid and have.get(".debug_info") is not None and
          not any("C" in flags for flags in have.values()),
          f"the copy: build-id {build_id(copy)}, no section compressed: {have}")
    check(report(os.path.join(w, "second.pb.gz")) == plain,
          "the report that reads the copy: the same profile")
    # the copy alone has the lines now: the reports read it
    os.rename(debug, debug + ".gone")
    check(report(os.path.join(w, "copy.pb.gz")) == plain,
          "without the original, from the copy: the same profile")
    # --no-debug-cache does not read it: without the original, no lines
    report(os.path.join(w, "off-copy.pb.gz"), "--no-debug-cache")
    funcs = source_functions(os.path.join(w, "off-copy.pb.gz"))
    check("hot" not in funcs, f"--no-debug-cache reads no copy: lines of {funcs}")
    with open(copy, "rb") as f:
        whole = f.read()
    # a copy of another build-id is not read, and is written anew
    shutil.copy(WORKLOAD, copy)
    os.rename(debug + ".gone", debug)
    check(report(os.path.join(w, "other.pb.gz")) == plain,
          "with another file in the copy's place: the same profile")
    check(build_id(copy) == bid, f"the copy is written anew: {build_id(copy)}")
    # nor are bytes that are not ELF
    with open(copy, "wb") as f:
        f.write(b"\x7fELF" + b"\xff" * 200)
    check(report(os.path.join(w, "junk.pb.gz")) == plain,
          "with junk in the copy's place: the same profile")
    check(build_id(copy) == bid, f"the junk copy is written anew: {build_id(copy)}")
    # a copy cut short (a crash before its bytes reached the disk) keeps its
    # build-id note: it is refused by its size, and written anew
    for what, torn in (("its first half", whole[:len(whole) // 2]),
                       ("its first half and its section headers", torn_copy(whole))):
        with open(copy, "wb") as f:
            f.write(torn)
        check(build_id(copy) == bid, f"{what}: the build-id is still there")
        check(report(os.path.join(w, "torn.pb.gz")) == plain,
              f"with {what} in the copy's place: the same profile")
        with open(copy, "rb") as f:
            check(f.read() == whole, f"{what}: the copy is written anew, whole")


if not GO:
    note("go is not installed (Debian's golang-go): the go tool pprof checks skip")
with tempfile.TemporaryDirectory() as tmp:
    case(hwprof_file, tmp, name="hwprof's file: go tool pprof -top, -lines, -traces, -proto")
    case(without_chains, tmp, name="a profile without call chains")
    case(perfs_file, tmp, name="perf's file: go tool pprof -top, -lines, -traces, -proto")
    case(several_events, tmp, name="two events: a value each")
    case(hostile, tmp, name="no samples, no symbols, huge addresses, junk names")
    case(usage, tmp, name="binary output and usage")
    case(debug_copy, tmp, name="a compressed debug file, kept decompressed by build-id")
done()
