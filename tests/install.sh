#!/bin/sh
# SPDX-License-Identifier: MIT
# meson install into a temporary root; then build examples/out-of-tree
# against it with pkg-config, as a user would, and run it. The arguments
# after the two directories are the man pages the build made (hwprof-stat.1):
# each must be installed under share/man/manN. --lib-only before them: a
# build of -Dcli=false -Dtests=false -Dbench=false (make check-lib-only),
# which installs no program, no bash completion and no page of section 1.
set -eu
build=$1 src=$2
shift 2
lib_only=false
if [ "${1:-}" = --lib-only ]; then
	lib_only=true
	shift
fi
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp" --no-rebuild --quiet >/dev/null
for page in "$@"; do
	page=$(basename "$page")
	[ -n "$(find "$tmp" -path "*/share/man/man${page##*.}/$page")" ] ||
		{ echo "the man page $page was not installed under share/man/man${page##*.}"; exit 1; }
done
[ $# -gt 0 ] && echo "man pages installed: $#"
pc=$(find "$tmp" -name hwprof.pc | head -n 1)
[ -n "$pc" ] || { echo "hwprof.pc was not installed"; exit 1; }
for f in hwprof/hwprof.h hwprof/version.h hwprof/core.h hwprof/event.h hwprof/count.h \
	hwprof/workload.h hwprof/stats.h hwprof/result.h hwprof/region.h hwprof/compare.h \
	hwprof/doctor.h hwprof/record.h hwprof/profile.h hwprof/diff.h; do
	[ -n "$(find "$tmp" -path "*/include/$f")" ] || { echo "$f was not installed"; exit 1; }
done
if $lib_only; then
	extra=$(find "$tmp" -path '*/bin/*' -o -path '*/bash-completion/*' -o -name '*.1')
	[ -z "$extra" ] || { echo "installed without the CLI: $extra"; exit 1; }
else
	# bash completion, where bash-completion looks (its completionsdir)
	[ -n "$(find "$tmp" -path '*/bash-completion/completions/hwprof')" ] ||
		{ echo "the bash completion was not installed"; exit 1; }
fi
PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$tmp
export PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR
cflags=$(pkg-config --cflags hwprof)
libs=$(pkg-config --libs hwprof)
echo "pkg-config: $cflags $libs"
libdir=$(dirname "$(find "$tmp" -name 'libhwprof.so.0' | head -n 1)")
# A library built with the sanitizers needs a program built with them.
san=""
readelf -d "$libdir/libhwprof.so.0" | grep -q libasan && san="-fsanitize=address,undefined"
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Werror $san $cflags "$src/examples/out-of-tree/hello.c" $libs -o "$tmp/hello"
out=$(LD_LIBRARY_PATH=$libdir "$tmp/hello")
echo "$out"
case $out in
*"page-faults"*) ;;
*) echo "the program built against the installed library did not count"; exit 1 ;;
esac
# The Python package, where meson found a Python to install it for: it
# loads the installed library by its soname.
pkg=$(find "$tmp" -path '*/hwprof/__init__.py' | head -n 1)
if [ -n "$pkg" ] && ! readelf -d "$libdir/libhwprof.so.0" | grep -q libasan; then
	pyver=$(LD_LIBRARY_PATH=$libdir PYTHONPATH=$(dirname "$(dirname "$pkg")") \
		python3 -c 'import hwprof; print(hwprof.__version__)')
	echo "installed Python package: hwprof $pyver"
	[ "$pyver" = "$(pkg-config --modversion hwprof)" ] ||
		{ echo "the installed Python package says $pyver, hwprof.pc another version"; exit 1; }
fi
$lib_only && exit 0
ver=$(LD_LIBRARY_PATH=$libdir "$(find "$tmp" -path '*/bin/hwprof')" --version)
echo "installed CLI: $ver"
