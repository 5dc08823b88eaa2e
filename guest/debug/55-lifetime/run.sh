#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Callback lifetime.  A target on the test module's bus has the "tpq"
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
SUITE=power_qos_lifetime
# shellcheck source=../../lib.sh # installed as /lib/guest.sh
. /lib/guest.sh
use_test_module

LOOPS=${LIFETIME_LOOPS:-30}
BUS=/sys/bus/test_power_qos
DRV=$BUS/drivers/tpq
STOP=$TMP/stop
TRACE=/sys/kernel/tracing
EV=$TRACE/events/power/dev_pm_qos_latency_tolerance

ktap_begin "$SUITE" 9

# A writer: update request 1 of target $1 with values from $2 up until
# $STOP exists; counts its updates in $TMP/n.$1.
writer() {
	w_n=0 w_v=$2
	while ! [ -e "$STOP" ]; do
		w_v=$((w_v + 1))
		[ "$w_v" -gt $(($2 + 50)) ] && w_v=$2
		op_ok=0
		{ echo "update 1 $w_v" >"$(td "$1")/requests"; } 2>/dev/null || op_ok=1
		[ "$op_ok" = 0 ] && w_n=$((w_n + 1))
	done
	echo "$w_n" >"$TMP/n.$1"
}

ok=0
mk ud drv && mk uc "parent=ud nocb" || ok=1
[ -e "$(sd ud)/driver" ] || { diag "tpq did not bind to ud"; ok=1; }
[ -e "$(lt ud)" ] || { diag "probe did not expose $ATTR"; ok=1; }
wr_ok "$(td ud)/requests" "add 1 300" || ok=1
wr_ok "$(td uc)/requests" "ancestor 1 400" || ok=1
wr_ok "$(td ud)/cb_delay_ms" 5 || ok=1
result $ok "tpq bound to ud, kernel and ancestor requests added"

writer ud 300 &
writer uc 400 &

moved=0 unbound=0 rebound=0 loops=0
while [ "$loops" -lt "$LOOPS" ]; do
	loops=$((loops + 1))
	wr "$DRV/unbind" ud
	[ "$RES" = OK ] && ! [ -e "$(sd ud)/driver" ] && unbound=$((unbound + 1))
	cbv ud
	before=$CB
	sleep 0.05
	cbv ud
	if [ "$CB" != "$before" ]; then
		moved=$((moved + 1))
		diag "loop $loops: callback called after unbind: $before -> $CB"
	fi
	wr "$DRV/bind" ud
	[ "$RES" = OK ] && [ -e "$(lt ud)" ] && rebound=$((rebound + 1))
done
touch "$STOP"
wait
diag "$loops unbind/bind loops; updates while looping: ud $(cat "$TMP/n.ud"), uc $(cat "$TMP/n.uc")"

check_eq "unbinds" "$unbound" "$LOOPS"
result $? "driver unbound $LOOPS times"
check_eq "binds" "$rebound" "$LOOPS"
result $? "driver bound again $LOOPS times, attribute exposed each time"
check_eq "calls after unbind" "$moved" 0
result $? "no callback call after any unbind"

# The callback has the minimum of the live requests: the last values of
# the two writers (the test module lists them)
ok=0
min=
for t in ud uc; do
	read -r _ v _ <"$(td "$t")/requests"
	[ -z "$min" ] || [ "$v" -lt "$min" ] && min=$v
done
cbv ud
check_eq "callback after the loops" "${CB%/*}" "$min" || ok=1
result $ok "callback has the minimum of the live requests ($min)"

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
		result 1 "$d"
	done
else
	wr_ok "$(td uc)/requests" "remove 1"
	trace_on
	rmt uc && rmt ud keep
	n=$(trace_count ud -1)
	check_eq "calls with -1 on removal" "$n" 1
	result $? "device removed with the driver bound: callback gets -1 once"

	mk ve drv && wr_ok "$(td ve)/requests" "add 1 50"
	wr_ok "$DRV/unbind" ve
	trace_on
	rmt ve keep
	n=$(grep -c "device=ve " "$TRACE/trace")
	check_eq "calls after unbind and removal" "$n" 0
	result $? "device removed after its callback was cleared: no call"

	mk vf
	wr_ok "$(td vf)/requests" "add 1 70"
	trace_on
	rmt vf keep
	n=$(trace_count vf -1)
	check_eq "calls with -1 on removal" "$n" 1
	result $? "device with a callback installed before registration: -1 once on removal"
	echo 0 >"$EV/enable"
fi

end_suite
