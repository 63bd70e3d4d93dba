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


with tempfile.TemporaryDirectory() as tmp:
    case(recorded, tmp)
    case(without_list, tmp)
done()
