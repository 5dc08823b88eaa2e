#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of base/strip.py: it strips a pristine tree, and refuses (changing
# nothing) a tree it cannot strip.  Works on copies of the files it edits.
#   run.sh PRISTINE_TREE
set -u
pristine=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
strip=$top/base/strip.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

fresh() {   # fresh DIR: copy of the files strip.py edits
	rm -rf "$1"
	for f in $(python3 "$strip" --list); do
		mkdir -p "$1/$(dirname "$f")"
		cp "$pristine/$f" "$1/$f"
	done
}

result() {  # result OK DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=$((fail + 1)); fi
}

# refuses DESC PATTERN: strip $tmp/t must fail, say PATTERN, change nothing
refuses() {
	cp -a "$tmp/t" "$tmp/before"
	if python3 "$strip" "$tmp/t" > "$tmp/out" 2>&1; then
		result 1 "$1: refused"
	else
		grep -q "$2" "$tmp/out"; result $? "$1: says '$2'"
		sed 's/^/# /' "$tmp/out"
	fi
	diff -r "$tmp/before" "$tmp/t" > /dev/null; result $? "$1: tree unchanged"
	rm -rf "$tmp/before"
}

echo "KTAP version 1"
echo "# Subtest: base-strip"
echo "1..10"

fresh "$tmp/t"
python3 "$strip" "$tmp/t" > /dev/null 2>&1; result $? "strips a pristine tree"
! grep -rqi 'latency_tolerance' "$tmp/t"; result $? "no latency_tolerance left"

refuses "already stripped tree" "cannot strip"

fresh "$tmp/t"
sed -i 's/acpi_lpss_set_ltr/acpi_lpss_set_ltr_renamed/' "$tmp/t/drivers/acpi/x86/lpss.c"
refuses "function renamed" "function acpi_lpss_set_ltr()"

fresh "$tmp/t"
rm "$tmp/t/drivers/base/power/power.h"
refuses "file missing" "cannot strip drivers/base/power/power.h"

fresh "$tmp/t"
echo '/* see latency_tolerance */' >> "$tmp/t/include/linux/pm.h"
refuses "unknown leftover" "still mentions latency tolerance"

echo "$((n - fail)) passed, $fail failed"
[ "$fail" = 0 ]
