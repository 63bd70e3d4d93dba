#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad input and faults, one row a case: the input, the exit status it must
give and a fragment of its message. None may crash or hang: each runs with
a timeout, and a sanitizer report or a signal death fails it."""
import os
import shutil
import subprocess
import tempfile

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, skip

SHIM = os.environ.get("PERF_SHIM", "")
with open("/proc/sys/kernel/perf_event_paranoid") as _f:
    PARANOID = int(_f.read())
tmp = tempfile.mkdtemp()
notexec = os.path.join(tmp, "notexec")
open(notexec, "w").close()
os.chmod(notexec, 0o644)

LONG = "a" * 70000
MANY = ",".join(["cs"] * 5000)
DEEP = "x=" + "(" * 100 + "cs" + ")" * 100


def shim(mode):
    return {"LD_PRELOAD": SHIM, "HWPROF_SHIM": mode} if SHIM else None


S = ["stat"]
ROWS = [
    # event lists
    (S + ["-e", "", "--", "true"], 2, "it is empty"),
    (S + ["-e", "   ", "--", "true"], 2, "it is empty"),
    (S + ["-e", "nosuchevent", "--", "true"], 2, "unknown event 'nosuchevent'"),
    (S + ["-e", "cache-mises", "--", "true"], 2, "did you mean: cache-misses"),
    (S + ["-e", "instrucitons", "--", "true"], 2, "did you mean: instructions"),
    (S + ["-e", "{cycles", "--", "true"], 2, "missing '}'"),
    (S + ["-e", "cycles}", "--", "true"], 2, "'}' without '{'"),
    (S + ["-e", "{{cs}}", "--", "true"], 2, "do not nest"),
    (S + ["-e", "cs,,cs", "--", "true"], 2, "expected an event name"),
    (S + ["-e", "cycles:q", "--", "true"], 2, "not a modifier"),
    (S + ["-e", "cycles:pppp", "--", "true"], 2, "not a modifier"),
    (S + ["-e", "{cs,cs}:z", "--", "true"], 2, "bad group modifiers"),
    (S + ["-e", LONG, "--", "true"], 2, "longer than"),
    (S + ["-e", "{" + MANY + "}", "--", "true"], 2, "more than 4096 events"),
    (S + ["-e", "nosuchsys:nosuchevent", "--", "true"], 2, "unknown event 'nosuchsys:nosuchevent'"),
    (S + ["-e", "nosuchpmu/event=0x3c/", "--", "true"], 2, "no PMU 'nosuchpmu'"),
    (S + ["-e", "r12x", "--", "true"], 2, "unknown event"),
    (S + ["-e", "cs\x01", "--", "true"], 2, "unexpected character"),
    # metric formulas
    (S + ["-e", "cs", "-M", "x=cs +", "--", "true"], 2, "before the end"),
    (S + ["-e", "cs", "-M", "x=cs ) + 1", "--", "true"], 2, "unbalanced ')'"),
    (S + ["-e", "cs", "-M", "x=nosuch / cs", "--", "true"], 2, "'nosuch' is not an event"),
    (S + ["-e", "cs", "-M", "=cs", "--", "true"], 2, "name before '=' is empty"),
    (S + ["-e", "cs", "-M", DEEP, "--", "true"], 2, "64 deep"),
    (S + ["-e", "cs", "-M", "x=cs / 0", "--", "true"], 0, "division by zero"),
    (S + ["-e", "cs", "-M", "x=(cs + 1) * 1e300 * 1e300", "--", "true"], 0, "overflows"),
    (S + ["-e", "cs", "-M", "x=1e999", "--", "true"], 2, "out of range"),
    # commands
    (S + ["-e", "cs", "--", "no-such-command-xyz"], 127, "not found"),
    (S + ["-e", "cs", "--", ""], 127, "the command is empty"),
    (S + ["-e", "cs", "--", notexec], 126, "not executable"),
    (S + ["-e", "cs", "--", "/"], 126, "is a directory"),
    (S + ["-e", "cs", "--", WORKLOAD, "kill", "9"], 137, "Performance counter stats"),
    (S + ["-e", "cs", "--", WORKLOAD, "kill", "11"], 139, "Performance counter stats"),
    (S + ["-e", "cs", "--", WORKLOAD, "exit", "7"], 7, "Performance counter stats"),
    (S + ["-e", "cs", "--", "sh", "-c", "exec >&-; exec 2>&-; exit 0"], 0, ""),
    (S + ["-e", "page-faults", "--", WORKLOAD, "orphans", "5"], 0, "page-faults"),
    # targets
    (S + ["-p", "999999", "-e", "cs", "--", "true"], 1, "process 999999 does not exist"),
    (S + ["-p", "0", "--", "true"], 2, "not a process id"),
    (S + ["-p", "-5", "--", "true"], 2, "not a process id"),
    (S + ["-C", "4095", "-e", "cs", "--", "true"], 1, "not online"),
    (S + ["-C", "0-", "-e", "cs", "--", "true"], 2, "position"),
    (S + ["--pin", "4095", "-e", "cs", "--", "true"], 1, "not online"),
    # usage
    (S + ["--bogus", "--", "true"], 2, "unknown option"),
    (S + ["-r", "0", "--", "true"], 2, "number of runs"),
    (S + ["-I", "1", "--", "true"], 2, "milliseconds"),
    (S, 2, "no command to measure"),
    (S + ["--json", "-x", ";", "--", "true"], 2, "cannot be combined"),
    (S + ["--format", "openmetrics", "--json", "--", "true"], 2,
     "--format openmetrics and --json cannot be combined"),
    (S + ["--format", "text", "-x", ",", "--", "true"], 2,
     "--format text and -x cannot be combined"),
    (S + ["--format", "yaml", "--", "true"], 2,
     "--format: 'yaml' is not text, csv, json, openmetrics or prometheus"),
    # Each command's options, by its one table: a value that is missing,
    # and an option of another command.
    (S + ["-e"], 2, "unknown option '-e'"),
    (["record", "--json"], 2, "unknown option '--json'; 'hwprof record --help'"),
    (["report", "-s"], 2, "unknown option or missing value '-s'; 'hwprof report --help'"),
    (["diff", "--mode"], 2, "unknown option or missing value '--mode'"),
    (["compare", "--test"], 2, "unknown option '--test'; 'hwprof compare --help'"),
    (["list", "--probe"], 2, "unknown option '--probe'; 'hwprof list --help'"),
    (["doctor", "-x"], 2, "unknown option '-x'; 'hwprof doctor --help'"),
    # -h ends the parsing: the help, not the error of what follows
    (S + ["-e", "cs", "-h", "--bogus"], 0, ""),
    (["list", "a", "b"], 2, "one pattern at most"),
    (["frobnicate"], 2, "no command 'frobnicate'"),
    # output
    (S + ["-e", "cs", "-o", os.path.join(tmp, "no", "dir", "x"), "--", "true"], 1,
     "directory does not exist"),
    (S + ["-e", "cs", "-o", tmp, "--", "true"], 1, "is a directory"),
    (S + ["-e", "cs", "-o", "/dev/full", "--", "true"], 1, "No space left"),
    (S + ["-e", "cs", "--json", "-o", "/dev/full", "--", "true"], 1, "No space left"),
]

# Permission and resources, through the perf_event_open shim.
if SHIM:
    ROWS += [
        (S + ["-e", "cs", "--", "true"], 1, "kernel.perf_event_paranoid is", shim("eacces")),
        # Refused even in user space: at 2 or less the setting is not the
        # cause, and its advice would not help.
        (S + ["-e", "cs", "--", "true"], 1,
         "sudo setcap cap_perfmon+ep" if PARANOID >= 3 else "a security policy refuses",
         shim("eacces")),
        (S + ["-e", "cs", "--", "true"], 0, "counts user space only", shim("eacces-kernel")),
        (S + ["-a", "-e", "cs", "--", "true"], 1, "system-wide counting needs 0", shim("eacces-kernel")),
        (S + ["-e", "cs,page-faults", "--", "true"], 1, "ulimit -n", shim("emfile")),
        (S + ["-e", "cycles,cs", "--", "true"], 0, "<not supported>", shim("ebusy")),
        (["list", "--names", "page-faults"], 0, "", shim("eacces")),
    ]

def row_case(args, status, fragment, env):
    """One row: False when it hangs."""
    try:
        p = subprocess.run([*WRAPPER, HWPROF, *args], capture_output=True, text=True,
                           timeout=30, env=env, errors="replace")
    except subprocess.TimeoutExpired:
        check(False, "hangs")
        return False
    check(p.returncode == status, f"status {p.returncode}, want {status}: {p.stderr[-300:]}")
    check(fragment in p.stderr, f"stderr lacks {fragment!r}: {p.stderr[-300:]!r}")
    for bad in ("Sanitizer", "runtime error", "Segmentation", "core dumped", "Traceback"):
        check(bad not in p.stderr, f"{bad} in stderr")
    return True


def unwritable_directory():
    """A directory we may not write to: as root, a read-only bind mount in a
    mount namespace of our own; otherwise a directory without write permission."""
    ro = os.path.join(tmp, "ro")
    os.mkdir(ro)
    hw = " ".join([*WRAPPER, HWPROF])
    if os.geteuid() == 0 and shutil.which("unshare"):
        cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c",
               f"mount --bind -o ro {ro} {ro} && exec {hw} stat -e cs -o {ro}/x.json -- true"]
    else:
        os.chmod(ro, 0o555)
        cmd = [*WRAPPER, HWPROF, "stat", "-e", "cs", "-o", f"{ro}/x.json", "--", "true"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    if "mount:" in p.stderr:
        skip(f"no read-only mount here: {p.stderr.strip()}")
    check(p.returncode == 1 and "cannot write" in p.stderr and
          ("read-only" in p.stderr.lower() or "no permission" in p.stderr),
          f"an unwritable directory: {p.returncode} {p.stderr}")
    return True


def stdout_closed():
    """hwprof's own stdout closed, with the report going there: an error, not
    silence."""
    if WRAPPER:
        skip("under valgrind, its log file takes the free descriptor 1")
    p = subprocess.run(f"exec {HWPROF} stat -e cs -o - -- true >&-",
                       shell=True, capture_output=True, text=True, timeout=30)
    check(p.returncode == 1 and "writing" in p.stderr, f"stdout closed: {p.returncode} {p.stderr}")
    return True


def enough_ran():
    check(ran >= 40, f"{ran} cases ran")


ran = 0
for row in ROWS:
    args, status, fragment = row[0], row[1], row[2]
    env = dict(os.environ, **(row[3] if len(row) > 3 and row[3] else {}))
    label = " ".join(a if len(a) < 40 else a[:20] + "..." for a in args)
    if row[3:] and row[3]:
        label = f"{label} (shim: {row[3]['HWPROF_SHIM']})"
    ran += bool(case(row_case, args, status, fragment, env,
                     name=f"{label}: {status}" + (f", '{fragment}'" if fragment else "")))
if not SHIM:
    case(skip, "$PERF_SHIM is not set (meson test sets it)", name="permission and resource rows")
ran += bool(case(unwritable_directory))
ran += bool(case(stdout_closed))

case(enough_ran, name="the rows ran")
shutil.rmtree(tmp)
done()
