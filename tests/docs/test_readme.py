#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The README is a front door: at most 300 lines; every relative link of
the README, NEWS.md and docs/*.md leads to a file of the tree (and to a
heading of it, where the link names one); and each old README heading
that docs/README-map.md lists names a new home that exists: a man page
and its sections, or a page of docs/ and its heading."""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import SRC, case, check, done  # noqa: E402

README_LINES = 300
PAGES = [os.path.join(SRC, "README.md"), os.path.join(SRC, "NEWS.md"),
         os.path.join(SRC, "docs", "schema", "README.md")] + \
    sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
MAN = {"1": "docs/man/{}.1.scd", "3": "docs/man/{}.3.scd", "5": "docs/man/{}.5.scd"}


def read(path):
    with open(path) as f:
        return f.read()


def anchors(md):
    """GitHub's anchors of a page's headings (outside code blocks)."""
    text = re.sub(r"^```.*?^```", "", read(md), flags=re.M | re.S)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, flags=re.M)}


def readme_short():
    n = len(read(os.path.join(SRC, "README.md")).splitlines())
    check(n <= README_LINES, f"README.md has {n} lines, more than {README_LINES}: "
          "move the text to a man page (docs/man/) or docs/, and leave a pointer")


def links():
    """Each relative link [text](path#anchor) names a file, and a heading of it."""
    seen = 0
    for page in PAGES:
        text = re.sub(r"^```.*?^```", "", read(page), flags=re.M | re.S)
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            seen += 1
            path = os.path.normpath(os.path.join(os.path.dirname(page), target)) \
                if target else page
            where = f"{os.path.relpath(page, SRC)}: ({target}#{anchor})"
            if not os.path.exists(path):
                check(False, f"{where}: no such file")
            elif anchor and path.endswith(".md"):
                check(anchor in anchors(path),
                      f"{where}: {os.path.relpath(path, SRC)} has no such heading")
    check(seen >= 10, f"{seen} links")


def map_rows():
    """The rows of docs/README-map.md's table: (old heading, new home)."""
    rows = []
    for line in read(os.path.join(SRC, "docs", "README-map.md")).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2 and not set(cells[0]) <= set("- ") \
                and cells[0] != "README heading":
            rows.append(cells)
    return rows


def man_target(page, rest):
    """hwprof-stat(1) SECTION, SECTION (remarks): the page exists, and each
    upper-case SECTION is in one of its headings."""
    name, sec = re.match(r"([\w-]+)\((\d)\)", page).groups()
    path = os.path.join(SRC, MAN.get(sec, "?").format(name))
    if not os.path.exists(path):
        check(False, f"{page}: no {os.path.relpath(path, SRC)}")
        return
    heads = re.findall(r"^#+ (.*)$", read(path), flags=re.M)
    while re.search(r"\([^()]*\)", rest):
        rest = re.sub(r"\([^()]*\)", "", rest)
    for part in rest.split(","):
        part = part.strip()
        if part and part == part.upper() and re.search(r"[A-Z]", part):
            check(any(part in h for h in heads), f"{page} has no section {part}")


def map_targets():
    rows = map_rows()
    check(len(rows) >= 40, f"{len(rows)} rows in docs/README-map.md")
    heads = {h.replace("`", "") for h in
             re.findall(r"^#+ .*$", read(os.path.join(SRC, "README.md")), flags=re.M)}
    for old, home in rows:
        targets = 0
        # man pages: NAME(N) and what follows up to the next target
        for page, rest in re.findall(r"([\w-]+\(\d\))([^;]*)", home):
            targets += 1
            man_target(page, rest)
        # files: `path` or `path` `## Heading`
        for path, head in re.findall(r"`([\w./-]+\.md)`(?: `(#+ [^`]+)`)?", home):
            targets += 1
            full = os.path.join(SRC, path)
            if not os.path.exists(full):
                check(False, f"{old}: {path}: no such file")
            elif head:
                have = re.findall(r"^#+ .*$", read(full).replace("`", ""), flags=re.M)
                check(any(h.startswith(head) for h in have),
                      f"{old}: {path} has no heading '{head}'")
        check(targets, f"{old}: '{home}' names no page or file that holds it now")
        if "`README.md`" not in home:
            for head in re.findall(r"`(#+ [^`]+)`", old):
                check(head not in heads, f"{head}: still a heading of README.md, "
                      "though docs/README-map.md says it moved")


case(readme_short)
case(links)
case(map_targets)
done()
