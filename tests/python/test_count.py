# SPDX-License-Identifier: MIT
"""hwprof.count, hwprof.__version__ and the errors."""
import errno
import math
import os
import re
import threading

import pytest

import hwprof
from conftest import touch_pages, open_fds


def test_version_is_the_librarys():
    assert re.fullmatch(r"\d+\.\d+\.\d+", hwprof.__version__)
    assert hwprof.__version__ == hwprof._clib.hwp_version().decode()


def test_library_is_the_build_trees():
    # The build tree's copy of the package loads the library built beside
    # it, not an installed one.
    try:
        from hwprof._buildtree import LIBRARY
    except ImportError:
        pytest.skip("not the build tree's copy of the package (meson test runs it)")
    assert os.environ.get("HWPROF_LIBRARY") is None
    with open("/proc/self/maps") as f:
        assert os.path.realpath(LIBRARY) in f.read()


def test_page_faults_of_touched_pages():
    with hwprof.count("page-faults,task-clock") as c:
        touch_pages(500)
    r = c.counts["page-faults"]
    assert r.supported and r.status == "counting" and r.reason is None
    # Python's own allocations add a few faults, never fewer than the pages.
    assert 500 <= r.raw <= 500 + 64, r
    assert r.value == r.raw  # software events are never multiplexed
    assert r.enabled > 0 and r.running == r.enabled
    assert r.percent_running == 100.0
    t = c.counts["task-clock"]
    assert t.raw > 0 and t.raw <= t.enabled * 1.01 + 1_000_000


def test_counts_follow_the_work():
    with hwprof.count("page-faults") as small:
        touch_pages(100)
    with hwprof.count("page-faults") as big:
        touch_pages(1100)
    assert big.counts["page-faults"].raw - small.counts["page-faults"].raw >= 900


def test_context_switches_of_yields():
    r, w = os.pipe()
    try:
        with hwprof.count("context-switches") as c:
            for _ in range(50):
                t = threading.Thread(target=lambda: os.write(w, b"x"))
                t.start()
                os.read(r, 1)  # blocks until the thread writes: a switch
                t.join()
    finally:
        os.close(r)
        os.close(w)
    assert c.counts["context-switches"].raw >= 1


def test_not_supported_event_is_marked_not_zero():
    # No hardware PMU here: cycles is marked, with the library's reason.
    c = hwprof.count("cycles,page-faults")
    with c:
        touch_pages(10)
    cyc = c.counts["cycles"]
    if cyc.supported:
        pytest.skip("this machine has a hardware PMU: cycles is supported")
    assert cyc.status == "not supported" and cyc.reason
    assert math.isnan(cyc.value)
    assert c.counts["page-faults"].raw >= 10


def test_groups_and_modifiers():
    c = hwprof.count("{task-clock,page-faults},cpu-migrations:u")
    assert c.events == ["task-clock", "page-faults", "cpu-migrations:u"]
    with c:
        touch_pages(20)
    assert c.counts["page-faults"].raw >= 20
    c.close()


def test_rdpmc_only_with_hardware_events():
    # User-space reads need a hardware event's page: never for software ones.
    c = hwprof.count("task-clock,page-faults")
    assert c.rdpmc is False  # not open yet
    c.open()
    assert c.rdpmc is False
    c.close()


def test_open_keeps_the_counters_across_blocks():
    c = hwprof.count("page-faults").open()
    fds = open_fds()
    for n in (10, 200):
        with c:
            touch_pages(n)
        assert n <= c.counts["page-faults"].raw <= n + 64
        assert open_fds() == fds
    c.close()


def test_unknown_event_raises_with_the_librarys_message():
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.count("page-fautls")
    assert e.value.errno == hwprof.ERR_UNKNOWN_EVENT
    assert "page-fautls" in e.value.message
    assert "page-faults" in e.value.message  # the library's suggestion
    assert str(e.value) == e.value.message


def test_syntax_error_raises():
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.count("{task-clock")
    assert e.value.errno == hwprof.ERR_SYNTAX and e.value.message


def test_bad_type_raises_type_error():
    with pytest.raises(TypeError):
        hwprof.count(["task-clock"])


def test_use_after_close_raises():
    c = hwprof.count("task-clock")
    c.close()
    c.close()  # twice is fine
    with pytest.raises(hwprof.HwprofError) as e:
        with c:
            pass
    assert e.value.errno == errno.EBADF and "closed" in e.value.message
    with pytest.raises(hwprof.HwprofError):
        c.open()


def test_one_block_at_a_time():
    c = hwprof.count("task-clock")
    with c:
        with pytest.raises(hwprof.HwprofError) as e:
            c.__enter__()
        assert e.value.errno == errno.EBUSY
    assert c.counts["task-clock"].raw > 0


def test_a_failed_enable_leaves_the_object_usable():
    """The enable fails (as the kernel may refuse it): the with block
    raises, and the next one counts, without "already counting"."""
    c = hwprof.count("page-faults")
    real = c._enable
    c._enable = lambda sess: -errno.EBADF
    with pytest.raises(hwprof.HwprofError) as e:
        with c:
            pass
    assert e.value.errno == errno.EBADF
    c._enable = real
    with c:
        touch_pages(64)
    assert c.counts["page-faults"].raw >= 64
    c.close()


def test_threads_each_count_their_own():
    results = {}

    def worker(n):
        with hwprof.count("page-faults") as c:
            touch_pages(n)
        results[n] = c.counts["page-faults"].raw

    threads = [threading.Thread(target=worker, args=(n,)) for n in (50, 300, 700)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n, got in results.items():
        assert n <= got <= n + 64, (n, got)
    assert len(results) == 3


def test_leaving_on_another_thread_raises():
    c = hwprof.count("task-clock")
    c.__enter__()
    errs = []

    def other():
        try:
            c.__exit__(None, None, None)
        except hwprof.HwprofError as e:
            errs.append(e)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errs and errs[0].errno == errno.EBUSY
    c.__exit__(None, None, None)


def test_no_fd_or_memory_growth_over_10000_cycles():
    def cycle():
        with hwprof.count("task-clock,page-faults"):
            pass

    for _ in range(200):
        cycle()
    fds, rss = open_fds(), _rss_kb()
    for _ in range(10000):
        cycle()
    assert open_fds() == fds
    # A leak of a session (a few hundred bytes) a cycle would be MBs.
    assert _rss_kb() - rss < 1024


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS in /proc/self/status")


def test_merged_instances_are_one_reading(uncore_sw):
    # uncore_sw/ticks/ is an event an instance (hwp_event_info.merged): one
    # name, one reading, as stat's row; a thread cannot count it (its PMU
    # counts a device), so it is not supported, with why.
    c = hwprof.count("uncore_sw/ticks/,page-faults")
    assert c.events == ["uncore_sw/ticks/", "page-faults"]
    with c:
        touch_pages(10)
    assert list(c.counts) == ["uncore_sw/ticks/", "page-faults"]
    row = c.counts["uncore_sw/ticks/"]
    assert not row.supported and "-a" in row.reason and math.isnan(row.value)
    assert c.counts["page-faults"].raw >= 10
