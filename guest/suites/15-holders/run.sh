#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Latency tolerance requests held by open files, /dev/latency_tolerance
# (Documentation/ABI/testing/dev-latency_tolerance): held with the tool
# latency-tolerance (tools/power/latency-tolerance) and with the kernel
# selftest's holder lt_hold, on the emulated LPSS device with its in-tree
# backend (SW_LTR and GENERAL read through /dev/mem), and on targets of the
# test module pmqos_harness (kmod/) removed, or their driver unbound, while
# held.  Runs before 20-lpss-ltr, which leaves the LPSS device powered
# down.  The SW_LTR words are the LTR format's (PCIe r6.0 sec 7.8.2.2,
# scale 2 = 1024 ns, requirement bit 15): 50 us 0x8830 (48 x 1024 ns),
# 60 us 0x883a (58 x 1024 ns), 500 us 0x89e8 (488 x 1024 ns).
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
TOOL=latency-tolerance
DEV=${LPSS_DEV##*/}
TMP=$(mktemp -d /tmp/holders.XXXXXX) && chmod 755 "$TMP"
ERR=$TMP/err IN=$TMP/in
HPID=

is_regs() { [ "$(lpss_ltr_state)" = "$1" ]; }
is_auto() { [ $(($(lpss_reg $GENERAL) & MODE_SW)) = 0 ]; }
# wait_for CMD...: CMD succeeds within 5 s
wait_for() {
	wf_i=0
	until "$@"; do
		wf_i=$((wf_i + 1))
		[ $wf_i -le 50 ] || return 1
		sleep 0.1
	done
}

# hold_start ATTR VALUE: lt_hold holding VALUE for ATTR's device, fed
# values through fd 3; its output in $TMP/out
hold_start() {
	# the output of the holder before is no sign of this one
	rm -f "$TMP/fifo" "$TMP/out" && mkfifo "$TMP/fifo" || return 1
	lt_hold -i "$1" "$2" <"$TMP/fifo" >"$TMP/out" 2>&1 &
	HPID=$!
	exec 3>"$TMP/fifo"
	wait_for grep -qx held "$TMP/out" 2>/dev/null
}
# hold_send VALUE: write VALUE through the holder; its result line
hold_send() {
	echo "$1" >&3
	wait_for grep -q "^write $1: " "$TMP/out" 2>/dev/null &&
		sed -n "s/^write $1: //p" "$TMP/out" | tail -n 1
}
# hold_stop: close the holder's input; HRC is its exit status
hold_stop() {
	exec 3>&-
	wait "$HPID"
	HRC=$?
	HPID=
}

cleanup() {
	[ -z "$HPID" ] || { exec 3>&-; kill "$HPID" 2>/dev/null; }
	killall sleep 2>/dev/null
	echo auto >"$LPSS_ATTR" 2>/dev/null
	chown 0:0 "$LPSS_ATTR" 2>/dev/null
	for t in $TARGETS; do remove_target "$t" >/dev/null; done
	rm -rf "$TMP"
}

[ -c /dev/latency_tolerance ] || cannot_run "no /dev/latency_tolerance (CONFIG_PM_LATENCY_TOLERANCE_DEV)"
if ! command -v $TOOL >/dev/null || ! command -v lt_hold >/dev/null; then
	cannot_run "no $TOOL or lt_hold in the image (kernel/build-user.sh)"
fi
[ -e "$LPSS_ATTR" ] || cannot_run "no $LPSS_ATTR"
ktap_print_header
ktap_set_plan 23

is_auto
ktap_result $? "$DEV starts in auto mode: $(lpss_ltr_state)"

# A command run while holding sees the tolerance, and it is gone after.
$TOOL hold "$DEV" 50 -- sh -c '. /lib/guest.sh; lpss_ltr_state' >"$TMP/during" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(cat "$TMP/during")" = "0x8830 4" ]
ktap_result $? "hold 50 us around a command: it sees $(cat "$TMP/during") (exit $rc)"
is_auto
ktap_result $? "after the command: auto again, $(lpss_ltr_state)"

$TOOL hold "$DEV" 50 -- sh -c 'exit 7'
rc=$?
[ $rc = 7 ]
ktap_result $? "hold exits with the command's status: $rc"

# Signals go to the command; the tool exits as the command did.
$TOOL hold "$DEV" 60 -- sleep 30 &
p=$!
wait_for is_regs "0x883a 4"
ktap_result $? "hold 60 us in the background: $(lpss_ltr_state)"
kill -TERM $p
wait $p
rc=$?
[ $rc = 143 ] && ! pidof sleep >/dev/null && wait_for is_auto
ktap_result $? "SIGTERM to hold ends the command (exit $rc), and the request: $(lpss_ltr_state)"

# Killed with SIGKILL, the holder holds nothing.
$TOOL hold "$DEV" 60 -- sleep 30 &
p=$!
wait_for is_regs "0x883a 4" && kill -KILL $p
wait $p
killall sleep 2>/dev/null
wait_for is_auto
ktap_result $? "SIGKILL to hold: the request is gone, $(lpss_ltr_state)"

# The attribute and a holder: their minimum, the attribute's after.
$TOOL set "$DEV" 500 && [ "$(line_of "$LPSS_ATTR")" = 500 ] && is_regs "0x89e8 4"
ktap_result $? "set 500 writes the attribute: $(line_of "$LPSS_ATTR"), $(lpss_ltr_state)"
$TOOL hold "$DEV" 50 -- sh -c '. /lib/guest.sh; lpss_ltr_state' >"$TMP/during" 2>&1
[ "$(cat "$TMP/during")" = "0x8830 4" ] && is_regs "0x89e8 4"
ktap_result $? "hold 50 under the attribute's 500: $(cat "$TMP/during"), then $(lpss_ltr_state)"

# Three holders under the attribute's 400 us: their minimum, and released
# one by one, SW_LTR walks back up to the attribute's value.  Words: 100 us
# 0x8861 (97 x 1024 ns), 200 us 0x88c3 (195), 300 us 0x8924 (292), 400 us
# 0x8986 (390).
$TOOL set "$DEV" 400
set --
for v in 300 100 200; do
	$TOOL hold "$DEV" $v -- sleep 30 &
	set -- "$@" $!
done
wait_for is_regs "0x8861 4"
ktap_result $? "holders of 300, 100 and 200 us under the attribute's 400: $(lpss_ltr_state)"
walk=
for step in "$2:0x88c3" "$3:0x8924" "$1:0x8986"; do
	kill "${step%%:*}"
	wait_for is_regs "${step#*:} 4" || break
	walk="$walk $(lpss_ltr_state | cut -d' ' -f1)"
done
wait
[ "$walk" = " 0x88c3 0x8924 0x8986" ]
ktap_result $? "holders of 100, 200, 300 us released in turn: SW_LTR$walk"

# list, while a holder holds
$TOOL set "$DEV" auto
$TOOL hold "$DEV" 50 -- $TOOL list >"$TMP/list" 2>&1
diag "$(cat "$TMP/list")"
grep -qx "  effective: 50" "$TMP/list" &&
	grep -q "^  held: 50 by pid [0-9]* (latency-toleran), fd [0-9]*\$" "$TMP/list" &&
	grep -qx "  LPSS SW_LTR: 0x00008830 (49152 ns, requirement on)" "$TMP/list" &&
	grep -qx "  attribute: auto" "$TMP/list"
ktap_result $? "list shows the attribute, the effective value, the holder and SW_LTR"

# Across a suspend/resume cycle
hold_start "$LPSS_ATTR" 50 && suspend_cycle && is_regs "0x8830 4" &&
	[ "$(hold_send 60)" = OK ] && is_regs "0x883a 4"
ktap_result $? "held across suspend and resume, and set after it: $(lpss_ltr_state)"
hold_stop
[ "$HRC" = 0 ] && is_auto
ktap_result $? "closed: auto again, $(lpss_ltr_state)"

# A device without the attribute, a name that matches no device: hold and
# set say so, and exit as the tool fails.
add_target n1 nocb && $TOOL hold "$(target_sysfs n1)" 50 -- true 2>"$ERR"
rc=$?
$TOOL set no-such-device 50 2>"$ERR.2"
rc2=$?
[ $rc = 125 ] && grep -q "n1 has no $ATTR: no driver takes requests\$" "$ERR" &&
	[ $rc2 = 1 ] && grep -q "no device no-such-device with $ATTR" "$ERR.2"
ktap_result $? "hold exits $rc: $(cat "$ERR"); set exits $rc2: $(cat "$ERR.2")"
remove_target n1 >/dev/null

# A kernel without /dev/latency_tolerance: hold says what it needs, list
# shows everything else.
mv /dev/latency_tolerance /dev/latency_tolerance.away
$TOOL hold "$DEV" 50 -- true 2>"$ERR"
rc=$?
$TOOL list >"$TMP/list" 2>&1
lrc=$?
mv /dev/latency_tolerance.away /dev/latency_tolerance
[ $rc = 125 ] && grep -q "kernel without CONFIG_PM_LATENCY_TOLERANCE_DEV" "$ERR" &&
	[ $lrc = 0 ] && grep -qx "  attribute: auto" "$TMP/list" &&
	grep -q "^  effective: ? (needs .*/dev/latency_tolerance)\$" "$TMP/list"
ktap_result $? "no /dev/latency_tolerance: hold exits $rc, $(cat "$ERR"); list exits $lrc"

# Who may not write the attribute may not hold, until given it.
su -s /bin/sh tester -c "$TOOL hold $DEV 5 -- true" 2>"$ERR"
rc=$?
[ $rc = 125 ] && grep -q "permission denied" "$ERR" && is_auto
ktap_result $? "tester may not hold: exit $rc, $(cat "$ERR")"
chown tester "$LPSS_ATTR"
su -s /bin/sh tester -c "$TOOL hold $DEV 50 -- sleep 2" 2>"$ERR" &
p=$!
wait_for is_regs "0x8830 4" && during=$(lpss_ltr_state)
wait $p
rc=$?
[ $rc = 0 ] && [ "$during" = "0x8830 4" ] && is_auto
ktap_result $? "tester holds once given the attribute: ${during:-not held} (exit $rc)"
chown 0:0 "$LPSS_ATTR"

# A target removed while held: writes get ENODEV, close is silent.
add_target h1 && hold_start "$(target_attr h1)" 30 &&
	[ "$(line_of "$(target_debugfs h1)/cb_last")" = 30 ]
ktap_result $? "holding 30 for target h1: its callback got $(line_of "$(target_debugfs h1)/cb_last")"
remove_target h1 && res=$(hold_send 40) && [ "$res" = ENODEV ]
ktap_result $? "h1 removed: a write gets ${res:-nothing}"
hold_stop
[ "$HRC" = 0 ]
ktap_result $? "h1 removed: the holder closes (exit $HRC)"

# Its driver unbound while held: the request stays, and applies at rebind.
drv_dev=
add_target h2 drv && drv_dev=$(basename "$(target_sysfs h2)") &&
	hold_start "$(target_attr h2)" 25 && write_ok "$TEST_DRV/unbind" "$drv_dev" &&
	res=$(hold_send 35) && [ "$res" = ENODEV ] &&
	write_ok "$TEST_DRV/bind" "$drv_dev" &&
	[ "$(line_of "$(target_debugfs h2)/cb_last")" = 25 ]
ktap_result $? "h2 unbound while held: write ${res:-not made}, rebound: callback got $(line_of "$(target_debugfs h2)/cb_last")"
hold_stop

# Holders naming, setting and closing while their target is removed: the
# kernel reports nothing (KASAN, lockdep, KCSAN in their profiles)
n=0
while [ $n -lt 20 ]; do
	n=$((n + 1))
	add_target "r$n" || break
	lt_hold -x "$(target_attr "r$n")" 40 50 >/dev/null 2>&1 &
	remove_target "r$n" >/dev/null &
	wait
	forget_target "r$n"
done
[ $n = 20 ] && ! [ -e "$DEVS/r$n" ]
ktap_result $? "$n holders racing the removal of their target"

cleanup
ktap_finished
