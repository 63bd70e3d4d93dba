#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the benchmarks side by side against their references; paste the
# output into BENCHMARKS.md. Usage: bench/run.sh [BUILD_DIR]; BASE_BUILD=DIR
# adds -g's stack copy against a build without it (bench-fp-stack.py).
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
	# Shuffled: a command's place in a round costs (BENCHMARKS.md, issue 25).
	BENCH_SHUFFLE=1 "$b/bench/bench-wrapper" 101 ::: "$b/cli/hwprof" stat -e $ev -- true \
		::: perf stat -e $ev -- true ::: true
	echo
	echo "== bench-wrapper: the same with each tool's default events, and stat-floor (the"
	echo "   kernel work of hwprof's default events and nothing else: a floor for the ratio)"
	BENCH_SHUFFLE=1 "$b/bench/bench-wrapper" 101 ::: "$b/cli/hwprof" stat -- true \
		::: perf stat -- true ::: "$b/bench/stat-floor" true ::: true
	echo
	echo "== bench-wrapper: repeated runs (stat -r), where hwprof starts once: a run's cost,"
	echo "   with the default events and with two tracepoints"
	BENCH_EACH=1 "$b/bench/bench-wrapper" 7 ::: "$b/cli/hwprof" stat -r 100 -- true \
		::: perf stat -r 100 -- true
	tp=sched:sched_process_exec,syscalls:sys_enter_read
	if "$b/cli/hwprof" stat -e $tp -- true >/dev/null 2>&1; then
		BENCH_EACH=1 "$b/bench/bench-wrapper" 3 ::: "$b/cli/hwprof" stat -r 50 -e $tp -- true \
			::: perf stat -r 50 -e $tp -- true
	else
		echo "(no tracefs here: the tracepoints are skipped)"
	fi
else
	echo "perf is not installed: the wrapper comparison is skipped"
fi
echo
echo "== the start-up budget (issue 25): 'hwprof stat -- true' against stat-floor, and"
echo "   what of it the design spends before main(), each as a share of the floor's time"
BENCH_SHUFFLE=1 "$b/bench/bench-wrapper" 201 ::: "$b/cli/hwprof" stat -- true \
	::: "$b/bench/stat-floor" true ::: "$b/cli/hwprof" --version \
	::: "$b/bench/empty-hwprof" ::: "$b/bench/empty-libc" ::: true |
awk '/^ *[0-9.]+ ms/ { t[++n] = $1 } { print }
     END { if (n < 6) exit
	   f = t[2]; printf "hwprof stat over the floor: %.3f\n", t[1] / f
	   printf "loading libhwprof (empty-hwprof - empty-libc): %.3f ms, %.1f%% of the floor\n", t[4] - t[5], 100 * (t[4] - t[5]) / f
	   printf "the CLI before its work (--version - empty-hwprof): %.3f ms, %.1f%%\n", t[3] - t[4], 100 * (t[3] - t[4]) / f
	   printf "start-up in all (--version - empty-libc): %.3f ms, %.1f%%\n", t[3] - t[5], 100 * (t[3] - t[5]) / f
	   printf "the rest, stat over the floor less start-up: %.3f ms, %.1f%%\n", t[1] - f - (t[3] - t[5]), 100 * (t[1] - f - (t[3] - t[5])) / f }'
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
echo
echo "== bench-python: enter+exit of hwprof.count() and hwprof.region() vs the C API's"
python3 bench/bench-python.py "$b" 21 10000

# ---- hwprof record and report (issue 3) ----
if ! command -v perf >/dev/null 2>&1; then
	echo "perf is not installed: the record and report comparisons are skipped"
	exit 0
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
h="$b/cli/hwprof"
# The reports keep the kernel's symbols in a cache of this run's own.
export XDG_CACHE_HOME="$d/cache"
echo
echo "== report by symbol: hwprof report --sort sym vs perf report --stdio --sort sym"
echo "   on the same perf.data: hotspots 1300 rounds, cpu-clock every 100 us, call chains"
"$h" record -g -c 100000 -o "$d/hw.data" -- "$b/tests/hotspots" 1300 2>&1 | tail -1
"$b/bench/bench-wrapper" 11 ::: "$h" report -i "$d/hw.data" --sort sym \
	::: perf report -i "$d/hw.data" --stdio --sort sym
echo "   ... the same with user-space samples only (cpu-clock:u): no kernel symbols to read"
"$h" record -g -e cpu-clock:u -c 100000 -o "$d/hwu.data" -- "$b/tests/hotspots" 1300 2>&1 | tail -1
"$b/bench/bench-wrapper" 11 ::: "$h" report -i "$d/hwu.data" --sort sym \
	::: perf report -i "$d/hwu.data" --stdio --sort sym
echo "   ... and on perf record's file of the same program"
perf record -q -e cpu-clock -g -c 100000 -o "$d/perf.data" -- "$b/tests/hotspots" 1300
"$b/bench/bench-wrapper" 11 ::: "$h" report -i "$d/perf.data" --sort sym \
	::: perf report -i "$d/perf.data" --stdio --sort sym
echo
echo "== report by symbol, ~270,000 samples with call chains (issue 11: at most 0.2x perf,"
echo "   every round): hwprof report --sort sym, the kernel's symbols from the cache (warm),"
echo "   vs the same reading /proc/kallsyms vs perf report --stdio --no-children --sort sym"
echo "   (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
"$h" record -g -c 100000 -o "$d/hw270.data" -- "$b/tests/hotspots" 3400 2>&1 | tail -1
"$h" report -i "$d/hw270.data" --sort sym >/dev/null	# writes the cache
echo "   the kernel's symbols alone, parsed vs from the cache:"
"$b/bench/bench-kallsyms" 11
for i in 1 2 3; do
	BENCH_EACH=1 "$b/bench/bench-wrapper" 5 ::: "$h" report -i "$d/hw270.data" --sort sym \
		::: "$h" report -i "$d/hw270.data" --sort sym --no-kallsyms-cache \
		::: perf report -i "$d/hw270.data" --stdio --no-children --sort sym
	echo "   (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo
echo "== recording overhead at 4 kHz: the program's own run time"
python3 bench/bench-record.py "$b" 21 4000 300000000
echo
if [ -n "${BASE_BUILD:-}" ]; then
	echo "== -g's 128 bytes of stack on x86-64 against -g of BASE_BUILD (a build without them)"
	echo "   (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
	python3 bench/bench-fp-stack.py "$b" "$BASE_BUILD" 15 4000 300000000
	echo
fi
echo "== recording off-CPU time: record --off-cpu vs perf record -e context-switches -c 1 -g"
echo "   --switch-events, the program's own run time (issue 16)"
python3 bench/bench-offcpu.py "$b" 21 20000
echo
echo "== fixed cost of a recording: record -- true"
"$b/bench/bench-wrapper" 31 ::: "$h" record -o "$d/t1.data" -- true \
	::: perf record -q -o "$d/t2.data" -- true ::: true
echo
echo "== memory of a report (maximum resident set) over 10x the samples at the same addresses"
python3 bench/perf-data-repeat.py "$d/hw.data" 10 "$d/hw10.data"
for f in hw.data hw10.data; do
	n=$("$h" report -i "$d/$f" --format json --top 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
	/usr/bin/time -o "$d/time" -f "%M KB  %e s  hwprof report --sort sym, $n samples ($f)" \
		"$h" report -i "$d/$f" --sort sym >/dev/null
	cat "$d/time"
	/usr/bin/time -o "$d/time" -f "%M KB  %e s  perf report --stdio --sort sym, $n samples ($f)" \
		perf report -i "$d/$f" --stdio --sort sym >/dev/null 2>&1
	cat "$d/time"
done
echo
echo "== pprof export: report --format pprof vs the plain report --sort sym, same file"
echo "   (hw.data repeated to >= 1M samples with call chains; goal: ratio <= 1.5)"
n=$("$h" report -i "$d/hw.data" --format json --top 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
python3 bench/perf-data-repeat.py "$d/hw.data" $(( (1000000 + n - 1) / n )) "$d/hw1m.data"
"$h" report -i "$d/hw1m.data" --format json --top 1 |
	python3 -c 'import json,sys; print("  ", json.load(sys.stdin)["total_samples"], "samples")'
# The first report that reads a compressed debug file's lines keeps it
# decompressed in the cache (lib/profile/dwarf.c): the reports after it are
# measured, then the first one, the copies removed before each.
"$h" report -i "$d/hw1m.data" --format pprof -o "$d/hw1m.pb.gz"
"$b/bench/bench-wrapper" 11 ::: "$h" report -i "$d/hw1m.data" --sort sym \
	::: "$h" report -i "$d/hw1m.data" --format pprof -o "$d/hw1m.pb.gz"
echo "   ... the first report, which writes the decompressed copies of the debug files"
"$b/bench/bench-wrapper" 5 ::: "$h" report -i "$d/hw1m.data" --sort sym \
	::: sh -c "rm -f '$d/cache/hwprof/'debug-*; exec '$h' report -i '$d/hw1m.data' \
	--format pprof -o '$d/hw1m.pb.gz'"

# ---- DWARF call chains (issue 10) ----
echo
echo "== DWARF call chains: hwprof report vs perf report --stdio on the same file"
echo "   calltree tree 2400 (-O2 -fomit-frame-pointer), cpu-clock every 100 us, --call-graph dwarf"
"$h" record -e cpu-clock -c 100000 --call-graph dwarf -m 1024 -o "$d/dw.data" -- \
	"$b/tests/calltree" tree 2400 2>&1 | tail -1
"$b/bench/bench-wrapper" 5 ::: "$h" report -i "$d/dw.data" \
	::: perf report -i "$d/dw.data" --stdio
for cmd in "$h report -i $d/dw.data" "perf report -i $d/dw.data --stdio"; do
	/usr/bin/time -o "$d/time" -f "%U s user + %S s system, %M KB  $cmd" $cmd >/dev/null 2>&1
	cat "$d/time"
done

# ---- report --format html (issue 13) ----
echo
echo "== a flame graph of 100000 distinct call chains: report --format html vs --format folded"
echo "   vs perf script report flamegraph (perf 6.1; Debian 12 has no d3-flame-graph template,"
echo "   so perf writes its page's data alone, --format json), on one file (bench/many-stacks.py)"
python3 bench/many-stacks.py 100000 "$d/s.data" "$d/s.kallsyms"
for fmt in html folded; do
	/usr/bin/time -o "$d/time" -f "%e s  %M KB  hwprof report --format $fmt" \
		"$h" report -i "$d/s.data" --kallsyms "$d/s.kallsyms" --format $fmt -o "$d/s.$fmt"
	echo "$(cat "$d/time")  $(stat -c %s "$d/s.$fmt") bytes"
done
/usr/bin/time -o "$d/time" -f "%e s  %M KB  perf script report flamegraph --format json" \
	perf script -i "$d/s.data" --kallsyms "$d/s.kallsyms" \
	-s /usr/lib/perf-core/scripts/python/flamegraph.py -- --format json -o "$d/s.json" \
	>/dev/null 2>&1
echo "$(cat "$d/time")  $(stat -c %s "$d/s.json") bytes"
if command -v chromium >/dev/null 2>&1; then
	echo "   the page in headless Chromium (the page's own times):"
	python3 bench/page-load.py 5 "$d/s.html"
fi

# ---- a report at scale (issue 11: <= 0.1 of perf report's wall time) ----
echo
echo "== a report at scale: hw.data repeated to about 14.8M samples with call chains;"
echo "   hwprof report (as it chooses, --threads 2, --threads 1) vs perf report --stdio"
echo "   --no-children --sort sym, rounds of the four in turn"
n=$("$h" report -i "$d/hw.data" --format json --top 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_samples"])')
python3 bench/perf-data-repeat.py "$d/hw.data" $(( (14800000 + n - 1) / n )) "$d/big.data"
python3 bench/report-at-scale.py "$b" "$d/big.data" 5
rm -f "$d/big.data"
