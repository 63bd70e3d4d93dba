#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The exported ABI stays small and every export is used (docs/api.md).

exports.py LIB SRCROOT, as TAP:
- the public exports (nm -D, default versions, less the 0.1 compatibility
  names that lib/compat.c defines and the private node HWPROF_PRIVATE) are
  at most 150;
- each public or compatibility export is called in a test or an example
  (tests/, examples/: C, C++ and Python sources, not tests/abi/), and each
  private one (hwpriv_, for the CLI) in the CLI or a test."""
import os
import re
import subprocess
import sys

LIMIT = 150


def exports(lib):
    """{name: node} of the defined dynamic symbols, default versions."""
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         capture_output=True, text=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) != 3 or f[1] not in "TDBRWi" or "@" not in f[2]:
            continue
        name, _, node = f[2].partition("@")
        if node.startswith("@"):
            syms[name] = node[1:]
        else:
            syms.setdefault(name, node)
    return {n: v for n, v in syms.items() if not n.startswith("HWPROF_")}


def compat_names(root):
    with open(os.path.join(root, "lib", "compat.c")) as f:
        return set(re.findall(r"COMPAT\([^,]+,\s*(hwp_\w+)", f.read()))


def sources(root, dirs):
    words = set()
    for d in dirs:
        for top, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs[:] = [s for s in subdirs if s != "abi"]
            for name in files:
                if name.endswith((".c", ".cc", ".h", ".py")):
                    with open(os.path.join(top, name), errors="replace") as f:
                        words.update(re.findall(r"\bhwp\w+", f.read()))
    return words


def main():
    lib, root = sys.argv[1], sys.argv[2]
    syms = exports(lib)
    compat = compat_names(root)
    private = {n for n, v in syms.items() if v == "HWPROF_PRIVATE"}
    public = sorted(set(syms) - compat - private)
    failed = 0
    print("1..2")
    if len(public) <= LIMIT:
        print(f"ok 1 - {len(public)} public exports, at most {LIMIT}")
    else:
        print(f"not ok 1 - {len(public)} public exports, more than {LIMIT}")
        failed = 1
    used = sources(root, ["tests", "examples"])
    used_private = used | sources(root, ["cli"])
    missing = [n for n in public + sorted(compat & set(syms)) if n not in used]
    missing += [n for n in sorted(private) if n not in used_private]
    for n in missing:
        print(f"# {n} ({syms[n]}) is called by no test nor example")
    if missing:
        print(f"not ok 2 - {len(missing)} exports called nowhere")
        failed = 1
    else:
        print(f"ok 2 - each of the {len(syms)} exports is called by a test or an example")
    return failed


if __name__ == "__main__":
    sys.exit(main())
