#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regions driven by the environment alone: examples/msgbench picks no
events; HWPROF_EVENTS picks them and HWPROF_OUTPUT gets the JSON at exit."""
import json
import os
import re
import statistics
import tempfile

from common import HWPROF, case, check, done, have_hw_pmu, run

MSGBENCH = os.environ["MSGBENCH"]
GROUPS, MESSAGES = 3, 400


def from_the_environment(d):
    out = os.path.join(d, "regions.json")
    env = dict(os.environ, HWPROF_EVENTS="context-switches,task-clock,page-faults,cycles",
               HWPROF_OUTPUT=out)
    p = run([MSGBENCH, str(GROUPS), str(MESSAGES)], env=env)
    check(p.returncode == 0, p.stderr)
    check("send" in p.stdout and "/msg" in p.stdout, f"per-message figures: {p.stdout}")
    with open(out) as f:
        doc = json.load(f)
    check(doc["schema"] == "hwprof-regions/1", "schema")
    check(doc["event_spec"] == "context-switches,task-clock,page-faults,cycles", doc["event_spec"])
    check(doc["sample_every"] == 1 and doc["read_cost_ns"] > 0, "sampling and read cost")
    regions = {r["region"]: r for r in doc["regions"]}
    check(set(regions) == {"setup", "send", "receive"}, f"regions {sorted(regions)}")
    for name in ("send", "receive"):
        r = regions[name]
        check(r["threads"] == GROUPS and r["calls"] == GROUPS, f"{name}: {r['threads']} threads")
        check(r["ops"] == GROUPS * MESSAGES, f"{name}: ops {r['ops']}")
        check(len(r["per_thread"]) == GROUPS, f"{name}: one entry a thread")
        ev = {e["event"]: e for e in r["events"]}
        tc = ev["task-clock"]["count"]
        check(tc > 0 and r["seconds"] > 0, f"{name}: task-clock {tc}")
        cs = ev["context-switches"]["count"]
        check(abs(r["per_op"]["context-switches"] - cs / r["ops"]) < 1e-9, "per op")
        check(abs(r["per_call"]["task-clock"] - tc / r["calls"]) < 1e-6, "per call")
        parts = sum(t["counts"]["task-clock"] for t in r["per_thread"])
        check(abs(parts - tc) <= 1e-6 * tc + 1, f"{name}: threads add up: {parts} vs {tc}")
        cyc = ev["cycles"]
        if have_hw_pmu():
            check(cyc["supported"] and cyc["count"] > 0, f"{name}: cycles counted: {cyc}")
            check(abs(r["per_op"]["cycles"] - cyc["count"] / r["ops"]) < 1e-9,
                  f"{name}: cycles per op")
        else:
            check(cyc["supported"] is False and cyc["count"] is None,
                  "cycles: not supported, null")
            check(r["per_op"]["cycles"] is None, "no per-op figure without a count")
    check(regions["setup"]["calls"] == 1 and regions["setup"]["threads"] == 1, "setup")
    check(doc["environment"]["hwprof_version"], "environment")


def sample_every(d):
    """Sparse measurement from the environment."""
    out = os.path.join(d, "sparse.json")
    env = dict(os.environ, HWPROF_EVENTS="context-switches,task-clock,page-faults,cycles",
               HWPROF_OUTPUT=out, HWPROF_SAMPLE_EVERY="2")
    p = run([MSGBENCH, "2", "100"], env=env)
    check(p.returncode == 0, p.stderr)
    with open(out) as f:
        doc = json.load(f)
    check(doc["sample_every"] == 2, f"sample_every {doc['sample_every']}")


def bad_events():
    """Every region call fails with the reason; the program says it."""
    env = dict(os.environ, HWPROF_EVENTS="cache-mises")
    p = run([MSGBENCH, "1", "10"], env=env)
    check(p.returncode == 1 and "did you mean: cache-misses" in p.stderr, p.stderr)


def long_bad_events():
    """A spec longer than the message buffer: the reason survives the echo."""
    env = dict(os.environ, HWPROF_EVENTS="cs," * 2000 + "cache-mises")
    p = run([MSGBENCH, "1", "10"], env=env)
    check(p.returncode == 1 and "did you mean: cache-misses" in p.stderr,
          f"the reason, after {len(p.stderr)} bytes: ...{p.stderr[-300:]}")


def bad_events_unchecked(d):
    """A program that never checks what its regions return: a typo in
    HWPROF_EVENTS is said on stderr all the same, once, with the reason."""
    out = os.path.join(d, "typo.json")
    env = dict(os.environ, HWPROF_EVENTS="cache-mises", HWPROF_OUTPUT=out)
    p = run([os.environ["REGION_EXIT"]], env=env)
    check("did you mean: cache-misses" in p.stderr and "HWPROF_EVENTS" in p.stderr,
          f"the error, naming the variable: {p.stderr!r}")
    check(p.stderr.count("did you mean") == 1, f"said once: {p.stderr!r}")


def unwritable_output(d):
    """msgbench saves its results itself and checks: a lost output is exit 1,
    with the path and the reason, never a 0 and results gone."""
    for out, reason in ((os.path.join(d, "no", "such", "dir.json"), "directory does not exist"),
                        ("/dev/full", "No space left on device")):
        env = dict(os.environ, HWPROF_EVENTS="task-clock", HWPROF_OUTPUT=out)
        p = run([MSGBENCH, "1", "10"], env=env)
        check(p.returncode == 1 and out in p.stderr and reason in p.stderr,
              f"{out}: status {p.returncode}: {p.stderr}")


def lost_at_exit(d):
    """A program that leaves the saving to the at-exit writer: when the
    output cannot be written, the results go to a file of their own in
    $TMPDIR, and the message says where, loudly."""
    tmp = os.path.join(d, "fallback")
    os.mkdir(tmp)
    env = dict(os.environ, HWPROF_EVENTS="task-clock", HWPROF_OUTPUT="/dev/full", TMPDIR=tmp)
    p = run([os.environ["REGION_EXIT"]], env=env)
    kept = os.listdir(tmp)
    if not check(len(kept) == 1 and "/dev/full" in p.stderr and kept[0] in p.stderr
                 and "NOT" in p.stderr, f"{kept}: {p.stderr}"):
        return
    with open(os.path.join(tmp, kept[0])) as f:
        doc = json.load(f)
    check([r["region"] for r in doc["regions"]] == ["work"], f"the results: {doc}")
    # A directory that does not exist is said at the start, not after the run.
    env["HWPROF_OUTPUT"] = os.path.join(d, "missing", "r.json")
    p = run([os.environ["REGION_EXIT"]], env=env)
    first = p.stderr.splitlines()[0] if p.stderr else ""
    check("missing" in first and "does not exist" in first, f"first line: {p.stderr}")
    check(len(os.listdir(tmp)) == 2, f"kept again: {os.listdir(tmp)}")


# hwprof stat --regions: the whole program's counts, and its regions.
STAT_ENV = {k: v for k, v in os.environ.items() if not k.startswith("HWPROF_") or k == "HWPROF"}


def stat_regions_json(d):
    # -o FILE: the program's own output goes to stdout.
    p = run([HWPROF, "stat", "--regions", "-r", "2", "--json", "-o", f"{d}/out.json",
             "-e", "{context-switches,task-clock}", "--", MSGBENCH, "2", "200"], env=STAT_ENV)
    if not check(p.returncode == 0, p.stderr):
        return
    with open(f"{d}/out.json") as f:
        doc = json.load(f)
    check(len(doc["regions"]) == 2, f"one regions document a run: {len(doc['regions'])}")
    for rd in doc["regions"]:
        check(rd["schema"] == "hwprof-regions/1", "schema")
        check(rd["event_spec"] == "{context-switches,task-clock}", "the -e events: " + rd["event_spec"])
        names = {r["region"]: r for r in rd["regions"]}
        check(set(names) == {"setup", "send", "receive"}, f"regions {sorted(names)}")
        check(names["send"]["ops"] == 400 and names["send"]["threads"] == 2, "send: 2 x 200")
    whole = next(e for e in doc["events"] if e["event"] == "task-clock")["count"]
    inside = sum(next(e for e in r["events"] if e["event"] == "task-clock")["count"]
                 for r in doc["regions"][-1]["regions"])
    check(0 < inside <= whole * 1.05, f"the regions ({inside}) are part of the whole ({whole})")


def stat_regions_text():
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--", MSGBENCH, "1", "50"],
            env=STAT_ENV)
    check("Region 'send': 1 thread, 1 calls" in p.stderr, p.stderr)
    check("Performance counter stats for" in p.stderr, "the whole program too")
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--", "true"], env=STAT_ENV)
    # Nothing measured is lost: a warning, with status 0, not an "error:".
    check(p.returncode == 0 and "warning: --regions: the command wrote no regions" in p.stderr
          and "error:" not in p.stderr, f"no regions: {p.stderr}")
    p = run([HWPROF, "stat", "--regions", "-I", "100", "--", "true"], env=STAT_ENV)
    check(p.returncode == 2 and "no -I" in p.stderr, p.stderr)


def stat_regions_estimate_exceeds(d):
    """One call in 100 measured, and the first measured call sleeps 50 ms:
    its 99 unmeasured companions are estimated from it, more than the
    program ran. The totals say that they are estimates, and that this
    estimate cannot be trusted, in the text and in the JSON."""
    env = dict(STAT_ENV, HWPROF_SAMPLE_EVERY="100")
    argv = [os.environ["REGION_SPARSE"], "1000", "50"]
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--"] + argv, env=env)
    check(p.returncode == 0, p.stderr)
    check("1000 calls (10 measured; the others estimated)" in p.stderr, p.stderr)
    check("WARNING: these totals, estimated from 10 measured calls of 1000, are more than"
          in p.stderr, p.stderr)
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--json", "-o", f"{d}/est.json",
             "--"] + argv, env=env)
    check(p.returncode == 0, p.stderr)
    with open(f"{d}/est.json") as f:
        doc = json.load(f)
    rg = doc["regions"][0]["regions"][0]
    check(rg["exceeds_time"] is True and rg["per_thread"][0]["exceeds_time"] is True,
          f"flagged: {rg}")
    run_s = doc["seconds"]["values"][0]
    check(rg["seconds"] > run_s, f"the estimate ({rg['seconds']} s) is more than the run ({run_s} s)")
    p = run([HWPROF, "stat", "--regions", "-r", "2", "-e", "task-clock", "--"] + argv, env=env)
    check("WARNING: in 2 of the runs, its totals, estimated" in p.stderr, p.stderr)
    # Every call measured: nothing estimated, nothing flagged.
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--json", "-o", f"{d}/all.json",
             "--"] + argv, env=dict(STAT_ENV, HWPROF_SAMPLE_EVERY="1"))
    with open(f"{d}/all.json") as f:
        rg = json.load(f)["regions"][0]["regions"][0]
    check(rg["measured_calls"] == 1000 and rg["exceeds_time"] is False, f"{rg}")


def one_bad_region(d):
    """One region with a bad field: the others are kept and shown, the
    message names the bad one and why, and the status says a region was
    lost (it dropped every region of the file)."""
    good = os.path.join(d, "one-bad-src.json")
    env = dict(STAT_ENV, HWPROF_EVENTS="task-clock", HWPROF_OUTPUT=good)
    p = run([MSGBENCH, "1", "20"], env=env)
    if not check(p.returncode == 0, p.stderr):
        return
    with open(good) as f:
        doc = json.load(f)
    names = [r["region"] for r in doc["regions"]]
    bad = names.index("send")
    doc["regions"][bad]["calls"] = "many"
    with open(good, "w") as f:
        json.dump(doc, f, indent=1)
    out = os.path.join(d, "one-bad.json")
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--json", "-o", out, "--",
             "sh", "-c", f'cat {good} >"$HWPROF_OUTPUT"'], env=STAT_ENV)
    check(p.returncode == 1, f"status {p.returncode}: a region was lost: {p.stderr}")
    check(f"regions[{bad}]" in p.stderr and "calls" in p.stderr and
          "left out" in p.stderr, f"names the bad region and why: {p.stderr}")
    with open(out) as f:
        kept = [r["region"] for r in json.load(f)["regions"][0]["regions"]]
    check(kept == [n for n in names if n != "send"], f"the others are kept: {kept}")


def stat_regions_runs():
    """-r N keeps every run's regions: each row's mean over the runs, with
    its +-, equal to the mean of what the program itself printed each run
    (msgbench prints task-clock per message, in ns, from its regions)."""
    runs = 3
    p = run([HWPROF, "stat", "--regions", "-r", str(runs), "-e", "task-clock", "--",
             MSGBENCH, "2", "100"], env=STAT_ENV)
    if not check(p.returncode == 0, p.stderr):
        return
    check(f"Regions over {runs} runs" in p.stderr, p.stderr)
    for name in ("send", "receive"):
        own = [float(m) for m in
               re.findall(rf"^{name}\s+2 threads, 200 messages: ([0-9.]+) task-clock/msg",
                          p.stdout, re.M)]
        if not check(len(own) == runs, f"{name}: the program's lines: {p.stdout}"):
            continue
        block = re.search(rf"Region '{name}': in {runs} of {runs} runs;.*?\n(.*?)\n",
                          p.stderr, re.S)
        if not check(block, f"{name}: a block over the runs: {p.stderr}"):
            continue
        line = block.group(1)
        per_op = re.search(r"([0-9.e+-]+) msec/op", line)
        check("task-clock" in line and "( +-" in line and per_op, f"{name}: {line}")
        want = statistics.mean(own) / 1e6
        got = float(per_op.group(1))
        check(abs(got - want) <= 1e-3 * want, f"{name}: {got} msec/op, the runs' mean {want}")


def compare_regions(d):
    """compare compares each region both results entered, row by row: 16
    times the messages make each region's task-clock an increase."""
    for side, msgs in (("a", "50"), ("b", "800")):
        p = run([HWPROF, "stat", "--regions", "-r", "8", "--json", "-o", f"{d}/{side}.json",
                 "-e", "task-clock", "--", MSGBENCH, "2", msgs], env=STAT_ENV)
        if not check(p.returncode == 0, p.stderr):
            return
    p = run([HWPROF, "compare", "--json", f"{d}/a.json", f"{d}/b.json"])
    if not check(p.returncode == 0, p.stderr):
        return
    rows = json.loads(p.stdout)["rows"]
    units = {r.get("aggregation_unit") for r in rows} - {None}
    check(units == {"region:setup", "region:send", "region:receive"}, f"{units}")
    for name in ("send", "receive"):
        row = next((r for r in rows if r.get("aggregation_unit") == f"region:{name}" and
                    r["name"] == "task-clock"), None)
        if not check(row, f"region:{name} task-clock: {rows}"):
            continue
        check(row["a_n"] == 8 and row["b_n"] == 8, f"{name}: 8 runs a side: {row}")
        check(row["verdict"] == "increase" and row["ratio"] > 4,
              f"{name}: {row['verdict']} x{row['ratio']}")
    p = run([HWPROF, "compare", f"{d}/a.json", f"{d}/b.json"])
    check(re.search(r"^ region:send task-clock \(msec\)", p.stdout, re.M), p.stdout)


def stat_regions_unreadable():
    # A regions file that cannot be read: the counts are still shown, the
    # error says why, and the exit status says the regions are lost (a
    # script must not take a run without its regions for a good one).
    bad = 'printf \'{"schema":"hwprof-regions/1","regions":[{"region":1}]}\' >"$HWPROF_OUTPUT"'
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--", "sh", "-c", bad],
            env=STAT_ENV)
    check(p.returncode == 1, f"exit status {p.returncode}: {p.stderr}")
    check("task-clock" in p.stderr and "regions" in p.stderr, p.stderr)
    # The command's own failure still passes through.
    p = run([HWPROF, "stat", "--regions", "-e", "task-clock", "--", "sh", "-c", bad + "; exit 3"],
            env=STAT_ENV)
    check(p.returncode == 3, f"exit status {p.returncode}: {p.stderr}")


with tempfile.TemporaryDirectory() as tmp:
    case(from_the_environment, tmp)
    case(bad_events_unchecked, tmp)
    case(sample_every, tmp)
    case(bad_events)
    case(long_bad_events)
    case(unwritable_output, tmp)
    case(lost_at_exit, tmp)
    case(stat_regions_json, tmp, name="stat --regions --json")
    case(stat_regions_text, name="stat --regions")
    case(stat_regions_unreadable, name="stat --regions, an unreadable regions file")
    case(stat_regions_estimate_exceeds, tmp,
         name="stat --regions: an estimate more than the program ran says so")
    case(one_bad_region, tmp, name="stat --regions, one bad region of several")
    case(stat_regions_runs, name="stat --regions -r N: every run's regions")
    case(compare_regions, tmp, name="compare: region by region")
done()
