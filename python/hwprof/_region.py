# SPDX-License-Identifier: MIT
"""hwprof.region: the regions API (hwp_region_*) from Python."""

import ctypes
import functools
import math
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import _lib
from ._lib import lib, check


def region_setup(events: Optional[str] = None, output: Optional[str] = None,
                 sample_every: int = 0, no_rdpmc: bool = False) -> None:
    """Configure this process's regions, before the first one (optional).

    events: the event list (default as the C library's: task-clock,
    page-faults, context-switches, cpu-migrations, cycles, instructions);
    output: a JSON file written at exit; sample_every: measure one call in
    N and scale. $HWPROF_EVENTS, $HWPROF_OUTPUT and $HWPROF_SAMPLE_EVERY
    win over these. Raises HwprofError (EBUSY once regions are configured,
    or for bad events).
    """
    o = _lib.opts(_lib.RegionOpts, events=events.encode() if events else None,
                  output=output.encode() if output else None,
                  sample_every=sample_every, no_rdpmc=no_rdpmc)
    check(lib.hwp_region_init(ctypes.byref(o)))


# The library knows a region by its name's pointer first (a C program
# passes string literals): a buffer freed and reused for another name would
# be taken for the first. So each name gets one buffer, kept for the
# process's life, as a literal is; the same buffer each pass then spares
# the library even the string comparison.
_names: Dict[str, ctypes.c_char_p] = {}
_names_lock = threading.Lock()


def _cname(name: str) -> ctypes.c_char_p:
    with _names_lock:
        buf = _names.get(name)
        if buf is None:
            buf = _names[name] = ctypes.c_char_p(name.encode())
        return buf


class region:
    """A named region, counted each time a thread passes through it.

    As a context manager, ``with hwprof.region("solve"): solve()``; as a
    decorator, ``@hwprof.region("solve")``. ops: the operations one pass
    does (messages, bytes), for per-operation figures. Regions nest; each
    thread counts itself. Results: hwprof.region_results().
    """

    __slots__ = ("name", "ops", "_cname", "_begin", "_end")

    def __init__(self, name: str, ops: Optional[int] = None):
        if not isinstance(name, str) or not name:
            raise TypeError("hwprof.region: the name must be a non-empty str")
        if ops is not None and (not isinstance(ops, int) or ops < 0):
            raise ValueError("hwprof.region: ops must be an int >= 0")
        self.name = name
        self.ops = ops
        self._cname = _cname(name)
        self._begin = lib.hwp_region_begin
        self._end = lib.hwp_region_end if ops is None else lib.hwp_region_end_ops

    def __enter__(self) -> "region":
        ret = self._begin(self._cname)
        if ret < 0:
            raise _lib.error(ret)
        return self

    def __exit__(self, *exc):
        if self.ops is None:
            ret = self._end(self._cname)
        else:
            ret = self._end(self._cname, self.ops)
        if ret < 0:
            raise _lib.error(ret)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


@dataclass
class RegionResult:
    """One region's results over its calls (all threads).

    counts: each event's count over all calls (scaled for multiplexing and
    sparse measurement); per_call and per_op: the same divided by calls and
    by ops (per_op empty without ops); metrics: the metrics' values (the
    library's, such as CPUs-utilized). NaN where not counted or undefined.
    """
    name: str
    calls: int
    measured_calls: int
    ops: int
    seconds: float
    threads: int
    too_short: bool
    counts: Dict[str, float] = field(default_factory=dict)
    per_call: Dict[str, float] = field(default_factory=dict)
    per_op: Dict[str, float] = field(default_factory=dict)
    metrics: Dict[str, float] = field(default_factory=dict)


def _regionset_results(rs) -> List[RegionResult]:
    info = _lib.opts(_lib.RegionsetInfo)
    check(lib.hwp_regionset_info(rs, ctypes.byref(info)))
    out = []
    ri = _lib.opts(_lib.RegionInfo)
    si = _lib.opts(_lib.SeriesInfo)
    for i in range(info.nr_regions):
        check(lib.hwp_regionset_region(rs, i, ctypes.byref(ri)))
        r = RegionResult(_lib.text(ri.name), ri.calls, ri.measured_calls, ri.ops,
                         ri.seconds, ri.nr_threads, bool(ri.too_short))
        for j in range(lib.hwp_regionset_nr_series(rs, i)):
            check(lib.hwp_regionset_series(rs, i, j, ctypes.byref(si)))
            v = si.values[0] if si.nr_runs else math.nan
            name = _lib.text(si.name)
            if si.kind != _lib.SERIES_EVENT:
                r.metrics[name] = v
                continue
            r.counts[name] = v
            r.per_call[name] = v / r.calls if r.calls else math.nan
            if r.ops:
                r.per_op[name] = v / r.ops
        out.append(r)
    return out


def region_results(path: Optional[str] = None) -> List[RegionResult]:
    """The regions of this process so far, or those a program saved at @path.

    Regions still open are not counted yet. Raises HwprofError for a file
    that is not a regions file (hwprof-regions/1).
    """
    rs = ctypes.c_void_p()
    if path is None:
        check(lib.hwp_regionset_from_regions(ctypes.byref(rs)))
    else:
        check(lib.hwp_regionset_load(str(path).encode(), ctypes.byref(rs)))
    try:
        return _regionset_results(rs)
    finally:
        lib.hwp_regionset_free(rs)


def region_save(path: Optional[str] = None) -> None:
    """Write the regions so far as JSON (hwprof-regions/1) to @path, never
    half-written; None: to the configured output ($HWPROF_OUTPUT)."""
    check(lib.hwp_region_save(str(path).encode() if path is not None else None))
