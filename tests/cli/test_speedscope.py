#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof report --format speedscope: the file validates against a JSON
Schema of speedscope's file format (the rules of its published schema,
https://www.speedscope.app/file-format-schema.json, for what hwprof writes:
a sampled profile), checked by python3-jsonschema; its indexes are in
range; and the weight of each function as the leaf of its samples (its
self time in speedscope) is what 'hwprof report --sort sym' gives it."""
import json
import os
import subprocess
import tempfile

from common import (HAVE_LIBDW, HOTSPOTS, case, check, done, hwprof, jsonschema_python,
                    report_json, skip)

NAMESAKES = os.environ.get("NAMESAKES")
HERE = os.path.dirname(os.path.abspath(__file__))

# speedscope's file format (MIT, Jamie Wong), its sampled profiles, as a
# draft-06 JSON Schema written here from the format's spec
# (src/lib/file-format-spec.ts in speedscope): the published schema's
# required members and types, and the enum of units.
UNITS = ["bytes", "microseconds", "milliseconds", "nanoseconds", "none", "seconds"]
SCHEMA = {
    "$schema": "http://json-schema.org/draft-06/schema#",
    "type": "object",
    "required": ["$schema", "profiles", "shared"],
    "properties": {
        "$schema": {"type": "string",
                    "enum": ["https://www.speedscope.app/file-format-schema.json"]},
        "name": {"type": "string"},
        "activeProfileIndex": {"type": "number"},
        "exporter": {"type": "string"},
        "shared": {
            "type": "object",
            "required": ["frames"],
            "properties": {"frames": {"type": "array", "items": {
                "type": "object",
                "required": ["name"],
                "properties": {"name": {"type": "string"}, "file": {"type": "string"},
                               "line": {"type": "number"}, "col": {"type": "number"}},
            }}},
        },
        "profiles": {"type": "array", "items": {
            "type": "object",
            "required": ["type", "name", "unit", "startValue", "endValue", "samples",
                         "weights"],
            "properties": {
                "type": {"type": "string", "enum": ["sampled"]},
                "name": {"type": "string"},
                "unit": {"type": "string", "enum": UNITS},
                "startValue": {"type": "number"},
                "endValue": {"type": "number"},
                "samples": {"type": "array",
                            "items": {"type": "array", "items": {"type": "number"}}},
                "weights": {"type": "array", "items": {"type": "number"}},
            },
        }},
    },
}

VALIDATE = r"""
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft6Validator.check_schema(schema)
errors = sorted(jsonschema.Draft6Validator(schema).iter_errors(doc), key=str)
for e in errors[:5]:
    print(list(e.absolute_path), e.message)
sys.exit(1 if errors else 0)
"""


def validate(path, d):
    py = jsonschema_python()
    if not py:
        skip("no jsonschema module (Debian's python3-jsonschema; make test installs it)")
    schemas = [os.path.join(d, "schema.json")]
    with open(schemas[0], "w") as f:
        json.dump(SCHEMA, f)
    # A copy of the published schema, where one is at hand, too.
    if os.environ.get("SPEEDSCOPE_SCHEMA"):
        schemas.append(os.environ["SPEEDSCOPE_SCHEMA"])
    for schema in schemas:
        p = subprocess.run([py, "-c", VALIDATE, schema, path], capture_output=True, text=True,
                           timeout=120)
        check(p.returncode == 0, f"{schema}: {p.stdout}{p.stderr}")


def speedscope(data, d, name):
    out = os.path.join(d, name)
    p = hwprof("report", "-i", data, "--format", "speedscope", "-o", out, timeout=120)
    if not check(p.returncode == 0, p.stderr):
        return None
    with open(out) as f:
        try:
            return json.load(f)
        except ValueError as e:
            check(False, f"not JSON: {e}")
            return None


def consistent(doc):
    """Indexes in range, a weight a sample, the weights summing to endValue."""
    frames = doc["shared"]["frames"]
    check(len(doc["profiles"]) == 1 and doc["activeProfileIndex"] == 0, "one profile")
    prof = doc["profiles"][0]
    check(len(prof["samples"]) == len(prof["weights"]), "a weight a sample")
    check(all(isinstance(i, int) and 0 <= i < len(frames) for s in prof["samples"] for i in s),
          "frame indexes in range")
    check(all(s for s in prof["samples"]), "no empty stack")
    check(sum(prof["weights"]) == prof["endValue"] and prof["startValue"] == 0,
          f"weights sum to endValue: {sum(prof['weights'])} vs {prof['endValue']}")
    names = [(f["name"], f.get("file")) for f in frames]
    check(len(set(names)) == len(names), "each frame once")


def self_weights(doc):
    """By function name: the weights of the samples it is the leaf of."""
    frames = doc["shared"]["frames"]
    prof = doc["profiles"][0]
    out = {}
    for s, w in zip(prof["samples"], prof["weights"]):
        name = frames[s[-1]]["name"]
        out[name] = out.get(name, 0) + w
    return out


def agrees_with_report(doc, data):
    p, rep = report_json(data, "--sort", "sym", "-n", "0")
    if not check(rep is not None, p.stderr):
        return
    want = {}
    for e in rep["entries"]:
        want[e["name"]] = want.get(e["name"], 0) + e["period"]
    got = self_weights(doc)
    check(got == want, f"self weights differ from report --sort sym: "
          f"{sorted(set(got.items()) ^ set(want.items()))[:10]}")
    check(doc["profiles"][0]["endValue"] == rep["total_period"],
          f"endValue is the profile's period, {rep['total_period']}")


def checked_recording(d, name, *record_args):
    """Record HOTSPOTS, write it as speedscope, and check the file against
    the schema, itself and the report; the document, or None."""
    data = os.path.join(d, f"{name}.data")
    p = hwprof("record", *record_args, "-o", data, "--", HOTSPOTS, "80", timeout=180)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return None
    doc = speedscope(data, d, f"{name}.speedscope.json")
    if doc:
        validate(os.path.join(d, f"{name}.speedscope.json"), d)
        consistent(doc)
        agrees_with_report(doc, data)
    return doc


def with_call_chains(d):
    doc = checked_recording(d, "g", "-g")
    if not doc:
        return
    prof = doc["profiles"][0]
    frames = doc["shared"]["frames"]
    check(prof["unit"] == "nanoseconds" or "cycles" in prof["name"], f"unit {prof['unit']}")
    idx = {f["name"]: i for i, f in enumerate(frames)}
    chains = [[frames[i]["name"] for i in s] for s in prof["samples"]]
    check(any(c[-2:] == ["mid", "cold"] for c in chains), "mid calls cold, outermost first")
    check(all(c[0] != "cold" for c in chains if "main" in c), "main before the leaf")
    if not HAVE_LIBDW:
        return
    hot = frames[idx["hot"]] if "hot" in idx else {}
    with open(os.path.join(HERE, "..", "hotspots.c")) as f:
        decl = next(i for i, line in enumerate(f, 1)
                    if line.startswith("__attribute__((noinline)) void hot("))
    check(hot.get("file", "").endswith("hotspots.c") and hot.get("line") in (decl, decl + 1),
          f"hot's file and line ({decl}): {hot}")


def without_call_chains(d):
    doc = checked_recording(d, "flat")
    if doc:
        check(all(len(s) == 1 for s in doc["profiles"][0]["samples"]), "a frame a sample")


def namesakes(d):
    """Two static functions of one name, in two files: two frames."""
    if not NAMESAKES:
        skip("NAMESAKES is not set (meson test sets it)")
    if not HAVE_LIBDW:
        skip("built without libdw: no source files to tell them apart")
    data = os.path.join(d, "ns.data")
    p = hwprof("record", "-o", data, "--", NAMESAKES, "100", timeout=120)
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    doc = speedscope(data, d, "ns.speedscope.json")
    if not doc:
        return
    work = [f for f in doc["shared"]["frames"] if f["name"] == "work"]
    files = sorted(os.path.basename(f.get("file", "")) for f in work)
    check(files == ["namesakes-other.c", "namesakes.c"], f"two frames 'work': {work}")


def refused():
    p = hwprof("report", "--format", "flamegraph", "-i", "x")
    check(p.returncode == 2 and "speedscope" in p.stderr, p.stderr)
    p = hwprof("report", "--help")
    check("speedscope" in p.stdout + p.stderr, "--help names it")


with tempfile.TemporaryDirectory() as tmp:
    case(with_call_chains, tmp, name="report -g's chains as speedscope")
    case(without_call_chains, tmp, name="a profile without call chains")
    case(namesakes, tmp, name="namesakes are two frames")
    case(refused, name="usage")
done()
