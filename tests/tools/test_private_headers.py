#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each private header of lib/ (lib/STAGE/NAME.h) compiles alone, twice
over (its guard), so that a file includes the small headers it uses (core/
has one a topic) and nothing else.

    test_private_headers.py LIB [-IDIR...] -- CC [ARGS...]
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from common import case, check, done  # noqa: E402

# The compiler as meson runs it (it may be "ccache cc"), after "--".
SEP = sys.argv.index("--")
LIB, INCS, CC = sys.argv[1], sys.argv[2:SEP], sys.argv[SEP + 1:]


def compiles_alone(rel):
    with tempfile.NamedTemporaryFile("w", suffix=".c") as f:
        f.write('#include "%s"\n#include "%s"\n' % (rel, rel))
        f.flush()
        p = subprocess.run(CC + ["-std=gnu11", "-fsyntax-only", "-Wall", "-Wextra",
                            "-Werror", "-I" + LIB] + INCS + [f.name],
                           capture_output=True, text=True)
    check(p.returncode == 0, f"lib/{rel} does not compile alone: add the includes it "
          f"needs:\n{p.stderr.strip()}")


for stage in sorted(os.listdir(LIB)):
    if os.path.isdir(os.path.join(LIB, stage)):
        for name in sorted(os.listdir(os.path.join(LIB, stage))):
            if name.endswith(".h"):
                case(compiles_alone, f"{stage}/{name}", name=f"{stage}/{name}")
done()
