#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/check-stages.py on fabricated trees: it passes a tree whose
includes and calls go down lib/STAGES, and fails, naming the file, the line
and the rule, on an include or a call of a later stage, on a header that
declares another stage's function, on two files that call each other, on a
folder that lib/STAGES does not list, and on a stage without its folder."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import case, check, done, skip  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                       "check-stages.py")


def tree(files, stages="# bottom first\nutil\ncore\nevent\n"):
    """A lib/ folder of @files ({path: text}) and the STAGES given."""
    top = tempfile.mkdtemp(prefix="hwprof-stages-")
    lib = os.path.join(top, "lib")
    os.makedirs(lib)
    with open(os.path.join(lib, "STAGES"), "w") as f:
        f.write(stages)
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(lib, path)), exist_ok=True)
        with open(os.path.join(lib, path), "w") as f:
            f.write(text)
    return top, lib


def run(*args):
    p = subprocess.run([sys.executable, CHECKER] + list(args), capture_output=True,
                       text=True)
    return p.returncode, p.stdout + p.stderr


GOOD = {
    "util/strbuf.h": "int sb(void);\n",
    "util/strbuf.c": '#include "util/strbuf.h"\n#include "strbuf.h"\nint sb(void) { return 0; }\n',
    "core/core.h": '#include <hwprof/hwprof.h>\n#include "util/strbuf.h"\n',
    "core/error.c": '#include "core/core.h"\n',
    "event/event.h": '#include "core/core.h"\n',
    "event/event.c": '#include "event/event.h"\n#include "util/strbuf.h"\n',
    "compat.c": '#include "event/event.h"\n',
}


def downward_includes_pass():
    top, lib = tree(GOOD)
    rc, out = run("--lib", lib)
    check(rc == 0, f"a tree whose includes go down fails (rc {rc}): {out}")
    check("3 stages" in out, f"the order is not printed: {out}")
    shutil.rmtree(top)


def upward_include_fails():
    files = dict(GOOD)
    files["util/text.c"] = '/* x */\n#include <stdio.h>\n#include "core/core.h"\n'
    top, lib = tree(files)
    rc, out = run("--lib", lib)
    check(rc == 1, f"an include of a later stage passes (rc {rc}): {out}")
    check("util/text.c:3" in out, f"the file and line are not named: {out}")
    check("core/core.h" in out and "lib/STAGES" in out,
          f"the include and the rule are not named: {out}")
    shutil.rmtree(top)


def upward_include_in_header_fails():
    files = dict(GOOD)
    files["core/core.h"] += '#include "event/event.h"\n'
    top, lib = tree(files)
    rc, out = run("--lib", lib)
    check(rc == 1, f"a header's include of a later stage passes (rc {rc}): {out}")
    check("core/core.h:3" in out, f"the header and line are not named: {out}")
    shutil.rmtree(top)


def unlisted_folder_fails():
    files = dict(GOOD)
    files["doctor/doctor.c"] = '#include "core/core.h"\n'
    top, lib = tree(files)
    rc, out = run("--lib", lib)
    check(rc == 1, f"a folder lib/STAGES does not list passes (rc {rc}): {out}")
    check("doctor" in out and "lib/STAGES" in out, f"the folder is not named: {out}")
    shutil.rmtree(top)


def missing_folder_fails():
    top, lib = tree(GOOD, stages="util\ncore\nevent\nsample\n")
    rc, out = run("--lib", lib)
    check(rc == 1, f"a stage without a folder passes (rc {rc}): {out}")
    check("sample" in out, f"the stage is not named: {out}")
    shutil.rmtree(top)


def archive(lib, sources):
    """An archive of @sources ({member: C text}), as meson names members."""
    cc = shutil.which("cc")
    objs = []
    for member, text in sources.items():
        src = os.path.join(lib, member[:-len(".o")])
        with open(src, "w") as f:
            f.write(text)
        obj = os.path.join(lib, member)
        subprocess.run([cc, "-c", "-o", obj, src], check=True)
        objs.append(obj)
    path = os.path.join(lib, "libx.a")
    subprocess.run(["ar", "rcs", path] + objs, check=True)
    return path


def upward_call_fails():
    if not shutil.which("cc") or not shutil.which("ar") or not shutil.which("nm"):
        skip("no cc, ar or nm to build an archive with")
    top, lib = tree(GOOD)
    a = archive(lib, {
        "util_strbuf.c.o": "int core_thing(void);\nint sb(void) { return core_thing(); }\n",
        "core_error.c.o": "int core_thing(void) { return 1; }\n",
        "event_event.c.o": "int sb(void);\nint ev(void) { return sb(); }\n",
    })
    rc, out = run("--lib", lib, a)
    check(rc == 1, f"a call of a later stage passes (rc {rc}): {out}")
    check("util_strbuf.c -> core_error.c: core_thing" in out,
          f"the call is not named: {out}")
    check("lib/STAGES" in out, f"the rule is not named: {out}")
    shutil.rmtree(top)


def downward_call_passes():
    if not shutil.which("cc") or not shutil.which("ar") or not shutil.which("nm"):
        skip("no cc, ar or nm to build an archive with")
    top, lib = tree(GOOD)
    a = archive(lib, {
        "util_strbuf.c.o": "int sb(void) { return 0; }\n",
        "core_error.c.o": "int sb(void);\nint core_thing(void) { return sb(); }\n",
        "event_event.c.o": "int core_thing(void);\nint ev(void) { return core_thing(); }\n",
        "compat.c.o": "int ev(void);\nint old(void) { return ev(); }\n",
    })
    rc, out = run("--lib", lib, a)
    check(rc == 0, f"calls that go down fail (rc {rc}): {out}")
    shutil.rmtree(top)


def header_of_another_stage_fails():
    if not shutil.which("cc") or not shutil.which("ar") or not shutil.which("nm"):
        skip("no cc, ar or nm to build an archive with")
    files = dict(GOOD)
    files["core/core.h"] += "/* the event stage's */\nint ev_parse(const char *s);\n"
    top, lib = tree(files)
    a = archive(lib, {
        "util_strbuf.c.o": "int sb(void) { return 0; }\n",
        "core_error.c.o": "int sb(void);\nint core_thing(void) { return sb(); }\n",
        "event_event.c.o": "int ev_parse(const char *s) { return !s; }\n",
    })
    rc, out = run("--lib", lib, a)
    check(rc == 1, f"a header declaring a later stage's function passes (rc {rc}): {out}")
    check("core/core.h:4: declares ev_parse, which event_event.c defines" in out,
          f"the header, line, function and its file are not named: {out}")
    shutil.rmtree(top)


def files_calling_each_other_fail():
    if not shutil.which("cc") or not shutil.which("ar") or not shutil.which("nm"):
        skip("no cc, ar or nm to build an archive with")
    top, lib = tree(GOOD)
    a = archive(lib, {
        "util_strbuf.c.o": "int sb(void) { return 0; }\n",
        "core_error.c.o": "int sb(void);\nint core_thing(void) { return sb(); }\n",
        "event_event.c.o": "int units_release(void);\n"
                           "int result_new(void) { return units_release(); }\n",
        "event_event-units.c.o": "int result_new(void);\nint units_release(void) { return 0; }\n"
                                 "int units_add(void) { return result_new(); }\n",
    })
    rc, out = run("--lib", lib, a)
    check(rc == 1, f"two files that call each other pass (rc {rc}): {out}")
    check("event/event-units.c and event/event.c call each other (result_new; "
          "units_release)" in out, f"the files and calls are not named: {out}")
    shutil.rmtree(top)


case(downward_includes_pass)
case(upward_include_fails)
case(upward_include_in_header_fails)
case(unlisted_folder_fails)
case(missing_folder_fails)
case(upward_call_fails)
case(downward_call_passes)
case(header_of_another_stage_fails)
case(files_calling_each_other_fail)
done()
