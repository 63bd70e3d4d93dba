#!/bin/bash
# SPDX-License-Identifier: MIT
# Do the PMU tests catch a broken hardware path? Break one path at a time
# (a one-line change in the library), rebuild the arm64 build, run the PMU
# tests and the C tests of the hardware paths in the emulated machine, say
# which tests failed, and put the file back. "NOTHING" is a hole in the
# tests. Needs make test-pmu's build; takes about a minute a mutation.
# Usage: tools/pmu/mutate.sh [BUILD]      (default build-arm64)
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build-arm64}
[ -f "$build/build.ninja" ] || { echo "no $build: run make test-pmu first"; exit 2; }

# name | file | the line as it is | the line broken
mutations=(
	"counting: :u counts the kernel too|lib/count/counter.c|		a->size = sizeof(*a);|		a->size = sizeof(*a); a->exclude_kernel = 0;"
	"multiplexing: counts not scaled|lib/count/session-read.c|	return (double)c->value * ((double)c->time_enabled / (double)c->time_running);|	return (double)c->value;"
	"sampling: the period 1% long|lib/sample/record.c|		a->sample_period = r->o.period;|		a->sample_period = r->o.period + r->o.period / 100;"
	"user-space read: no sign extension|lib/count/rdpmc.h|	count += (int64_t)pmc >> (64 - width);|	count += (int64_t)(pmc >> (64 - width));"
	"user-space read: the cycle counter read as counter 0|lib/count/rdpmc.c|		__asm__ volatile(\"mrs %0, pmccntr_el0\" : \"=r\"(v));|		__asm__ volatile(\"mrs %0, pmevcntr0_el0\" : \"=r\"(v));"
	"user-space read: no clock|lib/count/rdpmc.c|mrs %0, cntvct_el0|mov %0, xzr"
	"user-space read: a short clock's wrap ignored|lib/count/rdpmc.h|		cyc = time_cycles + ((cyc - time_cycles) & time_mask);|		cyc = time_cycles + (cyc - time_cycles);"
	"user-space read: from any thread|lib/count/session-rdpmc.c|	if (current_tid() != s->owner_tid)|	if (0)"
	"groups: every member the leader's value|lib/count/session-read.c|		uint64_t value = b->member[j * stride], id = b->member[j * stride + 1];|		uint64_t value = b->member[0], id = b->member[j * stride + 1];"
	"multiplexing: the percent counted a whole number|lib/count/session-read.c|	return 100.0 * (double)c->time_running / (double)c->time_enabled;|	return trunc(100.0 * (double)c->time_running / (double)c->time_enabled);"
	"libpfm4: the encoding cut to its event byte|lib/event/event-pfm.c|	attr->config = a.config;|	attr->config = a.config & 0xff;"
	"sampling: a LOST record's id read as its count|lib/sample/record-file.c|			memcpy(&lost, (const char *)(h + 1) + 8, 8);|			memcpy(&lost, (const char *)(h + 1), 8);"
)
# Not here: an exited thread's count in place of the sum of its CPUs'
# records (on_exit_read). The guest's kernel (Debian's 6.1) writes no exit
# records at all, so per-thread skips there; the host's kernel suite
# catches it.
tests="pmu-stat pmu-record pmu-read pmu-regions pmu-threads hw rdpmc evlist lost"
saved=$(mktemp)
trap 'rm -f "$saved"' EXIT
holes=0
for m in "${mutations[@]}"; do
	IFS='|' read -r name file old new <<<"$m"
	cp "$file" "$saved"
	if ! python3 - "$file" "$old" "$new" <<'PY'; then
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, new, 1))
PY
		echo "$name: the line to break is no longer in $file: update $0"
		holes=$((holes + 1))
		continue
	fi
	if ninja -C "$build" >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		meson test -C "$build" --no-rebuild $tests >/dev/null 2>&1
		caught=$(python3 -c '
import json, sys
rows = map(json.loads, open(sys.argv[1]))
print(" ".join(t["name"] for t in rows if t["result"] != "OK") or "NOTHING")' \
			"$build/meson-logs/testlog.json")
	else
		caught="(it does not build)"
	fi
	cp "$saved" "$file"
	echo "$name: caught by $caught"
	[ "$caught" = NOTHING ] && holes=$((holes + 1))
done
ninja -C "$build" >/dev/null 2>&1
exit $((holes > 0))
