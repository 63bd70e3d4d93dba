#!/bin/sh
# SPDX-License-Identifier: MIT
# Everything the emulated ARMv8 machine needs, from Debian's packages:
# QEMU, the aarch64 cross compiler, the arm64 libraries hwprof builds
# against (dpkg's multiarch, beside the amd64 ones), and, unpacked into
# BUILD/guest/, Debian's arm64 kernel and a static busybox.
# Usage: tools/pmu/setup.sh BUILD     (make test-pmu runs it)
set -eu
build=${1:?usage: tools/pmu/setup.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
guest=$build/guest

if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "hwprof: adding arm64 to dpkg's architectures for the cross build's libraries"
	$sudo dpkg --add-architecture arm64
	$sudo apt-get update -qq
fi
"$top/tools/deps.sh" qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	libc6:arm64 libpfm4-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 libcapstone-dev:arm64 \
	libunwind-dev:arm64 libzstd-dev:arm64 zlib1g-dev:arm64 libiberty-dev:arm64

mkdir -p "$guest"
printf "[binaries]\nexe_wrapper = '%s'\n" "$top/tools/pmu/guest-run" >"$guest/wrapper.ini"
[ -f "$guest/vmlinuz" ] && [ -f "$guest/busybox" ] && exit 0
tmp=$(mktemp -d)
chmod 755 "$tmp"	# apt-get download drops to the _apt user
trap 'rm -rf "$tmp"' EXIT
# linux-image-arm64 names the current versioned kernel package.
kpkg=$(apt-cache depends linux-image-arm64:arm64 | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$kpkg" ] || { echo "hwprof: apt-cache knows no linux-image-arm64:arm64" >&2; exit 1; }
(cd "$tmp" && apt-get download -q "$kpkg" busybox-static:arm64) || {
	echo "hwprof: could not download $kpkg and busybox-static:arm64" >&2; exit 1; }
for deb in "$tmp"/*.deb; do
	dpkg-deb -x "$deb" "$tmp/root"
done
cp "$tmp"/root/boot/vmlinuz-* "$guest/vmlinuz"
cp "$tmp/root/bin/busybox" "$guest/busybox"
echo "$kpkg" >"$guest/kernel-package"
echo "hwprof: guest kernel $kpkg and busybox in $guest"
