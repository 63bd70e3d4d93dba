# SPDX-License-Identifier: MIT
"""hwprof.count: a counting session around a block of Python code."""

import ctypes
import math
import threading
from typing import Dict, NamedTuple, Optional

from . import _lib
from ._lib import lib, check, HwprofError

_STATUS = {_lib.EVENT_COUNTING: "counting", _lib.EVENT_NOT_SUPPORTED: "not supported",
           _lib.EVENT_USER_ONLY: "user only", _lib.EVENT_NOT_OPENED: "not opened"}


class Reading(NamedTuple):
    """One event's count over the measured block.

    value: the count scaled for multiplexing (raw * enabled / running), a
    float; NaN when the event never ran ("not counted", which is not 0).
    raw: the count as read. enabled, running: nanoseconds the event was
    enabled and on a counter (less when multiplexed). supported: whether the
    event opened on this machine; reason: why not (or why it counts user
    space only), else None. status: "counting", "not supported", "user only".
    """
    name: str
    value: float
    raw: int
    enabled: int
    running: int
    supported: bool
    reason: Optional[str]
    status: str

    @property
    def percent_running(self) -> float:
        """100 * running / enabled; NaN when never enabled."""
        return 100.0 * self.running / self.enabled if self.enabled else math.nan


def _parse(events: str):
    if not isinstance(events, str):
        raise TypeError(f"hwprof: events must be a str such as 'task-clock,page-faults', "
                        f"not {type(events).__name__}")
    evl = ctypes.c_void_p()
    check(lib.hwp_evlist_parse(events.encode(), None, ctypes.byref(evl)))
    return evl


class count:
    """Count hardware and software events around a block of code.

    ``with hwprof.count("task-clock,page-faults") as c: work()`` then
    ``c.counts["page-faults"].value``. The events are an event list as
    hwprof stat -e takes it (groups in braces, modifiers). They count the
    calling thread; with ``inherit=True`` also the threads and processes
    it creates inside the block (and then no user-space reads).

    The session opens at the first ``with`` and, unless ``open()`` was
    called first, closes at its end: call ``open()`` to keep the counters
    open across many blocks (cheaper), and ``close()`` (or ``with`` on a
    closed-later object) to free them. Counting is enabled as the last step
    of entering the block and disabled as the first step of leaving it.

    One object is used by one thread at a time: entering it on a thread
    while another is inside raises HwprofError (EBUSY), and leaving it on
    another thread than the one that entered raises too.
    """

    def __init__(self, events: str, *, inherit: bool = False, no_rdpmc: bool = False):
        self._evl = _parse(events)
        self._sess = ctypes.c_void_p()
        o = _lib.opts(_lib.SessionOpts, no_inherit=not inherit, no_rdpmc=no_rdpmc)
        ret = lib.hwp_session_new(self._evl, ctypes.byref(o), ctypes.byref(self._sess))
        if ret < 0:
            err = _lib.error(ret)
            lib.hwp_evlist_free(self._evl)
            self._evl = None
            raise err
        self._nr = lib.hwp_session_nr_events(self._sess)
        self._buf = (_lib.Count * self._nr)()
        # A row an event, or the instances of one merged (uncore_imc/X/):
        # its name and the indices of its events.
        self._names, self._rows = [], []
        info = _lib.opts(_lib.EventInfo)
        for i in range(self._nr):
            check(lib.hwp_evlist_event(self._evl, i, ctypes.byref(info)))
            if self._rows and _lib.event_merged(self._evl, i):
                self._rows[-1].append(i)
                continue
            self._names.append(_lib.text(info.name))
            self._rows.append([i])
        self._is_open = False
        self._kept_open = False
        self._owner = None
        self._lock = threading.Lock()
        self._snap = None
        self._counts: Dict[str, Reading] = {}
        self._status = []
        # Bound once: the calls of enter and exit are then attribute-free.
        self._enable = lib.hwp_session_enable
        self._disable = lib.hwp_session_disable

    def _handle(self):
        if not self._sess:
            raise HwprofError(9, "hwprof.count: the session was closed: create a new "
                                 "hwprof.count() to count again")
        return self._sess

    def open(self) -> "count":
        """Open the counters (disabled) and keep them open across blocks."""
        self._open()
        self._kept_open = True
        return self

    def _open(self):
        sess = self._handle()
        check(lib.hwp_session_open(sess))
        self._is_open = True
        # What became of each event is settled at the open: asked once.
        self._status = []
        reason = ctypes.c_char_p()
        for i in range(self._nr):
            st = lib.hwp_session_event_status(sess, i, ctypes.byref(reason))
            self._status.append((st in (_lib.EVENT_COUNTING, _lib.EVENT_USER_ONLY),
                                 _lib.text(reason.value), _STATUS.get(st, str(st))))

    @property
    def counts(self) -> Dict[str, Reading]:
        """Each event's Reading over the last block, by name as written."""
        if self._snap is not None:
            self._counts = self._readings(self._snap)
            self._snap = None
        return self._counts

    def close(self) -> None:
        """Close the counters and free the session; the object is then unusable."""
        with self._lock:
            if self._owner is not None:
                raise HwprofError(16, "hwprof.count: close() inside its with block")
            if self._sess:
                lib.hwp_session_free(self._sess)
                self._sess = ctypes.c_void_p()
            if self._evl:
                lib.hwp_evlist_free(self._evl)
                self._evl = None
            self._is_open = False

    def __del__(self):
        if getattr(self, "_sess", None) or getattr(self, "_evl", None):
            self._owner = None
            self.close()

    @property
    def events(self):
        """The event names, as written in the list."""
        return list(self._names)

    @property
    def rdpmc(self) -> bool:
        """Whether reads go through user space (rdpmc) without a system call."""
        return bool(self._is_open and lib.hwp_session_rdpmc(self._handle()))

    def __enter__(self) -> "count":
        with self._lock:
            if self._owner is not None:
                raise HwprofError(16, "hwprof.count: already counting on thread "
                                      f"{self._owner}: one object counts one block "
                                      "at a time; create one per thread")
            sess = self._handle()
            self._owner = threading.get_ident()
        try:
            if not self._is_open:
                self._open()
            else:
                check(lib.hwp_session_reset(sess))
            # the last step: nothing of the binding's is counted before it
            check(self._enable(sess))
        except BaseException:
            # a failed enable leaves the object usable, its counters closed
            # unless open() keeps them
            if self._is_open and not self._kept_open:
                lib.hwp_session_close(self._sess)
                self._is_open = False
            self._owner = None
            raise
        return self

    def __exit__(self, *exc):
        self._disable(self._sess)
        if self._owner != threading.get_ident():
            raise HwprofError(16, "hwprof.count: the block was left on another thread "
                                  "than the one that entered it")
        try:
            check(lib.hwp_session_read(self._sess, self._buf, self._nr))
            # The readings are made when asked for: leaving stays cheap.
            self._snap = (_lib.Count * self._nr).from_buffer_copy(self._buf)
        finally:
            if not self._kept_open:
                lib.hwp_session_close(self._sess)
                self._is_open = False
            self._owner = None
        return False

    def _readings(self, snap):
        out = {}
        for name, row in zip(self._names, self._rows):
            out[name] = self._reading(name, row, snap)
        return out

    def _reading(self, name, row, snap):
        # A merged row, as the library's: the sum of each instance's scaled
        # count (one that never ran adds 0), NaN when none ran; the times
        # summed; supported when each instance is, else as the first not.
        ran = [snap[i] for i in row if snap[i].time_running]
        value = sum(c.value * c.time_enabled / c.time_running for c in ran) \
            if ran else math.nan
        status = next((self._status[i] for i in row if not self._status[i][0]),
                      self._status[row[0]])
        return Reading(name, value, sum(snap[i].value for i in row),
                       sum(snap[i].time_enabled for i in row),
                       sum(snap[i].time_running for i in row), *status)
