# SPDX-License-Identifier: MIT
"""The pytest-benchmark plugin, on examples/python/bench_pages.py."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("pytest_benchmark", reason="python3-pytest-benchmark is not installed "
                    "(make test installs it)")

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                       "bench_pages.py")


def run_example(tmp_path, *args):
    out = tmp_path / "bench.json"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "-p", "hwprof.pytest_plugin", EXAMPLE, f"--benchmark-json={out}",
                    "--benchmark-min-rounds=5", "--benchmark-max-time=0.05", *args],
                   check=True, stdout=subprocess.DEVNULL, cwd=tmp_path)
    return {b["name"]: b for b in json.loads(out.read_text())["benchmarks"]}


def test_extra_info_holds_the_counts(tmp_path):
    benches = run_example(tmp_path)
    b = benches["test_touch_pages"]
    hw = b["extra_info"]["hwprof"]
    assert hw["events"] == "task-clock,page-faults,context-switches,cpu-migrations"
    rounds = b["stats"]["rounds"]
    assert hw["calls"] == rounds * b["stats"]["iterations"]
    assert len(hw["rounds"]["page-faults"]) == rounds
    # 64 fresh pages a call: 64 faults, and a few of Python's own (a round
    # of one call may meet a new arena's pages).
    assert all(64 <= v <= 64 + 32 for v in hw["rounds"]["page-faults"])
    assert 64 <= hw["per_call"]["page-faults"] <= 72
    assert hw["total"]["page-faults"] >= 64 * hw["calls"]
    assert hw["per_call"]["task-clock"] > 0 and hw["not_supported"] == {}
    # A plain benchmark is not counted without --hwprof-events.
    assert "hwprof" not in benches["test_sum"]["extra_info"]


def test_pedantic_and_the_marker(tmp_path):
    b = run_example(tmp_path)["test_touch_pages_pedantic"]
    hw = b["extra_info"]["hwprof"]
    assert hw["events"] == "page-faults,task-clock"
    assert hw["calls"] == 15 and len(hw["rounds"]["page-faults"]) == 5
    assert all(64 <= v <= 64 + 32 for v in hw["rounds"]["page-faults"])


def test_option_counts_every_benchmark(tmp_path):
    benches = run_example(tmp_path, "--hwprof-events=page-faults,cycles")
    hw = benches["test_sum"]["extra_info"]["hwprof"]
    assert hw["events"] == "page-faults,cycles"
    assert hw["calls"] == benches["test_sum"]["stats"]["rounds"] * \
        benches["test_sum"]["stats"]["iterations"]
    assert hw["per_call"]["page-faults"] is not None
    if "cycles" in hw["not_supported"]:
        assert hw["not_supported"]["cycles"] and hw["per_call"]["cycles"] is None
    # The marker still wins over the option.
    assert benches["test_touch_pages_pedantic"]["extra_info"]["hwprof"]["events"] == \
        "page-faults,task-clock"
