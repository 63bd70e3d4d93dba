#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Kernel symbols of the right kernel, as perf decides: a recording of this
kernel from another boot (KASLR: the kernel elsewhere) is placed by the
reference symbol of its kernel map ([kernel.kallsyms]_text and its
address); a recording of another kernel (its build-id in HEADER_BUILD_ID
is not /sys/kernel/notes') gets no kernel names, and the report says why,
unless perf's build-id cache or --kallsyms gives that kernel's symbols;
no lookup runs past the last symbol; a kernel sample at a user address is
[unknown]; their bytes and disassembly come from a vmlinux or
/proc/kcore. Recordings made here, edited (perfedit.py), and files made by
hand (perfdata.py)."""
import gzip
import os
import re
import shutil
import tempfile

import perfdata
import perfedit
from common import (HWPROF, WORKLOAD, case, check, done, hwprof, note, report_json,
                    run, skip)

# Another boot's kernel: 2 MiB aligned, as KASLR places it.
MOVED = 0x26000000
OTHER_ID = bytes(range(1, 21))


def kernel_rows(doc):
    """{symbol: samples} of the kernel's rows."""
    return {e["name"]: e["samples"] for e in doc["entries"]
            if e["dso"] == "[kernel.kallsyms]"}


def recording(d):
    """A recording of page faults here, with kernel samples and the
    kernel's build-id; skips where this machine cannot make one."""
    path = os.path.join(d, "faults.data")
    if os.path.exists(path):
        return path
    why = perfedit.kernel_symbols_problem()
    if why:
        skip(why)
    p = hwprof("record", "-e", "cpu-clock", "-o", path, "--", WORKLOAD, "pages", "60000",
               timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    p, doc = report_json(path, "--top", "0")
    if not doc or sum(kernel_rows(doc).values()) < 20:
        skip(f"too few kernel samples to compare: {doc and kernel_rows(doc)}")
    return path


def another_boot(d):
    """The same kernel after a reboot: the kernel map and its samples moved
    together; the names are the ones of the recording as it was, by
    /proc/kallsyms and by a copy of it (--kallsyms)."""
    path = recording(d)
    moved = os.path.join(d, "moved.data")
    n = perfedit.move_kernel(path, moved, MOVED)
    _, doc = report_json(path, "--top", "0")
    want = kernel_rows(doc)
    check(n == sum(want.values()), f"every kernel sample moved: {n} of {want}")
    copy = os.path.join(d, "kallsyms")
    shutil.copyfile("/proc/kallsyms", copy)
    for how, args in (("/proc/kallsyms", ()), ("--kallsyms", ("--kallsyms", copy))):
        p, doc = report_json(moved, "--top", "0", *args)
        got = kernel_rows(doc) if doc else {}
        check(p.returncode == 0 and got == want,
              f"{how}: the names of the recording: {sorted(got.items())[:6]} "
              f"want {sorted(want.items())[:6]}")
    p = hwprof("report", "-i", moved, "--sort", "rip", "--top", "0")
    check(p.returncode == 0 and not re.search(r"\+0x[0-9a-f]{6,}\s", p.stdout),
          f"no symbol+offset of millions (another boot's offset): {p.stdout[:1500]}")


def another_kernel(d):
    """A recording of another kernel: no name of this kernel's, and why, in
    the report (text and JSON) and on standard error; that kernel's
    symbols from perf's build-id cache (~/.debug) or --kallsyms."""
    path = recording(d)
    other = os.path.join(d, "other.data")
    check(perfedit.other_kernel(path, other, OTHER_ID) == 1, "the kernel's build-id replaced")
    hexid = OTHER_ID.hex()
    home = os.path.join(d, "home")
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, HOME=home)
    p, doc = report_json(other, "--top", "0", env=env)
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        named = [e["symbol"] for e in doc["entries"]
                 if e["dso"] == "[kernel.kallsyms]" and e["symbol"]]
        check(not named, f"no name of this kernel's for another's addresses: {named[:5]}")
        why = [m["reason"] for m in doc["modules_without_symbols"]
               if m["dso"] == "[kernel.kallsyms]"]
        check(why and hexid in why[0] and "--kallsyms" in why[0], f"why, in JSON: {why}")
    check(hexid in p.stderr, f"why, on standard error: {p.stderr}")
    pb = os.path.join(d, "other.pb.gz")
    p = hwprof("report", "-i", other, "--format", "pprof", "-o", pb, env=env)
    with open(pb, "rb") if p.returncode == 0 else open(os.devnull, "rb") as f:
        body = gzip.decompress(f.read()) if p.returncode == 0 else b""
    check(b"kernel symbols are not named" in body and hexid.encode() in body,
          f"why, in pprof's comments: {p.stderr}")
    p = hwprof("report", "-i", other, env=env)
    check(p.returncode == 0 and re.search(
        rf"#\s+\[kernel\.kallsyms\] \([\d,]+ samples\): the recording's kernel \(build-id "
        rf"{hexid}\) is not this one", p.stdout), f"why, in text: {p.stdout}")
    # perf's build-id cache has that kernel's symbols: named by them
    _, doc = report_json(path, "--top", "0")
    want = kernel_rows(doc)
    cached = os.path.join(home, ".debug", "[kernel.kallsyms]", hexid)
    os.makedirs(cached)
    shutil.copyfile("/proc/kallsyms", os.path.join(cached, "kallsyms"))
    p, doc = report_json(other, "--top", "0", env=env)
    got = kernel_rows(doc) if doc else {}
    check(p.returncode == 0 and got == want,
          f"from ~/.debug: {sorted(got.items())[:5]} {p.stderr}")
    shutil.rmtree(os.path.join(home, ".debug"))
    p, doc = report_json(other, "--top", "0", "--kallsyms", "/proc/kallsyms", env=env)
    got = kernel_rows(doc) if doc else {}
    check(p.returncode == 0 and got == want, f"--kallsyms: the user's choice: {p.stderr}")


def perf_recording(d):
    """The same of a recording perf made: perf names the kernel's build-id
    "vmlinux" or "[kernel.kallsyms]" (whatever its image's name), and
    writes its own kernel map; both are read as perf reads them."""
    perf = shutil.which("perf")
    if not perf:
        skip("perf is not installed (Debian: linux-perf)")
    recording(d)     # the skips of a machine that hides the kernel
    path = os.path.join(d, "perf.data")
    p = run([perf, "record", "-e", "cpu-clock", "-o", path, "--", WORKLOAD, "pages", "60000"],
            timeout=120)
    if p.returncode:
        skip(f"perf record cannot sample here: {p.stderr[-300:]}")
    _, doc = report_json(path, "--top", "0")
    want = kernel_rows(doc) if doc else {}
    if len(want) < 2:
        skip(f"too few kernel samples to compare: {want}")
    moved = os.path.join(d, "perf-moved.data")
    perfedit.move_kernel(path, moved, MOVED)
    p, doc = report_json(moved, "--top", "0")
    got = kernel_rows(doc) if doc else {}
    check(p.returncode == 0 and got == want,
          f"another boot: {sorted(got.items())[:5]} want {sorted(want.items())[:5]}")
    other = os.path.join(d, "perf-other.data")
    check(perfedit.other_kernel(path, other, OTHER_ID) == 1, "the kernel's build-id replaced")
    env = dict(os.environ, HOME=os.path.join(d, "home-perf"))
    p, doc = report_json(other, "--top", "0", env=env)
    named = [e["symbol"] for e in doc["entries"]
             if e["dso"] == "[kernel.kallsyms]" and e["symbol"]] if doc else None
    check(p.returncode == 0 and named == [] and OTHER_ID.hex() in p.stderr,
          f"another kernel: no names ({named and named[:5]}), and why: {p.stderr}")


def another_release(d):
    """A file that names no kernel build-id, of another kernel release: no
    kernel names of this one's, and why."""
    pd = perfdata.PerfData()
    pd.feature_string(perfdata.HEADER_OSRELEASE, b"2.6.32-not-this-one")
    pd.kernel_mmap(0xffffffff81000000, 0x1000000, b"[kernel.kallsyms]_text")
    for _ in range(4):
        pd.sample(1, 0xffffffff81000100, kernel=True)
    path = os.path.join(d, "release.data")
    pd.write(path)
    p, doc = report_json(path)
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        check([e["name"] for e in doc["entries"]] == ["[kernel.kallsyms]+0xffffffff81000100"],
              f"unnamed: {doc['entries']}")
        why = doc["modules_without_symbols"]
        check(why and "2.6.32-not-this-one" in why[0]["reason"], f"why: {why}")


def bounded(d):
    """No lookup past the last symbol, nor across the gap between the
    kernel's symbols and the modules'; a kernel sample at a user-space
    address is [unknown], as in perf."""
    base = 0xffffffff81000000
    ksyms = os.path.join(d, "bounded.kallsyms")
    with open(ksyms, "w") as f:
        f.write(f"{base:x} T _text\n{base + 0x100:x} T kfunc\n{base + 0x2000:x} T _etext\n"
                f"ffffffffc0000000 t modfunc\t[mod]\n")
    pd = perfdata.PerfData()
    pd.kernel_mmap(base, 0x1000000, b"[kernel.kallsyms]_text")
    pd.kernel_mmap(0xffffffffc0000000, 0x200000, b"[mod]")
    for ip in (base + 0x180, base + 0x2010, base + 0x3c9719b0, 0xffffffffc0000010,
               0xffffffffc0100000, 0x401000):
        pd.sample(1, ip, kernel=True)
    path = os.path.join(d, "bounded.data")
    pd.write(path)
    p, doc = report_json(path, "--sort", "rip", "--top", "0", "--kallsyms", ksyms)
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        got = {int(e["address"], 16): (e["name"], e["dso"]) for e in doc["entries"]}
        want = {base + 0x180: ("kfunc+0x80", "[kernel.kallsyms]"),
                base + 0x2010: ("_etext+0x10", "[kernel.kallsyms]"),
                base + 0x3c9719b0: (f"[kernel.kallsyms]+0x{base + 0x3c9719b0:x}",
                                    "[kernel.kallsyms]"),
                0xffffffffc0000010: ("modfunc+0x10", "[mod]"),
                0xffffffffc0100000: ("[mod]+0x100000", "[mod]"),
                0x401000: ("[unknown]", "[unknown]")}
        for a, w in want.items():
            check(got.get(a) == w, f"0x{a:x}: {got.get(a)}, want {w}")


KFUNC = """__attribute__((naked)) void kfunc(void)
{
	__asm__("nop\\n\\tmovl $0x2a, %eax\\n\\tret\\n");
}
"""


def vmlinux(d, text=True):
    """A kernel image made for the test: kfunc at the kernel's unrelocated
    addresses, _text where its first segment begins (without it: none).
    Returns (path, {symbol: address})."""
    src = os.path.join(d, "kfunc.c")
    with open(src, "w") as f:
        f.write(KFUNC)
    path = os.path.join(d, "vmlinux" if text else "vmlinux-no-text")
    cmd = [os.environ.get("CC", "cc"), "-nostdlib", "-static", "-no-pie", "-fno-pic",
           "-Wl,-Ttext-segment=0xffffffff81000000", "-Wl,-e,kfunc", "-o", path, src]
    if text:
        cmd.insert(-3, "-Wl,--defsym=_text=0xffffffff81000000")
    p = run(cmd)
    if p.returncode:
        skip(f"cannot link a kernel image for the test: {p.stderr[-300:]}")
    nm = run(["nm", path])
    syms = {m[2]: int(m[0], 16) for m in (line.split() for line in nm.stdout.splitlines())
            if len(m) == 3}
    if "kfunc" not in syms:
        skip(f"nm does not list kfunc: {nm.stdout} {nm.stderr}")
    return path, syms


def kernel_code(d):
    """Bytes and disassembly of kernel addresses, with --sort rip and
    --annotate, from a vmlinux given (placed at the recording's kernel as
    its symbols are, another boot here); without one, '?' and why, once."""
    image, syms = vmlinux(d)
    text, kfunc = syms["_text"], syms["kfunc"]
    ksyms = os.path.join(d, "code.kallsyms")
    with open(ksyms, "w") as f:
        f.write(f"{text:x} T _text\n{kfunc:x} T kfunc\n{kfunc + 0x100:x} T _etext\n")
    pd = perfdata.PerfData()
    pd.kernel_mmap(text + MOVED, 0x1000000, b"[kernel.kallsyms]_text")
    for _ in range(3):
        pd.sample(1, kfunc + MOVED + 1, kernel=True)
    pd.sample(1, kfunc + MOVED + 6, kernel=True)
    path = os.path.join(d, "code.data")
    pd.write(path)
    p, doc = report_json(path, "--sort", "rip", "--kallsyms", ksyms, "--vmlinux", image)
    if check(p.returncode == 0 and doc, f"read: {p.stderr}"):
        got = {int(e["address"], 16) - MOVED - kfunc: (e["name"], e["bytes"], e["disasm"])
               for e in doc["entries"]}
        check(got == {1: ("kfunc+0x1", "b8 2a 00 00 00", "movl $0x2a, %eax"),
                      6: ("kfunc+0x6", "c3", "retq")}, f"kernel code: {got}")
    p = hwprof("report", "-i", path, "--kallsyms", ksyms, "--vmlinux", image,
               "--annotate", "kfunc")
    check(p.returncode == 0 and re.search(r"75\.00%\s+3 :.*b8 2a 00 00 00\s+movl \$0x2a, %eax",
                                          p.stdout), f"annotate: {p.stdout} {p.stderr}")
    # without the image: '?', and why, once
    p = hwprof("report", "-i", path, "--sort", "rip", "--kallsyms", ksyms)
    rows = [line for line in p.stdout.splitlines() if "kfunc+" in line]
    why = re.findall(r"^#   \[kernel\.kallsyms\] \(4 samples\): (.*)$", p.stdout, re.M)
    check(p.returncode == 0 and len(rows) == 2 and all(r.endswith("?") for r in rows),
          f"'?' without the image: {p.stdout}")
    check(len(why) == 2 and "--vmlinux FILE" in why[1] and "Modules without code" in p.stdout,
          f"why, once: {why}")
    # an image without the reference symbol: not this kernel's
    other, _ = vmlinux(d, text=False)
    p = hwprof("report", "-i", path, "--sort", "rip", "--kallsyms", ksyms, "--vmlinux", other)
    check(p.returncode == 0 and "has no symbol _text" in p.stdout and
          all(line.endswith("?") for line in p.stdout.splitlines() if "kfunc+" in line),
          f"an image without _text: {p.stdout}")


with tempfile.TemporaryDirectory() as tmp:
    case(another_boot, tmp)
    case(another_kernel, tmp)
    case(perf_recording, tmp)
    case(another_release, tmp)
    case(bounded, tmp)
    case(kernel_code, tmp)
done()
