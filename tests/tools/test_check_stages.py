#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/check-stages.py on fabricated trees: it passes a tree whose
includes and calls go down lib/STAGES, and fails, naming the file, the line
and the rule, on an include or a call of a later stage, on a header that
declares another stage's function, on two files that call each other, on a
folder that lib/STAGES does not list, on a stage without its folder, and on
a file named after another stage that is not in that stage's folder."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import case, check, done, skip  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                       "check-stages.py")


def have_tools():
    return all(shutil.which(t) for t in ("cc", "ar", "nm"))


def checker(files, *expect, stages="# bottom first\nutil\ncore\nevent\n", objects=None,
            fails=True, what=""):
    """Run the checker on a lib/ of @files ({path: text}), @stages as its
    lib/STAGES and, with @objects ({member: C text}), an archive of them, as
    meson names members; check that it fails (or passes) for @what, and
    prints each of @expect."""
    if objects is not None and not have_tools():
        skip("no cc, ar or nm to build an archive with")
    top = tempfile.mkdtemp(prefix="hwprof-stages-")
    lib = os.path.join(top, "lib")
    os.makedirs(lib)
    with open(os.path.join(lib, "STAGES"), "w") as f:
        f.write(stages)
    for path, text in list(files.items()) + [(m[:-len(".o")], t)
                                             for m, t in (objects or {}).items()]:
        os.makedirs(os.path.dirname(os.path.join(lib, path)), exist_ok=True)
        with open(os.path.join(lib, path), "w") as f:
            f.write(text)
    args = ["--lib", lib]
    if objects is not None:
        objs = [os.path.join(lib, m) for m in objects]
        for o in objs:
            subprocess.run(["cc", "-c", "-o", o, o[:-len(".o")]], check=True)
        subprocess.run(["ar", "rcs", os.path.join(lib, "libx.a")] + objs, check=True)
        args.append(os.path.join(lib, "libx.a"))
    p = subprocess.run([sys.executable, CHECKER] + args, capture_output=True, text=True)
    out = p.stdout + p.stderr
    shutil.rmtree(top)
    check(p.returncode == (1 if fails else 0),
          f"{what}: {'passes' if fails else 'fails'} (rc {p.returncode}): {out}")
    for e in expect:
        check(e in out, f"{what}: the output does not say {e!r}: {out}")


GOOD = {
    "util/strbuf.h": "int sb(void);\n",
    "util/strbuf.c": '#include "util/strbuf.h"\n#include "strbuf.h"\nint sb(void) { return 0; }\n',
    "core/core.h": '#include <hwprof/hwprof.h>\n#include "util/strbuf.h"\n',
    "core/error.c": '#include "core/core.h"\n',
    "event/event.h": '#include "core/core.h"\n',
    "event/event.c": '#include "event/event.h"\n#include "util/strbuf.h"\n',
    "compat.c": '#include "event/event.h"\n',
}
# Objects of the three stages whose calls go down.
UTIL = "int sb(void) { return 0; }\n"
CORE = "int sb(void);\nint core_thing(void) { return sb(); }\n"


def with_(files, **more):
    """@files, with text added to some: util__text_c= for util/text.c."""
    d = dict(files)
    for key, text in more.items():
        path = ".".join(key.replace("__", "/").rsplit("_", 1))
        d[path] = d.get(path, "") + text
    return d


def downward_includes_pass():
    checker(GOOD, "3 stages", fails=False, what="a tree whose includes go down")


def upward_include_fails():
    checker(with_(GOOD, util__text_c='/* x */\n#include <stdio.h>\n#include "core/core.h"\n'),
            "util/text.c:3", "core/core.h", "lib/STAGES", what="an include of a later stage")


def upward_include_in_header_fails():
    checker(with_(GOOD, core__core_h='#include "event/event.h"\n'), "core/core.h:3",
            what="a header's include of a later stage")


def unlisted_folder_fails():
    checker(with_(GOOD, doctor__doctor_c='#include "core/core.h"\n'), "doctor", "lib/STAGES",
            what="a folder lib/STAGES does not list")


def missing_folder_fails():
    checker(GOOD, "sample", stages="util\ncore\nevent\nsample\n",
            what="a stage without a folder")


def upward_call_fails():
    checker(GOOD, "util_strbuf.c -> core_error.c: core_thing", "lib/STAGES", objects={
        "util_strbuf.c.o": "int core_thing(void);\nint sb(void) { return core_thing(); }\n",
        "core_error.c.o": "int core_thing(void) { return 1; }\n",
        "event_event.c.o": "int sb(void);\nint ev(void) { return sb(); }\n",
    }, what="a call of a later stage")


def downward_call_passes():
    checker(GOOD, objects={
        "util_strbuf.c.o": UTIL,
        "core_error.c.o": CORE,
        "event_event.c.o": "int core_thing(void);\nint ev(void) { return core_thing(); }\n",
        "compat.c.o": "int ev(void);\nint old(void) { return ev(); }\n",
    }, fails=False, what="calls that go down")


def header_of_another_stage_fails():
    checker(with_(GOOD, core__core_h="/* the event stage's */\nint ev_parse(const char *s);\n"),
            "core/core.h:4: declares ev_parse, which event_event.c defines", objects={
                "util_strbuf.c.o": UTIL,
                "core_error.c.o": CORE,
                "event_event.c.o": "int ev_parse(const char *s) { return !s; }\n",
            }, what="a header declaring a later stage's function")


def files_calling_each_other_fail():
    checker(GOOD, "event/event-units.c and event/event.c call each other (result_new; "
            "units_release)", objects={
                "util_strbuf.c.o": UTIL,
                "core_error.c.o": CORE,
                "event_event.c.o": "int units_release(void);\n"
                                   "int result_new(void) { return units_release(); }\n",
                "event_event-units.c.o": "int result_new(void);\n"
                                         "int units_release(void) { return 0; }\n"
                                         "int units_add(void) { return result_new(); }\n",
            }, what="two files that call each other")


def file_of_another_stage_fails():
    checker(dict(GOOD, **{"event/core.c": "/* x */\n", "event/core-attrs.h": "/* x */\n"}),
            "lib/event/core.c", "lib/event/core-attrs.h", "lib/core/",
            what="files named after another stage, outside its folder")
    # a stage's name inside a longer word names no stage
    checker(dict(GOOD, **{"event/cored.c": "/* x */\n", "event/event-core.c": "/* x */\n",
                          "core/core-event.h": "/* x */\n"}),
            "3 stages", fails=False, what="names that only contain a stage's name")


case(downward_includes_pass)
case(upward_include_fails)
case(upward_include_in_header_fails)
case(unlisted_folder_fails)
case(missing_folder_fails)
case(upward_call_fails)
case(downward_call_passes)
case(header_of_another_stage_fails)
case(files_calling_each_other_fail)
case(file_of_another_stage_fails)
done()
