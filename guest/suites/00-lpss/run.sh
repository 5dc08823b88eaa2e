#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The emulated Intel LPSS device (SSDT INT33C0, MMIO at lpss_base= from
# the kernel command line, backed by RAM) is enumerated by
# drivers/acpi/x86/lpss.c, whose register writes reach the memory the test
# reads through /dev/mem.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh

ktap_print_header
ktap_set_plan 5
[ -d "$LPSS_DEV" ]; ktap_result $? "INT33C0:00 enumerated"
[ -r "$LPSS_DEV/lpss_ltr/sw_ltr" ] && [ -r "$LPSS_DEV/lpss_ltr/auto_ltr" ] && [ -r "$LPSS_DEV/lpss_ltr/ltr_mode" ]
ktap_result $? "lpss_ltr/ group present"
# lpss.c sets up the clock divider at probe: the write went to our RAM page
[ "$(lpss_reg 0)" = 0x00010002 ]; ktap_result $? "clock divider set up in MMIO (0x800 = $(lpss_reg 0))"
[ "$(cat "$LPSS_DEV/lpss_ltr/sw_ltr")" = "$(printf '%08x' "$(lpss_reg 0x10)")" ]
ktap_result $? "lpss_ltr/sw_ltr matches SW_LTR read through /dev/mem"
case $(cat "$LPSS_DEV/lpss_ltr/ltr_mode") in
sw) [ $(($(lpss_reg 0x08) & 4)) = 4 ] ;;
auto) [ $(($(lpss_reg 0x08) & 4)) = 0 ] ;;
*) false ;;
esac
ktap_result $? "lpss_ltr/ltr_mode matches GENERAL bit 2"
ktap_finished
