#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's ABI (its functions, and the layout of every type the public
# header declares) is the one recorded in tests/abi/libhwprof.abi, as
# abidiff (Debian's abigail-tools) sees it. A struct whose first member is
# `size_t sz;` (the opts and info structs) may grow at its end: programs
# pass or read their own size. Anything else that changes fails here:
# an intended change is recorded with `make abi-baseline` and committed
# with it, so that the diff shows it to the reviewer; one that breaks
# programs built before it needs a new version node (lib/libhwprof.sym).
#
#   layout.sh LIB HEADER_DIR BASELINE [--update]
set -u
lib=$1 headers=$2 baseline=$3 update=${4:-}
if ! command -v abidiff >/dev/null || ! command -v abidw >/dev/null; then
	echo "abidiff and abidw not found: install abigail-tools (make test does)"
	exit 77
fi
if ! readelf -S "$lib" | grep -q '\.debug_info'; then
	echo "$lib has no debug information, which abidw reads the types from:" \
		"build with -g (meson's default buildtypes debug and debugoptimized do)"
	exit 77
fi
if [ "$update" = --update ]; then
	abidw --headers-dir "$headers" --drop-private-types --no-corpus-path \
		--no-comp-dir-path --no-show-locs --type-id-style hash "$lib" >"$baseline.new" &&
		mv "$baseline.new" "$baseline" && echo "wrote $baseline"
	exit
fi
[ -f "$baseline" ] || { echo "$baseline is missing: make abi-baseline writes it"; exit 1; }

supp=$(mktemp) || exit 1
trap 'rm -f "$supp"' EXIT
# The structs that may grow, from the header itself.
grown=$(cat "$headers"/*.h | awk '
	/^struct hwp_[a-z0-9_]+ \{$/ { name = $2; next }
	name != "" { if ($0 ~ /^\tsize_t sz;/) print name; name = "" }')
for s in $grown; do
	printf '[suppress_type]\n  type_kind = struct\n  name = %s\n  has_data_member_inserted_at = end\n\n' "$s"
done >"$supp"

# The baseline holds the public types alone; the library's private ones
# (struct hwp_session...) are opaque to programs, and abidiff does not
# count a definition of what the baseline only declares as a change.
abidiff --leaf-changes-only --no-show-locs --suppressions "$supp" "$baseline" "$lib"
rc=$?
n=$(echo "$grown" | wc -w)
if [ $rc = 0 ]; then
	echo "the ABI is the baseline's ($n sz structs may grow at their end)"
	exit 0
fi
# abidiff's status is a bit field: 1 error, 2 usage, 4 a change, 8 a change
# that breaks programs built before it.
if [ $((rc & 3)) != 0 ]; then
	echo "abidiff failed (status $rc)"
elif [ $((rc & 8)) != 0 ]; then
	echo "an incompatible ABI change (above): a function programs call is gone." \
		"Keep it (lib/compat.c keeps old versions of a symbol), then make abi-baseline"
else
	echo "the ABI changed (above). If a function's parameters changed, a member of a" \
		"struct that programs use moved or changed type, or a struct without a leading" \
		"sz grew, programs" \
		"built before it break: keep the old layout, or version the functions that" \
		"take it (lib/libhwprof.sym, lib/compat.c). If it is intended and compatible" \
		"(an added function), run make abi-baseline and commit $baseline with it"
fi
exit 1
