#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot the debug kernel (configs/test.config + configs/debug.config, built
# as $BUILD/debug) with the debug initramfs (qemu/guest-image.sh debug:
# the guest suites but the kselftest, and guest/debug/*) and judge the
# console log with qemu/judge-log.py: any failed test, missing suite or
# kernel report (KASAN, lockdep, kmemleak, hung task, ...) fails.
#   run-suites.sh [INITRAMFS]   (default $OUT/initramfs-debug.cpio.gz)
# Writes $OUT/debug-guest.log; the last line is "N passed, M failed".
set -u
. "$(dirname "$0")/../lib/common.sh"

OUT=${OUT:-$TOP/out}
# KASAN, lockdep and kmemleak make the TCG guest several times slower.
# no5lvl: with 5-level paging (-cpu max has LA57), 6.12's identify_cpu()
# clears the CPU capabilities for a moment; an interrupt then makes KASAN
# check a direct-map address against the 4-level layout and report a
# "wild-memory-access" in __common_interrupt (seen once in seven boots,
# before any code of the series runs).
QEMU_MEM=${QEMU_MEM:-1024} QEMU_APPEND="test_timeout=1200 no5lvl ${QEMU_APPEND:-}" \
	exec "$TOP/qemu/boot-and-judge.sh" "$BUILD/debug/arch/x86/boot/bzImage" \
	"${1:-$OUT/initramfs-debug.cpio.gz}" "$OUT/debug-guest.log" 2400 \
	kunit lpss lpss_ltr lpss_host power_qos_hostile power_qos_stress \
	power_qos_lifetime power_qos_isolation power_qos_failslab power_qos_permissions \
	kmemleak
