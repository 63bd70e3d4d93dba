#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof record --rotate SECONDS --output-dir DIR --keep N: a perf.data
file an interval, each read on its own, together every sample of the
command (the library's hwp_record_rotate() loses none between two, which
tests/kernel/test-rotate.c checks to the sample); the oldest removed
past --keep; the options' errors. With --format pprof, a .pb.gz an
interval that go tool pprof reads, its samples labelled with the
workload's comm, pid, tid and the host."""
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from common import (HWPROF, WORKLOAD, TestCgroup, case, check, done, hwprof, pprof,
                    report_json, run, skip)
from profileproto import read_pprof

NAME = re.compile(r"perf-[^/]+-\d{8}T\d{6}Z-(\d{6})\.data")
PB_NAME = re.compile(r"perf-[^/]+-\d{8}T\d{6}Z-(\d{6})\.pb\.gz")


def usage_errors():
    with tempfile.TemporaryDirectory() as d:
        for args, what in ((["--rotate", "1"], "--output-dir"),
                           (["--rotate", "1", "--output-dir", d, "-o", "x"], "not with -o"),
                           (["--output-dir", d], "--rotate"),
                           (["--keep", "2"], "--rotate"),
                           (["--rotate", "0", "--output-dir", d], "--rotate"),
                           (["--rotate", "1", "--output-dir", d, "--keep", "0"], "--keep"),
                           (["--rotate", "1", "--output-dir", f"{d}/none"], "none"),
                           (["--format", "pprof"], "--rotate"),
                           (["--rotate", "1", "--output-dir", d, "--format", "x"], "pprof")):
            p = hwprof("record", *args, "--", "true")
            check(p.returncode in (1, 2) and what in p.stderr,
                  f"{args}: {p.returncode} {p.stderr}")
        check(os.listdir(d) == [], f"nothing written: {os.listdir(d)}")


def files(d, name=NAME):
    names = sorted(os.listdir(d))
    check(all(name.fullmatch(n) for n in names), f"names {names}")
    return names


def every_sample():
    """1.2 s of the workload's CPU time sampled every millisecond of
    cpu-clock: about 1200 samples across the files, each of which reads,
    and not many more (its start's own CPU time). Not exactly 1200 at
    least: on a busy machine the kernel's cpu-clock timer steps over
    periods it fired late (hrtimer_forward_now), one sample for several;
    that no sample is lost between two files is kernel/test-rotate's
    check, which samples every page fault and counts them beside."""
    with tempfile.TemporaryDirectory() as d:
        p = hwprof("record", "-e", "cpu-clock", "-c", "1000000", "--rotate", "0.2",
                   "--output-dir", d, "--", WORKLOAD, "cpuspin", "1.2")
        if not check(p.returncode == 0, p.stderr):
            return
        names = files(d)
        total = 0
        for n in names:
            r, doc = report_json(os.path.join(d, n), "--top", "1")
            check(r.returncode == 0 and doc, f"{n}: {r.stderr}")
            total += doc["total_samples"] if doc else 0
        check(len(names) >= 2, f"{len(names)} files")
        check(1200 * 0.95 <= total <= 1200 * 1.05 + 50,
              f"{total} samples in {len(names)} files")
        m = re.search(r"the last (\S+)", p.stderr)
        check(m and os.path.basename(m.group(1)) == names[-1], f"the last file: {p.stderr}")


def run_totals():
    """The summary counts the samples of every file the run wrote, not
    the last file's alone: every page fault sampled (-c 1), its count is
    the sum of the files' own. A pprof's comments name no file that is
    not there (its perf.data was removed once converted)."""
    pages = 20000
    for fmt, name in (("perf.data", NAME), ("pprof", PB_NAME)):
        with tempfile.TemporaryDirectory() as d:
            p = hwprof("record", "-e", "page-faults", "-c", "1", "-m", "1024",
                       "--rotate", "0.2", "--format", fmt, "--output-dir", d, "--", WORKLOAD,
                       "pages", str(pages), "sleep", "0.3", "pages", str(pages), "sleep",
                       "0.3", "pages", str(pages))
            if not check(p.returncode == 0, p.stderr):
                return
            names = files(d, name)
            total = 0
            for n in names:
                path = os.path.join(d, n)
                if fmt == "pprof":
                    prof = read_pprof(path)
                    if prof is None:
                        return
                    total += sum(s["value"][0] for s in prof["sample"])
                    said = [prof["string_table"][i] for i in prof.get("comment", [])]
                    gone = [w for c in said for w in re.findall(r"/\S+", c)
                            if not os.path.exists(w)]
                    check(said and not gone, f"{n}: comments {said} name {gone}")
                    continue
                r, doc = report_json(path, "--top", "1")
                check(r.returncode == 0 and doc, f"{n}: {r.stderr}")
                total += doc["total_samples"] if doc else 0
            m = re.search(r"hwprof record: (\d+) samples of page-faults written to "
                          r"(\d+) files in ", p.stderr)
            check(len(names) >= 3 and 3 * pages <= total, f"{total} samples in {names}")
            check(m and int(m.group(1)) == total and int(m.group(2)) == len(names),
                  f"{fmt}: {total} samples in {len(names)} files: {p.stderr}")


def keep():
    """--keep 2: the two newest files are left, the oldest removed; with
    --format pprof, the two newest .pb.gz, and no perf.data."""
    for fmt, name in (("perf.data", NAME), ("pprof", PB_NAME)):
        with tempfile.TemporaryDirectory() as d:
            p = hwprof("record", "-e", "cpu-clock", "--rotate", "0.1", "--keep", "2",
                       "--format", fmt, "--output-dir", d, "--", WORKLOAD, "cpuspin", "0.8")
            if not check(p.returncode == 0, p.stderr):
                return
            names = files(d, name)
            seqs = [int(name.fullmatch(n).group(1)) for n in names if name.fullmatch(n)]
            check(len(names) == 2 and seqs and seqs[-1] >= 2 and
                  seqs == [seqs[0], seqs[0] + 1], f"{fmt}: kept {names}")


def lines_of(stream):
    """The lines of a text pipe, as a reader thread puts them in a queue
    (None at its end)."""
    q = queue.Queue()

    def read():
        for line in stream:
            q.put(line)
        q.put(None)
    threading.Thread(target=read, daemon=True).start()
    return q


def wait_line(q, what, said, timeout=60):
    """The first line with WHAT from the queue Q (kept in SAID), or None at
    the end of the pipe or after TIMEOUT seconds without it."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            line = q.get(timeout=end - time.monotonic())
        except queue.Empty:
            return None
        if line is None:
            return None
        said.append(line)
        if what in line:
            return line
    return None


def wait_for(cond, timeout=60):
    """Until cond() is true (polled), or TIMEOUT seconds: whether it is."""
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.05)
    return cond()


def hold_env(d, **holds):
    """The environment of a command under the hold shim (HOLDS: its
    settings), its log D/log; the case skipped without the shim."""
    shim = os.environ.get("HOLD_SHIM")
    if not shim:
        skip("$HOLD_SHIM is not set (meson test sets it)")
    return dict(os.environ, LD_PRELOAD=shim, HWPROF_HOLD_LOG=os.path.join(d, "log"), **holds)


def stopped_twice(out, env, what, ready):
    """record --rotate 0.1 --format pprof of every page fault into OUT
    under ENV, stopped by a Ctrl-C once ready() (WHAT it waits for), and by
    a second once it says that it converts the rest: (its status, its
    stderr), or None after saying why."""
    h = subprocess.Popen([HWPROF, "record", "-e", "page-faults", "-c", "1", "--rotate",
                          "0.1", "--format", "pprof", "--output-dir", out, "--", WORKLOAD,
                          "pages", "2000", "sleep", "60"],
                         stderr=subprocess.PIPE, text=True, env=env)
    said, q = [], lines_of(h.stderr)
    try:
        check(wait_for(ready), f"{what}: {os.listdir(out)}")
        h.send_signal(signal.SIGINT)
        check(wait_line(q, "Ctrl-C again", said), f"the first stop: {said}")
        h.send_signal(signal.SIGINT)
        h.wait(timeout=60)
    except subprocess.TimeoutExpired:
        check(False, f"the second Ctrl-C did not end the command: {said}")
        h.kill()
        h.wait()
        return None
    while (line := q.get(timeout=60)) is not None:
        said.append(line)
    return h.returncode, "".join(said)


def second_stop():
    """--format pprof, a conversion that does not end (the LD_PRELOAD shim
    tests/shim/hold-shim.c holds the command's first hwp_profile_load()
    for good) while the rotations queue more files: the first Ctrl-C ends
    the recording and says that it is converting the rest; the second
    stops at once, listing every file not converted, each kept as a
    perf.data that reads, counted in the summary with its samples. Without
    the second stop's cut, the command would wait for the held conversion
    forever."""
    with tempfile.TemporaryDirectory() as d:
        out, fifo = os.path.join(d, "out"), os.path.join(d, "hold")
        os.mkdir(out)
        os.mkfifo(fifo)
        data = lambda: [n for n in os.listdir(out) if n.endswith(".data")]
        # the first file held, two queued behind it, one being written
        stopped = stopped_twice(out, hold_env(d, HWPROF_HOLD_FIFO=fifo), "held and queued",
                                lambda: os.path.exists(os.path.join(d, "log")) and
                                len(data()) >= 4)
        if not stopped:
            return
        code, err = stopped
        names = sorted(os.listdir(out))
        listed = re.findall(r"^  (\S+\.data)$", err, re.M)
        m = re.search(r"stopped: (\d+) finished files? not converted to pprof, kept as "
                      r"perf\.data", err)
        check(code == 130, f"the command's status (SIGINT): {code}: {err}")
        check(m and int(m.group(1)) == len(listed) >= 4 and
              [os.path.basename(n) for n in listed] == names and
              all(NAME.fullmatch(n) for n in names),
              f"every file listed, none converted: {listed}, in {out}: {names}: {err}")
        total = 0
        for n in names:
            r, doc = report_json(os.path.join(out, n), "--top", "1")
            check(r.returncode == 0 and doc, f"{n} reads: {r.stderr}")
            total += doc["total_samples"] if doc else 0
        s = re.search(r"hwprof record: (\d+) samples of page-faults written to (\d+) files "
                      r"in \S+, the last (\S+)", err)
        check(s and int(s.group(1)) == total >= 2000 and int(s.group(2)) == len(names) and
              s.group(3) == listed[-1], f"the summary: {total} samples in {names}: {err}")


def fails_after_start():
    """A recording that fails once --format pprof's thread is started (an
    unknown event) says why and exits 2, not by a signal, and writes
    nothing; also when the thread runs only once the command waits for it
    to end (the shim's HWPROF_HOLD_THREADS), as the failed recording's
    state is being released."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        for held in (False, True):
            env = hold_env(d, HWPROF_HOLD_THREADS="1") if held else None
            p = hwprof("record", "--rotate", "1", "--output-dir", out, "--format", "pprof",
                       "-e", "no_such_event_xyz", "--", "true", env=env)
            check(p.returncode == 2 and "unknown event 'no_such_event_xyz'" in p.stderr,
                  f"held {held}: status {p.returncode}: {p.stderr}")
        check(os.listdir(out) == [], f"nothing written: {os.listdir(out)}")


def second_stop_after_a_conversion():
    """A second Ctrl-C just after a conversion was put in place (the shim
    holds the converting thread once it renamed the first .pb.gz and let
    its lock go, HWPROF_HOLD_RENAMED, for good): that file counts among
    the finished ones, as the files not converted, listed and kept as
    perf.data: the summary's count is every file in the directory, none
    removed, the last the newest."""
    with tempfile.TemporaryDirectory() as d:
        out, fifo = os.path.join(d, "out"), os.path.join(d, "hold")
        os.mkdir(out)
        os.mkfifo(fifo)
        log = os.path.join(d, "log")
        stopped = stopped_twice(out, hold_env(d, HWPROF_HOLD_RENAMED=fifo),
                                "a conversion in place",
                                lambda: os.path.exists(log) and "renamed" in open(log).read())
        if not stopped:
            return
        code, err = stopped
        names = sorted(os.listdir(out))
        pbs = [n for n in names if PB_NAME.fullmatch(n)]
        listed = [os.path.basename(n) for n in re.findall(r"^  (\S+\.data)$", err, re.M)]
        with open(log) as f:
            renamed = [os.path.basename(w)
                       for w in re.findall(r"^renamed (\S+)$", f.read(), re.M)]
        check(code == 130, f"the command's status (SIGINT): {code}: {err}")
        check(pbs == renamed and len(pbs) == 1 and listed and listed == names[1:],
              f"converted {renamed}, listed {listed}, in {out}: {names}: {err}")
        s = re.search(r"written to (\d+) files in \S+( \(\d+ kept\))?, the last (\S+)", err)
        check(s and int(s.group(1)) == len(names) and not s.group(2) and
              os.path.basename(s.group(3)) == names[-1], f"the summary of {names}: {err}")


def tags(text):
    """go tool pprof -tags: {key: {value: weight}}."""
    out, key = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*(\w+): Total ", line)
        if m:
            key = out.setdefault(m.group(1), {})
            continue
        m = re.match(r"\s*([\d.]+)\s+\(\s*[\d.]+%\):\s+(.+?)\s*$", line)
        if m and key is not None:
            key[m.group(2)] = float(m.group(1))
    return out


def pprof_files():
    """--format pprof: every page fault of the workload sampled (-c 1), in
    .pb.gz files that go tool pprof reads, one an interval and the
    perf.data files gone; each sample labelled comm (the workload's), pid,
    tid and host; the files' faults together those of the three 20000
    pages touched, and the few of the workload's start, whichever file
    they fell in (no sample lost between two files: kernel/test-rotate
    checks that to the sample, here a file's conversion is checked to
    keep them all)."""
    pages = 20000
    with tempfile.TemporaryDirectory() as d, tempfile.TemporaryDirectory() as gocache:
        # -m 1024: a burst of 20000 samples (1.1 MB) fits a ring, however
        # late the reader runs on a loaded machine
        p = hwprof("record", "-e", "page-faults", "-c", "1", "-m", "1024", "--rotate", "0.2",
                   "--format", "pprof", "--output-dir", d, "--", WORKLOAD,
                   "pages", str(pages), "sleep", "0.3", "pages", str(pages), "sleep", "0.3",
                   "pages", str(pages))
        if not check(p.returncode == 0, p.stderr):
            return
        names = files(d, PB_NAME)
        check(len(names) >= 3, f"{len(names)} files: {names}")
        m = re.search(r"the last (\S+)", p.stderr)
        check(m and os.path.basename(m.group(1)) == names[-1], f"the last file: {p.stderr}")
        total = 0
        for n in names:
            path = os.path.join(d, n)
            prof = read_pprof(path)
            text = pprof(gocache, "-tags", path)
            if prof is None or text is None:
                return
            faults = sum(s["value"][0] for s in prof["sample"])
            total += faults
            t = tags(text)
            if not faults:
                check(t == {}, f"{n}: no sample, no tag: {t}")
                continue
            check(t.get("comm") == {"workload": faults}, f"{n}: comm {t.get('comm')}")
            check(t.get("host") == {socket.gethostname(): faults}, f"{n}: host {t.get('host')}")
            check(len(t.get("pid", {})) == 1 and t.get("tid") == t.get("pid") and
                  sum(t["pid"].values()) == faults, f"{n}: pid {t.get('pid')} tid {t.get('tid')}")
        check(3 * pages <= total <= 3 * pages + 1000, f"{total} page faults in {len(names)} files")


def labels_of(prof, sample):
    """A decoded sample's labels: {key: str or num}."""
    st = prof["string_table"]
    return {st[lb["key"]]: st[lb["str"]] if "str" in lb else lb.get("num", 0)
            for lb in sample["label"]}


def pprof_cgroups():
    """--all-cgroups with --format pprof: the workload runs in a cgroup
    of its own (made before the recording: named by the file's start), and
    each of its samples in every file is labelled cgroup with its path
    under the v2 mount, as go tool pprof -tags reads it; perf report
    --sort cgroup reads the same paths from a perf.data of hwprof's."""
    pages = 20000
    with TestCgroup() as cg, tempfile.TemporaryDirectory() as d, \
            tempfile.TemporaryDirectory() as gocache:
        path = "/" + cg.name
        p = hwprof("record", "-e", "page-faults", "-c", "1", "-m", "1024", "--all-cgroups",
                   "--rotate", "0.2", "--format", "pprof", "--output-dir", d, "--",
                   *cg.enter_and_run(WORKLOAD, "pages", str(pages), "sleep", "0.3",
                                     "pages", str(pages)))
        if not check(p.returncode == 0, p.stderr):
            return
        ours = 0
        for n in files(d, PB_NAME):
            prof = read_pprof(os.path.join(d, n))
            text = pprof(gocache, "-tags", os.path.join(d, n))
            if prof is None or text is None:
                return
            mine = [s["value"][0] for s in prof["sample"]
                    if labels_of(prof, s).get("comm") == "workload"]
            wrong = [labels_of(prof, s) for s in prof["sample"]
                     if labels_of(prof, s).get("comm") == "workload" and
                     labels_of(prof, s).get("cgroup") != path]
            check(not wrong, f"{n}: the workload's samples out of {path}: {wrong[:2]}")
            ours += sum(mine)
            # its shell's too, once it moved itself there
            there = sum(s["value"][0] for s in prof["sample"]
                        if labels_of(prof, s).get("cgroup") == path)
            if mine:
                check(tags(text).get("cgroup", {}).get(path) == there >= sum(mine),
                      f"{n}: go tool pprof -tags: {tags(text).get('cgroup')}, "
                      f"{there} in {path}, the workload's {sum(mine)}")
        check(2 * pages <= ours <= 2 * pages + 1000, f"the workload's {ours} faults")
        data = os.path.join(d, "one.data")
        p = hwprof("record", "-e", "page-faults", "--all-cgroups", "-o", data, "--",
                   *cg.enter_and_run(WORKLOAD, "pages", "2000"))
        if not check(p.returncode == 0, p.stderr) or not shutil.which("perf"):
            return
        perf = run(["perf", "report", "-i", data, "--sort", "cgroup", "--stdio"])
        if check(perf.returncode == 0, perf.stderr[-600:]):
            check(re.search(r"%\s+" + re.escape(path) + r"\s*$", perf.stdout, re.M),
                  f"perf report --sort cgroup: {perf.stdout[-600:]}")


case(usage_errors)
case(every_sample, name="--rotate: every sample, in files that read")
case(keep, name="--keep: the newest files")
case(run_totals, name="the summary: the samples of every file")
case(second_stop, name="--format pprof: a second Ctrl-C stops the conversions")
case(fails_after_start, name="--format pprof: a recording that fails as the thread starts")
case(second_stop_after_a_conversion,
     name="--format pprof: a second Ctrl-C counts a conversion just put in place")
case(pprof_files, name="--format pprof: labelled files that go tool pprof reads")
case(pprof_cgroups, name="--all-cgroups: each sample's cgroup, in pprof and for perf")
done()
