#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One version everywhere (docs/api.md): meson's project version, the
HWPROF_VERSION_* macros, hwp_version() through 'hwprof --version', the
pkg-config file, the newest node of the version script, and the newest
release of NEWS.md.

version.py VERSION HWPROF VERSION_H HWPROF_PC LIBHWPROF_SYM NEWS_MD, as TAP."""
import re
import subprocess
import sys


def main():
    version, hwprof, version_h, pc, sym, news = sys.argv[1:7]
    cases = []
    with open(version_h) as f:
        h = dict(re.findall(r"#define HWPROF_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
    cases.append(("the macros", f"{h.get('MAJOR')}.{h.get('MINOR')}.{h.get('PATCH')}"))
    out = subprocess.run([hwprof, "--version"], capture_output=True, text=True)
    cases.append(("hwprof --version", out.stdout.strip().removeprefix("hwprof ")))
    with open(pc) as f:
        m = re.search(r"^Version: *(\S+)", f.read(), re.M)
    cases.append(("hwprof.pc", m.group(1) if m else None))
    with open(sym) as f:
        nodes = re.findall(r"^HWPROF_(\d+)\.(\d+) *\{", f.read(), re.M)
    newest = max(nodes, key=lambda n: (int(n[0]), int(n[1])))
    cases.append(("the newest node of libhwprof.sym", f"{newest[0]}.{newest[1]}", 2))
    with open(news) as f:
        m = re.search(r"^## (\d+)\.(\d+)", f.read(), re.M)
    cases.append(("the newest release of NEWS.md", f"{m.group(1)}.{m.group(2)}" if m else None,
                  2))
    print(f"1..{len(cases)}")
    failed = 0
    for i, case in enumerate(cases, 1):
        what, have = case[0], case[1]
        want = ".".join(version.split(".")[:case[2]]) if len(case) > 2 else version
        if have == want:
            print(f"ok {i} - {what}: {have}")
        else:
            print(f"not ok {i} - {what}: {have}, meson's version {version}")
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
