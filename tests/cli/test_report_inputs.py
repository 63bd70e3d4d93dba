#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report on perf.data files made by hand (perfdata.py), with what a
recording of another machine, or a hostile file, may hold: modules that
are FIFOs or devices here. And --annotate of a program built here, whose
source file is then replaced by what debug information may also name."""
import os
import tempfile

from common import HAVE_LIBDW, check, done, hwprof, report_json, run
from perfdata import PerfData

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
    for what, module in (("a FIFO", fifo), ("a character device", "/dev/null"),
                         ("a directory", d)):
        data = one_sample_in(d, "special.data", module.encode())
        try:
            p, doc = report_json(data, timeout=20)
        except Exception as e:	# the report hung on the FIFO
            check(False, f"{what}: {e}")
            continue
        mods = doc["modules_without_symbols"] if doc else []
        check(p.returncode == 0 and mods and mods[0]["dso"] == module and
              mods[0]["reason"].startswith("not a regular file"),
              f"{what}: status {p.returncode}, modules {mods}, stderr {p.stderr}")


def annotate_sources(d):
    """The source file that debug information names is read only when it is
    a regular file of sane size; otherwise the annotation says why not."""
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
    special_modules(tmp)
    if HAVE_LIBDW:
        annotate_sources(tmp)
    else:
        print("built without libdw: no source lines to annotate")
done()
