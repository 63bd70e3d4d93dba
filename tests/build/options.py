#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The build's own promises, as TAP: the hwprof.pc that meson generated for
this build (the one installed) describes the library and points nowhere
false; and -Dcli=false -Dtests=false -Dbench=false configures a tree that
builds the library alone (its headers, hwprof.pc and the library's manual
pages), which is configured here in a temporary directory, not built: make
check-lib-only builds and installs it (.ci/run does).

usage: options.py SOURCE_ROOT BUILD_ROOT VERSION"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SRC, BUILD, VERSION = sys.argv[1:4]
MESON = shutil.which("meson") or "meson"
cases = 0
failed = 0


def report(name, problems):
    global cases, failed
    cases += 1
    for p in problems:
        print(f"# {p}")
    failed += bool(problems)
    print(f"{'not ok' if problems else 'ok'} {cases} - {name}")


def pc_fields(path):
    fields = {}
    with open(path) as f:
        for line in f:
            if ":" in line and "=" not in line.split(":", 1)[0]:
                key, value = line.split(":", 1)
                fields[key.strip()] = value.strip()
    return fields


def check_pc(path):
    """The .pc file: a description that says what the library is, no URL
    of an invalid domain, this version, -lhwprof."""
    try:
        f = pc_fields(path)
    except OSError as e:
        return [f"{path}: {e}"]
    problems = []
    desc = f.get("Description", "")
    if "perf_event_open" not in desc or len(desc.split()) < 6:
        problems.append(f"Description: {desc!r}: say what the library does (it counts and "
                        "samples events with perf_event_open)")
    url = f.get("URL")
    if url is not None and (".invalid" in url or "example." in url or not url.startswith(
            "https://")):
        problems.append(f"URL: {url!r}: a placeholder; name the project's page, or none")
    if f.get("Version") != VERSION:
        problems.append(f"Version: {f.get('Version')!r}, the project's is {VERSION!r}")
    if "-lhwprof" not in f.get("Libs", "").split():
        problems.append(f"Libs: {f.get('Libs')!r}, without -lhwprof")
    return problems


def setup(tmp, *options):
    build = os.path.join(tmp, "build")
    p = subprocess.run([MESON, "setup", build, SRC, *options], capture_output=True,
                       text=True, timeout=300)
    return build, p


def lib_only(tmp):
    """All three off: it configures; every target is the library's."""
    build, p = setup(tmp, "-Dcli=false", "-Dtests=false", "-Dbench=false")
    if p.returncode:
        return ["meson setup -Dcli=false -Dtests=false -Dbench=false failed:",
                *(p.stdout + p.stderr).splitlines()[-15:]]
    p = subprocess.run([MESON, "introspect", "--targets", build], capture_output=True,
                       text=True, timeout=120)
    if p.returncode:
        return [f"meson introspect --targets: {p.stderr}"]
    problems = []
    for t in json.loads(p.stdout):
        where = os.path.relpath(t["defined_in"], SRC)
        if t["type"] == "executable" or not where.startswith(("lib/", "include/", "docs/")):
            problems.append(f"{t['type']} {t['name']} ({where}) is built without the CLI, "
                            "tests and benches")
    if not os.path.exists(os.path.join(build, "meson-private", "hwprof.pc")):
        problems.append("no hwprof.pc in the library-only build")
    return problems


def tests_need_cli(tmp):
    """-Dcli=false with the tests (on by default) says what to do."""
    _, p = setup(tmp, "-Dcli=false")
    out = p.stdout + p.stderr
    if p.returncode == 0:
        return ["-Dcli=false with the tests configured: the CLI tests have no hwprof to run"]
    if "-Dtests=false" not in out:
        return ["-Dcli=false with the tests: the error does not say -Dtests=false:",
                *out.splitlines()[-5:]]
    return []


def main():
    print("TAP version 13")
    report("hwprof.pc", check_pc(os.path.join(BUILD, "meson-private", "hwprof.pc")))
    for fn in (lib_only, tests_need_cli):
        with tempfile.TemporaryDirectory(prefix="hwprof-options.") as tmp:
            report(fn.__name__.replace("_", " "), fn(tmp))
    print(f"1..{cases}")
    sys.exit(1 if failed else 0)


main()
