#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What one 'hwprof stat -- CMD' asks the kernel, counted exactly with strace
(issue 25: a system call is 1-2 us on a loaded VM, where the run is 2 ms):
no question whose answer goes unused. Counts of the hwprof process alone,
not of the command, on inputs this script sets (PATH, the events)."""
import os
import re
import tempfile

from common import case, check, done, traced

def no_event_ids_of_lone_events():
    """An event alone in its group reads its own count: the group read has
    one entry, so the kernel's id of it (PERF_EVENT_IOC_ID, one ioctl an
    event) is not asked for; a group of two asks for both (the read lists
    them by id) and counts them."""
    lines, q = traced("stat", "-e", "task-clock,page-faults,context-switches",
                      "--", "true")
    ids = [l for l in lines if "PERF_EVENT_IOC_ID" in l]
    check(ids == [], f"no PERF_EVENT_IOC_ID for lone events: {ids}")
    check(re.search(r"\n\s+\d+\s+page-faults", q.stderr), f"counted: {q.stderr[-2000:]}")
    lines, q = traced("stat", "-e", "{task-clock,page-faults},context-switches",
                      "--", "true")
    ids = [l for l in lines if "PERF_EVENT_IOC_ID" in l]
    check(len(ids) == 2, f"a group of two asks for its two ids: {ids}")
    check(re.search(r"\n\s+[1-9][\d,]*\s+page-faults", q.stderr) and
          re.search(r"\n\s+\d+\s+context-switches", q.stderr),
          f"and counts them: {q.stderr[-2000:]}")


def no_session_question_at_start():
    """Whether hwprof leads its session matters only when a hangup comes
    (its handler asks then): a run that gets none asks neither getsid()
    nor getpid() for it."""
    lines, q = traced("stat", "-e", "task-clock", "--", "true")
    asked = [l for l in lines if l.startswith("getsid(")]
    check(asked == [], f"no getsid(): {asked}")
    check("task-clock" in q.stderr, f"counted: {q.stderr[-2000:]}")


def no_terminal_question_for_one_run():
    """The progress of -r is for a terminal; one run has none to show, so
    it does not ask whether stderr is one (isatty(): a TCGETS ioctl).
    Here stderr is a pipe: no other question makes a TCGETS."""
    lines, q = traced("stat", "-e", "task-clock", "--", "true", calls="ioctl")
    asked = [l for l in lines if "TCGETS" in l]
    check(asked == [], f"no TCGETS: {asked}")
    check("task-clock" in q.stderr, f"counted: {q.stderr[-2000:]}")


def stderr_buffer_given():
    """The report goes out in one write from a buffer hwprof gives stderr:
    glibc, left to make one, would fstat() stderr to size it (and ask a
    terminal's TCGETS), and take it from the heap."""
    lines, q = traced("stat", "-e", "task-clock", "--", "true",
                      calls="fstat,newfstatat,write")
    sized = [l for l in lines if re.match(r"(newfstatat|fstat)\(2,", l)]
    writes = [l for l in lines if l.startswith("write(2,")]
    check(sized == [], f"stderr not fstat()ed: {sized}")
    check(len(writes) == 1 and "task-clock" in q.stderr,
          f"one write of the report: {writes}: {q.stderr[-2000:]}")


def path_searched_once_a_folder():
    """The command is looked up in each folder of PATH once, however often
    PATH names it (rustup's and pyenv's set-ups add theirs twice)."""
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        os.mkdir(a)
        os.mkdir(b)
        env = dict(os.environ, PATH=os.pathsep.join([a, b, a, "/usr/bin", "/bin", b]))
        lines, q = traced("stat", "-e", "task-clock", "--", "true", env=env)
    tried = [l for l in lines if re.match(r"(newfstatat|stat|access)\(.*\"" + re.escape(tmp),
                                          l)]
    check(len(tried) == 2, f"each of the two empty folders tried once: {tried}")
    check("task-clock" in q.stderr, f"and the command found: {q.stderr[-2000:]}")


for fn in (no_event_ids_of_lone_events, no_session_question_at_start,
           no_terminal_question_for_one_run, stderr_buffer_given,
           path_searched_once_a_folder):
    case(fn)
done()
