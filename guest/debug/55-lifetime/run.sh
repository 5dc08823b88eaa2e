#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Callback lifetime.  A target on the test module's bus has the "pmh"
# driver bound: its probe installs a callback that sleeps (cb_delay_ms)
# and then writes to its driver data; its remove hides the attribute,
# clears the callback and frees the data, as intel-lpss, sdhci-pci and
# ufshcd-pci do.  While two writers update a kernel request of the device
# and an ancestor request from its child without pause, the driver is
# unbound and bound again LOOPS times (default 30): after each unbind the
# callback count must not move, after each bind the attribute is back.
# KASAN reports any call that outlives remove().  Afterwards the callback
# has the minimum of the live requests.  Then device removal: a device
# whose callback is installed gets the no-constraint value (-1) once, as
# when its last request goes; one whose driver was unbound first gets no
# call (trace event power/dev_pm_qos_latency_tolerance).
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

LOOPS=${LIFETIME_LOOPS:-30}
DRV=$TEST_DRV
STOP=$TMP/stop
TRACE=/sys/kernel/tracing
EV=$TRACE/events/power/dev_pm_qos_latency_tolerance

ktap_print_header
ktap_set_plan 9

# A writer: update request 1 of target $1 with values from $2 up until
# $STOP exists; counts its updates in $TMP/n.$1.
writer() {
	w_n=0 w_v=$2
	while ! [ -e "$STOP" ]; do
		w_v=$((w_v + 1))
		[ "$w_v" -gt $(($2 + 50)) ] && w_v=$2
		op_ok=0
		{ echo "update 1 $w_v" >"$(target_debugfs "$1")/requests"; } 2>/dev/null || op_ok=1
		[ "$op_ok" = 0 ] && w_n=$((w_n + 1))
	done
	echo "$w_n" >"$TMP/n.$1"
}

ok=0
add_target ud drv && add_target uc "parent=ud nocb" || ok=1
[ -e "$(target_sysfs ud)/driver" ] || { diag "pmh did not bind to ud"; ok=1; }
[ -e "$(target_attr ud)" ] || { diag "probe did not expose $ATTR"; ok=1; }
write_ok "$(target_debugfs ud)/requests" "add 1 300" || ok=1
write_ok "$(target_debugfs uc)/requests" "ancestor 1 400" || ok=1
write_ok "$(target_debugfs ud)/cb_delay_ms" 5 || ok=1
ktap_result $ok "pmh bound to ud, kernel and ancestor requests added"

writer ud 300 &
writer uc 400 &

moved=0 unbound=0 rebound=0 loops=0
while [ "$loops" -lt "$LOOPS" ]; do
	loops=$((loops + 1))
	write_value "$DRV/unbind" ud
	[ "$WRITE_RESULT" = OK ] && ! [ -e "$(target_sysfs ud)/driver" ] && unbound=$((unbound + 1))
	read_callback_state ud
	before=$CALLBACK_STATE
	sleep 0.05
	read_callback_state ud
	if [ "$CALLBACK_STATE" != "$before" ]; then
		moved=$((moved + 1))
		diag "loop $loops: callback called after unbind: $before -> $CALLBACK_STATE"
	fi
	write_value "$DRV/bind" ud
	[ "$WRITE_RESULT" = OK ] && [ -e "$(target_attr ud)" ] && rebound=$((rebound + 1))
done
touch "$STOP"
wait
diag "$loops unbind/bind loops; updates while looping: ud $(cat "$TMP/n.ud"), uc $(cat "$TMP/n.uc")"

check_eq "unbinds" "$unbound" "$LOOPS"
ktap_result $? "driver unbound $LOOPS times"
check_eq "binds" "$rebound" "$LOOPS"
ktap_result $? "driver bound again $LOOPS times, attribute exposed each time"
check_eq "calls after unbind" "$moved" 0
ktap_result $? "no callback call after any unbind"

# The callback has the minimum of the live requests: the last values of
# the two writers (the test module lists them)
ok=0
min=
for t in ud uc; do
	read -r _ v _ <"$(target_debugfs "$t")/requests"
	[ -z "$min" ] || [ "$v" -lt "$min" ] && min=$v
done
read_callback_state ud
check_eq "callback after the loops" "${CALLBACK_STATE%/*}" "$min" || ok=1
ktap_result $ok "callback has the minimum of the live requests ($min)"

# Device removal with a callback installed: -1, once
trace_on() {
	echo 0 >"$TRACE/tracing_on"
	echo >"$TRACE/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$TRACE/tracing_on"
}
trace_count() {  # trace_count DEVICE VALUE: number of calls in the trace
	grep -c "device=$1 tolerance=$2\$" "$TRACE/trace"
}
if ! [ -d "$EV" ]; then
	for d in "removal with callback: no trace event" "removal after unbind: no trace event" \
		"bound device removed: driver saw -1"; do
		ktap_result 1 "$d"
	done
else
	write_ok "$(target_debugfs uc)/requests" "remove 1"
	trace_on
	remove_target uc && remove_target ud keep
	n=$(trace_count ud -1)
	check_eq "calls with -1 on removal" "$n" 1
	ktap_result $? "device removed with the driver bound: callback gets -1 once"

	add_target ve drv && write_ok "$(target_debugfs ve)/requests" "add 1 50"
	write_ok "$DRV/unbind" ve
	trace_on
	remove_target ve keep
	n=$(grep -c "device=ve " "$TRACE/trace")
	check_eq "calls after unbind and removal" "$n" 0
	ktap_result $? "device removed after its callback was cleared: no call"

	add_target vf
	write_ok "$(target_debugfs vf)/requests" "add 1 70"
	trace_on
	remove_target vf keep
	n=$(trace_count vf -1)
	check_eq "calls with -1 on removal" "$n" 1
	ktap_result $? "device with a callback installed before registration: -1 once on removal"
	echo 0 >"$EV/enable"
fi

finish_with_removal_check
