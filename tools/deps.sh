#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages hwprof needs, if any is missing.
# As root it runs apt-get; otherwise it uses sudo when that works without a
# password, and else names the packages and the command that installs them.
# Elsewhere (no dpkg) it installs nothing: install the same with the
# system's package manager; meson says what it does not find.
set -u
if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "hwprof: not a Debian system: nothing installed. hwprof needs meson, ninja, pkg-config," \
		"a C11 compiler, python3, libpfm4, elfutils' libdw and libelf, capstone, zlib, libunwind, libzstd, libiberty, libdebuginfod, libmicrohttpd (hwprof serve) and scdoc (man pages)${*:+, and: $*}"
	exit 0
fi
pkgs="meson ninja-build pkg-config gcc libc6-dev python3 libpfm4-dev libdw-dev libelf-dev libcapstone-dev zlib1g-dev libunwind-dev libzstd-dev libiberty-dev libdebuginfod-dev libmicrohttpd-dev scdoc"
[ $# -gt 0 ] && pkgs="$pkgs $*"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "hwprof: installing missing packages:$missing"
if [ "$(id -u)" = 0 ]; then
	sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo"
else
	echo "hwprof: these packages are missing:$missing" >&2
	echo "hwprof: install them as root:  apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || exit 1
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
	echo "hwprof: apt-get install$missing failed" >&2
	exit 1
}
