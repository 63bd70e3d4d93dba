#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof doctor: the machine's sources of noise, checked against the files
they come from."""
import json
import os
import tempfile

from common import (SETPRIV, case, check, done, hwprof, run_as_nobody, skip, stage_for_nobody,
                    stat_json)

NAMES = ["cpufreq-governor", "turbo-boost", "smt", "c-states", "nmi-watchdog",
         "perf_event_paranoid", "kptr_restrict", "transparent-hugepages", "aslr",
         "irqbalance", "hardware-pmu", "load"]


def read(path):
    try:
        with open(path) as f:
            return f.readline().strip()
    except OSError:
        return None


def json_items():
    """--json: every item named, with the values of the files they read."""
    p = hwprof("doctor", "--json")
    check(p.returncode == 0, p.stderr)
    doc = json.loads(p.stdout)
    check(doc["schema"] == "hwprof-doctor/1", doc["schema"])
    items = {i["name"]: i for i in doc["items"]}
    check(list(items) == NAMES, list(items))
    for name, path in (("nmi-watchdog", "/proc/sys/kernel/nmi_watchdog"),
                       ("perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid"),
                       ("kptr_restrict", "/proc/sys/kernel/kptr_restrict"),
                       ("aslr", "/proc/sys/kernel/randomize_va_space"),
                       ("transparent-hugepages",
                        "/sys/kernel/mm/transparent_hugepage/enabled")):
        v = read(path)
        if v is not None:
            check(items[name]["value"] == v, f"{name}: {items[name]['value']} vs {v}")
    aslr = read("/proc/sys/kernel/randomize_va_space")
    if aslr is not None:
        check(items["aslr"]["noisy"] == (int(aslr) > 0) and
              (items["aslr"]["fix"] is not None) == (int(aslr) > 0), items["aslr"])
    thp = read("/sys/kernel/mm/transparent_hugepage/enabled") or ""
    check(items["transparent-hugepages"]["noisy"] == ("[always]" in thp), thp)
    for i in doc["items"]:
        check(i["why"] and (not i["noisy"] or i["fix"] is not None or
                            i["name"] in ("hardware-pmu", "turbo-boost")), i)


def text_report():
    """The text: a line an item, the fix under each noisy one, a count."""
    p = hwprof("doctor")
    check(p.returncode == 0, p.stderr)
    lines = [ln for ln in p.stdout.splitlines() if ln[:5] in ("ok   ", "noisy")]
    check([ln.split()[1] for ln in lines] == NAMES, lines)
    noisy = sum(ln.startswith("noisy") for ln in lines)
    check(f"{noisy} of {len(NAMES)} items add noise here" in p.stdout, p.stdout)
    p = hwprof("doctor", "extra")
    check(p.returncode == 2 and "takes no arguments" in p.stderr, p.stderr)


def stat_environment():
    """stat --json keeps the doctor's facts under environment.doctor, the
    same items with the same values (the load aside, which moves); the
    text report does not pay for them. compare warns when A's and B's
    differ."""
    p = hwprof("doctor", "--json")
    items = {i["name"]: i for i in json.loads(p.stdout)["items"]}
    p, doc = stat_json("-e", "page-faults", "--", "true")
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    facts = doc["environment"].get("doctor")
    if not check(facts, doc["environment"]):
        return
    check([f["name"] for f in facts] == NAMES, facts)
    for f in facts:
        if f["name"] != "load":
            check(f["value"] == items[f["name"]]["value"] and
                  f["noisy"] == items[f["name"]]["noisy"], f"{f} vs {items[f['name']]}")
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
        for path in (a, b):
            p = hwprof("stat", "-r", "3", "--json", "-o", path, "-e", "page-faults", "--",
                       "true")
            check(p.returncode == 0, p.stderr)
        with open(b) as f:
            doc = json.load(f)
        aslr = next(f for f in doc["environment"]["doctor"] if f["name"] == "aslr")
        aslr["value"] = "changed"
        with open(b, "w") as f:
            json.dump(doc, f)
        p = hwprof("compare", a, b)
        check(p.returncode == 0 and
              "warning: measured in different conditions (hwprof doctor): aslr '" in p.stdout
              and "'changed' in " in p.stdout, p.stdout + p.stderr)
        p = hwprof("compare", a, a)
        check(p.returncode == 0 and "hwprof doctor" not in p.stdout, p.stdout)


def paranoid_privileged():
    """perf_event_paranoid limits users, not root nor CAP_PERFMON: above 1
    it is noisy for a user and says nothing for root."""
    v = read("/proc/sys/kernel/perf_event_paranoid")
    if v is None or os.geteuid() != 0:
        return skip("needs root and /proc/sys/kernel/perf_event_paranoid")
    p = hwprof("doctor", "--json")
    item = {i["name"]: i for i in json.loads(p.stdout)["items"]}["perf_event_paranoid"]
    check(not item["noisy"] and item["fix"] is None and item["value"] == v, item)
    if not SETPRIV:
        return skip("becoming nobody needs setpriv(1)")
    as_nobody, _ = stage_for_nobody()
    p = run_as_nobody(as_nobody, "doctor", "--json")
    if not check(p.returncode == 0, p.stderr):
        return
    item = {i["name"]: i for i in json.loads(p.stdout)["items"]}["perf_event_paranoid"]
    check(item["noisy"] == (int(v) > 1) and item["value"] == v, item)


case(json_items)
case(paranoid_privileged, name="perf_event_paranoid: root is not limited by it")
case(text_report)
case(stat_environment)
done()
