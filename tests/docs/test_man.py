#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The built man pages render without a warning, by man-db's man -l and by
groff -ww, and each source in docs/man was built. Arguments: the pages."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import case, check, done, skip  # noqa: E402
from manpages import MAN  # noqa: E402

pages = sys.argv[1:]


def run(args, env=None):
    return subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)


def every_source_built():
    built = {os.path.basename(p) for p in pages}
    for src in sorted(os.listdir(MAN)):
        if src.endswith(".scd"):
            check(src[:-4] in built, f"docs/man/{src} is not in docs/man/meson.build")


def renders(page):
    """man -l at 80 columns, warnings on, says nothing on stderr; groff -ww
    -z (every warning, no output) says nothing at all."""
    env = dict(os.environ, MANWIDTH="80", MAN_KEEP_STDERR="1", LC_ALL="C.UTF-8")
    p = run(["man", "--warnings=all", "-l", "-Tutf8", page], env=env)
    check(p.returncode == 0, f"man -l {page}: status {p.returncode}")
    check(not p.stderr.strip(), f"man -l {page} warns:\n{p.stderr}")
    check(len(p.stdout.splitlines()) > 10, f"man -l {page}: {len(p.stdout)} bytes")
    g = run(["groff", "-ww", "-z", "-man", "-Tutf8", page])
    check(g.returncode == 0 and not g.stderr.strip(), f"groff -ww {page}:\n{g.stderr}")
    name = os.path.basename(page).rsplit(".", 1)
    head = p.stdout.splitlines()[0] if p.stdout else ""
    check(f"{name[0]}({name[1]})".upper() in head.upper(), f"{page}: header {head!r}")
    need = ["NAME", "DESCRIPTION", "SEE ALSO"]
    if name[1] == "1":
        need += ["SYNOPSIS", "OPTIONS", "EXIT STATUS"]
    text = re.sub(r".\x08", "", p.stdout)     # the overstrike of bold and underline
    have = {line.strip() for line in text.splitlines() if line and not line[0].isspace()}
    check(all(n in have for n in need), f"{page}: sections {sorted(set(need) - have)} missing")


if not pages:
    skip("no man page was built: scdoc was not found (-Dman=auto) or -Dman=disabled")
if not shutil.which("man") or not shutil.which("groff"):
    skip("man (man-db) or groff is not installed: apt-get install man-db")
case(every_source_built)
for pg in pages:
    case(renders, pg, name=f"{os.path.basename(pg)} renders")
done()
