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

here = os.path.dirname(os.path.abspath(__file__))
sys.exit(pytest.main(["-q", "-rs", "-p", "no:cacheprovider", here] + sys.argv[1:]))
