#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write a perf.data of N distinct call chains, and the kallsyms file that
names their functions, for the flame graph's size benchmark: cpu-clock
samples in kernel functions fn_0..fn_1999 (tests/cli/perfdata.py's
format), each chain a walk from main 4 to 24 calls deep whose every step
picks a function with a Zipf-like bias, so that a few paths are heavy and
most are seen once or twice, as in a profile of a large program.
Usage: many-stacks.py N OUT.data OUT.kallsyms"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "cli"))
from perfdata import MISC_KERNEL, RECORD_MMAP, PerfData, _pad8  # noqa: E402

FUNCS = 2000
BASE = 0xffffffff81000000


def main(n, data, kallsyms):
    rnd = random.Random(42)
    addr = [BASE + 0x1000 * (i + 2) for i in range(FUNCS)]
    with open(kallsyms, "w") as f:
        f.write(f"{BASE:x} T _text\n{BASE:x} T _stext\n{BASE + 0x1000:x} T main\n")
        f.writelines(f"{a:x} t fn_{i}\n" for i, a in enumerate(addr))
        f.write(f"{BASE + 0x1000 * (FUNCS + 2):x} T _etext\n")
    pick = lambda: min(int(rnd.paretovariate(1.2)) - 1, FUNCS - 1)	# noqa: E731
    seen = set()
    pd = PerfData(callchains=True)
    # The kernel's map, as perf record writes it, so that perf reads the
    # names from the kallsyms file too (perf script --kallsyms).
    size = 0x1000 * (FUNCS + 3)
    body = struct.pack("<IIQQQ", 0xffffffff, 0xffffffff, BASE, size, BASE)
    pd._record(RECORD_MMAP, MISC_KERNEL, _pad8(body + b"[kernel.kallsyms]_text\0") +
               pd._trailer(0))
    while len(seen) < n:
        chain = tuple(pick() for _ in range(rnd.randint(4, 24)))
        if chain in seen:
            continue
        seen.add(chain)
        # Return addresses, innermost first, main's last; the leaf's
        # instruction is elsewhere in its function than any call.
        callers = [addr[f] + 0x20 for f in reversed(chain[:-1])] + [BASE + 0x1020]
        for _ in range(1 + int(rnd.expovariate(1.0))):
            pd.sample(1, addr[chain[-1]] + 0x10, callers, period=100000, kernel=True)
    pd.write(data)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
