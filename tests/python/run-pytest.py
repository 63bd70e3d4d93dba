#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run the Python package's tests under pytest; without pytest (Debian's
python3-pytest, which make test installs), skip (77) and say why."""
import os
import sys

try:
    import pytest
except ImportError:
    print("python3-pytest is not installed: install it (make test does) to test "
          "the Python package", file=sys.stderr)
    sys.exit(77)

# A sanitized library cannot be loaded into an uninstrumented python3 (the
# sanitizer's runtime must come first); the C suites cover that build.
sanitize = os.environ.get("HWPROF_SANITIZE", "none")
if sanitize not in ("", "none"):
    print(f"the library is built with -Db_sanitize={sanitize}, which python3 cannot "
          "load with ctypes: the Python package is tested in a plain build", file=sys.stderr)
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", here] + sys.argv[1:]))
