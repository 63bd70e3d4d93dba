# SPDX-License-Identifier: MIT
"""What the docs tests share: the commands of cli/main.c's table, the
options each one's cmd-*.c accepts, and the options its man page names."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import command_options  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAN = os.path.join(SRC, "docs", "man")
CLI = os.path.join(SRC, "cli")


def commands():
    """The names of cli/main.c's command table, in its order."""
    with open(os.path.join(CLI, "main.c")) as f:
        text = f.read()
    table = re.search(r"commands\[\] = \{(.*?)\};", text, re.S).group(1)
    return re.findall(r"&cli_cmd_(\w+)", table)


def accepted(cmd):
    """The options cmd-CMD.c's option table gives getopt_long: '--long' and
    '-x' (tests/cli/common.py reads the table)."""
    return command_options(cmd)[0]


def page_source(cmd):
    return os.path.join(MAN, f"hwprof-{cmd}.1.scd")


def documented(cmd):
    """The options the OPTIONS section of hwprof-CMD(1)'s source names at
    the start of an entry (a line that begins with a bold option)."""
    opts = set()
    section = None
    with open(page_source(cmd)) as f:
        for line in f:
            if line.startswith("# "):
                section = line[2:].strip()
                continue
            if section != "OPTIONS" or not line.startswith("*-"):
                continue
            for bold in re.findall(r"\*((?:[^*\\]|\\.)+)\*", line):
                name = bold.replace("\\", "")
                if re.fullmatch(r"-[A-Za-z0-9]|--[a-z][a-z0-9-]*", name):
                    opts.add(name)
    return opts
