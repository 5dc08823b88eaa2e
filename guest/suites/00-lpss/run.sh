#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The emulated Intel LPSS device (SSDT INT33C0, MMIO at 0x1F000000 backed
# by RAM) is enumerated by drivers/acpi/x86/lpss.c, whose register writes
# reach the memory the test reads through /dev/mem.
LPSS=0x1F000000
dev=/sys/bus/platform/devices/INT33C0:00
n=0 fail=0

result() {  # result STATUS DESC
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fail=$((fail + 1)); fi
}
reg() { devmem $((LPSS + 0x800 + $1)) 32; }

echo "KTAP version 1"
echo "# Subtest: lpss"
echo "1..5"
[ -d "$dev" ]; result $? "INT33C0:00 enumerated"
[ -r "$dev/lpss_ltr/sw_ltr" ] && [ -r "$dev/lpss_ltr/auto_ltr" ] && [ -r "$dev/lpss_ltr/ltr_mode" ]
result $? "lpss_ltr/ group present"
# lpss.c sets up the clock divider at probe: the write went to our RAM page
[ "$(reg 0)" = 0x00010002 ]; result $? "clock divider set up in MMIO (0x800 = $(reg 0))"
[ "$(cat "$dev/lpss_ltr/sw_ltr")" = "$(printf '%08x' "$(reg 0x10)")" ]
result $? "lpss_ltr/sw_ltr matches SW_LTR read through /dev/mem"
case $(cat "$dev/lpss_ltr/ltr_mode") in
sw) [ $(($(reg 0x08) & 4)) = 4 ] ;;
auto) [ $(($(reg 0x08) & 4)) = 0 ] ;;
*) false ;;
esac
result $? "lpss_ltr/ltr_mode matches GENERAL bit 2"
echo "# lpss: pass:$((n - fail)) fail:$fail"
