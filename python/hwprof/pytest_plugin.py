# SPDX-License-Identifier: MIT
"""A pytest-benchmark plugin: event counts beside each benchmark's times.

Load it with ``pytest -p hwprof.pytest_plugin`` (or ``pytest_plugins =
["hwprof.pytest_plugin"]`` in the root conftest.py). Then:

- the ``hwprof_benchmark`` fixture is pytest-benchmark's ``benchmark``
  fixture with counting: each round of the benchmark runs inside a
  hwprof.count() block, outside the round's timed interval;
- ``--hwprof-events=LIST`` counts every ``benchmark`` fixture so, and sets
  the default events (task-clock,page-faults,context-switches,
  cpu-migrations); ``@pytest.mark.hwprof("LIST")`` sets one test's.

After the benchmark, ``benchmark.extra_info["hwprof"]`` (and so the
--benchmark-json file) holds, over the measured rounds (not calibration
nor warm-up): ``per_call`` (each event's count per call of the function,
the mean over rounds), ``rounds`` (that per-call value round by round),
``total``, ``calls``, and ``not_supported`` (event: reason).
"""

import math

import pytest

from ._count import count

DEFAULT_EVENTS = "task-clock,page-faults,context-switches,cpu-migrations"


def pytest_addoption(parser):
    group = parser.getgroup("hwprof", "hwprof event counts for pytest-benchmark")
    group.addoption("--hwprof-events", default=None, metavar="LIST",
                    help="count these events around every benchmark's rounds "
                         f"(default for hwprof_benchmark: {DEFAULT_EVENTS})")


def pytest_configure(config):
    config.addinivalue_line("markers", "hwprof(events): the events hwprof counts in "
                                       "this test's benchmark")


def _events(request):
    mark = request.node.get_closest_marker("hwprof")
    if mark and mark.args:
        return mark.args[0]
    return request.config.getoption("hwprof_events") or DEFAULT_EVENTS


class _Rounds:
    """The readings of each round, (calls, {event: Reading})."""

    def __init__(self, events):
        self.counter = count(events).open()
        self.rounds = []

    def wrap(self, make_runner):
        def patched(function, args, kwargs):
            runner = make_runner(function, args, kwargs)

            def counted(loops_range, *rest, **kw):
                with self.counter:
                    out = runner(loops_range, *rest, **kw)
                self.rounds.append((len(loops_range) if loops_range else 1,
                                    self.counter.counts))
                return out
            return counted
        return patched

    def extra_info(self, measured):
        rounds = self.rounds[-measured:] if measured else []
        info = {"events": ",".join(self.counter.events), "calls": 0, "per_call": {},
                "rounds": {}, "total": {}, "not_supported": {}}
        info["calls"] = sum(calls for calls, _ in rounds)
        for ev in self.counter.events:
            per_round = [r[ev].value / calls for calls, r in rounds]
            total = sum(r[ev].value for _, r in rounds)
            defined = [v for v in per_round if not math.isnan(v)]
            info["rounds"][ev] = [None if math.isnan(v) else v for v in per_round]
            info["total"][ev] = None if math.isnan(total) else total
            info["per_call"][ev] = sum(defined) / len(defined) if defined else None
            if rounds and not rounds[-1][1][ev].supported:
                info["not_supported"][ev] = rounds[-1][1][ev].reason
        return info


def _instrument(benchmark, events):
    make_runner = getattr(benchmark, "_make_runner", None)
    if make_runner is None:
        raise pytest.UsageError("hwprof.pytest_plugin: this pytest-benchmark has no "
                                "_make_runner (3.x and 4.x have): cannot count its rounds")
    rounds = _Rounds(events)
    benchmark._make_runner = rounds.wrap(make_runner)
    return rounds


def _finish(benchmark, rounds):
    try:
        stats = getattr(benchmark, "stats", None)
        measured = stats.stats.rounds if stats is not None else 0
        if measured:
            benchmark.extra_info["hwprof"] = rounds.extra_info(measured)
    finally:
        rounds.counter.close()


def _counted(benchmark, request):
    # Once a benchmark, whichever fixture asks first.
    if getattr(benchmark, "_hwprof_rounds", None) is not None:
        yield benchmark
        return
    rounds = _instrument(benchmark, _events(request))
    benchmark._hwprof_rounds = rounds
    yield benchmark
    _finish(benchmark, rounds)


@pytest.fixture
def hwprof_benchmark(benchmark, request):
    """pytest-benchmark's benchmark fixture, with event counts in extra_info."""
    yield from _counted(benchmark, request)


@pytest.fixture(autouse=True)
def _hwprof_every_benchmark(request):
    if request.config.getoption("hwprof_events") and "benchmark" in request.fixturenames:
        yield from _counted(request.getfixturevalue("benchmark"), request)
    else:
        yield
