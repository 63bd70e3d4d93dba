#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bash completion (cli/completion/hwprof.bash): its commands and each
command's options against cli/main.c and the option tables of
cli/cmd-*.c, so that it cannot drift; and the completion function run by
bash with COMP_WORDS and COMP_CWORD, its candidates asserted."""
import os
import re
import shlex
import shutil
import tempfile

from common import HWPROF, SRC, case, check, command_options, done, run, skip

SCRIPT = os.path.join(SRC, "cli", "completion", "hwprof.bash")
BASH = shutil.which("bash")
if not BASH:
    skip("no bash")


def commands():
    with open(os.path.join(SRC, "cli", "main.c")) as f:
        return re.findall(r"&cli_cmd_([a-z]+),", f.read())


# bash-completion's own functions (_filedir, _command_offset, the words
# kept whole across ':'), where it is installed; else the script's own.
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"
WITH = [False] + ([True] if os.path.exists(BASH_COMPLETION) else [])
MODE = {"with": False}


def bash(script, cwd=None):
    # compopt works in a completion that readline started only
    first = f"source {BASH_COMPLETION}\ncompopt() {{ :; }}\n" if MODE["with"] else ""
    p = run([BASH, "--norc", "--noprofile", "-c",
             f"{first}source {shlex.quote(SCRIPT)}\n{script}"], cwd=cwd)
    check(p.returncode == 0 and not p.stderr, f"bash: {p.returncode} {p.stderr}")
    return p.stdout


def complete(*words, cwd=None):
    """The candidates for the last of WORDS (after 'hwprof'), as a set;
    WORDS split as readline splits them (at '=' and ':')."""
    argv = " ".join(shlex.quote(w) for w in (HWPROF, *words))
    line = re.sub(r" ([:=]+) ", r"\1", " ".join((HWPROF, *words)))
    out = bash(f"COMP_WORDS=({argv}); COMP_CWORD={len(words)}\n"
               f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}\n_hwprof\n"
               'printf "%s\\n" "${COMPREPLY[@]}"', cwd=cwd)
    return set(out.split("\n")) - {""}


def registered():
    out = bash("complete -p hwprof")
    check(out.strip() == "complete -F _hwprof hwprof", f"complete -p: {out!r}")


def same_commands():
    cmds = set(commands())
    check(len(cmds) >= 7, f"commands of main.c: {cmds}")
    check(complete("") == cmds | {"help", "--help", "--version"},
          f"hwprof <TAB>: {sorted(complete(''))}")
    check(complete("re") == {"record", "report"}, f"hwprof re<TAB>: {complete('re')}")
    check(complete("help", "d") == {"diff", "doctor"}, "hwprof help d<TAB>")


def same_options():
    """Every option of each command's table, and no other; those that take
    an argument are the ones the script completes a value for."""
    for cmd in commands():
        opts, args = command_options(cmd)
        got = complete(cmd, "-")
        check(got == opts, f"{cmd}: missing {sorted(opts - got)}, extra {sorted(got - opts)}")
        have = set(bash(f"printf '%s\\n' $_hwprof_args_{cmd}").split())
        check(have == args, f"{cmd}'s options with an argument: missing "
              f"{sorted(args - have)}, extra {sorted(have - args)}")
    check(complete("stat", "--per-") == {"--per-core", "--per-die", "--per-socket",
                                         "--per-node", "--per-thread", "--per-run"},
          f"stat --per-<TAB>: {complete('stat', '--per-')}")


def events():
    """-e: the names hwprof list --names gives, the last item of a list."""
    names = set(run([HWPROF, "list", "--names", "--no-probe"]).stdout.split())
    check("page-faults" in names and "task-clock" in names, "list --names")
    check(complete("stat", "-e", "page-f") == {"page-faults"},
          f"-e page-f<TAB>: {complete('stat', '-e', 'page-f')}")
    got = complete("record", "--event", "cycles,task-c")
    check(got == {"cycles,task-clock"}, f"--event cycles,task-c<TAB>: {got}")
    got = complete("stat", "-e", "")
    check(got == names, f"-e <TAB>: {len(got)} names of {len(names)}")


def values():
    check(complete("report", "--sort", "") ==
          {"sym", "rip", "line", "dso", "cpu", "comm", "pid"}, "report --sort")
    check(complete("diff", "--mode", "") == {"share", "count", "rate"}, "diff --mode")
    got = complete("report", "-s", "comm,s")
    check(got == {"comm,sym"}, f"report -s comm,s<TAB>: {got}")
    check(complete("report", "-f", "f") == {"folded"}, "report -f f")
    check(complete("stat", "--format", "") ==
          {"text", "csv", "json", "openmetrics", "prometheus"}, "stat --format")
    check(complete("stat", "--format", "=", "j") == {"json"}, "stat --format=j")
    check(complete("stat", "-r", "") == set(), "-r: a number, no candidates")


def files():
    """Files after -i and -o, and as compare's and diff's arguments."""
    with tempfile.TemporaryDirectory() as d:
        for name in ("perf.data", "perf.old", "a.json"):
            open(os.path.join(d, name), "w").close()
        check(complete("report", "-i", "perf.", cwd=d) == {"perf.data", "perf.old"},
              "report -i perf.<TAB>")
        check(complete("stat", "-o", "a", cwd=d) == {"a.json"}, "stat -o a<TAB>")
        check(complete("compare", "a.json", "", cwd=d) == {"perf.data", "perf.old",
                                                           "a.json"}, "compare A <TAB>")


def after_dashes():
    """After '--', the command and its arguments: not hwprof's options."""
    got = complete("stat", "-e", "cycles", "--", "tru")
    check("true" in got, f"-- tru<TAB>: {got}")
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "input.txt"), "w").close()
        got = complete("record", "--", "cat", "in", cwd=d)
        check(got == {"input.txt"}, f"-- cat in<TAB>: {got}")
        got = complete("stat", "--", "ls", "-", cwd=d)
        check("--repeat" not in got, f"-- ls -<TAB>: {got}")


def colons():
    """A name with colons (libpfm4's perf::CYCLES): bash splits the word at
    its colons, and readline replaces the part after them."""
    if not MODE["with"]:
        skip("without bash-completion, bash's own split at ':' is left as it is")
    got = complete("stat", "-e", "perf", "::", "CPU-CYC")
    check(got == {"CPU-CYCLES"}, f"-e perf::CPU-CYC<TAB>: {got}")


for MODE["with"] in WITH:
    sfx = " with bash-completion" if MODE["with"] else ""
    for fn in (registered, same_commands, same_options, events, values, files,
               after_dashes, colons):
        case(fn, name=fn.__name__.replace("_", " ") + sfx)
done()
