#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof stat --format openmetrics and prometheus: checked by promtool (the
Prometheus text format, which node_exporter's textfile collector reads)
and, for OpenMetrics, which promtool does not check, by a strict parser of
the OpenMetrics 1.0 text format written here from the spec."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request

from common import HWPROF, WORKLOAD, WRAPPER, case, check, done, hwprof, run, skip
from omparse import Invalid, parse_openmetrics, promtool_check, samples, valid

MSGBENCH = os.environ.get("MSGBENCH")
# Regions are written where HWPROF_OUTPUT says: not inherited from the caller.
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("HWPROF_") or k == "HWPROF"}

EVENTS = "task-clock,page-faults,cpu-migrations,context-switches"


def openmetrics_stat():
    p = hwprof("stat", "--format", "openmetrics", "-o", "-", "-e", EVENTS, "-M",
               "faults/cs=page-faults / context-switches", "--", WORKLOAD, "pages", "64")
    if not check(p.returncode == 0, p.stderr):
        return
    fams = valid(p.stdout)
    if not fams:
        return
    command = f"{WORKLOAD} pages 64"
    pf = samples(fams, "hwprof_event", event="page-faults", command=command)
    check(len(pf) == 1 and pf[0][1] >= 64, f"page-faults, at least one a page touched: {pf}")
    mig = samples(fams, "hwprof_event", event="cpu-migrations")
    check(len(mig) == 1, f"hwprof_event_total{{event=\"cpu-migrations\"}}: {mig}")
    tc = samples(fams, "hwprof_event_seconds", event="task-clock")
    check(fams["hwprof_event_seconds"]["unit"] == "seconds", "clocks in seconds")
    check(len(tc) == 1 and 0 < tc[0][1] < 60, f"task-clock in seconds: {tc}")
    for name in ("hwprof_event", "hwprof_metric", "hwprof_elapsed_seconds"):
        check(fams.get(name, {}).get("help"), f"{name} has a HELP")
    check(fams["hwprof_metric"]["type"] == "gauge", "metrics are gauges")
    check(samples(fams, "hwprof_metric", metric="faults/sec"), "a built-in metric")
    check(all(v == 1 for _, v in samples(fams, "hwprof_event_supported")),
          "every event supported")
    el = samples(fams, "hwprof_elapsed_seconds")
    check(len(el) == 1 and el[0][1] > 0, f"elapsed: {el}")


def prometheus_stat():
    p = hwprof("stat", "--format", "prometheus", "-o", "-", "-e", EVENTS, "-r", "2",
               "--", WORKLOAD, "pages", "16")
    if not check(p.returncode == 0, p.stderr):
        return
    check("# EOF" not in p.stdout and "# UNIT" not in p.stdout, "no OpenMetrics lines")
    check("# TYPE hwprof_event_total counter" in p.stdout, p.stdout)
    check('run="2"' in p.stdout, "a sample a run with -r 2")
    promtool_check(p.stdout)


def not_supported_is_no_sample():
    """An event that cannot be counted is 0 in hwprof_event_supported and
    has no counter sample: never a fake 0."""
    p = hwprof("stat", "--format", "openmetrics", "-o", "-", "-e", "task-clock,cycles",
               "--", "true")
    fams = valid(p.stdout)
    if not fams:
        return
    for lb, v in samples(fams, "hwprof_event_supported"):
        counted = samples(fams, "hwprof_event", event=lb["event"])
        if v == 0:
            check(not counted, f"{lb['event']}: not supported, and no sample: {counted}")
    check(samples(fams, "hwprof_event_supported", event="task-clock"), "task-clock listed")


def escaped_labels():
    """Backslash, double quote and line feed in a label value, escaped."""
    arg = 'a"b\\c\nd'
    p = hwprof("stat", "--format", "openmetrics", "-o", "-", "-e", "task-clock", "--",
               "sh", "-c", "true", arg)
    check(p.returncode == 0, p.stderr)
    check('a\\"b\\\\c\\nd' in p.stdout, f"escaped in the text: {p.stdout}")
    fams = valid(p.stdout)
    if fams:
        tc = samples(fams, "hwprof_event_seconds", event="task-clock")
        check(tc and tc[0][0]["command"] == f"sh -c true {arg}", f"read back: {tc}")
    p = hwprof("stat", "--format", "prometheus", "-o", "-", "-e", "task-clock", "--",
               "sh", "-c", "true", arg)
    promtool_check(p.stdout)


def twice_and_not_utf8():
    """An event listed twice is two series, told apart by an occurrence
    label (a scraper refuses a sample twice); bytes that are not UTF-8 in
    the command line are U+FFFD, as both formats are UTF-8."""
    p = hwprof("stat", "--format", "openmetrics", "-o", "-", "-e", "task-clock,task-clock",
               "--", "true")
    fams = valid(p.stdout) if p.returncode == 0 else check(False, p.stderr)
    if fams:
        tc = samples(fams, "hwprof_event_seconds", event="task-clock")
        check(sorted(lb.get("occurrence", "1") for lb, _ in tc) == ["1", "2"],
              f"two series, the second with occurrence=\"2\": {tc}")
    for fmt in ("openmetrics", "prometheus"):
        p = subprocess.run([*WRAPPER, HWPROF, "stat", "--format", fmt, "-o", "-", "-e",
                            "task-clock", "--", "sh", "-c", "true", b"a\xffb\xc3"],
                           capture_output=True, timeout=60)
        try:
            out = p.stdout.decode("utf-8")
        except UnicodeDecodeError as e:
            check(False, f"{fmt}: not UTF-8: {e}: {p.stdout!r}")
            continue
        check(p.returncode == 0 and "true a\ufffdb\ufffd" in out, f"{fmt}: U+FFFD: {out}")
        if fmt == "openmetrics":
            valid(out)
        else:
            promtool_check(out)


def intervals():
    """-I: one exposition an interval, whose counters only grow."""
    p = hwprof("stat", "--format", "openmetrics", "-o", "-", "-I", "100", "-e",
               "task-clock,page-faults", "--", WORKLOAD, "cpuspin", "0.35")
    if not check(p.returncode == 0, p.stderr):
        return
    chunks = [c + "# EOF\n" for c in p.stdout.split("# EOF\n")[:-1]]
    check(p.stdout.endswith("# EOF\n") and len(chunks) >= 3, f"{len(chunks)} expositions")
    last_tc, last_el = -1.0, 0.0
    for c in chunks:
        fams = valid(c)
        if not fams:
            return
        tc = samples(fams, "hwprof_event_seconds", event="task-clock")[0][1]
        el = samples(fams, "hwprof_elapsed_seconds")[0][1]
        check(tc >= last_tc and el > last_el, f"totals grow: {tc} after {last_tc}")
        last_tc, last_el = tc, el
    check(last_tc > 0.3, f"the 0.35 s of CPU time the workload burns, in total: {last_tc}")
    p = hwprof("stat", "--format", "prometheus", "-I", "100", "--", "true")
    check(p.returncode == 2 and "openmetrics" in p.stderr, p.stderr)


def whole(text, fmt):
    """TEXT is one whole exposition: OpenMetrics ends with its # EOF; the
    Prometheus text format has no end mark, but hwprof writes the elapsed
    time last, so a cut file would lack its sample."""
    if fmt == "openmetrics":
        return text.count("# EOF\n") == 1 and text.endswith("# EOF\n")
    return (text.count("# TYPE hwprof_elapsed_seconds gauge\n") == 1
            and re.search(r"\nhwprof_elapsed_seconds\{[^\n]*\} [0-9.e+-]+\n\Z", text))


def interval_file(fmt):
    """-I -o FILE: a textfile collector reads the latest exposition, so the
    file is written whole each interval and renamed into place: whenever
    it is read, one exposition, never a half-written one, and at the end
    the totals of the whole run."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "hwprof.prom")
        proc = subprocess.Popen([*WRAPPER, HWPROF, "stat", "--format", fmt, "-o", out,
                                 "-I", "50", "-e", "task-clock", "--", WORKLOAD, "cpuspin",
                                 "0.4"], stderr=subprocess.PIPE, text=True)
        reads = []
        while proc.poll() is None:
            try:
                with open(out) as f:
                    reads.append(f.read())
            except FileNotFoundError:
                pass
            time.sleep(0.01)
        err = proc.stderr.read()
        proc.stderr.close()
        if not check(proc.returncode == 0, err):
            return
        with open(out) as f:
            reads.append(f.read())
        bad = [r for r in reads if not whole(r, fmt)]
        check(not bad, f"{len(bad)} of {len(reads)} reads not one whole exposition: {bad[:1]}")
        if fmt == "prometheus":
            promtool_check(reads[-1])
            m = re.search(r'hwprof_event_seconds_total\{event="task-clock"[^}]*\} (\S+)',
                          reads[-1])
            tc = float(m.group(1)) if m else 0
        else:
            fams = valid(reads[-1])
            tc = samples(fams, "hwprof_event_seconds", event="task-clock")[0][1] if fams else 0
        check(tc > 0.3, f"the last is the whole run's total: {tc}")
        check(os.listdir(d) == ["hwprof.prom"], f"no temporary file left: {os.listdir(d)}")


def node_exporter():
    """Debian's prometheus-node-exporter reads stat -I --format prometheus
    -o DIR/hwprof.prom with its textfile collector: every scrape while
    stat runs finds the file whole (node_textfile_scrape_error 0) and, at
    the end, the whole run's task-clock."""
    exe = shutil.which("prometheus-node-exporter")
    if not exe:
        skip("prometheus-node-exporter is not installed (Debian's; make test installs it)")
    with tempfile.TemporaryDirectory() as d, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        ne = subprocess.Popen([exe, "--collector.disable-defaults", "--collector.textfile",
                               f"--collector.textfile.directory={d}",
                               f"--web.listen-address=127.0.0.1:{port}"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            def scrape():
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                                timeout=30) as r:
                        return r.read().decode()
                except OSError:
                    return None

            deadline = time.monotonic() + 60
            while scrape() is None and time.monotonic() < deadline:
                time.sleep(0.1)
            stat = subprocess.Popen([*WRAPPER, HWPROF, "stat", "--format", "prometheus", "-o",
                                     os.path.join(d, "hwprof.prom"), "-I", "50", "-e",
                                     "task-clock", "--", WORKLOAD, "cpuspin", "0.4"],
                                    stderr=subprocess.PIPE, text=True)
            errors = []
            while stat.poll() is None:
                text = scrape() or ""
                errors += re.findall(r"^node_textfile_scrape_error [^0].*$", text, re.M)
            err = stat.stderr.read()
            stat.stderr.close()
            check(stat.returncode == 0, err)
            text = scrape() or ""
            check(not errors and "node_textfile_scrape_error 0" in text,
                  f"node_exporter's scrape errors: {errors[:3]}")
            m = re.search(r'^hwprof_event_seconds_total\{[^}]*event="task-clock"[^}]*\} (\S+)',
                          text, re.M)
            check(m and float(m.group(1)) > 0.3, f"the whole run's task-clock: {m and m.group(1)}")
        finally:
            ne.terminate()
            ne.wait(60)


def regions():
    if not MSGBENCH:
        skip("MSGBENCH is not set (meson test sets it)")
    for fmt in ("openmetrics", "prometheus"):
        p = run([HWPROF, "stat", "--regions", "--format", fmt, "-o", "-", "-e",
                 "context-switches,task-clock", "--", MSGBENCH, "2", "100"], env=CLEAN_ENV)
        if not check(p.returncode == 0, p.stderr):
            return
        if fmt == "prometheus":
            promtool_check(p.stdout[p.stdout.index("# TYPE"):])
            continue
        # The program's own output comes first on stdout.
        fams = valid(p.stdout[p.stdout.index("# TYPE"):])
        if not fams:
            return
        calls = samples(fams, "hwprof_region_calls", region="send")
        check(calls and calls[0][1] == 2, f"send: 2 calls: {calls}")
        cs = samples(fams, "hwprof_region_event", region="send", event="context-switches")
        check(len(cs) == 1, f"send's context-switches: {cs}")
        sec = samples(fams, "hwprof_region_event_seconds", region="send", event="task-clock")
        check(sec and sec[0][1] > 0, f"send's task-clock in seconds: {sec}")


def usage_errors():
    for args in (["--format", "yaml"], ["--format", "openmetrics", "--json"],
                 ["--format", "text", "-x", ";"], ["--format", "openmetrics", "--histogram",
                                                   "task-clock"]):
        p = hwprof("stat", *args, "--", "true")
        check(p.returncode == 2, f"{args}: status {p.returncode}: {p.stderr}")
    p = hwprof("stat", "--format", "json", "--json", "-o", "-", "-e", "task-clock", "--", "true")
    check(p.returncode == 0 and p.stdout.lstrip().startswith("{"), "--format json --json agree")
    p = hwprof("stat", "--format", "csv", "-o", "-", "-e", "task-clock", "--", "true")
    check(p.returncode == 0 and ",msec,task-clock," in p.stdout, f"--format csv: {p.stdout}")
    p = hwprof("stat", "--help")
    check("openmetrics" in p.stdout + p.stderr, "--help names the format")


def parser_rejects():
    """The parser of this test is strict: it rejects what the spec does."""
    bad = [
        "a_total 1\n",                                  # no # EOF
        "# TYPE a counter\na 1\n# EOF\n",               # counter without _total
        "# TYPE a gauge\na{x=\"\\t\"} 1\n# EOF\n",       # escape other than \\ \" \n
        "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na 2\n# EOF\n",  # not contiguous
        "# TYPE a_bytes gauge\n# UNIT a_bytes seconds\na_bytes 1\n# EOF\n",
        "# a comment\n# EOF\n",
        "# TYPE a counter\na_total -1\n# EOF\n",
        "# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n# EOF\n",
    ]
    for text in bad:
        try:
            parse_openmetrics(text)
            check(False, f"accepted: {text!r}")
        except Invalid:
            check(True, "")
    good = "# TYPE a counter\n# HELP a x\\\\y\na_total{l=\"q\\\"\\n\"} 1.5e3\n# EOF\n"
    fams = parse_openmetrics(good)
    check(fams["a"]["samples"][0][1] == {"l": 'q"\n'}, "unescaped")


case(parser_rejects)
case(openmetrics_stat, name="stat --format openmetrics")
case(prometheus_stat, name="stat --format prometheus, checked by promtool")
case(not_supported_is_no_sample)
case(escaped_labels)
case(twice_and_not_utf8)
case(intervals, name="-I: successive expositions")
case(interval_file, "openmetrics", name="-I -o FILE: the latest exposition, whole")
case(interval_file, "prometheus",
     name="-I --format prometheus -o FILE: node_exporter's textfile, whole")
case(node_exporter, name="node_exporter's textfile collector reads stat -I -o FILE")
case(regions, name="stat --regions --format openmetrics and prometheus")
case(usage_errors)
done()
