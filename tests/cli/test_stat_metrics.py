#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What hwprof stat's metrics print means what perf stat's means: a metric
over -r is its formula on the mean counts, with the per-run distribution
beside it; the rates beside events are perf's (per task-clock second, in
K/sec); -x is perf's CSV layout, read by one parser from both; -M names
built-in metrics as perf's -M names its own."""
import csv
import io
import os
import re
import shutil
import tempfile

from common import WORKLOAD, case, check, done, event, hwprof, metric, run, skip, stat_json

PERF = shutil.which("perf")
NORAND = ["setarch", "-R"] if shutil.which("setarch") else []
EVENTS = "task-clock,context-switches,page-faults,cpu-migrations"


def numbered_runs(d, name):
    """A command whose run k prints "run k" (its score) and touches 3000
    pages: page faults about the same in each run, a score of 1, 2, 3..."""
    counter = os.path.join(d, name)
    with open(counter, "w") as f:
        f.write("0\n")
    return ["sh", "-c", f"n=$(($(cat {counter}) + 1)); echo $n > {counter}; "
            f"{WORKLOAD} pages 3000; echo run $n"]


def mean(v):
    return sum(v) / len(v)


def metric_over_runs(d):
    """-M 'pf/run=page-faults / k' over runs scored k = 1..4: its value is
    mean(faults) / mean(k) = mean(faults) / 2.5, where the mean of the
    per-run ratios is mean(faults) * 0.52 (1 + 1/2 + 1/3 + 1/4 over 4): 30%
    apart, whatever the faults. The JSON has both, each named."""
    p, doc = stat_json("-r", "4", "--quiet", "--score", "k=^run ([0-9]+)$",
                       "-M", "pf/run=page-faults / k", "-e", "page-faults", "--",
                       *numbered_runs(d, "json"))
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    pf = event(doc, "page-faults")["values"]
    k = [s for s in doc["scores"] if s["score"] == "k"][0]["values"]
    m = metric(doc, "pf/run")
    check(k == [1, 2, 3, 4], f"scores {k}")
    check(all(abs(v - f / s) <= 1e-9 * v for v, f, s in zip(m["values"], pf, k)),
          f"each run's value is its own ratio: {m['values']}")
    want = mean(pf) / mean(k)
    check(abs(m["value"] - want) <= 1e-9 * want,
          f"value {m['value']}: the formula on the mean counts, {want}")
    check(m["value_of_mean_counts"] == m["value"], "value_of_mean_counts is the value")
    check(abs(m["mean_of_runs"] - mean(m["values"])) <= 1e-9 * want and
          m["mean"] == m["mean_of_runs"], f"mean_of_runs {m['mean_of_runs']}")
    check(m["value"] < 0.9 * m["mean_of_runs"],
          f"a ratio of means, not a mean of ratios: {m['value']} vs {m['mean_of_runs']}")


def metric_over_runs_text(d):
    """The text shows the value on the mean counts, and the runs' mean, CV
    and interval beside it; --per-run has each run's counts to check it by."""
    p = hwprof("stat", "-r", "4", "--quiet", "--per-run", "--score", "k=^run ([0-9]+)$",
               "-M", "pf/run=page-faults / k", "-e", "page-faults", "-o", "-", "--",
               *numbered_runs(d, "text"))
    if not check(p.returncode == 0, p.stderr):
        return
    line = re.search(r"^ +([\d.]+) +pf/run +\(runs: mean ([\d.]+), CV [\d.]+%, "
                     r"95% CI -?[\d.]+ to -?[\d.]+\)", p.stdout, re.M)
    # a value marked * is an outlier of its column: page faults that differ
    # by a few from run to run can be
    table = re.findall(r"^ +(\d) +[\d.]+\*? +([\d,]+)\*? +([\d.]+)\*? +(\d+)\*?$", p.stdout,
                       re.M)
    if not check(line and len(table) == 4, f"the metric's line and 4 runs: {p.stdout}"):
        return
    pf = [float(t[1].replace(",", "")) for t in table]
    per_run = [float(t[2]) for t in table]
    k = [float(t[3]) for t in table]
    check(abs(float(line[1]) - mean(pf) / mean(k)) <= 0.06,
          f"{line[0]}: mean faults {mean(pf)} over mean k {mean(k)}")
    check(abs(float(line[2]) - mean(per_run)) <= 0.1, f"runs' mean {line[2]}: {per_run}")


def per_second(value, unit):
    """A rate as perf prints it ("1.510", "K/sec") per second, or None when
    its unit is not /sec, K/sec, M/sec or G/sec or its value is past 1000
    of it (perf's convert_unit_double() moves to the next past 1000)."""
    m = re.fullmatch(r"([KMG]?)/sec", unit)
    if not m or not re.fullmatch(r"\d+\.\d{3}", value) or float(value) > 1000.0005:
        return None
    return float(value) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[m[1]]


class Stat:
    """perf stat -x's lines, as one parser reads them from perf and hwprof:
    value, unit, event, [variance,] run time, percent running, metric value,
    metric unit; lines of a metric alone have the event fields empty."""

    def __init__(self, text, runs):
        self.width = 8 if runs > 1 else 7
        self.events, self.metrics, self.widths = {}, [], set()
        for f in csv.reader(io.StringIO(text)):
            if not f or f[0].startswith("#"):
                continue
            self.widths.add(len(f))
            if len(f) != self.width:
                continue
            row = dict(zip(("value", "unit", "event"), f[:3]))
            if runs > 1:
                row["variance"] = f[3]
            row["run"], row["pct"], row["mvalue"], row["munit"] = f[-4:]
            if row["event"]:
                self.events[row["event"]] = row
            else:
                self.metrics.append(row)


def perf_and_hwprof(runs, *more):
    cmd = ["--", *NORAND, WORKLOAD, "pages", "20000"]
    r = ["-r", str(runs)] if runs > 1 else []
    pp = run([PERF, "stat", *r, "-x", ",", "-e", EVENTS, *cmd])
    hp = hwprof("stat", *r, "-x", ",", "-o", "-", *more, "-e", EVENTS, *cmd)
    check(pp.returncode == 0 and hp.returncode == 0, f"{pp.stderr} {hp.stderr}")
    return Stat(pp.stderr, runs), Stat(hp.stdout, runs), hp.stdout


def rates_as_perf():
    """Each rate both print beside an event: in perf's units (/sec, K/sec,
    M/sec, by its size), each the count per task-clock second, not per wall
    second."""
    if not PERF:
        skip("perf is not installed")
    theirs, ours, _ = perf_and_hwprof(1)
    both = [e for e in EVENTS.split(",")[1:]
            if theirs.events.get(e, {}).get("munit", "").endswith("/sec") and
            ours.events.get(e, {}).get("munit", "").endswith("/sec")]
    check(both == EVENTS.split(",")[1:], f"the rates both print: {both}")
    for e in both:
        for who, s in (("perf", theirs), ("hwprof", ours)):
            row, clock = s.events[e], float(s.events["task-clock"]["value"])
            want = float(row["value"]) / (clock / 1e3)
            got = per_second(row["mvalue"], row["munit"])
            # the count and the msec as printed: 2 decimals of >= 10 msec
            check(got is not None and abs(got - want) <= 0.002 * want + 0.002,
                  f"{who} {e}: {row['mvalue']} {row['munit']}, {row['value']} per "
                  f"{clock} msec of task-clock is {want:.3f}/sec")
        # Side by side: page faults are ~20,000 in both runs, where the
        # old rate per wall second was 1.3-2x perf's; switches and
        # migrations are a few, at random.
        t = per_second(theirs.events[e]["mvalue"], theirs.events[e]["munit"]) or 0
        o = per_second(ours.events[e]["mvalue"], ours.events[e]["munit"]) or 0
        check(e != "page-faults" or 0 < t / 3 <= o <= 3 * t,
              f"{e}: perf {t} {theirs.events[e]['munit']}, hwprof {o} "
              f"{ours.events[e]['munit']}")
    for who, s in (("perf", theirs), ("hwprof", ours)):
        tc = s.events["task-clock"]
        check(tc["munit"] == "CPUs utilized" and 0 < float(tc["mvalue"]) < 4,
              f"{who}: task-clock's metric {tc['mvalue']} {tc['munit']}")


def csv_as_perf(runs):
    """perf's -x layout, read from both by one parser: every line the same
    number of fields; events, units, variance, running %, metric value and
    unit in perf's places; a -M metric on a line of its own."""
    if not PERF:
        skip("perf is not installed")
    theirs, ours, text = perf_and_hwprof(runs, "-M", "pf/ms=page-faults / task-clock")
    check(theirs.widths == {theirs.width} and ours.widths == {ours.width},
          f"fields a line: perf {theirs.widths}, hwprof {ours.widths}: {text}")
    check(list(ours.events) == list(theirs.events) == EVENTS.split(","),
          f"events: {list(ours.events)}, perf {list(theirs.events)}")
    for e, t in theirs.events.items():
        o = ours.events.get(e)
        if not check(o, f"hwprof has {e}"):
            continue
        # K/sec or /sec as each rate's own size is (rates as perf checks
        # it): a rate near 1,000/sec is either, from run to run
        same = (o["munit"] == t["munit"] or
                all(re.fullmatch(r"[KMG]?/sec", u) for u in (o["munit"], t["munit"])))
        check(o["unit"] == t["unit"] and same,
              f"{e}: units {o['unit']!r} {o['munit']!r}, perf {t['unit']!r} {t['munit']!r}")
        for key in ("value", "run", "pct", "mvalue"):
            check(re.fullmatch(r"\d+(\.\d+)?", o[key]) and
                  re.fullmatch(r"\d+(\.\d+)?", t[key]),
                  f"{e} {key}: {o[key]!r}, perf {t[key]!r}")
        check(o["pct"] == t["pct"] == "100.00", f"{e} running: {o['pct']}")
        if runs > 1:
            check(re.fullmatch(r"\d+\.\d\d%", o["variance"]) and
                  re.fullmatch(r"\d+\.\d\d%", t["variance"]),
                  f"{e} variance: {o['variance']!r}, perf {t['variance']!r}")
    m = [r for r in ours.metrics if r["munit"] == "pf/ms"]
    check(len(m) == 1 and float(m[0]["mvalue"]) > 0 and
          not any(m[0][k] for k in ("value", "unit", "event", "run", "pct")),
          f"the -M metric on a line of its own: {ours.metrics}")
    pf, clock = (float(ours.events[e]["value"]) for e in ("page-faults", "task-clock"))
    if m:
        want = pf / (clock * 1e6)     # task-clock counts ns
        check(abs(float(m[0]["mvalue"]) - want) <= 1e-3 * want,
              f"pf/ms {m[0]['mvalue']}: {pf} faults in {clock} msec")


def metric_names():
    """-M NAME[,NAME] names built-in metrics, adding the events they read
    (alone, without -e, as perf's -M); -M NAME=EXPR still defines one."""
    p, doc = stat_json("-M", "CPUs-utilized,faults/sec", "-e", "page-faults", "--",
                       WORKLOAD, "pages", "100")
    if check(p.returncode == 0 and doc, p.stderr):
        check([e["event"] for e in doc["events"]] == ["page-faults", "task-clock"],
              f"task-clock added: {doc['events']}")
        for name in ("CPUs-utilized", "faults/sec"):
            m = metric(doc, name)
            check(m and m["builtin"] and m["value"] > 0, f"{name}: {m}")
    p, doc = stat_json("-M", "ipc", "--", "true")
    if check(p.returncode == 0 and doc, p.stderr):
        check([e["event"] for e in doc["events"]] == ["instructions", "cycles"],
              f"IPC's events alone: {doc['events']}")
        ipc = metric(doc, "IPC")
        check(ipc and (ipc["value"] is None) == (not doc["events"][0]["supported"]),
              f"IPC shown, undefined only where instructions do not count: {ipc}")
    p = hwprof("stat", "-M", "IPC,nosuch", "--", "true")
    check(p.returncode == 2 and "-M nosuch: no built-in metric of that name; they are: "
          "LLC-misses/migration, IPC," in p.stderr and "'IPC' is not an event" not in p.stderr,
          f"an unknown name lists the built-in ones: {p.returncode} {p.stderr}")
    p, doc = stat_json("-M", "kpf=page-faults / 1000", "-e", "page-faults", "--",
                       WORKLOAD, "pages", "100")
    check(p.returncode == 0 and doc and metric(doc, "kpf")["value"] > 0.1, "NAME=EXPR")


with tempfile.TemporaryDirectory() as tmp:
    case(metric_over_runs, tmp)
    case(metric_over_runs_text, tmp)
case(metric_names)
case(rates_as_perf)
case(csv_as_perf, 1, name="csv as perf")
case(csv_as_perf, 3, name="csv as perf, 3 runs")
done()
