#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Safe by default: a recording (which holds the program's stack) is
readable by its owner alone, whatever the umask or the file it replaces;
the file it replaces is kept as NAME.old, as perf keeps it; outputs that
are not regular files (/dev/null, a FIFO) take the recording, in perf's
pipe format where nothing can be sought; a perf.data whose mapping names
a FIFO ends report and diff with a message, never a hang; CSV shows no
control character from a thread name or a JIT's symbol."""
import os
import re
import stat
import subprocess
import tempfile
import threading

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, hwprof, run
from perfdata import PerfData

WORKLOAD_PATH = os.path.realpath(WORKLOAD)
NOBODY = 65534
# a pid no process of this test has: its JIT map is the test's own
JIT_PID = 4194300
ANON = 0x7f1200000000


def record(out, *args, **kw):
    return hwprof("record", "-e", "cpu-clock", "-o", out, *args, "--", WORKLOAD, "spin",
                  "0.05", **kw)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def private_recording(d):
    """0600 whatever the umask, even over another user's file of 0644;
    nobody cannot read it. A report keeps 0666 less the umask, as perf
    stat -o's fopen() gives."""
    out = os.path.join(d, "x.data")
    p = record(out, umask=0)
    check(p.returncode == 0 and mode(out) == 0o600,
          f"umask 0: mode {mode(out):o} (want 600), status {p.returncode}, {p.stderr}")
    os.chmod(out, 0o644)
    root = os.geteuid() == 0
    if root:
        os.chown(out, NOBODY, NOBODY)
    p = record(out, umask=0o022)
    st = os.stat(out)
    check(p.returncode == 0 and stat.S_IMODE(st.st_mode) == 0o600 and st.st_uid == os.getuid(),
          f"over {'nobody' if root else 'our'}'s 0644 file: mode {stat.S_IMODE(st.st_mode):o}"
          f" owner {st.st_uid}")
    if root:
        os.chmod(d, 0o755)
        with open(os.path.join(d, "control"), "w") as f:
            f.write("readable")
        os.chmod(os.path.join(d, "control"), 0o644)
        r = run(["cat", os.path.join(d, "control")], user=NOBODY)
        check(r.returncode == 0 and r.stdout == "readable", "nobody reads a 0644 file here")
        r = run(["cat", out], user=NOBODY)
        check(r.returncode != 0 and r.stdout == "", f"nobody reads it: status {r.returncode}")
    rep = os.path.join(d, "report.txt")
    p = hwprof("report", "-i", out, "-o", rep, umask=0o022)
    check(p.returncode == 0 and mode(rep) == 0o644, f"a report: mode {mode(rep):o}, {p.stderr}")


def old_kept(d):
    """perf record moves a non-empty file of the output's name to NAME.old
    (replacing an older one); an empty one is overwritten, not kept."""
    out = os.path.join(d, "keep.data")
    check(record(out).returncode == 0, "first recording")
    with open(out, "rb") as f:
        first = f.read()
    check(not os.path.exists(out + ".old"), "nothing to keep the first time")
    p = record(out)
    with open(out + ".old", "rb") as f:
        check(p.returncode == 0 and f.read() == first, "the first recording is kept as .old")
    with open(out, "rb") as f:
        second = f.read()
    record(out)
    with open(out + ".old", "rb") as f:
        check(f.read() == second, "the second recording replaces the older .old")
    empty = os.path.join(d, "empty.data")
    open(empty, "w").close()
    p = record(empty)
    check(p.returncode == 0 and not os.path.exists(empty + ".old") and
          os.path.getsize(empty) > 0, "an empty file is not kept")
    # NAME.old cannot be replaced (a directory): neither recording is lost.
    blocked = os.path.join(d, "blocked.data")
    with open(blocked, "w") as f:
        f.write("older")
    os.mkdir(blocked + ".old")
    p = record(blocked)
    m = re.search(r"the new recording is in '([^']+)'", p.stderr)
    check(p.returncode == 1 and m and os.path.getsize(m.group(1)) > 0, p.stderr)
    with open(blocked) as f:
        check(f.read() == "older", "the older file is where it was")
    if m:
        r = hwprof("report", "-i", m.group(1))
        check(r.returncode == 0 and "samples" in r.stdout, f"the new one reads: {r.stderr}")


def dev_null(d):
    """perf record -o /dev/null measures recording's overhead: it works."""
    p = record("/dev/null")
    check(p.returncode == 0 and "(null)" not in p.stderr and
          "written to /dev/null (perf's pipe format) ]" in p.stderr,
          f"status {p.returncode}, stderr {p.stderr}")
    check(stat.S_ISCHR(os.stat("/dev/null").st_mode) and mode("/dev/null") == 0o666,
          "/dev/null is left as it was")


def fifo_output(d):
    """A FIFO takes perf's pipe format (what -o - writes), which a report
    reads from its other end."""
    fifo = os.path.join(d, "out.fifo")
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, "rb") as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    p = record(fifo)
    t.join(60)
    data = got[0] if got else b""
    check(p.returncode == 0 and "seek" not in p.stderr, f"status {p.returncode}, {p.stderr}")
    check(data[:16] == b"PERFILE2" + (16).to_bytes(8, "little"),
          f"pipe format: {data[:16]!r} of {len(data)} bytes")
    r = hwprof("report", "-i", "-", "--sort", "dso", input=data.decode("latin-1"),
               encoding="latin-1")
    check(r.returncode == 0 and os.path.basename(WORKLOAD_PATH) in r.stdout,
          f"a report of it: status {r.returncode}, {r.stdout[-400:]} {r.stderr}")


def fifo_without_reader(d):
    """A FIFO that no one reads: an error that says so, not a wait for ever."""
    fifo = os.path.join(d, "lonely.fifo")
    os.mkfifo(fifo)
    try:
        p = record(fifo, timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "record waited for a reader")
        return
    check(p.returncode == 1 and "no one reads" in p.stderr and fifo in p.stderr,
          f"status {p.returncode}, {p.stderr}")


def hostile_fifo_mapping(d):
    """A recording whose mapping (and build-id entry) names a FIFO, that
    no one writes nor reads: report and diff end, and say why the file was
    not read. The FIFO is /run/systemd/inaccessible/fifo on systemd hosts."""
    good = os.path.join(d, "good.data")
    check(record(good).returncode == 0, "a recording")
    fifo = os.path.join(d, "f")
    os.mkfifo(fifo)
    old, new = WORKLOAD_PATH.encode(), fifo.encode()
    assert len(new) <= len(old)
    with open(good, "rb") as f:
        buf = f.read()
    check(buf.count(old + b"\0") >= 2, "the workload's mapping and build-id are in the file")
    bad = os.path.join(d, "bad.data")
    with open(bad, "wb") as f:
        f.write(buf.replace(old + b"\0", new.ljust(len(old), b"\0") + b"\0"))
    # The mapping alone renamed: the file has no build-id then, and its
    # inode is checked against the recording's (the FIFO's is another).
    only = os.path.join(d, "only-mapping.data")
    with open(only, "wb") as f:
        f.write(buf.replace(old + b"\0", new.ljust(len(old), b"\0") + b"\0", 1))
    for args in (("report", "-i", bad), ("diff", good, bad), ("report", "-i", only)):
        try:
            p = hwprof(*args, timeout=60)
        except subprocess.TimeoutExpired:
            check(False, f"hwprof {args[0]} hung on the FIFO")
            continue
        # the FIFO's samples stay unnamed, at their offsets in it; the
        # report says why (diff lists no modules without symbols)
        why = "not a regular file" in p.stdout if args[0] == "report" else True
        check(p.returncode == 0 and why and " f+0x" in p.stdout,
              f"{args[0]}: status {p.returncode}, {p.stdout[-600:]} {p.stderr}")


def csv_escaped(d):
    """A thread name set with prctl and a JIT map's symbol reach CSV with
    their control characters escaped, as text shows them."""
    with open(f"/tmp/perf-{JIT_PID}.map", "w") as f:
        f.write(f"{ANON:x} 100 jit\x1b[31mred\n")
    try:
        pd = PerfData()
        pd.comm(JIT_PID, b"th\x1b]0;t\x07")
        pd.mmap(JIT_PID, ANON, 0x1000, 0, b"//anon")
        pd.sample(JIT_PID, ANON + 0x10)
        data = os.path.join(d, "jit.data")
        pd.write(data)
        for args, want in ((("--format", "csv"), "jit\\x1b[31mred"),
                           (("--format", "csv", "--sort", "pid"), "th\\x1b]0;t\\x07"),
                           (("-x", ";", "--sort", "comm"), "th\\x1b]0;t\\x07")):
            p = subprocess.run([*WRAPPER, HWPROF, "report", "-i", data, *args],
                               capture_output=True, timeout=60)
            out = p.stdout.decode("utf-8", "replace")
            check(p.returncode == 0 and not [c for c in p.stdout if c < 0x20 and c != 0x0a]
                  and want in out, f"{' '.join(args)}: {p.stdout!r} {p.stderr!r}")
    finally:
        os.unlink(f"/tmp/perf-{JIT_PID}.map")


with tempfile.TemporaryDirectory() as tmp:
    case(private_recording, tmp)
    case(old_kept, tmp)
    case(dev_null, tmp)
    case(fifo_output, tmp)
    case(fifo_without_reader, tmp)
    case(hostile_fifo_mapping, tmp)
    case(csv_escaped, tmp)
done()
