#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the benchmarks side by side against their references; paste the
# output into BENCHMARKS.md. Usage: bench/run.sh [BUILD_DIR]
set -eu
b=${1:-build}
echo "== $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo
echo "== bench-read: 3-event software group, libhwprof vs raw syscalls"
"$b/bench/bench-read" 21 20000
echo
if command -v perf >/dev/null 2>&1; then
	ev=task-clock,page-faults,context-switches
	echo "== bench-wrapper: hwprof stat vs perf stat on 'true', events $ev"
	"$b/bench/bench-wrapper" 101 ::: "$b/cli/hwprof" stat -e $ev -- true \
		::: perf stat -e $ev -- true ::: true
	echo
	echo "== bench-wrapper: the same with each tool's default events"
	"$b/bench/bench-wrapper" 101 ::: "$b/cli/hwprof" stat -- true ::: perf stat -- true
else
	echo "perf is not installed: the wrapper comparison is skipped"
fi
