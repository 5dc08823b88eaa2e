#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The LPSS LTR backend on the emulated INT33C0: for a table of tolerances
# from 0 to beyond the register's range, SW_LTR and the mode bit hold
# exactly what the encoding promises, read from memory through /dev/mem
# (independently of the driver).  Rows marked HOST-XP are read again from
# the host through the QEMU monitor (qemu/qmp-watch.py).  Then the
# auto -> value -> any -> auto transitions, and register loss across a
# suspend/resume cycle; foreign bits of the shared GENERAL register; and
# another device on the LPSS device's ACPI companion coming and going
# (kmod/test_lpss_companion.c); last, tolerances set while the device is
# powered down (guest/lib.sh's lpss_while_down), which leaves it so.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
REQ=0x8000

hex() { printf '0x%04x' "$1"; }

# The SW_LTR word each tolerance must give, written out by hand from the
# LTR format (PCIe r6.0 sec 7.8.2.2): value bits 9:0, scale bits 12:10 (a
# unit of 2^(5*scale) ns), requirement bit 15 (0x8000).  The Intel private
# register only takes scales 2 and 3 (1024 and 32768 ns; Intel's datasheet
# reserves two of its four scale codes, see FreeBSD's ig4_reg.h, and Linux
# only ever wrote 0x800 and 0xc00).  The finer of the two whose 10-bit
# value holds the tolerance, rounded down, so that the device never waits
# longer than tolerated.  From 3000 us up, as for "any", no requirement:
# 0x0fff, the requirement bit clear (the cut-off acpi_lpss has had since
# 3.15, Documentation/ABI/testing/sysfs-devices-lpss_ltr).
# E.g. 2 us = 2000 ns: 1 unit of 1024 ns (1024 ns): 0x8000|2<<10|1.
word_of() {
	case $1 in
	0) echo 0x8800 ;;	# 0 x 1024 ns
	1) echo 0x8800 ;;	# 0 x 1024 ns: 1000 ns holds no unit
	2) echo 0x8801 ;;	# 1 x 1024 ns
	31) echo 0x881e ;;	# 30 x 1024 ns
	32) echo 0x881f ;;	# 31 x 1024 ns
	33) echo 0x8820 ;;	# 32 x 1024 ns
	500) echo 0x89e8 ;;	# 488 x 1024 ns
	700) echo 0x8aab ;;	# 683 x 1024 ns
	900) echo 0x8b6e ;;	# 878 x 1024 ns
	999) echo 0x8bcf ;;	# 975 x 1024 ns
	1000) echo 0x8bd0 ;;	# 976 x 1024 ns
	1023) echo 0x8be7 ;;	# 999 x 1024 ns
	1024) echo 0x8be8 ;;	# 1000 x 1024 ns
	1047) echo 0x8bfe ;;	# 1022 x 1024 ns
	1048) echo 0x8bff ;;	# 1023 x 1024 ns
	2000) echo 0x8c3d ;;	# 61 x 32768 ns
	2999) echo 0x8c5b ;;	# 91 x 32768 ns
	*)	# no requirement: 3000 us and beyond
		if [ "$1" -ge 3000 ]; then echo 0x0fff; else echo "no-word-for-$1"; fi ;;
	esac
}

# Asking the host to read a register while the guest waits
host_xp() {  # host_xp OFFSET EXPECTED_LOW16 DESC
	echo "HOST-XP $(printf '0x%08x' $((LPSS + 0x800 + $1))) $(hex "$2") $3"
	sleep 2
}

rows="0 1 2 31 32 33 999 1000 1023 1024 1047 1048 2000 2999 3000 3001
33522 100000 2147483646"
count=0
for t in $rows; do count=$((count + 1)); done

ktap_print_header
ktap_set_plan $((count * 2 + 27))
echo "HOST-XP-PLAN 6"

for t in $rows; do
	want=$(word_of "$t")
	echo "$t" > "$LPSS_ATTR"
	sw=$(lpss_reg $SW_LTR) gen=$(lpss_reg $GENERAL)
	# the no-snoop half (bits 31:16) is not the driver's: it stays 0
	[ $((sw)) = $((want)) ]
	ktap_result $? "$t us: SW_LTR $(printf '0x%08x' "$sw") == $(printf '0x%08x' "$want")"
	[ $((gen & MODE_SW)) = $MODE_SW ]
	ktap_result $? "$t us: GENERAL.SW set ($(printf '0x%08x' "$gen"))"
	case $t in 1|1000|3000|33522|2147483646) host_xp $SW_LTR "$want" "$t us" ;; esac
done

# auto -> value -> any -> auto
echo auto > "$LPSS_ATTR"
before=$(lpss_reg $SW_LTR)
[ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ]; ktap_result $? "auto: GENERAL.SW clear"
[ "$(lpss_reg $SW_LTR)" = "$before" ]; ktap_result $? "auto: SW_LTR left alone"
echo 500 > "$LPSS_ATTR"
[ $(($(lpss_reg $SW_LTR) & 0xffff)) = $(($(word_of 500))) ] && [ $(($(lpss_reg $GENERAL) & MODE_SW)) = $MODE_SW ]
ktap_result $? "auto -> 500: software mode, SW_LTR $(hex "$(word_of 500)")"
echo any > "$LPSS_ATTR"
sw=$(lpss_reg $SW_LTR)
[ $((sw & REQ)) = 0 ] && [ $(($(lpss_reg $GENERAL) & MODE_SW)) = $MODE_SW ]
ktap_result $? "500 -> any: software mode, requirement cleared ($(hex $((sw & 0xffff))))"
host_xp $SW_LTR $((sw & 0xffff)) "any"
echo auto > "$LPSS_ATTR"
[ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ] && [ "$(lpss_reg $SW_LTR)" = "$sw" ]
ktap_result $? "any -> auto: GENERAL.SW clear, SW_LTR left alone"
echo 700 > "$LPSS_ATTR"
echo 700 > "$LPSS_ATTR"
[ $(($(lpss_reg $SW_LTR) & 0xffff)) = $(($(word_of 700))) ]; ktap_result $? "same value twice: SW_LTR $(hex "$(word_of 700)")"

echo 900 > "$LPSS_ATTR"

# Register loss: wipe the registers behind the driver's back, then a
# suspend/resume cycle must program them again.
want=$(word_of 900)
lpss_set_reg $SW_LTR 0
lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) & ~MODE_SW))
# pm_test=platform: devices go through every suspend and resume phase
# (the late and noirq ones too), the system does not sleep.
rc=1
# the 5 s pause of pm_test is not needed here
echo 1 > /sys/module/suspend/parameters/pm_test_delay 2>/dev/null
if [ -w /sys/power/pm_test ] && grep -qw mem /sys/power/state; then
	echo platform > /sys/power/pm_test
	if echo mem > /sys/power/state; then rc=0; fi
	echo none > /sys/power/pm_test
fi
ktap_result $rc "suspend/resume cycle ran ($(cat /sys/power/state))"
[ $(($(lpss_reg $SW_LTR) & 0xffff)) = $((want)) ]
ktap_result $? "after resume: SW_LTR $(hex $(($(lpss_reg $SW_LTR) & 0xffff))) == $(hex "$want")"
[ $(($(lpss_reg $GENERAL) & MODE_SW)) = $MODE_SW ]; ktap_result $? "after resume: GENERAL.SW set"

# auto across a resume leaves the hardware alone
echo auto > "$LPSS_ATTR"
lpss_set_reg $SW_LTR 0x00001234
if [ -w /sys/power/pm_test ]; then
	echo platform > /sys/power/pm_test
	echo mem > /sys/power/state
	echo none > /sys/power/pm_test
fi
[ "$(lpss_reg $SW_LTR)" = 0x00001234 ] && [ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ]
ktap_result $? "auto: resume does not touch SW_LTR or the mode"

# auto, but the power cycle brings software mode back (at hibernation
# restore, acpi_lpss_restore_ctx() puts back registers saved before the
# switch to auto): resume must clear it again
lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) | MODE_SW))
if [ -w /sys/power/pm_test ]; then
	echo platform > /sys/power/pm_test
	echo mem > /sys/power/state
	echo none > /sys/power/pm_test
fi
[ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ]
ktap_result $? "auto: software mode brought back by the power cycle cleared at resume"

# GENERAL is shared: spi-pxa2xx sets bit 24 (RX timeout hold-off
# disable) in it on Lynxpoint, after this driver has bound; bit 16 stands
# for any other bit that is not ours.  Whatever the value and mode, and
# across a suspend/resume cycle, only the mode bit may change.
FOREIGN=$(((1 << 24) | (1 << 16)))
lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) | FOREIGN))
for v in 500 any auto 600 700; do
	echo $v > "$LPSS_ATTR"
	gen=$(lpss_reg $GENERAL) mode=$MODE_SW
	[ $v = auto ] && mode=0
	[ $((gen & FOREIGN)) = $FOREIGN ] && [ $((gen & MODE_SW)) = $mode ]
	ktap_result $? "foreign GENERAL bits kept after $v ($(printf '0x%08x' "$gen"))"
done
if [ -w /sys/power/pm_test ]; then
	echo platform > /sys/power/pm_test
	echo mem > /sys/power/state
	echo none > /sys/power/pm_test
fi
gen=$(lpss_reg $GENERAL)
[ $((gen & FOREIGN)) = $FOREIGN ] && [ $((gen & MODE_SW)) = $MODE_SW ]
ktap_result $? "foreign GENERAL bits kept across suspend/resume ($(printf '0x%08x' "$gen"))"
echo auto > "$LPSS_ATTR"
lpss_set_reg $GENERAL $(($(lpss_reg $GENERAL) & ~FOREIGN))

# Another device with the LPSS device's ACPI companion comes and goes (the
# i2c adapter, spi controller, serial port and serdev controller of a real
# LPSS host controller do): the acpi_lpss scan handler binds and unbinds
# it.  The LPSS device's LTR must still follow its tolerance afterwards,
# and the other device gets no callback (nor an attribute) of its own.
echo 1000 > "$LPSS_ATTR"
load_kmod test_lpss_companion
ktap_result $? "a device sharing the LPSS companion added and deleted"
[ "$(cat /sys/module/test_lpss_companion/parameters/child_callback 2>/dev/null)" = N ]
ktap_result $? "that device had no latency tolerance callback"
echo 500 > "$LPSS_ATTR"
[ $(($(lpss_reg $SW_LTR) & 0xffff)) = $(($(word_of 500))) ] && [ $(($(lpss_reg $GENERAL) & MODE_SW)) = $MODE_SW ]
ktap_result $? "after it: 1000 -> 500 us: SW_LTR $(hex $(($(lpss_reg $SW_LTR) & 0xffff))) == $(hex "$(word_of 500)")"
echo auto > "$LPSS_ATTR"

lpss_while_down /lib/kmod/test_lpss_driver.ko >/tmp/lpss-while-down
while read -r r desc; do
	[ "$r" = pass ]
	ktap_result $? "$desc"
done </tmp/lpss-while-down

ktap_finished
