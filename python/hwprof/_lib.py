# SPDX-License-Identifier: MIT
"""The C library, through ctypes: every prototype the package calls.

This is the one module that names C functions and lays out C structs, so
that a rename of the C API is replayed here alone. The library is found
through $HWPROF_LIBRARY (a path to libhwprof.so.0), else, in the build
tree's copy of the package, the library built beside it (_buildtree.py,
which meson writes there only), else by its soname, as the dynamic linker
finds an installed one.
"""

import ctypes
import errno as _errno
import os

from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char_p, c_double, c_int,
                    c_int64, c_size_t, c_uint, c_uint64, c_void_p)

SONAME = "libhwprof.so.0"


def _library_path():
    path = os.environ.get("HWPROF_LIBRARY")
    if path:
        return path
    try:
        from ._buildtree import LIBRARY
        return LIBRARY
    except ImportError:
        return SONAME


def _load():
    path = _library_path()
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise ImportError(
            f"hwprof: cannot load the C library {path!r}: {e}; install libhwprof "
            f"(meson install) or set HWPROF_LIBRARY to the path of {SONAME}") from None


lib = _load()
libc = ctypes.CDLL(None, use_errno=True)


def _fn(name, restype, *argtypes):
    """Declare the C prototype of lib.NAME: what it returns, what it takes."""
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


class HwprofError(OSError):
    """A call into libhwprof failed.

    ``errno`` is the positive error code (an errno value, or 4000 and up
    for the library's own: ``hwprof.ERR_UNKNOWN_EVENT``...), ``message``
    the library's message (``hwp_errmsg()``): what failed, why and what
    to do.
    """

    def __init__(self, err, message):
        super().__init__(err, message)
        self.message = message

    def __str__(self):
        return self.message


def error(err, what=None):
    """A HwprofError for the negative return @err, with the thread's message."""
    err = -err if err < 0 else err
    msg = lib.hwp_errmsg().decode("utf-8", "replace")
    if not msg:
        msg = lib.hwp_strerror(-err).decode("utf-8", "replace")
        if what:
            msg = f"{what}: {msg}"
    return HwprofError(err, msg)


def check(ret, what=None):
    """Raise HwprofError for a negative return; else return it."""
    if ret < 0:
        raise error(ret, what)
    return ret


def text(p):
    return None if p is None else p.decode("utf-8", "replace")


# --- errors, version, logging
ERR_BASE = 4000
(ERR_UNKNOWN_EVENT, ERR_SYNTAX, ERR_NO_PMU, ERR_NOTHING_COUNTED, ERR_UNDEFINED,
 ERR_UNKNOWN_NAME, ERR_EXEC, ERR_FORMAT, ERR_MISMATCH, ERR_NO_DEBUGINFO) = range(4000, 4010)

_fn("hwp_strerror", c_char_p, c_int)
_fn("hwp_errmsg", c_char_p)
_fn("hwp_version", c_char_p)

# --- event lists
_fn("hwp_evlist_parse", c_int, c_char_p, c_void_p, POINTER(c_void_p))
_fn("hwp_evlist_free", None, c_void_p)
_fn("hwp_evlist_nr_events", c_size_t, c_void_p)


class EventInfo(Structure):
    # The leading fields of struct hwp_event_info; sz says how many.
    _fields_ = [("sz", c_size_t), ("name", c_char_p), ("canonical", c_char_p),
                ("desc", c_char_p), ("unit", c_char_p), ("source", c_int),
                ("group", c_size_t), ("is_leader", c_bool), ("is_hardware", c_bool)]


_fn("hwp_evlist_event", c_int, c_void_p, c_size_t, POINTER(EventInfo))

_INFO_MAX = 1024


def event_merged(evl, idx):
    """hwp_event_info.merged of event @idx: an instance after the first of a
    merged row. It lies past the perf_event_attr, whose size the library
    was built with (attr.size): the C layout is worked out from it (LP64:
    the attr 8-aligned after the leading fields, then double scale, bool
    is_topdown, bool merged). -errno of hwp_evlist_event() raises."""
    buf = (ctypes.c_uint8 * _INFO_MAX)()
    ctypes.c_size_t.from_buffer(buf).value = _INFO_MAX
    ret = lib.hwp_evlist_event(evl, idx, ctypes.cast(buf, POINTER(EventInfo)))
    if ret < 0:
        raise error(ret)
    attr = (ctypes.sizeof(EventInfo) + 7) // 8 * 8
    attr_size = ctypes.c_uint32.from_buffer(buf, attr + 4).value
    scale = attr + (attr_size + 7) // 8 * 8
    value = c_double.from_buffer(buf, scale).value
    # A layout worked out wrong would read some byte silently: the scale
    # before the flag (1 but for a PMU's NAME.scale) says it is the field.
    if not (0 < value < float("inf")) or scale + ctypes.sizeof(c_double) + 2 > _INFO_MAX:
        raise RuntimeError(f"hwprof: hwp_event_info of event {idx} is not laid out as "
                           f"this package expects (scale {value!r} at byte {scale}): "
                           "the library and the package differ; reinstall them together")
    return bool(buf[scale + ctypes.sizeof(c_double) + 1])

# --- counting sessions
SCOPE_THREAD = 0
EVENT_COUNTING, EVENT_NOT_SUPPORTED, EVENT_USER_ONLY, EVENT_NOT_OPENED = range(4)


class SessionOpts(Structure):
    _fields_ = [("sz", c_size_t), ("scope", c_int), ("pid", c_int), ("cpus", c_char_p),
                ("no_inherit", c_bool), ("enable_on_exec", c_bool), ("no_rdpmc", c_bool),
                ("aggr", c_int), ("cgroup", c_char_p)]


class Count(Structure):
    _fields_ = [("value", c_uint64), ("time_enabled", c_uint64), ("time_running", c_uint64)]


_fn("hwp_session_new", c_int, c_void_p, POINTER(SessionOpts), POINTER(c_void_p))
_fn("hwp_session_open", c_int, c_void_p)
_fn("hwp_session_enable", c_int, c_void_p)
_fn("hwp_session_disable", c_int, c_void_p)
_fn("hwp_session_reset", c_int, c_void_p)
_fn("hwp_session_close", None, c_void_p)
_fn("hwp_session_free", None, c_void_p)
_fn("hwp_session_nr_events", c_size_t, c_void_p)
_fn("hwp_session_evlist", c_void_p, c_void_p)
_fn("hwp_session_read", c_int, c_void_p, POINTER(Count), c_size_t)
_fn("hwp_session_rdpmc", c_bool, c_void_p)
_fn("hwp_session_event_status", c_int, c_void_p, c_size_t, POINTER(c_char_p))
_fn("hwp_count_scaled", c_double, POINTER(Count))

# --- workloads
_fn("hwp_workload_new", c_int, POINTER(c_char_p), c_void_p, POINTER(c_void_p))
_fn("hwp_workload_pid", c_int, c_void_p)
_fn("hwp_workload_start", c_int, c_void_p)
_fn("hwp_workload_wait", c_int, c_void_p, POINTER(c_int))
_fn("hwp_workload_elapsed", c_double, c_void_p)
_fn("hwp_workload_exit_code", c_int, c_int)
_fn("hwp_workload_cpu_times", c_int, c_void_p, POINTER(c_double), POINTER(c_double))
_fn("hwp_workload_free", None, c_void_p)

# --- regions
class RegionOpts(Structure):
    _fields_ = [("sz", c_size_t), ("events", c_char_p), ("output", c_char_p),
                ("sample_every", c_uint), ("no_rdpmc", c_bool)]


class RegionInfo(Structure):
    _fields_ = [("sz", c_size_t), ("name", c_char_p), ("tid", c_int),
                ("nr_threads", c_size_t), ("calls", c_uint64), ("measured_calls", c_uint64),
                ("ops", c_uint64), ("seconds", c_double), ("too_short", c_bool),
                ("nr_events", c_size_t), ("values", POINTER(c_double)),
                ("evlist", c_void_p)]


class RegionsetInfo(Structure):
    _fields_ = [("sz", c_size_t), ("event_spec", c_char_p), ("sample_every", c_uint),
                ("read_cost_ns", c_double), ("nr_regions", c_size_t),
                ("nr_unreadable", c_size_t)]


_fn("hwp_region_init", c_int, POINTER(RegionOpts))
_fn("hwp_region_begin", c_int, c_char_p)
_fn("hwp_region_end", c_int, c_char_p)
_fn("hwp_region_end_ops", c_int, c_char_p, c_uint64)
_fn("hwp_region_save", c_int, c_char_p)
_fn("hwp_region_settings", c_int, POINTER(RegionsetInfo))
_fn("hwp_regionset_from_regions", c_int, POINTER(c_void_p))
_fn("hwp_regionset_load", c_int, c_char_p, POINTER(c_void_p))
_fn("hwp_regionset_free", None, c_void_p)
_fn("hwp_regionset_info", c_int, c_void_p, POINTER(RegionsetInfo))
_fn("hwp_regionset_region", c_int, c_void_p, c_size_t, POINTER(RegionInfo))
_fn("hwp_regionset_nr_series", c_size_t, c_void_p, c_size_t)


class SeriesInfo(Structure):
    _fields_ = [("sz", c_size_t), ("name", c_char_p), ("unit", c_char_p), ("kind", c_int),
                ("supported", c_bool), ("reason", c_char_p), ("nr_runs", c_size_t),
                ("values", POINTER(c_double)), ("percent_running", POINTER(c_double)),
                ("value", c_double)]


_fn("hwp_regionset_series", c_int, c_void_p, c_size_t, c_size_t, POINTER(SeriesInfo))

# --- results and comparisons
FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_FOLDED, FORMAT_OPENMETRICS, \
    FORMAT_PROMETHEUS, FORMAT_SPEEDSCOPE, FORMAT_PPROF, FORMAT_HTML = range(9)
SERIES_EVENT, SERIES_METRIC, SERIES_SCORE, SERIES_TIME = range(4)


class WriteOpts(Structure):
    _fields_ = [("sz", c_size_t), ("format", c_int), ("separator", c_char_p),
                ("no_big_num", c_bool), ("interval", c_double), ("no_header", c_bool),
                ("sort", c_int), ("top", c_size_t), ("annotate", c_char_p),
                ("per_run", c_bool)]


_fn("hwp_result_load", c_int, c_char_p, POINTER(c_void_p))
_fn("hwp_result_free", None, c_void_p)
_fn("hwp_result_nr_runs", c_size_t, c_void_p)
_fn("hwp_result_nr_series", c_size_t, c_void_p)
_fn("hwp_result_series", c_int, c_void_p, c_size_t, POINTER(SeriesInfo))
_fn("hwp_result_seconds", POINTER(c_double), c_void_p)
_fn("hwp_result_write", c_int, c_void_p, c_void_p, POINTER(WriteOpts))
_fn("hwp_result_new", c_int, POINTER(c_void_p))
_fn("hwp_result_set_command", c_int, c_void_p, POINTER(c_char_p))
_fn("hwp_result_add_metric", c_int, c_void_p, c_void_p)
_fn("hwp_result_add_run", c_int, c_void_p, c_void_p, POINTER(Count), c_double)
_fn("hwp_result_set_run_times", c_int, c_void_p, c_double, c_double)
_fn("hwp_result_set_exit_status", None, c_void_p, c_int)

VERDICTS = {0: "unchanged", 1: "increase", 2: "decrease", 3: "n/a"}


class CompareOpts(Structure):
    _fields_ = [("sz", c_size_t), ("alpha", c_double), ("test", c_int),
                ("no_correction", c_bool), ("a_name", c_char_p), ("b_name", c_char_p)]


class CompareInfo(Structure):
    _fields_ = [("sz", c_size_t), ("name", c_char_p), ("unit", c_char_p), ("kind", c_int),
                ("column", c_char_p), ("a_n", c_size_t), ("b_n", c_size_t),
                ("a_mean", c_double), ("b_mean", c_double), ("a_cv", c_double),
                ("b_cv", c_double), ("ratio", c_double), ("diff", c_double),
                ("ci_low", c_double), ("ci_high", c_double), ("statistic", c_double),
                ("df", c_double), ("p_value", c_double), ("p_raw", c_double),
                ("exact", c_bool), ("verdict", c_int), ("reason", c_char_p),
                ("a_outliers", c_size_t), ("b_outliers", c_size_t),
                ("noise_rank", c_size_t), ("aggr_unit", c_char_p)]


_fn("hwp_compare_from_results", c_int, c_void_p, c_void_p, POINTER(CompareOpts),
    POINTER(c_void_p))
_fn("hwp_compare_free", None, c_void_p)
_fn("hwp_compare_nr_rows", c_size_t, c_void_p)
_fn("hwp_compare_cell", c_int, c_void_p, c_size_t, c_size_t, POINTER(CompareInfo))
_fn("hwp_compare_warning", c_char_p, c_void_p, c_size_t)
_fn("hwp_compare_write", c_int, c_void_p, c_void_p, POINTER(WriteOpts))

# --- profiles
SORTS = {"sym": 0, "rip": 1, "line": 2, "dso": 3, "module": 3}


class ProfileOpts(Structure):
    _fields_ = [("sz", c_size_t), ("event", c_char_p), ("kallsyms", c_char_p)]


class ProfileInfo(Structure):
    _fields_ = [("sz", c_size_t), ("input", c_char_p), ("event", c_char_p),
                ("samples", c_uint64), ("period", c_uint64)]


class Caller(Structure):
    _fields_ = [("name", c_char_p), ("dso", c_char_p), ("samples", c_uint64),
                ("percent", c_double)]


class Entry(Structure):
    _fields_ = [("sz", c_size_t), ("rank", c_size_t), ("name", c_char_p),
                ("symbol", c_char_p), ("dso", c_char_p), ("samples", c_uint64),
                ("period", c_uint64), ("percent", c_double), ("address", c_uint64),
                ("offset", c_uint64), ("file", c_char_p), ("line", c_uint),
                ("inlined", c_char_p), ("bytes", c_void_p), ("nr_bytes", c_size_t),
                ("disasm", c_char_p), ("callers", POINTER(Caller)),
                ("nr_callers", c_size_t), ("comm", c_char_p), ("tid", c_int64),
                ("thread_comm", c_char_p), ("no_address", c_bool)]


class Stack(Structure):
    _fields_ = [("sz", c_size_t), ("frames", POINTER(c_char_p)), ("nr_frames", c_size_t),
                ("samples", c_uint64), ("period", c_uint64), ("truncated", c_bool)]


ENTRY_FN = CFUNCTYPE(c_int, POINTER(Entry), c_void_p)
STACK_FN = CFUNCTYPE(c_int, POINTER(Stack), c_void_p)

_fn("hwp_profile_load", c_int, c_char_p, c_void_p, POINTER(c_void_p))
_fn("hwp_profile_free", None, c_void_p)
_fn("hwp_profile_info", c_int, c_void_p, POINTER(ProfileInfo))
_fn("hwp_profile_foreach_entry", c_int, c_void_p, c_int, c_size_t, ENTRY_FN, c_void_p)
_fn("hwp_profile_foreach_stack", c_int, c_void_p, STACK_FN, c_void_p)
_fn("hwp_profile_write", c_int, c_void_p, c_void_p, POINTER(WriteOpts))

# --- C streams, for the hwp_*_write() functions
libc.fopen.argtypes = [c_char_p, c_char_p]
libc.fopen.restype = c_void_p
libc.fclose.argtypes = [c_void_p]
libc.fclose.restype = c_int


def write_file(fn, obj, path, opts):
    """Call hwp_*_write(obj, FILE *, opts) on a file opened at @path."""
    f = libc.fopen(os.fsencode(path), b"w")
    if not f:
        e = ctypes.get_errno()
        raise HwprofError(e, f"cannot open {path}: {os.strerror(e)}")
    ret = fn(obj, f, ctypes.byref(opts))
    err = error(ret) if ret < 0 else None
    if libc.fclose(f) != 0 and err is None:
        e = ctypes.get_errno() or _errno.EIO
        err = HwprofError(e, f"cannot write {path}: {os.strerror(e)}")
    if err:
        raise err


def opts(cls, **kw):
    o = cls(**kw)
    o.sz = ctypes.sizeof(cls)
    return o


# --- statistics and metrics
class StatsSummary(Structure):
    _fields_ = [("sz", c_size_t), ("n", c_size_t), ("mean", c_double), ("median", c_double),
                ("stddev", c_double), ("cv", c_double), ("min", c_double), ("max", c_double),
                ("rel_stderr", c_double), ("ci_low", c_double), ("ci_high", c_double)]


_fn("hwp_stats_summarize", c_int, POINTER(c_double), c_size_t, POINTER(StatsSummary))

_fn("hwp_metric_parse", c_int, c_char_p, POINTER(c_void_p))
_fn("hwp_metric_free", None, c_void_p)
_fn("hwp_metric_name", c_char_p, c_void_p)
_fn("hwp_metric_check", c_int, c_void_p, c_void_p)
