#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bad input gets a clear message and the right exit status, never a crash;
output errors never leave a half-written file."""
import json
import os
import resource
import shutil
import stat as st
import struct
import subprocess
import tempfile

from common import (HOTSPOTS, HWPROF, HWPROF_SH, WORKLOAD, WRAPPER, case, check, done, hwprof,
                    in_namespace, skip, under_valgrind)

USAGE = [
    (["stat"], "no command to measure"),
    (["stat", "--bogus", "--", "true"], "unknown option '--bogus'"),
    (["stat", "-r", "0", "--", "true"], "-r: '0'"),
    (["stat", "-r", "x", "--", "true"], "-r: 'x'"),
    (["stat", "-I", "5", "--", "true"], "at least 10" if False else "-I: '5'"),
    (["stat", "-I", "100", "-r", "2", "--", "true"], "cannot be combined"),
    (["stat", "--json", "-x", ",", "--", "true"], "cannot be combined"),
    (["stat", "-x", "", "--", "true"], "separator is empty"),
    (["stat", "-p", "abc"], "not a process id"),
    (["stat", "-p", "1", "-a"], "choose one"),
    (["stat", "--pin", "0", "-a"], "--pin needs a command"),
    (["stat", "-e", "cache-mises", "--", "true"], "did you mean: cache-misses"),
    (["stat", "-e", "{page-faults,", "--", "true"], "position 13"),
    (["stat", "-e", "", "--", "true"], "empty"),
    (["stat", "-e", "cycles:q", "--", "true"], "not a modifier"),
    (["stat", "-M", "x=page-faults /", "-e", "page-faults", "--", "true"], "position"),
    (["stat", "-M", "x=cache-misses / 2", "-e", "page-faults", "--", "true"],
     "'cache-misses' is not an event of the list"),
    (["stat", "-M", "x=cs", "-M", "x=cs", "-e", "cs", "--", "true"], "given twice"),
    (["stat", "--pin", "0-", "--", "true"], "position"),
    # Every limit is said (issue 15, item 12).
    (["stat", "-r", "99999999999", "--", "true"], "from 1 to 1000000"),
    (["stat", "--warmup", "-1", "--", "true"], "from 0 to 1000000"),
    (["stat", "-I", "5", "--", "true"], "from 10 to 3600000"),
    (["stat", "-C", "0-1000000", "--", "true"], "CPU numbers go up to 65535"),
    (["nosuchcommand"], "no command 'nosuchcommand'"),
    (["help", "nosuchcommand"], "no command"),
    (["list", "a", "b"], "one pattern at most"),
]

def usage_errors():
    for args, msg in USAGE:
        p = hwprof(*args)
        check(p.returncode == 2, f"{args}: status {p.returncode}, want 2: {p.stderr}")
        check(msg in p.stderr, f"{args}: stderr lacks {msg!r}: {p.stderr!r}")
        check("Traceback" not in p.stderr and "Sanitizer" not in p.stderr, f"{args}: crash")
    p = hwprof()
    check(p.returncode == 2 and "usage: hwprof" in p.stderr, "no command: usage")
    p = hwprof("--version")
    check(p.returncode == 0 and p.stdout.startswith("hwprof "), p.stdout)


def clear_messages():
    """Messages that say the cause and the fix (issue 15, item 12)."""
    p = hwprof("report", "-i", "/tmp")
    check(p.returncode == 1 and "'/tmp' is a directory" in p.stderr, p.stderr)


def few_descriptors():
    """So few descriptors that hwprof's own pipes fail: the advice is ulimit -n."""
    under_valgrind("valgrind itself needs more than 5 descriptors")
    for cmd in (["stat", "-e", "cs"], ["record", "-e", "cpu-clock", "-o", "/dev/null"]):
        p = hwprof(*cmd, "--", "true",
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (5, 5)))
        check(p.returncode == 1 and "Too many open files" in p.stderr and "ulimit -n" in p.stderr,
              f"{cmd[0]} with 5 descriptors: {p.stderr}")


def escapes():
    """Control characters from the command line never reach the terminal
    raw: an ESC in an argument could rewrite the user's terminal (issue 15,
    item 14). Messages show them escaped."""
    for args in (["stat", "-e", "\x1b[31mred", "--", "true"],
                 ["no\x1b]0;title\x07such"],
                 ["stat", "--bogus\x1b[2J", "--", "true"]):
        p = hwprof(*args)
        check(p.returncode == 2 and "\x1b" not in p.stderr and "\x07" not in p.stderr
              and "\\x1b" in p.stderr, f"{args}: {p.stderr!r}")


def escapes_in_text(d):
    """Text output quotes argv, file names and perf.data strings: their
    control characters are escaped there too, as in JSON."""
    esc = "\x1b]0;owned\x07"
    p = hwprof("stat", "-e", "cs", "--", "true", esc)
    check(p.returncode == 0 and "\x1b" not in p.stderr and "true \\x1b]0;owned\\x07" in p.stderr,
          f"stat's title: {p.stderr!r}")
    p = hwprof("stat", "-e", "cs", "--sweep", f"N=a{esc},b", "--", "true", "{N}")
    check(p.returncode == 0 and "\x1b" not in p.stderr and "N=a\\x1b]0;owned" in p.stderr,
          f"a sweep's columns: {p.stderr!r}")
    files = [os.path.join(d, f"{x}{esc}.json") for x in "ab"]
    for f in files:
        hwprof("stat", "-r", "2", "--json", "-o", f, "-e", "cs", "--", "true")
    p = hwprof("compare", *files)
    check(p.returncode == 0 and "\x1b" not in p.stdout and "a\\x1b]0;owned" in p.stdout,
          f"compare's file names: {p.stdout!r}")
    # A program whose name holds an escape: its module in the report.
    prog = os.path.join(d, f"w{esc}")
    shutil.copy(WORKLOAD, prog)
    data = os.path.join(d, "esc.data")
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", prog, "spin", "0.1")
    check(p.returncode == 0, p.stderr)
    p = hwprof("report", "-i", data)
    check(p.returncode == 0 and "\x1b" not in p.stdout and "w\\x1b]0;owned\\x07" in p.stdout,
          f"report's module names: {p.stdout!r}")


def bad_output_places(d):
    """A bad place fails before the command runs."""
    marker = os.path.join(d, "ran")
    p = hwprof("stat", "-o", os.path.join(d, "no", "such", "dir.json"), "--", "touch", marker)
    check(p.returncode == 1 and "directory does not exist" in p.stderr, p.stderr)
    check(not os.path.exists(marker), "the command did not run")
    p = hwprof("stat", "-o", d, "--", "true")
    check(p.returncode == 1 and "is a directory" in p.stderr, p.stderr)


def unwritable_directory(d):
    ro = os.path.join(d, "ro")
    os.mkdir(ro)
    os.chmod(ro, st.S_IRUSR | st.S_IXUSR)
    if os.geteuid() == 0:
        skip("root writes in a directory of mode 0500 (test_matrix tries a read-only mount)")
    p = hwprof("stat", "-o", os.path.join(ro, "x"), "--", "true")
    check(p.returncode == 1 and "permission" in p.stderr.lower(), p.stderr)


def full_disk():
    """A full disk: an error and status 1."""
    p = hwprof("stat", "-e", "cs", "-o", "/dev/full", "--", "true")
    check(p.returncode == 1 and "No space left" in p.stderr and "free some space" in p.stderr,
          f"/dev/full: what failed and what to do: {p.stderr}")
    # Said once: not again, as an 'Input/output error', at the close.
    check(p.stderr.count("error:") == 1 and "Input/output" not in p.stderr,
          f"/dev/full: one message: {p.stderr}")
    # A sweep's output too: one message, not a second false one at the commit.
    p = hwprof("stat", "--sweep", "N=1,2", "-e", "cs", "-o", "/dev/full", "--", "true", "{N}")
    check(p.returncode == 1 and "No space left" in p.stderr and p.stderr.count("error:") == 1
          and "Input/output" not in p.stderr, f"a sweep to /dev/full: one message: {p.stderr}")
    # Intervals too: the write is what failed, not "waiting for the command".
    p = hwprof("stat", "-I", "100", "-e", "cs", "-o", "/dev/full", "--", "sleep", "0.35")
    check(p.returncode == 1 and "No space left" in p.stderr and "free some space" in p.stderr
          and p.stderr.count("error:") == 1 and "Input/output" not in p.stderr,
          f"intervals to /dev/full: one message: {p.stderr}")
    # A recording too: the message names the file and what to do.
    p = hwprof("record", "-e", "cpu-clock", "-o", "/dev/full", "--", "true")
    check(p.returncode == 1 and "writing '/dev/full' failed: No space left on device; "
          "the file system is full: free some space" in p.stderr, f"record to /dev/full: {p.stderr}")


def record_disk_fills():
    """The disk fills during a recording: sampling stops, the command
    finishes its work, and the file keeps what was complete, readable; the
    summary says how much was written and why it stopped; status 1. In a
    64 KiB tmpfs of a mount namespace of our own."""
    d = "/tmp/hwprof-full-disk"
    p = in_namespace(
        f"mkdir -p {d} && mount -t tmpfs -o size=64k none {d} && "
        f"{HWPROF_SH} record -e cpu-clock -F 4000 -o {d}/x.data -- "
        f"sh -c '{WORKLOAD} cpuspin 1; echo finished'; echo status $?; "
        f"{HWPROF_SH} report -i {d}/x.data --format json; echo report $?", timeout=120)
    out = p.stdout
    check("finished" in out, f"the command finished its work: {out[:200]} {p.stderr}")
    check("status 1" in out, f"hwprof's status is 1: {out[:300]}")
    check("No space left" in p.stderr and "free some space" in p.stderr, p.stderr)
    check("stopped" in p.stderr and "samples" in p.stderr and "written to" in p.stderr,
          f"how much was written, and that sampling stopped: {p.stderr}")
    check("report 0" in out, f"the file reads: {out[-300:]} {p.stderr}")
    doc = json.loads(out[out.index("{"):out.rindex("}") + 1]) if "{" in out else None
    check(doc and doc["total_samples"] > 100, "the samples before the disk filled are kept")


def file_size_limit():
    """Past the file size limit: EFBIG explained, not death by SIGXFSZ; the
    file keeps what was complete and reads, and nothing else is left."""
    with tempfile.TemporaryDirectory() as small:
        big = os.path.join(small, "big.data")
        p = hwprof("record", "-e", "cpu-clock", "-F", "4000", "-o", big, "--", HOTSPOTS,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)))
        check(p.returncode == 1 and "File too large" in p.stderr and "ulimit -f" in p.stderr,
              f"record past ulimit -f: status {p.returncode}: {p.stderr}")
        check(os.listdir(small) == ["big.data"], f"the file alone: {os.listdir(small)}")
        r = hwprof("report", "-i", big)
        check(r.returncode == 0, f"what was complete reads: {r.stderr}")


def data_fits_features_do_not():
    """The limit falls past the samples but inside the feature sections
    written at the end (build-ids, command line...): every sample is kept
    and the file reads, without them. (The file was lost: the writer gave
    up at the end, which on a loaded machine is where a 64 KiB limit fell.)
    Page faults, one sample each, give the same data size every run, give
    or take a few samples, far fewer than the ~2 KB of features."""
    with tempfile.TemporaryDirectory() as small:
        data = os.path.join(small, "pf.data")
        args = ["record", "-e", "page-faults", "-c", "1", "-o", data, "--",
                WORKLOAD, "pages", "300"]
        p = hwprof(*args)
        if not check(p.returncode == 0, p.stderr):
            return
        with open(data, "rb") as f:
            whole = f.read()
        off, size = struct.unpack_from("<QQ", whole, 40)
        limit = off + size + (len(whole) - off - size) // 2
        os.unlink(data)
        p = hwprof(*args, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE,
                                                                (limit, limit)))
        check(p.returncode == 1 and "ulimit -f" in p.stderr, f"status {p.returncode}: {p.stderr}")
        check(os.listdir(small) == ["pf.data"], f"the file alone: {os.listdir(small)}")
        r = hwprof("report", "-i", data, "--format", "json")
        check(r.returncode == 0 and json.loads(r.stdout)["total_samples"] >= 300,
              f"every sample reads: {r.stderr} {r.stdout[:300]}")


def old_file_kept(d):
    """The old file is kept whole when a new run fails before writing."""
    d = os.path.join(d, "keep")
    os.mkdir(d)
    out = os.path.join(d, "keep.json")
    with open(out, "w") as f:
        f.write("old")
    p = hwprof("stat", "--json", "-o", out, "-e", "cs", "--", "no-such-command-xyz")
    check(p.returncode == 127, p.stderr)
    check(open(out).read() == "old", "the old file is untouched")
    check(os.listdir(d) == ["keep.json"], f"no leftovers: {os.listdir(d)}")


def stdout_full():
    """stdout closed or full: an error, not silence."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([*WRAPPER, HWPROF, "list", "--names", "page"], stdout=full,
                           stderr=subprocess.PIPE, text=True, timeout=30)
    check(p.returncode == 1 and "No space left" in p.stderr, f"list to /dev/full: {p.stderr}")


def group_too_large():
    """A group larger than the kernel reads at once (about 1,022 members):
    the members past the limit say so, with the limit and how to split, and
    the ones that fit count."""
    p = hwprof("stat", "--json", "-o", "-", "-e", "{" + ",".join(["cs"] * 1100) + "}",
               "--", "true")
    check(p.returncode == 0, p.stderr)
    doc = json.loads(p.stdout)
    counted = [e for e in doc["events"] if e["supported"]]
    refused = [e for e in doc["events"] if not e["supported"]]
    check(900 < len(counted) < 1100 and len(counted) + len(refused) == 1100,
          f"{len(counted)} counted, {len(refused)} refused")
    for e in refused[:1] + refused[-1:]:
        check(f"at most {len(counted)} members" in e["reason"] and "split" in e["reason"],
              e["reason"])


case(usage_errors)
case(clear_messages)
case(few_descriptors)
case(escapes)
case(group_too_large)
with tempfile.TemporaryDirectory() as tmp:
    case(bad_output_places, tmp)
    case(escapes_in_text, tmp)
    case(unwritable_directory, tmp)
    case(full_disk)
    case(record_disk_fills)
    case(file_size_limit)
    case(data_fits_features_do_not, name="file size limit inside the features")
    case(old_file_kept, tmp)
case(stdout_full)
done()
