#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/: the pages exist, and the hwprof options docs/perf-users.md maps
perf's flags to are options of the command, by its option table
(cli/cmd-*.c), so that the page cannot name a flag hwprof does not have.
The pages' links are the docs suite's (tests/docs/test_readme.py)."""
import glob
import os
import re

from common import SRC, case, check, command_options, done

PAGES = [os.path.join(SRC, "README.md"), os.path.join(SRC, "NEWS.md")] + \
    sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))


def pages_exist():
    for name in ("perf-users.md", "statistics.md", "hacking.md"):
        check(os.path.exists(os.path.join(SRC, "docs", name)), f"docs/{name}")
    check(os.path.exists(os.path.join(SRC, "NEWS.md")), "NEWS.md")


def perf_users_flags():
    """The hwprof column of each '### `perf CMD` -> `hwprof CMD`' table
    (and the perf column where it says "same")."""
    with open(os.path.join(SRC, "docs", "perf-users.md")) as f:
        text = f.read()
    tables = re.split(r"^### `perf \w+` \S+ `hwprof (\w+)`$", text, flags=re.M)
    named = 0
    for cmd, body in zip(tables[1::2], tables[2::2]):
        have = command_options(cmd)[0]
        for line in body.split("\n\n")[1].splitlines()[2:]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            # "same": hwprof has perf's flags of that row
            ours = cells[0] + cells[1] if cells[1].startswith("same") else cells[1]
            for opt in re.findall(r"`(-[-a-z]+|-[A-Za-z])\b", ours):
                named += 1
                check(opt in have, f"{cmd}: {opt} is not an option of hwprof {cmd}")
    check(named >= 40, f"{named} options named")


case(pages_exist)
case(perf_users_flags)
done()
