#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every libFuzzer target of a -Dfuzz=true build for SECONDS each, from
# its seed corpus, and print a line for each as it ends: executions, speed,
# coverage and the time it would need for 10 million executions
# (tools/fuzz-summary.py reads its log). A crash fails the run and names the
# input to keep under tests/fuzz/regressions/TARGET/.
# Usage: tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]
set -u
build=$1 secs=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
# every fuzz-NAME program but the replays (NAME may have dashes: debug-frame)
targets=${*:-$(ls "$build/tests/fuzz" | sed -n '/^fuzz-replay-/d; s/^fuzz-\([a-z0-9_-]*\)$/\1/p')}
work="$build/fuzz-work"
mkdir -p "$work"
status=0
tools=$(dirname "$0")
"$tools/fuzz-summary.py" --header
for t in $targets; do
	exe="$build/tests/fuzz/fuzz-$t"
	corpus="$work/corpus-$t"
	mkdir -p "$corpus" "$work/artifacts"
	log="$work/$t.log"
	"$exe" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$work/artifacts/$t-" "$corpus" "$src/tests/fuzz/corpus/$t" \
		>"$log" 2>&1
	rc=$?
	"$tools/fuzz-summary.py" "$log"
	if [ $rc != 0 ]; then
		echo "  $t exited with status $rc: see $log"
		status=1
	fi
done
exit $status
