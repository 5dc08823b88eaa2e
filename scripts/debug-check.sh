#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the debug kernel (configs/test.config + configs/debug.config, built
# as $BUILD/debug) with the debug initramfs (scripts/guest-image.sh debug:
# the guest suites but the kselftest, and tests/debug/*) and judge the
# console log with scripts/ktap-check.py: any failed test, missing suite or
# kernel report (KASAN, lockdep, kmemleak, hung task, ...) fails.
#   debug-check.sh [INITRAMFS]   (default $OUT/initramfs-debug.cpio.gz)
# Writes $OUT/debug-guest.log; the last line is "N passed, M failed".
set -u
. "$(dirname "$0")/common.sh"

OUT=${OUT:-$TOP/out}
initrd=${1:-$OUT/initramfs-debug.cpio.gz}
log=$OUT/debug-guest.log
xp=$OUT/debug-host-xp.log
kernel=$BUILD/debug/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no debug kernel $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"

rm -f "$log" "$xp"
export QMP_SOCK="$OUT/qmp-debug.sock"
python3 "$TOP/scripts/qmp-watch.py" "$QMP_SOCK" "$log" "$xp" &
watcher=$!
start=$(date +%s)
# KASAN, lockdep and kmemleak make the TCG guest several times slower.
# no5lvl: with 5-level paging (-cpu max has LA57), 6.12's identify_cpu()
# clears the CPU capabilities for a moment; an interrupt then makes KASAN
# check a direct-map address against the 4-level layout and report a
# "wild-memory-access" in __common_interrupt (seen once in seven boots,
# before any code of the series runs).
QEMU_MEM=${QEMU_MEM:-1024} QEMU_APPEND="test_timeout=1200 no5lvl ${QEMU_APPEND:-}" \
	"$TOP/scripts/run-qemu.sh" "$kernel" "$initrd" "$log" 2400
echo "debug guest: $(($(date +%s) - start)) s"
for _ in 1 2 3 4 5; do kill -0 "$watcher" 2>/dev/null && sleep 1; done
kill "$watcher" 2>/dev/null
wait "$watcher"
cat "$xp" >>"$log" 2>/dev/null
python3 "$TOP/scripts/ktap-check.py" --expect kunit --expect lpss \
	--expect lpss_ltr --expect lpss_host \
	--expect power_qos_hostile --expect power_qos_stress \
	--expect power_qos_failslab --expect power_qos_permissions \
	--expect kmemleak "$log"
