#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The JSON hwprof writes, validated against docs/schema/*.json with
python3-jsonschema: real outputs of every command, several option
combinations each. The schemas are strict (no unknown keys, the keys
always written are required), so that a writer's change that the schema
does not follow fails here."""
import glob
import json
import os
import re
import shutil
import sys
import tempfile

from common import (HOTSPOTS, HWPROF, SRC, WORKLOAD, case, check, done, hwprof,
                    jsonschema_python, perf_sampler, run, skip)

SCHEMAS = os.path.join(SRC, "docs", "schema")
MSGBENCH = os.environ.get("MSGBENCH")
OFFCPU = os.environ.get("OFFCPU")

# Run by the Python that has jsonschema: the schemas refer to each other by
# file name (their $id), so every one is put in the resolver's store.
VALIDATE = r"""
import glob, json, os, sys, warnings
import jsonschema
warnings.simplefilter("ignore", DeprecationWarning)
store = {}
for path in glob.glob(os.path.join(sys.argv[1], "*.json")):
    with open(path) as f:
        s = json.load(f)
    jsonschema.Draft7Validator.check_schema(s)
    store[s["$id"]] = s
bad = 0
for pair in sys.argv[2:]:
    name, path = pair.split("=", 1)
    with open(path) as f:
        docs = [json.loads(line) for line in f] if name.endswith("interval-1.json") \
            else [json.load(f)]
    schema = store[name]
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    v = jsonschema.Draft7Validator(schema, resolver=resolver)
    for doc in docs:
        for e in sorted(v.iter_errors(doc), key=str)[:5]:
            bad += 1
            print(f"{path} ({name}): at {list(e.absolute_path)}: {e.message[:300]}")
sys.exit(1 if bad else 0)
"""


PYTHON = jsonschema_python()
if not PYTHON:
    skip("no jsonschema module (Debian's python3-jsonschema; make test installs it)")


def schema_of(path):
    """The schema file of a document: hwprof-stat/1 is hwprof-stat-1.json."""
    with open(path) as f:
        return json.load(f)["schema"].replace("/", "-") + ".json"


def validate(*paths, schema=None):
    """Each file validates against the schema its "schema" key names (or
    SCHEMA); returns whether all did."""
    pairs = [f"{schema or schema_of(p)}={p}" for p in paths]
    p = run([PYTHON, "-c", VALIDATE, SCHEMAS, *pairs], timeout=120)
    return check(p.returncode == 0, f"{' '.join(pairs)}:\n{p.stdout}{p.stderr}")


def ok(p, what):
    return check(p.returncode == 0, f"{what}: status {p.returncode}: {p.stderr[-2000:]}")


def stat(d, name, *args, env=None):
    """hwprof stat --json -o D/NAME ARGS; the path, or None."""
    out = os.path.join(d, name)
    p = hwprof("stat", "--json", "-o", out, *args, timeout=120, env=env)
    return out if ok(p, f"stat {' '.join(args)}") else None


def golden_inputs():
    """The results and sweeps the golden-output tests read (written by hand,
    by tests/golden/make-inputs.py) are what hwprof stat writes."""
    d = os.path.join(SRC, "tests", "golden", "input")
    validate(*sorted(os.path.join(d, n) for n in os.listdir(d) if n.endswith(".json")))


def every_writer_has_a_schema():
    """Each "hwprof-NAME/1" the library writes has its docs/schema file."""
    names = set()
    for path in glob.glob(os.path.join(SRC, "lib", "**", "*.c"), recursive=True):
        with open(path) as f:
            names.update(re.findall(r'"(hwprof-[a-z]+/[0-9]+)"', f.read()))
    check(len(names) >= 8, f"the writers' schema names: {sorted(names)}")
    for n in sorted(names):
        check(os.path.exists(os.path.join(SCHEMAS, n.replace("/", "-") + ".json")),
              f"{n}: no docs/schema/{n.replace('/', '-')}.json")


def strict(d):
    """The schemas can fail: an unknown key, a missing one and a wrong type
    are each refused in a real document."""
    path = stat(d, "s.json", "-e", "page-faults", "--", "true")
    if not path or not validate(path):
        return
    with open(path) as f:
        doc = json.load(f)
    for name, change in (("extra", lambda x: x.update(bogus=1)),
                         ("missing", lambda x: x.pop("events")),
                         ("event extra", lambda x: x["events"][0].update(bogus=1)),
                         ("type", lambda x: x.update(runs="1"))):
        bad = json.loads(json.dumps(doc))
        change(bad)
        out = os.path.join(d, f"bad-{name.replace(' ', '-')}.json")
        with open(out, "w") as f:
            json.dump(bad, f)
        p = run([PYTHON, "-c", VALIDATE, SCHEMAS, f"hwprof-stat-1.json={out}"])
        check(p.returncode == 1 and out in p.stdout, f"{name}: refused: {p.stdout}{p.stderr}")


def stat_outputs(d):
    ev = "page-faults,task-clock,cycles"
    paths = [
        stat(d, "plain.json", "-e", ev, "--", "true"),
        stat(d, "runs.json", "-r", "3", "-e", ev, "-M", "pf/ms=page-faults / task-clock",
             "--per-run", "--", WORKLOAD, "pages", "200"),
        stat(d, "threads.json", "--per-thread", "-e", "page-faults,task-clock", "--",
             WORKLOAD, "threads", "2", "100"),
        stat(d, "score.json", "-r", "3", "--quiet", "-e", "page-faults",
             "--score", "x=Throughput ([0-9.]+)", "--", WORKLOAD, "tick",
             os.path.join(d, "tick"), "score", "100", "2.5"),
    ]
    if None not in paths:
        validate(*paths)


def stat_interval(d):
    interval(d, "i.jsonl", "-e", "page-faults,task-clock")
    interval(d, "it.jsonl", "-e", "page-faults", "-M", "pf/s=page-faults / seconds")


def interval(d, name, *args, env=None):
    out = os.path.join(d, name)
    p = hwprof("stat", "-I", "100", *args, "--json", "-o", out, "--", "sleep", "0.35",
               timeout=60, env=env)
    if not ok(p, name):
        return
    with open(out) as f:
        lines = f.read().splitlines()
    check(len(lines) >= 2, f"{name}: a line an interval: {lines}")
    validate(out, schema="hwprof-stat-interval-1.json")


def scaled(d):
    """An event whose PMU has a NAME.scale: its "scale" in each output that
    has events (runs, threads, intervals), valid against the schemas."""
    root = os.path.join(d, "sysfs")
    pmu = os.path.join(root, "bus/event_source/devices/fake")
    for rel, text in (("type", "1"), ("format/config", "config:0-63"),
                      ("events/halfpages", "config=0x2"),
                      ("events/halfpages.scale", "0.5")):
        os.makedirs(os.path.dirname(os.path.join(pmu, rel)), exist_ok=True)
        with open(os.path.join(pmu, rel), "w") as f:
            f.write(text + "\n")
    env = dict(os.environ, HWPROF_SYSFS_ROOT=root)
    ev = "fake/halfpages/,page-faults"
    paths = [stat(d, "scaled.json", "-r", "2", "-e", ev, "-M", "x=fake@halfpages@ / page-faults",
                  "--", WORKLOAD, "pages", "100", env=env),
             stat(d, "scaled-threads.json", "--per-thread", "-e", ev, "--", WORKLOAD,
                  "threads", "2", "100", env=env)]
    if None in paths:
        return
    validate(*paths)
    with open(paths[0]) as f:
        row = [e for e in json.load(f)["events"] if e["event"] == "fake/halfpages/"]
    check(row and row[0].get("scale") == 0.5, f"the event's scale: {row}")
    interval(d, "scaled.jsonl", "-e", ev, env=env)


def system_wide(d):
    """Per CPU and per core (-a -A, --per-core), their intervals and their
    comparison, which names each row's unit."""
    p = hwprof("stat", "-a", "-e", "cpu-clock", "--", "true")
    if p.returncode != 0:
        skip(f"system-wide counting is refused here: {p.stderr.strip()}")
    paths = [stat(d, f"cpus-{k}.json", "-a", "-A", "-r", "2", "-e", "cpu-clock,page-faults",
                  "--", "true") for k in "ab"]
    paths.append(stat(d, "cores.json", "-a", "--per-core", "-e", "cpu-clock", "--", "true"))
    interval(d, "ia.jsonl", "-a", "-A", "-e", "cpu-clock")
    if None in paths:
        return
    out = os.path.join(d, "cmp-cpus.json")
    p = hwprof("compare", "--json", "-o", out, paths[0], paths[1], timeout=120)
    if ok(p, "compare per CPU"):
        validate(*paths, out)


# hwp_result_explain(RESULT, "x", FILE, JSON) by ctypes, in a Python whose
# libhwprof was preloaded: its thread-local storage is of the initial-exec
# kind, which a library opened later cannot get.
EXPLAIN = r"""
import ctypes, sys
class WriteOpts(ctypes.Structure):
    _fields_ = [("sz", ctypes.c_size_t), ("format", ctypes.c_int),
                ("separator", ctypes.c_char_p), ("no_big_num", ctypes.c_bool),
                ("interval", ctypes.c_double), ("no_header", ctypes.c_bool),
                ("sort", ctypes.c_int), ("top", ctypes.c_size_t),
                ("annotate", ctypes.c_char_p), ("per_run", ctypes.c_bool),
                ("sort_keys", ctypes.c_void_p), ("nr_sort_keys", ctypes.c_size_t)]
lib, libc = ctypes.CDLL(sys.argv[1]), ctypes.CDLL(None)
libc.fopen.restype = ctypes.c_void_p
libc.fclose.argtypes = [ctypes.c_void_p]
lib.hwp_result_explain.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p,
                                   ctypes.POINTER(WriteOpts)]
lib.hwp_result_free.argtypes = [ctypes.c_void_p]
r = ctypes.c_void_p()
if lib.hwp_result_load(sys.argv[2].encode(), ctypes.byref(r)):
    sys.exit("hwp_result_load failed")
f = libc.fopen(sys.argv[3].encode(), b"w")
opts = WriteOpts(sz=ctypes.sizeof(WriteOpts), format=2)  # HWP_FORMAT_JSON
err = lib.hwp_result_explain(r, b"x", f, ctypes.byref(opts))
libc.fclose(f)
lib.hwp_result_free(r)
sys.exit(f"hwp_result_explain: {err}" if err else 0)
"""


def explain(d):
    """hwprof-explain/1: stat --explain prints text; the library's
    hwp_result_explain() writes the JSON, of a result hwprof stat saved."""
    if os.environ.get("HWPROF_SANITIZE", "none") != "none":
        skip("libhwprof is preloaded into Python, which a sanitized build cannot be")
    res = stat(d, "explained.json", "-r", "4", "--quiet", "-e", "page-faults,task-clock",
               "--score", "x=Throughput ([0-9.]+)", "--", WORKLOAD, "tick",
               os.path.join(d, "tick-x"), "score", "100", "2.5")
    if not res:
        return
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(HWPROF))), "lib",
                       "libhwprof.so.0")
    out = os.path.join(d, "explain.json")
    p = run([sys.executable, "-c", EXPLAIN, lib, res, out],
            env=dict(os.environ, LD_PRELOAD=lib))
    if ok(p, "hwp_result_explain"):
        validate(out)


def sweep_and_compare(d):
    sw = stat(d, "sweep.json", "-r", "2", "-e", "page-faults", "--sweep", "N=100,300",
              "--", WORKLOAD, "pages", "{N}")
    sw2 = stat(d, "sweep2.json", "-r", "2", "-e", "page-faults", "--sweep", "N=100,300",
               "--", WORKLOAD, "pages", "{N}", "pages", "50")
    a = stat(d, "a.json", "-r", "3", "-e", "page-faults,task-clock", "--",
             WORKLOAD, "pages", "100")
    b = stat(d, "b.json", "-r", "3", "-e", "page-faults,task-clock", "--",
             WORKLOAD, "pages", "300")
    if None in (sw, sw2, a, b):
        return
    outs = [sw]
    for name, args in (("cmp.json", [a, b]),
                       ("cmp-mw.json", ["--test", "mann-whitney", "--no-correction", a, b]),
                       ("cmp-fail.json", ["--fail-on", "page-faults:increase>1", a, b]),
                       ("cmp-sweep.json", [sw, sw2])):
        out = os.path.join(d, name)
        p = hwprof("compare", "--json", "-o", out, *args, timeout=120)
        # --fail-on's broken rule exits 3 and still writes the document
        if check(p.returncode in (0, 3) and os.path.exists(out), f"compare {args}: {p.stderr}"):
            outs.append(out)
    validate(*outs)


def variants(d):
    """stat -- A ::: B: its hwprof-compare/1, and each variant's saved result."""
    save = os.path.join(d, "save")
    out = os.path.join(d, "ab.json")
    p = hwprof("stat", "-r", "3", "-e", "page-faults", "--json", "-o", out, "--save", save,
               "--", WORKLOAD, "pages", "100", ":::", WORKLOAD, "pages", "300",
               timeout=120)
    if not ok(p, "A/B"):
        return
    saved = sorted(glob.glob(os.path.join(save, "*.json")))
    check(len(saved) == 2, f"two saved: {saved}")
    if validate(out, *saved):
        with open(saved[0]) as f:
            check("run_order" in json.load(f), "a variant's result has its run_order")


def regions(d):
    if not MSGBENCH:
        skip("MSGBENCH is not set (meson test sets it)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HWPROF_")}
    own = os.path.join(d, "own.json")
    p = run([MSGBENCH, "2", "100"],
            env=dict(env, HWPROF_EVENTS="context-switches,task-clock,cycles",
                     HWPROF_OUTPUT=own, HWPROF_SAMPLE_EVERY="2"))
    st = stat(d, "stat-regions.json", "--regions", "-r", "2", "-e",
              "{context-switches,task-clock}", "-M", "cs/ms=context-switches / task-clock",
              "--", MSGBENCH, "2", "100", env=env)
    if ok(p, "msgbench") and st:
        validate(own, st)


def record(d, name, *args, prog=(HOTSPOTS, "100")):
    out = os.path.join(d, name)
    p = hwprof("record", "-o", out, *args, "--", *prog, timeout=180)
    return out if ok(p, f"record {args}") else None


def report(d, data, name, *args):
    out = os.path.join(d, name)
    p = hwprof("report", "--format", "json", "-i", data, "-o", out, *args, timeout=180)
    return out if ok(p, f"report {args}") else None


def kernel_samples():
    """Whether --off-cpu may sample the kernel's switches here."""
    with open("/proc/sys/kernel/perf_event_paranoid") as f:
        return os.geteuid() == 0 or int(f.read()) <= 1


def reports(d):
    flat = record(d, "flat.data", "-e", "cpu-clock")
    fp = record(d, "fp.data", "-g")
    dwarf = record(d, "dwarf.data", "--call-graph", "dwarf")
    if None in (flat, fp, dwarf):
        return
    outs = [report(d, flat, f"r-{s.replace(',', '-')}.json", "--sort", s)
            for s in ("sym", "rip", "line", "dso", "cpu", "comm", "pid", "comm,dso", "pid,sym")]
    outs += [report(d, flat, "r-top.json", "--top", "2"),
             report(d, fp, "r-fp.json"), report(d, fp, "r-fp-rip.json", "--sort", "rip"),
             report(d, dwarf, "r-dwarf.json"),
             report(d, dwarf, "r-dwarf-line.json", "--sort", "line")]
    if OFFCPU and kernel_samples():
        off = record(d, "off.data", "--off-cpu", prog=(OFFCPU,))
        outs.append(off and report(d, off, "r-off.json"))
    if None not in outs:
        validate(*outs)


def diffs(d):
    a = record(d, "da.data", "-e", "cpu-clock")
    b = record(d, "db.data", "-e", "cpu-clock", prog=(HOTSPOTS, "100", "5", "5"))
    if None in (a, b):
        return
    outs = []
    for name, args in (("d-share.json", []), ("d-count.json", ["--mode", "count"]),
                       ("d-rate.json", ["--mode", "rate"]),
                       ("d-dso.json", ["--sort", "dso", "--top", "0"]),
                       ("d-line.json", ["--sort", "line"]),
                       ("d-nocorr.json", ["--no-correction", "--alpha", "0.01"])):
        out = os.path.join(d, name)
        p = hwprof("diff", "--format", "json", "-o", out, *args, a, b, timeout=180)
        if ok(p, f"diff {args}"):
            outs.append(out)
    validate(*outs)


def programs_of_two_names(d):
    """diff's module_map: two builds of a program under two names."""
    progs = []
    for name in ("bench-old", "bench-new"):
        progs.append(os.path.join(d, name))
        shutil.copy(HOTSPOTS, progs[-1])
    a = record(d, "old.data", "-e", "cpu-clock", prog=(progs[0], "50"))
    b = record(d, "new.data", "-e", "cpu-clock", prog=(progs[1], "50"))
    if None in (a, b):
        return
    out = os.path.join(d, "d-map.json")
    p = hwprof("diff", "--format", "json", "-o", out, a, b, timeout=180)
    if ok(p, "diff of two names") and validate(out):
        with open(out) as f:
            maps = json.load(f)["module_map"]
        check(maps and maps[0]["auto"], f"module_map: {maps}")


def perf_files(d):
    """hwprof report of perf record's files."""
    perf = perf_sampler()
    outs = []
    for name, args in (("perf-fp.data", ["-g"]), ("perf-dwarf.data", ["--call-graph", "dwarf"])):
        data = os.path.join(d, name)
        p = run([perf, "record", "-e", "cpu-clock", "-o", data, *args, "--", HOTSPOTS, "50"],
                timeout=180)
        if ok(p, f"perf record {args}"):
            outs.append(report(d, data, name + ".json", "--sort", "sym"))
            outs.append(report(d, data, name + "-line.json", "--sort", "line", "--inline"))
    if outs and None not in outs:
        validate(*outs)


def doctor(d):
    out = os.path.join(d, "doctor.json")
    p = hwprof("doctor", "--json")
    with open(out, "w") as f:
        f.write(p.stdout)
    if ok(p, "doctor"):
        validate(out)


with tempfile.TemporaryDirectory(prefix="hwprof-schemas-") as tmp:
    case(every_writer_has_a_schema)
    case(golden_inputs)
    case(strict, tmp)
    case(stat_outputs, tmp)
    case(stat_interval, tmp)
    case(scaled, tmp)
    case(system_wide, tmp)
    case(explain, tmp)
    case(sweep_and_compare, tmp)
    case(variants, tmp)
    case(regions, tmp)
    case(reports, tmp)
    case(diffs, tmp)
    case(programs_of_two_names, tmp)
    case(perf_files, tmp)
    case(doctor, tmp)
    done()
