#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report on perf.data files made by hand (perfdata.py), with what a
recording of another machine, or a hostile file, may hold: modules that
are FIFOs or devices here, names that are not UTF-8 and hold control
characters, another host or kernel. And --annotate of a program built here, whose
source file is then replaced by what debug information may also name."""
import csv
import io
import json
import os
import subprocess
import tempfile

from common import HAVE_LIBDW, HWPROF, WRAPPER, case, check, done, hwprof, report_json, run, skip
from perfdata import HEADER_HOSTNAME, HEADER_OSRELEASE, PerfData

CC = os.environ.get("CC", "cc").split()
SPIN_C = """volatile unsigned long sink;
__attribute__((noinline)) void spin(void)
{
	for (unsigned long i = 0; i < 300000000UL; i++)
		sink += i;
}
int main(void) { spin(); return 0; }
"""

PID = 1234
BASE = 0x400000


def one_sample_in(d, name, module):
    """A file with one sample in MODULE (a path, bytes)."""
    pd = PerfData()
    pd.mmap(PID, BASE, 0x1000, 0, module)
    pd.sample(PID, BASE + 0x100)
    path = os.path.join(d, name)
    pd.write(path)
    return path


def special_modules(d):
    """A module path that names a FIFO or a device is not opened for reading
    (a FIFO would block the report for ever) and is listed with the reason."""
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    for what, module, reason in (("a FIFO", fifo, "not a regular file"),
                                 ("a character device", "/dev/null", "not a regular file"),
                                 ("a directory", d, "a directory")):
        data = one_sample_in(d, "special.data", module.encode())
        try:
            p, doc = report_json(data, timeout=20)
        except Exception as e:	# the report hung on the FIFO
            check(False, f"{what}: {e}")
            continue
        mods = doc["modules_without_symbols"] if doc else []
        check(p.returncode == 0 and mods and mods[0]["dso"] == module and
              mods[0]["reason"].startswith(reason),
              f"{what}: status {p.returncode}, modules {mods}, stderr {p.stderr}")


def hwprof_bytes(*args):
    """hwprof's output as bytes, undecoded."""
    return subprocess.run([*WRAPPER, HWPROF, *args], capture_output=True, timeout=60)


def odd_names(d):
    """A module path and a command name of any bytes but NUL: JSON stays
    valid UTF-8 (U+FFFD for the invalid bytes), text shows no control
    character, CSV escapes control characters as text does, quotes what it
    must and keeps the other bytes."""
    name = d.encode() + b"/m\xff\x1b[31mred\n,\"q\";\r\x7f"
    pd = PerfData()
    pd.comm(PID, b"c\xfe\x1b]0;title\x07")
    pd.mmap(PID, BASE, 0x1000, 0, name)
    pd.sample(PID, BASE + 0x100)
    data = os.path.join(d, "odd.data")
    pd.write(data)
    want = name.decode("utf-8", "replace")
    check("\ufffd" in want, "the name is not UTF-8")
    for sort in ("sym", "rip", "line", "dso"):
        p = hwprof_bytes("report", "--format", "json", "--sort", sort, "-i", data)
        try:
            doc = json.loads(p.stdout.decode("utf-8"))
        except ValueError as e:
            check(False, f"--sort {sort}: not JSON in UTF-8: {e}: {p.stdout[:400]!r}")
            continue
        dsos = [e["dso"] for e in doc["entries"]] + [m["dso"] for m in doc["modules_without_symbols"]]
        check(p.returncode == 0 and dsos == [want, want], f"--sort {sort}: {dsos} {p.stderr!r}")
    p = hwprof_bytes("report", "-i", data)
    shown = (want.replace("\n", "\\x0a").replace("\r", "\\x0d").replace("\x1b", "\\x1b")
             .replace("\x7f", "\\x7f"))
    out = p.stdout.decode("utf-8", "replace")
    check(p.returncode == 0 and not [c for c in p.stdout if c < 0x20 and c != 0x0a or c == 0x7f],
          f"text without control characters: {p.stdout!r}")
    check(f"#   {shown} (1 samples): " in out, f"the module, shown escaped: {out!r}")
    # Folded stacks: one line, one frame; ';' and control characters as '?'.
    p = hwprof_bytes("report", "-i", data, "--format", "folded")
    frame = os.path.basename(name).replace(b";", b"?")
    frame = bytes(b if b >= 0x20 and b != 0x7f else ord("?") for b in frame)
    check(p.returncode == 0 and p.stdout == frame + b"+0x100 1\n", f"folded: {p.stdout!r}")
    for sep in (",", ";"):
        p = hwprof_bytes("report", "-i", data, "-x", sep)
        text = io.TextIOWrapper(io.BytesIO(p.stdout), encoding="utf-8", errors="surrogateescape",
                                newline="")
        rows = list(csv.reader(text, delimiter=sep))
        got = shown.encode().decode("utf-8", "surrogateescape").replace("\ufffd", "\udcff")
        check(p.returncode == 0 and len(rows) == 2 and rows[1][3:] == [os.path.basename(got) + "+0x100", got],
              f"CSV with {sep!r}: {rows}")


def csv_carriage_return(d):
    """A carriage return in a field is escaped, as text shows it (\\x0d):
    CSV readers would take a raw one for the end of the row."""
    name = d.encode() + b"/cr\rmod"
    data = one_sample_in(d, "cr.data", name)
    p = hwprof_bytes("report", "-i", data, "-x", ",", "--sort", "dso")
    text = io.TextIOWrapper(io.BytesIO(p.stdout), encoding="utf-8", newline="")
    try:
        rows = list(csv.reader(text))
    except csv.Error as e:
        rows = f"{e}: {p.stdout!r}"
    want = name.decode().replace("\r", "\\x0d")
    check(p.returncode == 0 and rows[1:] == [["100.00", "1", "1", want]],
          f"CSV of a module named with a carriage return: {rows}")


def recorded_elsewhere(d):
    """A file whose header names another host or kernel: one warning, on
    standard error, that modules may not match, and that kernel symbols
    are not named, of a kernel release not this one."""
    here = os.uname()
    for host, kernel, warned in ((None, None, None), (here.nodename, here.release, None),
                                 ("elsewhere", here.release,
                                  f"on host 'elsewhere' (this is '{here.nodename}'): modules"),
                                 (here.nodename, "0.1-old",
                                  f"under kernel 0.1-old (this one runs {here.release}): "
                                  "kernel symbols are not named (the recording's kernel, "
                                  f"0.1-old, is not this one ({here.release}), and the file "
                                  "names no build-id to find its symbols by: give a copy of "
                                  "the recording machine's /proc/kallsyms (report --kallsyms "
                                  "FILE)), and modules"),
                                 ("elsewhere", "0.1-old", "on host 'elsewhere' (this is "
                                  f"'{here.nodename}') with kernel 0.1-old (this one runs ")):
        pd = PerfData()
        if host:
            pd.feature_string(HEADER_HOSTNAME, host.encode())
            pd.feature_string(HEADER_OSRELEASE, kernel.encode())
        pd.mmap(PID, BASE, 0x1000, 0, b"/nonexistent/module")
        pd.sample(PID, BASE + 0x100)
        data = os.path.join(d, "host.data")
        pd.write(data)
        for fmt in ("text", "json"):
            p = hwprof("report", "-i", data, "--format", fmt)
            what = f"recorded on {host} with {kernel}, --format {fmt}"
            if not warned:
                check(p.returncode == 0 and p.stderr == "", f"{what}: no warning: {p.stderr}")
                continue
            lines = p.stderr.splitlines()
            check(p.returncode == 0 and len(lines) == 1 and
                  lines[0].startswith(f"hwprof report: warning: '{data}' was recorded ") and
                  warned in lines[0] and lines[0].endswith("may not match the recording's"),
                  f"{what}: one warning: {p.stderr}")
            check("warning" not in p.stdout and ("/nonexistent/module (1 samples)" in p.stdout or
                                                 '"dso": "/nonexistent/module"' in p.stdout),
                  f"{what}: the report as ever: {p.stdout}")


def huge_periods(d):
    """Periods are u64: a sum of 2^63 and more is not written negative."""
    pd = PerfData()
    pd.mmap(PID, BASE, 0x1000, 0, b"/nonexistent/module")
    pd.sample(PID, BASE + 0x100, period=2**63)
    pd.sample(PID, BASE + 0x100, period=5)
    data = os.path.join(d, "period.data")
    pd.write(data)
    p, doc = report_json(data)
    check(p.returncode == 0 and doc and doc["total_period"] == 2**63 + 5 and
          doc["entries"][0]["period"] == 2**63 + 5, f"periods: {p.stdout[:400]} {p.stderr}")


def kernel_symbols(d):
    """--kallsyms: the kernel's symbols from a copy of another machine's
    /proc/kallsyms; none with ''; a file that cannot be read (missing, a
    FIFO that would block) named in the report, never a hang."""
    pd = PerfData()
    pd.mmap(PID, BASE, 0x1000, 0, b"/nonexistent/module")
    for ip in (0xffffffff81001010,) * 3 + (0xffffffff81002020,):
        pd.sample(PID, ip, kernel=True)
    pd.sample(PID, BASE + 0x100)
    data = os.path.join(d, "kernel.data")
    pd.write(data)
    ksyms = os.path.join(d, "kallsyms")
    # A small copy, and one of several reads' worth (3 MB; reads are of 1
    # MiB), each read into a buffer of its size up to its last symbol.
    for fillers in (0, 60000):
        with open(ksyms, "w") as f:
            f.write("ffffffff81000000 T _stext\n")
            for i in range(fillers):
                f.write("ffffffff8100%04x t filler_%d_%s\n" % (i % 0x1000, i, "x" * 20))
            f.write("ffffffff81001000 T hot_kernel_fn\nffffffff81002000 t cold_kernel_fn\n"
                    "ffffffff81003000 T _etext\n")
        p, doc = report_json(data, "--kallsyms", ksyms)
        rows = {(e["symbol"], e["dso"]): e["samples"] for e in doc["entries"]} if doc else {}
        check(p.returncode == 0 and rows.get(("hot_kernel_fn", "[kernel.kallsyms]")) == 3 and
              rows.get(("cold_kernel_fn", "[kernel.kallsyms]")) == 1,
              f"--kallsyms FILE of {os.path.getsize(ksyms)} bytes: {rows} {p.stderr}")
    fifo = os.path.join(d, "kallsyms.fifo")
    os.mkfifo(fifo)
    huge = os.path.join(d, "kallsyms.huge")
    with open(huge, "wb") as f:
        f.truncate(300 << 20)	# sparse: refused by its size, not read
    for arg, why in (("", 'no kernel symbols were asked for (kallsyms "")'),
                     (os.path.join(d, "missing"), "the file is not there"),
                     (fifo, "not a regular file"), (huge, "the file is too large")):
        p = hwprof("report", "-i", data, "--kallsyms", arg, timeout=30)
        check(p.returncode == 0 and "hot_kernel_fn" not in p.stdout and
              "[kernel.kallsyms] (4 samples): " in p.stdout and why in p.stdout and
              (not arg or f"'{arg}'" in p.stdout),
              f"--kallsyms {arg!r}: {p.stdout[-400:]} {p.stderr}")


def annotate_sources(d):
    """The source file that debug information names is read only when it is
    a regular file of sane size; otherwise the annotation says why not."""
    if not HAVE_LIBDW:
        skip("built without libdw: no source lines to annotate")
    src, exe, data = (os.path.join(d, n) for n in ("spin.c", "spin", "spin.data"))
    with open(src, "w") as f:
        f.write(SPIN_C)
    p = run([*CC, "-g", "-O1", "-o", exe, src])
    if not check(p.returncode == 0, f"{CC} {src}: {p.stderr}"):
        return
    p = hwprof("record", "-o", data, "--", exe, timeout=60)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    p = hwprof("report", "-i", data, "--annotate", "spin")
    check(p.returncode == 0 and "sink += i;" in p.stdout and "is not shown" not in p.stdout,
          f"annotate with the source: {p.stdout[:600]} {p.stderr}")
    os.unlink(src)
    os.mkfifo(src)
    huge = os.path.join(d, "huge.c")
    with open(huge, "wb") as f:
        f.truncate(17 << 20)
    for what, why in (("a FIFO", "not a regular file"), ("17 MiB", "the file is larger than 16 MiB"),
                      ("missing", "the file is not there (any more)")):
        if what == "17 MiB":
            os.unlink(src)
            os.rename(huge, src)
        elif what == "missing":
            os.unlink(src)
        try:
            p = hwprof("report", "-i", data, "--annotate", "spin", timeout=20)
        except Exception as e:	# the report hung on the FIFO
            check(False, f"annotate, the source {what}: {e}")
            continue
        note = f"(the text of {src} is not shown: {why}"
        check(p.returncode == 0 and p.stdout.count(note) == 1 and "sink += i;" not in p.stdout,
              f"annotate, the source {what}: {p.returncode} {p.stdout[:600]} {p.stderr}")


with tempfile.TemporaryDirectory() as tmp:
    for fn in (special_modules, odd_names, csv_carriage_return, recorded_elsewhere, huge_periods,
               kernel_symbols, annotate_sources):
        case(fn, tmp)
done()
