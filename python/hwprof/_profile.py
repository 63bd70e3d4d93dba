# SPDX-License-Identifier: MIT
"""hwprof.Profile: a perf.data file, aggregated."""

import ctypes
import os
from dataclasses import dataclass
from typing import List, Optional, Tuple, Union

from . import _lib
from ._lib import lib, check, HwprofError

_FORMATS = {"text": _lib.FORMAT_TEXT, "csv": _lib.FORMAT_CSV, "json": _lib.FORMAT_JSON,
            "folded": _lib.FORMAT_FOLDED, "speedscope": _lib.FORMAT_SPEEDSCOPE,
            "pprof": _lib.FORMAT_PPROF, "html": _lib.FORMAT_HTML}


@dataclass(frozen=True)
class Caller:
    name: str
    module: Optional[str]
    samples: int
    percent: float


@dataclass(frozen=True)
class Entry:
    """One entry of a profile's top list, as hwprof report shows it.

    name: what the entry is (a function, file:line, an address, a module);
    percent: of the profile's summed periods, as perf's "Overhead";
    address, file, line: for by="rip" and by="line" (address None where
    the instruction's file could not be read: its name's +0xOFFSET is then
    the offset in the file, as perf report's); callers: where the samples
    were called from (with call chains).
    """
    rank: int
    name: str
    symbol: Optional[str]
    module: Optional[str]
    samples: int
    period: int
    percent: float
    address: Optional[int]
    file: Optional[str]
    line: int
    callers: Tuple[Caller, ...]


class Profile:
    """A perf.data file (hwprof record's or perf record's), aggregated.

    ``p = hwprof.Profile("perf.data")``; ``p.top(10, by="sym")``,
    ``p.folded()``, ``p.write("out.pb.gz", "pprof")``. event: the event to
    report (default: the file's first). Raises HwprofError for a file that
    is missing or not perf.data (ERR_FORMAT, with the reason).
    """

    def __init__(self, path: Union[str, os.PathLike], event: Optional[str] = None):
        o = _lib.opts(_lib.ProfileOpts, event=event.encode() if event else None)
        self._p = ctypes.c_void_p()
        check(lib.hwp_profile_load(os.fsencode(path), ctypes.byref(o), ctypes.byref(self._p)))
        info = _lib.opts(_lib.ProfileInfo)
        check(lib.hwp_profile_info(self._p, ctypes.byref(info)))
        self.path = os.fspath(path)
        self.event = _lib.text(info.event)
        self.samples = info.samples
        self.period = info.period

    def _handle(self):
        if not self._p:
            raise HwprofError(9, f"hwprof.Profile: {self.path} was closed")
        return self._p

    def close(self) -> None:
        """Free the profile; later calls raise HwprofError."""
        if getattr(self, "_p", None):
            lib.hwp_profile_free(self._p)
            self._p = ctypes.c_void_p()

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def top(self, n: int = 10, by: str = "sym") -> List[Entry]:
        """The @n hottest entries (0: all), hottest first, grouped @by
        "sym" (function), "line", "rip" (instruction) or "module"."""
        if by not in _lib.SORTS:
            raise ValueError(f"hwprof.Profile.top: by is one of {', '.join(_lib.SORTS)}")
        out = []

        def each(e, ctx):
            e = e.contents
            callers = tuple(Caller(_lib.text(e.callers[i].name), _lib.text(e.callers[i].dso),
                                   e.callers[i].samples, e.callers[i].percent)
                            for i in range(e.nr_callers))
            out.append(Entry(e.rank, _lib.text(e.name), _lib.text(e.symbol),
                             _lib.text(e.dso), e.samples, e.period, e.percent,
                             None if e.no_address else e.address,
                             _lib.text(e.file), e.line, callers))
            return 0

        check(lib.hwp_profile_foreach_entry(self._handle(), _lib.SORTS[by], n,
                                            _lib.ENTRY_FN(each), None))
        return out

    def stacks(self) -> List[Tuple[Tuple[str, ...], int]]:
        """The distinct call chains by function, the outermost frame first,
        with their samples; most samples first."""
        out = []

        def each(st, ctx):
            st = st.contents
            out.append((tuple(_lib.text(st.frames[i]) for i in range(st.nr_frames)),
                        st.samples))
            return 0

        check(lib.hwp_profile_foreach_stack(self._handle(), _lib.STACK_FN(each), None))
        return out

    def folded(self) -> str:
        """The folded stacks ("main;work;leaf 42" a line), as flamegraph.pl reads them."""
        return "".join(f"{';'.join(f)} {n}\n" for f, n in self.stacks())

    def write(self, path: Union[str, os.PathLike], format: str = "pprof", top: int = 0,
              by: str = "sym") -> None:
        """Write the profile as hwprof report does: "pprof" (gzipped
        profile.proto), "speedscope", "html" (a flame graph), "folded",
        "json", "csv" or "text"; top and by for the entry lists."""
        if format not in _FORMATS:
            raise ValueError(f"hwprof.Profile.write: format is one of {', '.join(_FORMATS)}")
        if by not in _lib.SORTS:
            raise ValueError(f"hwprof.Profile.write: by is one of {', '.join(_lib.SORTS)}")
        o = _lib.opts(_lib.WriteOpts, format=_FORMATS[format], top=top, sort=_lib.SORTS[by])
        _lib.write_file(lib.hwp_profile_write, self._handle(), path, o)
