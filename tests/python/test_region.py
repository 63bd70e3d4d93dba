# SPDX-License-Identifier: MIT
"""hwprof.region and the regions' results."""
import errno
import json
import math
import threading

import pytest

import hwprof
from conftest import touch_pages, open_fds

EVENTS = "task-clock,page-faults,context-switches"


@pytest.fixture(scope="module", autouse=True)
def regions():
    # Regions are set up once a process: the first test module to use them.
    try:
        hwprof.region_setup(events=EVENTS)
    except hwprof.HwprofError as e:
        assert e.errno == errno.EBUSY


def results():
    return {r.name: r for r in hwprof.region_results()}


def test_setup_twice_is_refused():
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.region_setup(events=EVENTS)
    assert e.value.errno == errno.EBUSY and e.value.message


def test_context_manager_counts_calls_and_ops():
    r = hwprof.region("py-touch", ops=100)
    for _ in range(3):
        with r:
            touch_pages(100)
    got = results()["py-touch"]
    assert got.calls == 3 and got.ops == 300 and got.threads == 1
    assert 300 <= got.counts["page-faults"] <= 300 + 3 * 64
    assert got.per_call["page-faults"] == got.counts["page-faults"] / 3
    assert 1.0 <= got.per_op["page-faults"] <= 1.7
    assert got.seconds > 0 and got.counts["task-clock"] > 0


def test_decorator():
    @hwprof.region("py-decorated")
    def work(n):
        touch_pages(n)
        return n * 2

    assert work.__name__ == "work"
    assert work(40) == 80 and work(40) == 80
    got = results()["py-decorated"]
    assert got.calls == 2 and got.counts["page-faults"] >= 80
    assert got.per_op == {}


def test_nesting_is_inclusive():
    with hwprof.region("py-outer"):
        touch_pages(50)
        with hwprof.region("py-inner"):
            touch_pages(200)
    res = results()
    assert res["py-inner"].counts["page-faults"] >= 200
    assert res["py-outer"].counts["page-faults"] >= res["py-inner"].counts["page-faults"] + 50


def test_threads_add_up():
    def worker():
        with hwprof.region("py-threads"):
            touch_pages(100)

    ts = [threading.Thread(target=worker) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    got = results()["py-threads"]
    assert got.calls == 4 and got.threads == 4
    assert got.counts["page-faults"] >= 400


def test_wrong_end_raises_with_the_librarys_message():
    outer = hwprof.region("py-a")
    inner = hwprof.region("py-b")
    outer.__enter__()
    with pytest.raises(hwprof.HwprofError) as e:
        inner.__exit__(None, None, None)
    assert e.value.errno == errno.EINVAL and "py-a" in e.value.message
    outer.__exit__(None, None, None)


def test_bad_arguments():
    with pytest.raises(TypeError):
        hwprof.region("")
    with pytest.raises(TypeError):
        hwprof.region(3)
    with pytest.raises(ValueError):
        hwprof.region("x", ops=-1)


def test_save_and_read_back(tmp_path):
    with hwprof.region("py-saved", ops=7):
        touch_pages(10)
    path = tmp_path / "regions.json"
    hwprof.region_save(str(path))
    doc = json.loads(path.read_text())
    assert doc["schema"] == "hwprof-regions/1"
    back = {r.name: r for r in hwprof.region_results(str(path))}
    assert back["py-saved"].calls == results()["py-saved"].calls
    assert back["py-saved"].ops == 7


def test_reading_a_bad_file_raises(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"not\": \"regions\"}")
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.region_results(str(bad))
    assert e.value.errno == hwprof.ERR_FORMAT and str(bad) in e.value.message
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.region_results(str(tmp_path / "none.json"))
    assert e.value.errno == errno.ENOENT


def test_no_fd_or_memory_growth_over_10000_cycles():
    r = hwprof.region("py-cycle")
    for _ in range(200):
        with r:
            pass
    fds = open_fds()
    with open("/proc/self/statm") as f:
        rss = int(f.read().split()[1])
    for _ in range(10000):
        with r:
            pass
    for _ in range(1000):
        with hwprof.region("py-cycle"):  # a new object each time
            pass
    assert open_fds() == fds
    with open("/proc/self/statm") as f:
        assert (int(f.read().split()[1]) - rss) * 4 < 1024
    assert results()["py-cycle"].calls == 11200


def test_names_whose_objects_are_gone_stay_apart():
    # The library knows a name by its pointer first: a freed buffer reused
    # for the next name must not merge two regions.
    for i in range(300):
        with hwprof.region(f"py-name-{i}"):
            pass
    res = results()
    assert all(res[f"py-name-{i}"].calls == 1 for i in range(300))


def test_metrics_are_apart_from_counts():
    with hwprof.region("py-metrics"):
        touch_pages(20)
    got = results()["py-metrics"]
    assert set(got.counts) == set(EVENTS.split(","))
    assert "CPUs-utilized" in got.metrics
    assert 0 < got.metrics["CPUs-utilized"] <= 1.05
