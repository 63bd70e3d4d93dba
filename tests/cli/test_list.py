#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof list: names, descriptions, whether each event opens here."""
import os
import re
import shlex
import tempfile

from common import HWPROF_SH, case, check, done, have_hw_pmu, hwprof, in_namespace, skip


def listing():
    p = hwprof("list")
    check(p.returncode == 0, p.stderr)
    out = p.stdout
    check("Software events" in out and "Hardware events" in out, "sections")
    check(re.search(r"^  page-faults\s+yes\s+Page faults", out, re.M), "page-faults opens")
    check(re.search(r"^  task-clock\s+yes", out, re.M), "task-clock opens")
    if have_hw_pmu():
        check(re.search(r"^  cycles\s+yes", out, re.M), "cycles opens with a PMU")
    else:
        check(re.search(r"^  cycles\s+no: no hardware PMU", out, re.M), "cycles: no PMU")
    check(re.search(r"\d+ events, \d+ of them open on this machine now", out), "summary")
    check(re.search(r"^  LLC-load-misses\s", out, re.M), "cache events listed")
    check("alias: migrations" in out, "aliases shown")


def patterns():
    p = hwprof("list", "migr")
    check(p.returncode == 0 and "cpu-migrations" in p.stdout and "page-faults" not in p.stdout,
          "pattern filters")
    p = hwprof("list", "--names", "*faults")
    names = p.stdout.split()
    check("page-faults" in names and "major-faults" in names and "cycles" not in names, names)
    p = hwprof("list", "zzz-nothing-matches")
    check(p.returncode == 1 and "No event matches" in p.stdout, "no match: status 1")


def forced_pmu():
    env = dict(os.environ, LIBPFM_FORCE_PMU="icl")
    p = hwprof("list", "--no-probe", "INST_RETIRED", env=env)
    check("icl::INST_RETIRED" in p.stdout, f"forced PMU listed: {p.stdout[:300]}")


def with_tracefs():
    """tracefs mounted, as on most machines (in a namespace of our own): the
    tracepoints are listed, and one of them is opened to say whether they
    open, not each of them (the kernel takes ~25 ms to tear one down:
    a minute for 2,400 of them); ftrace's own events, whose rules differ,
    are each tried. The perf shim logs every open."""
    shim = os.environ.get("PERF_SHIM")
    if not shim:
        skip("$PERF_SHIM is not set (meson test sets it)")
    log = tempfile.NamedTemporaryFile(prefix="hwprof-opens.", delete=False).name
    try:
        p = in_namespace("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; "
                         f"LD_PRELOAD={shlex.quote(shim)} HWPROF_SHIM=log={shlex.quote(log)} "
                         f"exec {HWPROF_SH} list", timeout=120)
        with open(log) as f:
            opens = [line.split() for line in f]
    finally:
        os.unlink(log)
    check(p.returncode == 0, p.stderr)
    tracepoints = re.findall(r"^  (\w+:\w+)\s+(yes|no: .*?)\s{2,}Tracepoint", p.stdout, re.M)
    if not tracepoints:
        skip(f"no tracepoint is listed with tracefs mounted here: {p.stdout[-300:]}")
    ftrace = [name for name, _ in tracepoints if name.startswith("ftrace:")]
    others = {status for name, status in tracepoints if not name.startswith("ftrace:")}
    check(len(others) == 1, f"every tracepoint has the status of the one tried: {others}")
    # PERF_TYPE_TRACEPOINT; a refused open is tried again for user space alone
    tried = {o[1] for o in opens if o[0] == "2"}
    check(len(tried) == 1 + len(ftrace),
          f"{len(tried)} tracepoints opened to list {len(tracepoints)} ({len(ftrace)} of ftrace)")
    check(not re.search(r"^  ftrace:\w+\s+no: Unknown event", p.stdout, re.M),
          "events without an id (ftrace's) are not listed: perf_event_open cannot name them")


def help_text():
    a, b = hwprof("list", "--help"), hwprof("help", "list")
    check(a.stdout == b.stdout and "usage: hwprof list" in a.stdout, "help")


for fn in (listing, patterns, forced_pmu, with_tracefs, help_text):
    case(fn)
done()
