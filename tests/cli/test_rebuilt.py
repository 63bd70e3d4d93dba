#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A program built without a build-id (-Wl,--build-id=none), recorded,
then rebuilt with another function: its file on disk is another build,
which no build-id tells, but the recording does: the MMAP2 records carry
the mapped file's device and inode, and hwprof record writes each such
file's size and modification time in a section of its own. The report
then shows the module's addresses, not the new build's names, and says
why; an unchanged file keeps its names. A file rewritten in place (the
same inode) is told by its size and time; perf's --no-buildid files by
the inode and its generation (a number given again). A path two files
were mapped at while recording names neither; a file recorded with a
build-id and rebuilt without one is another build. perf still reads
hwprof's files."""
import array
import fcntl
import os
import re
import shutil
import tempfile

import perfedit

from common import (HAVE_LIBDW, case, check, done, entry, hwprof, perf_sampler, report_json,
                    run, skip)

V1 = """volatile unsigned long sink;
__attribute__((noinline)) void alpha(void) { for (unsigned long i = 0; i < 60000000UL; i++) sink += i; }
__attribute__((noinline)) void beta(void) { for (unsigned long i = 0; i < 30000000UL; i++) sink += i * 3; }
int main(void) { alpha(); beta(); return 0; }
"""
# zeta comes first: at alpha's old address
V2 = """volatile unsigned long sink;
__attribute__((noinline)) void zeta(void) { for (unsigned long i = 0; i < 7UL; i++) sink ^= i * 5; }
__attribute__((noinline)) void alpha(void) { for (unsigned long i = 0; i < 60000000UL; i++) sink += i; }
__attribute__((noinline)) void beta(void) { for (unsigned long i = 0; i < 30000000UL; i++) sink += i * 3; }
int main(void) { zeta(); alpha(); beta(); return 0; }
"""
REASON = "another build than the one recorded"
FS_IOC_GETVERSION = 0x80087601

if not HAVE_LIBDW:
    skip("hwprof was built without libdw: no symbols")


def build(d, source, exe, build_id="none"):
    src = os.path.join(d, os.path.basename(exe) + ".c")
    with open(src, "w") as f:
        f.write(source)
    p = run([*os.environ.get("CC", "cc").split(), "-O1", "-fno-inline",
             f"-Wl,--build-id={build_id}", "-o", exe, src])
    check(p.returncode == 0, f"cc: {p.stderr}")
    p = run(["readelf", "-n", exe]) if shutil.which("readelf") else None
    check(not p or ("Build ID" in p.stdout) == (build_id != "none"),
          f"built with build-id {build_id}: {p and p.stdout}")


def recorded(d, name, perf=None, build_id="none"):
    """V1 built as D/NAME and recorded, by hwprof or by PERF --no-buildid."""
    exe = os.path.join(d, name)
    build(d, V1, exe, build_id)
    data = exe + ".data"
    if perf:
        p = run([perf, "record", "--no-buildid", "-e", "cpu-clock", "-o", data, exe],
                timeout=120)
    else:
        p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", exe, timeout=120)
    if p.returncode:
        skip(f"record cannot sample here: {p.stderr[-300:]}")
    return exe, data


def names_of(doc, exe):
    return {e["symbol"] for e in doc["entries"] if e["dso"] == exe}


def named(exe, data, what):
    """The recorded build's names: alpha and beta."""
    p, doc = report_json(data, "--top", "0")
    if not check(p.returncode == 0 and doc, f"{what}: report: {p.stderr}"):
        return
    check({"alpha", "beta"} <= names_of(doc, exe), f"{what}: named: {doc['entries'][:4]}")
    why = [m for m in doc["modules_without_symbols"] if m["dso"] == exe]
    check(not why, f"{what}: no reason to doubt the file: {why}")


def refused(exe, data, what, cause, env=None):
    """Another build's names never; the reason says so, and why."""
    p, doc = report_json(data, "--top", "0", env=env)
    if not check(p.returncode == 0 and doc, f"{what}: report: {p.stderr}"):
        return
    check(names_of(doc, exe) == {None}, f"{what}: addresses, no names: {doc['entries'][:4]}")
    why = [m["reason"] for m in doc["modules_without_symbols"] if m["dso"] == exe]
    check(len(why) == 1 and REASON in why[0] and cause in why[0],
          f"{what}: the reason says {REASON!r} and {cause!r}: {why}")
    p = hwprof("report", "-i", data, env=env)
    check(p.returncode == 0 and re.search(r"#\s+" + re.escape(exe) + r" \([\d,]+ samples\): the file is " +
                                          re.escape(REASON), p.stdout),
          f"{what}: the text report says why: {p.stdout[-800:]}")
    check("zeta" not in p.stdout, f"{what}: no name of the new build: {p.stdout[:800]}")


def unchanged(d):
    exe, data = recorded(d, "same")
    named(exe, data, "the file unchanged")


def rebuilt(d):
    exe, data = recorded(d, "rebuilt")
    named(exe, data, "before the rebuild")
    build(d, V2, exe)
    refused(exe, data, "rebuilt", "no build-id")


def rewritten(d):
    """The new build written into the recorded file (its inode kept)."""
    exe, data = recorded(d, "rewritten")
    ino = os.stat(exe).st_ino
    build(d, V2, exe + ".new")
    with open(exe + ".new", "rb") as f:
        new = f.read()
    with open(exe, "r+b") as f:
        f.truncate(0)
        f.write(new)
    check(os.stat(exe).st_ino == ino, "the same inode")
    refused(exe, data, "rewritten in place", "size")


def perf_no_buildid(d):
    """perf's file tells the inode alone: the new build is made beside the
    old one and renamed over it, so that its inode is surely another (the
    linker's unlink and create may be given the old one again)."""
    perf = perf_sampler()
    exe, data = recorded(d, "perfs", perf)
    named(exe, data, "perf's, unchanged")
    build(d, V2, exe + ".new")
    os.replace(exe + ".new", exe)
    refused(exe, data, "perf's, rebuilt", "inode")


def build_id_then_none(d):
    """Recorded with a build-id, rebuilt without one: another build, looked
    for by the recorded build-id (in a home without perf's cache, and no
    debuginfod), not found."""
    exe, data = recorded(d, "thennone", build_id="sha1")
    named(exe, data, "with its build-id")
    build(d, V2, exe)
    env = dict(os.environ, HOME=os.path.join(d, "nohome"))
    env.pop("DEBUGINFOD_URLS", None)
    refused(exe, data, "rebuilt without a build-id", "its build-id differs", env)


def replaced_while_recording(d):
    """The program run, replaced by a copy (another inode), run again, in
    one recording: its samples are of two files, and which was which is
    not known; the copy on disk names neither."""
    exe = os.path.join(d, "twice")
    build(d, V1, exe)
    data = exe + ".data"
    script = f'"{exe}" && cp "{exe}" "{exe}.copy" && mv "{exe}.copy" "{exe}" && "{exe}"'
    p = hwprof("record", "-e", "cpu-clock", "-o", data, "--", "sh", "-c", script,
               timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    refused(exe, data, "replaced while recording", "two files were mapped at its path")


def generation(path):
    """PATH's inode generation, where its file system says (ext4), or None."""
    buf = array.array("l", [0])
    try:
        with open(path, "rb") as f:
            fcntl.ioctl(f, FS_IOC_GETVERSION, buf, True)
    except OSError:
        return None
    return buf[0] & 0xffffffff


def perf_reused_inode(d):
    """perf's file, its program's inode number given again to the new
    build (the linker unlinked the old file and created the new one: ext4
    may hand out the same number): the inode's generation tells."""
    perf = perf_sampler()
    exe, data = recorded(d, "reused", perf)
    gen = generation(exe)
    if gen is None:
        skip(f"the file system of {d} does not say an inode's generation")
    other = data + ".other"
    n = perfedit.mmap2_generation(data, other, exe.encode(), gen ^ 1)
    check(n > 0, f"MMAP2 records of {exe} changed: {n}")
    refused(exe, other, "perf's, the inode number given again", "inode")
    named(exe, data, "perf's, the same inode")


def perf_reads_ours(d):
    """hwprof's section of its own is no feature perf knows: perf skips it."""
    perf = perf_sampler()
    exe, data = recorded(d, "forperf")
    for cmd in (["report", "--stdio", "--sort", "sym"], ["script"]):
        p = run([perf, *cmd, "-i", data], timeout=120)
        check(p.returncode == 0 and "alpha" in p.stdout,
              f"perf {cmd[0]} reads hwprof's file: {p.stderr[-400:]} {p.stdout[:400]}")
        check(not re.search(r"(?i)invalid|error|unknown|corrupt", p.stderr),
              f"perf {cmd[0]} has nothing to say of it: {p.stderr[-400:]}")


with tempfile.TemporaryDirectory() as tmp:
    case(unchanged, tmp)
    case(rebuilt, tmp)
    case(rewritten, tmp)
    case(perf_no_buildid, tmp)
    case(perf_reused_inode, tmp)
    case(replaced_while_recording, tmp)
    case(build_id_then_none, tmp)
    case(perf_reads_ours, tmp)
done()
