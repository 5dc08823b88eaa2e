#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the harness's out-of-tree test modules (kmod/) against the kernel
# NAME of util/common.sh's recipes, already built with CONFIG_MODULES:
# a fresh copy of kmod/ in $BUILD/NAME/kmod, built there with W=1 (and
# EXTRA_MAKE, e.g. "C=2"); any warning fails it.  The modules end up in
# $BUILD/NAME/kmod/*.ko, where qemu/run takes them into the initramfs
# (/lib/kmod/).
#   build-kmod.sh NAME
set -eu
. "$(dirname "$0")/../util/common.sh"

[ $# = 1 ] || die "usage: build-kmod.sh NAME"
recipe "$1" || die "no kernel $1 in util/common.sh's recipes"
out=$BUILD/$1
grep -q '^CONFIG_MODULES=y' "$out/.config" 2>/dev/null ||
	die "kernel $1 has no CONFIG_MODULES (kernel/build-kernel.sh $1)"
[ -f "$out/Module.symvers" ] || die "no $out/Module.symvers: build kernel $1 with its modules"

rm -rf "$out/kmod"
mkdir -p "$out/kmod"
cp "$TOP"/kmod/Kbuild "$TOP"/kmod/*.c "$out/kmod/"
log=$out/kmod/build.log
# shellcheck disable=SC2086 # word list
kmake "$KSRC" "$out" M="$out/kmod" W=1 ${EXTRA_MAKE:-} modules >"$log" 2>&1 ||
	{ cat "$log" >&2; die "the test modules do not build against $1 (see $log)"; }
if grep -E 'warning:|error:' "$log" >&2; then
	die "the test modules build with warnings against $1 (see $log)"
fi
ls "$out/kmod"/*.ko 2>/dev/null || true
