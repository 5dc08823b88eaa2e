#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel of util/common.sh's recipes with its initramfs
# (qemu/guest-image.sh KERNEL) and judge the run with
# qemu/boot-and-judge.sh, expecting every suite of that kernel:
#   run-suites.sh test|debug|kcsan [INITRAMFS]   (default $OUT/initramfs-KERNEL.cpio.gz)
# test:  the guest suites and the kselftest; writes $OUT/guest.log
# debug: the debug kernel (configs/debug.config: KASAN, lockdep, kmemleak,
#        failslab) with the guest suites but the kselftest, and
#        guest/debug/*; any kernel report fails; writes $OUT/debug-guest.log
# kcsan: the KCSAN kernel (configs/kcsan.config), two CPUs, the stress,
#        lifetime and removal suites; any data race report fails; writes
#        $OUT/kcsan-guest.log
# The last line is "N passed, M failed, K skipped".
set -u
. "$(dirname "$0")/../util/common.sh"

[ $# = 1 ] || [ $# = 2 ] || die "usage: run-suites.sh test|debug|kcsan [INITRAMFS]"
kernel=$1
initrd=${2:-$OUT/initramfs-$kernel.cpio.gz}
case $kernel in
test)
	log=$OUT/guest.log limit=900
	set -- kunit lpss power_qos lpss_ltr lpss_host pcie_ltr ;;
debug)
	log=$OUT/debug-guest.log limit=2400
	# KASAN, lockdep and kmemleak make the TCG guest several times slower.
	# no5lvl: with 5-level paging (-cpu max has LA57), 6.12's identify_cpu()
	# clears the CPU capabilities for a moment; an interrupt then makes KASAN
	# check a direct-map address against the 4-level layout and report a
	# "wild-memory-access" in __common_interrupt (seen once in seven boots,
	# before any code of the series runs).
	QEMU_MEM=${QEMU_MEM:-1024} QEMU_APPEND="test_timeout=1200 no5lvl kasan_multi_shot ${QEMU_APPEND:-}"
	export QEMU_MEM QEMU_APPEND
	set -- kunit lpss lpss_ltr lpss_host pcie_ltr power_qos_hostile power_qos_stress \
		power_qos_lifetime power_qos_isolation power_qos_removal power_qos_failslab \
		power_qos_permissions kmemleak ;;
kcsan)
	# two CPUs: KCSAN sees races where accesses overlap
	log=$OUT/kcsan-guest.log limit=1200
	QEMU_CPUS=2 QEMU_MEM=${QEMU_MEM:-1024} QEMU_APPEND="test_timeout=900 ${QEMU_APPEND:-}"
	export QEMU_CPUS QEMU_MEM QEMU_APPEND
	set -- power_qos_stress power_qos_lifetime power_qos_removal ;;
*)
	die "usage: run-suites.sh test|debug|kcsan [INITRAMFS]" ;;
esac
exec "$TOP/qemu/boot-and-judge.sh" "$(bzimage "$kernel")" "$initrd" "$log" "$limit" "$@"
