#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the test kernel with guest/demo (guest/profiles/demo) and print its
# transcript: the lines between DEMO-BEGIN and DEMO-END, without the
# indentation guest/init gives a suite's output.
set -u
. "$(dirname "$0")/../util/common.sh"

log=$OUT/demo.log
verdict=$OUT/demo-verdict.txt
mkdir -p "$OUT"
"$TOP/qemu/run" demo >"$verdict"
rc=$?
# The console log has CRLF line ends and the firmware's terminal escapes.
tr -d '\r' <"$log" | sed -n '/^  DEMO-BEGIN$/,/^  DEMO-END$/p' | sed -e '1d' -e '$d' -e 's/^  //'
echo
if [ "$rc" != 0 ]; then
	cat "$verdict"
	die "the demo failed (above); see $log"
fi
echo "demo: $(tail -n 1 "$verdict") (console log: $log)"
