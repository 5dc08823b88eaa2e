#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The PCIe LTR backend of latency tolerance PM QoS (drivers/pci/pcie/ltr.c)
# on the test host bridge of lib/test_pcie_ltr_qos.c: its Endpoint ep0 has
# the LTR capability with Max Snoop/No-Snoop Latency left by "firmware"
# (the module's snoop= and nosnoop=, 0x1003 and 0x0cc8 by default: 3.1 ms
# and 6.6 ms, so that each register's own ceiling shows), ep1 has them
# 0 (hot-added).  The register words are read from the emulated
# configuration space (debugfs), not through the PCI core.  For a sweep of
# tolerances, auto, any, the firmware ceiling (never exceeded, logged once),
# a kernel request, a simulated D3cold cycle, state loss across save and
# restore and across a suspend/resume cycle, and drivers that keep the
# PCI core's callback, install their own, opt out or write the registers;
# ep1 and the emulated NVMe controller (no LTR capability) get no
# attribute.
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
SUITE=pcie_ltr
T=/sys/kernel/debug/test_pcie_ltr_qos
EP=$T/ep0
DRV=/sys/bus/pci/drivers/test_pcie_ltr_qos
PARAMS=/sys/module/test_pcie_ltr_qos/parameters

rows="0 1 31 32 33 999 1000 1023 1024 1047 1048 2000 3000 3145 3146 5000
6553 6554 32767 100000 2147483646"
count=0
for t in $rows; do count=$((count + 1)); done

ktap_begin $SUITE $((count + 42))

if ! [ -d "$EP" ]; then
	echo "not ok 1 $T missing (CONFIG_TEST_PCIE_LTR_QOS)"
	exit 1
fi
TMP=$(mktemp -d /tmp/pcieltr.XXXXXX)
ERR=$TMP/err IN=$TMP/in

read -r NAME <"$EP/name"
read -r NAME1 <"$T/ep1/name"
DEV=/sys/bus/pci/devices/$NAME
A=$DEV/$ATTR
# the ceilings: what firmware left (the module's parameters, in decimal)
CS=$(($(cat "$PARAMS/snoop") & 0x1fff))
CN=$(($(cat "$PARAMS/nosnoop") & 0x1fff))

hex() { printf '0x%04x' "$1"; }

# lat_ns REG: the latency of a Max Latency register (value bits 9:0, scale
# bits 12:10, unit 2^(5*scale) ns)
lat_ns() { echo $((($1 & 0x3ff) << (5 * (($1 >> 10) & 7)))); }

# expect US CEIL: the register for a tolerance of US us under the ceiling
# CEIL, from the LTR format alone: the finest scale (0-5) whose 10-bit
# value holds the tolerance, rounded down; the ceiling itself if the
# tolerance is not below it.  auto and any give the ceiling.
expect() {
	case $1 in auto | any) echo $(($2)); return ;; esac
	ex_ns=$(($1 * 1000))
	if [ "$ex_ns" -ge "$(lat_ns "$2")" ]; then
		echo $(($2))
		return
	fi
	ex_s=0
	while [ $((ex_ns >> (5 * ex_s))) -gt 1023 ]; do ex_s=$((ex_s + 1)); done
	echo $(((ex_s << 10) | (ex_ns >> (5 * ex_s))))
}

# regs: S and N = the two register words ep0 holds
regs() {
	read -r S <"$EP/snoop"
	read -r N <"$EP/nosnoop"
}

# words: the register words, for the descriptions
words() { echo "snoop $S nosnoop $N"; }

# is_regs SNOOP NOSNOOP: ep0 holds them
is_regs() {
	regs
	[ $((S)) = $(($1)) ] && [ $((N)) = $(($2)) ] && return 0
	diag "expected snoop $(hex "$1") nosnoop $(hex "$2"), got $(words)"
	return 1
}

# chk US DESC: ep0 holds the registers for an effective tolerance of US
chk() {
	is_regs "$(expect "$1" $CS)" "$(expect "$1" $CN)"
	result $? "$2: $(words)"
}

# is_ceiling: ep0 holds its ceilings
is_ceiling() { is_regs $CS $CN; }

# set_lt VALUE: write VALUE to ep0's attribute
set_lt() { wr_ok "$A" "$1"; }

logged() { dmesg | grep -c "$NAME: LTR: tolerance of"; }

bind() { wr_ok "$DRV/bind" "$NAME"; }
unbind() { wr_ok "$DRV/unbind" "$NAME"; }
mode() { wr_ok "$T/driver_mode" "$1"; }

# suspend_cycle: every suspend and resume phase of the devices (the noirq
# ones too, where the PCI core saves and restores), pm_test=platform
suspend_cycle() {
	echo 1 >/sys/module/suspend/parameters/pm_test_delay 2>/dev/null
	if ! [ -w /sys/power/pm_test ] || ! grep -qw mem /sys/power/state; then
		return 1
	fi
	echo platform >/sys/power/pm_test
	sc_rc=1
	echo mem >/sys/power/state && sc_rc=0
	echo none >/sys/power/pm_test
	return $sc_rc
}

# Enumeration
[ -d "$DEV" ] && [ "$(rd "$DEV/vendor")" = 0x1b36 ]
result $? "ep0 enumerated by the PCI core as $NAME"
[ "$(rd "$EP/ltr_en")" = 1 ]
result $? "ep0: LTR enabled by the PCI core (DEVCTL2.LTR_EN $(rd "$EP/ltr_en"))"
is_ceiling
result $? "ep0: firmware values untouched at enumeration: $(words)"
[ "$(rd "$A")" = auto ]
result $? "ep0: $ATTR present, reads $(rd "$A")"
read -r S1 <"$T/ep1/snoop"
read -r N1 <"$T/ep1/nosnoop"
! [ -e "/sys/bus/pci/devices/$NAME1/$ATTR" ] && [ $((S1)) = 0 ] && [ $((N1)) = 0 ]
result $? "ep1 (firmware left 0, no _DSM): no attribute, snoop $S1 nosnoop $N1"
nvme=
for d in /sys/bus/pci/devices/*; do
	case $(rd "$d/class") in 0x010802) nvme=$d ;; esac
done
[ -n "$nvme" ] && ! [ -e "$nvme/$ATTR" ]
result $? "NVMe controller ${nvme##*/} (no LTR capability): no attribute"

# The sweep: both words rounded down, never above their ceiling
for t in $rows; do
	set_lt "$t"
	chk "$t" "$t us"
done
[ "$(logged)" = 1 ]
result $? "a tolerance above the ceiling logged once ($(logged) line)"
diag "$(dmesg | grep "$NAME: LTR: tolerance of")"

set_lt 500
set_lt auto
chk auto "500 -> auto: the ceiling"
set_lt 500
chk 500 "auto -> 500"
set_lt any
chk any "500 -> any: the ceiling"
set_lt auto

# A kernel request (the test module's) with the user space one
wr_ok "$EP/request" 200
chk 200 "kernel request 200"
set_lt 100
chk 100 "kernel 200, user 100"
set_lt 500
chk 200 "kernel 200, user 500"
set_lt auto
chk 200 "kernel 200, user auto"
wr_ok "$EP/request" 50
chk 50 "kernel request updated to 50"
wr_ok "$EP/request" 5000
chk 5000 "kernel request 5000, above the snoop ceiling only"
wr_ok "$EP/request" remove
regs
[ "$(rd "$A")" = auto ] && is_ceiling
result $? "kernel request removed: the ceiling, attribute auto: $(words)"

# D3cold: saved before power-off, a change while off, restored at power-on
set_lt 100
wr_ok "$EP/power" d3cold
set_lt 300
wr_ok "$EP/power" d0
chk 300 "300 written in D3cold, after power-on"
[ "$(rd "$EP/ltr_en")" = 1 ]
result $? "after power-on: LTR enabled again ($(rd "$EP/ltr_en"))"

# State lost behind the PCI core's back, then saved and restored: what was
# programmed is saved, not what the device holds
set_lt 400
wr_ok "$EP/lose" 1
is_regs 0 0
result $? "lost: $(words)"
wr_ok "$EP/save_restore" 1
chk 400 "lost, then saved and restored"

# The same across a suspend/resume cycle
set_lt 600
wr_ok "$EP/lose" 1
suspend_cycle
result $? "suspend/resume cycle ran ($(cat /sys/power/state))"
chk 600 "lost, then suspended and resumed"

# Drivers: the test driver is bound ("plain": it keeps the PCI core's
# callback).  Unbound, the callback stays.
unbind
set_lt 250
chk 250 "driver unbound: 250"

# A driver with a callback of its own replaces the PCI core's: the
# registers go back to the ceiling, its callback gets the requests
mode own
bind
regs
[ "$(rd "$T/own_cb")" = 250 ] && is_ceiling
result $? "driver with its own callback bound: it got $(rd "$T/own_cb"), $(words)"
set_lt 120
regs
[ "$(rd "$T/own_cb")" = 120 ] && is_ceiling
result $? "own callback: 120 goes to it ($(rd "$T/own_cb")), $(words)"
wr_ok "$EP/request" 150
regs
[ "$(rd "$T/own_cb")" = 120 ] && is_ceiling
result $? "own callback: kernel request 150 too ($(rd "$T/own_cb")), $(words)"
# Its remove hides the attribute and clears its callback: the PCI core
# installs its own again, programs the request left and exposes it
unbind
regs
[ "$(rd "$A")" = auto ]
result $? "own callback's driver unbound: $ATTR back, reads $(rd "$A")"
chk 150 "own callback's driver unbound: kernel request 150 programmed"
wr_ok "$EP/request" remove
chk auto "kernel request removed"

# A driver that opts out
mode optout
bind
regs
! [ -e "$A" ] && is_ceiling
result $? "driver opted out: no attribute, $(words)"
wr_expect "$EP/request" 10 EINVAL
result $? "opted out: a kernel request is refused ($RES)"
unbind
[ -e "$A" ] && set_lt 90
chk 90 "opting driver unbound: the attribute is back, 90"

# A driver that writes the registers itself at probe (amdgpu does): they
# keep what it wrote, the attribute goes (and the request of user space
# with it, as for a driver that opts out), until it is unbound
mode write
bind
regs
! [ -e "$A" ] && is_regs 0x0864 0x0864
result $? "driver writing the registers bound: no attribute, its values kept: $(words)"
dmesg | grep -q "$NAME: LTR: max latencies 0x0864/0x0864 written by its driver"
result $? "driver writing the registers: logged"
unbind
regs
[ "$(rd "$A")" = auto ] && is_ceiling
result $? "writing driver unbound: the attribute is back ($(rd "$A")), the ceilings over its values: $(words)"
set_lt 90
mode plain
bind
chk 90 "plain driver bound: 90 kept"
set_lt auto
chk auto "auto"

# In the end
read -r S1 <"$T/ep1/snoop"
read -r N1 <"$T/ep1/nosnoop"
[ $((S1)) = 0 ] && [ $((N1)) = 0 ] && ! [ -e "/sys/bus/pci/devices/$NAME1/$ATTR" ]
result $? "ep1 untouched: snoop $S1 nosnoop $N1, no attribute"
[ "$(logged)" = 1 ]
result $? "still logged once ($(logged) line)"

# Firmware kept control of LTR (_OSC) but enabled it: the PCI core leaves
# the device alone.  ep0 is removed and found again by a rescan with the
# host bridge's native_ltr clear, LTR Enable set in its configuration
# space meanwhile, as firmware would have left it.  Last: the test
# module's files for ep0 other than name and the registers act on the
# pci_dev removed.
wr_ok "$T/native_ltr" 0
wr_ok "$DEV/remove" 1
wr_ok "$EP/ltr_en" 1
wr_ok /sys/bus/pci/rescan 1
regs
[ -d "$DEV" ] && ! [ -e "$A" ] && [ "$(rd "$EP/ltr_en")" = 1 ] && is_ceiling
result $? "found again with LTR left to firmware: no attribute, LTR enabled ($(rd "$EP/ltr_en")), $(words)"
wr_ok "$T/native_ltr" 1
wr_ok "$DEV/remove" 1
wr_ok /sys/bus/pci/rescan 1
[ "$(rd "$A")" = auto ]
result $? "found again with native LTR control: $ATTR reads $(rd "$A")"

ktap_end $SUITE
rm -rf "$TMP"
[ "$KTAP_FAIL" = 0 ]
