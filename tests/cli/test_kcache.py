#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cache of this kernel's symbols ($XDG_CACHE_HOME/hwprof, else
~/.cache/hwprof): a report from the cache is byte for byte the report that
reads /proc/kallsyms; a cache file cut short, damaged, of another kernel or
boot, or of another user, is read past and rewritten; a cache folder that
cannot be made or written, or no HOME at all, changes nothing but the
time; --no-kallsyms-cache neither reads nor writes it."""
import glob
import os
import re
import shutil
import tempfile

import common
import perfedit
from common import HWPROF, WORKLOAD, case, check, done, hwprof, run, skip

# Each report here reads or writes the cache of kernel symbols that the next
# one finds, and says which at debug level: made once, not both ways.
common.REPORT_BOTH_WAYS = False

# Each report: the kernel's rows and the user's, with call chains.
REPORT = ("report", "--sort", "sym", "--top", "0")


def env_with(**changes):
    """The environment, debug messages on, with @changes (None: unset)."""
    env = dict(os.environ, HWPROF_LOG_LEVEL="debug")
    for k, v in changes.items():
        env.pop(k, None)
        if v is not None:
            env[k] = v
    return env


def report(path, env, *args):
    p = hwprof(*REPORT, "-i", path, *args, env=env, timeout=120)
    check(p.returncode == 0, f"report: {p.stderr[-500:]}")
    return p


def from_cache(p):
    return re.search(r"kernel symbols: \d+ from the cache", p.stderr) is not None


def recording(d):
    """A recording here with kernel samples; skips where there can be none."""
    path = os.path.join(d, "k.data")
    if os.path.exists(path):
        return path
    why = perfedit.kernel_symbols_problem()
    if why:
        skip(f"{why}: nothing is cached")
    p = hwprof("record", "-g", "-e", "cpu-clock", "-o", path, "--", WORKLOAD, "pages",
               "40000", timeout=120)
    if p.returncode:
        skip(f"hwprof record cannot sample here: {p.stderr[-300:]}")
    return path


def cold_report(d):
    """The report that reads /proc/kallsyms, which the others must equal."""
    path = recording(d)
    p = report(path, env_with(XDG_CACHE_HOME=os.path.join(d, "none")),
               "--no-kallsyms-cache")
    check("[kernel.kallsyms]" in p.stdout and not from_cache(p),
          f"kernel rows, not from a cache: {p.stdout[:800]}")
    check(not os.path.exists(os.path.join(d, "none")),
          "--no-kallsyms-cache writes no cache")
    return path, p.stdout


def cache_file(xdg):
    files = glob.glob(os.path.join(xdg, "hwprof", "kallsyms-*"))
    return files[0] if len(files) == 1 else None


def hit_is_cold(d):
    """Written by the first report, used by the second: the same bytes."""
    path, cold = cold_report(d)
    xdg = os.path.join(d, "xdg")
    env = env_with(XDG_CACHE_HOME=xdg)
    first = report(path, env)
    f = cache_file(xdg)
    if not f and "not the cache" not in first.stderr:
        check("kernel symbols" in first.stderr, f"why no cache: {first.stderr[-800:]}")
    if not f:
        skip(f"no cache written here (the running kernel's identity is not known): "
             f"{first.stderr[-300:]}")
    check(first.stdout == cold and not from_cache(first), "the first report reads kallsyms")
    second = report(path, env)
    check(from_cache(second), f"the second from the cache: {second.stderr[-500:]}")
    check(second.stdout == cold, "from the cache: byte for byte the report of kallsyms")
    check(os.stat(f).st_mode & 0o777 == 0o600 and
          os.stat(os.path.dirname(f)).st_mode & 0o777 == 0o700,
          f"private: {oct(os.stat(f).st_mode)}")
    size = os.path.getsize(f)
    check(size < 8 << 20, f"compact: {size} bytes")
    # JSON too
    a = hwprof(*REPORT, "-i", path, "--format", "json", "--no-kallsyms-cache", env=env)
    b = hwprof(*REPORT, "-i", path, "--format", "json", env=env)
    check(a.returncode == 0 and a.stdout == b.stdout, "JSON: the same")


def damaged(d, how, change):
    """A cache file changed by @change is not used: the report is the cold
    one, and the file is rewritten whole (the next report uses it)."""
    path, cold = cold_report(d)
    xdg = os.path.join(d, "damaged-" + how.replace(" ", "-"))
    env = env_with(XDG_CACHE_HOME=xdg)
    report(path, env)
    f = cache_file(xdg)
    if not f:
        skip("no cache written here (the running kernel's identity is not known)")
    good = open(f, "rb").read()
    change(f, good)
    p = report(path, env)
    check(not from_cache(p) and p.stdout == cold, f"{how}: read past: {p.stderr[-500:]}")
    check(open(f, "rb").read() == good, f"{how}: rewritten as it was")
    p = report(path, env)
    check(from_cache(p) and p.stdout == cold, f"{how}: then used")


def truncate(f, good):
    with open(f, "r+b") as fh:
        fh.truncate(len(good) - 1000)


def flip(f, good):
    with open(f, "r+b") as fh:
        fh.seek(len(good) // 2)
        fh.write(bytes([good[len(good) // 2] ^ 1]))


def foreign_key(f, good):
    """Another boot's file: the header's key names another boot_id."""
    at = good.index(b" boot ") + 6
    data = bytearray(good)
    data[at] = ord("0") if data[at] != ord("0") else ord("1")
    open(f, "wb").write(bytes(data))


def garbage(f, good):
    open(f, "wb").write(os.urandom(len(good)))


def other_owner(f, good):
    if os.geteuid() != 0:
        skip("giving the file to another user needs root")
    os.chown(f, 65534, 65534)


def unwritable(d):
    """No folder to keep it in: the report is the same, and says nothing."""
    path, cold = cold_report(d)
    plain = os.path.join(d, "plain")
    open(plain, "w").close()
    for what, env in (("XDG_CACHE_HOME under a file", env_with(XDG_CACHE_HOME=plain + "/x")),
                      ("XDG_CACHE_HOME in /proc", env_with(XDG_CACHE_HOME="/proc/self/hwprof")),
                      ("no HOME, no XDG_CACHE_HOME", env_with(XDG_CACHE_HOME=None, HOME=None)),
                      ("a HOME that does not exist",
                       env_with(XDG_CACHE_HOME=None, HOME=os.path.join(d, "gone")))):
        p = hwprof(*REPORT, "-i", path, env=dict(env, HWPROF_LOG_LEVEL="warn"), timeout=120)
        check(p.returncode == 0 and p.stdout == cold and "cache" not in p.stderr,
              f"{what}: the same report, no word of it: {p.stderr[-500:]}")
    check(not os.path.exists(os.path.join(d, "gone")), "a missing HOME is not made")
    # a folder that is there but takes no files: only root's rights are
    # tested here, and root writes anywhere; unprivileged, kallsyms is hidden


def help_names_it():
    p = hwprof("report", "--help")
    check("--no-kallsyms-cache" in p.stdout and "XDG_CACHE_HOME" in p.stdout,
          f"report --help names the option: {p.stdout[-1500:]}")


if not os.path.exists(HWPROF) or not os.path.exists(WORKLOAD):
    skip("hwprof or the workload is not built")
with tempfile.TemporaryDirectory() as tmp:
    case(hit_is_cold, tmp)
    for name, fn in (("truncated", truncate), ("one bit changed", flip),
                     ("another boot's", foreign_key), ("garbage", garbage),
                     ("another user's", other_owner)):
        case(damaged, tmp, name, fn, name="damaged: " + name)
    case(unwritable, tmp)
    case(help_names_it)
    shutil.rmtree(tmp, ignore_errors=True)
done()
