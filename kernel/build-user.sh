#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the series' user space programs against the kernel NAME of
# util/common.sh's recipes, static (the initramfs has no libc): its UAPI
# headers (make headers: $BUILD/NAME/usr/include), the tool
# tools/power/latency-tolerance and the programs the power_qos selftest
# builds ($BUILD/NAME/user/selftests/power_qos/, which qemu/run puts
# beside the script; its request holder lt_hold serves the guest suites
# too).  Both go to $BUILD/NAME/user/bin/, which qemu/mkinitramfs.sh puts
# in the initramfs's /bin/.  Any warning fails it.
#   build-user.sh NAME
set -eu
. "$(dirname "$0")/../util/common.sh"

[ $# = 1 ] || die "usage: build-user.sh NAME"
recipe "$1" || die "no kernel $1 in util/common.sh's recipes"
out=$BUILD/$1
user=$out/user
log=$user/build.log
rm -rf "$user"
mkdir -p "$user/selftests/power_qos"
{
	kmake "$KSRC" "$out" headers &&
	make -C "$KSRC/tools/power/latency-tolerance" O="$user" LDFLAGS=-static &&
	make -C "$KSRC/tools/testing/selftests/power_qos" \
		OUTPUT="$user/selftests/power_qos" \
		KHDR_INCLUDES="-isystem $out/usr/include" LDFLAGS=-static
} >"$log" 2>&1 || { cat "$log" >&2; die "the user programs do not build against $1 (see $log)"; }
if grep -E 'warning:|error:' "$log" >&2; then
	die "the user programs build with warnings against $1 (see $log)"
fi
mkdir -p "$user/bin"
cp "$user/latency-tolerance" "$user/selftests/power_qos/lt_hold" "$user/bin/"
