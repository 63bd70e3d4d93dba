# SPDX-License-Identifier: MIT
"""Writes the seeds of the report fuzz target (tests/fuzz/corpus/report/):
perf.data files whose modules are the small ones of this folder, which
fuzz-report.c opens once, at start, as the file descriptors of FD. An input
names them as /proc/self/fd/N, so that no input opens a real library: libdw
inflating the debug sections of libc for each input held the target to
~100 inputs a second.
- seed-modules, seed-modules-chains: a mapping of each module (and of what
  is not one: a source file, a directory, a descriptor that is not open,
  the vDSO), samples at every fourth byte of the code of mod and mod.so
  (each function, line and inline), kernel samples; the second with call
  chains.
- seed-perf, seed-hwprof: what perf and hwprof recorded of a real program
  (tests/fuzz/corpus/perfdata/), each module path replaced by a module of
  FD of the same length, so that the records keep their sizes.
Usage: python3 seeds.py CORPUS_DIR"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "cli"))
from perfdata import PerfData  # noqa: E402

ELF = ("mod", "mod-nodebug", "mod-stripped", "mod.so")
FD = {"mod": 200, "mod-nodebug": 201, "mod-stripped": 202, "mod.so": 203, "mod.c": 204,
      ".": 205, "closed": 206}
# What the recordings of tests/fuzz/corpus/perfdata/ mapped, and what replaces it.
REAL = {b"/work/main/build/tests/workload": "mod",
        b"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2": "mod-stripped",
        b"/usr/lib/x86_64-linux-gnu/libc.so.6": "mod.so"}
PID = 4242
KERNEL = [0xffffffff81001010, 0xffffffff81002020, 0xffffffffc0000010, 0xffffffff81000000]


def path(module):
    return b"/proc/self/fd/%d" % FD[module]


def text_of(elf):
    """(file offset, size) of the executable PT_LOAD of an ELF64 file."""
    with open(os.path.join(HERE, elf), "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, p_flags, off, _, _, filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            return off, filesz
    raise SystemExit(elf + ": no executable segment")


def modules_seed(chains):
    pd = PerfData(callchains=chains)
    pd.comm(PID, b"mod")
    base = 0x10000000
    maps = {}
    for i, module in enumerate(FD):
        start = base + i * 0x100000
        off, size = text_of(module) if module in ELF else (0, 0x1000)
        maps[module] = (start, size)
        pd.mmap(PID, start, 0x1000, off, path(module))
    pd.mmap(PID, 0x7fff0000, 0x2000, 0, b"[vdso]")
    for module in ("mod", "mod.so"):
        start, size = maps[module]
        caller = start + size // 2
        for at in range(0, size + 8, 4):	# and a little past the end
            pd.sample(PID, start + at, [caller, maps["mod-nodebug"][0] + 8])
    for module in ("mod-nodebug", "mod-stripped", "mod.c", ".", "closed"):
        for at in (0x4, 0x10, 0x40):
            pd.sample(PID, maps[module][0] + at, [maps["mod"][0] + 0x40])
    pd.sample(PID, 0x7fff0100)
    pd.sample(PID, 0x5000)	# no mapping
    for ip in KERNEL:
        pd.sample(PID, ip, [maps["mod"][0] + 0x20], kernel=True)
    return pd


def rewrite(recording):
    with open(os.path.join(HERE, "..", "corpus", "perfdata", recording), "rb") as f:
        data = f.read()
    for real, module in REAL.items():
        new = path(module)
        data = data.replace(real + b"\0", new + b"\0" * (len(real) + 1 - len(new)))
    return data


def main(corpus):
    modules_seed(False).write(os.path.join(corpus, "seed-modules"))
    modules_seed(True).write(os.path.join(corpus, "seed-modules-chains"))
    for recording in ("seed-perf", "seed-hwprof"):
        with open(os.path.join(corpus, recording), "wb") as out:
            out.write(rewrite(recording))


if __name__ == "__main__":
    main(sys.argv[1])
