#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the test kernel with the demo initramfs and print the transcript.
set -eu
. "$(dirname "$0")/../util/common.sh"

"$TOP/qemu/guest-image.sh" demo
QEMU_APPEND="loglevel=1 ${QEMU_APPEND:-}" \
	python3 "$TOP/util/progress.py" --label "running the demo in QEMU" \
	--about "(usually about 40 s under TCG)" -- \
	"$TOP/qemu/run-qemu.sh" "$(bzimage test)" \
	"$OUT/initramfs-demo.cpio.gz" "$OUT/demo.log" 300 ||
	die "QEMU failed; the console log is $OUT/demo.log"
# The console log has CRLF line ends and the firmware's terminal escapes.
tr -d '\r' < "$OUT/demo.log" | sed -n '/DEMO-BEGIN$/,/^DEMO-END$/p' | sed '1d;$d'
grep -q '^DEMO-END' "$OUT/demo.log" || die "the demo did not finish; see $OUT/demo.log"
echo
echo "(full console log: $OUT/demo.log)"
