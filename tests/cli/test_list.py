#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof list: names, descriptions, whether each event opens here."""
import os
import re

from common import case, check, done, have_hw_pmu, hwprof


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


def help_text():
    a, b = hwprof("list", "--help"), hwprof("help", "list")
    check(a.stdout == b.stdout and "usage: hwprof list" in a.stdout, "help")


for fn in (listing, patterns, forced_pmu, help_text):
    case(fn)
done()
