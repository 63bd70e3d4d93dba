# SPDX-License-Identifier: MIT
"""What the Python package's tests share: the workload with known counts
and a way to touch a known number of fresh pages in this process."""
import mmap
import os

import pytest

WORKLOAD = os.environ.get("WORKLOAD", "build/tests/workload")
HWPROF = os.environ.get("HWPROF", "build/cli/hwprof")
HOTSPOTS = os.environ.get("HOTSPOTS", "build/tests/hotspots")
PAGE = mmap.PAGESIZE


def touch_pages(n):
    """Touch @n fresh anonymous pages: at least n page faults."""
    m = mmap.mmap(-1, n * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    for off in range(0, n * PAGE, PAGE):
        m[off] = 1
    m.close()


def open_fds():
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def workload():
    return _built(WORKLOAD)


def _built(path):
    if not os.access(path, os.X_OK):
        pytest.skip(f"{path} is not built (meson test builds it)")
    return path


@pytest.fixture
def hwprof_cli():
    return _built(HWPROF)
