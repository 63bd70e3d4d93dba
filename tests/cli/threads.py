# SPDX-License-Identifier: MIT
"""Recordings of several threads, for the tests of filters and sort keys by
thread: a file made by hand, where every count is known, and one of two
programs recorded by perf."""
import os
import shutil

from common import check, perf_sampler, run
from perfdata import PerfData

ALPHA, BETA = 100, 200
KERNEL_IP = 0xffffffff81000100


def made_by_hand(d):
    """alpha (pid 100): 10 samples in /x/alpha-bin, 2 in the kernel; beta
    (pid 200): 5 in /x/libshared.so, then it renames itself gamma: 3 more."""
    pd = PerfData()
    pd.comm(ALPHA, b"alpha")
    pd.comm(BETA, b"beta")
    pd.mmap(ALPHA, 0x400000, 0x10000, 0, b"/x/alpha-bin")
    pd.mmap(BETA, 0x500000, 0x10000, 0, b"/x/libshared.so")
    for i in range(10):
        pd.sample(ALPHA, 0x400100 + i)
    for _ in range(2):
        pd.sample(ALPHA, KERNEL_IP, kernel=True)
    for _ in range(5):
        pd.sample(BETA, 0x500100)
    pd.comm(BETA, b"gamma")
    for _ in range(3):
        pd.sample(BETA, 0x500200)
    path = os.path.join(d, "hand.data")
    pd.write(path)
    return path


def two_programs(d):
    """perf record of sh running spinA (twice the work) then spinB: (perf's
    path, the file), or None where it could not be made (a failed check)."""
    perf = perf_sampler()
    spin = os.path.join(d, "spin")
    cc = shutil.which("gcc") or shutil.which("cc")
    src = os.path.join(d, "spin.c")
    with open(src, "w") as f:
        f.write("#include <stdlib.h>\nint main(int c, char **v) { volatile unsigned long x = 0;"
                " unsigned long n = strtoul(v[1], 0, 10);"
                " for (unsigned long i = 0; i < n; i++) x += i; return 0; }\n")
    p = run([cc, "-O1", "-o", spin, src])
    if not check(p.returncode == 0, f"build: {p.stderr}"):
        return None
    shutil.copy(spin, spin + "A")
    shutil.copy(spin, spin + "B")
    data = os.path.join(d, "two.data")
    p = run([perf, "record", "-q", "-e", "cpu-clock", "-o", data, "--", "sh", "-c",
             f"{spin}A 200000000; {spin}B 100000000"], timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return None
    return perf, data
