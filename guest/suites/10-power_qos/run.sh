#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel tree's kselftest (tools/testing/selftests/power_qos/,
# copied into the image as /tests/selftest-power_qos); it prints its own
# KTAP (with kselftest's ktap_helpers.sh) and its exit status is this
# script's (0 pass, 1 fail, 4 skipped).  If it is missing, a failing plan
# says so.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
dir=/tests/selftest-power_qos
found=0 rc=0
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	found=1
	(cd "$dir" && sh "$t") || rc=$?
done
[ "$found" = 1 ] || cannot_run "kselftest power_qos not found in $dir"
exit "$rc"
