#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# PCIe LTR maximum latencies: pci_configure_ltr() and the latency tolerance
# backend (drivers/pci/pcie/ltr.c), on the test host bridge of
# kmod/test_pcie_ltr_qos.c (its header draws the hierarchy) with the _DSMs of
# qemu/ssdt.asl.  The register words are read from the emulated
# configuration space (debugfs), not through the PCI core, and the expected
# ones come from the table below, not from an encoder.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
T=/sys/kernel/debug/test_pcie_ltr_qos
EP=$T/ep0
DRV=/sys/bus/pci/drivers/test_pcie_ltr_qos

# The Max Latency registers for a tolerance, from the LTR format (PCIe r6.0,
# sec 7.8.2.2-3: latency = value * 2^(5 * scale) ns, scales 0-5, values
# 0-1023): the largest latency not above the tolerance, as scale:value, or
# "ceiling" where the tolerance is not below the register's ceiling.
# Columns: ceilings, tolerance in us, Max Snoop, Max No-Snoop.  Ceilings:
#   ep0   firmware's 0x1003 (3 * 2^20 ns) / 0x0cc8 (200 * 2^15 ns), ep0
#   ar0   the same, with the RsvdP bits 15:13 of both registers hard-wired
#         to 1 (its words are ep0's rows with 0xe000 set)
#   rp02  _DSM of 00:02.0: 2:500 (512000 ns) / 3:20 (655360 ns)
#   rp03  _DSM of 00:03.0: 2:300 (307200 ns) / 2:900 (921600 ns)
#   dsp1  _DSM of 05:01.0: 2:200 (204800 ns) / 2:400 (409600 ns)
SPEC='
ep0 0 0:0 0:0
ep0 1 0:1000 0:1000
ep0 31 1:968 1:968
ep0 32 1:1000 1:1000
ep0 33 2:32 2:32
ep0 50 2:48 2:48
ep0 90 2:87 2:87
ep0 100 2:97 2:97
ep0 120 2:117 2:117
ep0 150 2:146 2:146
ep0 200 2:195 2:195
ep0 250 2:244 2:244
ep0 300 2:292 2:292
ep0 350 2:341 2:341
ep0 400 2:390 2:390
ep0 500 2:488 2:488
ep0 600 2:585 2:585
ep0 700 2:683 2:683
ep0 999 2:975 2:975
ep0 1000 2:976 2:976
ep0 1023 2:999 2:999
ep0 1024 2:1000 2:1000
ep0 1047 2:1022 2:1022
ep0 1048 2:1023 2:1023
ep0 2000 3:61 3:61
ep0 3000 3:91 3:91
ep0 3145 3:95 3:95
ep0 3146 ceiling 3:96
ep0 5000 ceiling 3:152
ep0 6553 ceiling 3:199
ep0 6554 ceiling ceiling
ep0 32767 ceiling ceiling
ep0 100000 ceiling ceiling
ep0 2147483646 ceiling ceiling
rp02 50 2:48 2:48
rp02 90 2:87 2:87
rp02 100 2:97 2:97
rp02 200 2:195 2:195
rp02 500 2:488 2:488
rp02 600 ceiling 2:585
rp03 50 2:48 2:48
rp03 400 ceiling 2:390
dsp1 100 2:97 2:97
dsp1 250 ceiling 2:244
'
# ceil_of CEILINGS: the ceilings' words, Max Snoop | Max No-Snoop << 16
ceil_of() {
	case $1 in
	ep0) echo 0x0cc81003 ;;
	ar0) echo 0xecc8f003 ;;
	rp02) echo 0x0c1409f4 ;;
	rp03) echo 0x0b84092c ;;
	dsp1) echo 0x099008c8 ;;
	esac
}

sweep="0 1 31 32 33 999 1000 1023 1024 1047 1048 2000 3000 3145 3146 5000
6553 6554 32767 100000 2147483646"
count=0
for t in $sweep; do count=$((count + 1)); done

load_kmod test_pcie_ltr_qos || cannot_run "cannot load test_pcie_ltr_qos.ko (kmod/)"
[ -d "$EP" ] || cannot_run "$T missing after loading test_pcie_ltr_qos.ko"
ktap_print_header
ktap_set_plan $((count + 77))
TMP=$(mktemp -d /tmp/pcieltr.XXXXXX)
ERR=$TMP/err IN=$TMP/in

hex() { printf '0x%04x' "$1"; }
hex32() { printf '0x%08x' "$1"; }

# name FN: the PCI name of the test bridge's function FN (ep0, mf1, ...)
name() { line_of "$T/$1/name"; }
# attr FN: the latency tolerance attribute of FN
attr() { echo "/sys/bus/pci/devices/$(name "$1")/$ATTR"; }

# word CEILINGS US N: the expected register N (1 snoop, 2 no-snoop) from SPEC
word() {
	w_key=$1 w_rsvd=0
	[ "$1" = ar0 ] && w_key=ep0 w_rsvd=0xe000
	w_row=$(printf '%s\n' "$SPEC" | grep "^$w_key $2 ") ||
		{ diag "no SPEC row for $1 $2" && echo -1 && return; }
	w_ceil=$(ceil_of "$1")
	w_n=$3
	# shellcheck disable=SC2086 # the row's fields
	set -- $w_row
	w_cell=$3
	[ "$w_n" = 1 ] || w_cell=$4
	case $w_cell in
	ceiling) echo $(((w_ceil >> (16 * (w_n - 1))) & 0xffff)) ;;
	*) echo $((w_rsvd | (${w_cell%%:*} << 10) | ${w_cell#*:})) ;;
	esac
}

# regs FN: S and N = the two register words FN holds
regs() {
	read -r S <"$T/$1/snoop"
	read -r N <"$T/$1/nosnoop"
}

# words: the register words, for the descriptions
words() { echo "snoop $S nosnoop $N"; }

# is_regs FN SNOOP NOSNOOP: FN holds them
is_regs() {
	regs "$1"
	[ $((S)) = $(($2)) ] && [ $((N)) = $(($3)) ] && return 0
	diag "$1: expected snoop $(hex "$2") nosnoop $(hex "$3"), got $(words)"
	return 1
}

# is_ceiling FN CEILINGS: FN holds the ceilings
is_ceiling() {
	ic_c=$(ceil_of "$2")
	is_regs "$1" $((ic_c & 0xffff)) $((ic_c >> 16))
}

# report_registers FN CEILINGS US DESC: the result of the case DESC: FN
# holds the registers of SPEC for US (auto and any: the ceilings)
report_registers() {
	case $3 in
	auto | any) is_ceiling "$1" "$2" ;;
	*) is_regs "$1" "$(word "$2" "$3" 1)" "$(word "$2" "$3" 2)" ;;
	esac
	ktap_result $? "$4: $(words)"
}

# report_ep0_registers US DESC: the result of the case DESC: ep0 holds the
# registers for an effective tolerance of US
report_ep0_registers() { report_registers ep0 ep0 "$1" "$2"; }

NAME=$(name ep0)
DEV=/sys/bus/pci/devices/$NAME
A=$DEV/$ATTR

# set_lt VALUE: write VALUE to ep0's attribute
set_lt() { write_ok "$A" "$1"; }

logged() { dmesg | grep -c "$NAME: LTR: tolerance of"; }

# rpm FN on|auto: the runtime PM control of FN (power/control)
rpm() { write_ok "/sys/bus/pci/devices/$(name "$1")/power/control" "$2"; }

# le32 N: N as 4 bytes, little-endian, in printf's octal escapes
le32() {
	printf '\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) \
		$(($1 >> 24 & 255))
}

# aer_fatal DEV: inject a Data Link Protocol Error, fatal by default (PCIe
# r6.0, sec 7.8.4.4), into the PCI device DEV (DOMAIN:BUS:SLOT.FN), through
# /dev/aer_inject, then wait for the end of the recovery; fails if it
# failed.  One write of struct aer_error_inj (drivers/pci/pcie/aer_inject.c):
# bus, slot, function, a pad byte, uncor_status, cor_status, header_log0-3,
# domain, the last 7 as 32-bit words.
aer_fatal() {
	af_d=${1%%:*} af_b=${1#*:}
	af_s=${af_b#*:}
	af_b=${af_b%%:*} af_f=${af_s#*.}
	af_s=${af_s%.*}
	af_n=$(recoveries)
	# shellcheck disable=SC2059 # the escapes are the format
	printf "$(le32 $((0x$af_b | 0x$af_s << 8 | af_f << 16)))$(le32 16)$(le32 0)$(le32 0)$(le32 0)$(le32 0)$(le32 0)$(le32 $((0x$af_d)))" \
		>/dev/aer_inject || return 1
	wait_for 100 recovered_since "$af_n" &&
		dmesg | grep "AER: device recovery" | tail -n 1 | grep -q successful
}

# recoveries: how many AER recoveries the kernel has reported
recoveries() { dmesg | grep -c "AER: device recovery"; }

# recovered_since N: more than N AER recoveries reported
recovered_since() { [ "$(recoveries)" != "$1" ]; }

bind() { write_ok "$DRV/bind" "$NAME"; }
unbind() { write_ok "$DRV/unbind" "$NAME"; }
mode() { write_ok "$T/driver_mode" "$1"; }

# Enumeration, with no _DSM above ep0: firmware's values, before and after
[ -d "$DEV" ] && [ "$(line_of "$DEV/vendor")" = 0x1b36 ]
ktap_result $? "ep0 enumerated by the PCI core as $NAME"
[ "$(line_of "$EP/ltr_en")" = 1 ] && [ "$(line_of "$EP/max_at_enable")" = "$(hex32 "$(ceil_of ep0)")" ]
ktap_result $? "ep0: LTR enabled by the PCI core over firmware's max latencies ($(line_of "$EP/max_at_enable"))"
is_ceiling ep0 ep0
ktap_result $? "ep0: firmware values untouched at enumeration: $(words)"
[ "$(line_of "$A")" = auto ]
ktap_result $? "ep0: $ATTR present, reads $(line_of "$A")"
regs ep1
! [ -e "$(attr ep1)" ] && [ $((S)) = 0 ] && [ $((N)) = 0 ]
ktap_result $? "ep1 (firmware left 0, rp1's _DSM invalid): no attribute, $(words)"
nvme=
for d in /sys/bus/pci/devices/*; do
	case $(line_of "$d/class") in 0x010802) nvme=$d ;; esac
done
[ -n "$nvme" ] && ! [ -e "$nvme/$ATTR" ]
ktap_result $? "NVMe controller ${nvme##*/} (no LTR capability): no attribute"

# The _DSM of the port right above a component (PCI Firmware r3.3, sec
# 4.6.6) is in its registers before LTR is enabled (PCIe r6.0, sec 7.8.2):
# mf0 below rp2, the Switch Upstream Port below rp3.  sw0 is below a
# Downstream Port without _DSM: rp3's values do not bound the latency of
# the path through the switch, it gets none.
for f in mf0:rp02 us:rp03; do
	c=$(ceil_of "${f#*:}")
	[ "$(line_of "$T/${f%:*}/max_at_enable")" = "$(hex32 "$c")" ]
	ktap_result $? "${f%:*}: LTR enabled over the _DSM max latencies of ${f#*:} ($(line_of "$T/${f%:*}/max_at_enable"), expected $(hex32 "$c"))"
done
regs sw0
[ $((S)) = 0 ] && [ $((N)) = 0 ] && ! [ -e "$(attr sw0)" ]
ktap_result $? "sw0 (below a port without _DSM): $(words), no attribute"

# The sweep: both words rounded down, never above their ceiling
for t in $sweep; do
	set_lt "$t"
	report_ep0_registers "$t" "$t us"
done
[ "$(logged)" = 1 ]
ktap_result $? "a tolerance above the ceiling logged once ($(logged) line)"
diag "$(dmesg | grep "$NAME: LTR: tolerance of")"
# ep0's Link has ASPM L1.2 enabled with LTR_L1.2_THRESHOLD 100 at scale 2,
# 102400 ns (PCIe r6.0, sec 7.8.3.3): a value below it keeps the Link out
# of L1.2 (sec 5.5.1), which is logged once, with the threshold
l12=$(dmesg | grep -c "$NAME: LTR: max latencies (snoop .*) below LTR_L1.2_THRESHOLD (102400 ns)")
[ "$l12" = 1 ]
ktap_result $? "a value below ep0's LTR_L1.2_THRESHOLD (102400 ns) logged once ($l12 line)"
diag "$(dmesg | grep "$NAME: LTR: max latencies (snoop")"

set_lt 500
set_lt auto
report_ep0_registers auto "500 -> auto: the ceiling"
set_lt 500
report_ep0_registers 500 "auto -> 500"
set_lt any
report_ep0_registers any "500 -> any: the ceiling"
set_lt auto

# A kernel request (the test module's) with the user space one
write_ok "$EP/request" 200
report_ep0_registers 200 "kernel request 200"
set_lt 100
report_ep0_registers 100 "kernel 200, user 100"
set_lt 500
report_ep0_registers 200 "kernel 200, user 500"
set_lt auto
report_ep0_registers 200 "kernel 200, user auto"
write_ok "$EP/request" 50
report_ep0_registers 50 "kernel request updated to 50"
write_ok "$EP/request" 5000
report_ep0_registers 5000 "kernel request 5000, above the snoop ceiling only"
write_ok "$EP/request" remove
[ "$(line_of "$A")" = auto ] && is_ceiling ep0 ep0
ktap_result $? "kernel request removed: the ceiling, attribute auto: $(words)"

# D3cold: saved before power-off, a change while off, restored at power-on
set_lt 100
write_ok "$EP/power" d3cold
set_lt 300
write_ok "$EP/power" d0
report_ep0_registers 300 "300 written in D3cold, after power-on"
[ "$(line_of "$EP/ltr_en")" = 1 ]
ktap_result $? "after power-on: LTR enabled again ($(line_of "$EP/ltr_en"))"

# The port above in D3hot, through runtime PM (pcie_port_pm=force): ep0
# suspends to D3hot, then rp0, which then forwards no configuration request
# to ep0 (PCIe r6.0, sec 5.3.1.4.1).  A change then is not written to a
# device that cannot take it, and is there when ep0 is back.
lost0=$(line_of "$EP/lost")
rpm ep0 auto
rpm_wait "/sys/bus/pci/devices/$(name rp0)" suspended
ktap_result $? "ep0 and rp0 runtime-suspended: ep0 $(line_of "$EP/power"), rp0 $(line_of "$T/rp0/power")"
set_lt 700
lost1=$(line_of "$EP/lost")
rpm ep0 on
[ "$lost1" = "$lost0" ]
ktap_result $? "700 while rp0 was in D3hot: no write lost (lost $lost0 -> $lost1)"
report_ep0_registers 700 "700 while rp0 was in D3hot, after ep0 is back"

# State lost behind the PCI core's back, then saved and restored: what was
# programmed is saved, not what the device holds
set_lt 400
write_ok "$EP/lose" 1
is_regs ep0 0 0
ktap_result $? "lost: $(words)"
write_ok "$EP/save_restore" 1
report_ep0_registers 400 "lost, then saved and restored"

# A reset of ep0 (the Secondary Bus Reset of rp0, through sysfs): its
# registers go back to 0, pci_reset_function() restores the value
set_lt 350
write_ok "$DEV/reset" 1
report_ep0_registers 350 "350, then a reset of ep0"

# AER recovery (PCIe r6.0, sec 6.2.2.2.1): the state is saved at 350, as
# drivers do at probe (LTR Enable set again first: the loss above cleared
# it, and the save kept it clear), then ep0 gets 150 and has a fatal error,
# which aer_inject puts into the real AER service of rp0.  The recovery
# takes a Secondary Bus Reset of rp0 (aer_root_reset()), which puts ep0's
# registers back to 0, then the driver's slot_reset restores the state saved
# at 350: what was programmed since, 150, must be there.
write_ok "$EP/ltr_en" 1
write_ok "$EP/save_restore" 1
set_lt 150
aer_fatal "$NAME"
ktap_result $? "fatal error of ep0 injected: AER recovery successful"
diag "$(dmesg | grep "$(name rp0): AER: ")"
report_ep0_registers 150 "150, then AER recovery of ep0 from a state saved at 350"
[ "$(line_of "$EP/ltr_en")" = 1 ]
ktap_result $? "after AER recovery: LTR enabled again ($(line_of "$EP/ltr_en"))"

# The same across a suspend/resume cycle
set_lt 600
write_ok "$EP/lose" 1
suspend_cycle
ktap_result $? "suspend/resume cycle ran ($(cat /sys/power/state))"
report_ep0_registers 600 "lost, then suspended and resumed"

# Drivers: the test driver is bound ("plain": it keeps the PCI core's
# callback).  Unbound, the callback stays.
unbind
set_lt 250
report_ep0_registers 250 "driver unbound: 250"

# A driver with a callback of its own replaces the PCI core's: the
# requests go to it, and bound the LTR no more (the ceiling)
mode own
bind
[ "$(line_of "$T/own_cb")" = 250 ] && is_ceiling ep0 ep0
ktap_result $? "driver with its own callback bound: it got $(line_of "$T/own_cb"), $(words)"
set_lt 120
[ "$(line_of "$T/own_cb")" = 120 ] && is_ceiling ep0 ep0
ktap_result $? "own callback: 120 goes to it ($(line_of "$T/own_cb")), $(words)"
write_ok "$EP/request" 150
[ "$(line_of "$T/own_cb")" = 120 ] && is_ceiling ep0 ep0
ktap_result $? "own callback: kernel request 150 too ($(line_of "$T/own_cb")), $(words)"
# Its remove hides the attribute and clears its callback: the PCI core
# installs its own again, programs the request left and exposes it
unbind
[ "$(line_of "$A")" = auto ]
ktap_result $? "own callback's driver unbound: $ATTR back, reads $(line_of "$A")"
report_ep0_registers 150 "own callback's driver unbound: kernel request 150 programmed"
write_ok "$EP/request" remove
report_ep0_registers auto "kernel request removed"
mode plain
bind
set_lt 90
report_ep0_registers 90 "plain driver bound again: 90"
set_lt auto

# SR-IOV: VFs never have the LTR capability, their PF's does for them
# (PCIe r6.0, sec 7.8.2): ep0's driver enables its 2 VFs, whose
# tolerances bound ep0's registers
write_ok "$DEV/sriov_numvfs" 2
VF1A=$(attr vf1) VF2A=$(attr vf2)
[ "$(line_of "$VF1A")" = auto ] && [ "$(line_of "$VF2A")" = auto ]
ktap_result $? "VFs $(name vf1) and $(name vf2) enabled, with $ATTR ($(line_of "$VF1A"), $(line_of "$VF2A"))"
write_ok "$VF1A" 100
report_ep0_registers 100 "VF 1 100: ep0's registers"
write_ok "$VF2A" 50
report_ep0_registers 50 "VF 1 100, VF 2 50"
write_ok "$DEV/sriov_numvfs" 0
report_ep0_registers auto "VFs disabled: the ceilings"

# One component, one LTR: Function 1 of mf has no LTR capability (only
# Function 0 may: PCIe r6.0, sec 7.8.2), its tolerance bounds Function 0's
# registers too
MF1A=$(attr mf1)
[ "$(line_of "$MF1A")" = auto ] && [ "$(line_of "$(attr mf0)")" = auto ]
ktap_result $? "mf0 and mf1 have $ATTR ($(line_of "$(attr mf0)"), $(line_of "$MF1A"))"
write_ok "$MF1A" 100
report_registers mf0 rp02 100 "mf1 100: mf0's registers"
write_ok "$(attr mf0)" 500
report_registers mf0 rp02 100 "mf0 500, mf1 100"
write_ok "$MF1A" auto
report_registers mf0 rp02 500 "mf0 500, mf1 auto"
write_ok "$T/mf1/request" 90
report_registers mf0 rp02 90 "mf0 500, mf1 kernel request 90"
write_ok "$T/mf1/request" remove
write_ok "$(attr mf0)" 600
report_registers mf0 rp02 600 "mf0 600 (above the snoop ceiling)"
# mf1 goes (its requests with it), and comes back
write_ok "$MF1A" 50
MF1D=/sys/bus/pci/devices/$(name mf1)
write_ok "$MF1D/remove" 1
report_registers mf0 rp02 600 "mf1 (50) removed: mf0 600 alone"
write_ok /sys/bus/pci/rescan 1
write_ok "$MF1A" 50
report_registers mf0 rp02 50 "mf1 found again, 50"
# mf0 goes, mf1 stays: its requests are kept for mf0's return
MF0D=/sys/bus/pci/devices/$(name mf0)
write_ok "$MF0D/remove" 1
write_ok "$MF1A" 90
write_ok /sys/bus/pci/rescan 1
report_registers mf0 rp02 90 "mf0 removed, mf1 90, mf0 found again"
write_ok "$MF1A" auto
is_ceiling mf0 rp02
ktap_result $? "mf1 auto: mf0's ceilings: $(words)"

# Only another function resumes.  mf0, found again, has no driver: its
# runtime suspend leaves it in D0 with its state saved, and nothing
# restores it while it stays suspended (pci_pm_runtime_suspend()).  mf1
# suspends to D3hot, then rp2.  mf1 gets a tolerance while rp2 cannot
# forward it, then resumes, which resumes rp2: mf0's registers must hold
# the value before mf1 does I/O again.
MF0D=/sys/bus/pci/devices/$(name mf0)
rpm mf0 auto
rpm mf1 auto
rpm_wait "/sys/bus/pci/devices/$(name rp2)" suspended
ktap_result $? "mf0 (no driver, $(line_of "$T/mf0/power")), mf1 ($(line_of "$T/mf1/power")) and rp2 ($(line_of "$T/rp2/power")) runtime-suspended"
write_ok "$MF1A" 200
rpm mf1 on
[ "$(line_of "$MF0D/power/runtime_status")" = suspended ]
ktap_result $? "mf1 resumed, mf0 still $(line_of "$MF0D/power/runtime_status")"
report_registers mf0 rp02 200 "mf1 200 while rp2 was in D3hot, mf1 alone resumed: mf0's registers"
rpm mf0 on
write_ok "$MF1A" auto

# Firmware left mf0's LTR disabled with Max Snoop Latency 0x1003 (3145728
# ns), above rp2's _DSM (0x09f4, 512000 ns), and Max No-Snoop 0x0801 (1024
# ns), below it (0x0c14, 655360 ns): "software should set this to the
# platform's maximum supported latency or less" (PCIe r6.0, sec 7.8.2.2-3),
# so each register gets the smaller before LTR is enabled: 0x080109f4.
write_ok "$MF0D/remove" 1
write_ok "$T/mf0/ltr_en" 0
write_ok "$T/mf0/snoop" 0x1003
write_ok "$T/mf0/nosnoop" 0x0801
write_ok /sys/bus/pci/rescan 1
[ "$(line_of "$T/mf0/max_at_enable")" = 0x080109f4 ]
ktap_result $? "firmware's values above and below rp2's _DSM: LTR enabled over $(line_of "$T/mf0/max_at_enable"), expected 0x080109f4"

# A Switch Upstream Port has the capability too
USA=$(attr us)
[ "$(line_of "$USA")" = auto ]
ktap_result $? "the Switch Upstream Port has $ATTR ($(line_of "$USA"))"
write_ok "$USA" 50
report_registers us rp03 50 "Switch Upstream Port 50"
write_ok "$USA" 400
report_registers us rp03 400 "Switch Upstream Port 400"

# The same under ARI: Function 8 (devfn 0x08, "slot 1" without ARI) of the
# device below rp4 has no LTR capability, Function 0 has
AR8A=$(attr ar8)
[ "$(line_of "$AR8A")" = auto ]
ktap_result $? "ARI Function 8 has $ATTR ($(line_of "$AR8A"))"
write_ok "$AR8A" 100
report_registers ar0 ar0 100 "ARI Function 8 100: Function 0's registers"
write_ok "$(attr ar0)" 50
report_registers ar0 ar0 50 "ARI Function 0 50, Function 8 100"
write_ok "$(attr ar0)" auto
write_ok "$AR8A" auto
is_ceiling ar0 ar0
ktap_result $? "ARI Functions 0 and 8 auto: the ceilings, $(words)"
# RsvdP: software preserves the value read (PCIe r6.0, sec 7.8.2.2-3)
w=$(line_of "$T/ar0/written")
[ "$w" != none ] && [ $((w & 0xe000e000)) = $((0xe000e000)) ]
ktap_result $? "ar0: RsvdP bits hard-wired to 1 written back as 1 (last dword written $w)"
w=$(line_of "$EP/written")
[ "$w" != none ] && [ $((w & 0xe000e000)) = 0 ]
ktap_result $? "ep0: RsvdP bits reading 0 written as 0 (last dword written $w)"

# A device hot-added below ds1, whose _DSM gives the latencies: they are
# in its registers before LTR is enabled
# ds1, with nothing below it, has runtime-suspended to D3hot: a rescan
# would find nothing below it
rpm ds1 on
write_ok "$T/hp0/plug" 1
write_ok /sys/bus/pci/rescan 1
[ "$(line_of "$T/hp0/max_at_enable")" = "$(hex32 "$(ceil_of dsp1)")" ]
ktap_result $? "hot-added hp0: LTR enabled over ds1's _DSM max latencies ($(line_of "$T/hp0/max_at_enable"))"
HPA=$(attr hp0)
[ "$(line_of "$HPA")" = auto ] && write_ok "$HPA" 250
report_registers hp0 dsp1 250 "hot-added hp0: 250"
write_ok "$T/hp0/request" 100
report_registers hp0 dsp1 100 "hot-added hp0: kernel request 100"
write_ok "$T/hp0/request" remove

# In the end
regs ep1
[ $((S)) = 0 ] && [ $((N)) = 0 ] && ! [ -e "$(attr ep1)" ]
ktap_result $? "ep1 untouched: $(words), no attribute"
[ "$(logged)" = 1 ]
ktap_result $? "still logged once ($(logged) line)"

# Firmware kept control of LTR (_OSC) but enabled it: the PCI core leaves
# the device alone.  ep0 is removed and found again by a rescan with the
# host bridge's native_ltr clear, LTR Enable set in its configuration
# space meanwhile, as firmware would have left it.  Last: the test
# module's files for ep0 other than name and the registers act on the
# pci_dev removed.
write_ok "$T/native_ltr" 0
write_ok "$DEV/remove" 1
write_ok "$EP/ltr_en" 1
write_ok /sys/bus/pci/rescan 1
[ -d "$DEV" ] && ! [ -e "$A" ] && [ "$(line_of "$EP/ltr_en")" = 1 ] && is_ceiling ep0 ep0
ktap_result $? "found again with LTR left to firmware: no attribute, LTR enabled ($(line_of "$EP/ltr_en")), $(words)"
write_ok "$T/native_ltr" 1
write_ok "$DEV/remove" 1
write_ok /sys/bus/pci/rescan 1
[ "$(line_of "$A")" = auto ]
ktap_result $? "found again with native LTR control: $ATTR reads $(line_of "$A")"

# Left lowered at power-off: the shutdown of ep0 gives the registers their
# ceilings back, for a kernel started by kexec, which takes what it finds
# for firmware's values.  The test module checks them after every device
# is shut down (the document pcie_ltr_power_off, expected by the profile).
set_lt 100
report_ep0_registers 100 "100 left at power-off"
write_ok "$T/check_at_power_off" 1

finish_suite
