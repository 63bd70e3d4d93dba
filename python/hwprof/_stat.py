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
    command failed, left out of the rows. A result of hwprof.stat() or
    Result.read is a libhwprof result: write() saves it as 'hwprof stat
    --json' does, and compare() compares it.
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
        r._load(_Handle(h, lib.hwp_result_free))
        return r

    def _load(self, handle):
        """The runs and rows of C result @handle, which this result keeps."""
        self._handle, h = handle, handle.ptr
        nr_runs = lib.hwp_result_nr_runs(h)
        secs = lib.hwp_result_seconds(h)
        self.seconds = [secs[i] for i in range(nr_runs)] if secs else []
        si = _lib.opts(_lib.SeriesInfo)
        for i in range(lib.hwp_result_nr_series(h)):
            check(lib.hwp_result_series(h, i, ctypes.byref(si)))
            vals = [si.values[j] for j in range(si.nr_runs)]
            row = Row(_lib.text(si.name), _KINDS.get(si.kind, str(si.kind)),
                      _lib.text(si.unit) or "", bool(si.supported), _lib.text(si.reason), vals)
            row.summary = summarize(vals) if vals else None
            # the library's: a metric's formula on the mean counts
            row.value = si.value
            self.rows[row.name] = row

    def write(self, path: Union[str, os.PathLike], format: str = "json") -> None:
        """Write as hwprof stat does ("json", "csv", "text"): JSON is the
        file 'hwprof stat --json -o' saves, which Result.read, compare()
        and 'hwprof compare' read."""
        _check_handle(self, "Result.write")
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


def _check_handle(r, who):
    if r._handle is None:
        raise HwprofError(22, f"hwprof: {who}: this Result was made in Python, not "
                              "measured by hwprof.stat() nor read by Result.read")


def _format(name):
    try:
        return _FORMATS[name]
    except KeyError:
        raise ValueError(f"hwprof: no format {name!r}: one of {', '.join(_FORMATS)}") from None


def _run_once(argv, evl, nr, buf, res):
    """Run @argv once, counting @evl; a run that exits 0 goes into C result
    @res, as hwprof stat keeps it. Returns its exit code."""
    w = ctypes.c_void_p()
    cargv = _argv(argv)
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
        code = lib.hwp_workload_exit_code(status.value)
        if code == 0:
            user, system = ctypes.c_double(), ctypes.c_double()
            check(lib.hwp_result_add_run(res, sess, buf, lib.hwp_workload_elapsed(w)))
            if lib.hwp_workload_cpu_times(w, ctypes.byref(user), ctypes.byref(system)) == 0:
                check(lib.hwp_result_set_run_times(res, user, system))
        return code
    finally:
        lib.hwp_session_free(sess)
        lib.hwp_workload_free(w)


def _argv(argv):
    return (ctypes.c_char_p * (len(argv) + 1))(*[os.fsencode(a) for a in argv], None)


def _metric(defn, evl):
    m = ctypes.c_void_p()
    check(lib.hwp_metric_parse(defn.encode(), ctypes.byref(m)))
    ret = lib.hwp_metric_check(m, evl)
    if ret < 0:
        err = _lib.error(ret)
        lib.hwp_metric_free(m)
        raise err
    return _Handle(m, lib.hwp_metric_free)


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
        h = ctypes.c_void_p()
        check(lib.hwp_result_new(ctypes.byref(h)))
        handle = _Handle(h, lib.hwp_result_free)
        check(lib.hwp_result_set_command(h, _argv(cmd)))
        mets = [_metric(d, evl) for d in metrics]
        for m in mets:
            check(lib.hwp_result_add_metric(h, m.ptr))
        nr = lib.hwp_evlist_nr_events(evl)
        buf = (_lib.Count * nr)()
        res = Result(command=list(cmd))
        for run in range(runs):
            code = _run_once(cmd, evl, nr, buf, h)
            if code != 0:
                res.failed_runs.append((run, code))
    finally:
        lib.hwp_evlist_free(evl)
    # The command's last exit status, as hwprof stat saves it.
    lib.hwp_result_set_exit_status(h, code)
    res._load(handle)
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

    Each is a Result (of hwprof.stat() or Result.read), or the path of a
    file 'hwprof stat --json' saved. Raises HwprofError (ERR_MISMATCH) when a side has fewer than 2
    runs or no row is common.
    """
    ra = a if isinstance(a, Result) else Result.read(a)
    rb = b if isinstance(b, Result) else Result.read(b)
    for r in (ra, rb):
        _check_handle(r, "hwprof.compare")
    o = _lib.opts(_lib.CompareOpts, alpha=alpha)
    c = ctypes.c_void_p()
    check(lib.hwp_compare_from_results(ra._handle.ptr, rb._handle.ptr, ctypes.byref(o),
                                  ctypes.byref(c)))
    return Comparison(_Handle(c, lib.hwp_compare_free))
