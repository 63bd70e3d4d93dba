#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Embed an HTML page template, with its styles and script, in C, for a
writer that puts its data in the middle (report --format html).

    embed-page.py TEMPLATE OUTPUT.c PREFIX

In TEMPLATE, a line '@STYLE file.css@' or '@SCRIPT file.js@' is replaced by
a <style> or <script> element holding that file (found next to TEMPLATE);
'@CSP@' by the sha256 sources of those elements, for the page's
Content-Security-Policy, so that the browser runs that script and no other;
and the line '@DATA@' splits the page in two. OUTPUT.c defines PREFIX_head
and PREFIX_tail, each the lines of its half, ending in NULL."""
import base64
import hashlib
import os
import sys


def element(tag, path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if f"</{tag}" in text.lower():
        sys.exit(f"embed-page: {path} holds '</{tag}', which would end its element early")
    body = "\n" + text
    digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    return f"<{tag}>{body}</{tag}>\n", f"'sha256-{digest}'"


def c_string(line):
    out = []
    for b in line.encode("utf-8"):
        c = chr(b)
        if c in '\\"?':
            out.append("\\" + c)
        elif c == "\n":
            out.append("\\n")
        elif 0x20 <= b < 0x7f:
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return '\t"' + "".join(out) + '",\n'


def main(template, output, prefix):
    here = os.path.dirname(template)
    halves, hashes = [[]], []
    with open(template, encoding="utf-8") as f:
        lines = f.readlines()
    for line in lines:
        word = line.strip()
        if word == "@DATA@":
            halves.append([])
            continue
        for tag, key in (("style", "@STYLE "), ("script", "@SCRIPT ")):
            if word.startswith(key) and word.endswith("@"):
                line, digest = element(tag, os.path.join(here, word[len(key):-1]))
                hashes.append((tag, digest))
        halves[-1].append(line)
    if len(halves) != 2:
        sys.exit(f"embed-page: {template} needs one line '@DATA@', not {len(halves) - 1}")
    csp = "; ".join(f"{tag}-src {d}" for tag, d in hashes)
    with open(output, "w", encoding="utf-8") as out:
        out.write(f"/* Generated from {os.path.basename(template)} by tools/embed-page.py. */\n")
        out.write("#include <stddef.h>\n\n")
        for name, half in zip(("head", "tail"), halves):
            out.write(f"extern const char *const {prefix}_{name}[];\n")
            out.write(f"const char *const {prefix}_{name}[] = {{\n")
            for line in half:
                out.write(c_string(line.replace("@CSP@", csp)))
            out.write("\tNULL,\n};\n\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
