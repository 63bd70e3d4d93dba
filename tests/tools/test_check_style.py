#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/check-style.py's limits on size, checked on fabricated trees: in
lib/ and cli/, a C function of 80 lines passes and one of 81 fails (counted
from its first line to its closing brace), a file of 800 lines passes and
one of 801 fails; elsewhere neither limit applies."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
from common import case, check, done  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "..", "tools", "check-style.py")
SPDX = "/* SPDX-License-Identifier: MIT */\n"


def function(name, nr_lines):
    """A function of nr_lines lines, its signature on two of them."""
    body = "".join("\ta += %d;\n" % i for i in range(nr_lines - 5))
    return ("static int %s(int a,\n\t\tint b)\n{\n%s\treturn a + b;\n}\n"
            % (name, body))


def checked(files):
    """Run the script on a tree of {path: text}: (status, output)."""
    with tempfile.TemporaryDirectory() as top:
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(top, path)), exist_ok=True)
            with open(os.path.join(top, path), "w") as f:
                f.write(text)
        p = subprocess.run([sys.executable, SCRIPT, top], capture_output=True,
                           text=True, timeout=60)
        return p.returncode, p.stdout + p.stderr


def function_limit(folder):
    rc, out = checked({folder + "/x.c": SPDX + function("fits", 80)})
    check(rc == 0, f"an 80-line function in {folder}/ fails: {out}")
    rc, out = checked({folder + "/x.c": SPDX + function("too_long", 81)})
    check(rc == 1, f"an 81-line function in {folder}/ passes: {out}")
    check(f"{folder}/x.c:2: function too_long has 81 lines" in out,
          f"the problem does not name the function, its line and length: {out}")


def function_limit_c_only():
    rc, out = checked({"lib/x.cc": SPDX + function("too_long", 81)})
    check(rc == 0, f"a C++ function fails: {out}")


def file_limit():
    rc, out = checked({"lib/x.c": SPDX + "\n" * 799})
    check(rc == 0, f"an 800-line file fails: {out}")
    rc, out = checked({"lib/x.c": SPDX + "\n" * 800})
    check(rc == 1 and "lib/x.c:801: 801 lines, more than 800" in out,
          f"an 801-line file passes or is not named: {rc} {out}")
    rc, out = checked({"cli/x.h": SPDX + "\n" * 800})
    check(rc == 1 and "cli/x.h:801: 801 lines" in out, f"an 801-line header passes: {out}")


def limits_only_in_lib_and_cli():
    rc, out = checked({"tests/x.c": SPDX + function("too_long", 200) + "\n" * 900})
    check(rc == 0, f"the limits apply outside lib/ and cli/: {out}")


def every_function_counted():
    """Two functions in a file: the second one's length, not the sum."""
    text = SPDX + function("first", 80) + "\n" + function("second", 81)
    rc, out = checked({"lib/x.c": text})
    check(rc == 1 and "function second has 81 lines" in out and "first" not in out,
          f"the second function is not the one reported: {out}")


case(function_limit, "lib")
case(function_limit, "cli", name="function limit in cli")
case(function_limit_c_only)
case(file_limit)
case(limits_only_in_lib_and_cli)
case(every_function_counted)
done()
