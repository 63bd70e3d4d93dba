#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof compare end to end: hwprof stat -r on a workload whose page-fault
count differs by 10% between two settings is an increase with ratio ~1.10;
two results of one setting are unchanged; bad inputs get a clear message
and the documented exit status; a sweep larger than 64 MiB is read; extreme
values print as numbers, with JSON and text agreeing on what is missing
and why."""
import json
import os
import re
import resource
import subprocess
import tempfile

from common import WORKLOAD, case, check, done, hwprof, note, under_valgrind

PAGES = 10000
RUNS = "10"


def measure(path, pages, runs=RUNS, events="page-faults"):
    p = hwprof("stat", "-r", runs, "--json", "-o", path, "-e", events, "--",
               WORKLOAD, "pages", str(pages), timeout=120)
    check(p.returncode == 0, f"stat for {path}: {p.stderr}")


def compare_json(*args):
    p = hwprof("compare", "--json", *args)
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        note(f"not JSON (status {p.returncode}): {p.stdout!r} {p.stderr!r}")
        return p, None


def row(doc, name, column=None):
    for r in doc["rows"]:
        if r["name"] == name and r["column"] == column:
            return r
    return None


def measured(d):
    """Two settings, 10% more pages in B: the results the cases below compare."""
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
    measure(a, PAGES)
    measure(b, PAGES * 11 // 10)
    return a, b


def increase(d, a, b):
    """10% more pages: an increase, ratio ~1.10 (the workload's own ~50 faults
    are in both, so a hair under)."""
    p, doc = compare_json(a, b)
    check(p.returncode == 0, f"status {p.returncode}: {p.stderr}")
    if check(doc, "a JSON document"):
        check(doc["schema"] == "hwprof-compare/1", "schema")
        check(doc["test"] == "welch" and doc["alpha"] == 0.05, "defaults")
        pf = row(doc, "page-faults")
        check(pf is not None, f"a page-faults row: {doc['rows']}")
        if pf:
            check(pf["verdict"] == "increase", f"verdict {pf['verdict']}: {pf}")
            check(abs(pf["ratio"] - 1.10) < 0.01, f"ratio {pf['ratio']}")
            check(pf["ci_low"] > 0.09 * pf["a_mean"] and pf["ci_high"] < 0.11 * pf["a_mean"],
                  f"CI of B - A around 10%: [{pf['ci_low']}, {pf['ci_high']}]")
            check(pf["p_value"] < 1e-6 and pf["p_value"] >= pf["p_raw"], f"p {pf['p_value']}")
            check(pf["a_n"] == 10 and pf["b_n"] == 10, "10 runs a side")
            for key in ("name", "a_mean", "b_mean", "ratio", "ci_low", "ci_high", "p_value",
                        "verdict"):
                check(key in pf, f"row has {key}")
        # the time rows are rows of both: Holm over 2 tests or more.
        check(doc["correction"] == "holm" and doc["tests"] == len(doc["rows"]) >= 2,
              f"Holm over {doc['tests']} tests, {len(doc['rows'])} rows")
        check(doc["noise_ranking"][0]["name"] == "page-faults",
              f"page-faults is the least noisy: {doc['noise_ranking']}")


def text_table(d, a, b):
    """The text table says the same, and names the test and the correction."""
    p = hwprof("compare", a, b)
    check(p.returncode == 0, p.stderr)
    line = [l for l in p.stdout.splitlines() if l.startswith(" page-faults ")]
    check(line and "increase" in line[0] and ("1.099" in line[0] or "1.100" in line[0]),
          f"text row: {line}")
    check("Welch's t-test, alpha 0.05; Holm's correction over" in p.stdout, p.stdout)
    check("Noise ranking" in p.stdout, "noise ranking shown")


def mann_whitney(d, a, b):
    """Mann-Whitney on request: said in the output, same verdict."""
    p, doc = compare_json("--test", "mann-whitney", a, b)
    check(p.returncode == 0 and doc and doc["test"] == "mann-whitney", p.stderr)
    if doc:
        check(row(doc, "page-faults")["verdict"] == "increase", "Mann-Whitney: increase")
    p = hwprof("compare", "--test", "mann-whitney", a, b)
    check("Mann-Whitney U test" in p.stdout, p.stdout)


def output_file(d, a, b):
    """-o writes the same document; --no-correction leaves p as it was."""
    out = os.path.join(d, "cmp.json")
    p = hwprof("compare", "--json", "--no-correction", "-o", out, a, b)
    check(p.returncode == 0 and p.stdout == "", f"-o: {p.stderr}")
    with open(out) as f:
        doc = json.load(f)
    check(doc["correction"] == "none" and
          all(r["p_value"] == r["p_raw"] for r in doc["rows"]), "no correction")


def same_setting(d, a, b):
    """A/A: the same setting twice is unchanged. At alpha 0.05 a correct test
    calls 5% of true A/A pairs different (test-stats-sim checks that rate),
    so a fresh pair is measured when one is: three in a row fail with
    p = 1.25e-4, while a test biased towards "increase" fails every time."""
    verdicts = []
    for attempt in range(3):
        a2 = os.path.join(d, f"a2-{attempt}.json")
        measure(a2, PAGES)
        p, doc = compare_json(a, a2)
        check(p.returncode == 0 and doc, p.stderr)
        pf = row(doc, "page-faults") if doc else None
        verdicts.append(pf and pf["verdict"])
        if pf:
            # The 95% interval is the row's own, before Holm's correction:
            # it leaves out 0 exactly when the uncorrected p is below 0.05.
            check((pf["ci_low"] > 0 or pf["ci_high"] < 0) == (pf["p_raw"] < 0.05),
                  f"interval and p agree: {pf}")
        if pf and pf["verdict"] == "unchanged":
            check(abs(pf["ratio"] - 1) < 0.001, f"A/A ratio {pf['ratio']}")
            break
    check("unchanged" in verdicts, f"A/A verdicts: {verdicts}")


def bad_inputs(d, a, b):
    """Bad inputs: what is wrong, and the exit status (2: not a result file;
    1: results that cannot be compared, or a file that cannot be read)."""
    def bad_file(name, content):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(content)
        return path

    with open(a) as f:
        whole = f.read()
    one = os.path.join(d, "one.json")
    measure(one, PAGES, runs="1")
    cs = os.path.join(d, "cs.json")
    measure(cs, 100, events="context-switches")
    # Other events, and the same time rows: those are compared...
    p = hwprof("compare", a, cs)
    check(p.returncode == 0 and re.search(r"^ elapsed ", p.stdout, re.M) and
          not re.search(r"^ page-faults ", p.stdout, re.M),
          f"the time rows in common: {p.stdout} {p.stderr}")
    # ...and without them (a file of 0.1) nothing is.
    with open(cs) as f:
        doc = json.load(f)
    del doc["times"]
    with open(cs, "w") as f:
        json.dump(doc, f)
    cases = [
        ([bad_file("text.json", "hello\n"), b], 2, "is not valid JSON: line 1, column 1"),
        ([a, bad_file("empty.json", "")], 2, "is empty"),
        ([bad_file("cut.json", whole[:len(whole) // 2]), b], 2, "ends early"),
        ([bad_file("other.json", '{"name": "x"}'), b], 2, "is JSON but not hwprof's"),
        ([bad_file("new.json", '{"schema": "hwprof-stat/9"}'), b], 2, "does not read"),
        ([bad_file("deep.json", "[" * 100 + "]" * 100), b], 2,
         "is nested deeper than 64 levels, at line 1"),
        ([os.path.join(d, "missing.json"), b], 1, "cannot open"),
        ([a, one], 1, "has one run: a comparison needs at least 2 runs"),
        ([a, cs], 1, "no event or metric in common"),
        ([a], 2, "two result files are needed"),
        ([a, b, b], 2, "too many files"),
        (["--alpha", "2", a, b], 2, "--alpha: '2'"),
        (["--alpha", "x", a, b], 2, "--alpha: 'x'"),
        (["--test", "z", a, b], 2, "welch or mann-whitney"),
        (["--bogus", a, b], 2, "unknown option '--bogus'"),
    ]
    for args, status, msg in cases:
        p = hwprof("compare", *args)
        check(p.returncode == status, f"{args}: status {p.returncode}, want {status}: {p.stderr}")
        check(msg in p.stderr, f"{args}: stderr lacks {msg!r}: {p.stderr!r}")
        check(p.stdout == "", f"{args}: nothing on stdout")
        check("Sanitizer" not in p.stderr, f"{args}: crash")
    p = hwprof("compare", bad_file("cut2.json", whole[:100]), b)
    check("truncated" in p.stderr and "cut2.json" in p.stderr, p.stderr)


def strict_json(text):
    """JSON as RFC 8259 has it: NaN and Infinity are not numbers."""
    def refuse(token):
        raise ValueError(f"bare {token} in JSON")
    return json.loads(text, parse_constant=refuse)


def large_sweep(d, a, b):
    """A sweep of 30 values x 170 events x 1,000 runs is ~70 MB of JSON,
    past the 64 MiB compare refused: it is read, with memory that grows
    with the numbers in it (8 bytes each, as stat held them), not with a
    tree of the whole document."""
    with open(a) as f:
        doc = json.load(f)
    runs, points, events = 1000, 30, 170

    def numbers(n, fmt):
        return "[" + ", ".join(fmt(i) for i in range(n)) + "]"

    def result(nr_events, nr_runs):
        """As stat writes one: counts of 7 digits, all running, 12 ms a run."""
        rows = ", ".join(json.dumps(dict(doc["events"][0], event=f"e{i}", canonical=f"e{i}",
                                         outliers=[], values="@V@",
                                         percent_running_values="@P@"))
                         for i in range(nr_events))
        text = json.dumps(dict(doc, runs=nr_runs, metrics=[], times=[], seconds={"values": "@S@"},
                               events="@E@"))
        return text.replace('"@E@"', f"[{rows}]") \
                   .replace('"@S@"', numbers(nr_runs, lambda i: "0.0123")) \
                   .replace('"@V@"', numbers(nr_runs, lambda i: str(1000000 + i * 7919 % 100003))) \
                   .replace('"@P@"', numbers(nr_runs, lambda i: "100"))

    def sweep(path, body):
        with open(path, "w") as f:
            f.write('{"schema": "hwprof-sweep/1", "parameter": "T", "command": ["x", "{T}"], '
                    '"points": [')
            f.write(", ".join('{"value": "%d", "result": %s}' % (p + 1, body)
                              for p in range(points)))
            f.write("]}\n")

    big, small = os.path.join(d, "big.json"), os.path.join(d, "small.json")
    sweep(small, result(1, 10))
    # A device that never ends, and is no JSON, is refused at once.
    p = hwprof("compare", "/dev/zero", small, timeout=30)
    check(p.returncode == 2 and "'/dev/zero' is not valid JSON: line 1, column 1" in p.stderr,
          f"/dev/zero: {p.returncode} {p.stderr}")
    under_valgrind("it would take minutes to read 70 MB")
    sweep(big, result(events, runs))
    size = os.path.getsize(big)
    check(size > 66 << 20, f"the sweep is past 64 MiB: {size} bytes")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = hwprof("compare", "--json", big, small, timeout=120)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    check(p.returncode == 0, f"status {p.returncode}: {p.stderr}")
    check("larger than" not in p.stderr and "too large" not in p.stderr, p.stderr)
    doc = strict_json(p.stdout) if p.returncode == 0 else None
    if doc:
        check(doc["columns"] == [str(i + 1) for i in range(points)], f"columns {doc['columns']}")
        e0 = [r for r in doc["rows"] if r["name"] == "e0"]
        check(len(e0) == points and all(r["a_n"] == runs and r["b_n"] == 10 for r in e0),
              f"e0 in every column, {runs} runs against 10: {e0[:1]}")
        check(any("only in" in w and "e169" in w for w in doc["warnings"]),
              f"the events B lacks are named: {[w[:80] for w in doc['warnings']]}")
    # Under a sanitizer, the peak is its own: only plain builds say.
    if os.environ.get("HWPROF_SANITIZE", "none") != "none":
        note("peak memory not checked: a sanitizer's own")
    elif peak <= before:
        note(f"peak memory not checked: an earlier command took more ({before >> 10} MiB)")
    else:
        check(peak * 1024 < 3 * size, f"peak RSS {peak >> 10} MiB for a {size >> 20} MiB file")


def result_with(d, a, name, values):
    """A copy of result A whose page-faults values are VALUES."""
    with open(a) as f:
        doc = json.load(f)
    doc["runs"] = len(values)
    doc.pop("times", None)
    doc["seconds"]["values"] = [0.01] * len(values)
    doc["events"] = [dict(doc["events"][0], values=values,
                          percent_running_values=[100] * len(values))]
    doc["metrics"] = []
    path = os.path.join(d, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def with_events(d, a, name, events):
    """A copy of result A whose events are EVENTS: (name, values) pairs."""
    path = result_with(d, a, name, events[0][1])
    with open(path) as f:
        doc = json.load(f)
    doc["events"] = [dict(doc["events"][0], event=n, canonical=n, values=v)
                     for n, v in events]
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def event_twice(d, a, b):
    """An event listed twice in A and once in B: the first is compared, and
    the warning names the second, not the event as if it was not compared."""
    twice = with_events(d, a, "twice.json", [("page-faults", [10, 11, 12]),
                                             ("page-faults", [20, 21, 22])])
    once = with_events(d, a, "once.json", [("page-faults", [10, 12, 11])])
    p = hwprof("compare", twice, once)
    check(p.returncode == 0 and re.search(r"^ page-faults ", p.stdout, re.M), p.stdout)
    warn = [l for l in p.stdout.splitlines() if "not compared" in l]
    check(len(warn) == 1 and re.search(r"the 2nd page-faults \(\S*twice.json lists it 2 "
                                       r"times, \S*once.json 1: the first 1 compared\)",
                                       warn[0]), warn)
    p = hwprof("compare", once, twice)
    warn = [l for l in p.stdout.splitlines() if "not compared" in l]
    check(len(warn) == 1 and re.search(r"only in \S*twice.json,", warn[0]) and
          "the 2nd page-faults" in warn[0], warn)


def constant_rows(d, a, b):
    """Rows that cannot differ (every run of A and B the same value: 0
    against 0) are not tests: Holm's correction counts the others, and the
    constant rows are still shown, unchanged."""
    zeros = [0] * 6
    ca = with_events(d, a, "const-a.json", [("page-faults", [100, 101, 99, 100, 102, 98]),
                                            ("cpu-migrations", zeros),
                                            ("major-faults", zeros),
                                            ("minor-faults", [7] * 6)])
    cb = with_events(d, a, "const-b.json", [("page-faults", [110, 111, 109, 110, 112, 108]),
                                            ("cpu-migrations", zeros),
                                            ("major-faults", zeros),
                                            ("minor-faults", [7] * 6)])
    p, doc = compare_json(ca, cb)
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    check(doc["tests"] == 1, f"one row can differ: {doc['tests']} tests")
    pf = row(doc, "page-faults")
    check(pf["verdict"] == "increase" and pf["p_value"] == pf["p_raw"], pf)
    for name in ("cpu-migrations", "major-faults", "minor-faults"):
        r = row(doc, name)
        check(r is not None and r["verdict"] == "unchanged" and r["p_value"] == 1, r)
    p = hwprof("compare", ca, cb)
    check("Holm's correction over" not in p.stdout or "over 1 test" in p.stdout, p.stdout)


def null_values(d, a, b):
    """A null in a result's values is a run without a value (failed or
    missing): the header counts the file's runs, and every output says how
    many of them the row's mean and test are over."""
    nulls = result_with(d, a, "nulls.json", [100, None, 101, 99, None, 100])
    full = result_with(d, a, "full.json", [110, 111, 109, 110, 112, 108])
    p = hwprof("compare", nulls, full)
    check(p.returncode == 0 and re.search(r"nulls\.json \(6 runs\)", p.stdout), p.stdout)
    check(re.search(r"note: page-faults: 2 of the 6 runs of \S*nulls\.json have no value "
                    r"\(null: failed or missing\); its mean and test are of the other 4",
                    p.stdout), p.stdout)
    p, doc = compare_json(nulls, full)
    r = row(doc, "page-faults") if doc else None
    check(r and doc["a"]["runs"] == [6] and r["a_n"] == 4 and r["b_n"] == 6 and
          r["a_mean"] == 100, r)
    p = hwprof("compare", "--csv", nulls, full)
    line = next((l for l in p.stdout.splitlines() if l.startswith("page-faults,")), "")
    head = p.stdout.splitlines()[0].split(",") if p.stdout else []
    if check(line and "a_n" in head, p.stdout):
        check(line.split(",")[head.index("a_n")] == "4", line)


def extreme_values(d, a, b):
    """Means of 1.797e308 print as numbers in the columns, not as ~50 digits;
    a ratio over a denormal or a zero mean is missing the same way in text
    ("n/a") and JSON (null), and every n/a says why, in both."""
    huge_a = result_with(d, a, "huge-a.json", [1.797e308, 1.796e308] * 3)
    huge_b = result_with(d, a, "huge-b.json", [1.79e308, 1.795e308] * 3)
    tiny = result_with(d, a, "tiny.json", [5e-324, 1e-323] * 3)
    zero = result_with(d, a, "zero.json", [0] * 6)
    ones = result_with(d, a, "ones.json", [1, 1.1, 0.9] * 2)
    for x, y, what in ((huge_a, huge_b, "huge"), (tiny, ones, "denormal"),
                       (zero, ones, "zero")):
        p = hwprof("compare", x, y)
        j = hwprof("compare", "--json", x, y)
        check(p.returncode == 0 and j.returncode == 0, f"{what}: {p.stderr} {j.stderr}")
        try:
            doc = strict_json(j.stdout)
        except ValueError as e:
            check(False, f"{what}: not JSON: {e}: {j.stdout[:300]!r}")
            continue
        row = doc["rows"][0]
        text = p.stdout
        check(not re.search(r"\d{20}", text), f"{what}: a run of 20 digits: {text}")
        check("inf" not in text and "nan" not in text, f"{what}: inf or nan: {text}")
        line = [l for l in text.splitlines() if l.startswith(" page-faults ")]
        check(len(line) == 1, f"{what}: one row: {text}")
        missing = row["ratio"] is None or row["verdict"] == "n/a"
        check(missing, f"{what}: something is missing: {row}")
        check(row["reason"], f"{what}: a reason for what is missing: {row}")
        if row["reason"]:
            check(f"page-faults: {row['reason']}" in text,
                  f"{what}: the text says the same reason: {row['reason']!r}\n{text}")
        if row["ratio"] is None and line:
            check(line[0].split()[3] == "n/a", f"{what}: no ratio shown as n/a: {line}")
        if what == "huge":
            check("1.797e+308" in text, f"huge: the mean as a number: {text}")
            check(row["verdict"] == "n/a" and "mann-whitney" in (row["reason"] or ""),
                  f"huge: no test, and what to do: {row}")
        if what == "denormal":
            check(row["ratio"] is None and "ratio" in (row["reason"] or "") and
                  row["verdict"] == "increase", f"denormal: no ratio, a verdict: {row}")
        if what == "zero":
            check(row["ratio"] is None and "is 0" in (row["reason"] or ""), f"zero: {row}")


def field_messages(d, a, b):
    """A field missing or wrong in a result or sweep: the message names the
    file, the field and what is wrong, and says what to do; never
    'no "parameter" is missing'."""
    with open(a) as f:
        doc = json.load(f)
    sweep = {"schema": "hwprof-sweep/1", "parameter": "T", "command": ["x", "{T}"],
             "points": [{"value": "1", "result": doc}]}

    def written(name, obj):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            json.dump(obj, f)
        return path

    no_param = written("no-param.json", {k: v for k, v in sweep.items() if k != "parameter"})
    no_runs = written("no-runs.json", {k: v for k, v in doc.items() if k != "runs"})
    bad_runs = written("bad-runs.json", dict(doc, runs="10"))
    deep = written("deep.json", dict(sweep, points=[{"value": "1", "result": dict(
        doc, events=[{k: v for k, v in doc["events"][0].items() if k != "unit"}])}]))
    cases = [
        (no_param, '"parameter"', "missing"),
        (no_runs, '"runs"', "missing"),
        (bad_runs, "runs", "should be a number, not a string"),
        (deep, '"unit"', "points[0].result.events[0]"),
    ]
    for path, field, what in cases:
        p = hwprof("compare", path, a)
        name = os.path.basename(path)
        check(p.returncode == 2, f"{name}: status {p.returncode}")
        msg = p.stderr
        check(name in msg and field in msg and what in msg, f"{name}: {msg!r}")
        check(not re.search(r'no "[^"]*" is missing', msg), f"{name}: nonsense: {msg!r}")
        check("write it again with hwprof" in msg, f"{name}: what to do: {msg!r}")


def fail_on_table_names(d):
    """--fail-on takes a row by the name the table prints: a clock's
    "task-clock (msec)" as well as "task-clock"."""
    paths = [os.path.join(d, f"clock-{k}.json") for k in "ab"]
    for path in paths:
        p = hwprof("stat", "-r", "3", "--json", "-o", path, "-e", "task-clock", "--",
                   WORKLOAD, "pages", "100")
        check(p.returncode == 0, f"stat: {p.stderr}")
    p = hwprof("compare", *paths)
    check(" task-clock (msec) " in p.stdout, f"the table's name: {p.stdout}")
    for name in ("task-clock (msec)", "task-clock"):
        p = hwprof("compare", "--fail-on", f"{name}:increase>100000", *paths)
        check(p.returncode == 0 and "FAIL" not in p.stdout,
              f"--fail-on '{name}': status {p.returncode}: {p.stderr}")
    p = hwprof("compare", "--fail-on", "task-clock (sec):increase", *paths)
    check(p.returncode == 2 and "has no row 'task-clock (sec)'" in p.stderr,
          f"another suffix is no row: {p.returncode} {p.stderr}")


def saved_by_the_api(d):
    """Results a program built and saved itself (examples/save_result.c:
    hwp_result_new, _add_run...) are files hwprof compare reads: 1000 and
    3000 touched pages, one fault each, are an increase of 3 times."""
    paths = []
    for pages in (1000, 3000):
        path = os.path.join(d, f"api-{pages}.json")
        p = subprocess.run([os.environ["SAVE_RESULT"], str(pages), "4", path],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 0 and "page-faults" in p.stdout, f"save_result: {p.stderr}")
        paths.append(path)
    with open(paths[0]) as f:
        doc = json.load(f)
    check(doc["schema"] == "hwprof-stat/1" and doc["runs"] == 4 and doc["exit_status"] == 0,
          f"what hwprof stat --json saves: {sorted(doc)}")
    check([t["time"] for t in doc["times"]] == ["elapsed", "user", "system"],
          f"time rows: {doc['times']}")
    p, cmp = compare_json(*paths)
    check(p.returncode == 0, f"status {p.returncode}: {p.stderr}")
    pf = row(cmp, "page-faults") if cmp else None
    if check(pf is not None, "a page-faults row"):
        # One fault a page at least; a code page first run in the window may
        # add one, and a sanitizer's shadow memory up to a few percent
        # (AddressSanitizer: 1031 and 3094).
        check(1000 <= pf["a_mean"] < 1000 * 1.05 + 16 and
              3000 <= pf["b_mean"] < 3000 * 1.05 + 16, f"means: {pf}")
        check(pf["verdict"] == "increase" and pf["a_n"] == pf["b_n"] == 4, f"{pf}")


def help_text():
    """Both ways print the same; the command table lists compare."""
    h1, h2 = hwprof("compare", "--help"), hwprof("help", "compare")
    check(h1.returncode == 0 and h1.stdout == h2.stdout and "usage: hwprof compare" in h1.stdout,
          "help")
    check("compare" in hwprof("--help").stdout, "listed")


with tempfile.TemporaryDirectory() as tmp:
    A, B = case(measured, tmp, name="two settings measured") or (None, None)
    if A:
        for fn in (increase, text_table, mann_whitney, output_file, same_setting, bad_inputs,
                   large_sweep, extreme_values, field_messages, event_twice, constant_rows, null_values):
            case(fn, tmp, A, B)
    case(fail_on_table_names, tmp)
    case(saved_by_the_api, tmp)
case(help_text)
done()
