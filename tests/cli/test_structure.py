#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The shape of cli/: its files call each other one way (a file that calls
another is never called back by it, directly or around a circle), so that
each can be read knowing only those it calls. (Their sizes: the style
test, tools/check-style.py.)"""
import os
import re

from common import SRC, case, check, done

CLI = os.path.join(SRC, "cli")


def sources():
    """{name: text} of cli/*.c, comments and strings blanked."""
    out = {}
    for name in sorted(os.listdir(CLI)):
        if name.endswith(".c"):
            with open(os.path.join(CLI, name)) as f:
                text = f.read()
            text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group()),
                          text, flags=re.S)
            out[name] = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return out


def definitions(text):
    """(name, first line, last line) of each function defined in @text: a
    signature from column 0, its body from a '{' to a '}' at column 0."""
    lines = text.split("\n")
    out, start = [], None
    for i, line in enumerate(lines):
        if line == "{":
            j = i - 1
            while j > 0 and not re.match(r"[A-Za-z_]", lines[j]):
                j -= 1
            m = re.search(r"(\w+)\s*\(", " ".join(lines[j:i]))
            start = (m.group(1) if m else "?", j + 1)
        elif line.startswith("}") and not line.startswith("};") and start:
            out.append((start[0], start[1], i + 1))
            start = None
    return out


def calls_one_way():
    src = sources()
    defined = {}
    for name, text in src.items():
        for fn, first, _ in definitions(text):
            sig = text.split("\n")[first - 1]
            if not sig.startswith("static"):
                defined[fn] = name
    calls = {name: {defined[fn] for fn in defined
                    if defined[fn] != name and re.search(r"\b" + fn + r"\s*\(", text)}
             for name, text in src.items()}
    check(len(defined) > 50, f"the CLI's shared functions are found: {len(defined)}")

    def reaches(a, b, seen):
        for c in calls[a]:
            if c == b or (c not in seen and (seen.add(c) or reaches(c, b, seen))):
                return True
        return False

    circles = sorted({tuple(sorted((a, b))) for a in calls for b in calls[a]
                      if reaches(b, a, set())})
    check(not circles, f"files of cli/ that call each other, directly or around a circle: "
          f"{circles}; move what both need into a file that both call")


case(calls_one_way)
done()
