#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Kernel modules are modules: hwprof record describes each loaded one as
perf record does (an MMAP of the kernel's, pid -1, at the module's address
and of its size, named by its file in modules.dep or "[name]"), from
/proc/modules, here a fabricated one (HWPROF_MODULES_ROOT: this machine
may have no module loaded); the report names a module's samples by the
module, with the module's symbols of kallsyms only, and its unresolved
addresses by their offset in the module, as perf does."""
import os
import re
import shutil
import tempfile

import perfdata
import perfedit
from common import WORKLOAD, case, check, done, hwprof, report_json, run, skip

KERNEL_PID = 2**32 - 1
E1000E, SND, NFT = 0xffffffffc0100000, 0xffffffffc0200000, 0xffffffffc0300000


def fabricated_root(d, modules, dep=None):
    """A tree of DIR/proc/modules and DIR/lib/modules/RELEASE/modules.dep."""
    root = os.path.join(d, f"root{len(os.listdir(d))}")
    os.makedirs(os.path.join(root, "proc"))
    with open(os.path.join(root, "proc", "modules"), "w") as f:
        f.write(modules)
    if dep is not None:
        libdir = os.path.join(root, "lib", "modules", os.uname().release)
        os.makedirs(libdir)
        with open(os.path.join(libdir, "modules.dep"), "w") as f:
            f.write(dep)
    return root


def record(d, root, name):
    path = os.path.join(d, name)
    env = dict(os.environ, HWPROF_MODULES_ROOT=root)
    p = hwprof("record", "-e", "cpu-clock", "-o", path, "--", WORKLOAD, "spin", "0.05",
               env=env, timeout=120)
    if p.returncode and "perf_event_open" in p.stderr:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    return p, path


def module_maps(path):
    return [m for m in perfedit.kernel_maps(path) if not m[4].startswith("[kernel.kallsyms]")]


def recorded(d):
    """Each loaded module, by its file where modules.dep lists it (a
    relative path under the release's folder, an absolute one), else by
    "[name]"; none whose address is hidden (0: kptr_restrict)."""
    root = fabricated_root(
        d, f"e1000e 290816 0 - Live {E1000E:#x}\n"
           f"snd_hda_intel 57344 2 snd,x, Live {SND:#x} (E)\n"
           f"nf_tables 32768 0 - Live {NFT:#x}\n"
           "hidden 4096 0 - Live 0x0000000000000000\n",
        "kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko.xz: kernel/lib/crc.ko\n"
        "/opt/sound/snd-hda-intel.ko:\nkernel/lib/crc.ko:\n")
    p, path = record(d, root, "modules.data")
    if not check(p.returncode == 0, f"record: {p.stderr}"):
        return
    libdir = os.path.join(root, "lib", "modules", os.uname().release)
    want = [(KERNEL_PID, E1000E, 290816, 0,
             f"{libdir}/kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko.xz"),
            (KERNEL_PID, SND, 57344, 0, "/opt/sound/snd-hda-intel.ko"),
            (KERNEL_PID, NFT, 32768, 0, "[nf_tables]")]
    got = module_maps(path)
    check(got == want, f"module maps: {got}")
    check(p.stderr.count("warning") == 0, f"no warning: {p.stderr}")
    kernel = [m for m in perfedit.kernel_maps(path) if m[4].startswith("[kernel.kallsyms]")]
    check(len(kernel) == 1 and perfedit.kernel_maps(path)[0] == kernel[0],
          f"the kernel's map first: {perfedit.kernel_maps(path)}")
    perf = shutil.which("perf")
    if perf:
        # perf reads them as its own: a module's map, named by its file
        q = run([perf, "script", "-D", "-i", path], timeout=120)
        check(q.returncode == 0 and
              f"[{E1000E:#x}(0x47000) @ 0]: x {want[0][4]}" in q.stdout and
              f"[{NFT:#x}(0x8000) @ 0]: x [nf_tables]" in q.stdout,
              f"perf script -D: {q.stdout[:3000]} {q.stderr[-500:]}")


def without_list(d):
    """No modules.dep: every module by "[name]"; no /proc/modules (a kernel
    without modules): none, and no word about it; a file that is not a list
    of modules: none, a warning that names it, and the recording made."""
    root = fabricated_root(d, f"e1000e 290816 0 - Live {E1000E:#x}\n")
    p, path = record(d, root, "nodep.data")
    check(p.returncode == 0 and module_maps(path) ==
          [(KERNEL_PID, E1000E, 290816, 0, "[e1000e]")], f"by name: {p.stderr}")
    empty = os.path.join(d, "empty")
    os.makedirs(empty)
    p, path = record(d, empty, "none.data")
    check(p.returncode == 0 and module_maps(path) == [] and "warning" not in p.stderr,
          f"no modules: {p.stderr}")
    root = fabricated_root(d, "not a list of modules\n")
    p, path = record(d, root, "bad.data")
    check(p.returncode == 0 and module_maps(path) == [] and
          os.path.join(root, "proc", "modules") in p.stderr and
          "not a list of modules" in p.stderr, f"a bad list: {p.returncode} {p.stderr}")


KERNEL = 0xffffffff81000000
E1000E_KO = b"/lib/modules/6.1.0-x/kernel/drivers/net/ethernet/intel/e1000e/e1000e.ko"


def by_sort(path, *args, env=None):
    """{key: (dso, samples)} of every sort and format that names the rows:
    JSON by symbol, text by line, folded stacks, and {dso: samples} by module."""
    out = {}
    p, doc = report_json(path, "--top", "0", *args, env=env)
    out["sym"] = {e["name"]: (e["dso"], e["samples"]) for e in doc["entries"]} if doc else p.stderr
    out["missing"] = {m["dso"]: m["reason"] for m in doc["modules_without_symbols"]} \
        if doc else p.stderr
    p, doc = report_json(path, "--top", "0", "--sort", "dso", *args, env=env)
    out["dso"] = {e["dso"]: e["samples"] for e in doc["entries"]} if doc else p.stderr
    p = hwprof("report", "-i", path, "--sort", "line", "--top", "0", *args, env=env)
    out["line"] = {m.group(2): (m.group(3), int(m.group(1))) for m in re.finditer(
        r"^\s+[\d.]+%\s+(\d+)\s+\S+\s+(\S+)\s+(\[\S+\])\s*$", p.stdout, re.M)}
    p = hwprof("report", "-i", path, "--format", "folded", *args, env=env)
    out["folded"] = dict(line.rsplit(" ", 1) for line in p.stdout.splitlines())
    return out


def kallsyms_copy(d, name, symbols):
    """A copy of kallsyms of SYMBOLS, (address, "TYPE NAME[\t[MODULE]]")."""
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.writelines(f"{addr:x} {rest}\n" for addr, rest in symbols)
    return path


def only_its_own(d):
    """A module's address is named by that module's symbols of kallsyms
    only: not by another module's loaded there since (the module shows as
    lacking symbols, and why); a kernel address is not named by a module's
    symbol the recording did not map there, but is by a BPF program's."""
    pd = perfdata.PerfData()
    stray, bpf = 0xffffffffc0400000, 0xffffffffc0500000
    pd.kernel_mmap(KERNEL, 2**64 - 1 - KERNEL, b"[kernel.kallsyms]_text")
    pd.kernel_mmap(E1000E, 0x10000, E1000E_KO)
    pd.kernel_mmap(NFT, 0x8000, b"[nf_tables]")
    pd.comm(100, b"irq")
    pd.kernel_samples(100, ((KERNEL + 0x110, 1), (E1000E + 0x120, 4), (NFT + 0x130, 3),
                            (stray + 0x10, 2), (bpf + 0x10, 5)))
    path = os.path.join(d, "own.data")
    pd.write(path)
    kallsyms = kallsyms_copy(d, "kallsyms-own", (
        (KERNEL, "T _text"), (KERNEL + 0x100, "T kfunc"),
        (E1000E + 0x100, "t e1000_clean\t[e1000e]"), (NFT + 0x100, "t other_fn\t[other]"),
        (stray, "t stray_fn\t[stray]"), (bpf, "t bpf_prog_1234_handler\t[bpf]")))
    got = by_sort(path, "--kallsyms", kallsyms)
    nft = "[nf_tables]+0x130"  # an offset in the module, as perf shows it
    stray_row = f"[kernel.kallsyms]+{stray + 0x10:#x}"
    check(got["sym"] == {"e1000_clean": ("[e1000e]", 4), "kfunc": ("[kernel.kallsyms]", 1),
                         nft: ("[nf_tables]", 3), stray_row: ("[kernel.kallsyms]", 2),
                         "bpf_prog_1234_handler": ("[kernel.kallsyms]", 5)},
          f"by symbol: {got['sym']}")
    check(got["line"] == got["sym"], f"by line: {got['line']}")
    check(got["folded"] == {k: str(v[1]) for k, v in got["sym"].items()},
          f"folded: {got['folded']}")
    check(got["dso"] == {"[e1000e]": 4, "[nf_tables]": 3, "[kernel.kallsyms]": 8},
          f"by module: {got['dso']}")
    check(list(got["missing"]) == ["[nf_tables]"] and
          "none of this module's" in got["missing"]["[nf_tables]"], f"why: {got['missing']}")


def running_kernel_text():
    """This kernel's reference symbol as perf and hwprof record name it,
    _text (else _stext), and its address; or skip."""
    found = {}
    with open("/proc/kallsyms") as f:
        for _, line in zip(range(200), f):
            fields = line.split()
            if len(fields) >= 3 and fields[2] in ("_text", "_stext"):
                found.setdefault(fields[2], int(fields[0], 16))
    ref = "_text" if "_text" in found else "_stext"
    if not found.get(ref):
        skip("kernel addresses are hidden here (kernel.kptr_restrict)")
    return ref, found[ref]


def on_this_machine(d):
    """A recording of this kernel, where it is now, that maps no module
    (hwprof's before this): its samples in a module's range are the
    module's, by this machine's /proc/modules; not when the kernel was
    elsewhere (another boot: the modules too), nor with another kernel's
    symbols (--kallsyms), where perf has no module either."""
    ref, text = running_kernel_text()
    mod = 0xffffffffc1000000
    root = fabricated_root(d, f"e1000e 65536 0 - Live {mod:#x}\n")
    env = dict(os.environ, HWPROF_MODULES_ROOT=root)

    def made(name, kernel_at):
        pd = perfdata.PerfData()
        pd.kernel_mmap(kernel_at, 2**64 - 1 - kernel_at, b"[kernel.kallsyms]" + ref.encode())
        pd.comm(100, b"irq")
        pd.kernel_samples(100, ((mod + 0x120, 4),))
        path = os.path.join(d, name)
        pd.write(path)
        return path

    here = made("here.data", text)
    got = by_sort(here, env=env)
    check(got["dso"] == {"[e1000e]": 4}, f"by module: {got['dso']}")
    check(list(got["sym"].values()) == [("[e1000e]", 4)] and
          list(got["folded"].values()) == ["4"], f"by symbol: {got['sym']} {got['folded']}")
    moved = made("moved.data", text - 0x200000)
    got = by_sort(moved, env=env)
    check("[e1000e]" not in got["dso"], f"another boot: {got['dso']}")
    kallsyms = kallsyms_copy(d, "kallsyms-here", ((text, f"T {ref}"),))
    got = by_sort(here, "--kallsyms", kallsyms, env=env)
    check("[e1000e]" not in got["dso"], f"another kernel's symbols: {got['dso']}")


def newest_first(d):
    """/proc/modules lists the newest module first, each of its whole size,
    so an older module's range can run over a newer one's start: each
    address is the module's loaded there, as when placed by address (as
    perf's maps are, and the recorder writes them)."""
    ref, text = running_kernel_text()
    new, old = 0xffffffffc0010000, 0xffffffffc0000000
    root = fabricated_root(d, f"newmod 16384 0 - Live {new:#x}\n"
                              f"old 81920 0 - Live {old:#x}\n")
    pd = perfdata.PerfData()
    pd.kernel_mmap(text, 2**64 - 1 - text, b"[kernel.kallsyms]" + ref.encode())
    pd.comm(100, b"irq")
    pd.kernel_samples(100, ((new + 0x1000, 4), (old + 0x1000, 2)))
    path = os.path.join(d, "newest.data")
    pd.write(path)
    got = by_sort(path, env=dict(os.environ, HWPROF_MODULES_ROOT=root))
    check(got["dso"] == {"[newmod]": 4, "[old]": 2}, f"by module: {got['dso']}")


def bpf_in_module(d):
    """A module's range (its whole size) can take in freed init memory,
    where BPF programs and the kernel's trampolines are put: named by
    theirs ("[bpf]", "[__builtin__ftrace]") as before modules were mapped."""
    pd = perfdata.PerfData()
    pd.kernel_mmap(KERNEL, 2**64 - 1 - KERNEL, b"[kernel.kallsyms]_text")
    pd.kernel_mmap(E1000E, 0x40000, E1000E_KO)
    pd.comm(100, b"irq")
    pd.kernel_samples(100, ((E1000E + 0x120, 1), (E1000E + 0x20010, 5),
                            (E1000E + 0x30010, 3)))
    path = os.path.join(d, "bpfmod.data")
    pd.write(path)
    kallsyms = kallsyms_copy(d, "kallsyms-bpfmod", (
        (KERNEL, "T _text"), (KERNEL + 0x100, "T kfunc"),
        (E1000E + 0x100, "t e1000_clean\t[e1000e]"),
        (E1000E + 0x20000, "t bpf_prog_5678_handler\t[bpf]"),
        (E1000E + 0x30000, "t ftrace_trampoline\t[__builtin__ftrace]"),
        (E1000E + 0x30100, "t e1000_end\t[e1000e]")))
    got = by_sort(path, "--kallsyms", kallsyms)
    check(got["sym"] == {"e1000_clean": ("[e1000e]", 1),
                         "bpf_prog_5678_handler": ("[e1000e]", 5),
                         "ftrace_trampoline": ("[e1000e]", 3)}, f"by symbol: {got['sym']}")


def unmapped_modules(d):
    """A recording that maps no module (hwprof's before 0.2) whose modules
    are not placed by this machine's list (--kallsyms: another kernel's
    symbols, or another host): its module addresses named by kallsyms as
    they were, the kernel's ("[kernel.kallsyms]")."""
    pd = perfdata.PerfData()
    pd.kernel_mmap(KERNEL, 2**64 - 1 - KERNEL, b"[kernel.kallsyms]_text")
    pd.comm(100, b"irq")
    pd.kernel_samples(100, ((KERNEL + 0x110, 1), (E1000E + 0x120, 4)))
    path = os.path.join(d, "unmapped.data")
    pd.write(path)
    kallsyms = kallsyms_copy(d, "kallsyms-unmapped", (
        (KERNEL, "T _text"), (KERNEL + 0x100, "T kfunc"),
        (E1000E + 0x100, "t e1000_clean\t[e1000e]")))
    empty = os.path.join(d, "unmapped-root")
    os.makedirs(empty)
    got = by_sort(path, "--kallsyms", kallsyms,
                  env=dict(os.environ, HWPROF_MODULES_ROOT=empty))
    check(got["sym"] == {"kfunc": ("[kernel.kallsyms]", 1),
                         "e1000_clean": ("[kernel.kallsyms]", 4)}, f"by symbol: {got['sym']}")


with tempfile.TemporaryDirectory() as tmp:
    case(newest_first, tmp)
    case(bpf_in_module, tmp)
    case(unmapped_modules, tmp)
    case(only_its_own, tmp)
    case(on_this_machine, tmp)
    case(recorded, tmp)
    case(without_list, tmp)
done()
