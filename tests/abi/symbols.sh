#!/bin/sh
# SPDX-License-Identifier: MIT
# The exported symbols are exactly those of lib/libhwprof.sym, each in the
# version node the file puts it in, all with the hwp_ prefix (hwpriv_ in
# the node HWPROF_PRIVATE alone), and the soname is libhwprof.so.0.
set -u
lib=$1 sym=$2
fail=0
# "name@NODE" for each name of each node of the version script.
want=$(awk '/^HWPROF_[0-9A-Z.]+ *\{/ {node = $1} /^[ \t]+hwp(riv)?_[a-z0-9_]+;/ {
	gsub(/[ \t;]/, ""); print $0 "@" node }' "$sym" | sort)
have=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | sed 's/@@*/@/' |
	grep -v '^HWPROF_' | sort)
if [ "$want" != "$have" ]; then
	echo "exported symbols differ from $sym (name@version):"
	printf '%s\n' "$want" >/tmp/abi-want.$$
	printf '%s\n' "$have" >/tmp/abi-have.$$
	diff -u /tmp/abi-want.$$ /tmp/abi-have.$$
	rm -f /tmp/abi-want.$$ /tmp/abi-have.$$
	fail=1
fi
bad=$(printf '%s\n' "$have" | grep -v '^hwp_' | grep -v '^hwpriv_[a-z0-9_]*@HWPROF_PRIVATE$' || true)
[ -z "$bad" ] || { echo "symbols without the hwp_ prefix: $bad"; fail=1; }
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libhwprof.so.0 ] || { echo "soname is '$soname'"; fail=1; }
n=$(printf '%s\n' "$have" | wc -l)
[ $fail = 0 ] && echo "$n symbols, each in its node of $sym; soname $soname"
exit $fail
