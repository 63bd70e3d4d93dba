# SPDX-License-Identifier: MIT
"""pytest-benchmark with hwprof's counts beside the times.

    python3 -m pytest -p hwprof.pytest_plugin examples/python/bench_pages.py \\
        --benchmark-json=bench.json

Each benchmark's "extra_info" in bench.json then holds "hwprof": the
events' counts per call (and round by round) of the measured rounds.
"""
import mmap

import pytest

PAGES = 64


def touch_pages(n=PAGES):
    """Touch n fresh pages: n page faults a call, whatever the machine."""
    m = mmap.mmap(-1, n * mmap.PAGESIZE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for off in range(0, n * mmap.PAGESIZE, mmap.PAGESIZE):
        m[off] = 1
    m.close()


def test_touch_pages(hwprof_benchmark):
    hwprof_benchmark(touch_pages)


@pytest.mark.hwprof("page-faults,task-clock")
def test_touch_pages_pedantic(hwprof_benchmark):
    hwprof_benchmark.pedantic(touch_pages, rounds=5, iterations=3)


def test_sum(benchmark):
    # Counted too when pytest runs with --hwprof-events=LIST.
    benchmark(sum, range(1000))
