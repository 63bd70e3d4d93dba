#!/bin/sh
# SPDX-License-Identifier: MIT
# The exported symbols are exactly those of lib/libhwprof.sym, all with the
# hwp_ prefix, and the soname is libhwprof.so.0.
set -u
lib=$1 sym=$2
fail=0
want=$(grep -oE '^\s+hwp_[a-z0-9_]+;' "$sym" | tr -d ' \t;' | sort)
have=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | sed 's/@.*//' |
	grep -v '^HWPROF_' | sort)
if [ "$want" != "$have" ]; then
	echo "exported symbols differ from $sym:"
	diff -u "$(printf '%s\n' "$want" >/tmp/abi-want.$$; echo /tmp/abi-want.$$)" \
		"$(printf '%s\n' "$have" >/tmp/abi-have.$$; echo /tmp/abi-have.$$)"
	rm -f /tmp/abi-want.$$ /tmp/abi-have.$$
	fail=1
fi
bad=$(printf '%s\n' "$have" | grep -v '^hwp_' || true)
[ -z "$bad" ] || { echo "symbols without the hwp_ prefix: $bad"; fail=1; }
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libhwprof.so.0 ] || { echo "soname is '$soname'"; fail=1; }
n=$(printf '%s\n' "$have" | wc -l)
[ $fail = 0 ] && echo "$n symbols, all in $sym; soname $soname"
exit $fail
