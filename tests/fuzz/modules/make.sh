#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the small modules that the report fuzz target's inputs name, from
# mod.c and mod-other.c (README.md says what each is for), and writes the
# seeds of tests/fuzz/corpus/report/ that name them (seeds.py). The
# modules are committed: the seeds hold addresses in them, which another
# compiler would move. Run it here after changing either .c file, and
# commit what it writes.
# Usage: tests/fuzz/modules/make.sh   (CC: the compiler, gcc by default)
set -eu
cd "$(dirname "$0")"
cc=${CC:-gcc}
# No libc, no unwind tables, sibling calls kept as calls: a few hundred
# bytes of code whose every address is a known function, line or inline.
# The source directory is recorded as /hwprof, not the builder's checkout.
flags="-g -O1 -fno-optimize-sibling-calls -fno-asynchronous-unwind-tables -nostdlib
	-fdebug-prefix-map=$(pwd)=/hwprof/tests/fuzz/modules -Wl,--build-id=sha1"
$cc $flags -static -no-pie -o mod mod.c mod-other.c
objcopy --strip-debug mod mod-nodebug
strip --strip-all -o mod-stripped mod
$cc $flags -shared -fPIC -o mod.so mod.c mod-other.c
strip --strip-all mod.so
python3 seeds.py ../corpus/report
