# SPDX-License-Identifier: MIT
"""What the CLI tests share: running hwprof, and a harness that speaks TAP
13 as tests/harness.h does, for meson's protocol: 'tap'.

A test script is a list of cases: case(fn, *args) runs fn(*args) as one
case, named after the function (def json_output: "json output") or by
name=. check() records a failure, with its file:line and message as a TAP
diagnostic, and goes on; a case with a failed check is "not ok", and so is
a case that checked nothing, or that raised (its traceback is shown, and
the script goes on with the next case). skip(reason) within a case: the
rest of it cannot run here ("ok 3 - system wide # SKIP reason"); outside
any case, before one ran: the whole script ("1..0 # SKIP reason"). done()
prints the plan and exits, 1 when a case failed.

HWPROF_TEST_CASE=PATTERN (a shell pattern) runs the cases whose names
match; the others are reported as skipped, not selected. Standard output
is the TAP stream: print() and the programs the tests start write to
standard error."""
import atexit
import csv
import difflib
import fnmatch
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

HWPROF = os.environ.get("HWPROF", "build/cli/hwprof")
# "valgrind ...": every hwprof run goes through it (meson test --setup valgrindcli).
WRAPPER = os.environ.get("HWPROF_WRAPPER", "").split()
WORKLOAD = os.environ.get("WORKLOAD", "build/tests/workload")
HOTSPOTS = os.environ.get("HOTSPOTS", "build/tests/hotspots")
# Whether hwprof was built with libdw, which symbols and source lines need.
HAVE_LIBDW = os.environ.get("HWPROF_LIBDW", "1") == "1"

# The TAP stream keeps standard output; print() and children get stderr.
sys.stdout.flush()
_tap = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(2, 1)
_tap.write("TAP version 13\n")

_checks = 0
_failures = 0
_reported = 0
_case = None    # the case under way: {"name", "checks", "failures", "implicit"}
_finished = False


class Skipped(Exception):
    """skip() within a case: the rest of the case cannot run here."""


def _line(text):
    _tap.write(text + "\n")


def note(msg):
    """A TAP diagnostic: '# ' before each line of MSG."""
    for line in str(msg).splitlines() or [""]:
        _line(f"# {line}")


def _begin(name, implicit=False):
    global _case
    _case = {"name": name.replace("#", "_").replace("\n", " "), "checks": 0, "failures": 0,
             "implicit": implicit}


def _end(skipped=None):
    """Report the case under way: not ok, skipped or ok."""
    global _case, _reported, _failures
    c, _case = _case, None
    if c is None:
        return
    _reported += 1
    if c["failures"]:
        if skipped:
            note(f"then skipped: {skipped}")
        _line(f"not ok {_reported} - {c['name']}")
    elif skipped:
        _line(f"ok {_reported} - {c['name']} # SKIP {' '.join(skipped.split())}")
    elif not c["checks"]:
        note("FAIL: no check ran: this case could not have failed")
        _failures += 1
        _line(f"not ok {_reported} - {c['name']}")
    else:
        _line(f"ok {_reported} - {c['name']}")


def _script_case():
    """Checks outside any case belong to one named after the script."""
    if _case is None:
        _begin(os.path.basename(sys.argv[0]), implicit=True)


def case(fn, *args, name=None):
    """Run fn(*args) as one case; what it returns."""
    global _failures
    _end()
    if name is None:
        name = fn.__name__
        for prefix in ("test_", "check_"):
            if name.startswith(prefix):
                name = name[len(prefix):]
        name = name.replace("_", " ")
    _begin(name)
    only = os.environ.get("HWPROF_TEST_CASE")
    if only and not fnmatch.fnmatchcase(_case["name"], only):
        _end(skipped=f"not selected by HWPROF_TEST_CASE={only}")
        return None
    skipped, ret = None, None
    try:
        ret = fn(*args)
    except Skipped as e:
        skipped = str(e)
    except Exception:   # noqa: BLE001: a case that raises fails, the next runs
        _case["failures"] += 1
        _failures += 1
        note("FAIL: the case raised:\n" + traceback.format_exc().rstrip())
    _end(skipped)
    return ret


def check(cond, msg):
    global _checks, _failures
    _script_case()
    _checks += 1
    _case["checks"] += 1
    if not cond:
        _failures += 1
        _case["failures"] += 1
        frame = sys._getframe(1)
        note(f"FAIL {os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}: {msg}")
    return cond


def _finish(status):
    global _finished
    _finished = True
    sys.exit(status)


def done():
    _end()
    note(f"{_checks} checks, {_failures} failed")
    _line(f"1..{_reported}")
    _finish(1 if _failures else 0)


def skip(reason):
    """What follows cannot run here, for REASON: the rest of the case under
    way, or, outside a case, the whole script."""
    if _case is not None and not _case["implicit"]:
        raise Skipped(reason)
    if not _reported and (_case is None or not _case["checks"]):
        _line(f"1..0 # SKIP {' '.join(str(reason).split())}")
        _finish(0)
    # Some cases ran: the rest of the script is skipped.
    _script_case()
    _end(skipped=reason)
    _line(f"1..{_reported}")
    _finish(1 if _failures else 0)


@atexit.register
def _bail_out():
    if not _finished:
        _line(f"Bail out! {os.path.basename(sys.argv[0])} ended before done()")


# Under valgrind a command takes 10-50 times as long: the same factor as
# the meson setups' timeout_multiplier, so that a case is not cut short.
TIMEOUT_FACTOR = 10 if WRAPPER else 1


def run(args, timeout=60, **kw):
    """Run a command; returns CompletedProcess with text stdout/stderr."""
    if timeout is not None:
        timeout *= TIMEOUT_FACTOR
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)


# Every report a test makes is made twice, with its records read on a thread
# of their own (--threads 2) and on the one thread alone (--threads 1): the
# two must say the same, byte for byte. A script whose reports change what
# the next one finds (a cache it counts the reads of) sets this False; a
# report whose output the machine may change between the two runs (of a
# system-wide recording: other programs' files, rebuilt or removed
# meanwhile) passes both_ways=False.
REPORT_BOTH_WAYS = True


def _output_file(args):
    for i, a in enumerate(args):
        if a in ("-o", "--output") and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--output=") or (a.startswith("-o") and len(a) > 2):
            return a.split("=", 1)[1] if a.startswith("--") else a[2:]
    return "-"


def _both_ways(args, kw):
    """Whether this run is a report to make both ways: not under valgrind
    (twice as slow), not one that writes a file or reads a stream that
    can be read once."""
    return (REPORT_BOTH_WAYS and not WRAPPER and args and args[0] == "report"
            and _output_file([str(a) for a in args]) == "-" and "stdin" not in kw)


def hwprof(*args, both_ways=True, **kw):
    if not both_ways or not _both_ways(args, kw):
        return run([*WRAPPER, HWPROF, *args], **kw)
    two = run([HWPROF, *args, "--threads", "2"], **kw)
    one = run([HWPROF, *args, "--threads", "1"], **kw)
    # A failure when they differ; not a check of the case's own when not.
    if (two.returncode, two.stdout, two.stderr) != (one.returncode, one.stdout, one.stderr):
        diff = difflib.unified_diff((two.stdout + two.stderr).splitlines(),
                                    (one.stdout + one.stderr).splitlines(),
                                    "two threads", "one thread", lineterm="", n=2)
        check(False, f"hwprof {shlex.join(map(str, args))}: read by two threads (status "
              f"{two.returncode}) and by one (status {one.returncode}), the outputs differ:\n"
              + "\n".join(list(diff)[:40]))
    return two


def in_namespace(script, **kw):
    """SCRIPT run by sh in a mount namespace of our own, so that what it
    mounts (tracefs) is gone when it ends; skips the case where that needs
    what this machine lacks (root, unshare(1))."""
    unshare = shutil.which("unshare")
    if os.geteuid() != 0 or not unshare:
        skip("tracefs is mounted in a namespace of our own: that needs root and unshare(1)")
    return run([unshare, "--mount", "--propagation", "private", "sh", "-c", script], **kw)


# hwprof, as a shell command for in_namespace()
HWPROF_SH = " ".join(shlex.quote(a) for a in [*WRAPPER, HWPROF])


def perf_sampler():
    """perf's path, where it can record cpu-clock samples; else skip."""
    perf = shutil.which("perf")
    if not perf or run([perf, "record", "-e", "cpu-clock", "-o", "/dev/null", "true"]).returncode:
        skip("perf is not installed (Debian: linux-perf), or perf record cannot sample here")
    return perf


def under_valgrind(why):
    """Skip a test whose timing valgrind would upset, saying so."""
    if WRAPPER:
        skip(f"under {os.path.basename(WRAPPER[0])}: {why}")


def parsed_json(p):
    """(process, its stdout parsed as JSON, or None after saying why)."""
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        note(f"not JSON (status {p.returncode}): stdout={p.stdout!r} stderr={p.stderr!r}")
        return p, None


def stat_json(*args, **kw):
    """hwprof stat --json -o - ARGS; returns (process, parsed JSON or None)."""
    return parsed_json(hwprof("stat", "--json", "-o", "-", *args, **kw))


def report_json(path, *args, **kw):
    """hwprof report --format json -i PATH ARGS; returns (process, parsed JSON or None)."""
    return parsed_json(hwprof("report", "--format", "json", "-i", path, *args, **kw))


def entry(doc, symbol):
    """The entry of a report whose symbol is SYMBOL, or None."""
    return next((e for e in doc["entries"] if e["symbol"] == symbol), None)


def marked_lines(path, mark):
    """The line numbers of PATH that carry the comment mark, e.g. LINE:hot."""
    with open(path) as f:
        return {i for i, line in enumerate(f, 1) if mark in line}


def stat_csv(*args, sep=",", **kw):
    p = hwprof("stat", "-x", sep, "-o", "-", *args, **kw)
    return p, list(csv.reader(io.StringIO(p.stdout), delimiter=sep))


def event(doc, name):
    for e in doc["events"]:
        if e["event"] == name:
            return e
    return None


def metric(doc, name):
    for m in doc["metrics"]:
        if m["metric"] == name:
            return m
    return None


def wait_attached(pid, timeout=60, events=1):
    """Wait until process @pid (hwprof, maybe under valgrind) has @events
    perf events open: a test that races a sleep against hwprof's start-up
    fails on a loaded machine. False after @timeout seconds or when it
    exited."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            return False
        n = 0
        for fd in fds:
            try:
                n += "perf_event" in os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                pass  # closed meanwhile
        if n >= events:
            return True
        time.sleep(0.02)
    return False


def have_hw_pmu():
    """What the library decides too: a PMU of type PERF_TYPE_RAW in sysfs."""
    base = "/sys/bus/event_source/devices"
    try:
        for d in os.listdir(base):
            if d.startswith("cpu_") or d.startswith("armv"):
                return True
            try:
                with open(f"{base}/{d}/type") as f:
                    if f.read().strip() == "4":
                        return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def ncpus():
    return len(os.sched_getaffinity(0))


def need_system_wide():
    """Skip the case where counting every task (-a) is refused."""
    p = hwprof("stat", "-a", "-e", "cpu-clock", "--", "true")
    if p.returncode != 0:
        skip(f"system-wide counting is refused here: {p.stderr.strip()}")


def cgroup2_mount():
    with open("/proc/self/mountinfo") as f:
        for line in f:
            pre, _, post = line.partition(" - ")
            if post.split()[0] == "cgroup2":
                return pre.split()[4]
    return None


class TestCgroup:
    """A cgroup v2 of our own under the v2 mount (this machine's hybrid
    layout has it at /sys/fs/cgroup/unified), removed at the end."""

    def __enter__(self):
        mnt = cgroup2_mount()
        if not mnt:
            skip("no cgroup v2 hierarchy is mounted")
        self.name = f"hwprof-test-{os.getpid()}"
        self.path = os.path.join(mnt, self.name)
        try:
            os.mkdir(self.path)
        except OSError as e:
            skip(f"cannot create a cgroup under {mnt}: {e}")
        return self

    def enter_and_run(self, *argv):
        """sh that moves itself into the cgroup, then execs ARGV."""
        procs = os.path.join(self.path, "cgroup.procs")
        return ["sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", *argv]

    def __exit__(self, *exc):
        os.rmdir(self.path)


def jsonschema_python():
    """A Python that has jsonschema: this one, or Debian's python3-jsonschema's."""
    for py in (sys.executable, "/usr/bin/python3"):
        if py and os.path.exists(py) and subprocess.run(
                [py, "-c", "import jsonschema"], capture_output=True).returncode == 0:
            return py
    return None


# The source tree, for the tests that read it (option tables, docs, schemas).
SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def option_entries(cmd):
    """The options of cli/cmd-CMD.c's one option table (struct cli_option:
    CLI_OPT, CLI_OPT_ALSO; a CLI_OPT_FORM is a line of --help, not an
    option): for each, (its names, whether it takes a value), with --NAME
    for its name and -K for a key that is a letter."""
    with open(os.path.join(SRC, "cli", f"cmd-{cmd}.c")) as f:
        text = f.read()
    table = re.search(r"static const struct cli_option \w+\[\] = \{(.*?)\n\};", text, re.S)
    if not table:
        raise ValueError(f"cli/cmd-{cmd}.c has no struct cli_option table")
    entries = re.findall(r'\bCLI_OPT(|_ALSO|_FORM)\(\s*([^,]+?),\s*(NULL|"[^"]*"),'
                         r'\s*(NULL|"[^"]*")', table.group(1))
    out = []
    for kind, key, name, arg in entries:
        if kind == "_FORM":
            continue
        names = ["--" + name.strip('"')] if name != "NULL" else []
        if re.fullmatch(r"'[A-Za-z0-9]'", key):
            names.append("-" + key[1])
        out.append((names, arg != "NULL"))
    return out


def command_options(cmd):
    """(every option, the options that take a value) of cli/cmd-CMD.c."""
    opts, args = set(), set()
    for names, takes_value in option_entries(cmd):
        opts.update(names)
        if takes_value:
            args.update(names)
    return opts, args


SETPRIV = shutil.which("setpriv")
NOBODY = [SETPRIV or "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
          "--inh-caps=-all"]


def stage_for_nobody(others=()):
    """A build tree under a directory of mode 0700 (mktemp -d, as a fresh
    clone in /tmp has it) is out of nobody's reach: hwprof, its library and
    the programs @others (None stays None) are copied where nobody can run
    them, removed at exit. Returns hwprof's path and the others', copied or
    not as nobody needs."""
    if run([*NOBODY, "test", "-x", HWPROF]).returncode == 0:
        return HWPROF, list(others)
    d = tempfile.mkdtemp(prefix="hwprof-nobody.")
    atexit.register(shutil.rmtree, d, True)
    os.chmod(d, 0o755)
    for sub in ("cli", "lib"):
        os.mkdir(os.path.join(d, sub))
    lib = os.path.join(os.path.dirname(os.path.dirname(HWPROF)), "lib")
    for name in os.listdir(lib):
        if name.startswith("libhwprof.so") and not name.endswith(".p"):
            shutil.copy(os.path.join(lib, name), os.path.join(d, "lib", name))
    hwprof = shutil.copy(HWPROF, os.path.join(d, "cli"))   # $ORIGIN/../lib
    return hwprof, [o and shutil.copy(o, d) for o in others]


GO = shutil.which("go") or next((g for g in ("/usr/lib/go/bin/go",) if os.path.exists(g)),
                                None)


def pprof(d, *args):
    """go tool pprof ARGS (Debian's golang-go), its caches in directory D:
    its stdout, or None after saying why."""
    if not GO:
        skip("go is not installed (Debian's golang-go; make test installs it): "
             "go tool pprof is what reads the files")
    env = dict(os.environ, HOME=d, GOCACHE=os.path.join(d, "gocache"), GOFLAGS="",
               PPROF_TMPDIR=d, PPROF_BINARY_PATH="/nonexistent")
    p = run([GO, "tool", "pprof", *args], timeout=120, env=env)
    if not check(p.returncode == 0, f"go tool pprof {' '.join(args)}: {p.stderr[-800:]}"):
        return None
    return p.stdout


def run_as_nobody(hwprof, *args, **kw):
    """@hwprof as nobody. Under valgrind, whose log goes to the build tree
    that nobody may not write, the log goes to a directory nobody may write,
    and comes back where `make test-valgrind` looks for it."""
    logs = [a for a in WRAPPER if a.startswith("--log-file=")]
    if not logs:
        return run([*NOBODY, *WRAPPER, hwprof, *args], **kw)
    dest = os.path.dirname(logs[0].split("=", 1)[1])
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o777)
        # Its suppressions, in the build's source tree, may be out of reach too.
        wrapper = [f"--log-file={d}/{os.path.basename(logs[0])}" if a in logs else
                   "--suppressions=" + shutil.copy(a.split("=", 1)[1], d)
                   if a.startswith("--suppressions=") else a for a in WRAPPER]
        p = run([*NOBODY, *wrapper, hwprof, *args], **kw)
        for name in os.listdir(d):
            if name.endswith(".log"):
                shutil.copy(os.path.join(d, name), dest)
                # A failure with nothing on standard error (status 1, once
                # in CI) would be valgrind's own, said in its log: the
                # check's message shows it.
                if p.returncode != 0:
                    with open(os.path.join(d, name), errors="replace") as f:
                        p.stderr += f"\n[{name}: {f.read()[-1500:]}]"
    return p


def traced(*args, env=None, calls="ioctl,getsid,getpid,newfstatat,stat,access"):
    """hwprof's own system calls of the names in @calls (strace without -f:
    the command's are not there), as a list of lines, and the run. Counts,
    not times: what a run asks the kernel is the same at any load."""
    if WRAPPER:
        skip("the system calls of a wrapped hwprof are the wrapper's too")
    strace = shutil.which("strace")
    if not strace:
        skip("no strace")
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "strace")
        p = run([strace, "-o", log, "-e", "trace=" + calls, HWPROF, *args], env=env)
        if p.returncode and "ptrace" in p.stderr:
            skip(f"strace cannot trace here: {p.stderr.strip()[-300:]}")
        with open(log) as f:
            lines = f.read().splitlines()
    check(p.returncode == 0, f"hwprof {' '.join(args)}: {p.returncode}: {p.stderr[-2000:]}")
    return lines, p
