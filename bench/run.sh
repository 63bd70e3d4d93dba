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
echo
echo "== bench-region: a region's begin+end, libhwprof vs raw syscalls vs PAPI"
"$b/bench/bench-region" 31 10000
if command -v valgrind >/dev/null 2>&1; then
	# Instructions in user space, counted by callgrind: the same from run to
	# run, whatever the neighbours do. (Under valgrind, PAPI's libpfm4
	# recognizes the emulated CPU, so PAPI counts there even on this VM.)
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" "$b/bench/bench-region" 1 20000 \
		>/dev/null 2>&1
	echo
	echo "== instructions a region in user space (callgrind, 20000 regions each)"
	callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
		awk '/bench-region.c:(raw|api|papi)_region / { gsub(",", "", $1);
			split($0, a, ":"); sub(/ .*/, "", a[2]);
			if (!seen[a[2]]++) printf "%-12s %6.0f\n", a[2], $1 / 20000 }'
	rm -f "$out"
fi
