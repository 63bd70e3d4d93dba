#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof record --rotate SECONDS --output-dir DIR --keep N: a perf.data
file an interval, each read on its own, together every sample of the
command (the library's hwp_record_rotate() loses none between two, which
tests/kernel/test-rotate.c checks to the sample); the oldest removed
past --keep; the options' errors."""
import os
import re
import tempfile

from common import WORKLOAD, case, check, done, hwprof, report_json

NAME = re.compile(r"perf-[^/]+-\d{8}T\d{6}Z-(\d{6})\.data")


def usage_errors():
    with tempfile.TemporaryDirectory() as d:
        for args, what in ((["--rotate", "1"], "--output-dir"),
                           (["--rotate", "1", "--output-dir", d, "-o", "x"], "not with -o"),
                           (["--output-dir", d], "--rotate"),
                           (["--keep", "2"], "--rotate"),
                           (["--rotate", "0", "--output-dir", d], "--rotate"),
                           (["--rotate", "1", "--output-dir", d, "--keep", "0"], "--keep"),
                           (["--rotate", "1", "--output-dir", f"{d}/none"], "none")):
            p = hwprof("record", *args, "--", "true")
            check(p.returncode in (1, 2) and what in p.stderr,
                  f"{args}: {p.returncode} {p.stderr}")
        check(os.listdir(d) == [], f"nothing written: {os.listdir(d)}")


def files(d):
    names = sorted(os.listdir(d))
    check(all(NAME.fullmatch(n) for n in names), f"names {names}")
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
        m = re.search(r"written to (\S+)", p.stderr)
        check(m and os.path.basename(m.group(1)) == names[-1], f"the last file: {p.stderr}")


def keep():
    """--keep 2: the two newest files are left, the oldest removed."""
    with tempfile.TemporaryDirectory() as d:
        p = hwprof("record", "-e", "cpu-clock", "--rotate", "0.1", "--keep", "2",
                   "--output-dir", d, "--", WORKLOAD, "cpuspin", "0.8")
        if not check(p.returncode == 0, p.stderr):
            return
        names = files(d)
        seqs = [int(NAME.fullmatch(n).group(1)) for n in names if NAME.fullmatch(n)]
        check(len(names) == 2 and seqs and seqs[-1] >= 2 and seqs == [seqs[0], seqs[0] + 1],
              f"kept {names}")


case(usage_errors)
case(every_sample, name="--rotate: every sample, in files that read")
case(keep, name="--keep: the newest files")
done()
