#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A program rebuilt after its recording, its recorded build fetched by
build-id from debuginfod's servers (DEBUGINFOD_URLS), as elfutils' client
asks them: a local HTTP server answers GET /buildid/HEX/executable (the
module, stripped of its DWARF) and /buildid/HEX/debuginfo (its debug file)
from a directory, and logs what it was asked. The report names the
recorded build's functions and lines, and says the module came from
debuginfod; without DEBUGINFOD_URLS, or from a server that has no such
file, that sends garbage or another build, the module is unresolved with
the reason, never named with the rebuilt program's symbols."""
import http.server
import os
import re
import shutil
import tempfile
import threading

from common import HAVE_LIBDW, case, check, done, entry, hwprof, marked_lines, report_json, run, skip

V1 = """volatile unsigned long sink;
__attribute__((noinline)) void alpha(void)
{
	for (unsigned long i = 0; i < 150000000UL; i++) sink += i;	/* LINE:hot */
}
int main(void) { alpha(); return 0; }
"""
V2 = """volatile unsigned long sink;
__attribute__((noinline)) void omega(void) { for (unsigned long i = 0; i < 9UL; i++) sink += i * 3; }
__attribute__((noinline)) void zeta(void) { sink = 1; }
int main(void) { zeta(); omega(); return 0; }
"""


class Server:
    """debuginfod's protocol, as far as the client's two requests: the
    files of @root/HEX/{executable,debuginfo}; 'garbage' answers every
    request with bytes that are not ELF."""

    def __init__(self, root, garbage=False):
        self.asked = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.asked.append(self.path)
                m = re.fullmatch(r"/buildid/([0-9a-f]+)/(executable|debuginfo)", self.path)
                path = m and os.path.join(root, m.group(1), m.group(2))
                if garbage:
                    body = b"this is not an ELF file\n" * 8
                elif path and os.path.isfile(path):
                    with open(path, "rb") as f:
                        body = f.read()
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def build_id(path):
    p = run(["readelf", "-n", path])
    m = re.search(r"Build ID: ([0-9a-f]+)", p.stdout)
    return m and m.group(1)


def build(d, source, exe):
    src = os.path.join(d, "prog.c")
    with open(src, "w") as f:
        f.write(source)
    p = run([os.environ.get("CC", "cc"), "-g", "-O1", "-Wl,--build-id", "-o", exe, src])
    check(p.returncode == 0, f"cc: {p.stderr}")
    return src


def prepare(d):
    """Record V1, put its build where the server finds it (the module
    stripped of DWARF, and its debug file), then rebuild the program."""
    if not HAVE_LIBDW:
        skip("hwprof was built without libdw: no symbols")
    if os.environ.get("HWPROF_DEBUGINFOD") != "1":
        skip("hwprof was built without elfutils' debuginfod client (libdebuginfod-dev)")
    for tool in ("readelf", "objcopy", "strip"):
        if not shutil.which(tool):
            skip(f"{tool} (binutils) is not installed")
    exe = os.path.join(d, "prog")
    src = build(d, V1, exe)
    hot = marked_lines(src, "LINE:hot")
    data = os.path.join(d, "prog.data")
    p = hwprof("record", "-o", data, "--", exe, timeout=120)
    if not check(p.returncode == 0, f"hwprof record: {p.stderr}"):
        return None
    recorded = build_id(exe)
    served = os.path.join(d, "served", recorded)
    os.makedirs(served)
    p = run(["objcopy", "--only-keep-debug", exe, os.path.join(served, "debuginfo")])
    check(p.returncode == 0, f"objcopy --only-keep-debug: {p.stderr}")
    p = run(["strip", "-g", "-o", os.path.join(served, "executable"), exe])
    check(p.returncode == 0, f"strip -g: {p.stderr}")
    debug_only = os.path.join(d, "debug-only", recorded)
    os.makedirs(debug_only)
    shutil.copy(os.path.join(served, "debuginfo"), debug_only)
    # the rebuilt program, and a server that has it, not the recorded one
    os.rename(exe, os.path.join(d, "prog-v1"))
    build(d, V2, exe)
    other = os.path.join(d, "other", recorded)
    os.makedirs(other)
    shutil.copy(exe, os.path.join(other, "executable"))
    shutil.copy(exe, os.path.join(other, "debuginfo"))
    check(build_id(exe) != recorded, "the rebuilt program is another build")
    return {"dir": d, "exe": exe, "data": data, "hot": hot, "id": recorded,
            "served": os.path.join(d, "served"), "other": os.path.join(d, "other"),
            "debug-only": os.path.join(d, "debug-only")}


def env_for(t, url, cache):
    env = dict(os.environ, HOME=os.path.join(t["dir"], "nohome"),
               DEBUGINFOD_CACHE_PATH=os.path.join(t["dir"], cache))
    env.pop("DEBUGINFOD_URLS", None)
    if url:
        env["DEBUGINFOD_URLS"] = url
    return env


def fetched(t):
    """The recorded build from debuginfod: its functions and lines, and the
    report says so."""
    srv = Server(t["served"])
    try:
        env = env_for(t, srv.url, "cache-fetched")
        p, doc = report_json(t["data"], "--top", "0", "--sort", "line", env=env)
        if check(p.returncode == 0 and doc, f"report --sort line: {p.stderr}"):
            alpha = entry(doc, "alpha")
            check(alpha and alpha["dso"] == t["exe"] and alpha["percent"] > 50,
                  f"alpha, the recorded build's: {doc['entries'][:3]}")
            check(alpha and alpha["line"] in t["hot"] and
                  alpha["file"].endswith("prog.c"),
                  f"alpha's line {t['hot']}: {alpha}")
            names = {e["symbol"] for e in doc["entries"]}
            check(not {"omega", "zeta"} & names, f"no name of the rebuilt program: {names}")
            copies = doc["modules_read_from_copies"]
            check(len(copies) == 1 and copies[0]["dso"] == t["exe"] and
                  copies[0]["debuginfod"] and
                  copies[0]["read_from"].startswith(os.path.join(t["dir"], "cache-fetched")),
                  f"the module came from debuginfod, into its cache: {copies}")
        asked = set(srv.asked)
        check({f"/buildid/{t['id']}/executable", f"/buildid/{t['id']}/debuginfo"} <= asked,
              f"the server was asked for the recorded build-id's files: {srv.asked}")
        p = hwprof("report", "-i", t["data"], env=env)
        check(p.returncode == 0 and re.search(
            r"Modules read from a copy of the recorded build.*\n#\s+" + re.escape(t["exe"]) +
            r" \([\d,]+ samples\): from debuginfod, ", p.stdout),
            f"the text report says the module came from debuginfod: {p.stdout[-800:]}")
    finally:
        srv.close()


def unresolved(t, url, cache, reason, what):
    p, doc = report_json(t["data"], "--top", "0", env=env_for(t, url, cache))
    if not check(p.returncode == 0 and doc, f"{what}: report: {p.stderr}"):
        return
    mine = {e["symbol"] for e in doc["entries"] if e["dso"] == t["exe"]}
    check(mine == {None}, f"{what}: unresolved, no other build's names: {mine}")
    why = [m["reason"] for m in doc["modules_without_symbols"] if m["dso"] == t["exe"]]
    check(len(why) == 1 and "another build than the one recorded" in why[0] and
          reason in why[0], f"{what}: the reason says {reason!r}: {why}")
    check(doc["modules_read_from_copies"] == [], f"{what}: no copy read")


def without_urls(t):
    unresolved(t, None, "cache-none", "DEBUGINFOD_URLS", "without DEBUGINFOD_URLS")


def not_found(t):
    srv = Server(os.path.join(t["dir"], "empty"))
    try:
        unresolved(t, srv.url, "cache-404", "have no executable of that build-id (HTTP 404)", "a server with 404")
        check(f"/buildid/{t['id']}/executable" in srv.asked, f"asked: {srv.asked}")
    finally:
        srv.close()


def debug_file_only(t):
    """A server that has the debug file, not the module: not enough, as
    a debug file no longer says where the code was in the file (the
    samples' addresses are file offsets)."""
    srv = Server(t["debug-only"])
    try:
        unresolved(t, srv.url, "cache-debug-only", "have no executable of that build-id (HTTP 404)",
                   "a server with the debug file only")
        check(f"/buildid/{t['id']}/executable" in srv.asked, f"asked: {srv.asked}")
    finally:
        srv.close()


def garbage(t):
    srv = Server(t["served"], garbage=True)
    try:
        unresolved(t, srv.url, "cache-garbage", "not that build", "a server sending garbage")
    finally:
        srv.close()


def another_build(t):
    srv = Server(t["other"])
    try:
        unresolved(t, srv.url, "cache-other", "not that build", "a server with another build")
    finally:
        srv.close()


with tempfile.TemporaryDirectory() as tmp:
    T = case(prepare, tmp, name="a program recorded, then rebuilt")
    if T:
        case(fetched, T, name="the recorded build from debuginfod: its names and lines")
        case(without_urls, T, name="without DEBUGINFOD_URLS: unresolved, with the reason")
        case(not_found, T, name="a server without the build (404): unresolved, with the reason")
        case(debug_file_only, T, name="a server with the debug file only: unresolved, with why")
        case(garbage, T, name="a server that sends garbage: unresolved, with the reason")
        case(another_build, T, name="a server that sends another build: not used")
done()
