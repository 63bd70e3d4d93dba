#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The paired tests of lib/stats/paired.c against scipy's (python3-scipy):
ttest_rel (t, df, p and the 95% interval of the mean difference) and
wilcoxon (exact below 50 pairs without ties or zeros; else the normal
approximation with tie and continuity corrections, R's and correction=True
in scipy), to 1e-9. The series are made from seeds, so every run checks the
same numbers: noise, pairs on a drifting machine (1% a run), counts with
ties and zero differences. The interval is checked against the quantile of
scipy's t distribution (t_975() says why not against t.ppf's)."""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
try:
    from scipy import optimize, stats
except ImportError:
    # Debian's python3-scipy is for Debian's python3: run there if this
    # python (a virtualenv, pyenv) lacks it.
    if os.path.exists("/usr/bin/python3") and sys.executable != "/usr/bin/python3" \
            and not os.environ.get("HWPROF_SCIPY_RETRY"):
        os.environ["HWPROF_SCIPY_RETRY"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    stats = None

from common import case, check, done, skip  # noqa: E402

TOOL = sys.argv[1] if len(sys.argv) > 1 else "build/tests/paired-tool"
TOL = 1e-9


def ours(kind, a, b):
    """The tool's results for each (a, b): dicts of its numbers."""
    text = "".join(f"{kind} {len(x)} {' '.join(map(repr, x + y))}\n" for x, y in zip(a, b))
    p = subprocess.run([TOOL], input=text, capture_output=True, text=True, check=True)
    keys = ("statistic", "df", "p", "diff", "ci_low", "ci_high", "exact", "pairs")
    return [dict(zip(keys, map(float, line.split()))) for line in p.stdout.splitlines()]


def near(x, y, scale=1.0):
    return abs(x - y) <= TOL * max(1.0, abs(scale))


def series(rng, n, kind):
    """A pair of series of N runs: independent noise, a drift of 1% a run
    that both sides share with B 3% up, or counts with ties and zeros."""
    if kind == "noise":
        a = [rng.gauss(100, 5) for _ in range(n)]
        return a, [rng.gauss(101, 5) for _ in range(n)]
    if kind == "drift":
        a = [1000 * 1.01 ** (2 * i) + rng.gauss(0, 3) for i in range(n)]
        return a, [1030 * 1.01 ** (2 * i + 1) + rng.gauss(0, 3) for i in range(n)]
    a = [float(rng.randint(2000, 2010)) for _ in range(n)]
    return a, [x + rng.choice((-2, -1, 0, 0, 1, 2, 3)) for x in a]


def cases(kinds, sizes, seed):
    rng = random.Random(seed)
    return [series(rng, n, k) for k in kinds for n in sizes]


def t_975(df):
    """t(0.975, df) from scipy's t distribution, to 1e-14: scipy 1.10's
    t.ppf (cephes' stdtrit) is off by up to 2e-10, so its own
    confidence_interval() is only good to about 1e-9."""
    return optimize.brentq(lambda x: stats.t.cdf(x, df) - 0.975, 0, 100, xtol=1e-15,
                           rtol=1e-15)


def ttest_rel():
    """t, df, p and the interval of ttest_rel."""
    pairs = cases(("noise", "drift", "ties"), (2, 3, 5, 10, 20, 49, 50, 200), 24)
    got = ours("t", [a for a, _ in pairs], [b for _, b in pairs])
    for (a, b), g in zip(pairs, got):
        r = stats.ttest_rel(b, a)
        ci = r.confidence_interval(0.95)
        n = len(a)
        d = [y - x for x, y in zip(a, b)]
        half = t_975(n - 1) * stats.sem(d)
        mean = sum(d) / n
        check(g["pairs"] == n and g["df"] == n - 1, f"{n} pairs: {g}")
        check(near(g["statistic"], r.statistic, r.statistic), f"t {g['statistic']} {r.statistic}")
        check(near(g["p"], r.pvalue), f"n {n}: p {g['p']!r} scipy {r.pvalue!r}")
        check(near(g["diff"], mean, mean), f"mean difference {g['diff']} {mean}")
        check(near(g["ci_low"], mean - half, half) and near(g["ci_high"], mean + half, half),
              f"interval [{g['ci_low']}, {g['ci_high']}] scipy's t [{mean - half}, {mean + half}]")
        check(abs(g["ci_low"] - ci.low) < 1e-7 * half and abs(g["ci_high"] - ci.high) < 1e-7 * half,
              f"interval [{g['ci_low']}, {g['ci_high']}] ttest_rel's [{ci.low}, {ci.high}]")


def wilcoxon_exact():
    """Below 50 pairs, no ties or zeros: the exact distribution."""
    pairs = cases(("noise", "drift"), (2, 3, 4, 6, 9, 15, 25, 40, 49), 7)
    got = ours("w", [a for a, _ in pairs], [b for _, b in pairs])
    for (a, b), g in zip(pairs, got):
        n = len(a)
        r = stats.wilcoxon(b, a, method="exact")
        check(g["exact"] == 1, f"{n} pairs: exact")
        # scipy gives the smaller of W+ and W-; the tool W+.
        check(min(g["statistic"], n * (n + 1) / 2 - g["statistic"]) == r.statistic,
              f"W+ {g['statistic']} scipy {r.statistic}")
        check(near(g["p"], r.pvalue), f"n {n}: p {g['p']!r} scipy {r.pvalue!r}")


def wilcoxon_normal():
    """Ties, zero differences, or 50 pairs and more: the normal
    approximation with the tie and continuity corrections."""
    pairs = cases(("ties",), (5, 10, 20, 60, 200), 11) + cases(("noise", "drift"), (50, 120), 3)
    got = ours("w", [a for a, _ in pairs], [b for _, b in pairs])
    for (a, b), g in zip(pairs, got):
        d = [y - x for x, y in zip(a, b)]
        if not any(d):
            continue
        r = stats.wilcoxon(b, a, zero_method="wilcox", correction=True, method="approx")
        m = sum(1 for x in d if x)
        check(g["exact"] == 0, f"{len(a)} pairs: approximate")
        check(min(g["statistic"], m * (m + 1) / 2 - g["statistic"]) == r.statistic,
              f"W+ {g['statistic']} scipy {r.statistic}")
        check(near(g["p"], r.pvalue), f"n {len(a)}: p {g['p']!r} scipy {r.pvalue!r}")


if stats is None:
    skip("scipy is not installed (Debian: apt-get install python3-scipy)")
for fn in (ttest_rel, wilcoxon_exact, wilcoxon_normal):
    case(fn)
done()
