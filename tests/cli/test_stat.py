#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof stat on workloads with known counts: text, CSV and JSON output,
exit statuses, metrics, repeated and interval runs."""
import math
import os
import re
import tempfile

from common import (WORKLOAD, WRAPPER, case, check, done, event, have_hw_pmu, hwprof, metric,
                    skip, stat_csv, stat_json)

PAGES = 20000
HW_PMU = have_hw_pmu()


def json_output():
    """The documented fields, real counts."""
    p, doc = stat_json("-e", "page-faults,context-switches,cpu-migrations,task-clock,cycles,"
                       "instructions", "--", WORKLOAD, "pages", str(PAGES), "pingpong", "500")
    check(p.returncode == 0, f"status {p.returncode}: {p.stderr}")
    if not check(doc, "a JSON document"):
        return
    check(doc["schema"] == "hwprof-stat/1", "schema")
    check(doc["command"] == [WORKLOAD, "pages", str(PAGES), "pingpong", "500"], "command kept")
    check(doc["runs"] == 1 and doc["exit_status"] == 0, "runs and exit status")
    pf = event(doc, "page-faults")
    check(PAGES <= pf["count"] <= PAGES + 300, f"page faults {pf['count']}")
    check(pf["supported"] and pf["percent_running"] == 100, "counted fully")
    cs = event(doc, "context-switches")
    check(cs["count"] >= 1000, f"context switches {cs['count']} for 500 round trips")
    tc = event(doc, "task-clock")
    check(tc["unit"] == "ns" and tc["count"] > 0, "task-clock in ns")
    cyc, ins = event(doc, "cycles"), event(doc, "instructions")
    if HW_PMU:
        check(cyc["supported"] and cyc["count"] > 0, f"cycles counted with a PMU: {cyc}")
        check(ins["supported"] and ins["count"] > 0, f"instructions counted with a PMU: {ins}")
    else:
        check(cyc["supported"] is False and cyc["count"] is None, "cycles: null, not 0")
        check(ins["supported"] is False and ins["count"] is None, "instructions: null, not 0")
        check("no hardware PMU" in cyc["reason"], f"reason: {cyc['reason']}")
    fs = metric(doc, "faults/sec")
    check(fs and fs["value"] > 0 and fs["unit"] == "/sec", "built-in faults/sec")
    check(abs(fs["value"] - pf["count"] / (tc["count"] / 1e9)) / fs["value"] < 1e-9,
          "faults/sec = faults per second of task-clock, as perf's K/sec")
    # IPC, built in, is a row when cycles and instructions were both counted.
    ipc = metric(doc, "IPC")
    if HW_PMU:
        check(ipc and abs(ipc["value"] - ins["count"] / cyc["count"]) <= 1e-9 * ipc["value"],
              f"IPC = instructions / cycles: {ipc}, {ins['count']} / {cyc['count']}")
    else:
        check(ipc is None, "IPC is not a row when cycles and instructions were not counted")
    for key in ("host", "kernel", "cpu", "date", "hwprof_version"):
        check(doc["environment"].get(key), f"environment.{key}")


def user_metrics():
    """User metrics; undefined is null, never 0 or inf. Pinned to one CPU,
    the command never migrates, so fpm divides by zero."""
    p, doc = stat_json("--pin", "0", "-e", "page-faults,cpu-migrations,task-clock",
                       "-M", "fpm=page-faults / cpu-migrations",
                       "-M", "kfaults=page-faults / 1000",
                       "--", WORKLOAD, "pages", "1000")
    check(p.returncode == 0, p.stderr)
    if not check(doc, "a JSON document"):
        return
    k = metric(doc, "kfaults")
    check(k and abs(k["value"] - event(doc, "page-faults")["count"] / 1000) < 1e-9, "kfaults")
    migrations = event(doc, "cpu-migrations")["count"]
    check(migrations == 0, f"pinned: no migrations: {migrations}")
    fpm = metric(doc, "fpm")
    if migrations == 0:
        check(fpm["value"] is None and "division by zero" in fpm["reason"],
              f"undefined metric: {fpm}")
        check(metric(doc, "migrations/sec")["value"] == 0, "a rate of 0 is 0")
    else:
        check(fpm["value"] == event(doc, "page-faults")["count"] / migrations, f"fpm: {fpm}")


def csv_output():
    """CSV in perf's field order."""
    p, rows = stat_csv("-e", "page-faults,task-clock,cycles", "--", WORKLOAD, "pages", "2000")
    check(p.returncode == 0, p.stderr)
    ev = {r[2]: r for r in rows if len(r) > 2 and r[2]}
    check(all(len(r) == 7 for r in rows), f"7 fields a row: {rows}")
    check(2000 <= float(ev["page-faults"][0]) < 2300, f"page-faults {ev['page-faults']}")
    check(ev["task-clock"][1] == "msec", "task-clock in msec, as perf")
    check(float(ev["page-faults"][4]) == 100.0, "percent running")
    if HW_PMU:
        check(re.fullmatch(r"\d+", ev["cycles"][0]) and int(ev["cycles"][0]) > 0,
              f"cycles counted in the value field: {ev['cycles']}")
    else:
        check(ev["cycles"][0] == "<not supported>", f"not supported in the value field: {ev['cycles']}")
    # perf's metrics on their event's line: "K/sec" per task-clock second
    check(ev["page-faults"][6] in ("/sec", "K/sec", "M/sec") and float(ev["page-faults"][5]) > 0,
          f"page faults' rate: {ev['page-faults']}")
    check(ev["task-clock"][6] == "CPUs utilized", f"task-clock's metric: {ev['task-clock']}")
    check(len(rows) == 3, f"no line of its own for a metric perf prints by an event: {rows}")


def csv_separator_and_runs():
    """-x with another separator, -r adds the +- field."""
    p, rows = stat_csv("-r", "3", "-e", "page-faults", "--", WORKLOAD, "pages", "500", sep=";")
    check(p.returncode == 0, p.stderr)
    check(rows and len(rows[0]) == 8 and rows[0][3].endswith("%"), f"-r CSV: {rows}")


def repeated_runs():
    """Per-run values kept, statistics right."""
    p, doc = stat_json("-r", "5", "-e", "page-faults", "--", WORKLOAD, "pages", "3000")
    check(p.returncode == 0, p.stderr)
    if not check(doc, "a JSON document"):
        return
    pf = event(doc, "page-faults")
    vals = pf["values"]
    check(doc["runs"] == 5 and len(vals) == 5, f"5 runs: {vals}")
    mean = sum(vals) / 5
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / 4)
    check(abs(pf["mean"] - mean) < 1e-6 and abs(pf["stddev"] - sd) < 1e-6, "mean, stddev")
    check(pf["min"] == min(vals) and pf["max"] == max(vals), "min, max")
    check(pf["ci95"][0] <= mean <= pf["ci95"][1], "CI around the mean")
    check(all(3000 <= v < 3300 for v in vals), f"each run {vals}")


def text_output():
    """perf's layout, on stderr by default; the command's own output untouched."""
    p = hwprof("stat", "-r", "2", "-e", "page-faults,cycles", "--", "echo", "hello")
    check(p.returncode == 0 and p.stdout == "hello\nhello\n", f"stdout is the command's: {p.stdout!r}")
    check("Performance counter stats for 'echo hello' (2 runs):" in p.stderr, p.stderr)
    check(re.search(r"\n\s+[\d,]+\s+page-faults\s+\( \+-\s+[\d.]+% \)", p.stderr), p.stderr)
    if HW_PMU:
        check(re.search(r"\n\s+[\d,]+\s+cycles\s", p.stderr), f"cycles counted: {p.stderr}")
    else:
        check(re.search(r"<not supported>\s+cycles\s+# this machine has no hardware PMU", p.stderr),
              p.stderr)
    check("seconds time elapsed" in p.stderr, "elapsed time")


def exit_statuses():
    """The command's status passes through."""
    check(hwprof("stat", "-e", "cs", "--", WORKLOAD, "exit", "3").returncode == 3, "exit 3")
    check(hwprof("stat", "-e", "cs", "--", WORKLOAD, "kill", "9").returncode == 137, "SIGKILL: 137")
    check(hwprof("stat", "-e", "cs", "--", WORKLOAD, "kill", "15").returncode == 143, "SIGTERM: 143")
    p = hwprof("stat", "-e", "cs", "--", "no-such-command-xyz")
    check(p.returncode == 127 and "not found" in p.stderr, f"127: {p.stderr}")
    with tempfile.NamedTemporaryFile() as f:  # mode 0600: not executable
        p = hwprof("stat", "-e", "cs", "--", f.name)
        check(p.returncode == 126 and "not executable" in p.stderr, f"126: {p.stderr}")
    p = hwprof("stat", "-e", "cs", "--", "/")
    check(p.returncode == 126 and "directory" in p.stderr, f"126 for a directory: {p.stderr}")


def no_fd_leaks_into_the_command():
    """No fd of ours leaks into the command (O_CLOEXEC everywhere)."""
    p = hwprof("stat", "-e", "page-faults,cs,{cpu-migrations,task-clock}", "--", WORKLOAD, "fds")
    check(p.returncode == 0, f"the workload saw extra fds: {p.stderr}")
    # Repeated runs hold the software events open between the runs: not in
    # the command either.
    p = hwprof("stat", "-r", "2", "-e", "page-faults,cs,{cpu-migrations,task-clock}", "--", WORKLOAD, "fds")
    check(p.returncode == 0, f"-r 2: the workload saw extra fds: {p.stderr}")


def inheritance():
    """Children and threads are counted, and not with -i."""
    p, doc = stat_json("-e", "page-faults", "--", WORKLOAD, "threads", "4", "2000", "fork", "3", "2000")
    if check(doc, f"stat of threads and children: {p.stderr}"):
        n = event(doc, "page-faults")["count"]
        check(14000 <= n < 14000 + 1500, f"4 threads + 3 children x 2000 pages: {n}")
    p, doc = stat_json("-i", "-e", "page-faults", "--", WORKLOAD, "fork", "3", "2000")
    if check(doc, f"stat -i: {p.stderr}"):
        n = event(doc, "page-faults")["count"]
        check(n < 1000, f"-i: children not counted: {n}")


def orphans():
    """A command that exits before its children: the children still count.
    sh waits for them by the pipe they hold (cat ends when the last has
    exited), not by a sleep of 0.5 s that a loaded machine can outlast:
    an inherited count joins the parent's when its task exits, so a child
    still running when hwprof reads is not counted at all."""
    p, doc = stat_json("-e", "page-faults", "--", "sh", "-c",
                       f"{WORKLOAD} orphans 3 | cat; sleep 0.05")
    if check(doc, f"stat of orphans: {p.stderr}"):
        check(event(doc, "page-faults")["count"] >= 300, "orphans' pages counted")


def intervals():
    """Every interval, and the last partial one, add up to the total."""
    p = hwprof("stat", "-I", "100", "-x", ",", "-e", "page-faults", "--",
               WORKLOAD, "sleep", "0.25", "pages", "5000", "sleep", "0.15")
    check(p.returncode == 0, p.stderr)
    lines = [l.split(",") for l in p.stderr.splitlines() if l and not l.startswith("#")]
    ev_lines = [l for l in lines if l[3] == "page-faults"]
    # An interval in which the task never ran is <not counted>, as perf says.
    total = sum(float(l[1]) for l in ev_lines if l[1] != "<not counted>")
    check(len(ev_lines) >= 4, f"at least 4 intervals: {len(ev_lines)}")
    check(5000 <= total < 5400, f"intervals add up: {total}")
    times = [float(l[0]) for l in ev_lines]
    check(times == sorted(times), "time stamps grow")


def pin():
    """--pin runs the command on the CPUs asked."""
    p, doc = stat_json("--pin", "0", "-e", "cpu-migrations", "--", WORKLOAD, "spin", "0.2")
    check(p.returncode == 0, p.stderr)
    if check(doc, "a JSON document"):
        check(event(doc, "cpu-migrations")["count"] == 0, "pinned: no migrations")


def all_user():
    """--all-user: the kernel's page-fault handling is not counted... but
    faults are counted where they happen (user space), so they stay."""
    p, doc = stat_json("--all-user", "-e", "page-faults", "--", WORKLOAD, "pages", "1000")
    check(p.returncode == 0 and doc and event(doc, "page-faults")["count"] >= 1000, "--all-user")


def optional_libraries():
    """Each optional library is loaded when an event needs it, and only then:
    stat of generic events loads none (each one is start-up time on every
    run), a libpfm4 name loads libpfm4 and counts."""
    if WRAPPER:
        skip("the dynamic loader's log of a wrapped hwprof is the wrapper's")
    env = dict(os.environ, LD_DEBUG="files")
    loaded = re.compile(r"file=(\S+) \[\d+\];\s+dynamically loaded by")
    p = hwprof("stat", "--", "true", env=env)
    libs = loaded.findall(p.stderr)
    check(p.returncode == 0 and "page-faults" in p.stderr, f"stat -- true: {p.stderr[-2000:]}")
    check(libs == [], f"stat of generic events loads no library: {libs}")
    p = hwprof("stat", "-e", "perf::PERF_COUNT_SW_PAGE_FAULTS", "--", "true", env=env)
    libs = loaded.findall(p.stderr)
    check(p.returncode == 0 and any(l.startswith("libpfm") for l in libs),
          f"a libpfm4 name loads libpfm4: {libs}: {p.stderr[-2000:]}")
    check(re.search(r"\n\s+\d+\s+perf::PERF_COUNT_SW_PAGE_FAULTS", p.stderr),
          f"and is counted: {p.stderr[-2000:]}")


def no_libm_at_start():
    """hwprof and libhwprof need no libm to start (its mapping, relocation and
    constructors are ~9 page faults of a 'stat -- true'): the library loads it
    at the first statistic that needs one of its functions, as -r does."""
    if WRAPPER:
        skip("the dynamic loader's log of a wrapped hwprof is the wrapper's")
    env = dict(os.environ, LD_DEBUG="files")
    libm = re.compile(r"file=(libm\.so\S*) \[\d+\];\s+(needed|dynamically loaded) by (\S+)")
    p = hwprof("stat", "--", "true", env=env)
    check(p.returncode == 0 and "page-faults" in p.stderr, f"stat -- true: {p.stderr[-2000:]}")
    loads = libm.findall(p.stderr)
    ours = [l for l in loads if os.path.basename(l[2]).startswith(("hwprof", "libhwprof"))]
    check(ours == [], f"stat -- true: neither hwprof nor libhwprof needs libm: {ours}")
    if loads and not ours:
        skip(f"{loads[0][2]} needs libm (a sanitizer's runtime?): when -r loads it cannot show")
    p = hwprof("stat", "-r", "3", "-e", "page-faults", "--", "true", env=env)
    loads = libm.findall(p.stderr)
    check(p.returncode == 0 and re.search(r"page-faults\s.*\+- +\d", p.stderr),
          f"stat -r 3 prints a variation: {p.stderr[-2000:]}")
    check(len(loads) == 1 and loads[0][1] == "dynamically loaded",
          f"-r loads libm once, when a statistic needs it: {loads}")


def help_text():
    """Both ways print the same."""
    a, b = hwprof("stat", "--help"), hwprof("help", "stat")
    check(a.returncode == 0 and a.stdout == b.stdout and "usage: hwprof stat" in a.stdout, "help")


for fn in (json_output, user_metrics, csv_output, csv_separator_and_runs, repeated_runs,
           text_output, exit_statuses, no_fd_leaks_into_the_command, inheritance, orphans,
           intervals, pin, all_user, optional_libraries, no_libm_at_start, help_text):
    case(fn)
done()
