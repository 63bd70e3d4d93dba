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


def _fabricate_pmu(root, name, files):
    """A PMU @name of @files (path: text) in the sysfs tree at @root."""
    d = root / "bus" / "event_source" / "devices" / name
    for rel, text in files:
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text + "\n")


@pytest.fixture
def uncore_sw(tmp_path, monkeypatch):
    """A fabricated sysfs tree (HWPROF_SYSFS_ROOT) with a PMU of 3 instances,
    uncore_sw_0..2, of the software type (their ticks are cpu-clock), so that
    uncore_sw/ticks/ names an event an instance, merged into one row."""
    for i in range(3):
        _fabricate_pmu(tmp_path, f"uncore_sw_{i}",
                       [("type", "1"), ("cpumask", "0"), ("format/event", "config:0-63"),
                        ("events/ticks", "event=0")])
    monkeypatch.setenv("HWPROF_SYSFS_ROOT", str(tmp_path))
    return tmp_path


@pytest.fixture
def fake_pmu(tmp_path, monkeypatch):
    """A fabricated sysfs tree with a PMU 'fake' whose event 'faults'
    counts page faults (the software type, config 2) in halves
    (faults.scale 0.5), so that fake/faults/ counts what page-faults does."""
    _fabricate_pmu(tmp_path, "fake",
                   [("type", "1"), ("format/config", "config:0-63"),
                    ("events/faults", "config=0x2"), ("events/faults.scale", "0.5")])
    monkeypatch.setenv("HWPROF_SYSFS_ROOT", str(tmp_path))
    return tmp_path
