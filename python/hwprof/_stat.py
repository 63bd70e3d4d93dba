# SPDX-License-Identifier: MIT
"""hwprof.stat, hwprof.Result and hwprof.compare."""

import ctypes
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import lib, check, HwprofError
from ._count import _parse

_KINDS = {_lib.SERIES_EVENT: "event", _lib.SERIES_METRIC: "metric",
          _lib.SERIES_SCORE: "score", _lib.SERIES_TIME: "time"}
_FORMATS = {"text": _lib.FORMAT_TEXT, "csv": _lib.FORMAT_CSV, "json": _lib.FORMAT_JSON}


@dataclass(frozen=True)
class Summary:
    """What the runs' values come to (hwp_stats_summarize): n defined
    values, mean, median, stddev (n - 1), cv (stddev / |mean|), min, max,
    ci: the 95% confidence interval of the mean (Student's t). NaN where
    there are too few values."""
    n: int
    mean: float
    median: float
    stddev: float
    cv: float
    min: float
    max: float
    ci: Tuple[float, float]


def summarize(values: Sequence[float]) -> Summary:
    """Summarize @values (NaNs skipped), as hwprof stat does over runs."""
    arr = (ctypes.c_double * len(values))(*values)
    s = _lib.opts(_lib.StatsSummary)
    check(lib.hwp_stats_summarize(arr, len(values), ctypes.byref(s)))
    return Summary(s.n, s.mean, s.median, s.stddev, s.cv, s.min, s.max,
                   (s.ci_low, s.ci_high))


@dataclass
class Row:
    """One row of a result: an event or a metric, a value a run.

    values: per run (NaN where not counted or undefined); value: the mean
    of an event, or a metric's formula on the mean counts (as hwprof stat
    shows it); summary: the runs' distribution.
    """
    name: str
    kind: str
    unit: str
    supported: bool
    reason: Optional[str]
    values: List[float]
    value: float = math.nan
    summary: Optional[Summary] = None


@dataclass
class Result:
    """What hwprof stat measures, run after run.

    rows: by name, events in list order then metrics; seconds: each run's
    wall time; failed_runs: (run index, exit status) of the runs whose
    command failed, left out of the rows. A result read from a file
    (Result.read) can also be written (write) and compared (compare).
    """
    command: List[str]
    rows: Dict[str, Row] = field(default_factory=dict)
    seconds: List[float] = field(default_factory=list)
    failed_runs: List[Tuple[int, int]] = field(default_factory=list)
    _handle: Optional[ctypes.c_void_p] = field(default=None, repr=False, compare=False)

    def __getitem__(self, name: str) -> Row:
        return self.rows[name]

    @property
    def runs(self) -> int:
        return len(self.seconds)

    @classmethod
    def read(cls, path: Union[str, os.PathLike]) -> "Result":
        """Load what 'hwprof stat --json' (or Result.write) wrote."""
        h = ctypes.c_void_p()
        check(lib.hwp_result_load(os.fsencode(path), ctypes.byref(h)))
        r = cls(command=[])
        r._handle = _Handle(h, lib.hwp_result_free)
        nr_runs = lib.hwp_result_nr_runs(h)
        secs = lib.hwp_result_seconds(h)
        r.seconds = [secs[i] for i in range(nr_runs)] if secs else []
        si = _lib.opts(_lib.SeriesInfo)
        for i in range(lib.hwp_result_nr_series(h)):
            check(lib.hwp_result_series(h, i, ctypes.byref(si)))
            vals = [si.values[j] for j in range(si.nr_runs)]
            row = Row(_lib.text(si.name), _KINDS.get(si.kind, str(si.kind)),
                      _lib.text(si.unit) or "", bool(si.supported), _lib.text(si.reason), vals)
            row.summary = summarize(vals) if vals else None
            row.value = row.summary.mean if row.summary else math.nan
            r.rows[row.name] = row
        return r

    def write(self, path: Union[str, os.PathLike], format: str = "json") -> None:
        """Write as hwprof stat does ("json", "csv", "text"): only a result
        read from a file; a result measured by hwprof.stat() cannot be, as
        the C API keeps the builders of its results private."""
        if self._handle is None:
            raise HwprofError(95, "hwprof: a result measured by hwprof.stat() cannot be "
                                  "written in hwprof's formats (libhwprof keeps the "
                                  "builders of results private): run 'hwprof stat --json' "
                                  "to get a file")
        o = _lib.opts(_lib.WriteOpts, format=_format(format))
        _lib.write_file(lib.hwp_result_write, self._handle.ptr, path, o)


class _Handle:
    """A C object freed when the last Python reference goes."""

    def __init__(self, ptr, free):
        self.ptr, self._free = ptr, free

    def __del__(self):
        if self.ptr:
            self._free(self.ptr)
            self.ptr = None


def _format(name):
    try:
        return _FORMATS[name]
    except KeyError:
        raise ValueError(f"hwprof: no format {name!r}: one of {', '.join(_FORMATS)}") from None


def _run_once(argv, evl, nr, buf):
    w = ctypes.c_void_p()
    cargv = (ctypes.c_char_p * (len(argv) + 1))(*[os.fsencode(a) for a in argv], None)
    check(lib.hwp_workload_new(cargv, None, ctypes.byref(w)))
    sess = ctypes.c_void_p()
    try:
        o = _lib.opts(_lib.SessionOpts, pid=lib.hwp_workload_pid(w), enable_on_exec=True)
        check(lib.hwp_session_new(evl, ctypes.byref(o), ctypes.byref(sess)))
        check(lib.hwp_session_open(sess))
        check(lib.hwp_workload_start(w))
        status = ctypes.c_int()
        check(lib.hwp_workload_wait(w, ctypes.byref(status)))
        check(lib.hwp_session_read(sess, buf, nr))
        reasons = []
        for i in range(nr):
            why = ctypes.c_char_p()
            st = lib.hwp_session_event_status(sess, i, ctypes.byref(why))
            reasons.append((st in (_lib.EVENT_COUNTING, _lib.EVENT_USER_ONLY),
                            _lib.text(why.value)))
        return (lib.hwp_workload_exit_code(status.value), lib.hwp_workload_elapsed(w),
                [buf[i].value * buf[i].time_enabled / buf[i].time_running
                 if buf[i].time_running else math.nan for i in range(nr)], reasons)
    finally:
        lib.hwp_session_free(sess)
        lib.hwp_workload_free(w)


def _metric(defn, evl):
    m = ctypes.c_void_p()
    check(lib.hwp_metric_parse(defn.encode(), ctypes.byref(m)))
    ret = lib.hwp_metric_check(m, evl)
    if ret < 0:
        err = _lib.error(ret)
        lib.hwp_metric_free(m)
        raise err
    return _Handle(m, lib.hwp_metric_free)


def _key(name):
    return name.lower().replace("-", "").replace("_", "")


def _eval(metric, names, values, seconds):
    # A formula names an event as written, by its canonical name, or
    # ignoring case, '-' and '_' (hwp_metric_check() has vetted them).
    table = {"seconds": seconds}
    for (name, _, canonical), v in zip(names, values):
        for k in (name, canonical, _key(name), _key(canonical or name)):
            table.setdefault(k, v)

    def lookup(name, out, ctx):
        name = name.decode()
        v = table.get(name, table.get(_key(name)))
        if v is None:
            return -_lib.ERR_UNKNOWN_NAME
        if math.isnan(v):
            return -_lib.ERR_UNDEFINED
        out[0] = v
        return 0

    value = ctypes.c_double()
    ret = lib.hwp_metric_eval(metric.ptr, _lib.VALUE_FN(lookup), None, ctypes.byref(value))
    return value.value if ret == 0 else math.nan


def stat(cmd: Sequence[str], events: str = "task-clock,page-faults,context-switches,"
         "cpu-migrations", runs: int = 1, metrics: Sequence[str] = ()) -> Result:
    """Run @cmd @runs times and count @events in it, as hwprof stat does.

    cmd: the command and its arguments (never run through a shell);
    metrics: formulas "NAME=EXPR" over the events and seconds. A run whose
    command exits non-zero is in failed_runs, not in the rows. Raises
    HwprofError for bad events or metrics, or a command that cannot run.
    """
    if isinstance(cmd, (str, bytes)) or not cmd:
        raise TypeError("hwprof.stat: cmd is a non-empty list of arguments, "
                        "such as ['sleep', '1'] (never run through a shell)")
    if runs < 1:
        raise ValueError("hwprof.stat: runs must be 1 or more")
    evl = _parse(events)
    try:
        mets = [_metric(d, evl) for d in metrics]
        nr = lib.hwp_evlist_nr_events(evl)
        names, info = [], _lib.opts(_lib.EventInfo)
        for i in range(nr):
            check(lib.hwp_evlist_event(evl, i, ctypes.byref(info)))
            names.append((_lib.text(info.name), _lib.text(info.unit) or "",
                          _lib.text(info.canonical)))
        buf = (_lib.Count * nr)()
        res = Result(command=list(cmd))
        per_run, status = [], None
        for run in range(runs):
            code, secs, vals, status = _run_once(cmd, evl, nr, buf)
            if code != 0:
                res.failed_runs.append((run, code))
                continue
            res.seconds.append(secs)
            per_run.append(vals)
    finally:
        lib.hwp_evlist_free(evl)
    for i, (name, unit, _) in enumerate(names):
        vals = [v[i] for v in per_run]
        sup, why = status[i] if status else (False, None)
        row = Row(name, "event", unit, sup, why, vals)
        row.summary = summarize(vals) if vals else None
        row.value = row.summary.mean if row.summary else math.nan
        res.rows[name] = row
    means = [res.rows[n].value for n, _, _ in names]
    mean_secs = sum(res.seconds) / len(res.seconds) if res.seconds else math.nan
    for m in mets:
        mname = _lib.text(lib.hwp_metric_name(m.ptr))
        vals = [_eval(m, names, v, s) for v, s in zip(per_run, res.seconds)]
        row = Row(mname, "metric", "", True, None, vals,
                  _eval(m, names, means, mean_secs), summarize(vals) if vals else None)
        res.rows[mname] = row
    return res


@dataclass(frozen=True)
class CompareRow:
    """One row of a comparison (struct hwp_compare_info): the means of A and
    B, ratio B/A, diff B - A with its 95% interval, the p-value (after
    Holm's correction when it applies) and the verdict: "unchanged",
    "increase", "decrease" or "n/a" (no test, see reason)."""
    name: str
    kind: str
    unit: str
    unit_of_aggregation: Optional[str]
    a_mean: float
    b_mean: float
    a_n: int
    b_n: int
    ratio: float
    diff: float
    ci: Tuple[float, float]
    p_value: float
    p_raw: float
    verdict: str
    reason: Optional[str]
    noise_rank: int


class Comparison:
    """Is B different from A, row by row: rows (CompareRow), warnings, and
    write() in hwprof compare's formats."""

    def __init__(self, handle):
        self._handle = handle
        c = handle.ptr
        self.rows: List[CompareRow] = []
        ci = _lib.opts(_lib.CompareInfo)
        for i in range(lib.hwp_compare_nr_rows(c)):
            check(lib.hwp_compare_cell(c, i, 0, ctypes.byref(ci)))
            self.rows.append(CompareRow(
                _lib.text(ci.name), _KINDS.get(ci.kind, str(ci.kind)), _lib.text(ci.unit) or "",
                _lib.text(ci.aggr_unit), ci.a_mean, ci.b_mean, ci.a_n, ci.b_n, ci.ratio,
                ci.diff, (ci.ci_low, ci.ci_high), ci.p_value, ci.p_raw,
                _lib.VERDICTS.get(ci.verdict, str(ci.verdict)), _lib.text(ci.reason),
                ci.noise_rank))
        self.warnings: List[str] = []
        while True:
            w = lib.hwp_compare_warning(c, len(self.warnings))
            if w is None:
                break
            self.warnings.append(_lib.text(w))

    def __getitem__(self, name: str) -> CompareRow:
        for r in self.rows:
            if r.name == name and r.unit_of_aggregation is None:
                return r
        raise KeyError(name)

    def write(self, path: Union[str, os.PathLike], format: str = "json") -> None:
        """Write as hwprof compare does ("json", "csv", "text")."""
        o = _lib.opts(_lib.WriteOpts, format=_format(format))
        _lib.write_file(lib.hwp_compare_write, self._handle.ptr, path, o)


def compare(a: Union[Result, str, os.PathLike], b: Union[Result, str, os.PathLike],
            alpha: float = 0.05) -> Comparison:
    """Compare results @a (the baseline) and @b, as hwprof compare does.

    Each is a Result read from a file, or the path of one (hwprof stat
    --json). Raises HwprofError (ERR_MISMATCH) when a side has fewer than 2
    runs or no row is common.
    """
    ra = a if isinstance(a, Result) else Result.read(a)
    rb = b if isinstance(b, Result) else Result.read(b)
    for r in (ra, rb):
        if r._handle is None:
            raise HwprofError(95, "hwprof.compare: compares results read from files "
                                  "(hwprof.Result.read, 'hwprof stat --json'); a result of "
                                  "hwprof.stat() has no file")
    o = _lib.opts(_lib.CompareOpts, alpha=alpha)
    c = ctypes.c_void_p()
    check(lib.hwp_compare_from_results(ra._handle.ptr, rb._handle.ptr, ctypes.byref(o),
                                  ctypes.byref(c)))
    return Comparison(_Handle(c, lib.hwp_compare_free))
