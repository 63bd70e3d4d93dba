#!/bin/sh
# SPDX-License-Identifier: MIT
# Apply docs/api-renames.txt ("old new" a line) to the files given, or to
# every tracked source of the tree when none is: word-boundary sed, so
# hwp_score does not touch hwp_score_new, and idempotent (no new name is
# an old one), so it can run again over a branch made before or after it.
# The 0.1 compatibility names (lib/compat.c, tests/compat-0.1.c), the
# version script, the ABI baseline, NEWS.md, docs/api.md and the list
# itself keep the old names on purpose and are skipped.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/docs/api-renames.txt
script=$(mktemp)
trap 'rm -f "$script"' EXIT
# "old new" renames a word; "old( new(ARGS," rewrites a call.
# scdoc's man pages write hwp\_result\_load: each rule has that form too.
# A line that gives a function's history ("Since: 0.1 (as hwp_regions_init)",
# "0.1's hwp_verdict_name") keeps its old names.
keep="/(as hwp\\|[0-9]'s hwp/!"
awk -v k="$keep" 'function esc(s) { gsub(/_/, "\\\\\\_", s); return s }
	!/^#/ && NF == 2 && $1 ~ /\($/ { printf "%ss/\\<%s/%s /g\n", k, $1, $2
		printf "%ss/\\<%s/%s /g\n", k, esc($1), esc($2); next }
	!/^#/ && NF == 2 { printf "%ss/\\<%s\\>/%s/g\n", k, $1, $2
		printf "%ss/\\<%s\\>\\([^\\\\]\\|$\\)/%s\\1/g\n", k, esc($1), esc($2) }' \
	"$list" >"$script"
# No chains: a new name that is also an old one would make a second run
# rename again.
awk '!/^#/ && NF == 2 { old[$1] = 1; new[$2] = 1 }
	END { for (n in new) if (n in old) { print "api-rename: " n " is old and new"; exit 1 } }' "$list"
if [ $# -eq 0 ]; then
	cd "$root"
	set -- $(git ls-files | grep -E '\.(c|h|cc|in|py|sh|md|txt|scd|build|sym|bash|map)$|/Makefile$|^Makefile$')
fi
for f; do
	case $f in
	*lib/compat.c | *tests/compat-0.1.c | *lib/libhwprof.sym | *tests/abi/libhwprof.abi | \
	*NEWS.md | *docs/api.md | *docs/api-renames.txt | *tools/api-rename.sh)
		continue ;;
	esac
	[ -f "$f" ] || continue
	grep -q 'hwp' "$f" || continue
	sed -i -f "$script" "$f"
done
