#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the committed inputs of the golden-output tests (test_golden.py)
into tests/golden/input/: two perf.data files made from fixed record lists,
the kernel symbols that name their samples, and two results of hwprof stat
-r 5 --json, two sweeps of two points (--sweep T=1,2) and two results of
stat --regions -r 5 --json written from fixed values. Nothing here depends on the machine:
the samples are in the kernel, named by the kallsyms file (report
--kallsyms), and in programs at paths that exist nowhere (their addresses
stay unnamed, which prints the same everywhere); the files name no host,
kernel release or build-id. Run it after changing it, and commit what it
wrote with the expected outputs it changes (make golden-update)."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from perfdata import PerfData  # noqa: E402

INPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "input")
KERNEL, MODULE = 0xffffffff81000000, 0xffffffffc0000000
APP, LIB = 0x400000, 0x7f0000000000
MS = 1000000    # a sample's period: 1 ms of cpu-clock

KSYMS = [(KERNEL, "T", "_text"), (KERNEL + 0x100, "T", "entry_SYSCALL_64"),
         (KERNEL + 0x400, "T", "do_syscall_64"), (KERNEL + 0x800, "T", "handle_mm_fault"),
         (KERNEL + 0xc00, "T", "clear_page_erms"), (KERNEL + 0x1000, "T", "copy_user_generic"),
         (KERNEL + 0x2000, "T", "_etext")]
MSYMS = [(MODULE, "t", "gold_xmit"), (MODULE + 0x200, "t", "gold_poll")]


def kallsyms(out):
    with open(os.path.join(out, "kallsyms"), "w") as f:
        for addr, kind, name in KSYMS:
            f.write(f"{addr:x} {kind} {name}\n")
        for addr, kind, name in MSYMS:
            f.write(f"{addr:x} {kind} {name}\t[gold_net]\n")


def k(name, off=0):
    return next(a for a, _, n in KSYMS + MSYMS if n == name) + off


# Where the samples land: (pid, ip, callers innermost first, in the kernel,
# period in ms) -> (samples in a.data, samples in b.data)
SYSCALL = [k("do_syscall_64", 0x2a), k("entry_SYSCALL_64", 0x40)]
FAULT = [k("handle_mm_fault", 0x58)] + SYSCALL
SAMPLES = [
    ((100, k("clear_page_erms", 0x10), FAULT, True, 1), (30, 12)),
    ((100, k("clear_page_erms", 0x24), FAULT, True, 1), (10, 8)),
    ((100, k("copy_user_generic", 0x8), SYSCALL, True, 1), (25, 25)),
    ((200, k("gold_xmit", 0x30), [k("gold_poll", 0x14)] + SYSCALL, True, 1), (10, 30)),
    ((200, k("gold_poll", 0x40), SYSCALL, True, 2), (4, 4)),
    ((100, APP + 0x1234, [APP + 0x1100, APP + 0x1010], False, 1), (15, 15)),
    ((100, APP + 0x1500, [APP + 0x1010], False, 1), (5, 3)),
    ((200, LIB + 0x2100, [LIB + 0x2000], False, 1), (5, 9)),
    ((201, LIB + 0x2100, [LIB + 0x2000], False, 1), (2, 2)),
]
COMMS = [(100, b"app"), (200, b"worker"), (201, b"worker")]


def perf_data(path, side):
    pd = PerfData(callchains=True)
    for pid, name in COMMS:
        pd.comm(pid, name)
    pd.kernel_mmap(KERNEL, 0x1000000, b"[kernel.kallsyms]_text")
    pd.kernel_mmap(MODULE, 0x1000, b"[gold_net]")
    pd.mmap(100, APP, 0x10000, 0, b"/golden/bin/app")
    pd.mmap(200, LIB, 0x10000, 0, b"/golden/lib/libgold.so")
    pd.mmap(201, LIB, 0x10000, 0, b"/golden/lib/libgold.so")
    # Interleaved, as a recording has them: one sample of each place in turn.
    left = [counts[side] for _, counts in SAMPLES]
    while any(left):
        for i, ((pid, ip, callers, kernel, period), _) in enumerate(SAMPLES):
            if left[i]:
                left[i] -= 1
                pd.sample(pid, ip, callers, period=period * MS, kernel=kernel)
    pd.write(path)


# hwprof stat -r 5 --json, by hand: each row's values a run; the summaries
# beside them are what hwprof writes (the reader takes the values).
RUNS = 5
EVENTS = {
    "a": {"page-faults": [1210, 1204, 1199, 1215, 1207],
          "context-switches": [40, 42, 39, 44, 41],
          "task-clock": [52.1e6, 51.7e6, 53.0e6, 52.4e6, 51.9e6]},
    "b": {"page-faults": [1350, 1362, 1341, 1355, 1349],
          "context-switches": [41, 40, 43, 42, 39],
          "task-clock": [58.3e6, 57.9e6, 59.1e6, 58.6e6, 58.2e6]},
}
SECONDS = {"a": [0.0612, 0.0608, 0.0621, 0.0615, 0.0610],
           "b": [0.0671, 0.0668, 0.0679, 0.0674, 0.0670]}
UNITS = {"page-faults": "", "context-switches": "", "task-clock": "ns"}
T4 = 2.7764451051977987     # Student's t, 97.5%, 4 degrees of freedom


def summary(values):
    mean = statistics.fmean(values)
    sd = statistics.stdev(values)
    half = T4 * sd / len(values) ** 0.5
    return {"mean": mean, "median": statistics.median(values), "stddev": sd,
            "cv": sd / mean, "min": min(values), "max": max(values),
            "ci95": [mean - half, mean + half], "values": values}


def event_row(name, values):
    return {"event": name, "canonical": name, "count": statistics.fmean(values),
            "unit": UNITS[name], "supported": True, "counted": True, "user_only": False,
            "percent_running": 100, "reason": None, **summary(values), "outliers": [],
            "percent_running_values": [100] * RUNS}


def unsupported_row(name):
    return {"event": name, "canonical": name, "count": None, "unit": "", "supported": False,
            "counted": False, "user_only": False, "percent_running": None,
            "reason": "this machine has no hardware PMU (a virtual machine without PMU passthrough?)",
            "mean": None, "median": None, "stddev": None, "cv": None, "min": None,
            "max": None, "ci95": [None, None], "values": [None] * RUNS, "outliers": [],
            "percent_running_values": [None] * RUNS}


def metric_row(name, expr, unit, values, builtin):
    return {"metric": name, "value": statistics.fmean(values), "unit": unit, "expr": expr,
            "builtin": builtin, "reason": None, **summary(values), "outliers": []}


def result(side):
    ev, secs = EVENTS[side], SECONDS[side]
    per_fault = [t / 1e3 / p for t, p in zip(ev["task-clock"], ev["page-faults"])]
    cpus = [t / (s * 1e9) for t, s in zip(ev["task-clock"], secs)]
    return {
        "schema": "hwprof-stat/1",
        "command": ["workload", "pages", "1000"],
        "target": None,
        "event_spec": "page-faults,context-switches,task-clock,cycles",
        "runs": RUNS,
        "exit_status": 0,
        "seconds": summary(secs),
        "events": [event_row(n, v) for n, v in ev.items()] + [unsupported_row("cycles")],
        "metrics": [metric_row("us/fault", "task-clock / 1000 / page-faults", "", per_fault,
                               False),
                    metric_row("CPUs-utilized", "task-clock / (seconds * 1e9)", "CPUs", cpus,
                               True)],
        "environment": {"host": "golden", "kernel": "6.1.0-golden", "cpu": "Golden CPU",
                        "nr_cpus": 4, "date": "2026-01-02T03:04:05Z",
                        "hwprof_version": "0.1.0"},
    }


def scaled(doc, by):
    """DOC's counts and times BY times larger, its per-fault and CPUs
    metrics as they were: a result of another thread count."""
    events = {e["event"]: [v * by for v in e["values"]] for e in doc["events"] if e["counted"]}
    out = json.loads(json.dumps(doc))
    for i, e in enumerate(out["events"]):
        if e["counted"]:
            out["events"][i] = event_row(e["event"], events[e["event"]])
    out["command"] = ["workload", "pages", str(1000 * by)]
    return out


def sweep(side):
    """hwprof stat -r 5 --sweep T=1,2 --json -- workload pages {T}000."""
    return {"schema": "hwprof-sweep/1", "parameter": "T",
            "command": ["workload", "pages", "{T}000"],
            "points": [{"value": str(t), "result": scaled(result(side), t)} for t in (1, 2)]}


# stat --regions -r 5: the regions of each run, (calls, ops, seconds,
# task-clock ms, page-faults) by region, side and run; None: not entered.
REGIONS = {
    "parse": {"a": [(1000, 5000, 0.0210, 20.8, 300), (1000, 5000, 0.0214, 21.1, 305),
                    (1000, 5000, 0.0208, 20.5, 298), (1000, 5000, 0.0212, 21.0, 301),
                    (1000, 5000, 0.0211, 20.9, 302)],
              "b": [(1000, 5000, 0.0240, 23.7, 340), (1000, 5000, 0.0243, 24.0, 346),
                    (1000, 5000, 0.0238, 23.5, 338), (1000, 5000, 0.0241, 23.8, 342),
                    (1000, 5000, 0.0242, 23.9, 343)]},
    "emit": {"a": [(40, 0, 0.0051, 5.0, 12), (41, 0, 0.0052, 5.1, 12), None,
                   (40, 0, 0.0050, 4.9, 11), (42, 0, 0.0053, 5.2, 13)],
             "b": [(40, 0, 0.0050, 4.9, 12), (40, 0, 0.0051, 5.0, 12),
                   (41, 0, 0.0052, 5.1, 13), (40, 0, 0.0050, 4.9, 12),
                   (40, 0, 0.0051, 5.0, 12)]},
}


def region(name, calls, ops, secs, ms, faults):
    counts = {"task-clock": ms * 1e6, "page-faults": faults}
    # null where the region declared no ops, as hwprof writes it
    per = {key: {n: v / d if d else None for n, v in counts.items()}
           for key, d in (("per_call", calls), ("per_op", ops))}
    # two threads, the second with a quarter of the calls and counts
    threads = [{"tid": 1000 + i, "calls": calls * w // 4, "measured_calls": calls * w // 4,
                "seconds": secs * w / 4, "ops": ops * w // 4, "too_short": False,
                "exceeds_time": False, "counts": {n: v * w / 4 for n, v in counts.items()}}
               for i, w in enumerate((3, 1))]
    return {"region": name, "threads": 2, "calls": calls, "measured_calls": calls,
            "seconds": secs, "ops": ops, "too_short": False, "exceeds_time": False,
            "events": [{"event": n, "canonical": n, "count": c, "unit": UNITS[n],
                        "supported": True, "counted": True, "user_only": False,
                        "percent_running": 100, "reason": None} for n, c in counts.items()],
            "metrics": [{"metric": "CPUs-utilized", "value": ms / 1e3 / secs, "unit": "CPUs",
                         "expr": "task-clock / (seconds * 1e9)", "builtin": True,
                         "reason": None}],
            **per, "per_thread": threads}


def regions(side):
    """hwprof stat --regions -r 5 --json -- workload pages 1000."""
    doc = result(side)
    doc["regions"] = [{"schema": "hwprof-regions/1", "event_spec": "task-clock,page-faults",
                       "sample_every": 1, "read_cost_ns": 48.5,
                       "regions": [region(name, *runs[side][k])
                                   for name, runs in REGIONS.items() if runs[side][k]],
                       "environment": doc["environment"]} for k in range(RUNS)]
    return doc


def main():
    """Into tests/golden/input/, or the directory named."""
    out = sys.argv[1] if len(sys.argv) > 1 else INPUT
    os.makedirs(out, exist_ok=True)
    kallsyms(out)
    for side in ("a", "b"):
        perf_data(os.path.join(out, f"{side}.data"), "ab".index(side))
        for name, doc in ((f"{side}.json", result(side)), (f"sweep-{side}.json", sweep(side)),
                          (f"regions-{side}.json", regions(side))):
            with open(os.path.join(out, name), "w") as f:
                json.dump(doc, f, indent=2)
                f.write("\n")


if __name__ == "__main__":
    main()
