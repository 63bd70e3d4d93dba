# SPDX-License-Identifier: MIT
"""hwprof: hardware and software event counting for Python.

A binding of libhwprof (libhwprof.so.0) through ctypes, from Python's
standard library: nothing to build or install beyond the C library. See
docs/python.md.
"""

from ._lib import (HwprofError, ERR_UNKNOWN_EVENT, ERR_SYNTAX, ERR_NO_PMU,
                   ERR_NOTHING_COUNTED, ERR_UNDEFINED, ERR_UNKNOWN_NAME, ERR_EXEC,
                   ERR_FORMAT, ERR_MISMATCH, ERR_NO_DEBUGINFO, lib as _clib, text as _text)
from ._count import count, Reading
from ._region import region, region_setup, region_results, region_save, RegionResult
from ._stat import stat, compare, Result, Row, Summary, Comparison, CompareRow, summarize
from ._profile import Profile, Entry, Caller

__version__ = _text(_clib.hwp_version())

__all__ = [
    "__version__", "HwprofError", "count", "Reading", "region", "region_setup",
    "region_results", "region_save", "RegionResult", "stat", "compare", "Result", "Row",
    "Summary", "Comparison", "CompareRow", "summarize", "Profile", "Entry", "Caller",
    "ERR_UNKNOWN_EVENT", "ERR_SYNTAX", "ERR_NO_PMU", "ERR_NOTHING_COUNTED",
    "ERR_UNDEFINED", "ERR_UNKNOWN_NAME", "ERR_EXEC", "ERR_FORMAT", "ERR_MISMATCH",
    "ERR_NO_DEBUGINFO",
]
