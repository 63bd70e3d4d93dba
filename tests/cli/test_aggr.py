#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stat's aggregation units (-A, --per-core, --per-socket, --per-thread)
and the topology they group CPUs by (list --topology, HWPROF_SYSFS_ROOT)."""
import csv
import io
import json
import os
import shutil
import subprocess
import tempfile

from common import (HWPROF, WORKLOAD, WRAPPER, TestCgroup, case, check, done, hwprof,
                    need_system_wide, skip, stat_csv, stat_json, wait_attached)


def online_cpus():
    with open("/sys/devices/system/cpu/online") as f:
        out = []
        for part in f.read().strip().split(","):
            a, _, b = part.partition("-")
            out += range(int(a), int(b or a) + 1)
        return out


def per_cpu_csv():
    """-a -A: one row a CPU and event, named CPUn; they sum to the total."""
    need_system_wide()
    cpus = online_cpus()
    p, rows = stat_csv("-a", "-A", "-e", "cpu-clock,context-switches", "--",
                       WORKLOAD, "spin", "0.2")
    check(p.returncode == 0, p.stderr)
    clock = {r[0]: float(r[1]) for r in rows if r and r[3] == "cpu-clock"}
    check(sorted(clock) == sorted(f"CPU{c}" for c in cpus), clock)
    # Each CPU's cpu-clock counts the whole run (idle or not): about the
    # elapsed time of the others, whatever the load.
    lo, hi = min(clock.values()), max(clock.values())
    check(lo > 0.8 * hi, f"each CPU's cpu-clock about the same: {clock}")
    cs = [r for r in rows if r and r[3] == "context-switches"]
    check(len(cs) == len(cpus), cs)


def per_cpu_json_sums():
    """The JSON's units carry every event, and sum to its total."""
    need_system_wide()
    p, doc = stat_json("-a", "-A", "-e", "cpu-clock,page-faults", "--",
                       WORKLOAD, "pages", "500")
    check(p.returncode == 0 and doc, p.stderr)
    check(doc["aggregation"] == "cpu", doc.get("aggregation"))
    units = doc["units"]
    check([u["unit"] for u in units] == [f"CPU{c}" for c in online_cpus()], units)
    for i, name in enumerate(["cpu-clock", "page-faults"]):
        total = doc["events"][i]["values"][0]
        parts = sum(u["events"][i]["values"][0] for u in units)
        check(doc["events"][i]["event"] == name, doc["events"][i])
        check(abs(total - parts) <= 1e-6 * max(total, 1), f"{name}: {total} != {parts}")
    for u in units:
        check(u["cpus"] == [u["id"]], u)
    faults = sum(u["events"][1]["values"][0] for u in units)
    check(faults >= 500, f"the command's 500 pages are in the CPUs' rows: {faults}")


def pinned_command_lands_on_its_cpu():
    """A command pinned to the last CPU, in a cgroup counted with -G: its
    page faults and task-clock are that CPU's row, and no other CPU has any
    (the cgroup keeps the rest of the machine out, whatever its load)."""
    need_system_wide()
    cpus = online_cpus()
    if len(cpus) < 2:
        skip("one CPU: nothing to tell apart")
    last = cpus[-1]
    with TestCgroup() as cg:
        p, doc = stat_json("-a", "-A", "-G", cg.name, "-e", "page-faults,task-clock",
                           "--pin", str(last), "--",
                           *cg.enter_and_run(WORKLOAD, "pages", "20000", "cpuspin", "0.2"))
    check(p.returncode == 0 and doc, p.stderr)
    by = {u["unit"]: u["events"][0]["values"][0] for u in doc["units"]}
    clock = {u["unit"]: u["events"][1]["values"][0] for u in doc["units"]}
    # 200 ms of CPU time burnt (cpuspin: however busy the machine)
    check(by[f"CPU{last}"] >= 20000 and clock[f"CPU{last}"] >= 0.2e9, (by, clock))
    for c in cpus[:-1]:
        check(by[f"CPU{c}"] is None and clock[f"CPU{c}"] is None,
              f"CPU{c} never ran the cgroup: not counted, not 0: {by}")


def cgroup_counts_only_its_tasks():
    """-G: a command inside the cgroup is counted, one outside it is not."""
    need_system_wide()
    with TestCgroup() as cg:
        p, inside = stat_json("-a", "-G", cg.name, "-e", "page-faults", "--",
                              *cg.enter_and_run(WORKLOAD, "pages", "5000"))
        check(p.returncode == 0 and inside, p.stderr)
        p, outside = stat_json("-a", "-G", cg.name, "-e", "page-faults", "--",
                               WORKLOAD, "pages", "5000")
        check(p.returncode == 0 and outside, p.stderr)
    check(inside["events"][0]["values"][0] >= 5000, inside["events"][0])
    check(outside["events"][0]["values"][0] in (None, 0), outside["events"][0])
    p = hwprof("stat", "-a", "-G", "no/such/cgroup", "-e", "page-faults", "--", "true")
    check(p.returncode == 1 and "no/such/cgroup" in p.stderr and "cgroup v2" in p.stderr,
          p.stderr)


def compare_unit_by_unit():
    """compare: per-CPU results compared CPU by CPU when both have the same
    CPUs (a cgroup's pinned command: 2,000 pages, then 4,000, on the last
    CPU); per CPU against per socket: totals only, and a warning says so."""
    need_system_wide()
    last = online_cpus()[-1]
    with TestCgroup() as cg, tempfile.TemporaryDirectory() as d:
        files = {}
        for name, pages, aggr in (("a", 2000, "-A"), ("b", 4000, "-A"),
                                  ("c", 4000, "--per-socket")):
            files[name] = os.path.join(d, f"{name}.json")
            p = hwprof("stat", "-a", aggr, "-G", cg.name, "-r", "3", "--json", "-o",
                       files[name], "-e", "page-faults", "--pin", str(last), "--",
                       *cg.enter_and_run(WORKLOAD, "pages", str(pages)), timeout=120)
            check(p.returncode == 0, p.stderr)
        p = hwprof("compare", "--json", files["a"], files["b"])
        check(p.returncode == 0, p.stderr)
        doc = json.loads(p.stdout)
        rows = {(r.get("aggregation_unit"), r["name"]): r for r in doc["rows"]}
        r = rows.get((f"CPU{last}", "page-faults"))
        check(r and 2000 <= r["a_mean"] < 2300 and 4000 <= r["b_mean"] < 4300 and
              r["verdict"] == "increase", r)
        check((None, "page-faults") in rows, "the totals first")
        p = hwprof("compare", "--json", files["a"], files["c"])
        check(p.returncode == 0, p.stderr)
        doc = json.loads(p.stdout)
        check(not any("aggregation_unit" in r for r in doc["rows"]), "totals only")
        check(any("per cpu (" in w and "per socket (S" in w and "not unit by unit" in w
                  for w in doc["warnings"]), doc["warnings"])


def intervals_and_runs():
    """-I: every interval has a row a CPU (CSV and JSON); -r: a unit's
    values are its runs'."""
    need_system_wide()
    cpus = [f"CPU{c}" for c in online_cpus()]
    p, rows = stat_csv("-a", "-A", "-I", "100", "-e", "cpu-clock", "--",
                       WORKLOAD, "spin", "0.35")
    check(p.returncode == 0, p.stderr)
    by_time = {}
    for r in rows:
        if r and r[4] == "cpu-clock":
            by_time.setdefault(r[0], []).append(r[1])
    check(len(by_time) >= 3 and all(v == cpus for v in by_time.values()), by_time)
    p = hwprof("stat", "-a", "-A", "-I", "100", "--json", "-o", "-", "-e", "cpu-clock",
               "--", WORKLOAD, "spin", "0.25")
    check(p.returncode == 0, p.stderr)
    for line in p.stdout.splitlines():
        d = json.loads(line)
        parts = [u["events"][0]["count"] for u in d["units"]]
        check([u["unit"] for u in d["units"]] == cpus, d)
        check(d["events"][0]["count"] == sum(parts), "an interval's units sum to it")
    p, doc = stat_json("-a", "-A", "-r", "3", "-e", "page-faults", "--",
                       WORKLOAD, "pages", "300")
    check(p.returncode == 0 and doc, p.stderr)
    for u in doc["units"]:
        ev = u["events"][0]
        check(len(ev["values"]) == 3 and abs(ev["mean"] - sum(ev["values"]) / 3) < 1e-9, ev)
    for run in range(3):
        check(doc["events"][0]["values"][run] ==
              sum(u["events"][0]["values"][run] for u in doc["units"]), "run sums")


def agrees_with_perf():
    """The units and their CPU counts, as perf stat -x names them."""
    need_system_wide()
    if not shutil.which("perf"):
        skip("perf is not installed")
    for aggr, fields in (("-A", 1), ("--per-core", 2), ("--per-socket", 2),
                         ("--per-die", 2), ("--per-node", 2)):
        q = subprocess.run(["perf", "stat", "-a", aggr, "-x", ",", "-e", "cpu-clock",
                            "--", "true"], capture_output=True, text=True)
        if q.returncode != 0:
            skip(f"perf stat -a {aggr}: {q.stderr.strip()}")
        theirs = [l.split(",")[:fields] for l in q.stderr.splitlines() if "cpu-clock" in l]
        p, rows = stat_csv("-a", aggr, "-e", "cpu-clock", "--", "true")
        ours = [r[:fields] for r in rows if r and "cpu-clock" in r]
        check(p.returncode == 0 and ours == theirs, f"{aggr}: {ours} != perf's {theirs}")


def fake_tree(root, layout):
    """A sysfs tree: layout maps cpu -> (core, die, package, node)."""
    cpu_dir = os.path.join(root, "devices/system/cpu")
    os.makedirs(cpu_dir)
    with open(os.path.join(cpu_dir, "online"), "w") as f:
        f.write(f"0-{len(layout) - 1}\n")
    nodes = {}
    for cpu, (core, die, pkg, node) in layout.items():
        d = os.path.join(cpu_dir, f"cpu{cpu}", "topology")
        os.makedirs(d)
        for name, v in (("core_id", core), ("die_id", die), ("physical_package_id", pkg)):
            with open(os.path.join(d, name), "w") as f:
                f.write(f"{v}\n")
        nodes.setdefault(node, []).append(cpu)
    for node, cpus in nodes.items():
        d = os.path.join(root, "devices/system/node", f"node{node}")
        os.makedirs(d)
        with open(os.path.join(d, "cpulist"), "w") as f:
            f.write(",".join(map(str, cpus)) + "\n")


# 2 packages x 4 cores x 2 threads, numbered as Linux numbers SMT siblings
# on x86: CPU n and n + 8 share a core; CPUs 0-3 are package 0's, 4-7
# package 1's; node = package.
SIXTEEN = {c: (c % 4, 0, (c // 4) % 2, (c // 4) % 2) for c in range(16)}


def topology_fake_sixteen():
    """list --topology reads the tree HWPROF_SYSFS_ROOT names, exactly."""
    with tempfile.TemporaryDirectory() as root:
        fake_tree(root, SIXTEEN)
        p = hwprof("list", "--topology", env=dict(os.environ, HWPROF_SYSFS_ROOT=root))
        check(p.returncode == 0, p.stderr)
        rows = [list(map(int, l.split())) for l in p.stdout.splitlines()[1:]]
        want = [[c, *SIXTEEN[c][:3], SIXTEEN[c][3]] for c in range(16)]
        check(rows == want, f"{rows} != {want}")


def topology_matches_lscpu():
    """On this machine, as lscpu -p and sysfs say."""
    p = hwprof("list", "--topology")
    check(p.returncode == 0, p.stderr)
    rows = {int(l.split()[0]): list(map(int, l.split())) for l in p.stdout.splitlines()[1:]}
    check(sorted(rows) == online_cpus(), rows)
    for cpu, (c, core, die, pkg, node) in rows.items():
        with open(f"/sys/devices/system/cpu/cpu{cpu}/topology/core_id") as f:
            check(int(f.read()) == core, f"CPU {cpu}'s core")
        with open(f"/sys/devices/system/cpu/cpu{cpu}/topology/physical_package_id") as f:
            check(int(f.read()) == pkg, f"CPU {cpu}'s package")
    try:
        out = subprocess.run(["lscpu", "-p=CPU,SOCKET,NODE"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        cpu, sock, node = (int(x or 0) for x in line.split(","))
        check(rows[cpu][3] == sock and rows[cpu][4] == node, f"lscpu: {line}")


def topology_in_json_environment():
    """stat --json's environment lists each CPU's place, as list --topology."""
    p, doc = stat_json("-e", "cs", "--", "true")
    check(p.returncode == 0 and doc, p.stderr)
    topo = doc["environment"]["topology"]
    p = hwprof("list", "--topology")
    rows = [list(map(int, l.split())) for l in p.stdout.splitlines()[1:]]
    check([[t["cpu"], t["core"], t["die"], t["socket"], t["node"]] for t in topo] == rows,
          f"{topo} != {rows}")
    with tempfile.TemporaryDirectory() as root:
        fake_tree(root, SIXTEEN)
        p, doc = stat_json("-e", "cs", "--", "true",
                           env=dict(os.environ, HWPROF_SYSFS_ROOT=root))
    check([t["socket"] for t in doc["environment"]["topology"]] ==
          [SIXTEEN[c][2] for c in range(16)], doc["environment"]["topology"])


def grouping(layout, aggr, want):
    """stat -a --per-X on this machine's CPUs, grouped by a fake tree."""
    need_system_wide()
    if online_cpus() != [0, 1]:
        skip("the fake trees are laid out for CPUs 0 and 1")
    with tempfile.TemporaryDirectory() as root:
        fake_tree(root, layout)
        env = dict(os.environ, HWPROF_SYSFS_ROOT=root)
        p, rows = stat_csv("-a", aggr, "-e", "cpu-clock", "--", "true", env=env)
        check(p.returncode == 0, p.stderr)
        got = [(r[0], int(r[1])) for r in rows if r and r[4] == "cpu-clock"]
        check(got == want, f"{aggr}: {got} != {want}")
        p, doc = stat_json("-a", aggr, "-e", "cpu-clock", "--", "true", env=env)
        check(p.returncode == 0 and doc, p.stderr)
        check([(u["unit"], len(u["cpus"])) for u in doc["units"]] == want, doc["units"])


def sixteen_per_core():
    # CPUs 0 and 1 are cores 0 and 1 of package 0
    grouping(SIXTEEN, "--per-core", [("S0-D0-C0", 1), ("S0-D0-C1", 1)])


def sixteen_per_socket():
    grouping(SIXTEEN, "--per-socket", [("S0", 2)])


def siblings_per_core():
    # SMT siblings: one core of two CPUs
    grouping({0: (3, 0, 1, 1), 1: (3, 0, 1, 1)}, "--per-core", [("S1-D0-C3", 2)])


def two_sockets():
    grouping({0: (0, 0, 1, 0), 1: (0, 0, 0, 1)}, "--per-socket", [("S0", 1), ("S1", 1)])
    grouping({0: (0, 0, 1, 0), 1: (0, 0, 0, 1)}, "--per-node", [("N0", 1), ("N1", 1)])


def pin_says_what_is_shared():
    """--pin 0,1 says when the CPUs share a core or are on two packages."""
    if online_cpus()[:2] != [0, 1]:
        skip("the fake trees are laid out for CPUs 0 and 1")
    for layout, words in (({0: (3, 0, 1, 1), 1: (3, 0, 1, 1)}, "share a core"),
                          ({0: (0, 0, 1, 0), 1: (0, 0, 0, 1)}, "on different packages"),
                          ({0: (0, 0, 0, 0), 1: (1, 0, 0, 0)}, "on different cores")):
        with tempfile.TemporaryDirectory() as root:
            fake_tree(root, layout)
            p = hwprof("stat", "--pin", "0,1", "-e", "cs", "--", "true",
                       env=dict(os.environ, HWPROF_SYSFS_ROOT=root))
        check(p.returncode == 0 and "note: --pin 0,1: the CPUs " in p.stderr
              and words in p.stderr, p.stderr)
    p = hwprof("stat", "--pin", "0", "-e", "cs", "--", "true")
    check("note" not in p.stderr, "one CPU: nothing to say")


def per_thread_of_process():
    """--per-thread -p: a row a thread, named comm-tid, each with its pages."""
    # The crowd runs until hwprof has a counter on each of its threads,
    # however slowly hwprof starts (valgrind, ASan on a loaded machine),
    # then 0.3 s more: not for a time that hwprof's start-up can outlast.
    w = subprocess.Popen([WORKLOAD, "crowdgo", "3", "0.3", "sleep", "0.5"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    h = None
    try:
        check(w.stdout.readline().strip() == "ready", "the crowd is ready")
        tids = sorted(int(t) for t in os.listdir(f"/proc/{w.pid}/task"))
        h = subprocess.Popen([*WRAPPER, HWPROF, "stat", "--per-thread", "-p", str(w.pid), "-x",
                              ",", "-o", "-", "-e", "page-faults"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(wait_attached(h.pid, events=len(tids)), f"hwprof counts the {len(tids)} threads")
    finally:
        w.stdin.write("go\n")
        w.stdin.close()
        out, err = h.communicate(timeout=120) if h else ("", "")
        w.wait(timeout=30)
    p = subprocess.CompletedProcess(h.args, h.returncode, out, err)
    rows = list(csv.reader(io.StringIO(out)))
    check(p.returncode == 0, p.stderr)
    faults = {r[0]: float(r[1]) for r in rows if r and r[3] == "page-faults"}
    want = {f"workload-{t}" for t in tids}
    check(set(faults) == want, f"{sorted(faults)} != {sorted(want)}")
    # Each crowd thread touches a page every 10 ms: some of them counted.
    busy = [v for k, v in faults.items() if k != f"workload-{w.pid}"]
    check(len(busy) == 3 and all(v >= 1 for v in busy), faults)


def per_thread_of_command():
    """--per-thread COMMAND: three threads touching 1,000, 2,000 and 3,000
    pages, each its own row named tpN-tid with its pages, and the first
    thread's; every run (the kernel may swap counters between threads)."""
    for _ in range(3):
        p, rows = stat_csv("--per-thread", "-e", "page-faults", "--",
                           WORKLOAD, "tpages", "1000,2000,3000")
        check(p.returncode == 0, p.stderr)
        faults = {r[0].rsplit("-", 1)[0]: float(r[1]) for r in rows
                  if r and r[3] == "page-faults"}
        check(sorted(faults) == ["tp1", "tp2", "tp3", "workload"], faults)
        for name, pages in (("tp1", 1000), ("tp2", 2000), ("tp3", 3000)):
            check(pages <= faults[name] < pages + 100, f"{name}: {faults[name]}")
        check(faults["workload"] < 500, f"the first thread alone: {faults}")
    p, doc = stat_json("--per-thread", "-e", "page-faults", "--",
                       WORKLOAD, "tpages", "1000,2000,3000", "fork", "2", "500")
    check(p.returncode == 0 and doc, p.stderr)
    check(doc["aggregation"] == "thread", doc.get("aggregation"))
    units = doc["units"]
    total = doc["events"][0]["values"][0]
    check(total == sum(u["events"][0]["values"][0] for u in units), "units sum to the total")
    # The first thread, and two children that touch 500 pages each
    ws = sorted(u["events"][0]["values"][0] for u in units if u["comm"] == "workload")
    check(len(units) == 6 and len(ws) == 3 and ws[0] < 500 <= ws[1] < 600 and ws[2] < 600,
          f"{[(u['unit'], u['events'][0]['values']) for u in units]}")
    for u in units:
        check(u["unit"] == f"{u['comm']}-{u['tid']}", u["unit"])


def cgroup_names():
    """-G names a cgroup under the cgroup v2 mount: '..' (which gave 'Bad
    file descriptor' from perf_event_open) and the root ('' or '/', which
    was silently every task) are refused before anything is opened, and
    say why."""
    for name, words in (("../..", "'..'"), ("a/../..", "'..'"), ("", "root cgroup"),
                        ("/", "root cgroup"), ("./", "root cgroup")):
        p = hwprof("stat", "-a", "-G", name, "-e", "page-faults", "--", "true")
        check(p.returncode == 1 and words in p.stderr and f"cgroup '{name}'" in p.stderr and
              "Bad file descriptor" not in p.stderr, f"-G {name!r}: {p.returncode} {p.stderr}")


def usage_errors():
    for args, words in ((["-A", "--", "true"], "add -a or -C"),
                        (["--per-core", "--", "true"], "add -a or -C"),
                        (["--per-thread", "-a", "--", "true"], "not -a or -C"),
                        (["--per-thread", "-r", "2", "--", "true"], "new in every run"),
                        (["-G", "x", "--", "true"], "add -a or -C")):
        p = hwprof("stat", *args)
        check(p.returncode == 2 and words in p.stderr, f"{args}: {p.stderr}")


def bad_tree():
    """A tree without topology files: an error that names the file."""
    need_system_wide()
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "devices/system/cpu"))
        with open(os.path.join(root, "devices/system/cpu/online"), "w") as f:
            f.write("0-1\n")
        p = hwprof("stat", "-a", "--per-core", "-e", "cpu-clock", "--", "true",
                   env=dict(os.environ, HWPROF_SYSFS_ROOT=root))
        check(p.returncode == 1 and "cpu0/topology" in p.stderr, p.stderr)


case(per_cpu_csv)
case(per_cpu_json_sums)
case(pinned_command_lands_on_its_cpu)
case(cgroup_counts_only_its_tasks)
case(compare_unit_by_unit)
case(intervals_and_runs)
case(agrees_with_perf)
case(topology_fake_sixteen)
case(topology_matches_lscpu)
case(topology_in_json_environment)
case(sixteen_per_core)
case(sixteen_per_socket)
case(siblings_per_core)
case(two_sockets)
case(pin_says_what_is_shared)
case(per_thread_of_process)
case(per_thread_of_command)
case(usage_errors)
case(cgroup_names, name="-G: a cgroup name under the mount")
case(bad_tree)
done()
