#!/bin/sh
# SPDX-License-Identifier: MIT
# Run every libFuzzer target of a -Dfuzz=true build for SECONDS each, from
# its seed corpus, and print a table of executions. A crash fails the run
# and names the input to keep under tests/fuzz/regressions/TARGET/.
# Usage: tools/fuzz.sh BUILD_DIR SECONDS [TARGET...]
set -u
build=$1 secs=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
targets=${*:-$(ls "$build/tests/fuzz" | sed -n 's/^fuzz-\([a-z0-9_]*\)$/\1/p')}
work="$build/fuzz-work"
mkdir -p "$work"
status=0
printf '%-12s %14s %10s %8s  %s\n' target executions exec/s seconds result
for t in $targets; do
	exe="$build/tests/fuzz/fuzz-$t"
	corpus="$work/corpus-$t"
	mkdir -p "$corpus" "$work/artifacts"
	log="$work/$t.log"
	"$exe" -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$work/artifacts/$t-" "$corpus" "$src/tests/fuzz/corpus/$t" \
		>"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	if [ $rc = 0 ]; then
		result=ok
	else
		result="CRASH (status $rc): $(ls -t "$work/artifacts/$t-"* 2>/dev/null | head -n 1); see $log"
		status=1
	fi
	printf '%-12s %14s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$secs" "$result"
done
exit $status
