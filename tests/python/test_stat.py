# SPDX-License-Identifier: MIT
"""hwprof.stat, hwprof.Result, hwprof.compare and hwprof.summarize."""
import json
import math
import subprocess

import pytest

import hwprof


def cli_stat(hwprof_cli, path, workload, pages, runs=3):
    subprocess.run([hwprof_cli, "stat", "-e", "page-faults,task-clock", "-r", str(runs),
                    "--json", "-o", str(path), "--", workload, "pages", str(pages)],
                   check=True, stderr=subprocess.DEVNULL)
    return path


def test_stat_counts_what_the_cli_counts(workload, hwprof_cli, tmp_path):
    # The same workload measured by the CLI (the C API) and by the package:
    # the page faults of an exec'd program touching 1000 pages.
    py = hwprof.stat([workload, "pages", "1000"], events="page-faults,task-clock", runs=3)
    c = hwprof.Result.read(cli_stat(hwprof_cli, tmp_path / "c.json", workload, 1000))
    assert py.runs == 3 and c.runs == 3 and py.failed_runs == []
    pf_py, pf_c = py["page-faults"], c["page-faults"]
    assert all(v >= 1000 for v in pf_py.values + pf_c.values)
    # A program's faults are its own: the same to a few (the loader's).
    assert abs(pf_py.value - pf_c.value) <= 16, (pf_py.values, pf_c.values)
    assert pf_py.summary.n == 3 and pf_py.summary.ci[0] <= pf_py.value <= pf_py.summary.ci[1]
    assert py["task-clock"].unit == "ns" and py["task-clock"].value > 0
    assert all(s > 0 for s in py.seconds)


def test_stat_metrics_and_unsupported_events(workload):
    r = hwprof.stat([workload, "pages", "200"], events="page-faults,cycles", runs=2,
                    metrics=["pages=page-faults / 1", "f=Page_Faults / 1"])
    assert r["pages"].kind == "metric" and r["pages"].value == r["page-faults"].value
    assert r["pages"].values == r["page-faults"].values == r["f"].values
    if not r["cycles"].supported:
        assert r["cycles"].reason and all(math.isnan(v) for v in r["cycles"].values)


def test_stat_metric_value_is_the_clis(workload, hwprof_cli, fake_pmu, tmp_path):
    # A metric's value is its formula on the mean counts as the library
    # (and so the CLI) reads each name: page-faults is the event without
    # modifiers, not :k listed first; fake@faults@ is fake/faults/, whose
    # formula reads counts (1 per fault), not its halves.
    events = "page-faults:k,page-faults,fake/faults/"
    metrics = ["x=page-faults / 1", "y=fake@faults@ / page-faults"]
    r = hwprof.stat([workload, "pages", "300"], events=events, runs=3, metrics=metrics)
    mean = sum(r["page-faults"].values) / 3
    assert mean >= 300 and r["x"].value == pytest.approx(mean), (r["x"], r["page-faults"])
    assert r["y"].value == pytest.approx(1), r["y"]
    path = tmp_path / "c.json"
    subprocess.run([hwprof_cli, "stat", "-r", "3", "--json", "-o", str(path), "-e", events,
                    "-M", metrics[0], "-M", metrics[1], "--", workload, "pages", "300"],
                   check=True, stderr=subprocess.DEVNULL)
    c = hwprof.Result.read(path)
    doc = {m["metric"]: m["value"] for m in json.loads(path.read_text())["metrics"]}
    # a result read from the CLI's file: the value its JSON has
    assert c["x"].value == pytest.approx(doc["x"]) and c["y"].value == pytest.approx(doc["y"])
    assert doc["y"] == pytest.approx(1)


def test_stat_merged_instances_are_one_row(workload, uncore_sw):
    # uncore_sw/ticks/ is three events, one row: the rows after it are the
    # events and metrics they name (a thread cannot count the uncore one).
    r = hwprof.stat([workload, "pages", "200"], events="uncore_sw/ticks/,page-faults",
                    metrics=["pages=page-faults / 1"])
    assert not r["uncore_sw/ticks/"].supported
    assert r["page-faults"].value >= 200
    assert r["pages"].value == r["page-faults"].value


def test_stat_failed_runs(workload):
    r = hwprof.stat([workload, "pages", "10", "exit", "3"], events="page-faults", runs=2,
                    metrics=["pages=page-faults / 1"])
    assert r.failed_runs == [(0, 3), (1, 3)] and r.runs == 0 and r.rows == {}


def test_stat_bad_input():
    with pytest.raises(TypeError):
        hwprof.stat("true")
    with pytest.raises(ValueError):
        hwprof.stat(["true"], runs=0)
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.stat(["true"], events="nosuch-event")
    assert e.value.errno == hwprof.ERR_UNKNOWN_EVENT
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.stat(["true"], events="page-faults", metrics=["x=pagefults / 2"])
    assert e.value.errno == hwprof.ERR_UNKNOWN_NAME and "pagefults" in e.value.message
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.stat(["/nonexistent/command"], events="page-faults")
    assert e.value.errno == 2 and "/nonexistent/command" in e.value.message


def test_result_write_and_read_back(workload, hwprof_cli, tmp_path):
    r = hwprof.Result.read(cli_stat(hwprof_cli, tmp_path / "a.json", workload, 100))
    r.write(tmp_path / "b.json")
    doc = json.loads((tmp_path / "b.json").read_text())
    assert doc["schema"] == "hwprof-stat/1"
    back = hwprof.Result.read(tmp_path / "b.json")
    assert back["page-faults"].values == r["page-faults"].values
    r.write(tmp_path / "b.csv", format="csv")
    assert "page-faults" in (tmp_path / "b.csv").read_text()
    with pytest.raises(ValueError):
        r.write(tmp_path / "x", format="yaml")


def test_stat_result_writes_what_the_cli_saves(workload, hwprof_cli, tmp_path):
    # A result measured from Python is a C result (the public builders): it
    # is written as 'hwprof stat --json' writes, and reads back the same.
    argv = [workload, "pages", "300"]
    r = hwprof.stat(argv, events="page-faults,task-clock", runs=3,
                    metrics=["pages=page-faults / 1"])
    r.write(tmp_path / "py.json")
    doc = json.loads((tmp_path / "py.json").read_text())
    assert doc["schema"] == "hwprof-stat/1" and doc["command"] == argv
    assert doc["runs"] == 3 and doc["exit_status"] == 0
    cli = json.loads(cli_stat(hwprof_cli, tmp_path / "c.json", workload, 300).read_text())
    assert sorted(doc) == sorted(cli)
    for key, name in (("events", "event"), ("times", "time")):
        assert [e[name] for e in doc[key]] == [e[name] for e in cli[key]], key
    back = hwprof.Result.read(tmp_path / "py.json")
    assert back.seconds == r.seconds and back.runs == 3
    for name in ("page-faults", "task-clock", "pages", "elapsed", "user", "system"):
        assert back[name].kind == r[name].kind and back[name].values == r[name].values
    assert r["elapsed"].values == r.seconds and r["user"].kind == "time"
    assert all(v >= 300 for v in r["page-faults"].values)
    assert back["page-faults"].value == r["page-faults"].value
    r.write(tmp_path / "py.csv", format="csv")
    assert "page-faults" in (tmp_path / "py.csv").read_text()
    r.write(tmp_path / "py.txt", format="text")
    assert argv[0] in (tmp_path / "py.txt").read_text()


def test_result_read_bad_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.Result.read(bad)
    assert e.value.errno == hwprof.ERR_FORMAT and str(bad) in e.value.message
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.Result.read(tmp_path / "none.json")
    assert e.value.errno == 2


def test_compare_finds_the_change(workload, hwprof_cli, tmp_path):
    a = cli_stat(hwprof_cli, tmp_path / "a.json", workload, 500, runs=4)
    b = cli_stat(hwprof_cli, tmp_path / "b.json", workload, 1500, runs=4)
    cmp = hwprof.compare(a, b)
    pf = cmp["page-faults"]
    assert pf.verdict == "increase" and pf.p_value < 0.05
    assert pf.a_n == 4 and pf.b_n == 4
    assert 2.0 < pf.ratio < 3.5 and pf.ci[0] <= pf.diff <= pf.ci[1] and pf.ci[0] > 0
    same = hwprof.compare(hwprof.Result.read(a), hwprof.Result.read(a))
    assert same["page-faults"].verdict == "unchanged"
    cmp.write(tmp_path / "c.json")
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["schema"] == "hwprof-compare/1"


def test_compare_errors(workload, hwprof_cli, tmp_path):
    one = cli_stat(hwprof_cli, tmp_path / "one.json", workload, 10, runs=1)
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.compare(one, one)
    assert e.value.errno == hwprof.ERR_MISMATCH and e.value.message
    py = hwprof.stat([workload, "pages", "1"], events="page-faults", runs=1)
    with pytest.raises(hwprof.HwprofError) as e:
        hwprof.compare(py, py)
    assert e.value.errno == hwprof.ERR_MISMATCH


def test_compare_of_two_stat_results(workload, hwprof_cli, tmp_path):
    # 1000 and 3000 touched pages: the faults go up about 3 times, and
    # nothing else the runs count says so.
    a = hwprof.stat([workload, "pages", "1000"], events="page-faults", runs=4)
    b = hwprof.stat([workload, "pages", "3000"], events="page-faults", runs=4)
    pf = hwprof.compare(a, b)["page-faults"]
    assert pf.verdict == "increase" and pf.a_n == 4 and pf.b_n == 4
    assert 2.0 < pf.ratio < 3.5 and pf.ci[0] > 0
    assert hwprof.compare(b, a)["page-faults"].verdict == "decrease"
    # A file the CLI saved against a result measured here.
    c = cli_stat(hwprof_cli, tmp_path / "c.json", workload, 1000, runs=4)
    assert hwprof.compare(c, b)["page-faults"].verdict == "increase"


def test_summarize():
    s = hwprof.summarize([1.0, 2.0, 3.0, float("nan")])
    assert s.n == 3 and s.mean == 2.0 and s.median == 2.0 and s.stddev == 1.0
    assert s.ci[0] < 2.0 < s.ci[1] and s.min == 1.0 and s.max == 3.0
    assert math.isnan(hwprof.summarize([5.0]).stddev)
