#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof stat --score: the benchmark's own number from each run's output,
as a row like an event. The workload prints a known sequence (workload.c's
'score' step), so the statistics are checked against Python's."""
import csv
import io
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, event, hwprof, metric, stat_json

TPUT = "tput=Throughput ([0-9.eE+-]+) MB/sec"


def sequence(base, per, ticks):
    """What workload.c's 'score BASE PER' prints on each of TICKS."""
    return [base + per * ((t * 37 + 11) % 17) for t in ticks]


def score_row(doc, name):
    return next((s for s in doc.get("scores", []) if s["score"] == name), None)


def statistics_of_runs(d):
    """-r 8 --warmup 2: the 8 kept runs' scores, their mean and standard
    deviation as Python's statistics module computes them."""
    tick = os.path.join(d, "tick-stats")
    p, doc = stat_json("-r", "8", "--warmup", "2", "--quiet", "-e", "page-faults",
                       "--score", TPUT,
                       "--", WORKLOAD, "tick", tick, "score", "100", "2.5")
    check(p.returncode == 0, p.stderr)
    want = sequence(100, 2.5, range(2, 10))
    s = score_row(doc, "tput") if doc else None
    if not check(s, f"a score row: {doc and doc.get('scores')}"):
        return
    check(s["values"] == want, f"the runs' scores {s['values']}, not {want}")
    check(abs(s["mean"] - statistics.mean(want)) < 1e-9, f"mean {s['mean']}")
    check(abs(s["stddev"] - statistics.stdev(want)) < 1e-9,
          f"stddev {s['stddev']} vs {statistics.stdev(want)}")
    check(abs(s["median"] - statistics.median(want)) < 1e-9, f"median {s['median']}")
    check(doc["runs"] == 8 and len(event(doc, "page-faults")["values"]) == 8, "8 runs")


def output_shown_or_quiet(d):
    """The output --score reads is shown as it comes; --quiet hides it."""
    tick = os.path.join(d, "tick-shown")
    p = hwprof("stat", "-r", "3", "-e", "page-faults", "--score", TPUT, "--",
               WORKLOAD, "tick", tick, "score", "10", "1")
    check(p.returncode == 0, p.stderr)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("Throughput")]
    want = [f"Throughput {v:.6f} MB/sec" for v in sequence(10, 1, range(3))]
    check(lines == want, f"shown: {lines}")
    check("Scores:" in p.stderr and "tput" in p.stderr, p.stderr)
    p = hwprof("stat", "-r", "2", "--quiet", "-e", "page-faults", "--score", TPUT, "--",
               WORKLOAD, "tick", tick, "score", "10", "1")
    check(p.returncode == 0 and p.stdout == "", f"--quiet: {p.stdout!r} {p.stderr}")


def metric_reads_score(d):
    """-M 'f/MB=page-faults / tput': each run's faults over its score."""
    tick = os.path.join(d, "tick-metric")
    p, doc = stat_json("-r", "4", "--quiet", "-e", "page-faults", "--score", TPUT,
                       "-M", "f/MB=page-faults / tput", "--",
                       WORKLOAD, "tick", tick, "pages", "500", "score", "50", "5")
    check(p.returncode == 0, p.stderr)
    if not doc:
        return
    pf, m = event(doc, "page-faults")["values"], metric(doc, "f/MB")["values"]
    tput = sequence(50, 5, range(4))
    got = [round(x, 9) for x in m]
    check(got == [round(a / b, 9) for a, b in zip(pf, tput)], f"{m} from {pf} and {tput}")


def no_match_is_an_error(d):
    """A run without a match: an error naming the run and the regex, exit
    status 1, and the runs before it are written, not a made-up 0."""
    tick = os.path.join(d, "tick-nomatch")
    script = f"n=$(cat {tick} 2>/dev/null || echo 0); echo $((n + 1)) > {tick}; " \
             f"[ $n -lt 2 ] && echo 'Throughput 5 MB/sec'; true"
    p, doc = stat_json("-r", "5", "--quiet", "-e", "page-faults", "--score", TPUT, "--",
                       "sh", "-c", script)
    check(p.returncode == 1, f"status {p.returncode}")
    check("run 3 of 5" in p.stderr and "Throughput ([0-9.eE+-]+) MB/sec" in p.stderr and
          "not kept" in p.stderr, p.stderr)
    if check(doc, "what was measured is written"):
        check(doc["runs"] == 2 and score_row(doc, "tput")["values"] == [5, 5],
              f"the 2 runs before: {doc['runs']}")
    p = hwprof("stat", "-e", "page-faults", "--score", "x=Throughput ([a-z]+)", "--",
               WORKLOAD, "score", "1", "1")
    check(p.returncode == 1 and "run 1 of 1" in p.stderr, p.stderr)
    p = hwprof("stat", "-e", "page-faults", "--score", "x=Throughput ([0-9]+),", "--",
               WORKLOAD, "score", "1", "1")
    check(p.returncode == 1 and "no line of the output matches" in p.stderr, p.stderr)


def from_stderr_and_file(d):
    """--score-from stderr, and a FILE the command writes each run."""
    p, doc = stat_json("-r", "2", "-e", "page-faults", "--score", "lat=latency ([0-9.]+)",
                       "--score-from", "stderr", "--",
                       "sh", "-c", "echo 'latency 1.25' >&2; echo 'latency 9' >/dev/null")
    check(p.returncode == 0, p.stderr)
    check(doc and score_row(doc, "lat")["values"] == [1.25, 1.25], doc and doc.get("scores"))
    check(p.stderr.count("latency 1.25") == 2, "stderr is shown")
    out = os.path.join(d, "result.txt")
    tick = os.path.join(d, "tick-file")
    p, doc = stat_json("-r", "3", "-e", "page-faults", "--score", TPUT, "--score-from", out,
                       "--", "sh", "-c", f"{WORKLOAD} tick {tick} score 7 1 >> {out}")
    check(p.returncode == 0, p.stderr)
    check(doc and score_row(doc, "tput")["values"] == sequence(7, 1, range(3)),
          "the last line of the file, each run")
    # A file the run did not write would give the last run's score.
    p = hwprof("stat", "-e", "page-faults", "--score", TPUT, "--score-from", out, "--",
               "true")
    check(p.returncode == 1 and "was not written during the run" in p.stderr, p.stderr)


def big_output_and_long_lines(d):
    """More output than a pipe holds does not block the command; a line
    past 4096 bytes is matched in its first 4096 bytes, and a miss says so."""
    prog = "for i in range(20000): print('progress', i)\nprint('Throughput 42 MB/sec')"
    p, doc = stat_json("-e", "page-faults", "--quiet", "--score", TPUT, "--",
                       sys.executable, "-c", prog, timeout=120)
    check(p.returncode == 0 and doc and score_row(doc, "tput")["values"] == [42], p.stderr)
    p = hwprof("stat", "-e", "page-faults", "--quiet", "--score", TPUT, "--",
               sys.executable, "-c", "print('y' * 5000 + ' Throughput 1 MB/sec')")
    check(p.returncode == 1 and "longer than 4096 bytes" in p.stderr, p.stderr)


def formats_and_compare(d):
    """CSV, OpenMetrics and compare: the score is a row like an event; a 10%
    higher score is an increase, the same counts unchanged."""
    t1, t2 = os.path.join(d, "t1"), os.path.join(d, "t2")
    p = hwprof("stat", "-r", "2", "-x", ",", "-o", "-", "--quiet", "-e", "page-faults",
               "--score", TPUT, "--", WORKLOAD, "score", "1234.5", "0")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    check(["1234.5", "", "tput"] == next((r[:3] for r in rows if r[2:3] == ["tput"]), None),
          rows)
    p = hwprof("stat", "-r", "2", "--format", "openmetrics", "-o", "-", "--quiet", "-e",
               "page-faults", "--score", TPUT, "--", WORKLOAD, "score", "3", "0")
    check('hwprof_score{score="tput",' in p.stdout and "# TYPE hwprof_score gauge" in p.stdout,
          p.stdout)
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    for path, tick, base in ((a, t1, 100), (b, t2, 110)):
        p = hwprof("stat", "-r", "10", "--quiet", "--json", "-o", path, "-e", "task-clock",
                   "--score", TPUT, "--", WORKLOAD, "tick", tick, "score", str(base), "0.5")
        check(p.returncode == 0, p.stderr)
    p = hwprof("compare", "--json", a, b)
    doc = json.loads(p.stdout) if p.returncode == 0 else None
    if check(doc, p.stderr):
        rows = {r["name"]: r for r in doc["rows"]} if "rows" in doc else {}
        check("tput" in rows and rows["tput"]["kind"] == "score" and
              rows["tput"]["verdict"] == "increase", f"{list(rows)}: {rows.get('tput')}")


def sweep_with_score(d):
    """--sweep keeps the score row in every column."""
    p, doc = stat_json("-r", "2", "--quiet", "-e", "page-faults", "--score", TPUT,
                       "--sweep", "B=10,20", "--", WORKLOAD, "score", "{B}", "0")
    check(p.returncode == 0, p.stderr)
    if doc:
        vals = [score_row(pt["result"], "tput")["values"] for pt in doc["points"]]
        check(vals == [[10, 10], [20, 20]], vals)


def explain(d):
    """--explain: a score that page faults drive (1e6 / pages, the pages
    varied across runs) ranks page-faults first, rho -1, and says how many
    candidates were tried and that 10 runs are weak evidence."""
    tick = os.path.join(d, "tick-explain")
    p = hwprof("stat", "-r", "10", "--quiet", "--explain", "--score", TPUT, "-e",
               "page-faults,context-switches,cpu-migrations,task-clock", "--",
               WORKLOAD, "tick", tick, "faultscore", "1000", "300")
    check(p.returncode == 0, p.stderr)
    text = p.stderr.split("Which number to trust", 1)[-1]
    rows = [ln.split() for ln in text.splitlines()[4:] if ln.strip()]
    check(rows and rows[0][0] == "page-faults" and float(rows[0][1]) <= -0.95,
          f"page-faults first: {rows[:3]}")
    # 4 events and 4 built-in metrics (CPUs-utilized, migrations/sec,
    # cs/sec, faults/sec); ratios of the 4 events, each pair once: 6.
    check("8 rows tried" in text and "6 pairs tried" in text, text)
    check("weak evidence" in text, text)


def per_run(d):
    """--per-run: a line a run with every event, metric and score, in text,
    CSV and JSON, the same values as the rows' own (the scores are known)."""
    want = sequence(100, 2.5, range(4))
    args = ["-r", "4", "--quiet", "-e", "page-faults,task-clock", "--score", TPUT,
            "-M", "faults/MB=page-faults / tput", "--per-run"]
    tick = os.path.join(d, "tick-per-run-json")
    p, doc = stat_json(*args, "--", WORKLOAD, "tick", tick, "score", "100", "2.5")
    if not check(p.returncode == 0 and doc and "per_run" in doc, p.stderr):
        return
    cols = [c["name"] for c in doc["per_run"]["columns"]]
    runs = doc["per_run"]["runs"]
    check(cols[:2] == ["page-faults", "task-clock"] and "faults/MB" in cols and
          cols[-1] == "tput", cols)
    check([r[0] for r in runs] == [1, 2, 3, 4], runs)
    check([r[1] for r in runs] == doc["seconds"]["values"], runs)
    check([r[-1] for r in runs] == want, f"tput per run {[r[-1] for r in runs]}")
    pf = event(doc, "page-faults")["values"]
    check([r[2] for r in runs] == pf, f"{runs} vs {pf}")
    fmb = [r[cols.index("faults/MB") + 2] for r in runs]
    check(all(abs(x - a / b) < 1e-9 for x, a, b in zip(fmb, pf, want)), fmb)

    tick = os.path.join(d, "tick-per-run-csv")
    p = hwprof("stat", *args, "-x", ",", "-o", "-", "--", WORKLOAD, "tick", tick, "score",
               "100", "2.5")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    check(p.returncode == 0 and rows and
          rows[0][:4] == ["run", "seconds", "page-faults", "task-clock (msec)"] and
          rows[0][-1] == "tput", f"{p.stderr} {rows[:1]}")
    check(len(rows) == 5 and [float(r[-1]) for r in rows[1:]] == want, rows)
    check(all(float(r[3]) > 0 and int(r[2]) > 0 for r in rows[1:]), rows)

    tick = os.path.join(d, "tick-per-run-text")
    p = hwprof("stat", *args, "--", WORKLOAD, "tick", tick, "score", "100", "2.5")
    text = p.stderr.split(" Per run (4 runs):", 1)
    if not check(p.returncode == 0 and len(text) == 2, p.stderr):
        return
    lines = [ln.split() for ln in text[1].strip().splitlines()]
    check(lines[0][:3] == ["run", "seconds", "page-faults"] and lines[0][-1] == "tput",
          lines[0])
    check([float(ln[-1].rstrip("*")) for ln in lines[1:5]] == want, lines)


def reader_goes_away(d):
    """The command's output goes through hwprof to a reader that leaves
    after a line ('| head -1'): the command must get EPIPE, SIGPIPE, as
    without hwprof, not write on forever; its status, 128 + 13, passes
    through. -r 3 stops at the first run killed by a signal."""
    for extra in ([], ["-r", "3"]):
        argv = [*WRAPPER, HWPROF, "stat", "-e", "task-clock", *extra, "--score", "s=s=([0-9]+)",
                "--", "sh", "-c", "echo s=5; exec yes 1"]
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        first = p.stdout.readline()
        p.stdout.close()
        try:
            _, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            check(False, f"{extra}: still running 20 s after its reader left")
            continue
        check(first == "s=5\n", f"the first line shown: {first!r}")
        check(p.returncode == 128 + signal.SIGPIPE, f"{extra}: status {p.returncode}: {err}")
        check("SIGPIPE" in err or "Broken pipe" in err or p.returncode == 141, err)


def mistakes():
    """Usage errors: before anything runs."""
    for args, msg in (
        (["--score", "tput", "--", "true"], "write NAME=REGEX"),
        (["--score", "t=abc", "--", "true"], "has no group"),
        (["--score", "t=(1", "--", "true"], "is not valid"),
        (["--score", "seconds=(1)", "--", "true"], "not one a metric formula can use"),
        (["--score", "t=(1)", "--score", "t=(2)", "--", "true"], "given twice"),
        (["--score", "t=(1)", "-I", "100", "--", "true"], "not with -I"),
        (["--score", "t=(1)", "-a"], "give one after --"),
        (["--score-from", "stderr", "--", "true"], "give a --score"),
        (["--score", "t=(1)", "-M", "x=tpu * 2", "--", "true"], "did you mean: t"),
        (["--explain", "-r", "5", "--", "true"], "give a --score"),
        (["--explain", "--score", "t=(1)", "-r", "2", "--", "true"], "at least 3"),
        (["--explain", "--score", "t=(1)", "-r", "5", "--json", "--", "true"], "writes text"),
        (["--score", "t=(1)", "-a", "-A", "--", "true"], "not with -A or --per-*"),
        (["--per-thread", "--", "true", ":::", "true"], "not with -A or --per-*"),
        (["--per-run", "-I", "100", "--", "true"], "--per-run writes a line a run"),
        (["--per-run", "--sweep", "x=1,2", "--", "true", "{x}"], "not with --sweep"),
        (["--per-run", "--json", "-r", "2", "--", "true", ":::", "true"],
         "--json with variants"),
    ):
        p = hwprof("stat", *args)
        check(p.returncode == 2 and msg in p.stderr, f"{args}: {p.returncode} {p.stderr!r}")


with tempfile.TemporaryDirectory() as tmp:
    for fn in (statistics_of_runs, output_shown_or_quiet, metric_reads_score,
               no_match_is_an_error, from_stderr_and_file, big_output_and_long_lines,
               formats_and_compare, sweep_with_score, explain, per_run, reader_goes_away):
        case(fn, tmp)
case(mistakes)
done()
