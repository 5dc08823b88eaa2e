#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make the initramfs for a QEMU run of the test kernel.
#   guest-image.sh test|debug|demo [OUT]   (default $OUT/initramfs-MODE.cpio.gz)
# test:  every guest/suites/*/ directory, plus the kernel tree's
#        tools/testing/selftests/power_qos/ (as /tests/selftest-power_qos)
#        with the kselftest/ktap_helpers.sh it sources (/tests/kselftest/,
#        no run.sh: guest/init does not run it)
# debug: for the debug kernel: every guest/suites/*/ directory but the
#        kselftest's (it takes five minutes under KASAN and lockdep, and its
#        code paths are what guest/debug/* drive harder), plus every
#        guest/debug/*/ directory (99-kmemleak runs last)
# kcsan: the suites of guest/debug/ that race threads on purpose (stress,
#        lifetime, removal), for the KCSAN kernel
# demo:  guest/demo/
set -eu
. "$(dirname "$0")/../util/common.sh"

usage="usage: guest-image.sh test|debug|kcsan|demo [OUT]"
[ $# = 1 ] || [ $# = 2 ] || die "$usage"
mode=$1 out=${2:-$OUT/initramfs-$1.cpio.gz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $mode in
test)
	set -- "$TOP"/guest/suites/*/
	if [ -d "$TREE/tools/testing/selftests/power_qos" ]; then
		cp -r "$TREE/tools/testing/selftests/power_qos" "$tmp/selftest-power_qos"
		# its KTAP helpers, where it sources them: ../kselftest/
		mkdir "$tmp/kselftest"
		cp "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh" "$tmp/kselftest/"
		set -- "$@" "$tmp/selftest-power_qos" "$tmp/kselftest"
	fi ;;
debug)
	set --
	for d in "$TOP"/guest/suites/*/ "$TOP"/guest/debug/*/; do
		[ "$d" = "$TOP/guest/suites/10-power_qos/" ] || set -- "$@" "$d"
	done ;;
kcsan)
	set -- "$TOP"/guest/debug/50-stress/ "$TOP"/guest/debug/55-lifetime/ \
		"$TOP"/guest/debug/57-removal/ ;;
demo)
	set -- "$TOP/guest/demo" ;;
*)
	die "$usage" ;;
esac
mkdir -p "$(dirname "$out")"
"$TOP/qemu/mkinitramfs.sh" "$out" "$TREE" "$BUILD/test" "$@"
