#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""hwprof serve: GET /metrics in both formats (promtool, the strict
OpenMetrics parser), the counts of a cgroup against a workload's known
page faults, the cgroups under --cgroup-root found as they come and go,
the HTTP server's limits (bad requests, oversized headers, too many
connections, SIGTERM mid-scrape), 100 concurrent scrapes, no fd or memory
growth over many scrapes, and a real Prometheus scraping it every second:
the increase and a restart's reset, and rate() against a paced workload's
own log."""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from common import (HWPROF, WORKLOAD, WRAPPER, TestCgroup, case, check, done, hwprof, ncpus,
                    skip)
from omparse import parse_openmetrics, promtool_check, samples, valid

OM_ACCEPT = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"
# The limits of cli/serve.h, as hwprof-serve(1) documents them.
MAX_CONNECTIONS = 8


class Server:
    """hwprof serve ARGS on a free loopback port, stopped at the end."""

    def __init__(self, *args, listen="127.0.0.1:0"):
        self.proc = subprocess.Popen([*WRAPPER, HWPROF, "serve", "--listen", listen, *args],
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stderr.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/metrics", line)
        if not m:
            err = line + self.proc.stderr.read()
            self.proc.wait()
            self.proc.stderr.close()
            if "perf_event_paranoid" in err:
                skip(f"counting every task is not allowed here: {err.strip()}")
            raise AssertionError(f"hwprof serve did not start: {err}")
        self.port = int(m.group(1))

    def get(self, path="/metrics", accept=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request("GET", path, headers={"Accept": accept} if accept else {})
            r = c.getresponse()
            return r.status, r.getheader("Content-Type"), r.read().decode()
        finally:
            c.close()

    def scrape(self):
        """The OpenMetrics families of one scrape."""
        status, _, body = self.get(accept=OM_ACCEPT)
        check(status == 200, f"status {status}")
        return parse_openmetrics(body)

    def fds(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self):
        if self.proc.stderr.closed:
            return self.proc.wait(timeout=60), ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        err = self.proc.stderr.read()
        self.proc.stderr.close()
        return self.proc.wait(timeout=60), err

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.proc.stderr.closed:
            self.proc.stderr.close()


def total(fams, event, **labels):
    """The sum over CPUs of EVENT's counter."""
    return sum(v for _, v in samples(fams, "hwprof_event", event=event, **labels))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def usage_errors():
    for args, what in ((["--listen", "localhost"], "--listen"),
                       (["--listen", "127.0.0.1:70000"], "--listen"),
                       (["-G", "a", "--cgroup-root", "b"], "not both"),
                       (["extra"], "no arguments"),
                       (["-e", "no-such-event"], "no-such-event")):
        p = hwprof("serve", *args)
        check(p.returncode == 2 and what in p.stderr, f"{args}: {p.returncode} {p.stderr}")
    p = hwprof("serve", "--help")
    check(p.returncode == 0 and "--cgroup-root" in p.stdout and "9471" in p.stdout, p.stdout)


def formats():
    """Prometheus' text format by default, OpenMetrics when asked; the
    labels; an event the machine lacks is only hwprof_event_supported 0."""
    with Server("-e", "page-faults,cpu-clock,cycles") as sv:
        status, ctype, text = sv.get()
        check(status == 200 and ctype.startswith("text/plain; version=0.0.4"), ctype)
        promtool_check(text)
        status, ctype, om = sv.get(accept=OM_ACCEPT)
        check(status == 200 and ctype.startswith("application/openmetrics-text"), ctype)
        fams = valid(om)
        if not fams:
            return
        pf = samples(fams, "hwprof_event", event="page-faults")
        cpus = sorted(int(lb["cpu"]) for lb, _ in pf)
        check(cpus == sorted(os.sched_getaffinity(0)) or len(cpus) >= ncpus(), f"CPUs {cpus}")
        check(all(lb["host"] == socket.gethostname() and "cgroup" not in lb for lb, _ in pf),
              f"labels {pf[:1]}")
        check(samples(fams, "hwprof_event_seconds", event="cpu-clock"), "cpu-clock in seconds")
        ratio = samples(fams, "hwprof_event_running_ratio", event="page-faults")
        check(ratio and all(v == 1 for _, v in ratio), f"running ratio {ratio[:2]}")
        sup = {lb["event"]: v for lb, v in samples(fams, "hwprof_event_supported")}
        check(sup.get("page-faults") == 1 and "cycles" in sup, f"supported {sup}")
        if sup.get("cycles") == 0:
            check(not samples(fams, "hwprof_event", event="cycles"), "no sample for cycles")
        status, _, page = sv.get("/")
        check(status == 200 and "/metrics" in page and "hwprof_event_total" in page, page)
        status, _, _ = sv.get("/nope")
        check(status == 404, f"/nope: {status}")
        c = http.client.HTTPConnection("127.0.0.1", sv.port, timeout=60)
        c.request("POST", "/metrics", body="x")
        r = c.getresponse()
        check(r.status == 405 and "GET" in r.getheader("Allow", ""), f"POST: {r.status}")
        c.close()
        code, err = sv.stop()
        check(code == 0, f"exit {code}: {err}")


def cgroup_count():
    """-G: a workload that touches 20000 fresh pages in a cgroup of its own
    adds at least 20000 page faults to the cgroup's counter, and not much
    more (its exec's own)."""
    pages = 20000
    with TestCgroup() as cg, Server("-G", cg.name, "-e", "page-faults") as sv:
        before = total(sv.scrape(), "page-faults", cgroup=cg.name)
        p = subprocess.run(cg.enter_and_run(WORKLOAD, "pages", str(pages)), timeout=60)
        check(p.returncode == 0, "the workload")
        after = total(sv.scrape(), "page-faults", cgroup=cg.name)
        grew = after - before
        check(pages <= grew <= pages * 1.05 + 1000,
              f"{grew} page faults for {pages} pages ({before} -> {after})")
        code, err = sv.stop()
        check(code == 0, err)


def cgroup_root():
    """--cgroup-root: a cgroup made after the start is counted from the
    next scrape, and one removed is no longer there."""
    with TestCgroup() as parent, Server("--cgroup-root", parent.name, "-e", "page-faults") as sv:
        check(not samples(sv.scrape(), "hwprof_event"), "no cgroup, no counts")
        child = os.path.join(parent.path, "c1")
        name = f"{parent.name}/c1"
        os.mkdir(child)
        try:
            check(samples(sv.scrape(), "hwprof_event", cgroup=name), f"{name} is found")
            procs = os.path.join(child, "cgroup.procs")
            subprocess.run(["sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", WORKLOAD,
                            "pages", "5000"], timeout=60, check=True)
            n = total(sv.scrape(), "page-faults", cgroup=name)
            check(n >= 5000, f"{name}: {n} page faults for 5000 pages")
        finally:
            os.rmdir(child)
        check(not samples(sv.scrape(), "hwprof_event", cgroup=name), f"{name} is gone")
        code, err = sv.stop()
        check(code == 0, err)


def raw(port, data, timeout=60):
    """Send DATA on a new connection; what comes back until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
                if b"\r\n\r\n" in out and b"Connection: close" not in data:
                    break
        except ConnectionResetError:
            pass
        return out


def bad_requests():
    """A request line that is not HTTP, and headers past the limit, are
    refused (4xx or the connection closed), and the server goes on."""
    with Server("-e", "page-faults") as sv:
        out = raw(sv.port, b"NOT HTTP AT ALL\r\n\r\n")
        check(not out or re.match(rb"HTTP/1\.[01] 4\d\d", out), f"bad line: {out[:80]!r}")
        big = b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 65536 + b"\r\n\r\n"
        out = raw(sv.port, big)
        check(not out or re.match(rb"HTTP/1\.[01] 4\d\d", out), f"oversized: {out[:80]!r}")
        check(not out.startswith(b"HTTP/1.1 200"), "an oversized request is not answered")
        status, _, _ = sv.get()
        check(status == 200, f"and then a scrape: {status}")
        code, err = sv.stop()
        check(code == 0, err)


def sockets(pid):
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            n += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except FileNotFoundError:
            pass
    return n


def too_many_connections():
    """With the connections it serves at once all held (idle, a request
    begun), the next one waits in the listen queue, unanswered, and is
    answered once they close."""
    with Server("-e", "page-faults") as sv:
        base = sockets(sv.proc.pid)
        held = []
        for _ in range(MAX_CONNECTIONS):
            s = socket.create_connection(("127.0.0.1", sv.port), timeout=60)
            s.sendall(b"GET /metrics HTTP/1.1\r\n")
            held.append(s)
        deadline = time.monotonic() + 60
        while sockets(sv.proc.pid) < base + MAX_CONNECTIONS and time.monotonic() < deadline:
            time.sleep(0.01)
        check(sockets(sv.proc.pid) == base + MAX_CONNECTIONS, "the held connections accepted")
        extra = socket.create_connection(("127.0.0.1", sv.port), timeout=1)
        extra.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        try:
            got = extra.recv(100)
        except socket.timeout:
            got = None
        check(got is None, f"a connection past the limit is not served yet: {got!r}")
        check(sockets(sv.proc.pid) == base + MAX_CONNECTIONS, "nor accepted")
        for s in held:
            s.close()
        extra.settimeout(60)
        out = b""
        while chunk := extra.recv(65536):
            out += chunk
        extra.close()
        check(out.startswith(b"HTTP/1.1 200"), f"then answered: {out[:60]!r}")
        code, err = sv.stop()
        check(code == 0, err)


def sigterm_mid_scrape():
    """SIGTERM while scrapes go on: hwprof serve ends with status 0, and
    every answer that came whole is a whole exposition."""
    with Server("-e", "page-faults,cpu-clock") as sv:
        answers, stop = [], threading.Event()

        def scraper():
            while not stop.is_set():
                try:
                    answers.append(sv.get(accept=OM_ACCEPT, timeout=30))
                except (OSError, http.client.HTTPException):
                    return

        threads = [threading.Thread(target=scraper) for _ in range(4)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 120
        while len(answers) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
        code, err = sv.stop()
        stop.set()
        for t in threads:
            t.join(60)
        check(code == 0, f"exit {code}: {err}")
        bad = [a for a in answers if a[0] != 200 or not a[2].endswith("# EOF\n")]
        check(len(answers) >= 20 and not bad, f"{len(bad)} of {len(answers)} not whole")


def concurrent_scrapes():
    """100 scrapes at once: each answered whole, with the same series, and
    each count between those of a scrape before and one after."""
    with Server("-e", "page-faults,cpu-clock,context-switches") as sv:
        before = sv.scrape()
        answers = [None] * 100

        def one(i):
            try:
                answers[i] = sv.get(accept=OM_ACCEPT)
            except (OSError, http.client.HTTPException) as e:
                answers[i] = (0, None, str(e))

        threads = [threading.Thread(target=one, args=(i,)) for i in range(100)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        after = sv.scrape()
        bad = [a for a in answers if not a or a[0] != 200]
        if not check(not bad, f"{len(bad)} not answered: {bad[:1]}"):
            return

        def counters(fams):
            return {(n, tuple(sorted(lb.items()))): v
                    for family in ("hwprof_event", "hwprof_event_seconds")
                    for n, lb, v in fams[family]["samples"]}

        lo, hi = counters(before), counters(after)
        outside = 0
        for a in answers:
            c = counters(parse_openmetrics(a[2]))
            check(c.keys() == lo.keys(), "the same series")
            outside += sum(not lo[k] <= v <= hi[k] for k, v in c.items())
        check(outside == 0, f"{outside} counts outside the scrapes before and after")
        code, err = sv.stop()
        check(code == 0, err)


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def no_growth():
    """2000 scrapes, a connection each: the same file descriptors at the
    end, and no memory growth worth a leak (a kilobyte a scrape would be 2
    MB)."""
    if WRAPPER:
        skip("2000 scrapes under valgrind take too long")
    with Server("-e", "page-faults,cpu-clock,context-switches,cpu-migrations") as sv:
        def settled_fds():
            """The server's fds once it has closed every connection (the
            client's close reaches it a moment later): one socket left."""
            deadline = time.monotonic() + 60
            while sockets(sv.proc.pid) != 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            return sv.fds()

        for _ in range(200):
            sv.get()
        fds, rss = settled_fds(), rss_kib(sv.proc.pid)
        for _ in range(2000):
            sv.get()
        after = settled_fds()
        check(after == fds and sockets(sv.proc.pid) == 1,
              f"{after} fds after 2000 scrapes, {fds} before")
        grew = rss_kib(sv.proc.pid) - rss
        # A sanitizer keeps freed memory aside (ASan's quarantine, 256 MB):
        # there the leak check at exit says what this would.
        if os.environ.get("HWPROF_SANITIZE", "none") == "none":
            check(grew < 1024, f"resident memory grew by {grew} KiB over 2000 scrapes")
        code, err = sv.stop()
        check(code == 0, err)


class Prometheus:
    """Debian's prometheus on loopback, scraping TARGET every second."""

    def __init__(self, target, tmp):
        exe = shutil.which("prometheus")
        if not exe:
            skip("prometheus is not installed (Debian's prometheus; make test installs it)")
        cfg = os.path.join(tmp, "prometheus.yml")
        with open(cfg, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
                    "scrape_configs:\n  - job_name: hwprof\n    static_configs:\n"
                    f"      - targets: ['{target}']\n")
        self.port = free_port()
        self.log = open(os.path.join(tmp, "prometheus.log"), "w")
        self.proc = subprocess.Popen(
            [exe, f"--config.file={cfg}", f"--storage.tsdb.path={tmp}/data",
             f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=self.log, stderr=self.log)
        self.wait(lambda: self.http("/-/ready") is not None, "ready")

    def http(self, path):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as r:
                return r.read().decode()
        except OSError:
            return None

    def result(self, q, at=None):
        """/api/v1/query's result for Q, evaluated at time AT (Unix seconds)
        or now: a list of series."""
        args = {"query": q, **({"time": f"{at:.3f}"} if at is not None else {})}
        body = self.http("/api/v1/query?" + urllib.parse.urlencode(args))
        return json.loads(body)["data"]["result"] if body else []

    def query(self, q, at=None):
        res = self.result(q, at)
        return float(res[0]["value"][1]) if res else None

    def wait(self, cond, what, timeout=120):
        deadline = time.monotonic() + timeout
        while not cond():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"prometheus: not {what}")
            time.sleep(0.2)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(60)
        self.log.close()


def serve_scraped(cg, tmp):
    """hwprof serve of @cg's page faults, and a Prometheus (its files in
    @tmp) that scrapes it every second; the server stopped if the
    Prometheus does not start."""
    port = free_port()
    sv = Server("-G", cg.name, "-e", "page-faults", listen=f"127.0.0.1:{port}")
    try:
        return sv, Prometheus(f"127.0.0.1:{port}", tmp)
    except BaseException:
        sv.stop()
        raise


def prometheus():
    """A real Prometheus scrapes hwprof serve every second while a workload
    touches 30000 pages in its cgroup: the increase it stores is the
    workload's (and its exec's) page faults; a restart of hwprof serve is
    a counter reset, which Prometheus counts and bridges. Rates are
    prometheus_rate's, against a workload that logs its own pace."""
    pages = 30000
    with TestCgroup() as cg, tempfile.TemporaryDirectory() as tmp:
        sv, prom = serve_scraped(cg, tmp)
        series = f'hwprof_event_total{{event="page-faults",cgroup="{cg.name}"}}'
        try:
            prom.wait(lambda: prom.query(f"count_over_time({series}[5m])"), "scraping")
            first = prom.query(f"sum(max_over_time({series}[5m]))")
            p = subprocess.run(cg.enter_and_run(WORKLOAD, "pages", str(pages)), timeout=60)
            check(p.returncode == 0, "the workload")
            now = total(sv.scrape(), "page-faults", cgroup=cg.name)
            prom.wait(lambda: (prom.query(f"sum(max_over_time({series}[5m]))") or 0) >= now,
                      "scraping the workload's faults")
            grew = prom.query(f"sum(max_over_time({series}[5m]))") - first
            check(pages <= grew <= pages * 1.05 + 1000,
                  f"Prometheus stored {grew} page faults for {pages} pages")
            code, err = sv.stop()
            check(code == 0, err)
            sv = Server("-G", cg.name, "-e", "page-faults", listen=f"127.0.0.1:{sv.port}")
            subprocess.run(cg.enter_and_run(WORKLOAD, "pages", "1000"), timeout=60)
            prom.wait(lambda: prom.query(f"sum(resets({series}[5m]))"), "seeing the reset")
            inc = prom.query(f"sum(increase({series}[5m]))")
            check(inc >= grew, f"increase() bridges the reset: {inc} >= {grew}")
        finally:
            prom.stop()
            sv.stop()


def extrapolated(points, start, end):
    """The factor by which Prometheus' rate() (promql's extrapolatedRate,
    2.x) scales a counter's increase between the first and last of POINTS
    (seconds, value) of the window (START, END] before it divides by the
    window: it extends the sampled interval to each edge of the window
    where the edge is within 1.1 average intervals of a sample (and not
    before the counter's zero), else by half an interval."""
    (t0, v0), (t1, v1) = points[0], points[-1]
    sampled = t1 - t0
    avg = sampled / (len(points) - 1)
    to_start, to_end = t0 - start, end - t1
    if v1 > v0 and v0 >= 0:
        to_start = min(to_start, sampled * v0 / (v1 - v0))
    ext = sampled
    ext += to_start if to_start < avg * 1.1 else avg / 2
    ext += to_end if to_end < avg * 1.1 else avg / 2
    return ext / sampled


def paced_truth(path):
    """The workload's log: (seconds, pages touched so far), a line a tick."""
    with open(path) as f:
        return [(int(t) / 1e9, int(n)) for t, n in (ln.split() for ln in f)]


def touched_at(log, t):
    """The pages the paced workload had touched at time T (its last tick
    before T; one tick's pages short at most)."""
    n = 0
    for when, count in log:
        if when > t:
            break
        n = count
    return n


def prometheus_rate():
    """rate(hwprof_event_total{event="page-faults",cgroup=...}[5s]) as a
    real Prometheus computes it from hwprof serve's counts, against the
    truth: a workload in its cgroup, on one CPU, touches 50 pages every 10
    ms on absolute deadlines for 12 s and logs when it had touched how
    many. For several windows, rate() at an evaluation time T is checked
    against the workload's pages between the first and last scrape of the
    window (their timestamps, as Prometheus stored them:
    /api/v1/query of series[5s] at T), scaled as rate() scales (its
    extrapolation to the window's edges) and divided by the window: within
    5%. Whatever the load: a late scrape or a late tick moves both."""
    cpu = min(os.sched_getaffinity(0))
    with TestCgroup() as cg, tempfile.TemporaryDirectory() as tmp:
        sv, prom = serve_scraped(cg, tmp)
        series = (f'hwprof_event_total{{event="page-faults",cgroup="{cg.name}",'
                  f'cpu="{cpu}"}}')
        log = os.path.join(tmp, "paced.log")
        try:
            prom.wait(lambda: prom.query(f"count_over_time({series}[5m])"), "scraping")
            p = subprocess.run(cg.enter_and_run(WORKLOAD, "paced", "50", "10", "12", log),
                               preexec_fn=lambda: os.sched_setaffinity(0, {cpu}), timeout=120)
            if not check(p.returncode == 0, "the paced workload"):
                return
            truth = paced_truth(log)
            end = truth[-1][0]
            prom.wait(lambda: (prom.query(f"timestamp({series})") or 0) > end + 1,
                      "scraping past the workload's end")
            checked = 0
            at = truth[0][0] + 6
            while at < end - 0.2:
                rate = prom.query(f"rate({series}[5s])", at)
                got = prom.result(f"{series}[5s]", at)
                points = [(float(t), float(v)) for t, v in got[0]["values"]] if got else []
                at += 1
                if rate is None or len(points) < 2:
                    continue	# scrapes missed: a window with no rate
                pages = touched_at(truth, points[-1][0]) - touched_at(truth, points[0][0])
                want = pages * extrapolated(points, at - 1 - 5, at - 1) / 5
                checked += 1
                check(abs(rate - want) <= 0.05 * want,
                      f"rate() at {at - 1:.3f}: {rate:.1f}/s, the workload's {want:.1f}/s "
                      f"({pages} pages between scrapes at {points[0][0]} and {points[-1][0]})")
            check(checked >= 3, f"{checked} windows with a rate")
        finally:
            prom.stop()
            sv.stop()


case(usage_errors)
case(formats, name="GET /metrics: Prometheus text and OpenMetrics, checked")
case(cgroup_count, name="-G: a workload's page faults in its cgroup")
case(cgroup_root, name="--cgroup-root: cgroups found as they come and go")
case(bad_requests, name="bad request line, oversized header")
case(too_many_connections)
case(sigterm_mid_scrape, name="SIGTERM mid-scrape")
case(concurrent_scrapes, name="100 concurrent scrapes")
case(no_growth, name="no fd or memory growth over 2000 scrapes")
case(prometheus, name="a real Prometheus scrapes it: increase, reset")
case(prometheus_rate, name="a real Prometheus: rate() of a paced workload, to 5%")
done()
