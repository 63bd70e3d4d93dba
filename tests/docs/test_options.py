#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each command's options, its man page and its --help agree: every option
that cmd-*.c accepts is in the OPTIONS of hwprof-CMD(1), every option there
is accepted, and --help is short and ends where the full page is."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import case, check, done, hwprof, option_entries  # noqa: E402
from manpages import CLI, accepted, commands, documented, page_source  # noqa: E402

HELP_LINES = 40


def every_command_has_a_page():
    for cmd in commands():
        check(os.path.exists(page_source(cmd)),
              f"'{cmd}' is in cli/main.c's table but docs/man has no hwprof-{cmd}.1.scd")


def options_in_page(cmd):
    if not os.path.exists(page_source(cmd)):
        check(False, f"no docs/man/hwprof-{cmd}.1.scd")
        return
    acc, doc = accepted(cmd), documented(cmd)
    check(not acc - doc, f"hwprof {cmd} accepts {sorted(acc - doc)}, which the OPTIONS "
          f"of hwprof-{cmd}(1) do not describe: add them to docs/man/hwprof-{cmd}.1.scd")
    check(not doc - acc, f"hwprof-{cmd}(1) describes {sorted(doc - acc)}, which hwprof "
          f"{cmd} does not accept (cli/cmd-{cmd}.c's option table)")


def short_help(cmd):
    p = hwprof(cmd, "--help")
    check(p.returncode == 0 and not p.stderr, f"hwprof {cmd} --help: {p.returncode} {p.stderr}")
    q = hwprof("help", cmd)
    check(q.returncode == 0 and q.stdout == p.stdout,
          f"hwprof help {cmd} does not print what hwprof {cmd} --help does")
    lines = p.stdout.rstrip("\n").split("\n")
    check(len(lines) <= HELP_LINES,
          f"hwprof {cmd} --help has {len(lines)} lines, more than {HELP_LINES}: "
          "the full text belongs in its man page")
    check(f"man hwprof-{cmd}" in lines[-1],
          f"hwprof {cmd} --help does not end with where its page is: {lines[-1]!r}")
    for line in lines:
        check(len(line) <= 90, f"hwprof {cmd} --help: a line over 90 columns: {line!r}")


def help_names_options(cmd):
    """--help, made from the option table, names each of its options by one
    of its names at least: on a line of its own, or in the text around the
    lines ("Also: ...")."""
    p = hwprof(cmd, "--help")
    missing = [names for names, _ in option_entries(cmd)
               if not any(re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", p.stdout)
                          for n in names)]
    check(not missing, f"hwprof {cmd} --help does not name {missing}")


def stat_default_events():
    """The default event list the page gives is the one stat counts."""
    with open(os.path.join(CLI, "cmd-stat.c")) as f:
        text = f.read()
    parts = dict(re.findall(r'#define DEFAULT_EVENTS_(HEAD|TAIL) "([^"]*)"', text))
    check(set(parts) == {"HEAD", "TAIL"}, f"cmd-stat.c's default events: {parts}")
    default = parts.get("HEAD", "") + "," + parts.get("TAIL", "")
    with open(page_source("stat")) as f:
        page = f.read()
    check(f"Default: {default}" in page,
          f"hwprof-stat(1) does not give the default events, {default}")


case(every_command_has_a_page)
case(stat_default_events)
for c in commands():
    case(options_in_page, c, name=f"{c} options in its page")
    case(short_help, c, name=f"{c} help short")
    case(help_names_options, c, name=f"{c} help names its options")
done()
