#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the kernel tree's kselftest (tools/testing/selftests/power_qos/,
# copied into the image as /tests/selftest-power_qos); it prints its own
# KTAP document.  If it is missing, say so as a failing document.
dir=/tests/selftest-power_qos
found=0
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	found=1
	(cd "$dir" && sh "$t")
done
if [ "$found" = 0 ]; then
	echo "KTAP version 1"
	echo "# Subtest: power_qos"
	echo "1..1"
	echo "not ok 1 kselftest power_qos not found in $dir"
fi
