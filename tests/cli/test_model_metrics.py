#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The named metrics of the CPU models (issue 30): -M TopdownL1 expands the
group of the model libpfm4 detects (LIBPFM_FORCE_PMU chooses one), --topdown
is its shorthand, the events of one -M go in one group, and list --metrics
shows each model's metrics with unit, formula and source. Without a PMU the
events are <not supported> with the reason and the metrics say which event
is missing; the exit status is the command's."""
import os
import re
import tempfile

from common import (case, check, done, event, hwprof, metric, skip, stat_csv, stat_json,
                    traced, under_valgrind)

TOPDOWN = ["Frontend_Bound", "Backend_Bound", "Retiring", "Bad_Speculation"]
TMA_L2 = ["Fetch_Latency", "Fetch_Bandwidth", "Branch_Mispredicts", "Machine_Clears",
          "Memory_Bound", "Core_Bound", "Heavy_Operations", "Light_Operations"]
ZEN4_L2 = ["Frontend_Bound_Latency", "Frontend_Bound_Bandwidth",
           "Bad_Speculation_Mispredicts", "Bad_Speculation_Pipeline_Restarts",
           "Backend_Bound_Memory", "Backend_Bound_CPU", "Retiring_Fastpath",
           "Retiring_Microcode"]
# each model's groups, and their members in order
GROUPS = {"icl": {"TopdownL1": TOPDOWN, "TopdownL2": TMA_L2},
          "icx": {"TopdownL1": TOPDOWN, "TopdownL2": TMA_L2},
          "spr": {"TopdownL1": TOPDOWN, "TopdownL2": TMA_L2},
          "amd64_fam19h_zen4": {"TopdownL1": TOPDOWN + ["SMT_Contention"],
                                "TopdownL2": ZEN4_L2},
          "amd64_fam19h_zen3": {},
          "arm_n1": {"Cycle_Accounting": ["Frontend_Stalled_Cycles",
                                          "Backend_Stalled_Cycles"]},
          "arm_v1": {"TopdownL1": TOPDOWN}}
ICL_TOPDOWN_EVENTS = ["TOPDOWN:SLOTS_P", "IDQ_UOPS_NOT_DELIVERED:CORE",
                      "INT_MISC:UOP_DROPPING", "r02a4",
                      "INT_MISC:CLEARS_COUNT", "UOPS_RETIRED:SLOTS"]
ICL_L2_EVENTS = ICL_TOPDOWN_EVENTS + [
    "IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE", "BR_MISP_RETIRED:ALL_BRANCHES",
    "MACHINE_CLEARS:COUNT", "CYCLE_ACTIVITY:STALLS_MEM_ANY", "EXE_ACTIVITY:BOUND_ON_STORES",
    "CYCLE_ACTIVITY:STALLS_TOTAL", "EXE_ACTIVITY:1_PORTS_UTIL", "EXE_ACTIVITY:2_PORTS_UTIL",
    "UOPS_ISSUED:ANY", "IDQ:MS_UOPS", "UOPS_DECODED:DEC0", "r1000156", "IDQ:MITE_UOPS"]


def forced(model):
    return dict(os.environ, LIBPFM_FORCE_PMU=model)


def have_model(model):
    """Whether this libpfm4 has MODEL's tables (they are per architecture)."""
    p = hwprof("list", "--metrics", env=forced(model))
    return p.returncode == 0 and f"'{model}'" in p.stdout


def topdown_json(model, *args):
    p, doc = stat_json(*args, "--", "true", env=forced(model))
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    names = [m["metric"] for m in doc["metrics"]]
    check(names == TOPDOWN, f"TopdownL1 expands to Intel's four level-1 nodes: {names}")
    for name in ICL_TOPDOWN_EVENTS:
        e = event(doc, name)
        check(e is not None, f"{name} counted for TopdownL1: {doc['event_spec']}")
        if e and not e["supported"]:
            check(e["reason"], f"{name} not supported, with the reason")
    spec = doc["event_spec"]
    check(spec[0] == "{" and spec[-1] == "}" and
          sorted(spec[1:-1].split(",")) == sorted(ICL_TOPDOWN_EVENTS),
          f"one group, each event once: {spec}")
    for name in TOPDOWN:
        m = metric(doc, name)
        check(m["unit"] == "%" and "TOPDOWN:SLOTS_P" in m["expr"], f"{m}")
        if not doc["events"][0]["supported"]:
            check(m["value"] is None and m["supported"] is False and
                  "is not supported here" in m["reason"] and
                  any(f"'{ev}'" in m["reason"] for ev in ICL_TOPDOWN_EVENTS),
                  f"not supported, naming the missing event: {m}")
        else:
            check(m["supported"] is True, f"{m}")


def icx_model_and_source():
    """Ice Lake server reads Ice Lake client's formulas (the same in Intel's
    TMA), listed as icx's, citing the ICX column; its Memory_BW too."""
    p, doc = stat_json("-M", "CPI", "--", "true", env=forced("icx"))
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    check(metric(doc, "CPI")["expr"] == "CPU_CLK_UNHALTED:THREAD_P / INST_RETIRED:ANY_P",
          f"{doc['metrics']}")
    p = hwprof("list", "--metrics", env=forced("icx"))
    check(p.returncode == 0 and "'icx'" in p.stdout and "'icl'" not in p.stdout,
          f"the model is icx: {p.stdout}")
    check("ICX column" in p.stdout and "Memory_BW_Read" in p.stdout, p.stdout)


def topdown_csv():
    p, rows = stat_csv("-M", "TopdownL1", "--", "true", env=forced("icl"))
    check(p.returncode == 0, p.stderr)
    names = [r[6] for r in rows if len(r) > 6 and r[6]]
    check(names == TOPDOWN, f"the metrics' rows in CSV: {rows}")
    unsupported = [r[2] for r in rows if r and r[0] == "<not supported>"]
    if unsupported:
        check(sorted(unsupported) == sorted(ICL_TOPDOWN_EVENTS), f"{rows}")


def topdown_text():
    p = hwprof("stat", "--topdown", "--", "true", env=forced("icl"))
    check(p.returncode == 0, p.stderr)
    for name in TOPDOWN:
        check(f" {name} " in p.stderr, f"{name} in the text: {p.stderr}")
    if "<not supported>" in p.stderr:
        check("TOPDOWN:SLOTS_P" in p.stderr and "# this machine has no hardware PMU"
              in p.stderr, p.stderr)
        # The metrics too, as the issue asks: not <undefined>.
        for name in TOPDOWN:
            check(re.search(rf"<not supported>\s+{name}\s+# metric '{name}': '[^']+' is "
                            "not supported here", p.stderr), f"{name}: {p.stderr}")


def status_passes_through():
    p = hwprof("stat", "-M", "TopdownL1", "--", "sh", "-c", "exit 3", env=forced("icl"))
    check(p.returncode == 3, f"the command's status, as for any event: {p.returncode}")


def names_and_builtins():
    p, doc = stat_json("-M", "IPC,LLC_MPKI", "--", "true", env=forced("icl"))
    if not check(p.returncode == 0 and doc, p.stderr):
        return
    check([m["metric"] for m in doc["metrics"]] == ["IPC", "LLC_MPKI"], f"{doc['metrics']}")
    check(metric(doc, "IPC")["expr"] == "instructions / cycles", "IPC is the built-in")
    check(metric(doc, "LLC_MPKI")["expr"] ==
          "1000 * MEM_LOAD_RETIRED:L3_MISS / INST_RETIRED:ANY_P", "LLC_MPKI is Ice Lake's")
    check("{MEM_LOAD_RETIRED:L3_MISS,INST_RETIRED:ANY_P}" in doc["event_spec"],
          f"a model metric's events in one group: {doc['event_spec']}")


def no_such_group_here():
    p = hwprof("stat", "-M", "TopdownL1", "--", "true",
               env=forced("amd64_fam19h_zen3"))
    check(p.returncode == 2 and "-M TopdownL1:" in p.stderr and
          "amd64_fam19h_zen3" in p.stderr and "CPI" in p.stderr,
          f"a group the model lacks says so, and what it has: {p.returncode} {p.stderr}")


def list_metrics(model):
    if not have_model(model):
        check(model.startswith("arm_"), f"x86 libpfm4 lacks {model}")
        return
    p = hwprof("list", "--metrics", env=forced(model))
    check(p.returncode == 0, p.stderr)
    members = [n for names in GROUPS[model].values() for n in names]
    for name in members + ["CPI", "Branch_Miss_Rate", "L1_MPKI", "L2_MPKI", "IPC"]:
        check(f"  {name} " in p.stdout, f"{model}: {name} listed:\n{p.stdout}")
    check("formula:" in p.stdout and "source:" in p.stdout and "unit:" in p.stdout,
          p.stdout)
    for group in GROUPS[model]:
        check(f"\n{group}:\n" in p.stdout, f"{model}: {group} heads its members")
    names = hwprof("list", "--metrics", "--names", env=forced(model)).stdout.split()
    # each group, then its members, in order
    for group, want in GROUPS[model].items():
        at = names.index(group) if group in names else -1
        check(at >= 0 and names[at + 1:at + 1 + len(want)] == want,
              f"{model}: {group} and its members: {names}")
    if not GROUPS[model]:
        check("Retiring" not in names, f"{model}: {names}")


def every_metric(model):
    """Every metric of MODEL counts through stat: its events parse, the
    metrics are rows, and each group's events form one group."""
    if not have_model(model):
        check(model.startswith("arm_"), f"x86 libpfm4 lacks {model}")
        return
    names = hwprof("list", "--metrics", "--names", env=forced(model)).stdout.split()
    mine = names[:names.index("LLC-misses/migration")]
    if not os.path.exists("/sys/bus/event_source/devices/uncore_imc_0"):
        mine = [n for n in mine if not n.startswith("Memory_BW")]  # memory_bw_here()
    check(len(mine) >= 4, f"{model}: {names}")
    members = [n for n in mine if n not in GROUPS[model]]
    p, doc = stat_json("-M", ",".join(mine), "--", "true", env=forced(model))
    if not check(p.returncode == 0 and doc, f"{model}: {p.returncode} {p.stderr}"):
        return
    got = [m["metric"] for m in doc["metrics"]]
    # TopdownL1 and its members: each metric once, as perf takes them
    check(sorted(got) == sorted(members), f"{model}: the metrics {got}, of {mine}")
    check(all(e["supported"] or e["reason"] for e in doc["events"]),
          f"{model}: each event counted or says why")
    if "TopdownL1" in GROUPS[model]:
        check(doc["event_spec"].startswith("{"), f"{model}: {doc['event_spec']}")


def topdown_l2(model, events):
    """-M TopdownL2: the level-2 nodes in the document's order, each event
    of their formulas counted once; more events than a core counts at once
    (Ice Lake reads 19), so not one group: they multiplex."""
    p, doc = stat_json("-M", "TopdownL2", "--", "true", env=forced(model))
    if not check(p.returncode == 0 and doc, f"{model}: {p.returncode} {p.stderr}"):
        return
    names = [m["metric"] for m in doc["metrics"]]
    check(names == GROUPS[model]["TopdownL2"], f"{model}: TopdownL2 expands to {names}")
    spec = doc["event_spec"].split(",")
    check(len(spec) == len(set(spec)) and "{" not in doc["event_spec"],
          f"{model}: each event once, ungrouped: {doc['event_spec']}")
    if events:
        check(sorted(spec) == sorted(events), f"{model}: {sorted(spec)}")
    for m in doc["metrics"]:
        check(m["unit"] == "%", f"{m}")
        if not doc["events"][0]["supported"]:
            check(m["value"] is None and m["supported"] is False and
                  "is not supported here" in m["reason"], f"{m}")


def td_level():
    """--td-level N, as perf's: the topdown levels up to N (0: all the
    model has), with or without --topdown; above the model's, an error."""
    want = {("icl", "1"): TOPDOWN, ("icl", "2"): TOPDOWN + TMA_L2,
            ("icl", "0"): TOPDOWN + TMA_L2,
            ("amd64_fam19h_zen4", "0"): GROUPS["amd64_fam19h_zen4"]["TopdownL1"] + ZEN4_L2}
    for (model, level), names in want.items():
        for extra in ([], ["--topdown"]):
            p, doc = stat_json(*extra, "--td-level", level, "--", "true", env=forced(model))
            got = doc and [m["metric"] for m in doc["metrics"]]
            check(p.returncode == 0 and got == names,
                  f"{model} {extra} --td-level {level}: {p.returncode} {got} {p.stderr}")
    for model, level, says in (("icl", "3", "level 2"), ("amd64_fam19h_zen3", "1", "none"),
                               ("icl", "x", "not a level"), ("icl", "-1", "not a level")):
        p = hwprof("stat", "--td-level", level, "--", "true", env=forced(model))
        check(p.returncode == 2 and f"--td-level {level}" in p.stderr and says in p.stderr,
              f"{model} --td-level {level}: {p.returncode} {p.stderr}")


def builtins_without_libpfm():
    """-M IPC loads no libpfm4 (~41,000 relocations a start): the model's
    names are looked up after the built-ins; -M TopdownL1 loads it."""
    under_valgrind("glibc's LD_DEBUG reports the loader under valgrind's")
    env = dict(forced("icl"), LD_DEBUG="files")
    p = hwprof("stat", "-M", "IPC,ipc", "--", "true", env=env)
    check(p.returncode == 0 and "libpfm.so" not in p.stderr,
          f"-M IPC: {p.returncode} {[ln for ln in p.stderr.splitlines() if 'pfm' in ln]}")
    p = hwprof("stat", "-M", "TopdownL1", "--", "true", env=env)
    check(p.returncode == 0 and "libpfm.so" in p.stderr, "-M TopdownL1 loads libpfm4")


def fabricated_imc(root, n):
    """N memory controllers, as the kernel's uncore_imc_N of Ice Lake-X."""
    for i in range(n):
        d = f"{root}/bus/event_source/devices/uncore_imc_{i}"
        for rel, text in [("type", f"{30 + i}"), ("cpumask", "0"),
                          ("format/event", "config:0-7"), ("format/umask", "config:8-15"),
                          ("events/cas_count_read", "event=0x04,umask=0x0f"),
                          ("events/cas_count_read.scale", "6.103515625e-5"),
                          ("events/cas_count_write", "event=0x04,umask=0x30"),
                          ("events/cas_count_write.scale", "6.103515625e-5")]:
            os.makedirs(os.path.dirname(f"{d}/{rel}"), exist_ok=True)
            with open(f"{d}/{rel}", "w") as f:
                f.write(text + "\n")


def memory_bw_fabricated():
    """Memory_BW_* sum every uncore_imc_N, each times its scale, and say
    that they count system-wide only."""
    with tempfile.TemporaryDirectory() as root:
        fabricated_imc(root, 3)
        env = dict(forced("icx"), HWPROF_SYSFS_ROOT=root)
        p = hwprof("list", "--metrics", env=env)
        inst = " + ".join(f"uncore_imc_{i}@cas_count_write@ * 6.103515625e-5"
                          for i in range(3))
        check(p.returncode == 0 and "  Memory_BW_Read " in p.stdout and
              f"formula: ({inst}) * 1.048576 / seconds" in p.stdout and
              "unit: MB/s" in p.stdout, f"{p.returncode}\n{p.stdout}")
        p, doc = stat_json("-M", "Memory_BW_Write", "--", "true", env=env)
        if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
            return
        check(doc["event_spec"] == ",".join(f"uncore_imc_{i}/cas_count_write/"
                                            for i in range(3)),
              f"one event an instance, not grouped: {doc['event_spec']}")
        for e in doc["events"]:
            check(not e["supported"] and "system-wide, with -a" in e["reason"], f"{e}")
        m = metric(doc, "Memory_BW_Write")
        check(m["value"] is None and m["supported"] is False and
              "is not supported here" in m["reason"], f"{m}")


def memory_bw_bad_scale():
    """A broken .scale file: the metrics are still listed, with a warning
    that names the file, and the formula as written."""
    with tempfile.TemporaryDirectory() as root:
        fabricated_imc(root, 2)
        with open(f"{root}/bus/event_source/devices/uncore_imc_1/events/"
                  "cas_count_read.scale", "w") as f:
            f.write("-1\n")
        p = hwprof("list", "--metrics", env=dict(forced("icx"), HWPROF_SYSFS_ROOT=root))
    check(p.returncode == 0 and "  Memory_BW_Read " in p.stdout and
          "formula: uncore_imc@cas_count_read@ * 1.048576 / seconds" in p.stdout and
          "  Memory_BW_Write " in p.stdout and "  IPC " in p.stdout,
          f"{p.returncode}\n{p.stdout}")
    check("uncore_imc_1" in p.stderr and "cas_count_read.scale is '-1'" in p.stderr,
          p.stderr)


def memory_bw_here():
    """This VM has no memory controller PMU: -M Memory_BW_Read says so."""
    if os.path.exists("/sys/bus/event_source/devices/uncore_imc_0"):
        check(True, "this machine has uncore_imc_0")
        return
    p = hwprof("stat", "-a", "-M", "Memory_BW_Read", "--", "true", env=forced("spr"))
    check(p.returncode == 2 and "no PMU 'uncore_imc'" in p.stderr and
          "nor any instance of it (uncore_imc_0, uncore_imc_1...)" in p.stderr,
          f"{p.returncode} {p.stderr}")


# The DF events each AMD model's Memory_BW metrics read, perf's names
ZEN3_DF = [f"dram_channel_data_controller_{n}" for n in range(8)]
ZEN4_DF = {rw: [f"{who}_processor_{rw}_data_beats_cs{n}" for who in ("local", "remote")
                for n in range(12)] for rw in ("read", "write")}
# the kernel's amd_df formats before PerfMonV2 (Zen 3) and with it (Zen 4)
DF_FORMATS = {"amd64_fam19h_zen3": ("config:0-7,32-35,59-60", "config:8-15"),
              "amd64_fam19h_zen4": ("config:0-7,32-37", "config:8-15,24-27")}


def fabricated_df(root, model):
    """The kernel's amd_df of MODEL: a type, a cpumask and formats, no events."""
    d = f"{root}/bus/event_source/devices/amd_df"
    event, umask = DF_FORMATS[model]
    for rel, text in [("type", "40"), ("cpumask", "0"), ("format/event", event),
                      ("format/umask", umask)]:
        os.makedirs(os.path.dirname(f"{d}/{rel}"), exist_ok=True)
        with open(f"{d}/{rel}", "w") as f:
            f.write(text + "\n")


def amd_df_fabricated(model, names):
    """Memory_BW on AMD's data fabric: listed with its formula, each DF
    event spelled as perf names it, counted ungrouped (more than the DF's
    counters), system-wide only."""
    if not have_model(model):
        skip(f"this libpfm4 has no {model} (its tables are per architecture)")
    with tempfile.TemporaryDirectory() as root:
        fabricated_df(root, model)
        env = dict(forced(model), HWPROF_SYSFS_ROOT=root)
        p = hwprof("list", "--metrics", env=env)
        for name, events in names.items():
            terms = " + ".join(f"amd_df@{e}@" for e in events)
            check(p.returncode == 0 and f"  {name} " in p.stdout and
                  f"formula: ({terms}) * 64 / 1e6 / seconds" in p.stdout,
                  f"{model} {name}: {p.returncode}\n{p.stdout}")
        p, doc = stat_json("-M", "Memory_BW", "--", "true", env=env)
        if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
            return
        check([m["metric"] for m in doc["metrics"]] == list(names), f"{doc['metrics']}")
        want = [f"amd_df/{e}/" for events in names.values() for e in events]
        check(doc["event_spec"] == ",".join(want), f"ungrouped: {doc['event_spec']}")
        for e in doc["events"]:
            check(not e["supported"] and "system-wide, with -a" in e["reason"], f"{e}")
        for m in doc["metrics"]:
            check(m["unit"] == "MB/s" and m["value"] is None and m["supported"] is False,
                  f"{m}")


def amd_df_inputs_parsed_once():
    """Each input of -M Memory_BW (Zen 4: 48 data-fabric events) is parsed
    a bounded number of times, not once for each input added after it: a
    parse reads the PMU's format files, so the amd_df/format/event opens
    count the parses (strace, exact at any load). Before, the growing list
    was parsed again for each input: 1,224 opens for the 48 events."""
    model = "amd64_fam19h_zen4"
    if not have_model(model):
        skip(f"this libpfm4 has no {model} (its tables are per architecture)")
    with tempfile.TemporaryDirectory() as root:
        fabricated_df(root, model)
        lines, p = traced("stat", "-M", "Memory_BW", "--", "true", calls="openat",
                          env=dict(forced(model), HWPROF_SYSFS_ROOT=root))
    opens = sum("/amd_df/format/event" in line for line in lines)
    events = sum(len(v) for v in ZEN4_DF.values())
    check(events <= opens <= 4 * events,
          f"{opens} opens of amd_df/format/event for {events} events")


def amd_df_here():
    """This VM has no amd_df: Zen 4's -M Memory_BW_Read says so."""
    if os.path.exists("/sys/bus/event_source/devices/amd_df"):
        check(True, "this machine has amd_df")
        return
    p = hwprof("stat", "-a", "-M", "Memory_BW_Read", "--", "true",
               env=forced("amd64_fam19h_zen4"))
    check(p.returncode == 2 and "no PMU 'amd_df'" in p.stderr, f"{p.returncode} {p.stderr}")


KERNEL_TOPDOWN = ["slots", "topdown-retiring", "topdown-bad-spec", "topdown-fe-bound",
                  "topdown-be-bound"]


KERNEL_TOPDOWN_L2 = ["topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat",
                     "topdown-mem-bound"]


def kernel_cpu_pmu(root, events):
    """A core PMU "cpu" with the kernel's slots and EVENTS (topdown-*)."""
    d = f"{root}/bus/event_source/devices/cpu"
    files = {"type": "4", "format/event": "config:0-7", "format/umask": "config:8-15",
             "events/slots": "event=0x00,umask=0x4"}
    for i, name in enumerate(events):
        files[f"events/{name}"] = f"event=0x00,umask={0x80 + i:#x}"
    for rel, text in files.items():
        os.makedirs(os.path.dirname(f"{d}/{rel}"), exist_ok=True)
        with open(f"{d}/{rel}", "w") as f:
            f.write(text + "\n")


def kernel_topdown_l2():
    """Sapphire Rapids' level 2 from the kernel's four more: perf's group of
    nine, led by slots."""
    with tempfile.TemporaryDirectory() as root:
        kernel_cpu_pmu(root, KERNEL_TOPDOWN[1:] + KERNEL_TOPDOWN_L2)
        p, doc = stat_json("-M", "TopdownL2", "--", "true",
                           env=dict(forced("spr"), HWPROF_SYSFS_ROOT=root))
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    want = "{" + ",".join(f"cpu/{e}/" for e in KERNEL_TOPDOWN + KERNEL_TOPDOWN_L2) + "}"
    check(doc["event_spec"] == want, f"perf's level-2 group: {doc['event_spec']}")
    check([m["metric"] for m in doc["metrics"]] == TMA_L2, f"{doc['metrics']}")
    check("cpu@topdown-heavy-ops@" in metric(doc, "Heavy_Operations")["expr"], f"{doc}")
    # Both levels (--td-level 2, or -M of each): one group still, led by
    # slots; a second group of the four level-2 events alone, which an
    # earlier one left without slots, the kernel would refuse.
    for args in (["--td-level", "2"], ["-M", "TopdownL1", "-M", "TopdownL2"]):
        with tempfile.TemporaryDirectory() as root:
            kernel_cpu_pmu(root, KERNEL_TOPDOWN[1:] + KERNEL_TOPDOWN_L2)
            p, doc = stat_json(*args, "--", "true",
                               env=dict(forced("spr"), HWPROF_SYSFS_ROOT=root))
        if check(p.returncode == 0 and doc, f"{args}: {p.returncode} {p.stderr}"):
            check(doc["event_spec"] == want, f"{args}: one group: {doc['event_spec']}")
            check([m["metric"] for m in doc["metrics"]] == TOPDOWN + TMA_L2,
                  f"{args}: {[m['metric'] for m in doc['metrics']]}")


def kernel_topdown(model):
    """Where the cpu PMU has slots and topdown-* (Ice Lake and later),
    --topdown counts them as perf does: one group led by slots."""
    with tempfile.TemporaryDirectory() as root:
        kernel_cpu_pmu(root, KERNEL_TOPDOWN[1:])
        p, doc = stat_json("--topdown", "--", "true",
                           env=dict(forced(model), HWPROF_SYSFS_ROOT=root))
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    want = "{" + ",".join(f"cpu/{e}/" for e in KERNEL_TOPDOWN) + "}"
    check(doc["event_spec"] == want, f"perf's group: {doc['event_spec']}")
    check([m["metric"] for m in doc["metrics"]] == TOPDOWN, f"{doc['metrics']}")
    for name in TOPDOWN:
        m = metric(doc, name)
        check(m["unit"] == "%" and "cpu@topdown-" in m["expr"] and
              "TOPDOWN:SLOTS_P" not in m["expr"], f"the kernel's form: {m}")


def per_second():
    """NAME_per_sec divides by the wall time: listed, and undefined here."""
    p, doc = stat_json("-M", "LLC_Misses_per_sec", "--", "true", env=forced("icl"))
    if not check(p.returncode == 0 and doc, f"{p.returncode} {p.stderr}"):
        return
    m = metric(doc, "LLC_Misses_per_sec")
    check(m["unit"] == "/s" and m["expr"] == "MEM_LOAD_RETIRED:L3_MISS / seconds", f"{m}")
    if not doc["events"][0]["supported"]:
        check(m["value"] is None and m["supported"] is False and
              "is not supported here" in m["reason"], f"{m}")


case(topdown_json, "icl", "-M", "TopdownL1", name="-M TopdownL1, json")
case(topdown_json, "icl", "--topdown", name="--topdown, json")
case(topdown_json, "icx", "-M", "TopdownL1", name="-M TopdownL1, icx (Ice Lake server)")
case(icx_model_and_source, name="icx: its own model and source")
case(topdown_csv, name="-M TopdownL1, csv")
case(topdown_text, name="--topdown, text")
case(status_passes_through)
case(names_and_builtins, name="-M IPC,LLC_MPKI")
case(no_such_group_here, name="-M TopdownL1 on Zen 3")
case(builtins_without_libpfm, name="-M IPC loads no libpfm4")
case(td_level, name="--td-level")
case(topdown_l2, "icl", ICL_L2_EVENTS, name="-M TopdownL2, icl")
case(topdown_l2, "icx", ICL_L2_EVENTS, name="-M TopdownL2, icx")
case(topdown_l2, "spr", None, name="-M TopdownL2, spr")
case(topdown_l2, "amd64_fam19h_zen4", None, name="-M TopdownL2, zen4")
case(memory_bw_fabricated, name="Memory_BW on 3 fabricated controllers")
case(memory_bw_here, name="Memory_BW where there is no uncore_imc")
case(memory_bw_bad_scale, name="Memory_BW with a broken .scale file")
case(amd_df_fabricated, "amd64_fam19h_zen3", {"Memory_BW_Total": ZEN3_DF},
     name="Memory_BW on a fabricated amd_df, zen3")
case(amd_df_fabricated, "amd64_fam19h_zen4",
     {"Memory_BW_Read": ZEN4_DF["read"], "Memory_BW_Write": ZEN4_DF["write"]},
     name="Memory_BW on a fabricated amd_df, zen4")
case(amd_df_here, name="Memory_BW where there is no amd_df")
case(amd_df_inputs_parsed_once, name="Memory_BW: each input parsed a bounded number of times")
case(per_second, name="-M LLC_Misses_per_sec")
case(kernel_topdown, "icl", name="--topdown from the kernel's slots and topdown-*")
case(kernel_topdown, "icx", name="--topdown from the kernel's topdown-*, icx")
case(kernel_topdown_l2, name="-M TopdownL2 from the kernel's topdown-* of level 2")
for m in GROUPS:
    case(list_metrics, m, name=f"list --metrics, {m}")
    case(every_metric, m, name=f"stat -M every metric, {m}")
done()
