#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Profiles from the field: what perf writes, hwprof reads, and agrees with
perf report on. Pipes both ways (perf record -o - | hwprof report -i -,
hwprof record -o - | perf report -i -, a saved pipe file); records followed
by data their size does not count (AUXTRACE, TRACING_DATA) and every type
of perf 6.x's, known or not, skipped and counted; compressed recordings
(perf record -z); and a corpus made here by perf record with each option
that works without a hardware PMU, each report checked against
perf report --no-children: the same samples, the same shares."""
import os
import re
import shutil
import struct
import subprocess
import tempfile

import perfdata
from common import (HAVE_LIBDW, HOTSPOTS, WRAPPER, HWPROF, case, check, done, entry, hwprof,
                    note, parsed_json, report_json, run, skip)

# hwprof's shares and perf's, in percentage points
TOLERANCE = 0.5
# the addresses no symbol covers, summed in one row on both sides
UNRESOLVED = "[unresolved]"
# C++ names in a namespace or class, summed in one row: perf's demangler
# and c++filt do not always spell them alike (hwprof's own demangling is
# issue 11's point 7)
CXX = "[C++ methods]"


def perf_usable():
    perf = shutil.which("perf")
    if not perf or run([perf, "record", "-e", "cpu-clock", "-o", "/dev/null", "true"]).returncode:
        return None
    return perf


PERF = perf_usable()


def need_perf():
    if not PERF:
        skip("perf is not installed (Debian: linux-perf), or perf record cannot sample here")
    if not HAVE_LIBDW:
        skip("hwprof was built without libdw: no symbols to compare with perf's")


def perf_rows(path, event=None, stdin=None):
    """perf report --no-children --sort sym of @path: (status, {event: {sym: percent}});
    each event's "#rows" says how many rows each symbol's share sums (perf
    rounds each to 0.01 point)."""
    args = [PERF, "report", "--stdio", "--no-children", "--sort", "sym", "-g", "none",
            "--percent-limit", "0", "-i", path]
    p = run(args, timeout=180, stdin=stdin)
    out = {}
    sections = re.split(r"^# Samples: .* of event '([^']*)'$", p.stdout, flags=re.M)
    for name, text in zip(sections[1::2], sections[2::2]):
        rows = out.setdefault(name, {"#rows": {}})
        for m in re.finditer(r"^\s+([\d.]+)%\s+\[.\]\s+(\S.*?)\s*$", text, re.M):
            # PLT entries: perf names them from the relocations (NAME@plt),
            # hwprof does not yet and shows them unresolved; a page fault
            # of lazy binding lands there in some runs and not in others.
            sym = m.group(2)
            if re.fullmatch(r"0x[0-9a-f]+", sym) or sym.endswith("@plt"):
                sym = UNRESOLVED
            elif "::" in sym:
                sym = CXX
            rows[sym] = rows.get(sym, 0.0) + float(m.group(1))
            rows["#rows"][sym] = rows["#rows"].get(sym, 0) + 1
    return p, out


def perf_samples(path):
    """{event: samples} of @path, as perf script counts them."""
    p = run([PERF, "script", "-F", "event", "-i", path], timeout=180)
    counts = {}
    for line in p.stdout.splitlines():
        name = line.strip().rstrip(":")
        if name:
            counts[name] = counts.get(name, 0) + 1
    return counts


def demangled(names):
    """{mangled: as perf shows it}: C++ names without their parameters
    (hwprof does not demangle yet; that is issue 11's point 7)."""
    cxxfilt = shutil.which("c++filt")
    names = sorted(n for n in names if n.startswith("_Z"))
    if not cxxfilt or not names:
        return {}
    p = run([cxxfilt, "-p"], input="\n".join(names) + "\n")
    return dict(zip(names, p.stdout.splitlines()))


def ours(doc):
    """hwprof's rows: {symbol: percent}, summed over modules as perf's
    --sort sym does; the addresses no symbol covers in one row."""
    rows = {}
    names = demangled(e["symbol"] for e in doc["entries"] if e["symbol"])
    for e in doc["entries"]:
        sym = names.get(e["symbol"], e["symbol"]) if e["symbol"] else UNRESOLVED
        if "::" in sym:
            sym = CXX
        rows[sym] = rows.get(sym, 0.0) + e["percent"]
    return rows


def agree(path, what, event=None, doc=None):
    """hwprof report of @path and perf report agree: the samples, and each
    symbol's share within TOLERANCE (perf's rows are those of @event)."""
    if doc is None:
        args = ["--top", "0"] + (["--event", event] if event else [])
        hp, doc = report_json(path, *args, timeout=180)
        if not check(hp.returncode == 0 and doc, f"{what}: hwprof reads it: {hp.stderr[-600:]}"):
            return None
    pp, sections = perf_rows(path)
    name = event or doc["event"]
    theirs = sections.get(name)
    if not check(pp.returncode == 0 and theirs,
                 f"{what}: perf reads it (event {name}): {pp.stderr[-400:]} {list(sections)}"):
        return None
    counts = perf_samples(path)
    check(doc["total_samples"] == counts.get(name),
          f"{what}: {doc['total_samples']} samples, perf script counts {counts.get(name)}")
    mine = ours(doc)
    nrows = theirs.pop("#rows")
    pair_aliases(mine, theirs, what)
    for sym in sorted(set(mine) | set(theirs)):
        # perf rounds each row to 0.01: a sum of N rows is off by N * 0.005
        tolerance = TOLERANCE + 0.005 * nrows.get(sym, 1)
        if not check(abs(mine.get(sym, 0.0) - theirs.get(sym, 0.0)) <= tolerance,
                     f"{what}: {sym} {mine.get(sym, 0):.2f}% vs perf {theirs.get(sym, 0):.2f}%"):
            break
    top = max(theirs, key=theirs.get)
    check(top in mine, f"{what}: perf's top symbol {top} is in hwprof's report")
    return doc


def pair_aliases(mine, theirs, what):
    """Names of one address that hwprof and perf choose differently (libc's
    strtoll, __GI_strtoll: perf prefers a local symbol of the debug file
    to a weak one) are paired by their shares and counted once, said;
    only shares above the tolerance need it, and only those are told
    apart from a coincidence."""
    only_mine = {s: v for s, v in mine.items() if s not in theirs}
    for sym, share in sorted(theirs.items()):
        if sym in mine or sym == UNRESOLVED or share <= TOLERANCE:
            continue
        alias = next((a for a, v in only_mine.items()
                      if abs(v - share) <= 0.01 and a != UNRESOLVED), None)
        if alias:
            note(f"{what}: hwprof names {alias} what perf names {sym} ({share:.2f}%)")
            mine[sym] = mine.pop(alias)
            del only_mine[alias]


def pipe_from_perf(d):
    """perf record -o - | hwprof report -i -, and the same stream saved."""
    need_perf()
    saved = os.path.join(d, "perf-pipe.data")
    rec = subprocess.Popen([PERF, "record", "-e", "cpu-clock", "-g", "-o", "-", HOTSPOTS, "200"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tee = subprocess.Popen(["tee", saved], stdin=rec.stdout, stdout=subprocess.PIPE)
    rec.stdout.close()
    rep = subprocess.run([*WRAPPER, HWPROF, "report", "--format", "json", "--top", "0",
                          "-i", "-"], stdin=tee.stdout, capture_output=True, text=True,
                         timeout=180)
    tee.stdout.close()
    check(rec.wait(timeout=60) == 0 and tee.wait(timeout=60) == 0, "perf record -o - ran")
    p, doc = parsed_json(rep)
    if not check(p.returncode == 0 and doc, f"hwprof report -i - of perf's pipe: {p.stderr}"):
        return
    # Named one way in the output, the errors and the warnings alike.
    check(doc["input"] == "(standard input)", f"the input is standard input: {doc['input']}")
    with open(saved, "rb") as f:
        p = subprocess.run([*WRAPPER, HWPROF, "report", "-i", "-", "--cpu", "0"], stdin=f,
                           capture_output=True, text=True, timeout=60)
    check(p.returncode == 1 and "'(standard input)': the samples of" in p.stderr,
          f"an error of the profile names standard input: {p.stderr}")
    with open(saved, "rb") as f:
        check(struct.unpack("<8sQ", f.read(16)) == (b"PERFILE2", 16), "perf wrote a pipe header")
    agree(saved, "perf's pipe, read through the pipe", doc=doc)
    agree(saved, "perf's pipe, saved")
    hot = entry(doc, "hot")
    check(hot and hot["callers"] and hot["callers"][0]["symbol"] == "main",
          f"call chains through the pipe: hot's callers {hot and hot['callers'][:2]}")


def pipe_to_perf(d):
    """hwprof record -o - | perf report -i -: perf reads hwprof's stream."""
    need_perf()
    saved = os.path.join(d, "hwprof-pipe.data")
    with open(saved, "wb") as out:
        p = subprocess.run([*WRAPPER, HWPROF, "record", "-o", "-", "--", HOTSPOTS, "200"],
                           stdout=out, stderr=subprocess.PIPE, text=True, timeout=180)
    check(p.returncode == 0 and "standard output" in p.stderr, f"hwprof record -o -: {p.stderr}")
    with open(saved, "rb") as f:
        head = f.read(16)
    check(struct.unpack("<8sQ", head) == (b"PERFILE2", 16), f"a pipe header: {head!r}")
    with open(saved, "rb") as f:
        pp, sections = perf_rows("-", stdin=f)
    rows = next(iter(sections.values()), {})
    check(pp.returncode == 0 and rows.get("hot", 0) > 50,
          f"perf report -i - reads hwprof's stream: {rows} {pp.stderr[-400:]}")
    doc = agree(saved, "hwprof's pipe, saved")
    check(doc and doc["event"] in sections, f"perf names the event: {list(sections)}")
    p = run([PERF, "report", "--header-only", "-i", saved])
    check("cmdline : hwprof record -o -" in p.stdout, f"perf reads the features: {p.stdout[-600:]}")


def crafted(d):
    """Records followed by bytes their size does not count, and records of
    every perf 6.x type hwprof does not use and of none perf knows: read,
    the samples counted, the rest skipped and counted, in both formats."""
    pd = perfdata.PerfData()
    pd.comm(100, b"crafted")
    skipped = 0
    for i in range(10):
        pd.sample(100, 0xffffffff81000000 + 16 * i, kernel=True)
        if i == 2:	# AUX area trace: 40 bytes that read as no record
            pd.raw(perfdata.RECORD_AUXTRACE, struct.pack("<QQQIIII", 40, 0, 0, 0, 100, 0, 0),
                   b"\xff" * 40)
            skipped += 1
        if i == 4:	# tracing data of 13 bytes, padded to 16
            pd.raw(perfdata.RECORD_HEADER_TRACING_DATA, struct.pack("<II", 13, 0),
                   b"\xee" * 16)
            skipped += 1
    # The rest of perf 6.x's own types, then types nobody knows: bodies
    # of sizes that are not multiples of 8, as a pipe's features are.
    for t in (65, 69, 70, 72, 73, 74, 75, 76, 77, 79, 84, 99, 1000):
        pd.raw(t, b"\x01" * (4 + t % 3 * 4))
        skipped += 1
    pd.raw(67, b"\x01" * 12)	# HEADER_BUILD_ID, read (here: nothing to use)
    pd.raw(perfdata.RECORD_FINISHED_ROUND, b"")
    pd.sample(100, 0xffffffff81000100, kernel=True)
    for name, write in (("file", pd.write), ("pipe", pd.write_pipe)):
        path = os.path.join(d, f"crafted-{name}.data")
        write(path)
        p, doc = report_json(path, "--top", "0")
        if check(p.returncode == 0 and doc, f"{name}: read: {p.stderr}"):
            check(doc["total_samples"] == 11, f"{name}: 11 samples: {doc['total_samples']}")
            check(doc["skipped_records"] == skipped,
                  f"{name}: {skipped} records skipped: {doc['skipped_records']}")
        check("AUX area trace data" in p.stderr and "40 bytes" in p.stderr,
              f"{name}: the trace is said to be skipped: {p.stderr}")
        with open(path, "rb") as f:
            rep = subprocess.run([*WRAPPER, HWPROF, "report", "--format", "json", "-i", "-"],
                                 stdin=f, capture_output=True, text=True, timeout=60)
        p, doc = parsed_json(rep)
        check(p.returncode == 0 and doc and doc["total_samples"] == 11,
              f"{name} on standard input: {p.stderr}")
    # A trace cut off by the end: an error that says so, not a crash.
    cut = os.path.join(d, "crafted-cut.data")
    with open(os.path.join(d, "crafted-pipe.data"), "rb") as f:
        whole = f.read()
    at = whole.index(b"\xff" * 40)
    with open(cut, "wb") as f:
        f.write(whole[:at + 20])
    p = hwprof("report", "-i", cut)
    check(p.returncode == 1 and "AUX area trace data" in p.stderr and "truncated" in p.stderr,
          f"a cut trace: {p.returncode} {p.stderr}")


def late_event(d):
    """A stream that describes a third event after its first samples (a
    pipe's HEADER_ATTR may come at any point): the two events known at the
    start are reported, each with its own values, and the late one's
    samples are skipped and counted, never written past the table of two."""
    ident, ip, tid, time_, period = 0x10000, 0x1, 0x2, 0x4, 0x100
    st = ident | ip | tid | time_ | period

    def attr(config, sid):
        a = bytearray(perfdata.ATTR_SIZE)
        # type SOFTWARE, the config, period 1, sample_type; flags: sample_id_all
        struct.pack_into("<IIQQQQQ", a, 0, 1, perfdata.ATTR_SIZE, config, 1, st, 0, 1 << 18)
        body = bytes(a) + struct.pack("<Q", sid)
        return struct.pack("<IHH", perfdata.RECORD_HEADER_ATTR, 0, 8 + len(body)) + body

    clock = [0]

    def sample(sid, addr):
        clock[0] += 1
        body = struct.pack("<QQIIQQ", sid, addr, 100, 100, clock[0], 1)
        return struct.pack("<IHH", perfdata.RECORD_SAMPLE, perfdata.MISC_KERNEL,
                           8 + len(body)) + body

    out = struct.pack("<8sQ", b"PERFILE2", 16) + attr(0, 1) + attr(1, 2)
    out += b"".join(sample(1 + i % 2, 0xffffffff81000000 + 64 * i) for i in range(40))
    out += attr(2, 3)
    out += b"".join(sample(3, 0xffffffff81000000 + 64 * i) for i in range(500))
    out += b"".join(sample(1, 0xffffffff81000000) for i in range(10))
    path = os.path.join(d, "late-event.data")
    with open(path, "wb") as f:
        f.write(out)
    p, doc = report_json(path, "--top", "0")
    if check(p.returncode == 0 and doc, f"read: {p.returncode} {p.stderr}"):
        check(doc["total_samples"] == 30, f"the first event's 30 samples: {doc['total_samples']}")
        check(doc["skipped_records"] >= 500,
              f"the late event's 500 samples skipped: {doc['skipped_records']}")


def bounded(d):
    """A stream of 256 MiB through a pipe: read as it comes, in memory that
    does not grow with it (the peak is what hwprof holds, not the input)."""
    pd = perfdata.PerfData()
    header = os.path.join(d, "stream-head.data")
    pd.comm(100, b"stream")
    pd.write_pipe(header)
    with open(header, "rb") as f:
        head = f.read()
    sample = struct.Struct("<IHHQIIQIIQ")	# header, IP TID TIME CPU PERIOD
    # Under valgrind, whose memory is not hwprof's (the peak is not checked
    # there), a twentieth of it: the stream is still read as it comes.
    rounds, per_round, t = 5600 if not WRAPPER else 280, 1000, 0
    rep = subprocess.Popen([*WRAPPER, HWPROF, "report", "--format", "json", "-i", "-"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    try:
        rep.stdin.write(head)
        for _ in range(rounds):
            chunk = bytearray()
            for i in range(per_round):
                t += 1
                chunk += sample.pack(perfdata.RECORD_SAMPLE, perfdata.MISC_KERNEL, 48,
                                     0xffffffff81000000 + 16 * (i % 4), 100, 100, t, 0, 0, 1)
            chunk += struct.pack("<IHH", perfdata.RECORD_FINISHED_ROUND, 0, 8)
            rep.stdin.write(chunk)
        rep.stdin.flush()
        # Each write returned once hwprof had read all but a pipe's buffer
        # of it: its peak so far is that of reading the whole stream.
        with open(f"/proc/{rep.pid}/status") as f:
            peak = int(re.search(r"^VmHWM:\s+(\d+) kB", f.read(), re.M).group(1))
        rep.stdin.close()
    except BrokenPipeError:
        peak = None
    out, err = rep.stdout.read(), rep.stderr.read()
    rep.wait(timeout=300)
    note(f"hwprof report -i - of a stream of 256 MiB: a peak of {peak} KiB")
    # a wrapper's memory is not hwprof's; ASan keeps what is freed (its
    # quarantine, 256 MiB) and so grows with the records copied and freed
    if not WRAPPER and os.environ.get("HWPROF_SANITIZE", "none") == "none":
        check(peak and peak < 64 * 1024,
              f"the peak of memory for a stream of 256 MiB: {peak} KiB (at most 64 MiB)")
    p, doc = parsed_json(subprocess.CompletedProcess(rep.args, rep.returncode, out.decode(),
                                                     err.decode()))
    check(p.returncode == 0 and doc and doc["total_samples"] == rounds * per_round,
          f"every sample of the stream: {doc and doc['total_samples']} {p.stderr[-300:]}")


def modules(d):
    """Samples in a kernel module's range (the kernel's MMAP records of its
    .ko, as perf record writes them) are the module's, named as perf
    names it, in every sort: [e1000e], not [kernel.kallsyms]."""
    pd = perfdata.PerfData()
    kernel, e1000e, nft, snd = (0xffffffff81000000, 0xffffffffc0000000, 0xffffffffc0100000,
                                0xffffffffc0200000)
    pd.kernel_mmap(kernel, 0x1000000, b"[kernel.kallsyms]_text")
    pd.kernel_mmap(e1000e, 0x10000, b"/lib/modules/6.1.0-x/kernel/drivers/net/ethernet/intel/"
                   b"e1000e/e1000e.ko")
    pd.kernel_mmap(nft, 0x8000, b"[nf_tables]")
    pd.kernel_mmap(snd, 0x8000, b"/lib/modules/6.1.0-x/kernel/sound/pci/hda/"
                   b"snd-hda-intel.ko.xz")
    pd.comm(100, b"irq")
    pd.kernel_samples(100, ((kernel + 0x110, 3), (e1000e + 0x120, 4), (nft + 0x130, 2),
                            (snd + 0x140, 1)))
    path = os.path.join(d, "modules.data")
    pd.write(path)
    kallsyms = os.path.join(d, "kallsyms")
    with open(kallsyms, "w") as f:
        f.write(f"{kernel:x} T _text\n{kernel + 0x100:x} T kfunc\n"
                f"{e1000e + 0x100:x} t e1000_clean\t[e1000e]\n"
                f"{nft + 0x100:x} t nft_do_chain\t[nf_tables]\n"
                f"{snd + 0x100:x} t azx_interrupt\t[snd_hda_intel]\n")
    want = {"kfunc": ("[kernel.kallsyms]", 30.0), "e1000_clean": ("[e1000e]", 40.0),
            "nft_do_chain": ("[nf_tables]", 20.0), "azx_interrupt": ("[snd_hda_intel]", 10.0)}
    p, doc = report_json(path, "--top", "0", "--kallsyms", kallsyms)
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        got = {e["symbol"]: (e["dso"], round(e["percent"], 2)) for e in doc["entries"]}
        check(got == want, f"by symbol: {got}")
    p, doc = report_json(path, "--top", "0", "--kallsyms", kallsyms, "--sort", "dso")
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        got = {e["dso"]: round(e["percent"], 2) for e in doc["entries"]}
        check(got == {m: pc for m, pc in want.values()}, f"by module: {got}")
    p = hwprof("report", "-i", path, "--kallsyms", kallsyms)
    check(p.returncode == 0 and re.search(r"40\.00%.*e1000_clean\s+\[e1000e\]", p.stdout),
          f"text: {p.stdout}")


V1 = """volatile unsigned long sink;
__attribute__((noinline)) void alpha(void) { for (unsigned long i = 0; i < 200000000UL; i++) sink += i; }
int main(void) { alpha(); return 0; }
"""
V2 = """volatile unsigned long sink;
__attribute__((noinline)) void omega(void) { for (unsigned long i = 0; i < 9UL; i++) sink += i * 3; }
__attribute__((noinline)) void zeta(void) { sink = 1; }
int main(void) { zeta(); omega(); return 0; }
"""


def build(d, source, exe):
    src = os.path.join(d, "prog.c")
    with open(src, "w") as f:
        f.write(source)
    p = run([os.environ.get("CC", "cc"), "-O1", "-o", exe, src])
    check(p.returncode == 0, f"cc: {p.stderr}")


def rebuilt(d):
    """A program rebuilt after the recording: hwprof record names each
    module's build (HEADER_BUILD_ID, as perf does), and the report never
    names the recording's addresses with another build's symbols: the
    recorded build from perf's cache (~/.debug), or unresolved, with why."""
    if not HAVE_LIBDW:
        skip("hwprof was built without libdw: no symbols")
    d = os.path.join(d, "rebuilt")
    home = os.path.join(d, "home")
    os.makedirs(home)
    env = dict(os.environ, HOME=home)
    exe = os.path.join(d, "prog")
    build(d, V1, exe)
    ours = os.path.join(d, "hwprof.data")
    p = hwprof("record", "-o", ours, "--", exe, timeout=120)
    check(p.returncode == 0, f"hwprof record: {p.stderr}")
    p, doc = report_json(ours, "--top", "0", env=env)
    check(doc and entry(doc, "alpha") and entry(doc, "alpha")["percent"] > 50,
          f"before the rebuild, alpha: {doc and doc['entries'][:3]}")
    theirs = os.path.join(d, "perf.data")
    if PERF:
        p = run([PERF, "record", "-e", "cpu-clock", "-o", theirs, exe], timeout=120, env=env)
        check(p.returncode == 0, f"perf record: {p.stderr}")
        run([PERF, "buildid-cache", "-a", exe], env=env)	# what perf record may skip
        ids = run([PERF, "buildid-list", "-i", theirs]).stdout
        mine = run([PERF, "buildid-list", "-i", ours]).stdout
        line = next((ln for ln in ids.splitlines() if ln.endswith(" " + exe)), None)
        check(line and line in mine.splitlines(),
              f"perf reads hwprof's build-ids, the same as its own: {line!r} in {mine!r}")
    build(d, V2, exe)
    bare = dict(os.environ, HOME=os.path.join(d, "nohome"))	# no cache there
    p, doc = report_json(ours, "--top", "0", env=bare)
    if check(p.returncode == 0 and doc, f"report after the rebuild: {p.stderr}"):
        names = {e["symbol"] for e in doc["entries"] if e["dso"] == exe}
        check(names == {None}, f"no names of the other build: {names}")
        check(not {"omega", "zeta", "main", "alpha"} & {e["symbol"] for e in doc["entries"]},
              "none of the program's names")
    p = hwprof("report", "-i", ours, env=bare)
    check(p.returncode == 0 and "another build than the one recorded" in p.stdout,
          f"the reason, in the report: {p.stdout[-600:]}")
    if PERF:
        # the recorded build in perf's cache: named right, in both files
        for path in (theirs, ours):
            p, doc = report_json(path, "--top", "0", env=env)
            alpha = doc and entry(doc, "alpha")
            check(alpha and alpha["percent"] > 50 and not entry(doc, "omega"),
                  f"the recorded build from ~/.debug: {doc and doc['entries'][:3]}")


def compressed(d):
    """perf record -z: hwprof reads the zstd records, and its totals are
    perf report's of the same file, and those of an uncompressed copy."""
    need_perf()
    path = os.path.join(d, "z.data")
    p = run([PERF, "record", "-z", "-e", "cpu-clock", "-g", "-o", path, HOTSPOTS, "200"],
            timeout=180)
    if not check(p.returncode == 0 and "compressed" in p.stderr, f"perf record -z: {p.stderr}"):
        return
    doc = agree(path, "perf record -z")
    plain = os.path.join(d, "z-plain.data")
    p = run([PERF, "inject", "-i", path, "-o", plain], timeout=180)
    if check(p.returncode == 0, f"perf inject decompresses: {p.stderr}"):
        _, other = report_json(plain, "--top", "0")
        check(doc and other and other["total_samples"] == doc["total_samples"] and
              ours(other) == ours(doc), "the compressed file reads as its uncompressed copy")


# perf record's options that work without a hardware PMU: (name, options,
# workload: None for hotspots)
CORPUS = [
    ("plain", ["-e", "cpu-clock"]),
    ("frame-pointers", ["-e", "cpu-clock", "-g"]),
    ("dwarf", ["-e", "cpu-clock", "--call-graph", "dwarf,8192"]),
    ("events", ["-e", "cpu-clock,task-clock,page-faults"]),
    ("compressed", ["-e", "cpu-clock", "-z"]),
    ("switch-events", ["-e", "cpu-clock", "--switch-events"]),
    ("namespaces", ["-e", "cpu-clock", "--namespaces"]),
    ("timestamps", ["-e", "cpu-clock", "-T"]),
    ("sample-cpu", ["-e", "cpu-clock", "--sample-cpu"]),
    ("frequency", ["-e", "cpu-clock", "-F", "4000"]),
    ("period", ["-e", "cpu-clock", "-c", "100000"]),
    ("system-wide", ["-e", "cpu-clock", "-a"]),
]


def corpus(d):
    """Each file of the corpus, as perf report reads it."""
    need_perf()
    for name, opts in CORPUS:
        path = os.path.join(d, f"corpus-{name}.data")
        cmd = [PERF, "record", *opts, "-o", path, "--", HOTSPOTS, "150"]
        p = run(cmd, timeout=180)
        if not check(p.returncode == 0, f"{name}: {' '.join(cmd)}: {p.stderr[-400:]}"):
            continue
        events = opts[opts.index("-e") + 1].split(",")
        for ev in events:
            agree(path, f"{name} ({ev})", event=ev if len(events) > 1 else None)
    # Through a pipe, and through perf inject (a file perf rewrote).
    piped = os.path.join(d, "corpus-pipe.data")
    with open(piped, "wb") as out:
        subprocess.run([PERF, "record", "-e", "cpu-clock", "-g", "-o", "-", HOTSPOTS, "150"],
                       stdout=out, stderr=subprocess.DEVNULL, timeout=180)
    agree(piped, "pipe")
    # perf inject, file to file (perf 6.1's pipe to file writes a header
    # that perf report itself cannot read) and pipe to pipe.
    injected = os.path.join(d, "corpus-inject.data")
    p = run([PERF, "inject", "-b", "-i", os.path.join(d, "corpus-frame-pointers.data"), "-o",
             injected], timeout=180)
    if check(p.returncode == 0, f"perf inject -b: {p.stderr}"):
        agree(injected, "perf inject -b")
    injected = os.path.join(d, "corpus-inject-pipe.data")
    with open(piped, "rb") as src, open(injected, "wb") as out:
        p = subprocess.run([PERF, "inject", "-b", "-i", "-", "-o", "-"], stdin=src, stdout=out,
                           stderr=subprocess.PIPE, text=True, timeout=180)
    if check(p.returncode == 0, f"perf inject -b, pipe to pipe: {p.stderr}"):
        agree(injected, "perf inject -b, pipe to pipe")


with tempfile.TemporaryDirectory() as tmp:
    case(crafted, tmp)
    case(late_event, tmp)
    case(bounded, tmp)
    case(modules, tmp)
    case(rebuilt, tmp)
    case(pipe_from_perf, tmp)
    case(pipe_to_perf, tmp)
    case(compressed, tmp)
    case(corpus, tmp)
done()
