#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The emulated Intel LPSS device (SSDT INT33C0, MMIO at lpss_base= from
# the kernel command line, backed by RAM) is enumerated by
# drivers/acpi/x86/lpss.c, whose register writes reach the memory the test
# reads through /dev/mem.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh

ktap_begin lpss 5
[ -d "$LPSS_DEV" ]; result $? "INT33C0:00 enumerated"
[ -r "$LPSS_DEV/lpss_ltr/sw_ltr" ] && [ -r "$LPSS_DEV/lpss_ltr/auto_ltr" ] && [ -r "$LPSS_DEV/lpss_ltr/ltr_mode" ]
result $? "lpss_ltr/ group present"
# lpss.c sets up the clock divider at probe: the write went to our RAM page
[ "$(reg 0)" = 0x00010002 ]; result $? "clock divider set up in MMIO (0x800 = $(reg 0))"
[ "$(cat "$LPSS_DEV/lpss_ltr/sw_ltr")" = "$(printf '%08x' "$(reg 0x10)")" ]
result $? "lpss_ltr/sw_ltr matches SW_LTR read through /dev/mem"
case $(cat "$LPSS_DEV/lpss_ltr/ltr_mode") in
sw) [ $(($(reg 0x08) & 4)) = 4 ] ;;
auto) [ $(($(reg 0x08) & 4)) = 0 ] ;;
*) false ;;
esac
result $? "lpss_ltr/ltr_mode matches GENERAL bit 2"
ktap_end lpss
