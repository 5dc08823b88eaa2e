#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make the initramfs for a QEMU run of the test kernel.
#   guest-image.sh check|debug|demo OUT
# check: every tests/guest/*/ directory, plus the kernel tree's
#        tools/testing/selftests/power_qos/ (as /tests/selftest-power_qos)
# debug: the same plus every tests/debug/*/ directory (for the debug kernel;
#        tests/debug/99-kmemleak runs last, tests/debug/lib has no run.sh)
# demo:  tests/demo/
set -eu
. "$(dirname "$0")/common.sh"

[ $# = 2 ] || die "usage: guest-image.sh check|debug|demo OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case $1 in
check | debug)
	mode=$1
	set -- "$2" "$TOP"/tests/guest/*/
	[ "$mode" = debug ] && set -- "$@" "$TOP"/tests/debug/*/
	if [ -d "$TREE/tools/testing/selftests/power_qos" ]; then
		cp -r "$TREE/tools/testing/selftests/power_qos" "$tmp/selftest-power_qos"
		set -- "$@" "$tmp/selftest-power_qos"
	fi ;;
demo)
	set -- "$2" "$TOP/tests/demo" ;;
*)
	die "usage: guest-image.sh check|debug|demo OUT" ;;
esac
out=$1; shift
mkdir -p "$(dirname "$out")"
"$TOP/scripts/mkinitramfs.sh" "$out" "$TREE" "$BUILD/test" "$@"
